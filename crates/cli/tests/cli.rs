//! The `packlab` binary as users and scripts call it. Short horizons keep the whole file to a
//! few seconds; the statistics themselves are tested in the core.

use std::path::Path;

use packlab_core::models::{all_policies, policies_of};
use packlab_core::scenario::Sweep;
use packlab_core::scenario::{preset, presets};
use serde_json::Value;

mod common;

use common::{fails, json_lines, ok, packlab};

/// Long enough for a stable verdict on the one-server presets, short enough to be instant.
const H: &str = "200000";

fn f(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} is not a number in {v}"))
}

#[test]
fn presets_lists_every_id_with_figure() {
    let out = ok(&["presets"]);
    for id in ["pgrr-a1", "pgrr-a2", "pgrr-a3", "pgrr-a4", "pgrr-a6"] {
        let line = out.lines().find(|l| l.starts_with(id)).unwrap_or_else(|| panic!("{id} missing: {out}"));
        assert!(line.contains("PG-RR"), "{line}");
    }
}

#[test]
fn describe_lists_every_key_with_value_and_range() {
    for p in presets() {
        let out = ok(&["presets", "--describe", p.id]);
        assert!(out.contains(p.title) && out.contains(p.figure), "{out}");
        assert!(out.contains(&p.explanation[..40]), "explanation missing");
        for k in p.scenario.keys() {
            let value = p.scenario.get(k.key).unwrap();
            assert!(
                // An empty value (no changes) ends the line at its "=".
                out.lines()
                    .any(|l| l.trim_start().starts_with(k.key)
                        && l.trim_end().ends_with(format!("= {value}").trim_end())),
                "{}: key {} = {value} missing:\n{out}",
                p.id,
                k.key
            );
            assert!(out.contains(&format!("range: {}", k.range)), "{}: range of {}", p.id, k.key);
            assert!(out.contains(k.help), "{}: help of {}", p.id, k.key);
        }
        if let Sweep::Runs { grid, .. } | Sweep::Theory { grid } = &p.sweep {
            for load in grid {
                assert!(out.contains(&load.to_string()));
            }
        }
        for meta in policies_of(p.scenario.info().id) {
            assert!(out.contains(meta.name), "policy {}", meta.name);
        }
    }
    fails(&["presets", "--describe", "pgrr-a9"], &["--describe", "pgrr-a1"]);
}

#[test]
fn policies_lists_names_labels_and_parameters() {
    let out = ok(&["policies"]);
    for (_, meta) in all_policies() {
        assert!(out.contains(meta.name) && out.contains(meta.label) && out.contains(meta.summary));
    }
    for param in [":j=", ":ties=", ":weights=", ":small=", ":fill=", ":l=", ":order=", ":target=", ":phase4=", ":f="] {
        assert!(out.contains(param), "{param}");
    }
}

#[test]
fn run_json_is_one_line_per_policy_in_order_with_every_field() {
    let out =
        ok(&["run", "--preset", "pgrr-a1", "--horizon", H, "--policy", "bf-js", "--policy", "vqs,vqs-bf", "--json"]);
    let lines = json_lines(&out);
    let policies: Vec<&str> = lines.iter().map(|v| v["policy"].as_str().unwrap()).collect();
    assert_eq!(policies, ["bf-js", "vqs", "vqs-bf"]);
    for v in &lines {
        for key in [
            "preset",
            "policy",
            "seed",
            "horizon",
            "warmup",
            "load",
            "arrival_rate",
            "servers",
            "mean_queue",
            "mean_queue_ci95",
            "final_queue",
            "arrivals",
            "started",
            "mean_wait",
            "mean_occupancy",
            "unstable",
        ] {
            assert!(v.get(key).is_some(), "{key} missing in {v}");
        }
        assert_eq!(v["preset"], "pgrr-a1");
        assert_eq!(v["horizon"], 200_000);
        assert_eq!(v["warmup"], 20_000, "the warm-up keeps its 10% of the horizon");
        assert!(f(v, "arrivals") > 0.0 && f(v, "started") <= f(v, "arrivals"));
        let ci = v["mean_queue_ci95"].as_array().unwrap();
        assert!(ci[0].as_f64().unwrap() <= f(v, "mean_queue") && f(v, "mean_queue") <= ci[1].as_f64().unwrap());
    }
    // PG-RR Fig. 3a: VQS grows, the best-fit policies do not.
    assert_eq!(lines[0]["unstable"], false);
    assert_eq!(lines[1]["unstable"], true);
    // Common random numbers: every policy sees the same arrivals.
    assert_eq!(lines[0]["arrivals"], lines[1]["arrivals"]);
}

#[test]
fn same_seed_same_bytes_other_seed_other_numbers() {
    let run = |seed: &str| ok(&["run", "--preset", "pgrr-a3", "--horizon", "50000", "--seed", seed, "--json"]);
    let a = run("7");
    assert_eq!(a, run("7"));
    let b = run("8");
    let (a, b) = (json_lines(&a), json_lines(&b));
    for (x, y) in a.iter().zip(&b) {
        assert_ne!(x["mean_queue"], y["mean_queue"]);
        assert_ne!(x["arrivals"], y["arrivals"]);
    }
}

#[test]
fn replications_report_an_interval_around_their_mean() {
    let out = ok(&["run", "--preset", "pgrr-a6", "--horizon", H, "--reps", "3", "--seed", "5", "--json"]);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    for v in &lines {
        assert_eq!(v["reps"], 3);
        assert_eq!(v["seeds"], serde_json::json!([5, 6, 7]));
        let ci = v["mean_queue_ci95"].as_array().unwrap();
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        let mean = f(v, "mean_queue");
        assert!(lo <= mean && mean <= hi && lo < hi, "{lo} {mean} {hi}");
    }
    // The human table says the same and shows the verdict counts.
    let out = ok(&["run", "--preset", "pgrr-a6", "--horizon", H, "--reps", "3", "--seed", "5"]);
    assert!(out.contains("seeds 5..=7") && out.contains("judged together"), "{out}");
    assert!(verdicts(&out).len() == 2, "a verdict per policy: {out}");
}

#[test]
fn human_output_has_header_table_and_scaled_warmup() {
    let out = ok(&["run", "--preset", "pgrr-a1", "--horizon", "100000"]);
    assert!(out.contains("pgrr-a1") && out.contains("PG-RR Fig. 3a"), "{out}");
    assert!(out.contains("warm-up 10000 slots"), "{out}");
    assert!(out.contains("λ = 0.014 ") && out.contains("load α = 0.7"), "{out}");
    for column in ["policy", "mean queue", "95% interval", "final queue", "mean wait", "occupancy", "verdict"] {
        assert!(out.contains(column), "{column}");
    }
    assert!(out.contains("VQS (J=2)") && out.contains("BF-J/S") && out.contains("VQS-BF (J=2)"));
    // At a twentieth of the preset's horizon no queue is decided yet, and the table says so.
    assert_eq!(verdicts(&out), ["undecided"; 3], "{out}");
    // An explicit warm-up is kept.
    let out = ok(&["run", "--preset", "pgrr-a1", "--horizon", "100000", "--set", "warmup=5", "--policy", "bf-js"]);
    assert!(out.contains("warm-up 5 slots"), "{out}");
}

