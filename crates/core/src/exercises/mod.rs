//! Exercises: write a paper's policy as a script, and check it against the reference.
//!
//! An [`Exercise`] names the reference policy, the scenario it is checked on (a link) and the
//! task. The [`Checker`] races the user's script and the reference on that scenario and seed:
//! both see the same arrivals and service times (common random numbers), so a script that
//! implements the rule makes exactly the reference's decisions. The check compares the two
//! sequences of decisions one by one, and stops at the first that differs, with both
//! decisions and their notes, for the page's inspector to set side by side.
//!
//! Only starts and routings are compared: they are what a script decides (GH-RA's scripts
//! route, Algorithm 2's clocks start). A reference's other records (FIFO's "blocks the
//! queue", MSF's phases) are its own commentary, not decisions a script can make. Two
//! decisions agree when they are the same action at the same time, of the same job, on the
//! same server and bin; their reasons and notes may differ (a script explains itself in its
//! own words).
//!
//! Each exercise's scenario is one where its rule matters at many decisions (several servers
//! whose rooms differ, several classes, ties and servers a job may not go to): a folder of
//! plausible wrong rules (`wrong/`) must each fail it, and the tests count how often the
//! scenario tells them apart (`wrong_rules.rs`). The check is bounded: the scenario's horizon
//! is the link's, chosen so a check of a right script takes under half a second natively
//! (docs/scripts.md has the measurements), and the decisions waiting to be compared never
//! exceed [`LOG`]. It runs in pieces ([`Checker::advance`]) so the page can check without
//! freezing; `packlab exercise ID --check FILE…` runs the same check on files.

use std::collections::VecDeque;

use crate::ConfigError;
use crate::decisions::Decision;
use crate::model::policy::PolicySpec;
use crate::report::{RunError, live_run};
use crate::scenario::Scenario;
use crate::view::{LiveRun, Watch};

/// An exercise: write `reference` as a script, checked on the scenario of `link`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exercise {
    /// Its name (tests, the page's data attributes).
    pub id: &'static str,
    /// What to write, in a few sentences: the tour step's text.
    pub task: &'static str,
    /// The built-in policy the script must reproduce, as links write it.
    pub reference: &'static str,
    /// The scenario, seed and horizon, as a link query racing the reference: the tour step
    /// plays it, the check runs on it.
    pub link: &'static str,
    /// Where the editor starts: the rule's shape and the calls it needs, not the answer.
    pub skeleton: &'static str,
    /// Where in the paper the rule is defined, for whoever checks the task.
    pub source: &'static str,
}

/// Best fit on PG-RR: BF-J, best fit from the job's perspective (PG-RR §IV-A). Thm 2's
/// guarantee of half the maximum workload is proven for BF-J/S, which combines it with best fit
/// from the server's perspective, not for BF-J; the task says so. Checked on five servers with
/// sizes from 0.1 to 0.9 (pgrr-a4), where servers' rooms differ, so where a job goes matters:
/// on one server (pgrr-a1, the check's first scenario) first fit, worst fit and best fit start
/// every job alike.
pub const BEST_FIT: Exercise = Exercise {
    id: "write-best-fit",
    task: "Write best fit yourself: BF-J, best fit from the job's perspective. Each slot, the waiting jobs, \
           oldest first, each go to the fullest server where they fit (the lowest-numbered on ties); a job \
           that fits nowhere waits, and the jobs behind it may still start. Check races your script against \
           the built-in BF-J on the same arrivals, on five servers whose rooms differ, so where each job goes \
           counts: every start must be the same. (The paper proves half the maximum workload for BF-J/S, \
           which adds best fit from the server's side, not for BF-J alone.)",
    reference: "bf-j",
    link: "preset=pgrr-a4&policy=bf-j&seed=1&horizon=20000",
    skeleton: include_str!("best_fit_skeleton.rhai"),
    source: "PG-RR (journal) §IV-A (BF-J: jobs in order, each to the server with the least residual capacity \
             that can hold it); Thm 2's half of the maximum workload is BF-J/S's",
};

