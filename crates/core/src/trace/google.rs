//! The Google cluster-data 2011 `task_events` table, reduced to the finished tasks the papers
//! replay (SPEC RES-14).
//!
//! Columns (the schema document of the trace): timestamp (µs), missing info, job ID, task
//! index, machine ID, event type, user, scheduling class, priority, CPU request, memory
//! request, disk request, different-machine restriction. Empty fields are missing values.
//! Event types: 0 SUBMIT, 1 SCHEDULE, 2 EVICT, 3 FAIL, 4 FINISH, 5 KILL, 6 LOST,
//! 7 UPDATE_PENDING, 8 UPDATE_RUNNING.
//!
//! A task is kept when it was scheduled exactly once and then finished, with no EVICT, FAIL,
//! KILL or LOST event; its arrival is its first SUBMIT, its duration FINISH − SCHEDULE, its
//! requests and priority the last ones given before it finished. Tasks submitted at time 0 (they
//! were there before the trace began) and tasks without a CPU or memory request are skipped
//! (RES-14). With a limit, the first that many kept tasks in submit order are returned.
//!
//! Tasks are keyed by (job ID, task index) and held from their first event to their last;
//! what is held per task is a few words.

use std::collections::HashMap;

use super::{Place, Report};
use crate::ConfigError;

/// Columns of a `task_events` line.
pub const FIELDS: usize = 13;
/// The trace marks events after its end with this timestamp (2^63 − 1).
pub const END_OF_TRACE: u64 = i64::MAX as u64;
/// Most tasks open at once (submitted, not yet finished or ended).
pub const MAX_OPEN: usize = 5_000_000;
/// Most finished tasks kept without a limit (about 500 MB); beyond, a limit must be given.
pub const MAX_KEPT: usize = 10_000_000;

const NAMES: [&str; FIELDS] = [
    "timestamp",
    "missing info",
    "job ID",
    "task index",
    "machine ID",
    "event type",
    "user",
    "scheduling class",
    "priority",
    "CPU request",
    "memory request",
    "disk request",
    "different-machine restriction",
];

/// Event types.
pub mod event {
    pub const SUBMIT: u8 = 0;
    pub const SCHEDULE: u8 = 1;
    pub const EVICT: u8 = 2;
    pub const FAIL: u8 = 3;
    pub const FINISH: u8 = 4;
    pub const KILL: u8 = 5;
    pub const LOST: u8 = 6;
    pub const UPDATE_PENDING: u8 = 7;
    pub const UPDATE_RUNNING: u8 = 8;
}

/// A task kept: it finished normally after one schedule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GoogleTask {
    /// First SUBMIT, µs of trace time.
    pub submit_us: u64,
    /// FINISH − SCHEDULE, µs.
    pub duration_us: u64,
    /// Normalised CPU request, [0, 1].
    pub cpu: f64,
    /// Normalised memory request, [0, 1].
    pub memory: f64,
    /// The trace's priority, 0..=11.
    pub priority: u8,
    pub job: u64,
    pub index: u32,
}

impl GoogleTask {
    /// The larger normalised request: the task's size in one-resource models (SPEC 2.5, 4.7).
    pub fn size(&self) -> f64 {
        self.cpu.max(self.memory)
    }
}

/// The bands the trace's documentation groups its 12 priorities into (RES-35).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PriorityBand {
    /// 0–1: free, the lowest.
    Free,
    /// 2–8.
    Normal,
    /// 9–11: production, the highest.
    Production,
}

impl PriorityBand {
    pub const ALL: [PriorityBand; 3] = [PriorityBand::Free, PriorityBand::Normal, PriorityBand::Production];

    pub fn of(priority: u8) -> Self {
        match priority {
            0..=1 => Self::Free,
            2..=8 => Self::Normal,
            _ => Self::Production,
        }
    }

