//! BF-J: best fit from the job's view.
//!
//! PG-RR §2.2.2 (SPEC 2.2.2): every slot, waiting jobs in arrival order each go to the server
//! with the smallest residual that fits them (lowest index on ties); a job that fits nowhere
//! waits.

use super::best_server_place;
use crate::EngineError;
use crate::models::pgrr::{Pgrr, boxed, PgrrContext, PgrrPolicy};
use crate::model::policy::Policy;

pub const POLICY: Policy<Pgrr> = Policy::new(
    "bf-j",
    "BF-J",
    "each waiting job, oldest first, goes to the fullest server it fits (PG-RR)",
    |_, _| boxed(BfJ),
);

/// Best fit, job's view.
#[derive(Debug, Clone, Copy, Default)]
pub struct BfJ;

impl PgrrPolicy for BfJ {
    fn schedule(&mut self, ctx: &mut PgrrContext<'_>) -> Result<(), EngineError> {
        // Only jobs no larger than the largest residual can start, and the largest residual
        // only shrinks during the slot, so the walk jumps from one such job to the next.
        let mut from = 0;
        while let Some(job) = ctx.queue().first_fitting(from, ctx.cluster().max_residual_by_fit()) {
            best_server_place(ctx, job.id)?;
            from = job.id + 1;
        }
        Ok(())
    }
}
