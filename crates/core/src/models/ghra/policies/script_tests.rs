//! The scripted routing on GH-RA: its starting points are Algorithm 2 with JSQ and with
//! power of two, bit for bit, and a hostile script stops its run with the line and the limit.

use crate::models::ghra::script::STARTERS;
use crate::script::testing::{reproduces, stopped};

/// Time units per preset: thousands of arrivals on the larger fleets.
const HORIZON: u64 = 100;

#[test]
fn each_starting_point_runs_like_its_built_in_policy_on_every_preset() {
    for starter in STARTERS {
        reproduces("ghra", starter.policy, starter.source, HORIZON, &[]);
    }
}

#[test]
fn hostile_routings_stop_their_run_with_the_line_and_what_they_exceeded() {
    for (body, needle) in [
        ("loop { }", "script line 1: exceeded 1000000 operations"),
        ("ctx.route(ctx.servers);", "script line 2: policy bug: server"),
        (
            "let s = ctx.eligible()[0]; ctx.route(s); ctx.route(s);",
            "script line 2: policy bug: this job is already routed",
        ),
        ("let x = ctx.now;", "returned without routing the arriving job"),
        ("let a = []; loop { a.push(a.len()); }", "script line 1: size of array/blob exceeded 10000 array elements"),
        ("throw 42;", "script line 2: the script threw: 42"),
    ] {
        let source = format!("fn schedule(ctx) {{\n  {body}\n}}\n");
        let message = stopped("ghra", &source, 200);
        assert!(message.contains(needle), "{body}:\n{message}");
    }
}
