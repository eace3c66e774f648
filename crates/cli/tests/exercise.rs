//! `packlab exercise`: the exercises listed and described, and scripts graded against one with
//! the page's check, so that a lecturer can grade a folder of submissions: one verdict per
//! file, in the core's words (the page announces the same sentence), exit 0 only if every
//! script passes; a file that cannot be checked is named with the reason, and the others are
//! still graded.

use std::path::{Path, PathBuf};

use packlab_core::exercises::{self, Checker, EXERCISES, Exercise};
use packlab_core::link::scenario_of;

mod common;

use common::{json_lines, ok, packlab, scratch};

/// The core's source folder.
fn core(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/src").join(path)
}

/// The files of `dir`, in name order.
fn files(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path().to_str().unwrap().to_string()).collect();
    files.sort();
    files
}

/// The shipped answer: the model's starting point that reproduces the reference.
fn answer(e: &Exercise) -> PathBuf {
    let scenario = scenario_of(e.link).unwrap();
    let starter = scenario.scripting().unwrap().starters.iter().find(|s| s.policy == e.reference).unwrap();
    let name = starter.name();
    let dir = core(&format!("models/{}/scripts", scenario.info().id));
    let found = files(&dir).into_iter().find(|f| std::fs::read_to_string(f).unwrap() == starter.source);
    PathBuf::from(found.unwrap_or_else(|| panic!("{name}: no file in {}", dir.display())))
}

/// What the page would announce for `file` on `e`: the core's verdict, in its sentence.
fn page_says(e: &Exercise, file: &str) -> String {
    let scenario = scenario_of(e.link).unwrap();
    let source = std::fs::read_to_string(file).unwrap();
    let verdict = Checker::new(e, &scenario, &source).unwrap().run();
    verdict.sentence(&e.reference_label(&scenario), scenario.info().time.prefix())
}

/// Runs `packlab exercise ID --check FILES…`: (success, stdout, stderr).
fn grade(id: &str, files: &[String], json: bool) -> (bool, String, String) {
    let mut args = vec!["exercise", id, "--check"];
    args.extend(files.iter().map(String::as_str));
    if json {
        args.push("--json");
    }
    let out = packlab(&args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out.status.success(), String::from_utf8(out.stdout).unwrap(), stderr)
}

/// The verdict line printed for `file`.
fn line_of<'a>(stdout: &'a str, file: &str) -> &'a str {
    let prefix = format!("{file}: ");
    let line =
        stdout.lines().find(|l| l.starts_with(&prefix)).unwrap_or_else(|| panic!("no line for {file}: {stdout}"));
    &line[prefix.len()..]
}

#[test]
fn exercises_are_listed_and_described() {
    let listing = ok(&["exercise"]);
    for e in EXERCISES {
        assert!(listing.contains(e.id), "{listing}");
        let described = ok(&["exercise", e.id]);
        assert!(described.contains(&format!("checked on: packlab run --link '?{}'", e.link)), "{described}");
        assert!(described.contains(e.skeleton), "the skeleton is printed: {described}");
        assert!(described.contains(&format!("packlab exercise {} --check FILE", e.id)), "{described}");
    }
    assert!(listing.contains("packlab exercise ID --check FILE"), "{listing}");
}

/// The acceptance case: first fit, worst fit and ties to the highest fail the best-fit
/// exercise, each with the first decision that differs and both sides, and the shipped best
/// fit passes; the exit says not all passed. Each line is the sentence the page announces.
#[test]
fn wrong_best_fits_fail_and_the_shipped_one_passes() {
    let wrong = core("exercises/wrong/write-best-fit");
    let [first_fit, worst_fit, ties] =
        ["fifo_first_fit.rhai", "worst_fit.rhai", "ties_to_highest.rhai"].map(|f| wrong.join(f).display().to_string());
    let shipped = answer(&exercises::BEST_FIT).display().to_string();
    let all = [first_fit.clone(), worst_fit.clone(), ties.clone(), shipped.clone()];
    let (passed, stdout, stderr) = grade("write-best-fit", &all, false);
    assert!(!passed, "{stdout}");
    assert!(stderr.contains("3 of 4 scripts did not pass write-best-fit"), "{stderr}");
    for file in &all {
        assert_eq!(line_of(&stdout, file), page_says(&exercises::BEST_FIT, file), "{file}");
    }
    assert!(line_of(&stdout, &shipped).starts_with("Pass: all 1710 decisions are the same as BF-J's"));
    let first = line_of(&stdout, &first_fit);
    assert_eq!(first, "Not yet: decision 4 differs from BF-J's, at slot 63; the decisions before it agreed.");
    // Both sides, as the page's inspector shows them.
    let after = stdout.split_once(first).unwrap().1;
    let sides = "\n  your script\n    slot 63: job 3 (size 0.17, VQ4) → server 1\n    why: the script's choice\n";
    assert!(after.starts_with(sides), "{after}");
    let reference = "  reference: BF-J\n    slot 63: job 3 (size 0.17, VQ4) → server 2\n    why: best fit: the fullest server it fits\n";
    assert!(after.contains(reference), "{after}");
    assert!(line_of(&stdout, &ties).starts_with("Not yet: decision 1 differs"), "{stdout}");

    // The shipped one alone: exit 0.
    let (passed, stdout, _) = grade("write-best-fit", &[shipped], false);
    assert!(passed, "{stdout}");
}

