//! BF-J/S: the combined best fit.
//!
//! PG-RR §2.2.3 (SPEC 2.2.3): each slot, every server that had a departure, in index order,
//! is filled by BF-S from the whole queue; then this slot's arrivals that still wait are
//! placed by BF-J. Afterwards no waiting job fits any server (the invariant the tests check):
//! servers without departures only lost room, and older jobs did not fit them before.

use super::{best_fit_fill, best_server_place};
use crate::EngineError;
use crate::engine::slotted::SlotContext;
use crate::policy::{Rule, SlottedPolicy};

/// Best fit, jobs and servers.
#[derive(Debug, Clone, Copy, Default)]
pub struct BfJs;

impl SlottedPolicy for BfJs {
    fn schedule(&mut self, ctx: &mut SlotContext<'_>) -> Result<(), EngineError> {
        for &server in ctx.departed() {
            best_fit_fill(ctx, server, Rule::LargestFit, |_| {})?;
        }
        for job in ctx.arrivals() {
            best_server_place(ctx, job.id)?;
        }
        Ok(())
    }
}
