//! What a policy decided and why, with the numbers it looked at: the page's event log and
//! decision inspector, and `packlab run --events`.
//!
//! Every engine records a [`Decision`] where it applies one (a start, an admission, a
//! rejection, a migration, a phase change), with what the engine itself knows (the job, the
//! server, the room before and after). The policy adds what only it knows, the candidates it
//! compared and the winner's margin, through its context's `note` before it hands the decision
//! over; those notes are attached to the next decision recorded.
//!
//! The log is off unless the run was started to keep one ([`crate::view::Watch::log`]): then
//! `explaining()` is false, no policy formats a note and no record is made, so batch runs pay
//! one branch per decision. Recording never changes the trajectory (it draws no random number
//! and decides nothing); `crates/core/tests/determinism.rs` checks it for every policy.

use std::collections::VecDeque;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

/// One decision of a policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// Its number in the run, from 1: decisions of one lane in the order they were made.
    pub seq: u64,
    /// When it was made (the slot, in slotted time).
    pub time: f64,
    /// What kind: `start`, `admit`, `reject`, `migrate`, `preempt`, `dummy`, `phase`, …
    #[serde(deserialize_with = "crate::interned::static_str")]
    pub action: crate::interned::Word,
    /// The job decided on. Job ids are the same in every lane of a race (common random
    /// numbers), so one job's decisions can be set side by side.
    pub job: Option<u64>,
    pub server: Option<u32>,
    /// Where a moved job came from (PG-AS's migrations).
    pub from: Option<u32>,
    /// The job's bin (size class, class, type: the page's colours and bins).
    pub bin: Option<u16>,
    /// What happened, for people: "job 4396 (size 0.40) → server 3".
    pub what: String,
    /// The rule that made it: "best fit: the fullest server where it fits".
    pub why: String,
    /// What the policy looked at, with the numbers, in the order it looked.
    pub facts: Vec<Fact>,
}

/// The columns of a decision log as CSV (`packlab run --events`, the page's export).
pub const CSV_HEADER: [&str; 11] =
    ["policy", "seq", "time", "action", "job", "server", "from", "bin", "what", "why", "facts"];

impl Decision {
    /// This decision as a CSV row of [`CSV_HEADER`], made by `policy`; `bins` names the bins.
    /// Servers are numbered from 1, as everything people read numbers them.
    pub fn csv_fields(&self, policy: &str, bins: &[String]) -> [String; 11] {
        let number = |x: Option<u32>| x.map_or(String::new(), |v| (v + 1).to_string());
        [
            policy.to_string(),
            self.seq.to_string(),
            self.time.to_string(),
            self.action.to_string(),
            self.job.map_or(String::new(), |j| j.to_string()),
            number(self.server),
            number(self.from),
            self.bin.and_then(|b| bins.get(usize::from(b))).cloned().unwrap_or_default(),
            self.what.clone(),
            self.why.clone(),
            self.facts_line(),
        ]
    }
}

/// One thing a policy looked at: "runner-up" = "server 7, room 0.55".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fact {
    pub label: String,
    pub value: String,
}

impl Fact {
    pub fn new(label: impl Into<String>, value: impl Into<String>) -> Self {
        Self { label: label.into(), value: value.into() }
    }
}

impl Decision {
    /// A decision of kind `action` at `time`, with nothing else said yet.
    pub fn new(time: f64, action: &'static str, what: String, why: impl Into<String>) -> Self {
        Self {
            seq: 0,
            time,
            action,
            job: None,
            server: None,
            from: None,
            bin: None,
            what,
            why: why.into(),
            facts: Vec::new(),
        }
    }

    pub fn job(mut self, job: u64) -> Self {
        self.job = Some(job);
        self
    }

    pub fn server(mut self, server: u32) -> Self {
        self.server = Some(server);
        self
    }

    pub fn from_server(mut self, server: u32) -> Self {
        self.from = Some(server);
        self
    }

    pub fn bin(mut self, bin: usize) -> Self {
        self.bin = Some(bin as u16);
        self
    }

    pub fn fact(mut self, label: impl Into<String>, value: impl Into<String>) -> Self {
        self.facts.push(Fact::new(label, value));
        self
    }

    /// The facts on one line: "label: value; label: value".
    pub fn facts_line(&self) -> String {
        let mut line = String::new();
        for (i, f) in self.facts.iter().enumerate() {
            let _ = write!(line, "{}{}: {}", if i == 0 { "" } else { "; " }, f.label, f.value);
        }
        line
    }
}

/// The most notes one decision keeps (built-in policies note at most five).
pub const MAX_NOTES: usize = 16;

/// The last decisions of a run, oldest first, and the notes waiting for the next one.
///
/// Decisions are counted whether or not the log keeps them, so a decision has the same number
/// however it was found: in a run that kept its log all along, or in the page's replay of the
/// last stretch of a run that kept none (an increment is all an off log costs).
#[derive(Debug, Clone, Default)]
pub struct DecisionLog {
    capacity: usize,
    records: VecDeque<Decision>,
    /// Decisions made since the start (the last `capacity` are kept).
    count: u64,
    notes: Vec<Fact>,
}

