//! Sweeps split across machines: `sweep --shard I/N` in separate processes, then `merge`,
//! write exactly the files of the sweep run whole; the scripts `--emit` prints run the same
//! shards; a merge of the wrong files says what is wrong.

use std::path::Path;

mod common;

use common::{fails, ok, scratch};

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Every file the whole sweep wrote is in `merged`, byte for byte.
fn same_files(whole: &Path, merged: &Path) {
    let mut names: Vec<_> = std::fs::read_dir(whole).unwrap().map(|e| e.unwrap().file_name()).collect();
    names.sort();
    assert_eq!(names.len(), 3, "runs CSV, summary CSV and chart: {names:?}");
    for name in names {
        let (a, b) = (std::fs::read(whole.join(&name)).unwrap(), std::fs::read(merged.join(&name)).unwrap());
        assert!(a == b, "{name:?} differs between the whole sweep and the merged shards");
    }
}

#[test]
fn shards_merge_into_the_whole_sweeps_files() {
    for (name, sweep) in [
        ("load", &["--preset", "pgrr-a1", "--horizon", "20000", "--load", "0.6,0.7", "--reps", "3"][..]),
        ("servers", &["--preset", "pgas-c3", "--horizon", "20", "--servers", "12,24", "--reps", "2"][..]),
    ] {
        let dir = scratch(name);
        let whole = dir.join("whole");
        ok(&[&["sweep"], sweep, &["--out", s(&whole)]].concat());
        // Three shards as three processes, into two directories, in any order.
        let (first, second) = (dir.join("a"), dir.join("b"));
        for (shard, into) in [("3/3", &first), ("1/3", &second), ("2/3", &first)] {
            let said = ok(&[&["sweep"], sweep, &["--shard", shard, "--out", s(into)]].concat());
            assert!(said.contains(&format!("shard {shard}")), "{said}");
        }
        let merged = dir.join("merged");
        let said = ok(&["merge", s(&first), s(&second), "--out", s(&merged)]);
        assert!(said.contains("wrote"), "{said}");
        same_files(&whole, &merged);

        // Wrong sets of shards are named.
        fails(&["merge", s(&first), "--out", s(&dir.join("x"))], &["1 of 3 shards missing: 1/3"]);
        let twice = dir.join("twice");
        std::fs::create_dir_all(&twice).unwrap();
        for file in std::fs::read_dir(&second).unwrap() {
            let file = file.unwrap().path();
            std::fs::copy(&file, twice.join(file.file_name().unwrap())).unwrap();
        }
        fails(&["merge", s(&first), s(&second), s(&twice), "--out", s(&dir.join("y"))], &["given twice"]);
    }
}

#[test]
fn shards_of_other_sweeps_and_cut_files_are_refused() {
    let dir = scratch("refused");
    let base = ["sweep", "--preset", "pgrr-a1", "--horizon", "20000", "--load", "0.6,0.7", "--reps", "2"];
    let (a, b) = (dir.join("a"), dir.join("b"));
    ok(&[&base[..], &["--shard", "1/2", "--out", s(&a)]].concat());
    ok(&[&base[..], &["--seed", "9", "--shard", "2/2", "--out", s(&b)]].concat());
    fails(&["merge", s(&a), s(&b), "--out", s(&dir.join("x"))], &["a shard of another sweep"]);

    // A shard file cut short.
    let file = a.join("pgrr-a1-shard-1-of-2.jsonl");
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(&file, lines[..lines.len() - 1].join("\n")).unwrap();
    ok(&[&base[..], &["--shard", "2/2", "--out", s(&b)]].concat());
    fails(&["merge", s(&a), s(&b), "--out", s(&dir.join("y"))], &["was it cut short?"]);
    std::fs::write(&file, "not json\n").unwrap();
    fails(&["merge", s(&file), "--out", s(&dir.join("z"))], &["line 1 is not a packlab shard header"]);
    fails(&["merge", s(&dir.join("nowhere")), "--out", s(&dir.join("z"))], &["no such file or directory"]);
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    fails(&["merge", s(&dir.join("empty")), "--out", s(&dir.join("z"))], &["no shard files"]);

    for bad in ["0/2", "3/2", "x", "1/0"] {
        fails(&[&base[..], &["--shard", bad]].concat(), &["--shard", "1 <= I <= N"]);
    }
    fails(&["sweep", "--preset", "pgas-c2", "--shard", "1/2"], &["--shard, --emit", "no runs to share out"]);
    fails(&[&base[..], &["--emit", "slurm"]].concat(), &["--shards"]);
}

#[test]
fn emitted_scripts_run_the_shards_and_the_merge() {
    let base = ["sweep", "--preset", "pgrr-a3", "--horizon", "20000", "--reps", "4"];
    let slurm = ok(&[&base[..], &["--emit", "slurm", "--shards", "8", "--out", "/shared/a3"]].concat());
    let bin = std::fs::canonicalize(env!("CARGO_BIN_EXE_packlab")).unwrap();
    for needle in [
        "#!/usr/bin/env bash",
        &format!("PACKLAB={}\n", s(&bin)),
        "OUT=/shared/a3\n",
        "SHARDS=8\n",
        "--shard \"$shard/$SHARDS\" --out \"$OUT/shards\"",
        "\"$PACKLAB\" merge \"$OUT/shards\" --out \"$OUT\"",
        "--load 0.85,0.87,0.89,0.91,0.93,0.95,0.96,0.97,0.98,0.99 --reps 4",
    ] {
        assert!(slurm.contains(needle), "the Slurm script lacks {needle}:\n{slurm}");
    }
    assert!(!slurm.contains("--export"), "paths never go through sbatch --export, which splits on commas");
    let parallel = ok(&[&base[..], &["--emit", "parallel", "--shards", "3", "--out", "/out/a3"]].concat());
    assert!(
        parallel.contains(&format!("parallel --quote --halt now,fail=1 {} sweep --link '?preset=pgrr-a3&", s(&bin))),
        "{parallel}"
    );
    assert!(parallel.contains(&format!(
        "--shard {{}}/3 --out /out/a3/shards ::: $(seq 1 3) && {} merge /out/a3/shards --out /out/a3",
        s(&bin)
    )));

    // The shards the command line names, run as it says, merge into the whole sweep.
    let dir = scratch("emitted");
    let whole = dir.join("whole");
    let small = ["sweep", "--preset", "pgrr-a3", "--horizon", "5000", "--load", "0.9,0.95", "--reps", "2"];
    ok(&[&small[..], &["--out", s(&whole)]].concat());
    let line = ok(&[&small[..], &["--emit", "parallel", "--shards", "2", "--out", "x"]].concat());
    let command = line.lines().find(|l| l.contains("parallel ")).unwrap();
    let link = command.split("--link '").nth(1).unwrap().split('\'').next().unwrap();
    let args = ["sweep", "--link", link, "--load", "0.9,0.95", "--reps", "2"];
    assert!(command.contains("--load 0.9,0.95 --reps 2"), "{command}");
    for shard in ["1/2", "2/2"] {
        ok(&[&args[..], &["--shard", shard, "--out", s(&dir.join("shards"))]].concat());
    }
    let merged = dir.join("merged");
    ok(&["merge", s(&dir.join("shards")), "--out", s(&merged)]);
    same_files(&whole, &merged);
}
