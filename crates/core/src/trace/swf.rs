//! The Standard Workload Format of the Parallel Workloads Archive (Feitelson et al., version 2.2).
//!
//! Header lines start with `;` and may carry `; Keyword: value` pairs, of which `MaxProcs` (or
//! else `MaxNodes`) gives the machine's size. Every other line is one job of 18
//! whitespace-separated fields, `-1` for unknown: 1 job number, 2 submit time (s), 3 wait time,
//! 4 run time (s), 5 allocated processors, 6 average CPU time, 7 used memory, 8 requested
//! processors, 9 requested time, 10 requested memory, 11 status, 12 user, 13 group,
//! 14 executable, 15 queue, 16 partition, 17 preceding job, 18 think time.
//!
//! A job's need is its allocated processors, or its requested ones when the allocation is
//! unknown; its service is its run time. Jobs with an unknown run time, unknown processors or
//! zero processors are skipped and counted. Jobs of every status are kept: the run time is what
//! they held the machine for, whatever their outcome.

use super::{Place, Report};
use crate::ConfigError;

/// Fields of a job line.
pub const FIELDS: usize = 18;
/// Most jobs a log may hold.
pub const MAX_JOBS: usize = 20_000_000;

const NAMES: [&str; FIELDS] = [
    "job number",
    "submit time",
    "wait time",
    "run time",
    "allocated processors",
    "average CPU time",
    "used memory",
    "requested processors",
    "requested time",
    "requested memory",
    "status",
    "user ID",
    "group ID",
    "executable number",
    "queue number",
    "partition number",
    "preceding job",
    "think time",
];

/// One job kept.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SwfJob {
    /// Seconds from the log's start.
    pub submit: f64,
    /// Seconds.
    pub run_time: f64,
    /// Processors held.
    pub processors: u32,
}

/// A log: its jobs in submit order and what its header says.
#[derive(Debug, Clone, PartialEq)]
pub struct SwfLog {
    pub jobs: Vec<SwfJob>,
    /// `MaxProcs` (else `MaxNodes`) from the header.
    pub max_procs: Option<u32>,
    pub report: Report,
}

impl SwfLog {
    pub fn fingerprint(&self) -> u64 {
        super::fingerprint(
            self.jobs.iter().flat_map(|j| [j.submit.to_bits(), j.run_time.to_bits(), u64::from(j.processors)]),
        )
    }

    /// From the first submit to the last, seconds.
    pub fn span(&self) -> f64 {
        match (self.jobs.first(), self.jobs.last()) {
            (Some(a), Some(b)) => b.submit - a.submit,
            _ => 0.0,
        }
    }

    /// The machine size: the header's, else the largest job's.
    pub fn machine(&self) -> u32 {
        self.max_procs.unwrap_or_else(|| self.jobs.iter().map(|j| j.processors).max().unwrap_or(1))
    }

    /// Offered load: Σ processors × run time over (machine × span).
    pub fn offered_load(&self) -> f64 {
        let work: f64 = self.jobs.iter().map(|j| f64::from(j.processors) * j.run_time).sum();
        let span = self.span();
        if span > 0.0 { work / (f64::from(self.machine()) * span) } else { f64::INFINITY }
    }
}

const UNKNOWN_RUN_TIME: &str = "unknown run time";
const UNKNOWN_PROCESSORS: &str = "unknown processors";
const ZERO_PROCESSORS: &str = "zero processors";

pub(crate) struct SwfParser {
    jobs: Vec<SwfJob>,
    max_procs: Option<u32>,
    max_nodes: Option<u32>,
    /// Whether a job line has been read (header values after it are ignored).
    started: bool,
}

impl SwfParser {
    pub(crate) fn new() -> Self {
        Self { jobs: Vec::new(), max_procs: None, max_nodes: None, started: false }
    }