#[test]
fn link_equals_the_flags_it_stands_for() {
    let by_flags = ok(&[
        "run",
        "--preset",
        "pgrr-a1",
        "--policy",
        "vqs,bf-js",
        "--seed",
        "3",
        "--set",
        "load=0.75",
        "--horizon",
        H,
        "--json",
    ]);
    for link in [
        "?preset=pgrr-a1&policy=vqs,bf-js&seed=3&load=0.75&speed=max",
        "http://127.0.0.1:8080/packlab/?preset=pgrr-a1&policy=vqs,bf-js&seed=3&load=0.75&speed=max#top",
    ] {
        assert_eq!(ok(&["run", "--link", link, "--horizon", H, "--json"]), by_flags, "{link}");
    }
    // --policy replaces the link's policies; --seed applies on top of it.
    let out = ok(&[
        "run",
        "--link",
        "?preset=pgrr-a1&policy=vqs",
        "--policy",
        "bf-js",
        "--seed",
        "4",
        "--horizon",
        H,
        "--json",
    ]);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["policy"], "bf-js");
    assert_eq!(lines[0]["seed"], 4);
}

#[test]
fn bad_links_name_every_bad_key() {
    fails(&["run", "--link", "?preset=pgrr-a1&servers=-3&seed=abc&policy=vqs,nope"], &["servers", "seed", "policy"]);
    fails(&["run", "--link", "?preset=pgrr-a9"], &["preset"]);
    fails(&["run", "--link", "?preset=pgrr-a1&warmup=5000000"], &["warmup"]);
    fails(&["run", "--link", "?preset=pgrr-a1", "--preset", "pgrr-a1"], &["--preset", "--link"]);
}

#[test]
fn bad_input_names_the_flag_or_key_and_never_panics() {
    let h = ["--horizon", H];
    let cases: &[(&[&str], &[&str])] = &[
        (&["run", "--preset", "pgrr-a9"], &["--preset", "pgrr-a9", "pgrr-a1"]),
        (&["run", "--preset", "pgrr-a1", "--policy", "lifo"], &["--policy", "lifo", "bf-js"]),
        (&["run", "--preset", "pgrr-a1", "--policy", "vqs,,bf-js"], &["--policy", "empty"]),
        (&["run", "--preset", "pgrr-a1", "--policy", "vqs:k=3"], &["--policy", "'k'", "ties"]),
        (&["run", "--preset", "pgrr-a1", "--policy", "vqs:j=1"], &["--policy", "j must be", "2..=20"]),
        (&["run", "--preset", "pgrr-a1", "--policy", "bf-js:j=3"], &["--policy", "no parameters"]),
        (&["run", "--preset", "pgrr-a1", "--set", "nonsense=1"], &["nonsense", "unknown key", "load"]),
        (&["run", "--preset", "pgrr-a1", "--set", "load=-1"], &["load", "(0, 10]"]),
        (&["run", "--preset", "pgrr-a1", "--set", "load=NaN"], &["load", "(0, 10]"]),
        (&["run", "--preset", "pgrr-a1", "--set", "load=11"], &["load", "(0, 10]"]),
        (&["run", "--preset", "pgrr-a1", "--set", "servers=0"], &["servers", "1..=100000"]),
        (&["run", "--preset", "pgrr-a1", "--set", "servers=-3"], &["servers", "1..=100000"]),
        (&["run", "--preset", "pgrr-a1", "--set", "size=uniform:0.5,1.5"], &["size", "(0, 1]"]),
        (&["run", "--preset", "pgrr-a1", "--set", "size=discrete:1.2@1"], &["size", "(0, 1]"]),
        (&["run", "--preset", "pgrr-a1", "--set", "service=geometric:-5"], &["service"]),
        (&["run", "--preset", "pgrr-a1", "--set", "j=1"], &["j", "2..=20"]),
        (&["run", "--preset", "pgrr-a1", "--set", "load0.9"], &["--set", "KEY=VALUE", "load0.9"]),
        (&["run", "--preset", "pgrr-a1", "--seed", "-1"], &["seed", "0..="]),
        (&["run", "--preset", "pgrr-a1", "--seed", "abc"], &["seed", "0..="]),
        (&["run", "--preset", "pgrr-a1", "--horizon", "0"], &["horizon", "1..="]),
        (&["run", "--preset", "pgrr-a1", "--horizon", "-5"], &["horizon", "1..="]),
        (&["run", "--preset", "pgrr-a1", "--horizon", H, "--set", "warmup=200000"], &["warmup", "below the horizon"]),
        (&["run", "--preset", "pgrr-a1", "--set", "warmup=3000000"], &["warmup", "below the horizon"]),
        (
            &["run", "--preset", "pgrr-a1", "--horizon", "500", "--set", "sample_every=1000"],
            &["sample_every", "at most the horizon"],
        ),
        (&["run", "--preset", "pgrr-a1", "--reps", "0"], &["--reps", ">= 1"]),
        (&["run", "--preset", "pgrr-a1", "--reps", "-2"], &["--reps", ">= 1"]),
        (&["run", "--preset", "pgrr-a1", "--reps", "2", "--seed", "18446744073709551615"], &["--reps", "overflows"]),
        (&["run"], &["--preset", "--link"]),
        (&["sweep", "--preset", "pgrr-a1", "--load", "0.5,,0.6"], &["--load", "empty", "(0, 10]"]),
        (&["sweep", "--preset", "pgrr-a1", "--load", ""], &["--load", "empty"]),
        (&["sweep", "--preset", "pgrr-a1", "--load", "0.5,-1"], &["--load", "load", "(0, 10]"]),
        (&["sweep", "--preset", "pgrr-a1", "--load", "0"], &["--load", "load", "(0, 10]"]),
        (&["sweep", "--preset", "pgrr-a1", "--load", "0.5,x"], &["--load", "load", "(0, 10]"]),
        (&["sweep", "--preset", "pgrr-a1", "--set", "load=0.6"], &["--set load", "--load"]),
        (&["sweep", "--preset", "pgrr-a1", "--reps", "0"], &["--reps", ">= 1"]),
        (&["bench", "--servers", "0"], &["--servers", "1..=100000"]),
        (&["bench", "--servers", "10,,100"], &["--servers", "empty"]),
        (&["bench", "--policy", "nope"], &["--policy", "nope"]),
        (&["bench", "--jobs", "0"], &["--jobs", ">= 1"]),
        (&["bench", "--repeat", "0"], &["--repeat", "1..=100"]),
        (&["bench", "--repeat", "many"], &["--repeat", "many"]),
    ];
    for (args, needles) in cases {
        let mut full: Vec<&str> = args.to_vec();
        if args[0] == "run" && !args.contains(&"--horizon") && args.len() > 1 {
            full.extend(h);
        }
        fails(&full, needles);
    }
}

