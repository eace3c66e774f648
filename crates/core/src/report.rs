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

/// The recovery table of a race: a row per change and lane (`names`, each lane's recoveries
/// from its first run), with the band stated; `None` when no lane had a change.
pub fn recovery_table(names: &[String], lanes: &[&[crate::metrics::Recovery]]) -> Option<crate::model::Table> {
    use crate::model::table::sig;
    if lanes.iter().all(|r| r.is_empty()) {
        return None;
    }
    let mut table = crate::model::Table::new(&["change at", "policy", "band before", "peak", "peak at", "drain time"])
        .left(1)
        .left(5);
    for (i, first) in lanes.iter().find(|r| !r.is_empty()).into_iter().flat_map(|r| r.iter().enumerate()) {
        for (name, recoveries) in names.iter().zip(lanes) {
            let Some(r) = recoveries.get(i) else { continue };
            let band = if r.band_at == r.at {
                format!("{}..{}", sig(r.band[0]), sig(r.band[1]))
            } else {
                format!("{}..{} (of {})", sig(r.band[0]), sig(r.band[1]), r.band_at)
            };
            table.row(vec![
                first.at.to_string(),
                name.clone(),
                band,
                sig(r.peak),
                sig(r.peak_at),
                r.drain.map_or_else(|| r.drain_text(), sig),
            ]);
        }
    }
    table.note(
        "band before: the lowest and highest queue at whole moments over the second half of the time since the \
         previous change (or the start); a change that comes before the queue drained keeps the band of the \
         undrained one (\"of T\")",
    );
    table.note(
        "peak: the largest queue until the next change; drain time: from the change until the queue is back at or \
         below the band's top after its peak (0: the peak stayed within the band)",
    );
    Some(table)
}

/// The table of a loss system's stretches between changes (RES-94): a row per stretch and lane
/// (`names`, each lane's stretches from its first run), the reward per server and the rejected
/// share over it, with what it measures stated; `None` when no lane had a change.
pub fn stretch_table(names: &[String], lanes: &[&[crate::metrics::Stretch]]) -> Option<crate::model::Table> {
    use crate::model::table::{share, sig};
    if lanes.iter().all(|s| s.is_empty()) {
        return None;
    }
    let mut table = crate::model::Table::new(&[
        "from change",
        "policy",
        "measured over",
        "reward per server",
        "arrived",
        "rejected",
        "blocking",
    ])
    .left(0)
    .left(1)
    .left(2);
    let count = lanes.iter().map(|s| s.len()).max().unwrap_or(0);
    for i in 0..count {
        for (name, stretches) in names.iter().zip(lanes) {
            let Some(s) = stretches.get(i) else { continue };
            table.row(vec![
                s.change.map_or_else(|| "start".to_string(), |c| c.to_string()),
                name.clone(),
                format!("{}..{}", sig(s.from), sig(s.to)),
                if s.reward.is_nan() { "—".to_string() } else { sig(s.reward) },
                s.arrived.to_string(),
                s.rejected.to_string(),
                share(s.blocking()),
            ]);
        }
    }
    table.note(
        "nothing waits in a loss system, so each change is read in what it earned and lost: before the first change \
         (\"start\") and from each change until the next (or now), from the warm-up on as the report's figures",
    );
    table.note(
        "reward per server: the time average of R(t)/L over the stretch; blocking: the arrivals in it rejected (lost) \
         over those that arrived",
    );
    Some(table)
}