impl DecisionLog {
    /// A log keeping the last `capacity` decisions; 0 keeps none and costs nothing.
    pub fn new(capacity: usize) -> Self {
        Self { capacity, ..Self::default() }
    }

    /// Keeps the last `capacity` decisions from now on (0: none), forgetting those kept but
    /// not the count.
    pub fn set_capacity(&mut self, capacity: usize) {
        *self = Self { capacity, count: self.count, ..Self::default() };
    }

    /// Whether decisions are recorded: policies format their notes only then.
    #[inline]
    pub fn explaining(&self) -> bool {
        self.capacity > 0
    }

    /// Whether the next note would be kept (the log is on and the next decision has room):
    /// a script formats its note only then.
    pub fn keeps_notes(&self) -> bool {
        self.explaining() && self.notes.len() <= MAX_NOTES
    }

    /// A fact for the next decision recorded (dropped when the log is off). A decision keeps
    /// at most [`MAX_NOTES`] of them, then says that more were left out: a script noting in
    /// a loop makes no more than that per decision, however long it loops.
    pub fn note(&mut self, label: impl Into<String>, value: impl Into<String>) {
        if !self.explaining() {
            return;
        }
        match self.notes.len() {
            n if n < MAX_NOTES => self.notes.push(Fact::new(label, value)),
            n if n == MAX_NOTES => {
                self.notes.push(Fact::new("more notes", format!("not kept: a decision keeps {MAX_NOTES}")))
            }
            _ => {}
        }
    }

    /// Forgets the notes of a reaction that made no decision after them.
    #[inline]
    pub fn drop_notes(&mut self) {
        if !self.notes.is_empty() {
            self.notes.clear();
        }
    }

    /// Records `decision`, with the policy's notes first, then the engine's facts; an off log
    /// only counts it (every decision must come through here, kept or not, so the numbers
    /// agree).
    #[inline]
    pub fn record(&mut self, decision: impl FnOnce() -> Decision) {
        self.count += 1;
        if self.explaining() {
            self.keep(decision);
        }
    }

    /// Builds and keeps the decision just counted. Out of line and cold, building included:
    /// formatting code inlined into an engine's hot path, even never run, changed what the
    /// compiler inlined around it and cost batch runs 5 %.
    #[cold]
    #[inline(never)]
    fn keep(&mut self, decision: impl FnOnce() -> Decision) {
        let mut d = decision();
        d.seq = self.count;
        if !self.notes.is_empty() {
            let engine = std::mem::take(&mut d.facts);
            d.facts = std::mem::take(&mut self.notes);
            d.facts.extend(engine);
        }
        if self.records.len() == self.capacity {
            self.records.pop_front();
        }
        self.records.push_back(d);
    }

    /// The decisions kept, oldest first.
    pub fn records(&self) -> &VecDeque<Decision> {
        &self.records
    }

    /// Decisions made since the start, kept or not.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The decisions recorded after the first `seen` (as many as are still kept).
    pub fn since(&self, seen: u64) -> impl Iterator<Item = &Decision> {
        self.records.iter().filter(move |d| d.seq > seen)
    }
}

/// A number of a quantity for people: at most 4 significant digits, no trailing zeros.
pub fn short(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e9 {
        return format!("{x:.0}");
    }
    let digits = (4 - 1 - x.abs().log10().floor() as i32).clamp(0, 6) as usize;
    let text = format!("{x:.digits$}");
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.').to_string() } else { text }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_the_last_decisions_with_their_notes() {
        let mut log = DecisionLog::new(2);
        for i in 0..3 {
            log.note("looked at", format!("{i}"));
            log.record(|| {
                Decision::new(f64::from(i), "start", format!("job {i}"), "rule").job(i as u64).fact("room", "1")
            });
        }
        assert_eq!(log.count(), 3);
        let kept: Vec<_> = log.records().iter().map(|d| (d.seq, d.job, d.facts_line())).collect();
        assert_eq!(kept, [(2, Some(1), "looked at: 1; room: 1".into()), (3, Some(2), "looked at: 2; room: 1".into())]);
        assert_eq!(log.since(2).count(), 1);
        // Off: nothing is made, not even the decision.
        let mut off = DecisionLog::new(0);
        off.note("x", "y");
        off.record(|| unreachable!("an off log builds no decision"));
        assert_eq!((off.count(), off.records().len()), (1, 0));
        // Turned on, it numbers on.
        off.set_capacity(4);
        off.record(|| Decision::new(1.0, "start", "job 9".into(), "rule"));
        assert_eq!(off.records()[0].seq, 2);
    }

    #[test]
    fn short_numbers() {
        assert_eq!(short(0.42), "0.42");
        assert_eq!(short(3.0), "3");
        assert_eq!(short(1.0 / 3.0), "0.3333");
        assert_eq!(short(1234.5678), "1235");
        assert_eq!(short(12.5), "12.5");
    }
}
