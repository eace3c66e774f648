//! The script of `sweep … --emit slurm` against a stand-in Slurm: `sbatch`, `scontrol` and
//! `scancel` as small bash scripts that record what they are asked and run the jobs in order
//! when the script releases them. It checks the script's own logic (arrays split at
//! MaxArraySize, the throttle, resources, reruns, refusals, cancelling) on any machine;
//! `tests/slurm.sh` runs the same script under a real Slurm.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_packlab");
const SWEEP: [&str; 9] = ["sweep", "--preset", "pgrr-a3", "--horizon", "3000", "--load", "0.9,0.95", "--reps", "2"];

/// sbatch: records its arguments, refuses the merge when `refuse-merge` exists, queues the job.
const SBATCH: &str = r#"#!/usr/bin/env bash
set -euo pipefail
d=$FAKE_SLURM
printf '%s\n' "$*" >>"$d/sbatch.log"
for a; do [[ "$a" == merge && -e "$d/refuse-merge" ]] && { echo "sbatch: error: refused" >&2; exit 1; }; done
id=$(($(cat "$d/next" 2>/dev/null || echo 100) + 1))
echo "$id" >"$d/next"
printf '%s\0' "$@" >"$d/job-$id"
echo "$id;cluster"
"#;

/// scontrol: `show config` gives MaxArraySize; `release` runs every queued job in submission
/// order (the shards' arrays, then the merge), as their dependencies would.
const SCONTROL: &str = r#"#!/usr/bin/env bash
set -uo pipefail
d=$FAKE_SLURM
case "$1" in
  show) echo "MaxArraySize            = ${FAKE_MAX_ARRAY:-1001}" ;;
  release)
    shift
    echo "release $*" >>"$d/scontrol.log"
    for f in $(ls "$d"/job-* 2>/dev/null | sort -t- -k2 -n); do
      id=${f##*-}
      mapfile -d '' args <"$f"
      rm "$f"
      spec="" out=""
      while [[ "${args[0]}" == --* ]]; do
        case "${args[0]}" in --array=*) spec=${args[0]#--array=} ;; --output=*) out=${args[0]#--output=} ;; esac
        args=("${args[@]:1}")
      done
      if [[ -z "$spec" ]]; then
        bash "${args[@]}" >"${out//%j/$id}" 2>&1
        echo "$id exit $?" >>"$d/ran.log"
        continue
      fi
      IFS=, read -ra parts <<<"${spec%\%*}"
      for part in "${parts[@]}"; do
        for t in $(seq "${part%-*}" "${part#*-}"); do
          log=${out//%A/$id}
          SLURM_ARRAY_JOB_ID=$id SLURM_ARRAY_TASK_ID=$t bash "${args[@]}" >"${log//%a/$t}" 2>&1
          echo "${id}_$t exit $?" >>"$d/ran.log"
        done
      done
    done
    ;;
esac
"#;

const SCANCEL: &str = r#"#!/usr/bin/env bash
echo "scancel $*" >>"$FAKE_SLURM/scancel.log"
for id; do rm -f "$FAKE_SLURM/job-$id"; done
"#;

struct Fake {
    dir: PathBuf,
    bin: PathBuf,
}

impl Fake {
    fn new(name: &str) -> Fake {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("emit-slurm-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let bin = dir.join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        for (name, text) in [("sbatch", SBATCH), ("scontrol", SCONTROL), ("scancel", SCANCEL)] {
            executable(&bin.join(name), text);
        }
        Fake { dir, bin }
    }

    /// Emits the script for `flags` into DIR/NAME.sh.
    fn emit(&self, name: &str, flags: &[&str]) -> PathBuf {
        let out = Command::new(BIN).args(SWEEP).args(["--emit", "slurm"]).args(flags).output().unwrap();
        assert!(out.status.success(), "emit {flags:?}: {}", String::from_utf8_lossy(&out.stderr));
        let path = self.dir.join(format!("{name}.sh"));
        std::fs::write(&path, out.stdout).unwrap();
        path
    }

    /// Runs `bash SCRIPT ARGS` with the stand-in Slurm first on the PATH.
    fn bash(&self, script: &Path, args: &[&str], max_array: u64) -> Output {
        let path = format!("{}:{}", self.bin.display(), std::env::var("PATH").unwrap());
        Command::new("bash")
            .arg(script)
            .args(args)
            .env("PATH", path)
            .env("FAKE_SLURM", &self.dir)
            .env("FAKE_MAX_ARRAY", max_array.to_string())
            .output()
            .unwrap()
    }

    fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.join(name)).unwrap_or_default()
    }

    /// Forgets the logs, and numbers jobs from 101 again.
    fn reset_logs(&self) {
        for name in ["sbatch.log", "ran.log", "scancel.log", "scontrol.log", "next"] {
            let _ = std::fs::remove_file(self.dir.join(name));
        }
    }
}

