//! The scripted policy on the multiserver-job model: its starting points are MSF and FCFS,
//! bit for bit, and a hostile script stops its run with the line and the limit.

use crate::models::msfq::script::STARTERS;
use crate::script::testing::{reproduces, stopped};

/// Time units per preset: a few seconds for all of them.
const HORIZON: u64 = 2_000;

#[test]
fn each_starting_point_runs_like_its_built_in_policy_on_every_preset() {
    for starter in STARTERS {
        // MSF reports its phases (SPEC 5.4) and the analysis of MSFQ(0); a script reports
        // neither, its decisions and every other number are the same.
        reproduces("msfq", starter.policy, starter.source, HORIZON, &["phase_means", "phase_fractions", "analysis"]);
    }
}

#[test]
fn hostile_policies_stop_their_run_with_the_line_and_what_they_exceeded() {
    for (body, needle) in [
        ("loop { }", "script line 1: exceeded 1000000 operations"),
        ("ctx.start(ctx.classes);", "script line 2: policy bug: class"),
        ("while ctx.free >= 0 { ctx.start(0); }", "script line 2: policy bug:"),
        ("throw 42;", "script line 2: the script threw: 42"),
    ] {
        let source = format!("fn schedule(ctx) {{\n  {body}\n}}\n");
        let message = stopped("msfq", &source, 2_000);
        assert!(message.contains(needle), "{body}:\n{message}");
    }
}