    pub(crate) fn line(&mut self, line: &str, place: &Place, report: &mut Report) -> Result<(), ConfigError> {
        if let Some(comment) = line.trim_start().strip_prefix(';') {
            if let Some((key, value)) = comment.split_once(':')
                && !self.started
            {
                let slot = match key.trim() {
                    "MaxProcs" => &mut self.max_procs,
                    "MaxNodes" => &mut self.max_nodes,
                    _ => return Ok(()),
                };
                let v = value.trim().parse::<u32>().ok().filter(|v| *v > 0).ok_or_else(|| {
                    place.error(format!("{} '{}' must be a whole number ≥ 1", key.trim(), value.trim()))
                })?;
                *slot = Some(v);
            }
            return Ok(());
        }
        self.started = true;
        let mut fields = [""; FIELDS];
        let mut count = 0;
        for f in line.split_whitespace() {
            if count < FIELDS {
                fields[count] = f;
            }
            count += 1;
        }
        if count != FIELDS {
            return Err(place.error(format!("{count} fields; an SWF job line has {FIELDS}, separated by spaces")));
        }
        // Every field is a number; -1 means unknown, and other negatives are errors.
        let mut values = [0f64; FIELDS];
        for (i, text) in fields.iter().enumerate() {
            values[i] = match text.parse::<f64>() {
                Ok(v) if v.is_finite() && (v >= 0.0 || v == -1.0) => v,
                _ => {
                    return Err(place.error(format!(
                        "field {} ({}) '{text}' must be a number ≥ 0, or -1 for unknown",
                        i + 1,
                        NAMES[i]
                    )));
                }
            };
        }
        let (submit, run_time) = (values[1], values[3]);
        if submit < 0.0 {
            return Err(place.error(format!("field 2 (submit time) '{}' is unknown; every job needs one", fields[1])));
        }
        let processors = if values[4] >= 0.0 { values[4] } else { values[7] };
        let reason = if run_time < 0.0 {
            Some(UNKNOWN_RUN_TIME)
        } else if processors < 0.0 {
            Some(UNKNOWN_PROCESSORS)
        } else if processors < 1.0 {
            Some(ZERO_PROCESSORS)
        } else {
            None
        };
        if let Some(reason) = reason {
            report.skip(reason);
            return Ok(());
        }
        if processors.fract() != 0.0 || processors > f64::from(u32::MAX) {
            let i = if values[4] >= 0.0 { 4 } else { 7 };
            return Err(place.error(format!(
                "field {} ({}) '{}' must be a whole number of processors",
                i + 1,
                NAMES[i],
                fields[i]
            )));
        }
        if self.jobs.len() == MAX_JOBS {
            return Err(place.error(format!("more than {MAX_JOBS} jobs; cut the log")));
        }
        self.jobs.push(SwfJob { submit, run_time, processors: processors as u32 });
        Ok(())
    }

    pub(crate) fn finish(mut self, mut report: Report) -> Result<SwfLog, ConfigError> {
        // Logs are in submit order nearly always; a stable sort keeps file order on ties.
        self.jobs.sort_by(|a, b| a.submit.total_cmp(&b.submit));
        report.kept = self.jobs.len() as u64;
        if self.jobs.is_empty() {
            return Err(ConfigError::new(super::KEY, format!("the log holds no usable job ({})", report.describe())));
        }
        Ok(SwfLog { jobs: self.jobs, max_procs: self.max_procs.or(self.max_nodes), report })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Loaded, read_bytes};

    fn swf(text: &str) -> SwfLog {
        match read_bytes(text.as_bytes()).unwrap() {
            Loaded::Swf(l) => l,
            other => panic!("{other:?}"),
        }
    }

    fn job(n: u32, submit: &str, run: &str, alloc: &str, req: &str) -> String {
        format!("{n} {submit} 0 {run} {alloc} -1 -1 {req} 3600 -1 1 3 1 -1 1 -1 -1 -1\n")
    }

    #[test]
    fn reads_jobs_and_counts_the_unknown() {
        let mut text = String::from("; Version: 2.2\n;   MaxProcs: 128\n; MaxNodes: 64\n;\n");
        text += &job(1, "0", "100", "4", "4");
        text += &job(2, "10", "-1", "8", "8");
        text += &job(3, "20", "50", "-1", "16");
        text += &job(4, "30", "50", "-1", "-1");
        text += &job(5, "25", "7.5", "0", "2");
        text += "; a comment between jobs\n";
        text += &job(6, "40", "0", "1", "-1");
        let log = swf(&text);
        assert_eq!(log.max_procs, Some(128));
        assert_eq!(
            log.jobs,
            [
                SwfJob { submit: 0.0, run_time: 100.0, processors: 4 },
                SwfJob { submit: 20.0, run_time: 50.0, processors: 16 },
                SwfJob { submit: 40.0, run_time: 0.0, processors: 1 },
            ]
        );
        assert_eq!(log.report.skipped, [(UNKNOWN_RUN_TIME, 1), (UNKNOWN_PROCESSORS, 1), (ZERO_PROCESSORS, 1)]);
        assert_eq!(log.report.kept, 3);
        assert_eq!(log.report.lines, 11);
        assert_eq!(log.span(), 40.0);
        assert!((log.offered_load() - (400.0 + 800.0) / (128.0 * 40.0)).abs() < 1e-12);
    }

    #[test]
    fn bad_fields_are_named() {
        for (text, needle) in [
            ("; MaxProcs: 4\n1 2 3\n", "line 2: 3 fields; an SWF job line has 18"),
            ("; MaxProcs: lots\n", "line 1: MaxProcs 'lots' must be a whole number"),
            (&job(1, "0", "-5", "4", "4"), "line 1: field 4 (run time) '-5' must be a number ≥ 0, or -1"),
            (&job(1, "0", "NaN", "4", "4"), "field 4 (run time) 'NaN'"),
            (&job(1, "-1", "5", "4", "4"), "field 2 (submit time) '-1' is unknown"),
            (&job(1, "0", "5", "2.5", "4"), "field 5 (allocated processors) '2.5' must be a whole number"),
            (&job(1, "0", "-1", "4", "4"), "no usable job (kept 0; skipped 1 (unknown run time 1))"),
        ] {
            let e = read_bytes(text.as_bytes()).unwrap_err();
            assert!(e.message.contains(needle), "{text:?}: {e}");
        }
    }
}
