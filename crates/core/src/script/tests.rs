//! The sandbox's limits, at top level (through [`check`]); inside a policy they are tested
//! through a model (`models/pgrr/policies/script_tests.rs`).

use super::*;

fn first_error(source: &str) -> ScriptError {
    check(source).into_iter().next().unwrap_or_else(|| panic!("accepted: {source}"))
}

#[test]
fn hostile_top_level_code_is_stopped_with_its_line_and_limit() {
    let entry = "fn schedule(ctx) {}\n";
    for (body, line, needle) in [
        ("loop { }", 2, "exceeded 1000000 operations"),
        ("fn f(n) { f(n + 1) }\nf(0);", 3, "nested function calls"),
        ("let a = [];\na.pad(9990, 0);\nloop { a.push(1); }", 4, "array elements"),
        ("let s = \"x\";\nloop { s += s; }", 3, "bytes of strings"),
        ("throw \"no\";", 2, "threw: no"),
        ("let x = 1 / 0;", 2, "division by zero"),
    ] {
        let e = first_error(&format!("{entry}{body}"));
        assert_eq!(e.line, Some(line), "{body}: {e}");
        assert!(e.message.to_lowercase().contains(needle), "{body}: {e}");
    }
}

/// A syntax error's message quotes the script, and is cut to 200 bytes: where byte 200 fell
/// inside a character of four bytes, cutting it there panicked (found by the fuzz test below
/// with a char literal of such characters).
#[test]
fn a_long_syntax_error_is_cut_between_characters() {
    for pad in 0..4 {
        let source = format!("'{}{}'", "a".repeat(pad), "\u{10000}".repeat(100));
        let e = first_error(&source);
        assert!(e.message.starts_with("syntax error"), "{e}");
        assert!(e.message.len() <= "syntax error: ".len() + 200, "{e}");
    }
}

#[test]
fn syntax_errors_huge_sources_and_missing_entries_are_named() {
    let e = first_error("fn schedule(ctx) {\n  let = 3;\n}");
    assert_eq!(e.line, Some(2), "{e}");
    // A missing `;` is the line that lacks it, not the next token's (issue 53), past blank lines
    // too; a mistake in the middle of a line stays on it.
    let e = first_error("fn schedule(ctx) {\n  let a = 3\n\n  let b = 4;\n}");
    assert_eq!(e.line, Some(2), "{e}");
    let e = first_error("fn schedule(ctx) {\n  let a = (3 + 4;\n  a\n}");
    assert_eq!(e.line, Some(2), "{e}");
    assert!(e.message.starts_with("syntax error"), "{e}");
    let e = first_error(&format!("fn schedule(ctx) {{}}\n// {}", "x".repeat(MAX_SOURCE_BYTES)));
    assert!(e.message.contains("longer than 20000 bytes"), "{e}");
    assert!(first_error("fn other(ctx) {}").message.contains("fn schedule(ctx)"));
    assert!(first_error("fn schedule(ctx) {}\neval(\"1\");").to_string().starts_with("script line 2"));
    assert!(check("// name: x\nfn schedule(ctx) { 1 }").is_empty());
}

#[test]
fn math_goes_through_libm() {
    let meter = Rc::new(Meter::default());
    meter.start(None);
    let engine = engine(&meter);
    for (expr, want) in [("ln(2.5)", libm::log(2.5)), ("exp(0.3)", libm::exp(0.3)), ("sin(1.1)", libm::sin(1.1))] {
        assert_eq!(engine.eval::<f64>(expr).unwrap().to_bits(), want.to_bits(), "{expr}");
    }
}

#[test]
fn a_spec_carries_the_script_and_its_name() {
    let text = spec_text("// name: mine\nfn schedule(ctx) {}").unwrap();
    let spec = crate::model::policy::PolicySpec::parse(&text).unwrap();
    assert_eq!(spec.to_string(), text);
    assert_eq!(spec.label_with(|_| None), "Script (mine)");
    assert!(spec_text(&"x".repeat(MAX_SOURCE_BYTES + 1)).is_err());
}

mod fuzz {
    use proptest::prelude::*;

    use super::*;

    /// Pieces of rhai, so random text often parses and runs rather than failing at its
    /// first character.
    const PIECES: &[&str] = &[
        "fn schedule(ctx) {",
        "}",
        "{",
        "(",
        ")",
        "[",
        "]",
        ";",
        "\n",
        "let x = ",
        "x",
        "1",
        "-1",
        "1.5",
        "\"s\"",
        "+",
        "*",
        "/",
        "%",
        "**",
        "==",
        "!=",
        "<",
        "loop",
        "while",
        "for",
        "in",
        "if",
        "else",
        "return",
        "break",
        "throw",
        "try",
        "catch",
        "ctx.",
        "start(",
        "head()",
        "waiting()",
        "best_fit(",
        "first_fitting(",
        "note(",
        "random()",
        "random_int(",
        "residual(",
        "job(",
        "max_residual",
        "slot",
        "queue_len",
        ",",
        ".",
        "x.push(",
        "x += x",
        "fn f(n) { f(n) }",
        "f(1)",
        "[]",
        "#{}",
        "0..10",
        "9223372036854775807",
        "1e308",
        "eval(",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Arbitrary text never panics the checker.
        #[test]
        fn any_text_is_checked_without_panic(text in ".{0,400}") {
            let _ = check(&text);
            let _ = source::canonical(&text);
        }

        /// Scripts made of rhai's pieces never panic, at build time or while they decide.
        #[test]
        fn any_script_runs_or_stops_without_panic(picks in prop::collection::vec(0..PIECES.len(), 0..60)) {
            let body: String = picks.iter().map(|&i| PIECES[i]).collect::<Vec<_>>().join(" ");
            let source = format!("fn schedule(ctx) {{\n{body}\n}}\n{body}");
            let _ = check(&source);
            let _ = testing::stopped("pgrr", &source, 20);
        }
    }
}

