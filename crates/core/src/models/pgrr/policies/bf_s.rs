//! BF-S: best fit from the server's view.
//!
//! PG-RR §2.2.1 (SPEC 2.2.1): every slot, servers in index order each take the largest
//! waiting job that fits, repeatedly, until nothing fits.

use super::{LARGEST_FIT, best_fit_fill};
use crate::EngineError;
use crate::models::pgrr::{Pgrr, boxed, PgrrContext, PgrrPolicy};
use crate::model::policy::Policy;

pub const POLICY: Policy<Pgrr> = Policy::new(
    "bf-s",
    "BF-S",
    "each server, lowest index first, takes the largest waiting job that fits (PG-RR)",
    |_, _| boxed(BfS),
);

/// Best fit, server's view.
#[derive(Debug, Clone, Copy, Default)]
pub struct BfS;

impl PgrrPolicy for BfS {
    fn schedule(&mut self, ctx: &mut PgrrContext<'_>) -> Result<(), EngineError> {
        // A server whose residual is below the smallest waiting job takes nothing, and the
        // smallest waiting size only grows during the slot: visiting only the servers that
        // can take that job is the same as visiting all of them in index order.
        let mut from = 0;
        while let Some(smallest) = ctx.queue().min_size() {
            let Some(server) = ctx.cluster().first_fit(from, smallest) else { break };
            best_fit_fill(ctx, server, LARGEST_FIT, |_| {})?;
            from = server + 1;
        }
        Ok(())
    }
}
