//! The file `packlab exercise ID --check FILE` reads: a submitted script's bytes. The shipped
//! skeletons, answers and wrong rules, mutated (pieces cut, code and multi-byte characters
//! inserted, repeated; bytes that are not UTF-8), go through the core's `submission` and
//! check as the CLI sends them. A file is refused with what is wrong (not UTF-8, too long),
//! or the check refuses the script by the policy key (it does not compile), or the check runs
//! to a verdict or through its first pieces; nothing panics.

use std::cell::RefCell;

use packlab_core::exercises::{self, Checker, EXERCISES, Verdict};
use packlab_core::link::scenario_of;

use super::{cases, mutate, no_panic, runner, verdict};
use proptest::prelude::*;

/// What submissions start from: the exercises' skeletons, answers and wrong rules.
const SOURCES: &[&str] = &[
    include_str!("../../src/exercises/best_fit_skeleton.rhai"),
    include_str!("../../src/exercises/msf_skeleton.rhai"),
    include_str!("../../src/exercises/jsq_skeleton.rhai"),
    include_str!("../../src/models/pgrr/scripts/best_fit.rhai"),
    include_str!("../../src/models/msfq/scripts/msf.rhai"),
    include_str!("../../src/models/ghra/scripts/jsq_lowest.rhai"),
    include_str!("../../src/exercises/wrong/write-best-fit/worst_fit.rhai"),
    include_str!("../../src/exercises/wrong/write-best-fit/bf_js.rhai"),
    include_str!("../../src/exercises/wrong/write-msf/longest_queue_first.rhai"),
    include_str!("../../src/exercises/wrong/write-jsq/all_servers.rhai"),
];

/// What is inserted: code a learner might get wrong, calls with bad values, and characters
/// of more than one byte.
const SNIPPETS: &[&str] = &[
    "}",
    "{",
    "\"",
    "ctx.",
    "let x = ;",
    "loop { }",
    "throw 1;",
    "ctx.start(0, 99);",
    "ctx.start(-1);",
    "ctx.route(-1);",
    "ctx.route(ctx.servers);",
    "ctx.note(\"é\", 1);",
    "return;",
    "fn schedule(ctx) {}",
    "1e309",
    "é",
    "٣",
    "\u{0}",
    "// name: ☃\n",
];

/// Pieces of a check a case runs at most: a tenth of the horizon (the verdict often comes
/// sooner: a wrong script fails at its first different decision).
const PIECES: u32 = 4;

#[test]
fn submitted_scripts_are_checked_or_refused_by_name() {
    let scenarios: Vec<_> = EXERCISES.iter().map(|e| scenario_of(e.link).unwrap()).collect();
    // Files refused, scripts refused, checks run: each must be reached, or the target
    // tests less than it says.
    let reached = RefCell::new([0u32; 3]);
    let input = (
        0..EXERCISES.len(),
        proptest::sample::select(SOURCES),
        proptest::collection::vec((any::<u8>(), any::<usize>(), proptest::sample::select(SNIPPETS)), 0..3),
        any::<u8>(),
        any::<usize>(),
    );
    runner()
        .run(&input, |(which, source, mutations, bytes_op, at)| {
            let mut text = source.to_string();
            for (op, at, with) in mutations {
                // The cutting, inserting and repeating mutations; the others rewrite lists.
                text = mutate(&text, [0, 1, 2, 3][usize::from(op) % 4], at, with);
            }
            let mut bytes = text.clone().into_bytes();
            let i = if bytes.is_empty() { 0 } else { at % bytes.len() };
            match bytes_op % 8 {
                // A byte that is never UTF-8, or a multi-byte character cut short.
                0 => bytes.insert(i, 0xff),
                1 => bytes.splice(i..i, "é".bytes().take(1)).for_each(drop),
                _ => {}
            }
            let mut failure = None;
            no_panic(&String::from_utf8_lossy(&bytes), || {
                let exercise = EXERCISES[which];
                match exercises::submission(bytes.clone()) {
                    Err(why) if !why.contains("UTF-8") && !why.contains("longer than") => {
                        failure = Some(format!("a refused file does not say why: {why}"))
                    }
                    Err(_) => reached.borrow_mut()[0] += 1,
                    Ok(source) => match Checker::new(exercise, &scenarios[which], &source) {
                        Err(e) if e.key != "policy" => failure = Some(format!("the error names {}: {e}", e.key)),
                        Err(_) => reached.borrow_mut()[1] += 1,
                        Ok(mut checker) => {
                            reached.borrow_mut()[2] += 1;
                            let piece = checker.piece();
                            for _ in 0..PIECES {
                                match checker.advance(piece) {
                                    Some(Verdict::Stopped { message, .. }) if message.is_empty() => {
                                        failure = Some("a stopped check says nothing".to_string())
                                    }
                                    Some(Verdict::Differs(d)) if d.decision == 0 => {
                                        failure = Some(format!("decision 0 differs: {d:?}"))
                                    }
                                    Some(_) => break,
                                    None => {}
                                }
                            }
                        }
                    },
                }
            })?;
            verdict(failure)
        })
        .unwrap();
    let [files, scripts, checks] = *reached.borrow();
    assert!(
        files > 0 && scripts > 0 && checks >= cases() / 5,
        "refused {files} files, {scripts} scripts; {checks} checks"
    );
}
