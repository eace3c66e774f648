//! The page's sweep plan: the CLI's grid, seeds and order, its fields' bad values named, and
//! points that appear once their replications are done. Plain logic: natively and in the
//! browser (wasm-bindgen-test).

use packlab_core::scenario::Setup;
use packlab_core::sweep::SweepRun;
use packlab_web::state::Lab;
use packlab_web::sweep::plan::{MAX_RUNS, SweepPlan, run_task};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

fn lab(query: &str) -> Lab {
    Lab::from_link(query)
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn the_grid_is_the_clis() {
    let lab = lab("?preset=pgrr-a4&seed=7&horizon=4000");
    let plan = SweepPlan::new(&lab.setup, &lab.query(), "0.9, 0.8,0.85,0.8", "2").unwrap();
    assert_eq!(plan.values, [0.8, 0.85, 0.9], "sorted, without duplicates");
    assert_eq!(plan.seeds, [7, 8]);
    let tasks = plan.tasks();
    assert_eq!(tasks.len(), 3 * 3 * 2);
    // Policy-major, then load, then replication.
    let first: Vec<(String, f64, u64)> = tasks.iter().take(3).map(|t| (t.policy.clone(), t.value, t.seed)).collect();
    assert_eq!(first, [("vqs".into(), 0.8, 7), ("vqs".into(), 0.8, 8), ("vqs".into(), 0.85, 7)]);
    assert!(plan.command("http://127.0.0.1:8080/").ends_with("--load 0.8,0.85,0.9 --reps 2"));

    // A point appears when its replications are done.
    let mut results: Vec<Option<SweepRun>> = vec![None; tasks.len()];
    results[0] = Some(run_task(&tasks[0]).unwrap());
    assert!(plan.cells(&results).is_empty());
    results[1] = Some(run_task(&tasks[1]).unwrap());
    let cells = plan.cells(&results);
    assert_eq!(cells.len(), 1);
    assert_eq!((cells[0].policy, cells[0].value, cells[0].summary.reps), (0, 0.8, 2));
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn bad_fields_are_named_with_their_range() {
    let lab = lab("?preset=pgrr-a4&horizon=4000");
    let refuse = |loads: &str, reps: &str| SweepPlan::new(&lab.setup, &lab.query(), loads, reps).unwrap_err();
    let e = refuse("0.8,,0.9", "2");
    assert_eq!(e.key, "sweep loads");
    assert!(e.message.contains("empty"), "{e}");
    assert!(refuse("0.8,fast", "2").message.contains("fast"));
    for reps in ["0", "51", "two", ""] {
        let e = refuse("0.8", reps);
        assert_eq!(e.key, "replications");
        assert!(e.message.contains("1..=50"), "{e}");
    }
    let many: Vec<String> = (1..=100).map(|i| format!("0.{i:03}")).collect();
    let e = refuse(&many.join(","), "10");
    assert!(e.message.contains(&format!("at most {MAX_RUNS}")), "{e}");
    // A sweep of the theory's bounds has no runs, so no plan.
    let pgas = Setup::from_preset("pgas-c2").unwrap();
    assert_eq!(SweepPlan::new(&pgas, "preset=pgas-c2", "1", "1").unwrap_err().key, "sweep");
}

/// PG-AS's sweeps against L: the grid is server counts, the figure the normalised reward,
/// with the bounds U^(g) and U* carried by the runs.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_sweep_against_the_number_of_servers() {
    let lab = lab("?preset=pgas-c3&horizon=5");
    let plan = SweepPlan::new(&lab.setup, &lab.query(), "24, 12", "1").unwrap();
    assert_eq!(plan.values, [12.0, 24.0]);
    assert!(plan.command("http://x/").ends_with("--servers 12,24 --reps 1"), "{}", plan.command("http://x/"));
    let tasks = plan.tasks();
    assert_eq!(tasks.len(), 2 * 2);
    let results: Vec<Option<SweepRun>> = tasks.iter().take(2).map(|t| Some(run_task(t).unwrap())).collect();
    let cells = plan.cells(&results);
    assert_eq!(cells.len(), 2, "DRA at L = 12 and 24");
    assert!(cells.iter().all(|c| c.summary.value > 0.0 && c.bounds.is_some_and(|[g, o]| g > 0.0 && o >= g)));
    let e = SweepPlan::new(&lab.setup, &lab.query(), "12,0", "1").unwrap_err();
    assert_eq!(e.key, "sweep servers");
}
