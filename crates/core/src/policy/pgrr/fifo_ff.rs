//! FIFO-FF: first-in-first-out with first fit, and its variant without blocking.
//!
//! PG-RR §6 (Google-trace baseline; SPEC 2.2.8): the oldest waiting job goes to the
//! lowest-index server with room. With `blocking` (the default, RES-11) a head job that fits
//! nowhere stops scheduling for the slot; without it (FIFO-FF-skip) the walk skips it and
//! places every later job that fits.

use crate::EngineError;
use crate::engine::slotted::SlotContext;
use crate::policy::{Decision, Rule, SlottedPolicy};

/// First fit in arrival order.
#[derive(Debug, Clone, Copy)]
pub struct FifoFf {
    /// Head-of-line blocking (RES-11).
    pub blocking: bool,
}

impl SlottedPolicy for FifoFf {
    fn schedule(&mut self, ctx: &mut SlotContext<'_>) -> Result<(), EngineError> {
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
            ctx.apply(Decision::Start { job: job.id, server, rule: Rule::FirstFit })?;
            from = job.id + 1;
        }
        Ok(())
    }
}