#[test]
fn bad_sweeps_fail_before_creating_anything() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("never");
    fails(&["sweep", "--preset", "pgrr-a1", "--load", "0.5,-1", "--out", out.to_str().unwrap()], &["--load"]);
    assert!(!out.exists());
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn sweep_writes_runs_summary_and_chart() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sweep");
    let stdout = ok(&[
        "sweep",
        "--preset",
        "pgrr-a1",
        "--load",
        "0.8,0.6",
        "--policy",
        "vqs,bf-js",
        "--reps",
        "2",
        "--horizon",
        "50000",
        "--out",
        out.to_str().unwrap(),
    ]);
    for name in ["pgrr-a1-runs.csv", "pgrr-a1-summary.csv", "pgrr-a1.svg"] {
        assert!(stdout.contains(&out.join(name).display().to_string()), "where {name} went: {stdout}");
    }

    let runs = read(&out.join("pgrr-a1-runs.csv"));
    let mut lines = runs.lines();
    assert_eq!(
        lines.next(),
        Some(
            "preset,policy,load,rep,seed,horizon,mean_queue,ci_lo,ci_hi,final_queue,mean_wait,mean_occupancy,\
             arrivals,started,unstable"
        )
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2 * 2 * 2, "loads × policies × replications");
    // PG-RR's reports add nothing to the shared figures.
    assert!(rows.iter().all(|r| r.len() == 15 && r[0] == "pgrr-a1" && r[5] == "50000"));
    // Loads sorted, replications seeded seed, seed+1.
    let cells: Vec<(&str, &str, &str, &str)> = rows.iter().map(|r| (r[1], r[2], r[3], r[4])).collect();
    assert_eq!(
        cells[..4],
        [("vqs", "0.6", "0", "1"), ("vqs", "0.6", "1", "2"), ("vqs", "0.8", "0", "1"), ("vqs", "0.8", "1", "2")]
    );

    let summary = read(&out.join("pgrr-a1-summary.csv"));
    let mut lines = summary.lines();
    assert_eq!(lines.next(), Some("policy,load,reps,metric,value,ci_lo,ci_hi,verdict,analysis"));
    assert_eq!(lines.count(), 2 * 2);

    let svg = read(&out.join("pgrr-a1.svg"));
    assert!(svg.starts_with("<svg") && svg.contains("VQS (J=2)") && svg.contains("BF-J/S"));
    assert!(svg.contains("PG-RR Fig. 3a"), "title");
}

#[test]
fn run_out_writes_the_trajectory() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("traj");
    let stdout = ok(&[
        "run",
        "--preset",
        "pgrr-a1",
        "--horizon",
        H,
        "--policy",
        "vqs,bf-js",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(json_lines(&stdout).len(), 2, "with --json, stdout holds only the JSON lines");

    let csv = read(&out.join("pgrr-a1-trajectory.csv"));
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("start,end,vqs,bf-js"), "policies as given; J comes from the scenario");
    let rows: Vec<&str> = lines.collect();
    // --horizon alone keeps the preset's 2000 grid points (sample_every 1000 → 100).
    assert_eq!(rows.len(), 2000, "horizon / sample_every interval means");
    assert!(rows[0].starts_with("0,100,"));
    assert!(rows[1999].starts_with("199900,200000,"));

    let svg = read(&out.join("pgrr-a1-trajectory.svg"));
    assert!(svg.contains("VQS (J=2)") && svg.contains("BF-J/S") && svg.contains("waiting jobs"));
}

#[test]
fn bench_runs_with_tiny_numbers() {
    let out = ok(&["bench", "--preset", "pgrr-a3", "--servers", "10,20", "--jobs", "2000"]);
    for column in ["preset", "setting", "policy", "jobs", "time", "events", "events/s", "jobs/s", "ns/job"] {
        assert!(out.contains(column), "{column}: {out}");
    }
    assert!(out.contains("bf-js") && out.contains("vqs-bf") && out.contains("servers=20"));
    let out = ok(&["bench", "--preset", "pgrr-a3", "--servers", "10", "--jobs", "2000", "--policy", "bf-js", "--json"]);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    assert!(f(&lines[0], "jobs") >= 2000.0 && f(&lines[0], "ns_per_job") > 0.0);
    assert!(f(&lines[0], "events") >= f(&lines[0], "jobs"));
}

/// `--repeat N` times every run N times and reports the fastest, with every run's figure and
/// their median.
#[test]
fn bench_repeat_reports_the_fastest_run_and_the_median() {
    let bench = |more: &[&str]| {
        let mut args = vec!["bench", "--preset", "pgrr-a3", "--servers", "10", "--jobs", "2000"];
        args.extend_from_slice(more);
        ok(&args)
    };
    let out = bench(&["--policy", "bf-js,vqs", "--repeat", "3", "--json"]);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2, "{out}");
    for line in &lines {
        let mut runs: Vec<f64> =
            line["runs_ns_per_job"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        assert_eq!(runs.len(), 3);
        runs.sort_by(f64::total_cmp);
        assert_eq!(f(line, "ns_per_job"), runs[0]);
        assert_eq!(f(line, "ns_per_job_median"), runs[1]);
    }
    let table = bench(&["--policy", "bf-js", "--repeat", "2"]);
    assert!(table.contains("median") && table.contains("timed 2 times"), "{table}");
    assert!(!bench(&["--policy", "bf-js"]).contains("median"));
}

/// `--policy` without `--preset` times the headline cases of the model the policy belongs to
/// (it used to try every model's and fail on the first that lacks the policy).
#[test]
fn bench_policy_alone_picks_its_model() {
    let lines = json_lines(&ok(&["bench", "--policy", "msf", "--jobs", "2000", "--json"]));
    assert!(!lines.is_empty());
    for v in &lines {
        assert_eq!(v["policy"], "msf", "{v}");
        assert!(v["preset"].as_str().unwrap().starts_with("msfq-"), "{v}");
    }
    fails(&["bench", "--policy", "msf,bf-js", "--jobs", "2000"], &["--policy", "different models"]);
}

/// `soak` runs every model's headline case, checks its invariants and reports its memory.
#[test]
fn soak_checks_every_model() {
    let lines = json_lines(&ok(&["soak", "--events", "20000", "--json"]));
    let models: Vec<&str> = lines.iter().map(|v| v["model"].as_str().unwrap()).collect();
    let listed: Vec<&str> = packlab_core::models::all().iter().map(|m| m.id).collect();
    assert_eq!(models, listed, "one row per model, in the list's order");
    for v in &lines {
        assert!(f(v, "events") >= 20000.0, "{v}");
    }
    let one = json_lines(&ok(&["soak", "--events", "1000", "--model", "msfq", "--json"]));
    assert_eq!(one.len(), 1);
    fails(&["soak", "--model", "nope"], &["--model", "nope", "pgrr"]);
    fails(&["soak", "--events", "0"], &["--events", ">= 1"]);
}

