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
        ("let x = ctx.now;", "script line 1: `fn schedule(ctx)` returned without routing the arriving job"),
        (
            "let a = []; a.pad(9990, 0); loop { a.push(a.len()); }",
            "script line 1: size of array/blob exceeded 10000 array elements",
        ),
        ("throw 42;", "script line 2: the script threw: 42"),
    ] {
        let source = format!("fn schedule(ctx) {{\n  {body}\n}}\n");
        let message = stopped("ghra", &source, 200);
        assert!(message.contains(needle), "{body}:\n{message}");
    }
}

/// GH-RA's script takes Algorithm 2's `f` as well as its source: a spec is parsed with the
/// parameters of the model that takes them, so the link the core writes opens again, and a
/// model whose script has no `f` says so by name.
#[test]
fn the_weight_function_parameter_round_trips_through_a_link() {
    use crate::link::{decode_link, encode_link};
    use crate::model::policy::PolicySpec;
    let spec = PolicySpec::parse("script:f=log").unwrap();
    assert_eq!(spec.to_string(), "script:f=log");
    let (link, errors) = decode_link("preset=ghra-b3&policy=script:f=log&horizon=50");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(link.policies, vec![spec.clone()]);
    let again = encode_link(&link.preset, &link.policies, &link.scenario, &link.page);
    let (reopened, errors) = decode_link(&again);
    assert!(errors.is_empty(), "{again}: {errors:?}");
    assert_eq!(reopened.policies, link.policies);
    let (_, errors) = decode_link("preset=pgrr-a1&policy=script:f=log");
    assert!(errors.iter().any(|e| e.message.contains("PG-RR's script has no parameter 'f'")), "{errors:?}");
    let e = PolicySpec::parse("script:f=cube").unwrap_err();
    assert!(e.message.contains("f must be log"), "{e}");
}