fn executable(path: &Path, text: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn ok(out: &Output) -> String {
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the script failed: {text}");
    text
}

fn refused(out: &Output, needles: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the script should refuse: {}", String::from_utf8_lossy(&out.stdout));
    for needle in needles {
        assert!(stderr.contains(needle), "stderr lacks '{needle}': {stderr}");
    }
}

/// Every file of the one-machine sweep in `whole` is in `merged`, byte for byte.
fn same_files(whole: &Path, merged: &Path) {
    for name in ["pgrr-a3-runs.csv", "pgrr-a3-summary.csv", "pgrr-a3.svg"] {
        let a = std::fs::read(whole.join(name)).unwrap();
        let b = std::fs::read(merged.join(name)).unwrap_or_default();
        assert!(a == b, "{name} differs between the whole sweep and the merged shards");
    }
}

fn whole(fake: &Fake) -> PathBuf {
    let dir = fake.dir.join("whole");
    let out = Command::new(BIN).args(SWEEP).arg("--out").arg(&dir).output().unwrap();
    assert!(out.status.success());
    dir
}

#[test]
fn arrays_split_at_the_clusters_limit_run_every_shard_once() {
    let fake = Fake::new("split");
    let whole = whole(&fake);
    for (max_array, specs) in [(4, &["1-3", "1-3", "1-3", "1"][..]), (1001, &["1-10"][..]), (2, &["1"; 10][..])] {
        fake.reset_logs();
        let out = fake.dir.join(format!("a,b c'd \"{max_array}\"/out"));
        let script = fake.emit(&format!("split-{max_array}"), &["--shards", "10", "--out", out.to_str().unwrap()]);
        let said = ok(&fake.bash(&script, &[], max_array));
        let sbatch = fake.log("sbatch.log");
        let arrays: Vec<&str> = sbatch.lines().filter(|l| l.contains("--array=")).collect();
        assert_eq!(arrays.len(), specs.len(), "{sbatch}");
        let per = (max_array - 1) as usize;
        for (i, (line, spec)) in arrays.iter().zip(specs).enumerate() {
            assert!(line.contains("--hold"), "{line}");
            assert!(line.contains(&format!(" --array={spec} ")), "array {i}: {line}");
            assert!(line.ends_with(&format!(" shard {}", i * per)), "array {i} has offset {}: {line}", i * per);
        }
        let merge = sbatch.lines().last().unwrap();
        assert!(merge.contains("--dependency=afterany:101") && merge.contains("--kill-on-invalid-dep=yes"), "{merge}");
        assert!(
            said.contains(&format!(
                "as job array(s) {}",
                (101..=100 + specs.len()).map(|i| i.to_string()).collect::<Vec<_>>().join(" ")
            )),
            "{said}"
        );
        let ran = fake.log("ran.log");
        assert_eq!(ran.lines().filter(|l| l.ends_with("exit 0")).count(), 11, "10 shards and the merge: {ran}");
        same_files(&whole, &out);
        assert!(std::fs::read_dir(out.join("logs")).unwrap().count() == 11, "a log per shard and the merge");
    }
}

#[test]
fn resources_throttle_and_rerun_reach_sbatch() {
    let fake = Fake::new("opts");
    let whole = whole(&fake);
    let out = fake.dir.join("out");
    let flags = ["--shards", "10", "--out", out.to_str().unwrap(), "--max-running", "2", "--slurm-time", "1-2:00"];
    let flags = [&flags[..], &["--slurm-mem", "2G", "--slurm-partition", "short", "--slurm-account", "lab,x"]].concat();
    let script = fake.emit("opts", &flags);
    ok(&fake.bash(&script, &[], 4));
    let sbatch = fake.log("sbatch.log");
    for line in sbatch.lines() {
        assert!(line.contains("--time=1-2:00 --mem=2G --partition=short --account=lab,x"), "{line}");
    }
    let arrays: Vec<&str> = sbatch.lines().filter(|l| l.contains("--array=")).collect();
    assert!(arrays[0].contains("--array=1-3%2") && !arrays[0].contains("--dependency"), "{}", arrays[0]);
    // The throttle holds across arrays: each waits for the one before.
    assert!(arrays[1].contains("--array=1-3%2 --dependency=afterany:101"), "{}", arrays[1]);
    assert!(arrays[3].contains("--array=1%2 --dependency=afterany:103"), "{}", arrays[3]);
    same_files(&whole, &out);

    // rerun: shards 3 and 7-9, across two arrays; their old files go first.
    fake.reset_logs();
    for i in [3, 7, 8, 9] {
        std::fs::remove_file(out.join(format!("shards/pgrr-a3-shard-{i}-of-10.jsonl"))).unwrap();
    }
    std::fs::remove_file(out.join("pgrr-a3-runs.csv")).unwrap();
    let missing = fake.bash(&script, &["merge"], 4);
    refused(&missing, &["merge refused: shards 3,7-9 of 10", "rerun 3,7-9\n"]);
    ok(&fake.bash(&script, &["rerun", "9,3,7-8"], 4));
    let sbatch = fake.log("sbatch.log");
    let arrays: Vec<&str> = sbatch.lines().filter(|l| l.contains("--array=")).collect();
    assert_eq!(arrays.len(), 2, "{sbatch}");
    assert!(arrays[0].contains("--array=3%2") && arrays[0].ends_with(" shard 0"), "{}", arrays[0]);
    assert!(arrays[1].contains("--array=1-3%2") && arrays[1].ends_with(" shard 6"), "{}", arrays[1]);
    same_files(&whole, &out);
    for bad in ["0", "11", "x", "3-1", ""] {
        refused(&fake.bash(&script, &["rerun", bad], 4), &["rerun"]);
    }
    refused(&fake.bash(&script, &["stop"], 4), &["unknown step 'stop'"]);
}

#[test]
fn a_failed_shard_makes_the_merge_fail_with_its_rerun() {
    let fake = Fake::new("fail");
    let wrapper = fake.dir.join("flaky");
    executable(&wrapper, &format!("#!/usr/bin/env bash\n[[ \" $* \" == *\" 2/3 \"* ]] && exit 1\nexec {BIN} \"$@\"\n"));
    let out = fake.dir.join("out");
    let script = fake
        .emit("fail", &["--shards", "3", "--out", out.to_str().unwrap(), "--packlab-bin", wrapper.to_str().unwrap()]);
    ok(&fake.bash(&script, &[], 1001));
    let ran = fake.log("ran.log");
    assert!(ran.contains("101_2 exit 1") && ran.contains("102 exit 1"), "shard 2 and then the merge fail: {ran}");
    let merge_log = std::fs::read_to_string(out.join("logs/merge-102.log")).unwrap();
    assert!(merge_log.contains("merge refused: shards 2 of 3 did not write"), "{merge_log}");
    assert!(merge_log.contains(&format!("bash {} rerun 2", script.display())), "{merge_log}");
}

#[test]
fn bad_setups_are_refused_before_anything_is_submitted() {
    let fake = Fake::new("refused");
    let out = fake.dir.join("out");
    let out_flag = ["--shards", "2", "--out", out.to_str().unwrap()];

    let missing = fake.emit("nobin", &[&out_flag[..], &["--packlab-bin", "/nowhere/packlab"]].concat());
    refused(&fake.bash(&missing, &[], 1001), &["/nowhere/packlab is not an executable file", "--packlab-bin PATH"]);
    let broken = fake.dir.join("broken");
    executable(&broken, "#!/bin/sh\necho 'cannot run' >&2\nexit 3\n");
    let broken = fake.emit("broken", &[&out_flag[..], &["--packlab-bin", broken.to_str().unwrap()]].concat());
    refused(&fake.bash(&broken, &[], 1001), &["--version failed: cannot run"]);
    assert_eq!(fake.log("sbatch.log"), "", "nothing was submitted");

    // Another version is run, with a warning.
    let other = fake.dir.join("other");
    executable(
        &other,
        &format!("#!/bin/sh\n[ \"$1\" = --version ] && echo 'packlab 0.0.1' && exit 0\nexec {BIN} \"$@\"\n"),
    );
    let other_out = fake.dir.join("other-out");
    let flags = ["--shards", "2", "--out", other_out.to_str().unwrap(), "--packlab-bin", other.to_str().unwrap()];
    let said = ok(&fake.bash(&fake.emit("other", &flags), &[], 1001));
    assert!(
        said.contains("warning: ") && said.contains("is \"packlab 0.0.1\", the script was written by packlab"),
        "{said}"
    );
    fake.reset_logs();

    // A piped script cannot hand Slurm its own file.
    let script = fake.emit("good", &out_flag);
    let piped = Command::new("bash")
        .stdin(std::fs::File::open(&script).unwrap())
        .env("PATH", format!("{}:{}", fake.bin.display(), std::env::var("PATH").unwrap()))
        .env("FAKE_SLURM", &fake.dir)
        .output()
        .unwrap();
    refused(&piped, &["save this script to a file and run it with bash FILE"]);

    // The merge refused: the held array is cancelled, no shard runs.
    std::fs::write(fake.dir.join("refuse-merge"), "").unwrap();
    refused(
        &fake.bash(&script, &[], 1001),
        &["sbatch refused the merge job", "cancelled the job arrays already accepted (101)"],
    );
    assert_eq!(fake.log("scancel.log"), "scancel 101\n");
    assert_eq!(fake.log("ran.log"), "", "a cancelled array runs nothing");
    std::fs::remove_file(fake.dir.join("refuse-merge")).unwrap();

    // A reused --out is refused: its old shards would pass for the new ones.
    ok(&fake.bash(&script, &[], 1001));
    fake.reset_logs();
    refused(&fake.bash(&script, &[], 1001), &["already holds 2 shard files", "rerun LIST"]);
    assert_eq!(fake.log("sbatch.log"), "", "nothing was submitted");
}

#[test]
fn emitted_paths_are_absolute_and_flags_are_checked() {
    let fake = Fake::new("flags");
    let run = |args: &[&str]| Command::new(BIN).args(SWEEP).args(args).current_dir(&fake.dir).output().unwrap();
    let out = run(&["--emit", "slurm", "--shards", "2", "--out", "rel/out", "--packlab-bin", "bin/packlab"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let dir = std::fs::canonicalize(&fake.dir).unwrap();
    assert!(text.contains(&format!("OUT={}/rel/out\n", dir.display())), "{text}");
    assert!(text.contains(&format!("PACKLAB={}/bin/packlab\n", dir.display())), "{text}");
    let line = run(&["--emit", "parallel", "--shards", "2", "--out", "rel", "--max-running", "3"]);
    let line = String::from_utf8(line.stdout).unwrap();
    let bin = std::fs::canonicalize(BIN).unwrap();
    assert!(line.contains(&format!("--jobs 3 {} sweep", bin.display())), "{line}");
    assert!(line.contains(&format!("--out {}/rel/shards", dir.display())), "{line}");
    let line = run(&["--emit", "parallel", "--shards", "2", "--out", "rel", "--packlab-bin", "my bin/packlab"]);
    let line = String::from_utf8(line.stdout).unwrap();
    let mine = format!("'{}/my bin/packlab'", dir.display());
    assert!(line.contains(&format!("fail=1 {mine} sweep")) && line.contains(&format!("&& {mine} merge")), "{line}");

    for (args, needles) in [
        (
            &["--emit", "parallel", "--shards", "2", "--slurm-mem", "4G"][..],
            &["--slurm-mem: only for --emit slurm"][..],
        ),
        (&["--emit", "slurm", "--shards", "2", "--slurm-time", "2h"], &["--slurm-time", "DAYS-H:MM:SS"]),
        (&["--emit", "slurm", "--shards", "2", "--slurm-mem", "4GB"], &["--slurm-mem", "K, M, G or T"]),
        (&["--emit", "slurm", "--shards", "2", "--slurm-partition", "a b"], &["--slurm-partition", "without spaces"]),
        (&["--emit", "slurm", "--shards", "2", "--max-running", "0"], &["--max-running", ">= 1"]),
        (&["--slurm-account", "x"], &["--emit"]),
        (&["--packlab-bin", "x"], &["--emit"]),
    ] {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} should fail");
        for needle in needles {
            assert!(stderr.contains(needle), "{args:?}: stderr lacks '{needle}': {stderr}");
        }
    }
}