#[test]
fn presets_match_the_core_catalogue() {
    // The CLI adds no ids of its own: what `presets` prints is what `preset()` accepts.
    let out = ok(&["presets"]);
    for line in out.lines().skip(1).take_while(|l| !l.is_empty()) {
        let id = line.split_whitespace().next().unwrap();
        assert!(preset(id).is_ok(), "{id}");
    }
}

/// The multiserver-job contract: `run --json` carries the response-time fields, per class
/// keyed by server need, and phases for MSF/MSFQ.
#[test]
fn msfq_run_json_has_the_response_fields() {
    let out = ok(&["run", "--preset", "msfq-d1", "--horizon", "20000", "--json"]);
    let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2);
    for (line, policy) in lines.iter().zip(["msf", "msfq:l=31"]) {
        assert_eq!(line["policy"], policy);
        for field in [
            "mean_response",
            "weighted_mean_response",
            "p95_response",
            "utilization",
            "completed",
            "mean_response_ci95",
        ] {
            assert!(line[field].is_number() || line[field].is_array(), "{field} in {line}");
        }
        assert!(line["mean_response_by_class"]["1"].is_number() && line["mean_response_by_class"]["32"].is_number());
        assert_eq!(line["phase_means"].as_array().unwrap().len(), 4);
    }
    let (msf, msfq) = (lines[0]["mean_response"].as_f64().unwrap(), lines[1]["mean_response"].as_f64().unwrap());
    assert!(msfq < msf, "MSFQ {msfq} vs MSF {msf}");
}

#[test]
fn msfq_bad_input_names_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("classes.csv");
    std::fs::write(&csv, "need,probability,mean_size\n1,0.5,1\n64,0.5,oops\n").unwrap();
    let csv = csv.to_str().unwrap();
    fails(&["run", "--preset", "msfq-d6", "--classes-file", csv], &["--classes-file", "line 3", "mean size 'oops'"]);
    std::fs::write(dir.path().join("big.csv"), "1,0.5,1\n4096,0.5,1\n").unwrap();
    let big = dir.path().join("big.csv");
    fails(&["run", "--preset", "msfq-d6", "--classes-file", big.to_str().unwrap()], &["classes", "needs 4096 cores"]);
    fails(&["run", "--preset", "msfq-d1", "--policy", "msfq:l=32"], &["--policy", "l must be an integer in 0..=31"]);
    fails(&["run", "--preset", "msfq-d1", "--policy", "vqs"], &["--policy", "vqs is a policy of PG-RR"]);
    // `script` is PG-RR's, MSFQ's and GH-RA's: PG-AS refuses it without naming one of them.
    fails(
        &["run", "--preset", "pgas-c3", "--policy", "script"],
        &["--policy", "script is not a policy of this model", "this scenario is PG-AS", "takes dra"],
    );
    fails(&["run", "--preset", "msfq-d5", "--policy", "msfq"], &["one-or-all"]);
    fails(&["run", "--preset", "msfq-d1", "--set", "load=-2"], &["load", "(0, 1000000]"]);
    fails(&["run", "--preset", "msfq-d1", "--set", "classes=1@0.5"], &["classes", "sum to 0.5"]);
}

/// A multiserver-job sweep plots E[T] (Fig. 2) and fills the response and phase columns.
#[test]
fn msfq_sweep_plots_the_mean_response() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d2");
    let stdout = ok(&[
        "sweep",
        "--preset",
        "msfq-d2",
        "--load",
        "5,6",
        "--policy",
        "msf,msfq",
        "--reps",
        "1",
        "--horizon",
        "5000",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(stdout.contains("mean response time E[T]"), "{stdout}");
    let summary = read(&out.join("msfq-d2-summary.csv"));
    let rows: Vec<Vec<&str>> = summary.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r[3] == "mean response time E[T]" && r[4].parse::<f64>().unwrap() > 1.0));
    // The paper's analysis (SPEC 5.6) next to each MSF and MSFQ cell: MSFQ(31) at λ = 6 is 12.165.
    assert!(rows.iter().all(|r| r[8].parse::<f64>().is_ok()), "{summary}");
    let msfq6 = rows.iter().find(|r| r[0] == "msfq" && r[1] == "6.0").unwrap();
    assert!((msfq6[8].parse::<f64>().unwrap() - 12.165).abs() < 1e-3, "{summary}");
    assert!(stdout.contains("(analysis 12.16"), "{stdout}");
    let runs = read(&out.join("msfq-d2-runs.csv"));
    let rows: Vec<Vec<&str>> = runs.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert!(rows.iter().all(|r| r[15..22].iter().all(|c| c.parse::<f64>().is_ok())), "{runs}");
    assert!(read(&out.join("msfq-d2.svg")).contains("arrival rate"));
}

