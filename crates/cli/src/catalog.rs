//! `packlab presets` and `packlab policies`: what can be run and how to configure it.

use std::io::Write;

use anyhow::{Result, anyhow};
use packlab_core::model::ModelInfo;
use packlab_core::models::{all, all_policies, policies_of};
use packlab_core::policy::PolicyMeta;
use packlab_core::scenario::{Preset, Sweep, preset, presets};

/// Width the explanation paragraph is wrapped to.
pub const WRAP: usize = 96;

pub fn list_presets(out: &mut dyn Write) -> Result<()> {
    let all = presets();
    // The summary is prose, so every column is left-aligned (unlike numeric tables).
    let id_w = all.iter().map(|p| p.id.len()).max().unwrap_or(0);
    let fig_w = all.iter().map(|p| p.figure.len()).max().unwrap_or(0);
    writeln!(out, "{:<id_w$}  {:<fig_w$}  summary", "id", "figure")?;
    for p in &all {
        writeln!(out, "{:<id_w$}  {:<fig_w$}  {}", p.id, p.figure, p.summary)?;
    }
    writeln!(out, "\nDetails and settable keys: packlab presets --describe ID")?;
    Ok(())
}

/// `packlab tours`: every guided tour with its steps, the link each step plays and the
/// command that runs it here.
pub fn list_tours(out: &mut dyn Write) -> Result<()> {
    for tour in packlab_core::tours::TOURS {
        writeln!(out, "{} ({}): {}", tour.id, tour.paper, tour.title)?;
        for (k, step) in tour.steps.iter().enumerate() {
            writeln!(out, "  step {}: packlab run --link '?{}'", k + 1, step.link)?;
            if let Some(q) = step.question {
                writeln!(out, "    asks: {} ({})", q.prompt, q.choices.join(" / "))?;
            }
            // The values the step's text states, as the page's form shows them (the browser
            // test reads them against the fields).
            if !step.states.is_empty() {
                let states: Vec<String> =
                    step.states.iter().map(|s| format!("{} = {} (\"{}\")", s.key, s.value, s.said)).collect();
                writeln!(out, "    states: {}", states.join("; "))?;
            }
            // An exercise's step: the learner writes the policy; the page checks the script.
            if let Some(exercise) = step.check.exercise() {
                writeln!(
                    out,
                    "    exercise: {} (write {} as a script; the page checks it, and so does `packlab exercise {} --check FILE`)",
                    exercise.id, exercise.reference, exercise.id
                )?;
            }
            // A step about the stability map: the map it shows, as the CLI makes it.
            if let Some(map) = packlab_core::link::decode_link(step.link).0.page.map {
                writeln!(out, "    map: {}", map.command(&format!("?{}", step.link)))?;
            }
        }
    }
    writeln!(out, "\nIn the page: ?tour=ID (and &step=K to start at step K)")?;
    Ok(())
}

pub fn describe_preset(id: &str, out: &mut dyn Write) -> Result<()> {
    let p = preset(id).map_err(|e| anyhow!("--describe: {}", e.message))?;
    write_description(&p, out)
}