    /// "0–1 (free)".
    pub fn label(self) -> &'static str {
        match self {
            Self::Free => "0–1 (free)",
            Self::Normal => "2–8 (normal)",
            Self::Production => "9–11 (production)",
        }
    }
}

/// The kept tasks, in submit order (ties by job ID, then task index), with the report.
#[derive(Debug, Clone, PartialEq)]
pub struct GoogleTrace {
    pub tasks: Vec<GoogleTask>,
    pub report: Report,
}

impl GoogleTrace {
    /// A hash of the kept tasks: links name a trace by it.
    pub fn fingerprint(&self) -> u64 {
        super::fingerprint(
            self.tasks
                .iter()
                .flat_map(|t| [t.submit_us, t.duration_us, t.cpu.to_bits(), t.memory.to_bits(), u64::from(t.priority)]),
        )
    }

    /// Time from the first submit to the last, µs.
    pub fn span_us(&self) -> u64 {
        match (self.tasks.first(), self.tasks.last()) {
            (Some(a), Some(b)) => b.submit_us - a.submit_us,
            _ => 0,
        }
    }
}

/// One line of the table, as the reader uses it (the other columns are not kept).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    pub time: u64,
    pub job: u64,
    pub index: u32,
    pub kind: u8,
    pub priority: Option<u8>,
    pub cpu: Option<f64>,
    pub memory: Option<f64>,
}

/// Reads events that are already parsed (the synthetic generator's) as [`super::Reader`] reads
/// lines, without the text: what a file of them would give, at a fraction of the cost.
pub struct EventReader {
    parser: GoogleParser,
    report: Report,
}

impl Default for EventReader {
    fn default() -> Self {
        Self::new()
    }
}

impl EventReader {
    pub fn new() -> Self {
        Self { parser: GoogleParser::new(None), report: Report::default() }
    }

    pub fn push(&mut self, event: Event) -> Result<(), ConfigError> {
        self.report.lines += 1;
        self.parser.event(event, &Place::default(), &mut self.report)
    }

    pub fn finish(self) -> Result<GoogleTrace, ConfigError> {
        self.parser.finish(self.report)
    }
}

/// What is known of a task between its first and last event.
#[derive(Debug, Clone, Copy)]
struct Open {
    /// First SUBMIT (None: the files hold no SUBMIT for it).
    submit: Option<u64>,
    schedule: u64,
    schedules: u32,
    cpu: Option<f64>,
    memory: Option<f64>,
    priority: Option<u8>,
    /// An EVICT, FAIL, KILL or LOST was seen: it will not be kept, but its later events must
    /// not count it again.
    ended: bool,
}

pub(crate) struct GoogleParser {
    open: HashMap<(u64, u32), Open>,
    kept: Vec<GoogleTask>,
    limit: Option<usize>,
    /// With a limit: once `limit` tasks are kept, a task submitted after this cannot be among
    /// the first `limit`, so it is not followed.
    cutoff: u64,
}

/// Reasons a task is skipped.
const ENDED: &str = "evicted, failed, killed or lost";
const RESCHEDULED: &str = "scheduled more than once";
const TIME_ZERO: &str = "present when the trace began (time 0)";
const NO_REQUEST: &str = "no CPU or memory request";
const NO_SUBMIT: &str = "no SUBMIT event in the files";
const UNFINISHED: &str = "not finished by the end of the files";
const END: &str = "finished after the trace's end";
const NOT_FIRST: &str = "beyond the first N in submit order";

impl GoogleParser {
    pub(crate) fn new(limit: Option<usize>) -> Self {
        Self { open: HashMap::new(), kept: Vec::new(), limit, cutoff: u64::MAX }
    }

