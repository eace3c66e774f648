//! The page's "Copy command": `run_command` of a link's scenario, run by a shell, prints what
//! `packlab run --link` prints for the link, byte for byte.

use std::path::Path;
use std::process::Command;

use packlab_core::link::{decode_link, run_command};

fn stdout(command: &mut Command) -> String {
    let out = command.output().expect("it runs");
    assert!(out.status.success(), "{command:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_command_line_runs_what_the_link_runs() {
    let binary = Path::new(env!("CARGO_BIN_EXE_packlab"));
    let path = format!("{}:{}", binary.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default());
    for link in [
        "?preset=pgrr-a1&policy=vqs:j=3,bf-js&seed=4&servers=3&size=uniform:0.1,0.9&horizon=20000",
        "?preset=pgrr-a3&seed=2&load=0.9&horizon=30000&warmup=100&service=deterministic:7",
        "?preset=msfq-d1&policy=msfq:l=8,msf&seed=2&horizon=5000&classes=1@0.8,32@0.2",
        "?preset=ghra-b3&seed=3&horizon=200",
        "?preset=pgas-c4&seed=1&horizon=3&servers=30",
    ] {
        let (decoded, errors) = decode_link(link);
        assert!(errors.is_empty(), "{link}: {errors:?}");
        let command = run_command(&decoded.preset, &decoded.policies, &decoded.scenario);
        let by_link = stdout(Command::new(binary).args(["run", "--link", link, "--json"]));
        let by_command = stdout(Command::new("sh").arg("-c").arg(format!("{command} --json")).env("PATH", &path));
        assert_eq!(by_command, by_link, "{command}");
    }
}

#[test]
fn tours_list_every_step_with_a_command_that_runs() {
    let binary = Path::new(env!("CARGO_BIN_EXE_packlab"));
    let listing = stdout(Command::new(binary).arg("tours"));
    for tour in packlab_core::tours::TOURS {
        assert!(listing.contains(&format!("{} ({}): {}", tour.id, tour.paper, tour.title)), "{listing}");
        for step in tour.steps {
            assert!(listing.contains(&format!("packlab run --link '?{}'", step.link)), "{listing}");
            if step.check.reads_map() {
                let map = format!("    map: packlab stability --link '?{}' --reps", step.link);
                assert!(listing.contains(&map), "{listing}");
            }
        }
    }
}
