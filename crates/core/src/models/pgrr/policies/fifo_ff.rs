//! FIFO-FF: first-in-first-out with first fit.
//!
//! PG-RR §6 (Google-trace baseline; SPEC 2.2.8): the oldest waiting job goes to the
//! lowest-index server with room. With `blocking` (this policy, RES-11) a head job that fits
//! nowhere stops scheduling for the slot; without it ([`super::fifo_ff_skip`]) the walk skips
//! it and places every later job that fits.

use crate::EngineError;
use crate::models::pgrr::{Pgrr, boxed, PgrrContext, PgrrDecision, PgrrPolicy, Rule};
use crate::policy::Policy;

pub const POLICY: Policy<Pgrr> = Policy::new(
    "fifo-ff",
    "FIFO-FF",
    "oldest job first into the lowest-index server it fits; blocks when it fits nowhere (§2.2.8)",
    |_, _| boxed(FifoFf { blocking: true }),
);

/// First fit in arrival order.
#[derive(Debug, Clone, Copy)]
pub struct FifoFf {
    /// Head-of-line blocking (RES-11).
    pub blocking: bool,
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
            let Some(server) = ctx.cluster().first_fit(0, job.occupies.primary()) else { break };
            ctx.apply(PgrrDecision::Start { job: job.id, server, rule })?;
            from = job.id + 1;
        }
        Ok(())
    }
}
