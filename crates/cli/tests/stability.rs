//! `packlab stability`: the boundaries the papers know exactly lie in the intervals the map
//! reports, and the intervals are narrow; a map made in shards is the map made whole; a map
//! resumes without a run; bad flags name the flag and its range.
//!
//! The known answers: on pgrr-a1's mix (one server, sizes 0.4 and 0.6) VQS keeps 2/3 of the
//! capacity and BF-J/S all of it; on pgrr-a2's (0.2 and 0.5, fixed service) best fit keeps 0.9
//! and VQS all of it; on msfq-d1's, MSF keeps k / E[need × size] = 32/4.1 = 7.805.

use std::path::Path;

mod common;

use common::{fails, ok, scratch};

/// The map's CSV rows as (policy, boundary_lo, boundary_hi, status).
fn boundaries(dir: &Path, id: &str) -> Vec<(String, f64, f64, String)> {
    let text = std::fs::read_to_string(dir.join(format!("{id}-stability.csv"))).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    lines
        .map(|line| {
            let cells: Vec<&str> = line.split(',').collect();
            let number = |name: &str| cells[col(name)].parse::<f64>().unwrap_or(f64::NAN);
            let (lo, hi) = (number("boundary_lo"), number("boundary_hi"));
            (cells[col("policy")].to_string(), lo, hi, cells[col("status")].to_string())
        })
        .collect()
}

/// Runs the map of `args` and checks each policy's interval against its known boundary: the
/// search ended narrowed (or narrowed around loads it could not decide), the interval holds
/// the boundary, and it is at most `width` of the boundary wide.
fn known(name: &str, id: &str, args: &[&str], expected: &[(&str, f64)], width: f64) {
    let dir = scratch(name);
    let mut all = vec!["stability", "--preset", id, "--out", dir.to_str().unwrap()];
    all.extend_from_slice(args);
    ok(&all);
    let found = boundaries(&dir, id);
    assert_eq!(found.len(), expected.len(), "{found:?}");
    for ((policy, lo, hi, status), (label, boundary)) in found.iter().zip(expected) {
        assert_eq!(policy, label);
        assert!(["narrowed", "narrowed to an undecided band"].contains(&status.as_str()), "{policy}: {status}");
        assert!(*lo <= *boundary && *boundary <= *hi, "{policy}: [{lo}, {hi}] misses {boundary}");
        assert!(hi - lo <= width * boundary, "{policy}: [{lo}, {hi}] is wider than {width} of {boundary}");
    }
}

#[test]
fn a1_vqs_keeps_two_thirds_and_best_fit_all() {
    known("a1", "pgrr-a1", &["--policy", "vqs,bf-js"], &[("VQS (J=2)", 2.0 / 3.0), ("BF-J/S", 1.0)], 0.06);
}

/// Seed 1301's map judges 0.6625 (0.994 of 2/3) not stable: VQS's queue there was still
/// filling at the end of its runs. Its interval held 2/3 only once the upper end got its margin
/// for a queue that has not mixed (`boundary_ceiling`); before, it read [0.6523, 0.6625].
#[test]
fn a1_vqs_still_filling_just_below_two_thirds_is_covered() {
    known("a1-1301", "pgrr-a1", &["--policy", "vqs", "--seed", "1301"], &[("VQS (J=2)", 2.0 / 3.0)], 0.06);
}

#[test]
fn a2_best_fit_keeps_nine_tenths_and_vqs_all() {
    let args = ["--policy", "bf-js,vqs", "--horizon", "4000000"];
    known("a2", "pgrr-a2", &args, &[("BF-J/S", 0.9), ("VQS (J=3)", 1.0)], 0.06);
}

#[test]
fn d1_msf_keeps_the_capacity() {
    known("d1", "msfq-d1", &["--policy", "msf"], &[("MSF", 32.0 / 4.1)], 0.1);
}

