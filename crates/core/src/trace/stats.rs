//! What a trace holds, for `packlab trace stats` and the page's summary: counts, span, the
//! size (Google, task CSV) or processor (SWF) distribution, the offered load, and for SWF its
//! jobs grouped by processors (a class table: a need, its share of the jobs and its mean run
//! time relative to the log's).

use serde::Serialize;

use super::google::{GoogleTrace, PriorityBand};
use super::swf::SwfLog;
use super::tasks::TaskTable;
use super::{Loaded, Report};

/// One bar of a histogram: its label ("(1/4, 1/2]", "5–8") and count.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bar {
    pub label: String,
    pub count: u64,
}

/// One class of the fitted table: a need, its share of the jobs, its mean run time in units
/// of the log's mean run time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FittedClass {
    pub need: u32,
    pub probability: f64,
    pub mean_size: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TraceStats {
    pub format: &'static str,
    pub fingerprint: String,
    pub lines: u64,
    pub kept: u64,
    pub skipped: Vec<(String, u64)>,
    /// SWF: job lines out of submit order (sorted on reading; [`super::OUT_OF_ORDER`] says it).
    pub out_of_order: u64,
    /// The unit of the times below: "s", or "time units" for a task CSV (whose times are the
    /// simulation's).
    pub time_unit: &'static str,
    /// First to last arrival, seconds.
    pub span_seconds: f64,
    /// Arrivals per second over the span.
    pub per_second: f64,
    /// Mean run time, seconds.
    pub mean_run_seconds: f64,
    /// Google: mean size max(CPU, memory); SWF: mean processors.
    pub mean_size: f64,
    /// Google: sizes by power of 1/2; SWF: processors by power of 2.
    pub histogram: Vec<Bar>,
    /// Google and task CSVs: priorities in the trace's bands 0–1, 2–8, 9–11.
    pub priorities: Vec<Bar>,
    /// The servers the load is offered to (Google: given; SWF: given or MaxProcs).
    pub servers: Option<u64>,
    /// Σ size × run time / (servers × span).
    pub offered_load: Option<f64>,
    /// SWF: the jobs grouped by processors (capped at the servers), and the arrival rate in
    /// jobs per mean run time (the arrival rate λ for that table, its time unit the mean run).
    pub classes: Vec<FittedClass>,
    pub lambda_per_mean_run: Option<f64>,
}

/// Most classes the fit keeps one need each for; beyond, needs are rounded up to powers of two.
pub const MAX_FITTED: usize = 64;

pub fn stats(loaded: &Loaded, servers: Option<u64>) -> TraceStats {
    match loaded {
        Loaded::Google(t) => google(t, servers),
        Loaded::Swf(l) => swf(l, servers),
        Loaded::TaskCsv(t) => task_csv(t, servers),
    }
}

fn base(format: &'static str, fingerprint: u64, report: &Report) -> TraceStats {
    TraceStats {
        format,
        fingerprint: format!("{fingerprint:016x}"),
        lines: report.lines,
        kept: report.kept,
        skipped: report.skipped.iter().map(|(r, n)| (r.to_string(), *n)).collect(),
        out_of_order: report.out_of_order,
        time_unit: "s",
        span_seconds: 0.0,
        per_second: 0.0,
        mean_run_seconds: 0.0,
        mean_size: 0.0,
        histogram: Vec::new(),
        priorities: Vec::new(),
        servers: None,
        offered_load: None,
        classes: Vec::new(),
        lambda_per_mean_run: None,
    }
}

/// The m of the smallest 2^−m ≥ max(size, 2^−10): sizes by powers of 1/2, as
/// `(1/2, 1], (1/4, 1/2], …, [0, 1/1024]`.
fn size_class(size: f64) -> usize {
    (0..=10).rev().find(|&m| libm::ldexp(1.0, -m) >= size).unwrap_or(0) as usize
}

/// The histogram of sizes by power of 1/2.
fn size_histogram(sizes: impl Iterator<Item = f64>) -> Vec<Bar> {
    let mut counts = [0u64; 11];
    for size in sizes {
        counts[size_class(size)] += 1;
    }
    counts
        .iter()
        .enumerate()
        .map(|(m, &count)| Bar {
            label: match m {
                0 => "(1/2, 1]".to_string(),
                10 => "[0, 1/1024]".to_string(),
                _ => format!("(1/{}, 1/{}]", 1u64 << (m + 1), 1u64 << m),
            },
            count,
        })
        .collect()
}