/// MSF on MSFQ's machine: the policy whose phases MSFQ's quick swap shortens. Checked on four
/// classes (msfq-d5), where an event often starts several jobs of several classes and passes
/// over a class whose jobs do not fit: with only one-core and all-core jobs (msfq-d1) almost
/// every event starts one job, and one start per event passed hundreds of decisions.
pub const MSF: Exercise = Exercise {
    id: "write-msf",
    task: "Write Most Servers First yourself. After every arrival and completion, start the jobs \
           of the class that needs the most cores first, oldest first, while they fit in the free cores, \
           then go on to the class that needs fewer, down to the one-core jobs. Check races your script \
           against the built-in MSF on the same arrivals, on 15 cores with jobs needing 1, 3, 5 or 15 of \
           them: every start must be the same.",
    reference: "msf",
    link: "preset=msfq-d5&policy=msf&seed=1&horizon=1000",
    skeleton: include_str!("msf_skeleton.rhai"),
    source: "MSFQ §4.1 (MSF: whenever a job arrives or completes, as many jobs as fit, in descending order of \
             server need)",
};

/// Join the shortest queue on GH-RA: Algorithm 2's routing, with ties to the lowest-numbered
/// server so that a correct script makes exactly the reference's choices (RES-70). The paper
/// breaks ties arbitrarily, so the tie rule is the exercise's choice, not a departure from it.
/// Checked on ghra-b3's mixed fleet with a fourth VM type (High-Memory Double XL, 34.2 GB) that
/// only the large servers hold, so that where a job may go is part of the rule: with the
/// three EC2 types every server holds every type.
pub const JSQ: Exercise = Exercise {
    id: "write-jsq",
    task: "Write join the shortest queue yourself. At every arrival, send the job to the server whose \
           queue of its type is shortest, among the servers that could hold it when empty (here the fourth \
           type fits only the five large servers); on ties, the lowest-numbered of them. The paper breaks \
           ties arbitrarily: the lowest-numbered is this exercise's choice, so that a correct script makes \
           exactly the reference's choices. Algorithm 2's clocks then start the jobs. Check races your \
           script against the built-in JSQ with the same tie rule on the same arrivals: every routing and \
           every start must be the same.",
    reference: "alg2-jsq:ties=lowest",
    link: "preset=ghra-b3&types=150/16/1690,171/13/420,70/40/1690,342/26/850&policy=alg2-jsq:ties=lowest\
           &seed=1&horizon=100",
    skeleton: include_str!("jsq_skeleton.rhai"),
    source: "GH-RA §IV, Algorithm 2 (JSQ: an arriving type-j job joins the shortest type-j queue, ties broken \
             arbitrarily)",
};

/// Every exercise; the tours' exercise steps name them.
pub const EXERCISES: &[&Exercise] = &[&BEST_FIT, &MSF, &JSQ];

/// Decisions each side may make in one piece of a check before they are compared: more than
/// any piece of the exercises' scenarios makes (a piece that makes more is refused, so
/// memory stays bounded).
pub const LOG: usize = 100_000;

/// Pieces a check is cut into by [`Checker::run`] (the page advances piece by piece).
pub const PIECES: u32 = 40;

/// The exercise called `id`, or a message listing them.
pub fn exercise(id: &str) -> Result<&'static Exercise, ConfigError> {
    EXERCISES.iter().copied().find(|e| e.id == id.trim()).ok_or_else(|| {
        let ids: Vec<&str> = EXERCISES.iter().map(|e| e.id).collect();
        ConfigError::new("exercise", format!("unknown exercise '{}'; exercises are {}", id.trim(), ids.join(", ")))
    })
}

impl Exercise {
    /// The reference's name as the page labels its lane ("BF-J") on `scenario`, the one
    /// [`Exercise::link`] opens.
    pub fn reference_label(&self, scenario: &Scenario) -> String {
        match PolicySpec::parse(self.reference) {
            Ok(spec) => scenario.policy_label(&spec),
            _ => self.reference.to_string(),
        }
    }
}