/// MSFQ Fig. 4: the D4 sweep puts the threshold ℓ on the x axis, one curve per λ, and MSF
/// (ℓ = 0) is far worse than any ℓ > 0.
#[test]
fn msfq_sweep_of_the_threshold_puts_l_on_the_x_axis() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d4");
    let stdout = ok(&[
        "sweep",
        "--preset",
        "msfq-d4",
        "--load",
        "6.5",
        "--policy",
        "msfq:l=0,msfq:l=8,msfq:l=31",
        "--reps",
        "1",
        "--horizon",
        "40000",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(stdout.contains("threshold ℓ (0 = MSF)") && stdout.contains("λ = 6.5"), "{stdout}");
    let summary = read(&out.join("msfq-d4-summary.csv"));
    let value = |l: &str| -> f64 {
        let row = summary.lines().find(|r| r.starts_with(&format!("msfq:l={l},"))).unwrap();
        row.split(',').nth(4).unwrap().parse().unwrap()
    };
    assert!(value("0") > 2.0 * value("8") && value("0") > 2.0 * value("31"), "{summary}");
    assert!(read(&out.join("msfq-d4.svg")).contains("threshold"));
}

/// MSFQ Fig. 3: the D3 sweep summarises E[H1..H4] per policy and load, with the analysis.
#[test]
fn msfq_sweep_of_phases_has_one_row_per_phase() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("d3");
    let stdout = ok(&[
        "sweep",
        "--preset",
        "msfq-d3",
        "--load",
        "7",
        "--reps",
        "1",
        "--horizon",
        "40000",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(stdout.contains("E[H1]") && stdout.contains("E[H4]"), "{stdout}");
    let summary = read(&out.join("msfq-d3-summary.csv"));
    let rows: Vec<Vec<&str>> = summary.lines().skip(1).map(|l| l.split(',').collect()).collect();
    // MSF and MSFQ(31), four phases each.
    assert_eq!(rows.len(), 8, "{summary}");
    let h = |policy: &str, phase: &str| -> f64 {
        rows.iter().find(|r| r[0].split(':').next() == Some(policy) && r[3] == phase).unwrap()[4].parse().unwrap()
    };
    // MSFQ's phases 1 and 2 are much shorter than MSF's; MSFQ(31)'s phase 4 is H_31 ≈ 4.
    assert!(h("msf", "E[H1]") > 5.0 * h("msfq", "E[H1]"), "{summary}");
    assert!((h("msfq", "E[H4]") - 4.03).abs() < 0.5, "{summary}");
    assert_eq!(h("msf", "E[H4]"), 0.0);
}

/// `run --reps --json` on the multiserver-job model carries the response fields, averaged
/// over the replications, with a Student-t interval around the mean of the runs' E[T].
#[test]
fn msfq_replications_report_response_times() {
    let one = |seed: &str| {
        f(
            &json_lines(&ok(&[
                "run",
                "--preset",
                "msfq-d1",
                "--policy",
                "msfq",
                "--horizon",
                "4000",
                "--seed",
                seed,
                "--json",
            ]))[0],
            "mean_response",
        )
    };
    let lines = json_lines(&ok(&[
        "run",
        "--preset",
        "msfq-d1",
        "--policy",
        "msfq",
        "--horizon",
        "4000",
        "--reps",
        "3",
        "--json",
    ]));
    let r = &lines[0];
    assert_eq!(r["reps"], 3);
    let mean = (one("1") + one("2") + one("3")) / 3.0;
    assert!((f(r, "mean_response") - mean).abs() < 1e-9, "{r}");
    let ci = r["mean_response_ci95"].as_array().unwrap();
    assert!(ci[0].as_f64().unwrap() < mean && mean < ci[1].as_f64().unwrap(), "{r}");
    for key in ["weighted_mean_response", "p95_response", "utilization", "completed"] {
        assert!(f(r, key) > 0.0, "{key}: {r}");
    }
    assert_eq!(r["phase_means"].as_array().unwrap().len(), 4);
    assert!(r["mean_response_by_class"]["32"].as_f64().unwrap() > 0.0);
}

/// The PG-AS contract: `run --json` carries the reward fields (SPEC 4.6), the bounds at the
/// scenario's α·ρ and blocking per type; DRA beats power-of-d on the C2 collection.
#[test]
fn pgas_run_json_has_the_reward_fields() {
    let out = ok(&["run", "--preset", "pgas-c3", "--set", "servers=24", "--horizon", "40", "--json"]);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2);
    for v in &lines {
        for key in [
            "reward_rate",
            "normalized_reward",
            "ratio_to_optimal",
            "ratio_to_greedy",
            "greedy_reward",
            "optimal_reward",
        ] {
            assert!(f(v, key) > 0.0, "{key} in {v}");
        }
        assert!((f(v, "reward_rate") / 24.0 - f(v, "normalized_reward")).abs() < 1e-6);
        assert!((f(v, "greedy_reward") - 3196.0 / 3.0).abs() < 1e-9 && (f(v, "optimal_reward") - 1236.0).abs() < 1e-6);
        let blocking = v["blocking"].as_object().unwrap();
        assert_eq!(blocking.len(), 4, "one entry per type: {v}");
        assert!(blocking.values().all(|b| (0.0..=1.0).contains(&b.as_f64().unwrap())));
        for key in ["migrations", "preemptions", "reconfigurations"] {
            assert!(v[key].as_u64().is_some(), "{key} in {v}");
        }
        assert_eq!(v["warmup"], 10, "the warm-up keeps its quarter of the horizon");
    }
    assert_eq!(lines[0]["policy"], "dra");
    assert!(f(&lines[0], "ratio_to_greedy") > f(&lines[1], "ratio_to_greedy") + 0.1);
    assert!(f(&lines[0], "migrations") > 0.0 && f(&lines[1], "migrations") == 0.0);
    assert_eq!(lines[0]["arrivals"], lines[1]["arrivals"], "common random numbers");

    let human = ok(&["run", "--preset", "pgas-c3", "--set", "servers=24", "--horizon", "40", "--reps", "2"]);
    for needle in ["reward/L", "/ U^(g)", "blocking", "mean |RG|", "U^(g) = 1065.33", "seeds 1..=2"] {
        assert!(human.contains(needle), "{needle}: {human}");
    }
    let reps =
        json_lines(&ok(&["run", "--preset", "pgas-c6", "--horizon", "20", "--reps", "3", "--json", "--policy", "dra"]));
    let ci = reps[0]["normalized_reward_ci95"].as_array().unwrap();
    assert!(
        ci[0].as_f64().unwrap() < f(&reps[0], "normalized_reward")
            && f(&reps[0], "normalized_reward") < ci[1].as_f64().unwrap()
    );
}

#[test]
fn pgas_bounds_print_the_c2_fixtures_and_the_c1_statistics() {
    let v = &json_lines(&ok(&["bounds", "--preset", "pgas-c2", "--load", "1", "--json"]))[0];
    assert!((f(v, "greedy_reward") - 3196.0 / 3.0).abs() < 1e-9);
    assert!((f(v, "optimal_reward") - 1236.0).abs() < 1e-9);
    assert!((f(v, "ratio") - 0.861920).abs() < 1e-6);
    assert_eq!((v["greedy_reward_exact"].as_str(), v["optimal_reward_exact"].as_str()), (Some("3196/3"), Some("1236")));
    let counts: Vec<Value> =
        v["greedy_configurations"].as_array().unwrap().iter().map(|s| s["counts"].clone()).collect();
    assert_eq!(Value::Array(counts), serde_json::json!([[12, 3, 8, 0], [0, 7, 6, 0], [0, 0, 2, 1], [0, 0, 0, 1]]));
    let shares: Vec<&str> =
        v["greedy_configurations"].as_array().unwrap().iter().map(|s| s["share_exact"].as_str().unwrap()).collect();
    assert_eq!(shares, ["1/6", "0", "0", "5/6"]);
    let support: Vec<(Value, &str)> = v["optimal_support"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["counts"].clone(), s["weight_exact"].as_str().unwrap()))
        .collect();
    assert!(support.contains(&(serde_json::json!([0, 0, 2, 1]), "1/3")), "{support:?}");
    // 6/7 typed as a decimal is 6/7: U^(g) = U* = 7416/7.
    let v = &json_lines(&ok(&["bounds", "--preset", "pgas-c2", "--load", "0.857142857142857", "--json"]))[0];
    assert_eq!(
        (v["greedy_reward_exact"].as_str(), v["optimal_reward_exact"].as_str()),
        (Some("7416/7"), Some("7416/7"))
    );
    let human = ok(&["bounds", "--preset", "pgas-c2"]);
    for needle in
        ["U^(g) = 1065.333 (3196/3)", "U*    = 1236.000", "ratio = 0.861920", "(12,3,8,0)", "an optimal LP support"]
    {
        assert!(human.contains(needle), "{needle}: {human}");
    }

    let v = &json_lines(&ok(&["bounds", "--preset", "pgas-c1", "--set", "types=random:8", "--json"]))[0];
    assert_eq!(v["collections"], 8);
    assert_eq!(v["results"].as_array().unwrap().len(), 8);
    assert!(f(v, "min_ratio") >= f(v, "guarantee") && f(v, "mean_ratio") <= 1.0);
    assert!(ok(&["bounds", "--preset", "pgas-c1"]).contains("ratio exactly 1:"));

    fails(&["bounds", "--preset", "pgrr-a1"], &["PG-RR has no static bounds", "PG-AS"]);
    fails(&["bounds", "--preset", "pgas-c5"], &["no static bounds", "upper-bound"]);
    fails(&["bounds", "--preset", "pgas-c2", "--load", "200"], &["--load", "load: must be a number in (0, 100]"]);
    fails(&["run", "--preset", "pgas-c1"], &["random collections", "packlab bounds"]);
    fails(&["run", "--preset", "pgas-c3", "--policy", "dra-preempt"], &["--policy", "priority-0", "types=trace"]);
    fails(&["run", "--preset", "pgas-c3", "--policy", "po-d:d=0"], &["po-d: d must be an integer in 1..=1000"]);
    fails(&["run", "--preset", "pgas-c3", "--policy", "dra:g=ln^9"], &["dra: g must be"]);
    fails(&["run", "--preset", "pgas-c3", "--set", "rho=1,2"], &["rho: 2 entries for 4 types"]);
}