    pub(crate) fn line(&mut self, line: &str, place: &Place, report: &mut Report) -> Result<(), ConfigError> {
        let mut fields = [""; FIELDS];
        let mut count = 0;
        for f in line.split(',') {
            if count < FIELDS {
                fields[count] = f.trim();
            }
            count += 1;
        }
        if count != FIELDS {
            return Err(place.error(format!(
                "{count} columns; a task_events line has {FIELDS} (timestamp, missing info, job ID, task index, \
                 machine ID, event type, user, scheduling class, priority, CPU request, memory request, disk request, \
                 different-machine restriction)"
            )));
        }
        let int = |i: usize, max: u64| -> Result<u64, ConfigError> {
            fields[i]
                .parse::<u64>()
                .ok()
                .filter(|v| *v <= max)
                .ok_or_else(|| place.error(format!("{} '{}' must be an integer in 0..={max}", NAMES[i], fields[i])))
        };
        let request = |i: usize| -> Result<Option<f64>, ConfigError> {
            if fields[i].is_empty() {
                return Ok(None);
            }
            match fields[i].parse::<f64>() {
                Ok(v) if (0.0..=1.0).contains(&v) => Ok(Some(v)),
                _ => Err(place.error(format!(
                    "{} '{}' must be a number in [0, 1] (normalised to the largest machine) or empty",
                    NAMES[i], fields[i]
                ))),
            }
        };
        let time = int(0, END_OF_TRACE)?;
        let job = int(2, u64::MAX)?;
        let index = int(3, u64::from(u32::MAX))? as u32;
        let kind = int(5, 8)? as u8;
        let priority = if fields[8].is_empty() { None } else { Some(int(8, 11)? as u8) };
        let cpu = request(9)?;
        let memory = request(10)?;
        self.event(Event { time, job, index, kind, priority, cpu, memory }, place, report)
    }

    /// One event, parsed or generated.
    pub(crate) fn event(&mut self, event: Event, place: &Place, report: &mut Report) -> Result<(), ConfigError> {
        let Event { time, job, index, kind, priority, cpu, memory } = event;
        let key = (job, index);
        if kind == event::SUBMIT && !self.open.contains_key(&key) {
            if time > self.cutoff {
                report.skip(NOT_FIRST);
                return Ok(());
            }
            if self.open.len() >= MAX_OPEN {
                return Err(place.error(format!(
                    "more than {MAX_OPEN} tasks are open at once; read fewer part files, or pass a limit on the tasks kept"
                )));
            }
            self.open.insert(
                key,
                Open { submit: Some(time), schedule: 0, schedules: 0, cpu, memory, priority, ended: false },
            );
            return Ok(());
        }
        let Some(task) = self.open.get_mut(&key) else {
            // A task first seen after it was submitted: it started before these files, or was
            // cut off above, or was settled already (a later event of a finished task).
            if kind == event::FINISH && time <= self.cutoff {
                report.skip(NO_SUBMIT);
            }
            return Ok(());
        };
        // Requests and priority as last given (UPDATE events change them).
        task.cpu = cpu.or(task.cpu);
        task.memory = memory.or(task.memory);
        task.priority = priority.or(task.priority);
        match kind {
            event::SCHEDULE => {
                task.schedules += 1;
                task.schedule = time;
            }
            event::EVICT | event::FAIL | event::KILL | event::LOST if !task.ended => {
                task.ended = true;
                report.skip(ENDED);
            }
            event::FINISH => {
                let task = self.open.remove(&key).expect("found above");
                if task.ended {
                    return Ok(());
                }
                let reason = match (task.submit, task.cpu, task.memory, task.priority) {
                    _ if task.schedules != 1 => Some(RESCHEDULED),
                    _ if time == END_OF_TRACE => Some(END),
                    (Some(0), ..) => Some(TIME_ZERO),
                    (_, None, ..) | (_, _, None, _) | (.., None) => Some(NO_REQUEST),
                    _ if time < task.schedule => {
                        return Err(place.error(format!(
                            "timestamp {time} of a FINISH is before the task's SCHEDULE at {}; are the files in \
                             time order?",
                            task.schedule
                        )));
                    }
                    _ => None,
                };
                if let Some(reason) = reason {
                    report.skip(reason);
                    return Ok(());
                }
                let (Some(submit), Some(cpu), Some(memory), Some(priority)) =
                    (task.submit, task.cpu, task.memory, task.priority)
                else {
                    unreachable!("checked above")
                };
                if self.limit.is_none() && self.kept.len() == MAX_KEPT {
                    return Err(place.error(format!(
                        "more than {MAX_KEPT} tasks finished normally; keep the first N in submit order (--trace-tasks N)"
                    )));
                }
                self.kept.push(GoogleTask {
                    submit_us: submit,
                    duration_us: time - task.schedule,
                    cpu,
                    memory,
                    priority,
                    job,
                    index,
                });
                self.trim(report, false);
            }
            _ => {}
        }
        Ok(())
    }