#[test]
fn a_map_in_shards_is_the_map_made_whole() {
    let small = [
        "--preset",
        "pgrr-a1",
        "--policy",
        "vqs",
        "--horizon",
        "200000",
        "--reps",
        "2",
        "--axis",
        "j=2,3",
        "--tolerance",
        "0.1",
    ];
    let whole = scratch("whole");
    let mut args = vec!["stability", "--out", whole.to_str().unwrap()];
    args.extend_from_slice(&small);
    ok(&args);
    let sharded = scratch("sharded");
    let mut args = vec!["stability", "--out", sharded.to_str().unwrap()];
    args.extend_from_slice(&small);
    let mut rounds = 0;
    loop {
        for shard in ["1/2", "2/2"] {
            let mut shard_args = args.clone();
            shard_args.extend(["--shard", shard]);
            ok(&shard_args);
        }
        let mut merge = args.clone();
        merge.push("--merge");
        if ok(&merge).contains("wrote") {
            break;
        }
        rounds += 1;
        assert!(rounds < 40, "the sharded map never ends");
    }
    for name in ["pgrr-a1-stability.csv", "pgrr-a1-stability.svg", "pgrr-a1-stability.jsonl"] {
        let (a, b) = (std::fs::read(whole.join(name)).unwrap(), std::fs::read(sharded.join(name)).unwrap());
        assert!(a == b, "{name} differs between the whole map and the shards");
    }
    let csv = std::fs::read_to_string(whole.join("pgrr-a1-stability.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "one row per value of j: {csv}");
    // Resuming from the journal makes no run and writes the same map.
    let again = ok(&args);
    assert!(again.contains("wrote"), "{again}");
    assert_eq!(std::fs::read(whole.join("pgrr-a1-stability.csv")).unwrap(), csv.as_bytes());
}

/// A finished map without a second axis resumes from its journal and makes no run (the
/// journal once held its one value as NaN, which JSON writes as null and could not read back).
#[test]
fn a_map_at_one_scenario_resumes_without_a_run() {
    let dir = scratch("resume");
    let args = [
        "stability",
        "--preset",
        "pgrr-a1",
        "--policy",
        "bf-js",
        "--horizon",
        "100000",
        "--reps",
        "2",
        "--tolerance",
        "0.2",
        "--out",
        dir.to_str().unwrap(),
    ];
    let first = ok(&args);
    let csv = std::fs::read(dir.join("pgrr-a1-stability.csv")).unwrap();
    let journal = std::fs::read(dir.join("pgrr-a1-stability.jsonl")).unwrap();
    let again = ok(&args);
    assert_eq!(std::fs::read(dir.join("pgrr-a1-stability.jsonl")).unwrap(), journal, "no round added");
    assert!(again.contains("wrote"), "{again}");
    let runs = |text: &str| text.lines().find(|l| l.ends_with(" runs")).map(str::to_string);
    assert_eq!(runs(&again), runs(&first), "the same rounds, read back");
    assert_eq!(std::fs::read(dir.join("pgrr-a1-stability.csv")).unwrap(), csv);
}

#[test]
fn bad_flags_name_the_flag_and_its_range() {
    let dir = scratch("bad");
    let out = dir.to_str().unwrap();
    fails(&["stability", "--preset", "pgrr-a1", "--reps", "1", "--out", out], &["--reps", ">= 2"]);
    fails(&["stability", "--preset", "pgrr-a1", "--tolerance", "1.5", "--out", out], &["--tolerance", "(0, 1)"]);
    fails(&["stability", "--preset", "pgrr-a1", "--axis", "nokey=1", "--out", out], &["--axis", "no key 'nokey'"]);
    fails(&["stability", "--preset", "pgrr-a1", "--axis", "servers", "--out", out], &["--axis", "KEY=V1,V2"]);
    fails(&["stability", "--preset", "pgrr-a1", "--axis", "servers=0", "--out", out], &["--axis", "servers"]);
    fails(&["stability", "--preset", "pgrr-a1", "--set", "load=0.5", "--out", out], &["--set load"]);
    fails(&["stability", "--preset", "pgrr-a1", "--max-doublings", "9", "--out", out], &["--max-doublings", "0..=6"]);
    fails(&["stability", "--preset", "pgas-c3", "--out", out], &["nothing waits"]);
    fails(&["stability", "--preset", "pgrr-a1", "--axis", "seed=1,2", "--out", out], &["--axis", "seed + r"]);
}
