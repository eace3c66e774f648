//! BF-J/S: the combined best fit.
//!
//! PG-RR §2.2.3 (SPEC 2.2.3): each slot, every server that had a departure, in index order,
//! is filled by BF-S from the whole queue; then this slot's arrivals that still wait are
//! placed by BF-J. Afterwards no waiting job fits any server (the invariant the tests check):
//! servers without departures only lost room, and older jobs did not fit them before.

use super::{LARGEST_FIT, best_fit_fill, best_server_place_arrivals};
use crate::EngineError;
use crate::models::pgrr::{Pgrr, boxed, PgrrContext, PgrrPolicy};
use crate::model::policy::Policy;

pub const POLICY: Policy<Pgrr> = Policy::new(
    "bf-js",
    "BF-J/S",
    "BF-S on servers that had departures, then BF-J for the new arrivals (PG-RR)",
    |_, _| boxed(BfJs),
);

/// Best fit, jobs and servers.
#[derive(Debug, Clone, Copy, Default)]
pub struct BfJs;

impl PgrrPolicy for BfJs {
    fn schedule(&mut self, ctx: &mut PgrrContext<'_>) -> Result<(), EngineError> {
        for &server in ctx.departed() {
            best_fit_fill(ctx, server, LARGEST_FIT, |_| {})?;
        }
        best_server_place_arrivals(ctx)
    }
}