/// Each exercise's folder of plausible wrong rules, graded as a lecturer grades submissions:
/// every file fails, in the page's words; the shipped answer among them passes.
#[test]
fn every_folder_of_wrong_rules_fails() {
    for e in EXERCISES {
        let mut all = files(&core(&format!("exercises/wrong/{}", e.id)));
        assert!(all.len() >= 5, "{}: {all:?}", e.id);
        let shipped = answer(e).display().to_string();
        all.push(shipped.clone());
        let (passed, stdout, stderr) = grade(e.id, &all, true);
        assert!(!passed, "{}: {stdout}", e.id);
        assert!(stderr.contains(&format!("{} of {} scripts did not pass", all.len() - 1, all.len())), "{stderr}");
        let lines = json_lines(&stdout);
        assert_eq!(lines.len(), all.len());
        for (line, file) in lines.iter().zip(&all) {
            assert_eq!(line["file"], file.as_str());
            assert_eq!(line["verdict"], page_says(e, file).as_str(), "{file}");
            let outcome = line["outcome"].as_str().unwrap();
            if *file == shipped {
                assert_eq!(outcome, "pass", "{line}");
            } else {
                assert!(["differs", "stopped"].contains(&outcome), "{file}: {line}");
            }
            if outcome == "differs" {
                let d = &line["difference"];
                assert_eq!(line["agreed"].as_u64().unwrap() + 1, d["decision"].as_u64().unwrap());
                assert!(d["yours"].is_object() || d["reference"].is_object(), "{line}");
            }
        }
    }
}

/// Bad input is named: an unknown exercise lists the exercises; a missing file, one that is not
/// UTF-8, one too long and one that does not compile are each named with the reason on their
/// own line, and the other files are still graded.
#[test]
fn bad_input_is_named_and_the_rest_is_graded() {
    let out = packlab(&["exercise", "write-bestfit", "--check", "x.rhai"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("exercise ID: unknown exercise 'write-bestfit'; exercises are write-best-fit"), "{stderr}");

    let dir = scratch("bad");
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.display().to_string()
    };
    let latin1 = write("latin1.rhai", b"// name: mine\n// caf\xe9\nfn schedule(ctx) {}\n");
    let long = write("long.rhai", format!("fn schedule(ctx) {{}}\n//{}", "x".repeat(20_000)).as_bytes());
    let syntax = write("syntax.rhai", b"fn schedule(ctx) {\n    let = 1;\n}\n");
    let missing = dir.join("missing.rhai").display().to_string();
    let shipped = answer(&exercises::MSF).display().to_string();
    let all = [latin1.clone(), long.clone(), syntax.clone(), missing.clone(), shipped.clone()];
    let (passed, stdout, stderr) = grade("write-msf", &all, false);
    assert!(!passed);
    assert!(stderr.contains("4 of 5 scripts did not pass write-msf"), "{stderr}");
    let says = |file: &str, needle: &str| {
        let line = line_of(&stdout, file);
        assert!(line.contains(needle), "{file}: {line}");
    };
    says(&latin1, "--check: it is not UTF-8 text: byte 21, on line 2, is not part of a UTF-8 character");
    says(&long, "--check: the script is longer than 20000 bytes");
    says(&syntax, "The check could not start: script line 2: syntax error");
    says(&missing, "--check: cannot read the file");
    says(&shipped, "Pass: all 4549 decisions are the same as MSF's");
}
