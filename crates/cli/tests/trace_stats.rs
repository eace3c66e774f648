//! `packlab trace stats` on SWF logs as the Parallel Workloads Archive writes them: checkpointed
//! jobs count once, lines out of submit order are counted, and the run it suggests runs.

use std::path::Path;

use serde_json::Value;

mod common;

use common::{fails, ok, scratch};

/// An SWF job line: job `n` submitted at `submit`, ran `run` s on `procs` processors, `status`.
fn line(n: u32, submit: u32, run: i64, procs: u32, status: i32) -> String {
    format!("{n} {submit} 0 {run} {procs} -1 -1 {procs} 3600 -1 {status} 1 1 -1 1 -1 -1 -1\n")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn checkpointed_jobs_count_once_and_the_order_is_reported() {
    let dir = scratch("checkpointed");
    // 100 jobs of 4 processors and 100 s; every tenth was checkpointed in two parts of 50 s,
    // and every twentieth was logged after the next one.
    let mut jobs: Vec<String> = Vec::new();
    for n in 1..=100 {
        let mut text = line(n, 60 * n, 100, 4, 1);
        if n % 10 == 0 {
            text += &line(n, 60 * n, 50, 4, 2);
            text += &line(n, 60 * n, 50, 4, 3);
        }
        jobs.push(text);
    }
    for i in (0..99).step_by(20) {
        jobs.swap(i, i + 1);
    }
    let log = write(&dir, "checkpointed.swf", &format!("; MaxProcs: 8\n{}", jobs.concat()));
    let out = ok(&["trace", "stats", &log]);
    for expected in [
        "lines        121",
        "kept         100",
        "skipped             20  partial-execution line (status 2, 3 or 4)",
        "sorted               5  out of submit order",
        // 100 jobs × 4 processors × 100 s over 8 processors × 5940 s.
        "offered load 0.8418 on 8 processors",
    ] {
        assert!(out.lines().any(|l| l == expected), "no line {expected:?} in\n{out}");
    }
    let v: Value = serde_json::from_str(ok(&["trace", "stats", &log, "--json"]).trim()).unwrap();
    assert_eq!((v["kept"].as_u64(), v["out_of_order"].as_u64()), (Some(100), Some(5)));
    assert_eq!(v["skipped"][0], serde_json::json!(["partial-execution line (status 2, 3 or 4)", 20]));
}

/// The `packlab run …` that `trace stats --classes-out` suggests, as arguments.
fn suggestion(stats: &str) -> Vec<String> {
    let text = stats.lines().find_map(|l| l.split_once("run it with packlab ")).expect("a suggested run").1;
    text.split_whitespace().map(str::to_string).collect()
}

#[test]
fn the_suggested_run_runs_and_wider_jobs_are_refused() {
    let dir = scratch("widest");
    let most = packlab_core::limits::MAX_CORES;
    // No header: the machine is the widest job, the most cores a scenario has.
    let mut text = String::new();
    for n in 1..=40 {
        let procs = [1, 2, most / 2, most][n as usize % 4];
        text += &line(n, 30 * n, 60 + i64::from(n), procs, 1);
    }
    let log = write(&dir, "widest.swf", &text);
    let table = dir.join("classes.csv");
    let out = ok(&["trace", "stats", &log, "--classes-out", table.to_str().unwrap()]);
    let mut args = suggestion(&out);
    assert!(args.contains(&format!("cores={most}")), "{out}");
    // The suggestion through the run's own validation, on a short horizon.
    args.extend(["--horizon", "50", "--policy", "msf", "--json"].map(String::from));
    let run: Value =
        serde_json::from_str(ok(&args.iter().map(String::as_str).collect::<Vec<_>>()).lines().next().unwrap()).unwrap();
    assert_eq!(run["servers"].as_u64(), Some(u64::from(most)));

    // One processor more, in a job line or the header, is refused with the line and the range.
    let over = most + 1;
    let range = format!("must be in 1..={most}");
    let wide = write(&dir, "wide.swf", &format!("{text}{}", line(41, 2000, 10, over, 1)));
    fails(
        &["trace", "stats", &wide],
        &["wide.swf line 41", "field 5 (allocated processors)", &over.to_string(), &range],
    );
    fails(&["run", "--preset", "msfq-d6", "--trace", &wide], &["--trace", "wide.swf line 41", &range]);
    let header = write(&dir, "header.swf", &format!("; MaxProcs: {over}\n{text}"));
    fails(&["trace", "stats", &header], &["header.swf line 1", &format!("MaxProcs '{over}'"), &range]);
    fails(&["trace", "stats", &log, "--servers", &over.to_string()], &["--servers", &range, "SWF"]);
}
