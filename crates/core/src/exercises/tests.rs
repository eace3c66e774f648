use super::*;
use crate::decisions::Fact;
use crate::link::{decode_link, scenario_of};

/// The reference's label on the exercise's own scenario.
fn label(exercise: &Exercise) -> String {
    exercise.reference_label(&scenario_of(exercise.link).unwrap())
}

/// The model's starting point that reproduces `exercise`'s reference: the answer.
pub(super) fn answer(exercise: &Exercise) -> &'static str {
    let scripting = scenario_of(exercise.link).unwrap().scripting().expect("the exercise's model runs scripts");
    scripting.starters.iter().find(|s| s.policy == exercise.reference).expect("a starter reproduces it").source
}

fn check(exercise: &Exercise, source: &str) -> Verdict {
    Checker::new(exercise, &scenario_of(exercise.link).unwrap(), source).unwrap().run()
}

fn difference(verdict: Verdict) -> Difference {
    match verdict {
        Verdict::Differs(d) => *d,
        other => panic!("expected a difference, got {other:?}"),
    }
}

/// (time, job, server) of a start.
fn start(d: &Option<Decision>) -> Option<(f64, Option<u64>, Option<u32>)> {
    d.as_ref().map(|d| (d.time, d.job, d.server))
}

/// The shipped starting point for the reference is the answer: it passes, over many starts.
#[test]
fn the_starting_point_passes() {
    for e in EXERCISES {
        match check(e, answer(e)) {
            Verdict::Pass { decisions: starts } => assert!(starts > 200, "{}: only {starts} starts compared", e.id),
            other => panic!("{}: {other:?}", e.id),
        }
    }
}

/// The check compares decisions, not text: best fit written another way than the starting
/// point passes.
#[test]
fn best_fit_written_another_way_passes() {
    let best_fit = "fn schedule(ctx) {\n    for job in ctx.waiting() {\n        let server = ctx.best_fit(job);\n        \
                    if server != () { ctx.start(job, server); }\n    }\n}\n";
    assert!(matches!(check(&BEST_FIT, best_fit), Verdict::Pass { .. }));
}

/// First fit is not best fit: on pgrr-a4's five servers at slot 63, job 3 (a 0.17) fits the
/// empty server 1 and server 2, whose room is 0.27; best fit puts it on server 2, first fit on
/// server 1 (people number servers from 1, scripts from 0). The difference carries both
/// decisions with their notes, the script's own included.
#[test]
fn first_fit_fails_best_fit_at_its_first_different_start() {
    let first_fit = include_str!("../models/pgrr/scripts/first_fit.rhai")
        .replace("ctx.start(job, server);", "ctx.note(\"rule\", \"first fit\");\n        ctx.start(job, server);");
    let d = difference(check(&BEST_FIT, &first_fit));
    assert_eq!(d.decision, 4, "{d:?}");
    assert_eq!(start(&d.reference), Some((63.0, Some(3), Some(1))));
    assert_eq!(start(&d.yours), Some((63.0, Some(3), Some(0))));
    assert_eq!(d.time(), 63.0);
    let (yours, reference) = (d.yours.unwrap(), d.reference.unwrap());
    assert_eq!(reference.why, "best fit: the fullest server it fits");
    assert_eq!(reference.what, "job 3 (size 0.17, VQ4) → server 2");
    assert_eq!(yours.what, "job 3 (size 0.17, VQ4) → server 1");
    assert_eq!(yours.facts.first(), Some(&Fact::new("rule", "first fit")), "the script's note comes first");
    assert!(reference.facts.iter().any(|f| f.label == "fullest server it fits"), "{:?}", reference.facts);
}

/// First come first served is not MSF: at t = 2.95, with 5 cores free, FCFS starts the older
/// job 9 (3 cores), where MSF starts job 10, which needs all 5.
#[test]
fn fcfs_fails_msf_at_its_first_different_start() {
    let d = difference(check(&MSF, include_str!("../models/msfq/scripts/fcfs.rhai")));
    assert_eq!(d.decision, 10, "{d:?}");
    let (yours, reference) = (d.yours.as_ref().unwrap(), d.reference.as_ref().unwrap());
    assert_eq!((reference.job, yours.job), (Some(10), Some(9)));
    assert_eq!(reference.time, yours.time, "{d:?}");
    assert_eq!(d.time(), reference.time);
    assert_eq!(reference.what, "job 10 (needs 5 cores) starts");
    assert_eq!(yours.what, "job 9 (needs 3 cores) starts");
}

/// The sentences the page announces and the CLI prints, from the core.
#[test]
fn verdicts_read_as_sentences() {
    let first_fit = include_str!("../models/pgrr/scripts/first_fit.rhai");
    assert_eq!(
        check(&BEST_FIT, first_fit).sentence("BF-J", "slot"),
        "Not yet: decision 4 differs from BF-J's, at slot 63; the decisions before it agreed."
    );
    assert_eq!(
        Verdict::Pass { decisions: 1710 }.sentence("BF-J", "slot"),
        "Pass: all 1710 decisions are the same as BF-J's, on the same arrivals."
    );
    let stopped = Verdict::Stopped { decisions: 2, message: "script line 2: the script threw: no".into() };
    assert_eq!(
        stopped.sentence("MSF", "t ="),
        "Your script stopped after 2 decisions that agreed: script line 2: the script threw: no"
    );
    assert_eq!(
        could_not_start("script line 2: syntax error"),
        "The check could not start: script line 2: syntax error"
    );
}