/// How a check ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Every decision was the reference's, to the horizon.
    Pass { decisions: u64 },
    /// The first decision that differs, with both sides.
    Differs(Box<Difference>),
    /// The script stopped (an error, a limit) after `decisions` agreeing decisions.
    Stopped { decisions: u64, message: String },
}

impl Verdict {
    /// The verdict in one sentence, as the page announces it and `packlab exercise --check`
    /// prints it: `reference` is the reference's label ([`Exercise::reference_label`]),
    /// `time_word` the model's word before a moment ("slot", "t =").
    pub fn sentence(&self, reference: &str, time_word: &str) -> String {
        match self {
            Verdict::Pass { decisions } => {
                format!("Pass: all {decisions} decisions are the same as {reference}'s, on the same arrivals.")
            }
            Verdict::Differs(d) => format!(
                "Not yet: decision {} differs from {reference}'s, at {time_word} {}; the decisions before it agreed.",
                d.decision,
                crate::format::moment(d.time())
            ),
            Verdict::Stopped { decisions, message } => {
                format!("Your script stopped after {decisions} decisions that agreed: {message}")
            }
        }
    }

    /// Whether the script passed.
    pub fn passed(&self) -> bool {
        matches!(self, Verdict::Pass { .. })
    }
}

/// What the page and the CLI say when a check cannot start: `message` says why (a script that
/// does not compile, with its line).
pub fn could_not_start(message: &str) -> String {
    format!("The check could not start: {message}")
}

/// A submitted file's bytes as a script's source, or why it cannot be one: longer than a
/// script may be, or not UTF-8 text (the byte where it stops being). The CLI's `--check FILE`
/// reads files through it, then checks each with [`Checker::run`].
pub fn submission(bytes: Vec<u8>) -> Result<String, String> {
    crate::script::source::check_length(bytes.len())?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        format!("it is not UTF-8 text: byte {}, on line {line}, is not part of a UTF-8 character", at + 1)
    })
}

/// The first decision where the script and the reference part.
#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    /// Its number among the decisions compared, from 1: the ones before it agreed.
    pub decision: u64,
    /// The script's decision there; `None` when it made no more.
    pub yours: Option<Decision>,
    /// The reference's; `None` when it made no more.
    pub reference: Option<Decision>,
}

impl Difference {
    /// When it happened: the earlier of the two decisions.
    pub fn time(&self) -> f64 {
        let times = [&self.yours, &self.reference].into_iter().flatten().map(|d| d.time);
        times.fold(f64::INFINITY, f64::min)
    }
}

/// One side of a check: a run with its decision log, and its decisions not yet compared.
#[derive(Clone)]
struct Side {
    run: Box<dyn LiveRun>,
    seen: u64,
    pending: VecDeque<Decision>,
}

impl Side {
    fn new(scenario: &Scenario, spec: &PolicySpec) -> Result<Self, ConfigError> {
        let run = live_run(scenario, spec, Watch::batch(64).with_log(LOG)).map_err(|e| match e {
            RunError::Config(e) => e,
            RunError::Engine(e) => ConfigError::new("policy", e.to_string()),
        })?;
        Ok(Self { run, seen: 0, pending: VecDeque::new() })
    }

    /// Runs to `time` and queues the decisions made meanwhile that a check compares.
    fn advance(&mut self, time: f64) -> Result<(), String> {
        self.run.run_to(time).map_err(|e| e.to_string())?;
        let log = self.run.decisions();
        if log.count() - self.seen > LOG as u64 {
            return Err(format!("more than {LOG} decisions in one piece of the check; check in smaller pieces"));
        }
        self.pending.extend(log.since(self.seen).filter(|d| compared(d)).cloned());
        self.seen = log.count();
        Ok(())
    }
}

/// Whether a check compares this decision: one a script makes.
fn compared(d: &Decision) -> bool {
    matches!(d.action, "start" | "route")
}

