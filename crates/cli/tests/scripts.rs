//! `--policy script:FILE`: a scripted policy from a file runs like any policy, travels in a
//! link, and a hostile one stops with a message naming `--policy` or the script's line.
//! (A budget of operations, not timing, bounds how long a hostile script runs: see
//! docs/scripts.md, and `hostile_scripts.rs` for issue 58's.)

use packlab_core::script::{self, MAX_SOURCE_BYTES};

mod common;

use common::{fails, ok};

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

const BEST_FIT: &str = include_str!("../../core/src/models/pgrr/scripts/best_fit.rhai");

#[test]
fn a_script_file_runs_like_its_built_in_policy_and_replays_from_its_link() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(&dir, "bf.rhai", BEST_FIT);
    let run = |policy: &str| ok(&["run", "--preset", "pgrr-a1", "--horizon", "3000", "--policy", policy, "--json"]);
    let scripted: serde_json::Value = serde_json::from_str(&run(&format!("script:{file}"))).unwrap();
    let builtin: serde_json::Value = serde_json::from_str(&run("bf-j")).unwrap();
    assert_eq!(scripted["mean_queue"], builtin["mean_queue"]);
    assert_eq!(scripted["mean_wait"], builtin["mean_wait"]);
    // The report names the canonical spec, and a link holding it replays the same numbers.
    let spec = scripted["policy"].as_str().unwrap().to_string();
    assert_eq!(spec, script::spec_text(BEST_FIT).unwrap());
    let link = format!("?preset=pgrr-a1&policy={spec}");
    let replayed = ok(&["run", "--link", &link, "--horizon", "3000", "--json"]);
    assert_eq!(replayed, run(&format!("script:{file}")));
    // Tables show the name the script declares.
    let table = ok(&["run", "--preset", "pgrr-a1", "--horizon", "3000", "--policy", &format!("script:{file}")]);
    assert!(table.contains("Script (best fit)"), "{table}");
}

#[test]
fn missing_huge_and_broken_script_files_name_the_flag_or_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let run = |policy: &str, needles: &[&str]| {
        fails(&["run", "--preset", "pgrr-a1", "--horizon", "500", "--policy", policy], needles)
    };
    run("script:/no/such/file.rhai", &["--policy", "cannot read script file"]);
    let huge = write(&dir, "huge.rhai", &format!("fn schedule(ctx) {{}}\n//{}", "x".repeat(MAX_SOURCE_BYTES)));
    run(&format!("script:{huge}"), &["--policy", "longer than 20000 bytes"]);
    let syntax = write(&dir, "syntax.rhai", "fn schedule(ctx) {\n  let = 1;\n}\n");
    run(&format!("script:{syntax}"), &["--policy", "script line 2: syntax error"]);
    run("script:src=!!", &["--policy", "src: it is not base64url text"]);
}

#[test]
fn hostile_scripts_stop_with_the_line_and_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("loop { }", "exceeded 1000000 operations"),
        ("f(1);\n}\nfn f(n) { f(n + 1)", "nested function calls"),
        ("let a = [];\n  a.pad(9990, 0);\n  loop { a.push(1); }", "array elements"),
        ("let s = \"ab\";\n  loop { s += s; }", "bytes of strings"),
        ("throw \"mine\";", "script line 2: the script threw: mine"),
        ("ctx.start(999999999, 0);", "script line 2: policy bug: job 999999999 is not waiting"),
    ];
    for (i, (body, needle)) in cases.iter().enumerate() {
        // Inside the policy, then at top level (where it stops the build).
        let inside = write(&dir, &format!("in{i}.rhai"), &format!("fn schedule(ctx) {{\n  {body}\n}}\n"));
        fails(&["run", "--preset", "pgrr-a1", "--horizon", "500", "--policy", &format!("script:{inside}")], &[needle]);
        if !body.contains("ctx") && !body.contains("fn f") {
            let top = write(&dir, &format!("top{i}.rhai"), &format!("fn schedule(ctx) {{}}\n{body}\n"));
            let file = format!("script:{top}");
            fails(&["run", "--preset", "pgrr-a1", "--horizon", "500", "--policy", &file], &["--policy", needle]);
        }
    }
}

const JSQ: &str = include_str!("../../core/src/models/ghra/scripts/jsq.rhai");

#[test]
fn a_ghra_routing_script_runs_like_algorithm_2_and_a_bad_route_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(&dir, "jsq.rhai", JSQ);
    let run = |policy: &str| ok(&["run", "--preset", "ghra-b4", "--horizon", "200", "--policy", policy, "--json"]);
    let scripted: serde_json::Value = serde_json::from_str(&run(&format!("script:{file}"))).unwrap();
    let builtin: serde_json::Value = serde_json::from_str(&run("alg2-jsq")).unwrap();
    for key in ["mean_queue", "mean_delay", "dummies_started"] {
        assert!(scripted[key].is_number(), "{key}: {scripted}");
        assert_eq!(scripted[key], builtin[key], "{key}");
    }
    let bad = write(&dir, "bad.rhai", "fn schedule(ctx) {\n  ctx.route(-1);\n}\n");
    let args = ["run", "--preset", "ghra-b4", "--horizon", "200", "--policy", &format!("script:{bad}")];
    fails(&args, &["script line 2: policy bug: server -1 does not exist"]);
}
