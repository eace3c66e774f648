//! `packlab stability` and `packlab presets --describe`: the theory drawn on a map carries the
//! hypotheses of its theorems. Where one fails on the scenario (pgrr-a2's fixed service, sizes
//! below 1/2^J, MSFQ's sizes made deterministic) the table's notes, the CSV and the SVG name
//! it and no proven load is given; the capacity is the LP's (ghra-b0's 20/19 of ζ). The maps
//! here run nothing (a budget of one run stops them before the first round): the theory is
//! the scenario's, not the runs'.

use std::collections::HashMap;
use std::path::Path;

mod common;

use common::{ok, scratch};

/// The map of `args` with no runs: its printed table and notes, its CSV rows by column name,
/// and its SVG.
fn map(name: &str, id: &str, args: &[&str]) -> (String, Vec<HashMap<String, String>>, String) {
    let dir = scratch(name);
    let mut all = vec!["stability", "--preset", id, "--out", dir.to_str().unwrap(), "--max-runs", "1"];
    all.extend_from_slice(args);
    let printed = ok(&all);
    (printed, rows(&dir, id), std::fs::read_to_string(dir.join(format!("{id}-stability.svg"))).unwrap())
}

fn rows(dir: &Path, id: &str) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(dir.join(format!("{id}-stability.csv"))).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    reader.records().map(|r| header.iter().cloned().zip(r.unwrap().iter().map(str::to_string)).collect()).collect()
}

/// The notes under the table that start with `prefix`.
fn notes<'a>(printed: &'a str, prefix: &str) -> Vec<&'a str> {
    printed.lines().filter_map(|l| l.strip_prefix(prefix)).collect()
}

#[test]
fn pgrr_a2s_fixed_service_is_named_and_nothing_is_proven() {
    let (printed, rows, svg) = map("a2", "pgrr-a2", &["--policy", "bf-js,vqs"]);
    let said = notes(&printed, "not proven here: ");
    assert_eq!(said.len(), 2, "{printed}");
    assert!(said[0].starts_with("BF-J/S: 0.5 (Theorem 2: BF-J/S is stable below half the capacity)"), "{}", said[0]);
    assert!(said[1].starts_with("VQS (J=3): 0.666667 (Theorem 3: "), "{}", said[1]);
    for note in &said {
        assert!(note.contains("assumes geometric service") && note.ends_with("this scenario's is fixed (100 slots)"));
    }
    assert!(notes(&printed, "below a proven boundary: ").is_empty(), "{printed}");
    for row in &rows {
        assert_eq!(row["capacity"], "1", "{row:?}");
        assert_eq!(row["proven"], "", "{row:?}");
        assert!(row["why_not_proven"].contains("geometric service"), "{row:?}");
    }
    assert_eq!((rows[0]["not_proven"].as_str(), rows[1]["not_proven"].as_str()), ("0.5", "0.6666666666666666"));
    assert!(svg.contains("BF-J/S 0.5: not proven here, Theorem 2 assumes geometric service"), "the SVG's legend");
    assert!(svg.contains("VQS (J=3) 0.666667: not proven here, Theorem 3 assumes geometric service"));
    // pgrr-a1's geometric service and sizes of at least 1/4: all proven, nothing said.
    let (printed, rows, _) = map("a1", "pgrr-a1", &["--policy", "bf-js,vqs"]);
    assert!(notes(&printed, "not proven here: ").is_empty(), "{printed}");
    assert_eq!((rows[0]["proven"].as_str(), rows[1]["proven"].as_str()), ("0.5", "0.6666666666666666"));
}

#[test]
fn along_j_the_two_thirds_are_proven_only_where_every_size_is_at_least_2_to_the_minus_j() {
    // Sizes 0.2 and 0.6: 0.2 < 1/4 at J = 2, ≥ 1/8 at J = 3. The capacity is 0.8 (a 0.2 and a
    // 0.6 fill a server; the 0.6s set the pace).
    let args = ["--policy", "vqs", "--set", "size=discrete:0.2@0.5,0.6@0.5", "--axis", "j=2,3"];
    let (printed, rows, svg) = map("j", "pgrr-a1", &args);
    let (j2, j3) = (&rows[0], &rows[1]);
    assert_eq!((j2["value"].as_str(), j3["value"].as_str()), ("2", "3"));
    assert_eq!((j2["capacity"].as_str(), j3["capacity"].as_str()), ("0.8", "0.8"));
    assert_eq!((j2["proven"].as_str(), j2["not_proven"].as_str()), ("", "0.5333333333333333"));
    assert_eq!((j3["proven"].as_str(), j3["not_proven"].as_str()), ("0.5333333333333333", ""));
    assert_eq!(
        j2["why_not_proven"],
        "Theorem 3 assumes every size at least 1/2^J = 0.25 (Theorem 3's statement, J = 2); this scenario's sizes \
         include 0.2"
    );
    let said = notes(&printed, "not proven here: ");
    assert_eq!(said.len(), 1, "{printed}");
    assert!(said[0].starts_with("VQS (J=2) at j = 2: 0.533333 (Theorem 3: "), "{}", said[0]);
    assert!(svg.contains("(stated, not proven here, assumes every size at least 1/2^J = 0.25)"), "the SVG's legend");
}

#[test]
fn msf_with_deterministic_sizes_is_not_proven_and_says_why() {
    let (printed, rows, _) = map("det", "msfq-d1", &["--policy", "msf", "--set", "service=deterministic"]);
    assert_eq!(rows[0]["proven"], "", "{:?}", rows[0]);
    assert!((rows[0]["capacity"].parse::<f64>().unwrap() - 32.0 / 4.1).abs() < 1e-9);
    let said = notes(&printed, "not proven here: ");
    assert_eq!(said.len(), 1, "{printed}");
    assert!(
        said[0].ends_with(
            "Theorem 1 assumes exponential sizes (§3); this scenario's are deterministic (each class's mean)"
        ),
        "{}",
        said[0]
    );
    let (printed, rows, _) = map("exp", "msfq-d1", &["--policy", "msf"]);
    assert!(notes(&printed, "not proven here: ").is_empty(), "{printed}");
    assert!((rows[0]["proven"].parse::<f64>().unwrap() - 32.0 / 4.1).abs() < 1e-9);
}

#[test]
fn ghra_b0s_capacity_is_20_over_19_of_zeta() {
    let (printed, rows, _) = map("b0", "ghra-b0", &[]);
    for row in &rows {
        assert!((row["capacity"].parse::<f64>().unwrap() - 20.0 / 19.0).abs() < 1e-12, "{row:?}");
    }
    // The table prints it too.
    assert!(printed.contains("1.0526315789473"), "{printed}");
    // Algorithm 1 with f = log(1+x): Theorem 1 needs f = o(log x).
    let said = notes(&printed, "not proven here: ");
    assert!(said.len() == 1 && said[0].contains("f(x) = o(log x)"), "{printed}");
    let described = ok(&["presets", "--describe", "ghra-b0"]);
    assert!(
        described.contains("capacity: 1.05263 = 20/19 (LP over the fleet's configurations along V)"),
        "{described}"
    );
    let described = ok(&["presets", "--describe", "pgrr-a2"]);
    assert!(described.contains("BF-J/S: 0.5 (Theorem 2: BF-J/S is stable below half the capacity) is not proven here"));
}