#[test]
fn pgas_sweeps_draw_fig_2_from_theory_and_fig_3_against_l() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c2");
    let stdout = ok(&["sweep", "--preset", "pgas-c2", "--load", "0.5,1,6", "--out", out.to_str().unwrap()]);
    assert!(stdout.contains("worst ratio 0.861920 at α = 1"), "{stdout}");
    let csv = read(&out.join("pgas-c2-bounds.csv"));
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "alpha,greedy_reward,optimal_reward,ratio");
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[1], "0.5,618.0,618.0,1.0");
    assert!(read(&out.join("pgas-c2.svg")).contains("U^(g) (global greedy)"));

    let out = dir.path().join("c3");
    let stdout = ok(&[
        "sweep",
        "--preset",
        "pgas-c3",
        "--servers",
        "24,12",
        "--reps",
        "2",
        "--horizon",
        "20",
        "--out",
        out.to_str().unwrap(),
    ]);
    // The reward over each bound, and the bounds' own ratio, 1065.33 / 1236 = 0.86192.
    assert!(
        stdout.contains("U^(g) = 1065.33 · U* = 1236 · U^(g)/U* = 0.86192")
            && stdout.lines().any(|l| l.starts_with("12 ")),
        "{stdout}"
    );
    let summary = read(&out.join("pgas-c3-summary.csv"));
    assert_eq!(summary.lines().count(), 1 + 2 * 2 * 2, "(dra, po-d) × (12, 24) × (/ U^(g), / U*)");
    assert!(summary.lines().next().unwrap().starts_with("policy,servers,reps,metric"), "{summary}");
    assert!(summary.contains(",/ U^(g),") && summary.contains(",/ U*,"), "{summary}");
    assert!(read(&out.join("pgas-c3.svg")).contains("DRA / U^(g)"));
    assert_eq!(read(&out.join("pgas-c3-runs.csv")).lines().count(), 1 + 8);

    fails(&["sweep", "--preset", "pgas-c1", "--out", out.to_str().unwrap()], &["packlab bounds --preset pgas-c1"]);
    // One axis at a time; any preset sweeps either (a sweep against L is a kind of axis).
    fails(
        &["sweep", "--preset", "pgas-c3", "--load", "1", "--servers", "12", "--out", out.to_str().unwrap()],
        &["--load, --servers", "one axis"],
    );
    fails(
        &["sweep", "--preset", "pgas-c3", "--servers", "0", "--out", out.to_str().unwrap()],
        &["--servers", "1..=100000"],
    );
    fails(
        &["sweep", "--preset", "msfq-d1", "--servers", "5", "--out", out.to_str().unwrap()],
        &["no key 'servers'", "cores"],
    );
    fails(
        &["sweep", "--preset", "pgas-c3", "--set", "servers=12", "--out", out.to_str().unwrap()],
        &["--set servers", "--servers"],
    );
}

#[test]
fn pgas_run_out_writes_the_reward_trajectory_with_the_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c4");
    ok(&["run", "--preset", "pgas-c4", "--horizon", "5", "--out", out.to_str().unwrap()]);
    let csv = read(&out.join("pgas-c4-trajectory.csv"));
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("start,end,dra reward/L,po-d reward/L"));
    assert_eq!(lines.count(), 500, "--horizon keeps the preset's 500 points (sample_every 0.1 → 0.01)");
    let svg = read(&out.join("pgas-c4-trajectory.svg"));
    assert!(svg.contains("U^(g) = 1065.33") && svg.contains("U* = 1236.00") && svg.contains("DRA"));
}

#[test]
fn pgas_trace_files_replay_and_bad_ones_name_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.csv");
    let mut text = String::from("submit_time,duration,size,priority\n");
    for i in 0..400 {
        text.push_str(&format!(
            "{},{},{},{}\n",
            i as f64 * 0.05,
            1.0 + (i % 7) as f64,
            [0.3, 0.05, 0.6][i % 3],
            [0, 4, 10][i % 3]
        ));
    }
    std::fs::write(&trace, &text).unwrap();
    let path = trace.to_str().unwrap();
    let lines = json_lines(&ok(&[
        "run",
        "--preset",
        "pgas-c5",
        "--set",
        "servers=5",
        "--trace-file",
        path,
        "--policy",
        "dra,dra-preempt,po-d,upper-bound",
        "--json",
    ]));
    assert_eq!(lines.len(), 4);
    // The horizon covers the trace: its last submit time is 19.95.
    assert_eq!(lines[0]["horizon"], 20);
    assert_eq!(lines[0]["warmup"], 2, "the warm-up keeps its tenth");
    for v in &lines {
        assert_eq!(v["arrivals"], 400);
        assert!(v["ratio_to_greedy"].is_null(), "a trace has no static bounds");
        assert_eq!(v["blocking"].as_object().unwrap().len(), 3, "types p2 · 1/1, p1 · 1/16, p0 · 1/2");
    }
    // The upper bound earns at least what any policy does on the same tasks.
    let reward = |i: usize| f(&lines[i], "normalized_reward");
    assert!(reward(3) >= reward(0).max(reward(1)).max(reward(2)) - 1e-9);

    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "0,1,0.5,3\n1,2,0.5,3\n2,-1,0.5,3\n").unwrap();
    fails(
        &["run", "--preset", "pgas-c5", "--trace-file", bad.to_str().unwrap()],
        &["--trace", "line 3", "duration '-1'"],
    );
    fails(
        &["run", "--preset", "pgrr-a1", "--trace-file", path],
        &["--trace", "task CSV", "PG-RR replays Google task_events", "replays in PG-AS"],
    );
    fails(&["run", "--preset", "pgas-c5", "--trace-file", "/nonexistent/t.csv"], &["--trace", "cannot open"]);
}