/// The counts of priorities by the trace's bands.
fn priority_bands(priorities: impl Iterator<Item = u8>) -> Vec<Bar> {
    let mut groups = [0u64; 3];
    for p in priorities {
        groups[PriorityBand::ALL.iter().position(|b| *b == PriorityBand::of(p)).expect("every band is listed")] += 1;
    }
    PriorityBand::ALL.iter().zip(groups).map(|(band, count)| Bar { label: band.label().to_string(), count }).collect()
}

fn google(t: &GoogleTrace, servers: Option<u64>) -> TraceStats {
    let mut s = base(super::Format::Google.name(), t.fingerprint(), &t.report);
    let n = t.tasks.len() as f64;
    s.span_seconds = t.span_us() as f64 / 1e6;
    s.per_second = if s.span_seconds > 0.0 { n / s.span_seconds } else { 0.0 };
    s.mean_run_seconds = t.tasks.iter().map(|t| t.duration_us as f64).sum::<f64>() / n / 1e6;
    s.mean_size = t.tasks.iter().map(|t| t.size()).sum::<f64>() / n;
    s.histogram = size_histogram(t.tasks.iter().map(|t| t.size()));
    s.priorities = priority_bands(t.tasks.iter().map(|t| t.priority));
    if let Some(l) = servers {
        let work: f64 = t.tasks.iter().map(|t| t.size() * t.duration_us as f64 / 1e6).sum();
        s.servers = Some(l);
        s.offered_load = (s.span_seconds > 0.0).then(|| work / (l as f64 * s.span_seconds));
    }
    s
}

/// A task CSV: counts, span, sizes, priorities and load, in the simulation's time units.
fn task_csv(t: &TaskTable, servers: Option<u64>) -> TraceStats {
    let report = Report { kept: t.len() as u64, lines: t.len() as u64, ..Report::default() };
    let mut s = base(super::Format::TaskCsv.name(), t.fingerprint(), &report);
    s.time_unit = "time units";
    let n = t.len().max(1) as f64;
    let first = t.tasks.iter().map(|t| t.submit).fold(f64::INFINITY, f64::min);
    let last = t.tasks.iter().map(|t| t.submit).fold(f64::NEG_INFINITY, f64::max);
    s.span_seconds = if t.is_empty() { 0.0 } else { last - first };
    s.per_second = if s.span_seconds > 0.0 { t.len() as f64 / s.span_seconds } else { 0.0 };
    s.mean_run_seconds = t.tasks.iter().map(|task| task.duration).sum::<f64>() / n;
    s.mean_size = t.tasks.iter().map(|task| task.size).sum::<f64>() / n;
    s.histogram = size_histogram(t.tasks.iter().map(|task| task.size));
    s.priorities = priority_bands(t.tasks.iter().map(|task| task.priority));
    if let Some(l) = servers {
        let work: f64 = t.tasks.iter().map(|task| task.size * task.duration).sum();
        s.servers = Some(l);
        s.offered_load = (s.span_seconds > 0.0).then(|| work / (l as f64 * s.span_seconds));
    }
    s
}

fn swf(log: &SwfLog, servers: Option<u64>) -> TraceStats {
    let mut s = base(super::Format::Swf.name(), log.fingerprint(), &log.report);
    let n = log.jobs.len() as f64;
    let machine = servers.unwrap_or(u64::from(log.machine()));
    s.span_seconds = log.span();
    s.per_second = if s.span_seconds > 0.0 { n / s.span_seconds } else { 0.0 };
    s.mean_run_seconds = log.jobs.iter().map(|j| j.run_time).sum::<f64>() / n;
    s.mean_size = log.jobs.iter().map(|j| f64::from(j.processors)).sum::<f64>() / n;
    // 1, 2, 3–4, 5–8, …
    let top = log.jobs.iter().map(|j| j.processors).max().unwrap_or(1);
    let buckets = (32 - (top - 1).leading_zeros()) as usize + 1;
    let mut counts = vec![0u64; buckets];
    for job in &log.jobs {
        counts[(32 - (job.processors - 1).leading_zeros()) as usize] += 1;
    }
    s.histogram = counts
        .iter()
        .enumerate()
        .map(|(b, &count)| Bar {
            label: match b {
                0 => "1".to_string(),
                1 => "2".to_string(),
                _ => format!("{}–{}", (1u64 << (b - 1)) + 1, 1u64 << b),
            },
            count,
        })
        .collect();
    let work: f64 = log.jobs.iter().map(|j| f64::from(j.processors.min(machine as u32)) * j.run_time).sum();
    s.servers = Some(machine);
    s.offered_load = (s.span_seconds > 0.0).then(|| work / (machine as f64 * s.span_seconds));
    s.classes = fit_classes(log, machine as u32);
    s.lambda_per_mean_run =
        (s.span_seconds > 0.0 && s.mean_run_seconds > 0.0).then_some(s.per_second * s.mean_run_seconds);
    s
}

