//! `packlab exercise`: the exercises (write a paper's policy as a script), and grading scripts
//! against one from the command line, with the page's verdict: a lecturer grades a folder of
//! submissions with `packlab exercise ID --check submissions/*.rhai`.
//!
//! The check is the core's (`packlab_core::exercises`), the one the page's Check runs in
//! pieces: the same scenario, seed and reference, so the same verdict, in the same words.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Result, anyhow, bail};
use clap::Args;
use packlab_core::decisions::Decision;
use packlab_core::exercises::{self, Checker, EXERCISES, Exercise, Verdict};
use packlab_core::link::scenario_of;
use packlab_core::scenario::Scenario;
use packlab_core::tours::TOURS;
use serde_json::json;

#[derive(Debug, Args)]
pub struct ExerciseArgs {
    /// The exercise; without it, the list of exercises.
    #[arg(value_name = "ID")]
    pub id: Option<String>,

    /// Check each script against the exercise's reference, as the page's Check does, and print
    /// its verdict: a pass, the first decision that differs (both sides), or why the script
    /// stopped. Exits 0 only if every script passes.
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "id")]
    pub check: Vec<PathBuf>,

    /// With --check: one JSON object per script (file, outcome, verdict, the differing
    /// decisions) instead of text.
    #[arg(long, requires = "check")]
    pub json: bool,
}

pub fn command(args: &ExerciseArgs, out: &mut dyn Write) -> Result<()> {
    let Some(id) = &args.id else { return list(out) };
    let exercise = exercises::exercise(id).map_err(|e| anyhow!("exercise ID: {}", e.message))?;
    if args.check.is_empty() {
        return describe(exercise, out);
    }
    let scenario = scenario_of(exercise.link).map_err(|e| anyhow!("exercise {}: {e}", exercise.id))?;
    let reference = exercise.reference_label(&scenario);
    let time_word = scenario.info().time.prefix();
    let mut failed = 0;
    for file in &args.check {
        let graded = grade(exercise, &scenario, file);
        if !matches!(graded, Ok(Verdict::Pass { .. })) {
            failed += 1;
        }
        if args.json {
            writeln!(out, "{}", as_json(file, &graded, &reference, time_word))?;
        } else {
            write_text(out, file, &graded, &reference, time_word)?;
        }
    }
    if failed > 0 {
        bail!("{failed} of {} scripts did not pass {}", args.check.len(), exercise.id);
    }
    Ok(())
}

/// The verdict on one file, or why it could not be checked (unreadable, not a script's text,
/// not compiling; the page's words for the last), said after the file's name.
fn grade(exercise: &Exercise, scenario: &Scenario, file: &Path) -> Result<Verdict, String> {
    let bytes = std::fs::read(file).map_err(|e| format!("--check: cannot read the file: {e}"))?;
    let source = exercises::submission(bytes).map_err(|why| format!("--check: {why}"))?;
    let checker = Checker::new(exercise, scenario, &source).map_err(|e| exercises::could_not_start(&e.message))?;
    Ok(checker.run())
}

fn sentence(graded: &Result<Verdict, String>, reference: &str, time_word: &str) -> String {
    match graded {
        Ok(verdict) => verdict.sentence(reference, time_word),
        Err(message) => message.clone(),
    }
}

fn write_text(
    out: &mut dyn Write,
    file: &Path,
    graded: &Result<Verdict, String>,
    reference: &str,
    time_word: &str,
) -> Result<()> {
    writeln!(out, "{}: {}", file.display(), sentence(graded, reference, time_word))?;
    if let Ok(Verdict::Differs(d)) = graded {
        write_side(out, "your script", d.yours.as_ref(), time_word)?;
        write_side(out, &format!("reference: {reference}"), d.reference.as_ref(), time_word)?;
    }
    Ok(())
}

/// One side of a difference as the page's inspector shows it: when, what, why, and the facts
/// the rule looked at (a script's own notes first).
fn write_side(out: &mut dyn Write, title: &str, decision: Option<&Decision>, time_word: &str) -> Result<()> {
    writeln!(out, "  {title}")?;
    match decision {
        None => writeln!(out, "    no more decisions before the horizon")?,
        Some(d) => {
            writeln!(out, "    {time_word} {}: {}", packlab_core::format::moment(d.time), d.what)?;
            writeln!(out, "    why: {}", d.why)?;
            for fact in &d.facts {
                writeln!(out, "    {}: {}", fact.label, fact.value)?;
            }
        }
    }
    Ok(())
}

fn as_json(file: &Path, graded: &Result<Verdict, String>, reference: &str, time_word: &str) -> serde_json::Value {
    let (outcome, decisions, difference) = match graded {
        Ok(Verdict::Pass { decisions }) => ("pass", Some(*decisions), None),
        Ok(Verdict::Differs(d)) => (
            "differs",
            Some(d.decision - 1),
            Some(json!({ "decision": d.decision, "yours": d.yours, "reference": d.reference })),
        ),
        Ok(Verdict::Stopped { decisions, .. }) => ("stopped", Some(*decisions), None),
        Err(_) => ("not checked", None, None),
    };
    json!({
        "file": file.display().to_string(),
        "outcome": outcome,
        "verdict": sentence(graded, reference, time_word),
        "agreed": decisions,
        "difference": difference,
    })
}

/// The tour whose step sets `exercise`: its title and paper.
fn tour_of(exercise: &Exercise) -> Option<&'static packlab_core::tours::Tour> {
    TOURS.iter().find(|t| t.steps.iter().any(|s| s.check.exercise().is_some_and(|e| e.id == exercise.id)))
}

fn list(out: &mut dyn Write) -> Result<()> {
    let width = EXERCISES.iter().map(|e| e.id.len()).max().unwrap_or(0);
    for e in EXERCISES {
        let scenario = scenario_of(e.link).map_err(|err| anyhow!("exercise {}: {err}", e.id))?;
        let (title, paper) = tour_of(e).map_or(("", ""), |t| (t.title, t.paper));
        writeln!(out, "{:<width$}  {paper:<5}  {title} (reference: {})", e.id, e.reference_label(&scenario))?;
    }
    writeln!(out, "\nThe task and its scenario: packlab exercise ID")?;
    writeln!(out, "Grade scripts: packlab exercise ID --check FILE... (exit 0 only if all pass)")?;
    writeln!(out, "In the page: ?tour=ID")?;
    Ok(())
}

fn describe(e: &Exercise, out: &mut dyn Write) -> Result<()> {
    let scenario = scenario_of(e.link).map_err(|err| anyhow!("exercise {}: {err}", e.id))?;
    let (title, paper) = tour_of(e).map_or(("", ""), |t| (t.title, t.paper));
    writeln!(out, "{}: {title} ({paper})", e.id)?;
    writeln!(out)?;
    for line in crate::catalog::wrap(e.task, crate::catalog::WRAP) {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    writeln!(out, "reference: {} ({})", e.reference_label(&scenario), e.reference)?;
    writeln!(out, "in the paper: {}", e.source)?;
    writeln!(out, "checked on: packlab run --link '?{}'", e.link)?;
    writeln!(out, "grade: packlab exercise {} --check FILE...", e.id)?;
    writeln!(out, "in the page: ?tour={}", e.id)?;
    writeln!(out, "\nThe editor's starting point (the rule's shape, not the answer):\n")?;
    write!(out, "{}", e.skeleton)?;
    Ok(())
}
