//! The test behind "stable" on a map: the verdict of [`crate::metrics::judge`] on the
//! replications of one load, each load looked at up to [`looks`] times (half of its
//! replications, then all, at each horizon) within one error budget.

use crate::EngineError;
use crate::metrics::{ERROR_BUDGET, Growth, RESOLUTION};
use crate::model::policy::PolicySpec;
use crate::model::{RunError, RunOutcome};
use crate::models::Summary;
use crate::report::{run, run_at};
use crate::scenario::Scenario;

pub use crate::metrics::{Judgement, Verdict};

/// The test in a sentence, for tables and captions.
pub const TEST_RULE: &str = "stable when the queue's growth over the second half of the runs is below 0.5% of the \
     arrivals, not stable when it is above 0.5% and above 0 and does not slow down, each with confidence over the \
     replications; every load looked at up to 6 times within a 5% error budget (Bonferroni)";

/// The growth a run's replications are judged on: the run's own at its last look (NaN halves
/// where nothing waits or the run was too short for its looks).
pub fn growth(outcome: &RunOutcome<Summary>) -> Growth {
    outcome.report.growth.unwrap_or(Growth::NONE)
}

/// Makes one replication of a map's load and measures its growth. A run whose queue passes the
/// engine's limit ([`crate::limits`]; far past any boundary, or near one at a long horizon) is
/// made again to the moment before, and judged on what it measured up to there, as the page
/// would show it paused then: its verdict rests on its own looks, not on the overflow.
pub fn measure(preset: &str, scenario: &Scenario, policy: &PolicySpec) -> Result<Growth, RunError> {
    match run(preset, scenario, policy) {
        Err(RunError::Engine(EngineError::QueueLimit { at, .. })) => {
            let before = at.value().saturating_sub(1) as f64;
            Ok(growth(&run_at(preset, scenario, policy, Some(before))?))
        }
        outcome => Ok(growth(&outcome?)),
    }
}

/// Looks a load may get with `max_doublings`: two per horizon (half of the replications, then
/// all of them).
pub fn looks(max_doublings: u32) -> u32 {
    2 * (max_doublings + 1)
}

/// The error budget each look of a load spends: the whole budget split evenly over its
/// possible looks, so that a load's verdict is wrong with probability at most
/// [`ERROR_BUDGET`] whichever look decides it.
pub fn look_budget(max_doublings: u32) -> f64 {
    ERROR_BUDGET / f64::from(looks(max_doublings))
}

/// The lowest the boundary can be where a load `lo` was judged stable: a load judged stable
/// keeps less than [`RESOLUTION`] of its arrivals, and a load ρ past a boundary ρ_b keeps
/// (ρ − ρ_b)/ρ of them where the throughput saturates, so ρ_b > ρ(1 − RESOLUTION).
pub fn boundary_floor(lo: f64) -> f64 {
    lo * (1.0 - RESOLUTION)
}

/// How far above a load judged not stable the boundary may still lie, as a share of that load:
/// twice the resolution. Under the test's model a load judged not stable keeps more than
/// [`RESOLUTION`] of its arrivals and lies past its boundary. But a queue started empty just
/// below a boundary fills for longer than a run can last (its level grows like 1/(1 − ρ), the
/// time to reach it like 1/(1 − ρ)²), and while it fills it keeps arrivals as an overloaded one
/// does, a growth the test reads correctly as growth over the run. The maps of 160 seeds on
/// boundaries known exactly met this twice, within 0.63% below the boundary (VQS on pgrr-a1 at
/// 0.994 of 2/3, MSF on msfq-d1 at 0.9975 of 7.805); the margin is set above that, at 1%, and
/// was then checked on seeds not used to choose it (docs/stability.md, "Coverage"). It is a
/// measured allowance, not a bound: a policy that fills more slowly, or a longer horizon's
/// absence, may need more.
pub const UNMIXED_MARGIN: f64 = 2.0 * RESOLUTION;

/// The highest the boundary can be where a load `hi` was judged not stable: `hi` widened by
/// [`UNMIXED_MARGIN`] for a queue that had not reached its level within the run.
pub fn boundary_ceiling(hi: f64) -> f64 {
    hi * (1.0 + UNMIXED_MARGIN)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_load_spends_its_budget_over_its_looks() {
        assert_eq!(looks(2), 6);
        assert!((look_budget(2) * 6.0 - ERROR_BUDGET).abs() < 1e-15);
        assert!((boundary_floor(0.9019) - 0.89739).abs() < 1e-5, "best fit's measured 0.9019 admits 0.9");
        // The two not-stable verdicts met below a boundary: VQS at 0.6625 (boundary 2/3) and
        // MSF at 7.785 (32/4.1).
        assert!(boundary_ceiling(0.6625) > 2.0 / 3.0 && boundary_ceiling(7.785) > 32.0 / 4.1);
    }
}
