//! First-Fit, or backfilling (SPEC 5.2.2): walk the queue in arrival order and start every
//! job that fits.
//!
//! Implemented as "repeatedly start the oldest waiting job that fits the free cores": a job
//! the walk skips did not fit when free cores were at least as many as later, so both give
//! the same starts, and each start costs one look at the class heads.

use crate::EngineError;
use crate::models::msfq::{Msfq, MsfqContext, MsfqDecision, MsfqPolicy, boxed};
use crate::model::policy::Policy;

pub const POLICY: Policy<Msfq> = Policy::new(
    "first-fit",
    "First-Fit",
    "backfilling: every waiting job that fits starts, oldest first (MSFQ §2)",
    |_, _| boxed(FirstFit),
);

#[derive(Debug, Clone, Default)]
pub struct FirstFit;

impl MsfqPolicy for FirstFit {
    fn admit(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError> {
        loop {
            let free = ctx.state().free();
            let Some(class) = ctx.state().oldest_where(|c| ctx.state().need(c) <= free) else {
                return Ok(());
            };
            ctx.apply(MsfqDecision::Start { class, why: "First-Fit: the oldest waiting job that fits" })?;
        }
    }
}
