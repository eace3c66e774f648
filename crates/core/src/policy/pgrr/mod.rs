//! The policies of PG-RR (Psychas & Ghaderi, "Scheduling jobs with random resource
//! requirements in computing clusters"; SPEC section 2.2), one file each.
//!
//! None of them scans the queue or the cluster per slot: they walk only servers that can
//! take a job and jobs that fit somewhere, using the engine's ordered indexes, so the work per
//! slot is O((placements + departures + arrivals) · log n).

mod bf_j;
mod bf_js;
mod bf_s;
mod fifo_ff;
mod virtual_queues;
mod vqs;
mod vqs_bf;

pub use bf_j::BfJ;
pub use bf_js::BfJs;
pub use bf_s::BfS;
pub use fifo_ff::FifoFf;
pub use vqs::Vqs;
pub use vqs_bf::VqsBf;

use crate::EngineError;
use crate::engine::slotted::SlotContext;
use crate::model::{JobId, RunningJob, ServerId};
use crate::policy::{Decision, Rule};

/// BF_S_fill (SPEC 2.2.1): while some waiting job fits `server`, start the largest one
/// (earliest arrival among equal sizes). `started` sees every job placed.
pub(crate) fn best_fit_fill(
    ctx: &mut SlotContext<'_>,
    server: ServerId,
    rule: Rule,
    mut started: impl FnMut(&RunningJob),
) -> Result<(), EngineError> {
    while let Some(job) = ctx.queue().largest_fitting(ctx.cluster().residual(server)) {
        let running = ctx.apply(Decision::Start { job: job.id, server, rule })?;
        started(&running);
    }
    Ok(())
}

/// BF-J for one job (SPEC 2.2.2): start it on the server with the smallest residual that fits
/// it, if there is one.
pub(crate) fn best_server_place(ctx: &mut SlotContext<'_>, job: JobId) -> Result<(), EngineError> {
    let Some(waiting) = ctx.queue().get(job) else { return Ok(()) };
    if let Some(server) = ctx.cluster().best_fit(waiting.occupies.primary()) {
        ctx.apply(Decision::Start { job, server, rule: Rule::BestServer })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
