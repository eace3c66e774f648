//! Replaying trace files as a user would: a log written by another project replays at its
//! recorded pace (1/β = 1) unless the scaling is set, and says so with the offered load it
//! makes; its horizon covers its arrivals at every scaling; and each point of `sweep --trace`
//! is `run --trace … --set load=X` at that point.

use std::path::{Path, PathBuf};

mod common;

use common::{fails, json_lines, ok, ok_with_stderr, scratch};

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

/// A log of many needs on a preset whose policies include MSFQ (one-or-all only): MSFQ is
/// refused in one sentence with the fix, in words (no class table), and the others replay the
/// log on its machine at its own pace, by file as by fingerprint in a link (RES-90, RES-91).
#[test]
fn a_policy_that_cannot_replay_a_log_is_left_out_in_one_sentence() {
    let dir = scratch("refusal");
    let log = foreign_log(&dir);
    let log = log.to_str().unwrap();
    let (stdout, _) = ok_with_stderr(&["run", "--preset", "msfq-d2", "--trace", log]);
    let refusal = stdout.lines().find(|l| l.contains("MSFQ needs one-or-all classes")).expect(&stdout);
    assert!(refusal.contains("this log has 5 different needs") && refusal.contains("leave MSFQ out"), "{refusal}");
    assert!(!stdout.contains("--policy:") && !stdout.contains('@'), "no flag that was not given, no table:\n{stdout}");
    assert!(stdout.contains("scaling 1/β = 1 ·") && stdout.contains("k = 16 cores"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("MSF ")) && !stdout.lines().any(|l| l.starts_with("MSFQ")));
    // The class columns go by need, not as text.
    let header = stdout.lines().find(|l| l.starts_with("policy")).unwrap();
    let needs: Vec<u32> =
        header.split("E[T] need ").skip(1).map(|c| c.split_whitespace().next().unwrap().parse().unwrap()).collect();
    assert_eq!(needs, [1, 2, 4, 8, 16], "{header}");

    // Named with --policy, it is an error in one sentence under the flag as given.
    let err =
        fails(&["run", "--preset", "msfq-d2", "--trace", log, "--policy", "msfq"], &["--policy msfq: MSFQ needs"]);
    assert!(!err.contains('@'), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");

    // The log named in a link by its fingerprint replays as the file does: its machine, 1/β = 1.
    let by_file = ok(&["run", "--preset", "msfq-d2", "--trace", log, "--policy", "msf", "--json"]);
    let stats = ok(&["trace", "stats", log]);
    let fingerprint = stats.lines().find_map(|l| l.strip_prefix("fingerprint")).unwrap().trim().to_string();
    let link = format!("?preset=msfq-d2&policy=msf&trace={fingerprint}");
    let by_link = ok(&["run", "--trace", log, "--link", &link, "--json"]);
    let (a, b) = (&json_lines(&by_file)[0], &json_lines(&by_link)[0]);
    for key in ["servers", "load", "horizon", "mean_response", "completed"] {
        assert_eq!(a[key], b[key], "{key}: by file {a} by link {b}");
    }
    assert_eq!(a["servers"], 16);
}

/// `sweep --trace` without a grid scales around the log's own offered load, from well below the
/// capacity to just past it, says so, and runs each point once (the log fixes the workload):
/// the mean response time rises with the load (RES-92).
#[test]
fn a_trace_sweep_without_a_grid_scales_around_the_log() {
    let dir = scratch("trace-grid");
    let log = foreign_log(&dir);
    let out = dir.join("sweep");
    let stdout =
        ok(&["sweep", "--preset", "msfq-d6", "--trace", log.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(stdout.contains("the trace's sweep: 1/β from"), "the grid is said:\n{stdout}");
    assert!(stdout.contains("offered load 0.30 to 1.05 of the capacity"), "{stdout}");
    assert!(stdout.contains("one run per point") && stdout.contains("× 1 replication"), "{stdout}");
    // The weighted E[T] of one run has no interval: said, and none written as -inf and inf.
    assert!(stdout.contains("one replication (a log replays the same every time): no interval"), "{stdout}");
    let summary = std::fs::read_to_string(out.join("msfq-d6-summary.csv")).unwrap();
    assert!(!summary.contains("inf"), "{summary}");
    assert!(summary.lines().nth(1).unwrap().contains(",,,"), "empty ci_lo and ci_hi: {summary}");
    let runs = std::fs::read_to_string(out.join("msfq-d6-runs.csv")).unwrap();
    let mut lines = runs.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let policies: std::collections::BTreeSet<&str> = rows.iter().map(|r| r[column("policy")]).collect();
    assert_eq!(policies.len(), 4, "the preset's four policies: {policies:?}");
    for policy in policies {
        let points: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r[column("policy")] == policy)
            .map(|r| (r[column("load")].parse().unwrap(), r[column("mean_response")].parse().unwrap()))
            .collect();
        assert_eq!(points.len(), 9, "{policy}: one run per point");
        // Around the log's pace: from below 1/β = 1 to past it, never the preset's λ grid.
        assert!(points[0].0 < 0.6 && points[8].0 > 1.0 && points[8].0 < 2.0, "{policy}: {points:?}");
        for pair in points.windows(2) {
            assert!(pair[1].1 >= pair[0].1, "{policy}: E[T] falls as the load rises: {points:?}");
        }
    }
}

/// A map of a log: the log replays the same every time, so where a load's first two
/// replications come out identical the rest are copied, not made, and the map says so; the
/// map is the one making every run gives (issue 53).
#[test]
fn a_map_of_a_log_makes_identical_replications_once_and_says_so() {
    let dir = scratch("trace-map");
    let log = foreign_log(&dir);
    let count = |said: &str, word: &str| -> usize {
        let at = said.find(word).unwrap();
        said[..at].trim_end().rsplit(['(', ' ']).next().unwrap().parse().unwrap()
    };
    // At 3 replications a load's third comes in a later round than its first two, if at all:
    // it is copied all the same (the note once said "copied" of maps that copied nothing).
    for reps in ["3", "8"] {
        let out = dir.join(format!("map-{reps}"));
        let log = log.to_str().unwrap();
        let stdout =
            ok(&["stability", "--preset", "msfq-d6", "--trace", log, "--reps", reps, "--out", out.to_str().unwrap()]);
        let said = stdout.lines().find(|l| l.contains("a log replays the same every time")).expect(&stdout);
        assert!(said.contains("at every load tested") && said.contains("made twice and copied"), "{said}");
        let (made, copied) = (count(said, "runs made"), count(said, "copied)"));
        assert!(made > 0 && copied > 0, "{said}");
        assert!(!stdout.contains("inf"), "{stdout}");
        let csv = std::fs::read_to_string(out.join("msfq-d6-stability.csv")).unwrap();
        let runs: usize = csv.lines().skip(1).map(|l| l.split(',').nth(10).unwrap().parse::<usize>().unwrap()).sum();
        assert_eq!(made + copied, runs, "every replication the map counts was made or copied ({reps} replications)");
    }
    let out = dir.join("map-8");
    // Each load's replications in the journal (its first look: 4 of the 8) are one run's
    // growth, repeated.
    let journal = std::fs::read_to_string(out.join("msfq-d6-stability.jsonl")).unwrap();
    let round: serde_json::Value = serde_json::from_str(journal.lines().nth(1).unwrap()).unwrap();
    let growths = round["growths"].as_array().unwrap();
    assert!(growths.chunks(4).all(|load| load.iter().all(|g| *g == load[0])), "{round}");
}