fn write_description(p: &Preset, out: &mut dyn Write) -> Result<()> {
    writeln!(out, "{}: {}", p.id, p.title)?;
    writeln!(out, "figure:  {}", p.figure)?;
    writeln!(out, "summary: {}", p.summary)?;
    writeln!(out)?;
    for line in wrap(p.explanation, WRAP) {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    let defaults: Vec<String> = p.policies.iter().map(|s| format!("{s} ({})", p.scenario.policy_label(s))).collect();
    writeln!(out, "default policies: {}", defaults.join(", "))?;
    let join = |grid: Vec<String>| grid.join(", ");
    match &p.sweep {
        Sweep::Runs { axis: "servers", grid, .. } => {
            writeln!(out, "sweep servers L:  {}", join(grid.iter().map(f64::to_string).collect()))?
        }
        Sweep::Runs { axis, grid, .. } => {
            writeln!(out, "sweep {axis} grid:  {}", join(grid.iter().map(f64::to_string).collect()))?
        }
        Sweep::Theory { grid } => writeln!(
            out,
            "sweep load grid:  {} (the theory's bounds)",
            join(grid.iter().map(f64::to_string).collect())
        )?,
        Sweep::Unavailable(why) => writeln!(out, "sweep:            none ({why})")?,
    }

    write_theory(p, out)?;
    writeln!(out, "\nkeys (--set KEY=VALUE; --seed N and --horizon T are shorthands):")?;
    let keys = p.scenario.keys();
    let width = keys.iter().map(|k| k.key.len()).max().unwrap_or(0);
    for k in &keys {
        let value = p.scenario.get(k.key).unwrap_or_default();
        writeln!(out, "  {:<width$} = {value}", k.key)?;
        writeln!(out, "  {:<width$}   {}", "", k.help)?;
        writeln!(out, "  {:<width$}   range: {}", "", k.range)?;
        if let Some(meaning) = k.changes {
            writeln!(out, "  {:<width$}   can change while the run plays (--change T:{}=VALUE): {meaning}", "", k.key)?;
        }
        if let Some(why) = k.fixed {
            writeln!(out, "  {:<width$}   cannot change while the run plays: {why}", "")?;
        }
    }
    writeln!(out, "\npolicies (--policy NAME[:PARAM=VALUE]...; * = default of this preset):")?;
    write_policies(out, p.scenario.info(), |meta| p.policies.iter().any(|s| s.name() == meta.name))
}

/// What the theory says of stability at the preset's settings: the capacity on the load knob,
/// and each default policy's proven load, or why a theorem's does not apply here. Nothing for
/// a model without a capacity or a theorem (a loss system).
fn write_theory(p: &Preset, out: &mut dyn Write) -> Result<()> {
    let any = p.scenario.any();
    let theories: Vec<_> = p.policies.iter().map(|s| (s, any.stability_theory(s))).collect();
    let capacity = theories.iter().find_map(|(_, t)| t.capacity.clone());
    let stated: Vec<_> = theories.iter().filter_map(|(s, t)| Some((s, t.describe()?))).collect();
    if capacity.is_none() && stated.is_empty() {
        return Ok(());
    }
    writeln!(out, "\nstability theory ({}):", any.load_knob().name)?;
    match &capacity {
        Some(c) => writeln!(out, "  capacity: {}", c.describe())?,
        None => writeln!(out, "  capacity: not known for these settings")?,
    }
    for (spec, text) in stated {
        writeln!(out, "  {}: {text}", p.scenario.policy_label(spec))?;
    }
    Ok(())
}

pub fn list_policies(out: &mut dyn Write) -> Result<()> {
    writeln!(out, "policies (--policy NAME[:PARAM=VALUE]..., e.g. vqs:j=7:ties=random or msfq:l=31):")?;
    for model in all() {
        writeln!(out, "\n{}:", model.label)?;
        write_policies(out, model, |_| false)?;
    }
    Ok(())
}

fn write_policies(out: &mut dyn Write, model: &ModelInfo, is_default: impl Fn(&PolicyMeta) -> bool) -> Result<()> {
    let name_w = all_policies().map(|(_, p)| p.name.len()).max().unwrap_or(0);
    let label_w = all_policies().map(|(_, p)| p.label.chars().count()).max().unwrap_or(0);
    for meta in policies_of(model.id) {
        let star = if is_default(meta) { '*' } else { ' ' };
        writeln!(out, "{star} {:<name_w$}  {:<label_w$}  {}", meta.name, meta.label, meta.summary)?;
        let param_w = meta.params.iter().map(|p| p.key.len() + 2).max().unwrap_or(0);
        for param in meta.params {
            let key = format!(":{}=", param.key);
            writeln!(out, "  {:<name_w$}  {key:<param_w$}  {}: {}", "", param.range(), param.help)?;
        }
    }
    Ok(())
}

/// Greedy word wrap.
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_words_and_width() {
        let text = "one two  three\n four five six seven";
        let lines = wrap(text, 9);
        assert_eq!(lines, ["one two", "three", "four five", "six seven"]);
        assert!(wrap("", 10).is_empty());
    }

    #[test]
    fn description_lists_every_key_and_parameter() {
        let p = preset("pgrr-a3").unwrap();
        let mut out = Vec::new();
        write_description(&p, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        for k in p.scenario.keys() {
            assert!(text.contains(k.key) && text.contains(&k.range), "{}", k.key);
        }
        for meta in policies_of("pgrr") {
            for param in meta.params {
                assert!(text.contains(&format!(":{}=", param.key)), "{}", param.key);
            }
        }
    }
}
