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
        ("let a = [];\nloop { a.push(1); }", 3, "array elements"),
        ("let s = \"x\";\nloop { s += s; }", 3, "bytes of strings"),
        ("throw \"no\";", 2, "threw: no"),
        ("let x = 1 / 0;", 2, "division by zero"),
    ] {
        let e = first_error(&format!("{entry}{body}"));
        assert_eq!(e.line, Some(line), "{body}: {e}");
        assert!(e.message.to_lowercase().contains(needle), "{body}: {e}");
    }
}

#[test]
fn syntax_errors_huge_sources_and_missing_entries_are_named() {
    let e = first_error("fn schedule(ctx) {\n  let = 3;\n}");
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
    let engine = engine();
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
