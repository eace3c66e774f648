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
//! unknown; its service is its run time. What is kept, by status (field 11):
//!
//! * 1 (completed), 0 (failed), -1 (unknown): kept. The run time is what the job held the
//!   machine for, whatever its outcome.
//! * 5 (cancelled): kept when its run time is above 0, since it ran until cancelled. With run
//!   time 0 it is skipped and counted: it held no processor, and replayed it would still wait
//!   in the queue for all of its processors at once, holding up the jobs behind it, for work
//!   it never did. (A run time of 0 with status 0 or 1 is a job that ran under half a second,
//!   the log's rounding, and is kept.) With run time -1 it is skipped as any unknown run time.
//! * 2, 3, 4 (a partial execution of a checkpointed or swapped job: to be continued, last and
//!   completed, last and failed): skipped and counted. Such a job also has one whole-job line
//!   of status 0, 1 or 5 and the same job number, carrying its total run time; that line is
//!   the job, and keeping its parts too would count it, and its work, twice or more.
//!
//! Jobs with an unknown run time, unknown processors or zero processors are skipped and
//! counted. A log whose machine or job is wider than [`MAX_CORES`] processors is refused (no
//! scenario has more cores, so nothing fitted to it could run); other values outside the
//! format's ranges are refused too, with the line and field named. Jobs are sorted by submit
//! time, and the lines that were out of that order are counted ([`Report::out_of_order`]).

use super::{Place, Report};
use crate::ConfigError;
use crate::limits::MAX_CORES;

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

// Reasons a line is skipped, as `trace stats` and the page print them.
const UNKNOWN_RUN_TIME: &str = "unknown run time";
const UNKNOWN_PROCESSORS: &str = "unknown processors";
const ZERO_PROCESSORS: &str = "zero processors";
const PARTIAL: &str = "partial-execution line (status 2, 3 or 4)";
const CANCELLED_UNRUN: &str = "cancelled with run time 0";

/// Field 11's values: whole jobs, then a checkpointed job's partial executions.
const CANCELLED: f64 = 5.0;
const PARTIALS: [f64; 3] = [2.0, 3.0, 4.0];
const STATUSES: &str = "0 (failed), 1 (completed), 5 (cancelled), 2, 3 or 4 (a partial execution), or -1 (unknown)";