/// A submitted file is a script when it is UTF-8 text no longer than a script may be; else
/// the message says which.
#[test]
fn submissions_are_utf8_scripts_of_bounded_length() {
    assert_eq!(submission(b"fn schedule(ctx) {}".to_vec()).unwrap(), "fn schedule(ctx) {}");
    let latin1 = b"// name: mine\n// caf\xe9\nfn schedule(ctx) {}".to_vec();
    let why = "it is not UTF-8 text: byte 21, on line 2, is not part of a UTF-8 character";
    assert_eq!(submission(latin1).unwrap_err(), why);
    let long = vec![b' '; crate::script::MAX_SOURCE_BYTES + 1];
    assert!(submission(long).unwrap_err().contains("longer than 20000 bytes"));
}

/// The skeleton the editor opens with is not the answer. Best fit's and MSF's start nothing,
/// and the check says so at the reference's first start; JSQ's must route every job
/// somewhere (a GH-RA script that routes nothing stops its run), so it sends each to the
/// first eligible server and parts from JSQ at the first arrival that finds that queue
/// longer than another.
#[test]
fn the_skeleton_is_not_the_answer() {
    for e in [&BEST_FIT, &MSF] {
        let d = difference(check(e, e.skeleton));
        assert_eq!((d.decision, d.yours.is_none()), (1, true), "{}: {d:?}", e.id);
        assert!(d.reference.is_some(), "{}", e.id);
    }
    let d = difference(check(&JSQ, JSQ.skeleton));
    let (yours, reference) = (d.yours.unwrap(), d.reference.unwrap());
    assert!(d.decision > 1, "the first job finds every queue empty: {}", d.decision);
    assert_eq!((yours.action, reference.action, yours.job), ("route", "route", reference.job));
    assert_ne!(yours.server, reference.server);
}

/// JSQ that breaks ties at random, as the paper does (the `alg2-jsq` starting point), is
/// not the exercise's rule, and the check says so within its first decisions: a tie drawn
/// elsewhere is a different routing, and a tie drawn on the same server still took a
/// number from the policy's stream, so the clocks that stream also times tick at other
/// moments.
#[test]
fn random_ties_fail_jsq_within_the_first_decisions() {
    let random_ties = include_str!("../models/ghra/scripts/jsq.rhai");
    let d = difference(check(&JSQ, random_ties));
    assert!(d.decision <= 10, "{d:?}");
    let (yours, reference) = (d.yours.unwrap(), d.reference.unwrap());
    assert_eq!(yours.action, reference.action);
    assert!(yours.server != reference.server || yours.time != reference.time, "{yours:?} {reference:?}");
}

/// The verdict does not depend on the pieces the check is cut into (the page's are its
/// frames'), nor on the run: the same script gives the same verdict.
#[test]
fn the_verdict_is_the_same_in_any_pieces() {
    let first_fit = include_str!("../models/pgrr/scripts/first_fit.rhai");
    let whole = check(&BEST_FIT, first_fit);
    for span in [1.0, 37.5, 1e9] {
        let mut checker = Checker::new(&BEST_FIT, &scenario_of(BEST_FIT.link).unwrap(), first_fit).unwrap();
        let verdict = loop {
            if let Some(v) = checker.advance(span) {
                break v.clone();
            }
            assert!(checker.progress() < 1.0);
        };
        assert_eq!(verdict, whole, "pieces of {span}");
        assert_eq!(checker.progress(), 1.0);
    }
    assert_eq!(check(&BEST_FIT, first_fit), whole);
}

/// A script that throws stops the check with its line; one that does not compile is refused
/// before the check starts, with its line too.
#[test]
fn a_broken_script_is_named_with_its_line() {
    let throws = "fn schedule(ctx) {\n    if ctx.slot > 10 { throw \"enough\"; }\n}";
    match check(&BEST_FIT, throws) {
        Verdict::Stopped { decisions: 0, message } => assert!(message.contains("line 2"), "{message}"),
        other => panic!("{other:?}"),
    }
    let error = Checker::new(&MSF, &scenario_of(MSF.link).unwrap(), "fn schedule(ctx) {\n    let x = ;\n}")
        .err()
        .expect("a syntax error");
    assert!(error.message.contains("line 2"), "{}", error.message);
}

#[test]
fn exercises_are_found_by_name() {
    assert_eq!(exercise("write-msf").unwrap(), &MSF);
    assert_eq!((label(&BEST_FIT), label(&MSF)), ("BF-J".to_string(), "MSF".to_string()));
    assert_eq!(label(&JSQ), "Alg. 2 (JSQ) (ties=lowest)");
    assert_eq!(exercise(" write-jsq ").unwrap(), &JSQ);
    assert!(exercise("nope").unwrap_err().message.contains("exercises are write-best-fit, write-msf, write-jsq"));
    for e in EXERCISES {
        let (link, errors) = decode_link(e.link);
        assert!(errors.is_empty(), "{}: {errors:?}", e.id);
        assert_eq!(link.policies.iter().map(|p| p.to_string()).collect::<Vec<_>>(), [e.reference], "{}", e.id);
        assert!(crate::script::check(e.skeleton).is_empty(), "{}: the skeleton compiles", e.id);
    }
}
