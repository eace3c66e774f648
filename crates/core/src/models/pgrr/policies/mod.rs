//! The policies of PG-RR (Psychas & Ghaderi, "Scheduling jobs with random resource
//! requirements in computing clusters"; SPEC section 2.2), one file each.
//!
//! None of them scans the queue or the cluster per slot: they walk only servers that can
//! take a job and jobs that fit somewhere, using the engine's ordered indexes, so the work per
//! slot is O((placements + departures + arrivals) · log n).

mod virtual_queues;

use super::Pgrr;
use super::policy::{PgrrContext, PgrrDecision, Rule};
use super::state::{JobId, RunningJob, ServerId};
use crate::EngineError;

crate::policy_list!(Pgrr: bf_j, bf_s, bf_js, vqs, vqs_bf, fifo_ff, fifo_ff_skip, worst_fit, script);

/// BF-J's rule, as the page states it.
const BEST_SERVER: Rule = Rule::Server("best fit: the fullest server it fits");
/// BF-S's rule.
const LARGEST_FIT: Rule = Rule::Job("largest waiting job that fits this server");

/// BF_S_fill (SPEC 2.2.1): while some waiting job fits `server`, start the largest one
/// (earliest arrival among equal sizes). `started` sees every job placed.
pub(crate) fn best_fit_fill(
    ctx: &mut PgrrContext<'_>,
    server: ServerId,
    rule: Rule,
    mut started: impl FnMut(&RunningJob),
) -> Result<(), EngineError> {
    while let Some(job) = ctx.queue().largest_fitting(ctx.cluster().residual(server)) {
        if ctx.explaining() {
            note_largest_fit(ctx, server, job.id, job.occupies.primary());
        }
        let running = ctx.apply(PgrrDecision::Start { job: job.id, server, rule })?;
        started(&running);
    }
    Ok(())
}

/// BF-J for each of the slot's arrivals, in arrival order.
pub(crate) fn best_server_place_arrivals(ctx: &mut PgrrContext<'_>) -> Result<(), EngineError> {
    let arrivals = ctx.arrivals();
    for (k, job) in arrivals.iter().enumerate() {
        // At 10^4 servers a best-fit search starts with a cache miss on the residual index's
        // bucket of the job's size; the sizes of the arrivals a few places ahead are known, so
        // their buckets can be on their way meanwhile.
        if let Some(ahead) = arrivals.get(k + PREFETCH_AHEAD) {
            ctx.cluster().prefetch_best_fit(ahead.occupies.primary());
        }
        best_server_place(ctx, job.id)?;
    }
    Ok(())
}

/// How many arrivals ahead [`best_server_place_arrivals`] asks for a search's first line.
const PREFETCH_AHEAD: usize = 4;

/// BF-J for one job (SPEC 2.2.2): start it on the server with the smallest residual that fits
/// it, if there is one.
pub(crate) fn best_server_place(ctx: &mut PgrrContext<'_>, job: JobId) -> Result<(), EngineError> {
    let Some(waiting) = ctx.queue().get(job) else { return Ok(()) };
    let size = waiting.occupies.primary();
    if let Some(server) = ctx.cluster().best_fit(size) {
        if ctx.explaining() {
            note_best_two(ctx, size);
        }
        ctx.apply(PgrrDecision::Start { job, server, rule: BEST_SERVER })?;
    }
    Ok(())
}

// What the inspector shows of best fit's choices. Out of line and cold, as every note is: a
// batch run never explains, and formatting code inlined into these hot loops changed what the
// compiler inlined around it, which cost a batch run 5 %.

/// BF-S: the server's room, the queue and the job chosen.
#[cold]
#[inline(never)]
fn note_largest_fit(ctx: &mut PgrrContext<'_>, server: ServerId, job: JobId, size: u64) {
    let room = ctx.cluster().residual(server);
    ctx.note("room of the server", ctx.units(room));
    ctx.note("waiting jobs", ctx.queue().len().to_string());
    ctx.note("largest that fits", format!("job {job} (size {})", ctx.units(size)));
}

/// BF-J: the fullest server the job fits and the runner-up.
#[cold]
#[inline(never)]
fn note_best_two(ctx: &mut PgrrContext<'_>, size: u64) {
    let [best, runner_up] = ctx.cluster().best_two_fits(size);
    let show = |fit: Option<(u64, ServerId)>| {
        fit.map_or("none".to_string(), |(room, s)| format!("server {} (room {})", s + 1, ctx.units(room)))
    };
    let (best, runner_up) = (show(best), show(runner_up));
    ctx.note("fullest server it fits", best);
    ctx.note("runner-up", runner_up);
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod script_tests;