/// The log's jobs grouped by processors: one class per need (capped at `cores`), or per power
/// of two when there are more than [`MAX_FITTED`] needs; mean sizes relative to the log's mean
/// run time, so the table has mean size 1 over the jobs.
pub fn fit_classes(log: &SwfLog, cores: u32) -> Vec<FittedClass> {
    let need = need_rule(log, cores);
    let mut by_need = std::collections::BTreeMap::new();
    for job in &log.jobs {
        let entry = by_need.entry(need(job.processors)).or_insert((0u64, 0f64));
        entry.0 += 1;
        entry.1 += job.run_time;
    }
    let n = log.jobs.len() as f64;
    let mean_run = mean_run(log);
    by_need
        .into_iter()
        .map(|(need, (count, run))| FittedClass {
            need,
            probability: count as f64 / n,
            // A class whose jobs all ran 0 s gets the smallest size the table accepts.
            mean_size: if mean_run > 0.0 { (run / count as f64 / mean_run).max(1e-6) } else { 1.0 },
        })
        .collect()
}

/// The class need of a job of `processors`: capped at `cores`, and rounded up to a power of two
/// (at most `cores`) when the log has more than [`MAX_FITTED`] distinct capped needs.
pub fn need_rule(log: &SwfLog, cores: u32) -> impl Fn(u32) -> u32 + use<> {
    let cores = cores.max(1);
    let distinct: std::collections::BTreeSet<u32> = log.jobs.iter().map(|j| j.processors.min(cores)).collect();
    let round = distinct.len() > MAX_FITTED;
    move |processors| {
        let need = processors.min(cores);
        if round { need.next_power_of_two().min(cores) } else { need }
    }
}

/// The log's mean run time, seconds.
pub fn mean_run(log: &SwfLog) -> f64 {
    log.jobs.iter().map(|j| j.run_time).sum::<f64>() / log.jobs.len().max(1) as f64
}

/// The fitted classes as a CSV of need, probability, mean_size (what `packlab run
/// --classes-file` and the page's class upload read).
pub fn classes_csv(classes: &[FittedClass]) -> String {
    let mut text = String::from("need,probability,mean_size\n");
    for c in classes {
        text.push_str(&format!("{},{},{}\n", c.need, c.probability, c.mean_size));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::msfq::JobClasses;
    use crate::trace::read_bytes;
    use crate::trace::synth::SwfSynth;

    #[test]
    fn swf_stats_fit_a_table_msfq_reads() {
        let mut text = Vec::new();
        SwfSynth::new(3000, 2).write(&mut text).unwrap();
        let loaded = read_bytes(&text).unwrap();
        let s = stats(&loaded, None);
        assert_eq!(s.servers, Some(128));
        assert_eq!(s.histogram.iter().map(|b| b.count).sum::<u64>(), s.kept);
        assert_eq!(s.histogram.last().unwrap().label, "65–128");
        let classes = JobClasses::from_csv(&classes_csv(&s.classes)).unwrap();
        assert!(classes.as_slice().iter().all(|c| (1..=128).contains(&c.need)));
        let p: f64 = s.classes.iter().map(|c| c.probability).sum();
        assert!((p - 1.0).abs() < 1e-9);
        // Mean size 1 over the jobs: Σ p_i·m_i = 1.
        let m: f64 = s.classes.iter().map(|c| c.probability * c.mean_size).sum();
        assert!((m - 1.0).abs() < 1e-9, "{m}");
        // Capped at 16 cores: no need above 16, and more than 64 needs round to powers of two.
        let capped = stats(&loaded, Some(16));
        assert_eq!(capped.classes.last().unwrap().need, 16);
    }
}
