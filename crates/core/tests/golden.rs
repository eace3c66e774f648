//! The numbers users reproduce stay put: every preset under its own policies and under every
//! policy of its model, on a shortened horizon, must give the report recorded in
//! `tests/golden/runs.jsonl`, byte for byte, along with a fingerprint of its series.
//!
//! A change that moves numbers on purpose (a bug fix) re-records the file with
//! `PACKLAB_BLESS=1 cargo test -p packlab-core --test golden` and says in its commit which
//! lines moved and why. A run that is not recorded yet (a new policy or preset) fails, with the
//! command that records it, unless it is listed in [`NEW_CASES`]; a recorded run that can no
//! longer be made (a renamed policy or preset) fails.

use std::collections::BTreeMap;
use std::path::PathBuf;

use packlab_core::policy::PolicySpec;
use packlab_core::report::{RunOutcome, run};
use packlab_core::scenario::presets;

/// Each preset runs for this fraction of its horizon (the warm-up and the series grid scale
/// along), enough for every policy to schedule thousands of jobs while the whole table takes
/// seconds.
const HORIZON_DIVISOR: u64 = 40;

/// Cases (`preset policy`, as a failure names them) allowed to be unrecorded for now, so a
/// change can add a policy or preset before the file is re-recorded. Empty: every case is
/// recorded, and an unrecorded one fails.
const NEW_CASES: &[&str] = &[];

/// How to record.
const BLESS: &str = "PACKLAB_BLESS=1 cargo test -p packlab-core --test golden";

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/runs.jsonl")
}

/// FNV-1a over the bits of every series point.
fn series_fingerprint(outcome: &RunOutcome) -> String {
    let points = [&outcome.queue, &outcome.occupancy, &outcome.in_system, &outcome.reward];
    let hash = points
        .iter()
        .flat_map(|s| s.iter())
        .flat_map(|p| [p.start.to_bits(), p.end.to_bits(), p.mean.to_bits()])
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, v| (h ^ v).wrapping_mul(0x0000_0100_0000_01b3));
    format!("{hash:016x}")
}

/// Every case, keyed by `preset policy`, with its line: the report as `run --json` serialises
/// it plus the series fingerprint, or the error the run gave.
fn current() -> BTreeMap<String, String> {
    let mut lines = BTreeMap::new();
    for preset in presets() {
        let mut scenario = preset.scenario.clone();
        let horizon = (scenario.horizon() / HORIZON_DIVISOR).max(1);
        scenario.set_horizon_scaled(horizon).expect("a shorter horizon is valid");
        let mut specs: Vec<PolicySpec> = preset.policies.clone();
        for (model, meta) in packlab_core::models::all_policies() {
            // The scripted policy without a script runs its model's first starting point, which
            // the script tests compare with the built-in policy it reproduces, bit for bit, on
            // every preset: recording it here would record that policy twice.
            if meta.name == packlab_core::script::NAME {
                continue;
            }
            let spec = PolicySpec::parse(meta.name).expect("a registered name parses");
            if model.id == scenario.info().id
                && scenario.check_policy(&spec).is_ok()
                && !specs.iter().any(|s| s.to_string() == spec.to_string())
            {
                specs.push(spec);
            }
        }
        for spec in specs {
            let key = format!("{} {spec}", preset.id);
            let line = match run(preset.id, &scenario, &spec) {
                Ok(outcome) => {
                    let report = serde_json::to_value(&outcome.report).expect("a report serialises");
                    let record =
                        serde_json::json!({ "case": key, "report": report, "series": series_fingerprint(&outcome) });
                    record.to_string()
                }
                Err(e) => serde_json::json!({ "case": key, "error": e.to_string() }).to_string(),
            };
            lines.insert(key, line);
        }
    }
    lines
}

fn recorded() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(golden_path()).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            (v["case"].as_str().expect("a case").to_string(), l.to_string())
        })
        .collect()
}

#[test]
fn recorded_runs_are_reproduced_bit_for_bit() {
    let now = current();
    if std::env::var_os("PACKLAB_BLESS").is_some() {
        let text: String = now.values().map(|l| format!("{l}\n")).collect();
        std::fs::create_dir_all(golden_path().parent().unwrap()).unwrap();
        std::fs::write(golden_path(), text).unwrap();
        eprintln!("recorded {} runs in {}", now.len(), golden_path().display());
        return;
    }
    let before = recorded();
    assert!(!before.is_empty(), "no recorded runs in {}; record them with PACKLAB_BLESS=1", golden_path().display());
    let mut problems = Vec::new();
    for (case, line) in &before {
        match now.get(case) {
            None => problems.push(format!("{case}: recorded, but no longer a preset or policy")),
            Some(new) if new != line => problems.push(format!("{case}:\n  recorded {line}\n  now      {new}")),
            Some(_) => {}
        }
    }
    for case in now.keys().filter(|c| !before.contains_key(*c)) {
        if NEW_CASES.contains(&case.as_str()) {
            eprintln!("{case}: not recorded yet (listed in NEW_CASES)");
        } else {
            problems.push(format!(
                "{case}: not recorded; record it with `{BLESS}` (which rewrites {} from the current runs: \
                 `git diff` should show only the new lines) or list it in NEW_CASES",
                golden_path().display()
            ));
        }
    }
    for case in NEW_CASES {
        if before.contains_key(*case) {
            problems.push(format!("{case}: listed in NEW_CASES but recorded; take it off the list"));
        } else if !now.contains_key(*case) {
            problems.push(format!("{case}: listed in NEW_CASES but no preset runs that policy"));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems with the {} recorded runs:\n{}",
        problems.len(),
        before.len(),
        problems.join("\n")
    );
}