/// The message for processors beyond [`MAX_CORES`] (a field, a header value, a flag).
pub fn too_wide(what: impl std::fmt::Display) -> String {
    format!("{what} must be in 1..={MAX_CORES} (the most cores a scenario has)")
}

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
                if v > MAX_CORES {
                    return Err(place.error(too_wide(format_args!("{} '{}'", key.trim(), value.trim()))));
                }
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
        let (submit, run_time, status) = (values[1], values[3], values[10]);
        if submit < 0.0 {
            return Err(place.error(format!("field 2 (submit time) '{}' is unknown; every job needs one", fields[1])));
        }
        if !(status == -1.0 || (status.fract() == 0.0 && status <= CANCELLED)) {
            return Err(place.error(format!("field 11 (status) '{}' must be {STATUSES}", fields[10])));
        }
        let processors = if values[4] >= 0.0 { values[4] } else { values[7] };
        // The parts of a checkpointed job go first: whatever they hold, the whole-job line is
        // the job.
        let reason = if PARTIALS.contains(&status) {
            Some(PARTIAL)
        } else if run_time < 0.0 {
            Some(UNKNOWN_RUN_TIME)
        } else if status == CANCELLED && run_time == 0.0 {
            Some(CANCELLED_UNRUN)
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
        let i = if values[4] >= 0.0 { 4 } else { 7 };
        if processors.fract() != 0.0 {
            return Err(place.error(format!(
                "field {} ({}) '{}' must be a whole number of processors",
                i + 1,
                NAMES[i],
                fields[i]
            )));
        }
        // RES-56: refused rather than skipped or capped: the widest jobs carry much of a log's
        // work, and a log that holds one is of a machine wider than any scenario.
        if processors > f64::from(MAX_CORES) {
            return Err(place.error(too_wide(format_args!("field {} ({}) '{}'", i + 1, NAMES[i], fields[i]))));
        }
        if self.jobs.len() == MAX_JOBS {
            return Err(place.error(format!("more than {MAX_JOBS} jobs; cut the log")));
        }
        self.jobs.push(SwfJob { submit, run_time, processors: processors as u32 });
        Ok(())
    }

    pub(crate) fn finish(mut self, mut report: Report) -> Result<SwfLog, ConfigError> {
        // Logs are in submit order nearly always; a stable sort keeps file order on ties. A job
        // submitted before the job kept above it counts as out of order (a count of breaks,
        // so one late line is one, not every line after it).
        report.out_of_order = self.jobs.windows(2).filter(|w| w[1].submit < w[0].submit).count() as u64;
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

    /// A job line of `status`.
    fn with_status(n: u32, submit: &str, run: &str, procs: &str, status: &str) -> String {
        format!("{n} {submit} 0 {run} {procs} -1 -1 {procs} 3600 -1 {status} 3 1 -1 1 -1 -1 -1\n")
    }

    #[test]
    fn checkpointed_jobs_count_once() {
        // Job 1 ran in three parts (two to be continued, the last completed), job 2 in two (the
        // last failed); each has its whole-job line first, status 1 or 0, with the total run time.
        let mut text = String::from("; MaxProcs: 64\n");
        text += &with_status(1, "0", "300", "8", "1");
        text += &with_status(1, "0", "100", "8", "2");
        text += &with_status(1, "0", "120", "8", "2");
        text += &with_status(1, "0", "80", "8", "3");
        text += &with_status(2, "10", "50", "4", "0");
        text += &with_status(2, "10", "20", "4", "2");
        text += &with_status(2, "10", "30", "4", "4");
        // Cancelled before it ran: no time on the machine, so no job for a scheduler to place.
        text += &with_status(3, "20", "0", "16", "5");
        // Cancelled while running: it held its processors for 40 s.
        text += &with_status(4, "30", "40", "2", "5");
        // Completed within half a second (run times are rounded): it ran.
        text += &with_status(5, "40", "0", "1", "1");
        let log = swf(&text);
        assert_eq!(
            log.jobs,
            [
                SwfJob { submit: 0.0, run_time: 300.0, processors: 8 },
                SwfJob { submit: 10.0, run_time: 50.0, processors: 4 },
                SwfJob { submit: 30.0, run_time: 40.0, processors: 2 },
                SwfJob { submit: 40.0, run_time: 0.0, processors: 1 },
            ]
        );
        assert_eq!(
            log.report.describe(),
            "kept 4; skipped 6 (partial-execution line (status 2, 3 or 4) 5, cancelled with run time 0 1)"
        );
        // The work is the whole jobs', once.
        assert!((log.offered_load() - (2400.0 + 200.0 + 80.0) / (64.0 * 40.0)).abs() < 1e-12);
    }

    #[test]
    fn lines_out_of_submit_order_are_sorted_and_counted() {
        let mut text = String::new();
        for (n, submit) in [(1, "0"), (3, "30"), (2, "20"), (4, "40"), (6, "60"), (5, "50"), (7, "5")] {
            text += &job(n, submit, "10", "1", "1");
        }
        let log = swf(&text);
        let submits: Vec<f64> = log.jobs.iter().map(|j| j.submit).collect();
        assert_eq!(submits, [0.0, 5.0, 20.0, 30.0, 40.0, 50.0, 60.0]);
        // Three lines are earlier than the line before them: jobs 2, 5 and 7.
        assert_eq!(log.report.describe(), "kept 7; sorted 3 out of submit order");
    }

    #[test]
    fn processors_beyond_the_largest_machine_are_refused() {
        let most = crate::limits::MAX_CORES;
        let log = swf(&job(1, "0", "10", &most.to_string(), "-1"));
        assert_eq!(log.machine(), most);
        let over = (most + 1).to_string();
        let range = format!("must be in 1..={most} (the most cores a scenario has)");
        for (text, needle) in [
            (job(1, "0", "10", &over, "4"), format!("line 1: field 5 (allocated processors) '{over}' {range}")),
            (job(1, "0", "10", "-1", "4294967295"), format!("field 8 (requested processors) '4294967295' {range}")),
            (
                format!("; MaxProcs: {over}\n{}", job(1, "0", "10", "4", "4")),
                format!("line 1: MaxProcs '{over}' {range}"),
            ),
            (
                format!("; MaxNodes: {over}\n{}", job(1, "0", "10", "4", "4")),
                format!("line 1: MaxNodes '{over}' {range}"),
            ),
        ] {
            let e = read_bytes(text.as_bytes()).unwrap_err();
            assert!(e.message.contains(&needle), "{text:?}: {e}");
        }
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
            (&with_status(1, "0", "5", "4", "7"), "line 1: field 11 (status) '7' must be 0 (failed), 1 (completed), 5"),
            (&with_status(1, "0", "5", "4", "1.5"), "field 11 (status) '1.5' must be"),
        ] {
            let e = read_bytes(text.as_bytes()).unwrap_err();
            assert!(e.message.contains(needle), "{text:?}: {e}");
        }
    }
}