    /// With a limit, keeps only the first `limit` tasks in submit order once twice that many
    /// are held (amortised linear), and raises the cutoff. `all` trims down to exactly `limit`.
    fn trim(&mut self, report: &mut Report, all: bool) {
        let Some(limit) = self.limit else { return };
        if self.kept.len() < if all { limit + 1 } else { 2 * limit.max(1) } {
            return;
        }
        let order = |a: &GoogleTask, b: &GoogleTask| (a.submit_us, a.job, a.index).cmp(&(b.submit_us, b.job, b.index));
        if limit > 0 {
            self.kept.select_nth_unstable_by(limit - 1, order);
        }
        for _ in limit..self.kept.len() {
            report.skip(NOT_FIRST);
        }
        self.kept.truncate(limit);
        self.cutoff = self.kept.iter().map(|t| t.submit_us).max().unwrap_or(0);
    }

    pub(crate) fn finish(mut self, mut report: Report) -> Result<GoogleTrace, ConfigError> {
        for task in self.open.values() {
            if !task.ended {
                report.skip(if task.submit.is_some_and(|s| s > self.cutoff) { NOT_FIRST } else { UNFINISHED });
            }
        }
        self.trim(&mut report, true);
        self.kept.sort_by_key(|t| (t.submit_us, t.job, t.index));
        report.kept = self.kept.len() as u64;
        if self.kept.is_empty() {
            return Err(ConfigError::new(
                super::KEY,
                format!("no task of the trace finished normally ({})", report.describe()),
            ));
        }
        Ok(GoogleTrace { tasks: self.kept, report })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Loaded, Reader, read_bytes};

    fn google(text: &str) -> GoogleTrace {
        match read_bytes(text.as_bytes()).unwrap() {
            Loaded::Google(t) => t,
            other => panic!("{other:?}"),
        }
    }

    /// One line: time, job, index, event, priority, cpu, memory.
    fn ev(t: u64, job: u64, i: u32, e: u8, p: &str, cpu: &str, mem: &str) -> String {
        format!("{t},,{job},{i},,{e},user,2,{p},{cpu},{mem},0.0001,0\n")
    }

