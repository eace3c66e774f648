//! The scripted policy on PG-RR: its starting points are the built-in policies, bit for bit,
//! and hostile scripts stop their run with the line and the limit.

use crate::models::pgrr::script::STARTERS;
use crate::script::testing::{reproduces, reproduces_with, stopped};

/// Slots per preset: a few seconds for all of them, enough for queues to form and drain.
const HORIZON: u64 = 2_000;

#[test]
fn each_starting_point_runs_like_its_built_in_policy_on_every_preset() {
    for starter in STARTERS {
        reproduces("pgrr", starter.policy, starter.source, HORIZON, &[]);
    }
}

/// The VQS starting point keeps a configuration per server and a count per virtual queue in
/// `ctx.state`; it takes J from the scenario, as `vqs` does by default: the same run at other
/// depths too (J = 3 and 6 on every preset that runs VQS, whatever its own j).
#[test]
fn the_stateful_vqs_starting_point_runs_like_vqs_at_other_depths() {
    let vqs = STARTERS.iter().find(|s| s.policy == "vqs").expect("a VQS starting point");
    for j in ["3", "6"] {
        let runs = reproduces_with("pgrr", "vqs", vqs.source, HORIZON, &[], &[("j", j)]);
        assert_eq!(runs, 6, "every PG-RR preset runs VQS");
    }
}

#[test]
fn hostile_policies_stop_their_run_with_the_line_and_what_they_exceeded() {
    for (body, needle) in [
        ("loop { }", "script line 1: exceeded 1000000 operations"),
        ("f(ctx)\n}\nfn f(c) { f(c)", "nested function calls"),
        (
            "let a = [];\n  a.pad(9990, 0);\n  loop { a.push(ctx.slot); }",
            "script line 1: size of array/blob exceeded 10000 array elements",
        ),
        ("let s = \"ab\";\n  loop { s += s; }", "script line 1: length of string exceeded 4096 bytes"),
        ("throw \"my own error\";", "script line 2: the script threw: my own error"),
        ("ctx.start(123456789, 0);", "script line 2: policy bug: job 123456789 is not waiting"),
        (
            "let j = ctx.head(); if j != () { ctx.start(j, 100000); }",
            "script line 2: policy bug: server 100000 does not exist",
        ),
        ("let j = ctx.head(); if j != () { ctx.start(j, -1); }", "script line 2: policy bug: server -1 does not exist"),
        // A refused decision stops the run even inside `try`.
        (
            "let j = ctx.head();\n  if j != () { ctx.start(j, 0); try { ctx.start(j, 0); } catch { } }",
            "script line 3: policy bug: job 0 is not waiting",
        ),
        // Every job onto server 0: it soon has no room for the next.
        ("for j in ctx.waiting() { ctx.start(j, 0); }", "does not fit server 0"),
        ("ctx.nothing_such();", "script line 2: Function not found: nothing_such"),
        // The virtual-queue members name what they refuse.
        ("ctx.heaviest([1, 2, 3]);", "script line 2: policy bug: heaviest(counts): counts must be"),
        ("let q = [];\n  q.pad(2 * ctx.j, -1);\n  ctx.heaviest(q);", "script line 4: policy bug: heaviest(counts)"),
        ("ctx.reserves(999);", "script line 2: policy bug: configuration 999 does not exist"),
        ("ctx.holds(0, 99);", "script line 2: policy bug: virtual queue 99 does not exist"),
        ("ctx.vq_room(100000, 0);", "script line 2: policy bug: server 100000 does not exist"),
    ] {
        let source = format!("fn schedule(ctx) {{\n  {body}\n}}\n");
        let message = stopped("pgrr", &source, 2_000);
        assert!(message.contains(needle), "{body}:\n{message}");
    }
    // A declaration the engine cannot use is refused when the lane is built.
    let message = stopped("pgrr", "// small jobs: rounded\nfn schedule(ctx) {}\n", 2_000);
    assert!(message.contains("declares `small jobs: rounded`; it may declare round"), "{message}");
}