/// Two decisions are the same: same action, time, job, server and bin (not the same words).
fn same(a: &Decision, b: &Decision) -> bool {
    a.action == b.action
        && a.time.to_bits() == b.time.to_bits()
        && a.job == b.job
        && a.server == b.server
        && a.bin == b.bin
}

/// A check in progress: the script and the reference, advanced together.
#[derive(Clone)]
pub struct Checker {
    yours: Side,
    reference: Side,
    horizon: f64,
    /// How far both have run.
    time: f64,
    /// Starts compared and found equal.
    agreed: u64,
    verdict: Option<Verdict>,
}

impl Checker {
    /// A check of `source` on `exercise`, run on `scenario` (the one [`Exercise::link`] opens,
    /// [`crate::link::scenario_of`]): an error when the script does not compile (named with its
    /// line).
    pub fn new(exercise: &Exercise, scenario: &Scenario, source: &str) -> Result<Self, ConfigError> {
        let script = PolicySpec::parse(&crate::script::spec_text(source)?)?;
        let reference = PolicySpec::parse(exercise.reference)?;
        Ok(Self {
            yours: Side::new(scenario, &script)?,
            reference: Side::new(scenario, &reference)?,
            horizon: scenario.horizon() as f64,
            time: 0.0,
            agreed: 0,
            verdict: None,
        })
    }

    /// The verdict, once the check is over.
    pub fn verdict(&self) -> Option<&Verdict> {
        self.verdict.as_ref()
    }

    /// How far the check has run, from 0 to 1.
    pub fn progress(&self) -> f64 {
        if self.verdict.is_some() { 1.0 } else { self.time / self.horizon }
    }

    /// Runs both sides `span` further (to the horizon at most) and compares their new decisions;
    /// the verdict once the check is over.
    pub fn advance(&mut self, span: f64) -> Option<&Verdict> {
        if self.verdict.is_some() {
            return self.verdict.as_ref();
        }
        self.time = (self.time + span.max(0.0)).min(self.horizon);
        if let Err(message) = self.yours.advance(self.time) {
            return self.end(Verdict::Stopped { decisions: self.agreed, message });
        }
        if let Err(message) = self.reference.advance(self.time) {
            return self.end(Verdict::Stopped {
                decisions: self.agreed,
                message: format!("the reference stopped: {message}"),
            });
        }
        while let (Some(a), Some(b)) = (self.yours.pending.front(), self.reference.pending.front()) {
            if !same(a, b) {
                return self.differ();
            }
            self.yours.pending.pop_front();
            self.reference.pending.pop_front();
            self.agreed += 1;
        }
        // Decisions one side made and the other has not (yet): they differ, but the other
        // side's next decision, made later, is what to set beside them. Wait for it, to the
        // horizon or until the waiting decisions would exceed the bound.
        let waiting = self.yours.pending.len().max(self.reference.pending.len());
        if self.time >= self.horizon || waiting > LOG {
            return if waiting > 0 { self.differ() } else { self.end(Verdict::Pass { decisions: self.agreed }) };
        }
        None
    }

    /// A piece of the check: the span [`Checker::run`] advances by, a [`PIECES`]th of the
    /// horizon.
    pub fn piece(&self) -> f64 {
        self.horizon / f64::from(PIECES)
    }

    /// Runs the check to its verdict, in [`PIECES`] pieces.
    pub fn run(mut self) -> Verdict {
        let span = self.piece();
        loop {
            if let Some(verdict) = self.advance(span) {
                return verdict.clone();
            }
        }
    }

    fn differ(&mut self) -> Option<&Verdict> {
        let difference = Difference {
            decision: self.agreed + 1,
            yours: self.yours.pending.pop_front(),
            reference: self.reference.pending.pop_front(),
        };
        self.end(Verdict::Differs(Box::new(difference)))
    }

    fn end(&mut self, verdict: Verdict) -> Option<&Verdict> {
        self.yours.pending.clear();
        self.reference.pending.clear();
        self.verdict = Some(verdict);
        self.verdict.as_ref()
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod wrong_rules;
