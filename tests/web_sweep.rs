//! The page's sweeps: the core's plan (the CLI's grid, seeds and order) within the page's
//! limits, its fields' bad values named, tasks that a worker rebuilds into the same plan and
//! runs, under every page key of the page's link, and points that appear once their
//! replications are done. Plain logic: natively and in the browser (wasm-bindgen-test).

use packlab_core::scenario::Setup;
use packlab_core::sweep::SweepRun;
use packlab_web::state::Lab;
use packlab_web::sweep::plan::{GRID_FIELD, MAX_RUNS, PageSweep, run_task};
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
    let sweep = PageSweep::new(&lab.setup, "0.9, 0.8,0.85,0.8", "2").unwrap();
    let plan = &sweep.plan;
    assert_eq!(plan.values, [0.8, 0.85, 0.9], "sorted, without duplicates");
    assert_eq!(plan.seeds, [7, 8]);
    assert_eq!(plan.len(), 3 * 3 * 2);
    // Policy-major, then load, then replication.
    let first: Vec<(String, f64, u64)> = (0..3)
        .map(|i| plan.task(i))
        .map(|t| (plan.setup.policies[t.policy].to_string(), plan.values[t.value], plan.seeds[t.rep]))
        .collect();
    assert_eq!(first, [("vqs".into(), 0.8, 7), ("vqs".into(), 0.8, 8), ("vqs".into(), 0.85, 7)]);
    assert!(sweep.command("http://127.0.0.1:8080/").ends_with("--load 0.8,0.85,0.9 --reps 2"));

    // A point appears when its replications are done.
    let mut results: Vec<Option<SweepRun>> = vec![None; plan.len()];
    results[0] = Some(run_task(&sweep.task(0)).unwrap());
    assert!(plan.cells(&results).is_empty());
    results[1] = Some(run_task(&sweep.task(1)).unwrap());
    let cells = plan.cells(&results);
    assert_eq!(cells.len(), 1);
    assert_eq!((cells[0].policy, cells[0].value, cells[0].summary.reps), (0, 0.8, 2));
}

/// A worker decodes the page's link whatever page keys it carries (the theme, presenter mode,
/// a tour's step, a moment, an embedded page's views), and its runs are the same.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn every_page_key_leaves_the_runs_alone() {
    let plain = lab("?preset=pgrr-a4&seed=7&horizon=2000");
    let reference = PageSweep::new(&plain.setup, "0.8", "1").unwrap();
    let expected = run_task(&reference.task(0)).unwrap();
    for keys in ["theme=dark", "present=1", "t=10", "speed=max", "embed=1&views=lanes,queue", "theme=high-contrast&t=5"]
    {
        let lab = lab(&format!("?preset=pgrr-a4&seed=7&horizon=2000&{keys}"));
        assert!(lab.notices.is_empty(), "{keys}: {:?}", lab.notices);
        let sweep = PageSweep::new(&lab.setup, "0.8", "1").unwrap();
        // The task carries the page's whole link: the worker must read its page keys too.
        let mut task = sweep.task(0);
        task.link = lab.query();
        assert_eq!(run_task(&task).unwrap(), expected, "{keys}");
    }
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn bad_fields_are_named_with_their_range() {
    let lab = lab("?preset=pgrr-a4&horizon=4000");
    let refuse = |grid: &str, reps: &str| PageSweep::new(&lab.setup, grid, reps).unwrap_err();
    let e = refuse("0.8,,0.9", "2");
    assert_eq!(e.key, GRID_FIELD);
    assert!(e.message.contains("empty") && e.message.contains("(0, 10]"), "{e}");
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
    assert_eq!(PageSweep::new(&pgas, "1", "1").unwrap_err().key, "sweep");
}

/// PG-AS's sweeps against L: the grid is server counts, the figure the normalised reward over
/// each bound, with the bounds stated from the runs.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_sweep_against_the_number_of_servers() {
    let lab = lab("?preset=pgas-c3&horizon=5");
    let sweep = PageSweep::new(&lab.setup, "24, 12", "1").unwrap();
    let plan = &sweep.plan;
    assert_eq!((plan.axis, plan.values.as_slice()), ("servers", &[12.0, 24.0][..]));
    assert!(sweep.command("http://x/").ends_with("--servers 12,24 --reps 1"), "{}", sweep.command("http://x/"));
    assert_eq!(plan.len(), 2 * 2);
    let results: Vec<Option<SweepRun>> = (0..2).map(|i| Some(run_task(&sweep.task(i)).unwrap())).collect();
    let cells = plan.cells(&results);
    assert_eq!(cells.len(), 2 * 2, "DRA at L = 12 and 24, over U^(g) and over U*");
    assert!(cells.iter().all(|c| c.summary.value > 0.0 && c.summary.value < 1.5));
    let stated: Vec<&str> = plan.references(&cells).iter().map(|(r, _)| r.label).collect();
    assert_eq!(stated, ["U^(g)", "U*", "U^(g)/U*"]);
    let e = PageSweep::new(&lab.setup, "12,0", "1").unwrap_err();
    assert_eq!(e.key, GRID_FIELD);
    assert!(e.message.contains("servers"), "{e}");
}
