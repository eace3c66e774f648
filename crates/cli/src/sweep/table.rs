//! The table `packlab sweep` prints: one row per grid value, one column per curve (or, for
//! several figures per policy, one row per grid value and policy, one column per figure).

use std::io::Write;

use anyhow::Result;
use packlab_core::metrics::Verdict;
use packlab_core::sweep::{Cell, SweepPlan};

use crate::output::{Table, num, print_table};

pub fn print(plan: &SweepPlan, warmup_note: Option<&str>, cells: &[Cell], out: &mut dyn Write) -> Result<()> {
    let setup = &plan.setup;
    let p = &setup.preset;
    let unit = setup.scenario.time_unit().plural();
    let reps = plan.seeds.len() as u64;
    let what = if plan.axis == "load" && !setup.scenario.any().replaying() {
        "load".to_string()
    } else {
        format!("value of {}", plan.key_label())
    };
    writeln!(out, "{}: {} ({})", p.id, p.title, p.figure)?;
    writeln!(
        out,
        "{} × {} × {} (seeds from {}) · horizon {} {unit} · warm-up {} {unit}",
        plural(plan.values.len() as u64, &what),
        plural(setup.policies.len() as u64, "policy"),
        plural(reps, "replication"),
        setup.scenario.seed(),
        setup.scenario.horizon(),
        setup.scenario.warmup()
    )?;
    if let Some(note) = warmup_note {
        writeln!(out, "({note})")?;
    }
    let references = plan.references(cells);
    if !references.is_empty() {
        let stated: Vec<String> =
            references.iter().map(|(r, v)| format!("{} = {}", r.label, packlab_core::report::sig(*v))).collect();
        writeln!(out, "{}", stated.join(" · "))?;
    }
    let bounded = cells.iter().any(|c| c.summary.ci.iter().all(|v| v.is_finite()));
    let interval = match (reps, bounded) {
        (2.., _) => " ± half-width of its 95% interval (Student t over the replications)",
        (_, true) => " ± half-width of its 95% interval (the run's own)",
        // A single run of a figure without an interval of its own: said, and no ± printed.
        _ if setup.scenario.any().replaying() => "; one replication (a log replays the same every time): no interval",
        _ => "; one replication, and this figure has no interval of its own: no interval",
    };
    writeln!(out, "\n{}{interval}; * = not stable, ? = undecided (docs/stability.md)", plan.layout.y_label())?;
    let cell_text = |c: &Cell| {
        let s = &c.summary;
        if !s.value.is_finite() {
            return "–".to_string();
        }
        let star = match s.verdict.map(|v| v.verdict) {
            Some(Verdict::Unstable) => "*",
            Some(Verdict::Undecided) => "?",
            _ => "",
        };
        let analysis = s.analysis.map_or(String::new(), |a| format!(" (analysis {})", num(a)));
        let half = (s.ci[1] - s.ci[0]) / 2.0;
        let spread = if half.is_finite() { format!(" ±{}", num(half)) } else { String::new() };
        format!("{}{spread}{star}{analysis}", num(s.value))
    };
    let lines = plan.lines(cells);
    let xs = SweepPlan::xs(&lines);
    let x_label = plan.x_label();
    let table = if plan.layout.grouped() {
        // One row per grid value and policy, one column per figure: all curves side by side
        // would not fit a terminal.
        let figures = plan.layout.figures();
        let mut header = vec![x_label, "policy".to_string()];
        header.extend(figures.iter().map(|f| f.label.to_string()));
        let mut table = Table::new(&header.iter().map(String::as_str).collect::<Vec<_>>());
        for x in &xs {
            for (policy, group) in plan.labels().iter().zip(lines.chunks(figures.len())) {
                let mut row = vec![x.to_string(), policy.clone()];
                row.extend(group.iter().map(|line| {
                    line.cells.iter().find(|(cx, _)| cx == x).map_or(String::new(), |(_, c)| cell_text(c))
                }));
                table.row(row);
            }
        }
        table
    } else {
        let mut header = vec![x_label];
        header.extend(lines.iter().map(|l| l.label.clone()));
        let mut table = Table::new(&header.iter().map(String::as_str).collect::<Vec<_>>());
        for x in xs {
            let mut row = vec![x.to_string()];
            for line in &lines {
                row.push(line.cells.iter().find(|(cx, _)| *cx == x).map_or(String::new(), |(_, c)| cell_text(c)));
            }
            table.row(row);
        }
        table
    };
    print_table(&table, out)?;
    Ok(())
}

/// "1 load", "2 loads", "3 policies".
fn plural(n: u64, noun: &str) -> String {
    match (n, noun.strip_suffix('y')) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) if !noun.contains(' ') => format!("{n} {stem}ies"),
        _ if noun.starts_with("value of ") => format!("{n} values of {}", &noun["value of ".len()..]),
        _ => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "policy"), "1 policy");
        assert_eq!(plural(3, "policy"), "3 policies");
        assert_eq!(plural(2, "replication"), "2 replications");
        assert_eq!(plural(2, "value of Load α"), "2 values of Load α");
    }
}
