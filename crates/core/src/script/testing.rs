//! Checks the models' tests share: a starting point must run bit for bit like its built-in
//! policy, and a hostile script must stop its run with a named message.

use crate::model::policy::PolicySpec;
use crate::models::Scenario;
use crate::report::live_run;
use crate::scenario::presets;
use crate::view::Watch;

/// Decisions kept per run: enough for the whole of a short run.
const LOG: usize = 1 << 20;

/// `scenario` cut to `horizon` (a tenth of it warm-up), for tests that run every preset.
fn shortened(scenario: &Scenario, horizon: u64) -> Scenario {
    let mut s = scenario.clone();
    let horizon = horizon.min(s.horizon());
    s.set("warmup", "0").unwrap();
    s.set("sample_every", "1").unwrap();
    s.set("horizon", &horizon.to_string()).unwrap();
    s.set("warmup", &(horizon / 10).to_string()).unwrap();
    s
}

/// The decisions that start jobs, as `(time, job, server, bin)`, and the run's report with
/// the policy's name left out.
/// A start as the comparison sees it: `(time bits, job, server, bin)`.
type Start = (u64, Option<u64>, Option<u32>, Option<u16>);

fn trajectory(scenario: &Scenario, spec: &PolicySpec) -> (Vec<Start>, serde_json::Value) {
    let mut run = live_run(scenario, spec, Watch::page(64).with_log(LOG)).unwrap_or_else(|e| panic!("{spec}: {e}"));
    run.run_to(scenario.horizon() as f64).unwrap_or_else(|e| panic!("{spec}: {e}"));
    assert!(run.decisions().count() < LOG as u64, "the log kept every decision");
    let starts = run
        .decisions()
        .records()
        .iter()
        .filter(|d| d.action == "start")
        .map(|d| (d.time.to_bits(), d.job, d.server, d.bin))
        .collect();
    let report = crate::report::run("", scenario, spec).unwrap_or_else(|e| panic!("{spec}: {e}")).report;
    let mut report = serde_json::to_value(&report).unwrap();
    report["policy"] = serde_json::Value::Null;
    (starts, report)
}

/// Every preset of `model` (that runs a simulation), cut to `horizon`: `script` with `source`
/// makes the same starts and the same report as `builtin`, but for the report's fields
/// `unshared` (what a built-in policy reports of itself, MSF's phases).
pub(crate) fn reproduces(model: &str, builtin: &str, source: &str, horizon: u64, unshared: &[&str]) {
    reproduces_with(model, builtin, source, horizon, unshared, &[]);
}

/// [`reproduces`] on the presets with the scenario's `keys` set besides (PG-RR's `j`, the
/// depth VQS and its starting point take from the scenario); the presets run.
pub(crate) fn reproduces_with(
    model: &str,
    builtin: &str,
    source: &str,
    horizon: u64,
    unshared: &[&str],
    keys: &[(&str, &str)],
) -> usize {
    let script = PolicySpec::parse(&super::spec_text(source).unwrap()).unwrap();
    let builtin = PolicySpec::parse(builtin).unwrap();
    let mut runs = 0;
    for preset in presets().into_iter().filter(|p| p.scenario.info().id == model) {
        if preset.scenario.any().theory_only() || preset.scenario.check_policy(&builtin).is_err() {
            continue;
        }
        let mut scenario = shortened(&preset.scenario, horizon);
        for (key, value) in keys {
            scenario.set(key, value).unwrap_or_else(|e| panic!("{}: {key}={value}: {e}", preset.id));
        }
        let (want_starts, mut want_report) = trajectory(&scenario, &builtin);
        let (starts, mut report) = trajectory(&scenario, &script);
        for key in unshared {
            want_report[*key] = serde_json::Value::Null;
            report[*key] = serde_json::Value::Null;
        }
        assert!(!want_starts.is_empty(), "{}: {builtin} started nothing", preset.id);
        if let Some(i) = (0..want_starts.len().min(starts.len())).find(|&i| want_starts[i] != starts[i]) {
            panic!("{}: decision {i} differs: {builtin} {:?}, script {:?}", preset.id, want_starts[i], starts[i]);
        }
        assert_eq!(starts.len(), want_starts.len(), "{}: number of starts", preset.id);
        assert_eq!(report, want_report, "{}: reports differ", preset.id);
        runs += 1;
    }
    assert!(runs > 0, "no preset of {model} runs {builtin}");
    runs
}

/// Runs `source` as `model`'s script on its first preset, cut to `horizon`: the error that
/// stopped it (the test fails if it ran through).
pub(crate) fn stopped(model: &str, source: &str, horizon: u64) -> String {
    let preset = presets().into_iter().find(|p| p.scenario.info().id == model).unwrap();
    let scenario = shortened(&preset.scenario, horizon);
    let spec = match super::spec_text(source).and_then(|t| PolicySpec::parse(&t)) {
        Ok(spec) => spec,
        Err(e) => return e.to_string(),
    };
    match live_run(&scenario, &spec, Watch::batch(64)) {
        Err(e) => e.to_string(),
        Ok(mut run) => run.run_to(horizon as f64).map_or_else(|e| e.to_string(), |()| "ran through".to_string()),
    }
}