/// The context each model documents for script writers (its `context.md`, the editor's help)
/// names every member and job field the model declares, so the declaration (from which rhai
/// and Python are built) and the text cannot drift apart unnoticed.
#[test]
fn every_declared_member_is_documented() {
    use crate::script::context::{Handle, JobType};
    fn check<H: Handle>(doc: &str, model: &str) {
        let words: std::collections::HashSet<&str> =
            doc.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
        let names = H::MEMBERS.iter().map(|m| m.name).chain(<H::Job as JobType>::FIELDS.iter().map(|f| f.name));
        for name in names {
            assert!(words.contains(name), "{model}: `{name}` is declared but not in its context.md");
        }
        assert!(!H::MEMBERS.is_empty());
    }
    check::<crate::models::pgrr::script::Ctx>(crate::models::pgrr::script::SCRIPTING.context, "pgrr");
    check::<crate::models::msfq::script::Ctx>(crate::models::msfq::script::SCRIPTING.context, "msfq");
    check::<crate::models::ghra::script::Ctx>(crate::models::ghra::script::SCRIPTING.context, "ghra");
}

/// `ctx.state` persists from one call to the next (the fifth call sees 5), keeps plain data
/// only, within the sandbox's size limits, and each refusal names it with the line.
#[test]
fn a_lanes_state_persists_holds_plain_data_and_is_bounded() {
    for (body, needle) in [
        (
            "if ctx.state.n == () { ctx.state.n = 0; }\n  ctx.state.n += 1;\n  if ctx.state.n == 5 { throw ctx.state.n; }",
            "script line 4: the script threw: 5",
        ),
        ("let s = ctx.state;\n  s.calls = 1;\n  ctx.state = s;\n  throw ctx.state.calls;", "the script threw: 1"),
        ("ctx.state = 7;\n  throw ctx.state;", "the script threw: 7"),
        (
            "ctx.state.f = |x| x + 1;",
            "script line 2: ctx.state keeps numbers, strings, arrays and maps only, not a value of type Fn",
        ),
        ("let n = 1;\n  ctx.state.f = || n;", "script line 3: ctx.state keeps numbers, strings, arrays and maps only"),
        (
            "let a = [];\n  a.pad(600, 0);\n  ctx.state.x = a;\n  ctx.state.y = a;",
            "script line 5: ctx.state would keep 19330 bytes, more than the 16384 a lane's state may",
        ),
    ] {
        let source = format!("fn schedule(ctx) {{\n  {body}\n}}\n");
        let message = testing::stopped("pgrr", &source, 2_000);
        assert!(message.to_lowercase().contains(&needle.to_lowercase()), "{body}:\n{message}");
    }
}

/// A clone of a lane (the timeline's checkpoint) carries a copy of its state: run on from
/// there, it makes the decisions the lane made, whatever the lane did after the clone.
#[test]
fn a_cloned_lane_carries_a_copy_of_its_state() {
    use crate::model::policy::PolicySpec;
    // Best fit on two slots of three, counted in the state: a shared or reset state shifts the
    // count, and with it which slots start jobs.
    let source = "fn schedule(ctx) {\n  if ctx.state.n == () { ctx.state.n = 0; }\n  ctx.state.n += 1;\n  \
                  if ctx.state.n % 3 == 0 { return; }\n  for j in ctx.waiting() {\n    let s = ctx.best_fit(j);\n    \
                  if s != () { ctx.start(j, s); }\n  }\n}\n";
    let spec = PolicySpec::parse(&spec_text(source).unwrap()).unwrap();
    let scenario = crate::scenario::presets().into_iter().find(|p| p.id == "pgrr-a1").unwrap().scenario;
    let starts = |run: &dyn crate::view::LiveRun| {
        run.decisions()
            .records()
            .iter()
            .filter(|d| d.action == "start")
            .map(|d| (d.time.to_bits(), d.job))
            .collect::<Vec<_>>()
    };
    let watch = || crate::view::Watch::page(64).with_log(1 << 20);
    let mut lane = crate::report::live_run(&scenario, &spec, watch()).unwrap();
    lane.run_to(500.0).unwrap();
    let mut checkpoint = dyn_clone::clone_box(&*lane);
    lane.run_to(1_000.0).unwrap();
    checkpoint.run_to(1_000.0).unwrap();
    let mut fresh = crate::report::live_run(&scenario, &spec, watch()).unwrap();
    fresh.run_to(1_000.0).unwrap();
    assert!(starts(&*lane).len() >= 5);
    for other in [&checkpoint, &fresh] {
        assert_eq!(starts(&**other), starts(&*lane));
        assert_eq!(format!("{:?}", other.readings()), format!("{:?}", lane.readings()));
    }
}