/// The repository's samples/ directory.
fn sample(name: &str) -> String {
    format!("{}/../../samples/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn trace_stats_say_what_a_file_holds() {
    // A log of mixed needs on 128 processors (the generator's default shape).
    let dir = tempfile::tempdir().unwrap();
    let mixed = dir.path().join("synthetic-128.swf");
    let mixed = mixed.to_str().unwrap();
    ok(&["trace", "synth", "--format", "swf", "--tasks", "2000", "--seed", "1", "--out", mixed]);
    let out = ok(&["trace", "stats", mixed]);
    for line in [
        "format       Standard Workload Format (SWF)",
        "kept         1940",
        "skipped             39  unknown run time",
        "skipped             21  unknown processors",
        "mean need    40.05 processors",
        "          65–128       454  ########################################",
        "offered load 0.8375 on 128 processors",
        "classes      8 (need, share, mean size in mean run times); the log's λ = 2.5526 per mean run time",
    ] {
        assert!(out.lines().any(|l| l == line), "no line {line:?} in\n{out}");
    }
    let table = dir.path().join("classes.csv");
    let out = ok(&["trace", "stats", mixed, "--classes-out", table.to_str().unwrap()]);
    assert!(out.contains("--classes-file"), "{out}");
    let text = std::fs::read_to_string(&table).unwrap();
    assert!(text.starts_with("need,probability,mean_size\n1,0.0927"), "{text}");
    // The fitted table runs on msfq-d6 as the stats line says.
    let run = json_lines(&ok(&[
        "run",
        "--preset",
        "msfq-d6",
        "--classes-file",
        table.to_str().unwrap(),
        "--set",
        "cores=128",
        "--set",
        "load=2",
        "--horizon",
        "300",
        "--policy",
        "msf",
        "--json",
    ]));
    assert_eq!(run[0]["servers"], 128);

    let out = ok(&["trace", "stats", &sample("google-task-events.csv.gz"), "--servers", "1000", "--json"]);
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["kept"], 38992);
    assert_eq!(v["fingerprint"], "b7d425969002bcb6");
    assert_eq!(v["skipped"][0], serde_json::json!(["present when the trace began (time 0)", 40]));
    assert_eq!(v["histogram"].as_array().unwrap().len(), 11);
    let first = json_lines(&ok(&["trace", "stats", &sample("google-task-events.csv.gz"), "--first", "100", "--json"]));
    assert_eq!(first[0]["kept"], 100);
    fails(&["trace", "stats", mixed, "--first", "5"], &["--first", "Google traces only"]);
    // The bundled SWF sample is a one-or-all log: one processor or all 32.
    let out = ok(&["trace", "stats", &sample("synthetic-32.swf.gz")]);
    assert!(
        out.lines().any(|l| l
            == "classes      2 (need, share, mean size in mean run times); the log's λ = 6.8576 per mean run time"),
        "{out}"
    );
    // Bad shapes are named with their range.
    let bad = dir.path().join("bad.swf");
    let bad = bad.to_str().unwrap();
    fails(
        &["trace", "synth", "--format", "swf", "--tasks", "10", "--one-or-all", "1", "--out", bad],
        &["--one-or-all", "(0, 1)"],
    );
    fails(
        &["trace", "synth", "--format", "swf", "--tasks", "10", "--one-or-all", "0.1", "--load", "0", "--out", bad],
        &["--load", "(0, 10]"],
    );
    fails(
        &["trace", "synth", "--format", "google", "--tasks", "10", "--procs", "8", "--out", bad],
        &["--procs", "SWF"],
    );
    fails(
        &["trace", "synth", "--format", "swf", "--tasks", "10", "--per-second", "5", "--out", bad],
        &["--per-second", "Google"],
    );
    fails(
        &["trace", "synth", "--format", "google", "--tasks", "10", "--per-second", "-1", "--out", bad],
        &["--per-second", "(0, 100000]"],
    );
}

#[test]
fn traces_replay_on_their_models_and_bad_files_name_line_and_field() {
    let google = sample("google-task-events.csv.gz");
    // pgrr-a5 on the sample: a link naming the trace by its fingerprint runs with --trace as
    // --preset does.
    let by_preset = ok(&["run", "--preset", "pgrr-a5", "--trace", &google, "--set", "load=1.5", "--json"]);
    let lines = json_lines(&by_preset);
    assert_eq!(lines.len(), 4, "BF-J/S, VQS, VQS-BF, FIFO-FF");
    assert_eq!(lines[0]["horizon"], 3338, "the horizon covers 500.5 s of trace at 1/β = 1.5 in 100 ms slots");
    assert_eq!(lines[0]["arrivals"], 38992);
    let link = "?preset=pgrr-a5&policy=bf-js,vqs,vqs-bf,fifo-ff&seed=1&load=1.5&trace=b7d425969002bcb6&horizon=3338&warmup=333&sample_every=3";
    assert_eq!(ok(&["run", "--link", link, "--trace", &google, "--json"]), by_preset);
    fails(&["run", "--link", link], &["trace", "b7d425969002bcb6", "not loaded here", "--trace FILE"]);
    // Replications of a trace file say what they vary.
    let reps = packlab(&["run", "--preset", "pgrr-a5", "--trace", &google, "--reps", "2", "--policy", "bf-js"]);
    assert!(reps.status.success());
    assert!(String::from_utf8_lossy(&reps.stderr).contains("a trace file fixes the arrivals"));
    // MSFQ on the SWF sample runs on the log's 32 cores; PG-AS takes the Google sample.
    let msfq = json_lines(&ok(&[
        "run",
        "--preset",
        "msfq-d6",
        "--trace",
        &sample("synthetic-32.swf.gz"),
        "--policy",
        "msf",
        "--json",
    ]));
    assert_eq!((msfq[0]["servers"].as_u64(), msfq[0]["arrivals"].as_u64()), (Some(32), Some(20336)));
    let pgas = json_lines(&ok(&["run", "--preset", "pgas-c5", "--trace", &google, "--policy", "dra", "--json"]));
    assert_eq!(pgas[0]["arrivals"], 38992);
    fails(
        &["run", "--preset", "msfq-d1", "--trace", &google],
        &["Google cluster-data task_events file", "MSFQ replays an SWF log", "replays in PG-RR and PG-AS"],
    );

    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    };
    let gz = std::fs::read(&google).unwrap();
    let good = "600,,1,0,,0,u,2,3,0.1,0.1,0,0\n";
    for (name, bytes, needles) in [
        ("cut.csv.gz", gz[..gz.len() - 1000].to_vec(), vec!["cut.csv.gz line", "gzip: the compressed data ends early"]),
        (
            "wide.csv",
            format!("{good}601,,1,0,,1,u,2,3,0.1,0.1,0,0,9\n").into_bytes(),
            vec!["wide.csv line 2: 14 columns"],
        ),
        (
            "neg.csv",
            format!("{good}-601,,1,0,,1,u,2,3,0.1,0.1,0,0\n").into_bytes(),
            vec!["neg.csv line 2: timestamp '-601'"],
        ),
        (
            "nan.csv",
            format!("{good}601,,1,0,,1,u,2,3,0.1,NaN,0,0\n").into_bytes(),
            vec!["nan.csv line 2: memory request 'NaN'"],
        ),
        (
            "long.csv",
            format!("{good}{}\n", "7".repeat(200_000)).into_bytes(),
            vec!["long.csv line 2: longer than 65536 bytes"],
        ),
        ("neither.txt", b"hello world\n".to_vec(), vec!["neither.txt line 1: is neither a Google task_events line"]),
        (
            "log.swf",
            b"; MaxProcs: 4\n1 0 0 5 2 -1 -1 2 -1 -1 1 1 1 1 1 1 -1\n".to_vec(),
            vec!["log.swf line 2: 17 fields; an SWF job line has 18"],
        ),
    ] {
        let path = write(name, &bytes);
        let mut expected = vec!["--trace"];
        expected.extend(needles);
        fails(&["run", "--preset", "pgrr-a5", "--trace", &path], &expected);
        fails(&["trace", "stats", &path], &expected[1..]);
    }
}

