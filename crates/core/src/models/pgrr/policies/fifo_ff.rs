//! FIFO-FF: first-in-first-out with first fit.
//!
//! PG-RR §6 (Google-trace baseline; SPEC 2.2.8): the oldest waiting job goes to the
//! lowest-index server with room. With `blocking` (this policy, RES-11) a head job that fits
//! nowhere stops scheduling for the slot; without it ([`super::fifo_ff_skip`]) the walk skips
//! it and places every later job that fits.

use crate::EngineError;
use crate::decisions::Decision;
use crate::models::pgrr::state::JobId;
use crate::models::pgrr::{Pgrr, boxed, PgrrContext, PgrrDecision, PgrrPolicy, Rule};
use crate::model::policy::Policy;

pub const POLICY: Policy<Pgrr> = Policy::new(
    "fifo-ff",
    "FIFO-FF",
    "oldest job first into the lowest-index server it fits; blocks when it fits nowhere (PG-RR's trace baseline)",
    |_, _| boxed(FifoFf { blocking: true, blocked: None }),
);

/// First fit in arrival order.
#[derive(Debug, Clone, Copy)]
pub struct FifoFf {
    /// Head-of-line blocking (RES-11).
    pub blocking: bool,
    /// The head that blocked last, so the event log says so once, not every slot (it never
    /// changes a decision).
    pub blocked: Option<JobId>,
}

impl PgrrPolicy for FifoFf {
    fn schedule(&mut self, ctx: &mut PgrrContext<'_>) -> Result<(), EngineError> {
        let rule = Rule::Server("first fit: the lowest-numbered server it fits");
        let mut from = 0;
        loop {
            let next = if self.blocking {
                ctx.queue().head()
            } else {
                // Jobs larger than every residual are skipped without being visited.
                ctx.queue().first_fitting(from, ctx.cluster().max_residual())
            };
            let Some(job) = next else { break };
            let Some(server) = ctx.cluster().first_fit(0, job.occupies.primary()) else {
                if self.blocking && self.blocked != Some(job.id) {
                    self.blocked = Some(job.id);
                    // Recorded (counted) whether or not the run explains, so decisions keep
                    // their numbers; formatted only when it does.
                    let seen = ctx.explaining().then(|| {
                        let capacity = ctx.cluster().capacity() as f64;
                        let size = format!("{:.2}", job.occupies.primary() as f64 / capacity);
                        (size, ctx.units(ctx.cluster().max_residual()), ctx.queue().len())
                    });
                    ctx.record(|slot| {
                        let (size, room, waiting) = seen.unwrap_or_default();
                        Decision::new(slot, "block", format!("job {} (size {size}) blocks the queue", job.id), "FIFO: the oldest job fits no server, and nothing behind it may pass")
                            .job(job.id)
                            .fact("largest room of any server", room)
                            .fact("waiting behind it", (waiting - 1).to_string())
                    });
                }
                break;
            };
            if ctx.explaining() {
                let room = ctx.units(ctx.cluster().residual(server));
                ctx.note("lowest-numbered server it fits", format!("server {} (room {room})", server + 1));
            }
            ctx.apply(PgrrDecision::Start { job: job.id, server, rule })?;
            from = job.id + 1;
        }
        Ok(())
    }
}