    #[test]
    fn keeps_finished_tasks_and_counts_the_rest() {
        let mut text = String::new();
        // Kept: submit 10, schedule 12, finish 40 (duration 28); memory updated while pending.
        text += &ev(10, 1, 0, 0, "3", "0.1", "0.05");
        text += &ev(11, 1, 0, 7, "", "", "0.2");
        text += &ev(12, 1, 0, 1, "3", "0.1", "0.2");
        // Evicted then rescheduled and finished: skipped once.
        text += &ev(13, 2, 0, 0, "0", "0.3", "0.3");
        text += &ev(14, 2, 0, 1, "0", "0.3", "0.3");
        text += &ev(15, 2, 0, 2, "0", "0.3", "0.3");
        text += &ev(16, 2, 0, 0, "0", "0.3", "0.3");
        text += &ev(17, 2, 0, 1, "0", "0.3", "0.3");
        // Time 0 task.
        text += &ev(0, 3, 0, 0, "9", "0.1", "0.1");
        text += &ev(18, 3, 0, 1, "9", "0.1", "0.1");
        // No requests.
        text += &ev(19, 4, 5, 0, "1", "", "");
        text += &ev(20, 4, 5, 1, "1", "", "");
        text += &ev(30, 3, 0, 4, "9", "0.1", "0.1");
        text += &ev(31, 4, 5, 4, "1", "", "");
        text += &ev(32, 2, 0, 4, "0", "0.3", "0.3");
        text += &ev(40, 1, 0, 4, "3", "0.1", "0.2");
        // A finish with no submit in the files, and a task still running at the end.
        text += &ev(41, 9, 0, 4, "3", "0.1", "0.2");
        text += &ev(42, 5, 0, 0, "3", "0.1", "0.2");
        let t = google(&text);
        assert_eq!(
            t.tasks,
            [GoogleTask { submit_us: 10, duration_us: 28, cpu: 0.1, memory: 0.2, priority: 3, job: 1, index: 0 }]
        );
        assert_eq!(t.report.kept, 1);
        assert_eq!(
            t.report.skipped,
            [(ENDED, 1), (TIME_ZERO, 1), (NO_REQUEST, 1), (NO_SUBMIT, 1), (UNFINISHED, 1)],
            "{}",
            t.report.describe()
        );
    }

    #[test]
    fn a_limit_keeps_the_first_in_submit_order() {
        // Tasks finish in reverse order of submission.
        let mut text = String::new();
        for j in 0..10 {
            text += &ev(100 + j, j, 0, 0, "1", "0.1", "0.1");
            text += &ev(200 + j, j, 0, 1, "1", "0.1", "0.1");
        }
        for j in (0..10).rev() {
            text += &ev(400 - j, j, 0, 4, "1", "0.1", "0.1");
        }
        let mut r = Reader::new().first(3);
        r.push(text.as_bytes()).unwrap();
        let Loaded::Google(t) = r.finish().unwrap() else { panic!() };
        assert_eq!(t.tasks.iter().map(|t| t.job).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(t.report.skipped, [(NOT_FIRST, 7)]);
        assert_eq!(google(&text).tasks.len(), 10);
    }

    #[test]
    fn bad_fields_name_line_and_column() {
        let good = ev(10, 1, 0, 0, "3", "0.1", "0.05");
        for (line, needle) in [
            ("1,2,3\n", "line 2: 3 columns; a task_events line has 13"),
            ("x,,1,0,,0,u,2,3,0.1,0.1,0,0\n", "line 2: timestamp 'x' must be an integer"),
            ("-5,,1,0,,0,u,2,3,0.1,0.1,0,0\n", "line 2: timestamp '-5'"),
            ("5,,1,0,,9,u,2,3,0.1,0.1,0,0\n", "line 2: event type '9' must be an integer in 0..=8"),
            ("5,,1,0,,0,u,2,12,0.1,0.1,0,0\n", "line 2: priority '12' must be an integer in 0..=11"),
            ("5,,1,0,,0,u,2,3,NaN,0.1,0,0\n", "line 2: CPU request 'NaN' must be a number in [0, 1]"),
            ("5,,1,0,,0,u,2,3,0.1,-0.1,0,0\n", "line 2: memory request '-0.1'"),
            ("5,,1,0,,0,u,2,3,0.1,0.1,0,0,7\n", "line 2: 14 columns"),
        ] {
            let e = read_bytes(format!("{good}{line}").as_bytes()).unwrap_err();
            assert_eq!(e.key, "trace");
            assert!(e.message.contains(needle), "{line:?}: {e}");
        }
        let e = read_bytes(
            format!("{good}{}", ev(5, 1, 0, 1, "3", "0.1", "0.1") + ev(4, 1, 0, 4, "3", "", "").as_str()).as_bytes(),
        )
        .unwrap_err();
        assert!(e.message.contains("line 3: timestamp 4 of a FINISH is before the task's SCHEDULE at 5"), "{e}");
    }
}
