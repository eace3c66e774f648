//! What the CLI's integration tests share: running the binary, judging its exit, and a
//! scratch directory. Each test file is its own crate and uses some of these.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// Runs `packlab` with `args`.
pub fn packlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_packlab")).args(args).output().expect("the binary runs")
}

/// Runs a command that must succeed; returns its stdout.
pub fn ok(args: &[&str]) -> String {
    ok_with_stderr(args).0
}

/// Runs a command that must succeed; returns its stdout and its stderr.
pub fn ok_with_stderr(args: &[&str]) -> (String, String) {
    let out = packlab(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "packlab {args:?} failed: {stderr}");
    (String::from_utf8(out.stdout).expect("utf-8 stdout"), stderr)
}

/// Runs a command that must fail cleanly, saying each of `needles`; returns its stderr.
pub fn fails(args: &[&str], needles: &[&str]) -> String {
    let out = packlab(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "packlab {args:?} should fail");
    assert!(!stderr.contains("panicked"), "packlab {args:?} panicked: {stderr}");
    for needle in needles {
        assert!(stderr.contains(needle), "packlab {args:?}: stderr lacks '{needle}': {stderr}");
    }
    stderr
}

/// Each line of `text` as JSON.
pub fn json_lines(text: &str) -> Vec<Value> {
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}"))).collect()
}

/// A fresh, empty directory under the target directory, named after the test file, `name`
/// and this process.
pub fn scratch(name: &str) -> PathBuf {
    let test = env!("CARGO_CRATE_NAME");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{test}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
