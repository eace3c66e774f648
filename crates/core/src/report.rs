//! Running a scenario of any model to its horizon, and its report: what the CLI prints and
//! the tests check. The report's types are the model contract's
//! ([`crate::model::report`]), here with any model's [`Summary`].

use crate::limits::BATCH_MAX_POINTS;
use crate::model::policy::PolicySpec;
use crate::models::{Scenario, Summary};
use crate::view::{LiveRun, Watch};

pub use crate::model::report::{Replications, RunError, Trajectory, verdict};
pub use crate::model::table::{Table, interval, num, percent, sig};

/// A run's report, whatever its model.
pub type RunReport = crate::model::RunReport<Summary>;
/// A finished run with its series, whatever its model.
pub type RunOutcome = crate::model::RunOutcome<Summary>;
/// Replications of one policy, summarised, whatever its model.
pub type RepsReport = crate::model::RepsReport<Summary>;

/// A run of `policy` on `scenario` that the page can step and draw, whatever the model.
pub fn live_run(scenario: &Scenario, policy: &PolicySpec, watch: Watch) -> Result<Box<dyn LiveRun>, RunError> {
    scenario.check_policy(policy)?;
    scenario.any().live_run(policy, watch)
}

/// Runs `scenario` under `policy` to its horizon.
pub fn run(preset: &str, scenario: &Scenario, policy: &PolicySpec) -> Result<RunOutcome, RunError> {
    run_at(preset, scenario, policy, None)
}

/// Runs `scenario` under `policy` to moment `at` (a link's `t=`, in 0..=horizon) and reports
/// it there, as the page shows it paused at that moment; to the horizon without one.
pub fn run_at(preset: &str, scenario: &Scenario, policy: &PolicySpec, at: Option<f64>) -> Result<RunOutcome, RunError> {
    scenario.validate()?;
    scenario.check_policy(policy)?;
    let mut outcome = scenario.any().run_to_horizon(policy, BATCH_MAX_POINTS, at)?;
    outcome.report.preset = preset.to_string();
    Ok(outcome)
}

/// Summarises replications of the same preset and policy (at least one), by the rule of
/// [`crate::model::report`].
pub fn summarise_reps(runs: &[RunReport]) -> Option<RepsReport> {
    crate::model::report::summarise_reps(runs, |summaries| {
        Summary::over_replications(summaries).expect("the runs of one policy are of one model")
    })
}
