//! Replaying trace files as a user would: a log written by another project replays at its
//! recorded pace (1/β = 1) unless the scaling is set, and says so with the offered load it
//! makes; its horizon covers its arrivals at every scaling; and each point of `sweep --trace`
//! is `run --trace … --set load=X` at that point.

use std::path::{Path, PathBuf};

mod common;

use common::{json_lines, ok, ok_with_stderr, scratch};

/// An SWF log as another project would write it: 800 jobs on a machine of 16 processors, its
/// header first, a comment in the middle, jobs of 1 to 16 processors, and its lines not in
/// submit order (every tenth job was logged late). Offered load about 0.5 at its own pace.
fn foreign_log(dir: &Path) -> PathBuf {
    let mut text = String::from("; Version: 2.2\n; Computer: someone else's cluster\n; MaxJobs: 800\n; MaxProcs: 16\n");
    let mut state: u64 = 12_345;
    let mut next = |n: u64| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % n
    };
    let mut lines = Vec::new();
    let mut submit = 0u64;
    for job in 1..=800u64 {
        submit += 1 + next(600);
        let run = 30 + next(1_140);
        let procs = [1, 1, 2, 4, 4, 8, 16][next(7) as usize];
        lines.push((submit, format!("{job} {submit} 5 {run} {procs} -1 -1 {procs} 3600 -1 1 7 1 -1 1 -1 -1 -1")));
    }
    // Every tenth job logged after the next one.
    for i in (0..lines.len() - 1).step_by(10) {
        lines.swap(i, i + 1);
    }
    for (i, (_, line)) in lines.iter().enumerate() {
        if i == 400 {
            text.push_str("; the log resumes here\n");
        }
        text.push_str(line);
        text.push('\n');
    }
    let path = dir.join("foreign.swf");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_log_replays_at_its_own_pace_and_says_so() {
    let dir = scratch("pace");
    let log = foreign_log(&dir);
    let log = log.to_str().unwrap();
    // The preset's λ = 4.5 is an arrival rate, not a scaling: the log replays at 1/β = 1.
    let stdout = ok(&["run", "--preset", "msfq-d6", "--trace", log]);
    assert!(stdout.contains("scaling 1/β = 1 ·"), "{stdout}");
    assert!(stdout.contains("the trace replays at 1/β = 1: offered load 0."), "{stdout}");
    assert!(!stdout.contains("NaN"), "every class completes jobs at the log's own pace:\n{stdout}");
    assert!(!stdout.lines().any(|l| l.trim_end().ends_with("not stable")), "{stdout}");
    let (stdout, stderr) = ok_with_stderr(&["run", "--preset", "msfq-d6", "--trace", log, "--json", "--policy", "msf"]);
    assert!(stderr.contains("replays at 1/β = 1"), "the note goes to stderr with --json: {stderr}");
    let run = &json_lines(&stdout)[0];
    assert_eq!(run["load"], 1.0);
    assert_eq!(run["servers"], 16, "the log's machine");
    assert!(run["mean_response"].as_f64().is_some_and(|t| t > 0.0), "{run}");
    // Nearly every job completes: the horizon covers the arrivals at this scaling.
    let completed = run["completed"].as_u64().unwrap();
    assert!(completed > 700, "{completed} of 800 jobs completed");
    // Its arrival rate is the log's, per mean run time.
    let rate = run["arrival_rate"].as_f64().unwrap();
    assert!(rate > 0.5 && rate < 5.0, "{rate}");

    // Compressed 4.5×, the log overloads the machine, and the run says so.
    let stdout = ok(&["run", "--preset", "msfq-d6", "--trace", log, "--set", "load=4.5", "--policy", "msf"]);
    assert!(stdout.contains("replays at 1/β = 4.5") && stdout.contains("more than the machine can serve"), "{stdout}");
    // The horizon follows the scaling: 4.5 times shorter, one unit past the last arrival.
    let horizon = |text: &str| -> u64 {
        let at = text.find("horizon ").unwrap() + "horizon ".len();
        text[at..].split_whitespace().next().unwrap().parse().unwrap()
    };
    let slow = ok(&["run", "--preset", "msfq-d6", "--trace", log, "--policy", "msf"]);
    let (h1, h45) = (horizon(&slow), horizon(&stdout));
    assert!((h1 as f64 / h45 as f64 - 4.5).abs() < 0.1, "{h1} against {h45}");
}

/// `sweep --trace`: each point's numbers are `run --trace … --set load=X`'s, the horizon
/// covering the trace at that point's scaling, and the axis is named for what it is.
#[test]
fn each_point_of_a_trace_sweep_is_the_run_at_its_scaling() {
    let dir = scratch("sweep");
    let log = foreign_log(&dir);
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/google-task-events.csv.gz");
    for (preset, trace, policies) in
        [("msfq-d6", log.to_str().unwrap(), "msf,first-fit"), ("pgrr-a5", sample.to_str().unwrap(), "bf-js,fifo-ff")]
    {
        let out = dir.join(preset);
        let stdout = ok(&[
            "sweep",
            "--preset",
            preset,
            "--trace",
            trace,
            "--policy",
            policies,
            "--load",
            "1,1.6",
            "--reps",
            "1",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(stdout.contains("traffic scaling 1/β"), "{preset}: the axis is named for what it is:\n{stdout}");
        let runs = std::fs::read_to_string(out.join(format!("{preset}-runs.csv"))).unwrap();
        let mut lines = runs.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
        let mut horizons = Vec::new();
        for row in lines {
            let cells: Vec<&str> = row.split(',').collect();
            let (policy, load) = (cells[column("policy")], cells[column("load")]);
            let stdout = ok(&[
                "run",
                "--preset",
                preset,
                "--trace",
                trace,
                "--set",
                &format!("load={load}"),
                "--policy",
                policy,
                "--json",
            ]);
            let run = &json_lines(&stdout)[0];
            for key in ["horizon", "seed", "mean_queue", "arrivals", "started"] {
                let swept = cells[column(key)];
                let alone = run[key].to_string();
                assert_eq!(swept, alone, "{preset} {policy} at 1/β = {load}: {key}");
            }
            horizons.push(cells[column("horizon")].parse::<u64>().unwrap());
        }
        // The horizon shrinks with the scaling.
        assert!(horizons[0] > horizons[1], "{preset}: {horizons:?}");
    }
}