#[test]
fn bench_pgas_runs_with_tiny_numbers() {
    let lines = json_lines(&ok(&["bench", "--model", "pgas", "--servers", "20", "--jobs", "3000", "--json"]));
    assert_eq!(lines.len(), 5);
    for v in &lines {
        assert!(f(v, "events") > 0.0 && f(v, "ns_per_job") > 0.0 && f(v, "jobs") >= 3000.0, "{v}");
    }
    assert!(ok(&["bench", "--model", "pgas", "--servers", "20", "--jobs", "3000"]).contains("events/s"));
    fails(&["bench", "--model", "nope"], &["--model", "no model 'nope'", "pgrr"]);
}

/// Issue 15: `run --events` writes every policy's decisions in a window, with the reasons and
/// numbers the page's event log shows; bad windows are named.
#[test]
fn events_are_written_for_a_window() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("events.csv");
    let path = file.to_str().unwrap();
    let base = ["run", "--preset", "msfq-d1", "--policy", "msfq,msf", "--set", "horizon=100", "--events", path];
    let out = ok(&[&base[..], &["--events-from", "10", "--events-to", "20.5"]].concat());
    assert!(out.contains("decisions)"), "{out}");
    let mut reader = csv::Reader::from_path(&file).unwrap();
    assert_eq!(reader.headers().unwrap(), packlab_core::decisions::CSV_HEADER.as_slice());
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    // About 7.5 arrivals per time unit: each lane starts most of them in the window.
    for policy in ["msfq", "msf"] {
        let mine: Vec<_> = rows.iter().filter(|r| &r[0] == policy).collect();
        assert!(mine.len() > 20, "{policy}: {} decisions", mine.len());
        let seqs: Vec<u64> = mine.iter().map(|r| r[1].parse().unwrap()).collect();
        assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{policy}: every decision, in order");
    }
    for r in &rows {
        let t: f64 = r[2].parse().unwrap();
        assert!((10.0..=20.5).contains(&t), "{r:?}");
        assert!(!r[8].is_empty() && !r[9].is_empty(), "what and why: {r:?}");
    }
    // MSFQ's phase changes say which Quickswap rule fired, with the counts it compared.
    assert!(rows.iter().any(|r| &r[0] == "msfq" && &r[3] == "phase" && r[10].contains("n₁")), "no phase change");
    fails(
        &[&base[..], &["--events-from", "30", "--events-to", "20"]].concat(),
        &["--events-from (30)", "--events-to (20)"],
    );
    fails(&[&base[..], &["--events-to", "1000"]].concat(), &["--events-to", "0..=100"]);
    fails(&[&base[..], &["--events-from", "-1"]].concat(), &["--events-from", "a number >= 0"]);
    fails(&["run", "--preset", "msfq-d1", "--events-to", "5"], &["--events"]);
}

#[test]
fn a_link_at_a_moment_reports_that_moment_and_says_so() {
    // A link with `t=` (the page's "Link to this moment", or Copy link after going back) runs
    // to that moment: its numbers are those of the same run cut there, in slotted and in
    // continuous time, never the whole run's.
    let whole = "preset=pgrr-a1&policy=vqs,bf-js&seed=1&horizon=20000&warmup=2000";
    let cut = "preset=pgrr-a1&policy=vqs,bf-js&seed=1&horizon=5000&warmup=2000";
    let at = json_lines(&ok(&["run", "--link", &format!("{whole}&t=5000"), "--json"]));
    let short = json_lines(&ok(&["run", "--link", cut, "--json"]));
    let full = json_lines(&ok(&["run", "--link", whole, "--json"]));
    for ((a, s), w) in at.iter().zip(&short).zip(&full) {
        for key in ["horizon", "mean_queue", "final_queue", "arrivals", "started", "mean_occupancy"] {
            assert_eq!(a[key], s[key], "{key} at t=5000 against a run of 5000 slots");
        }
        assert_ne!(a["arrivals"], w["arrivals"], "t was ignored: {a}");
    }
    let msfq = json_lines(&ok(&["run", "--link", "preset=msfq-d1&seed=1&horizon=2000&t=350.5", "--json"]));
    assert!(msfq.iter().all(|r| f(r, "horizon") <= 351.0), "{msfq:?}");
    // The table says which moment it reports.
    let human = ok(&["run", "--link", &format!("{whole}&t=5000")]);
    assert!(human.contains("(the link's t)"), "{human}");
    // A moment the flags put past the horizon is refused, naming t.
    fails(&["run", "--link", &format!("{whole}&t=5000"), "--horizon", "4000"], &["t = 5000", "0..=4000"]);
    fails(&["run", "--link", &format!("{whole}&t=30000")], &["t"]);
}

/// The verdict ending each policy's row of a human table.
fn verdicts(out: &str) -> Vec<&'static str> {
    out.lines()
        .filter(|l| l.contains('%'))
        .filter_map(|l| ["not stable", "undecided", "stable"].into_iter().find(|w| l.trim_end().ends_with(w)))
        .collect()
}
