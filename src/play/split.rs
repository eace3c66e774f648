//! A race split over several workers, one part of its lanes in each, shown as one race.
//!
//! Lanes are independent given the seed: each lane's arrivals come from the scenario's seed,
//! not from the other lanes, so a part that holds some of the policies runs exactly the lanes
//! the whole race would (the test below compares the numbers). The page ([`crate::play::worker`])
//! runs each part in its own worker and keeps them in lockstep with [`Lockstep`]:
//!
//! * while playing, every part stops at the same slots, the *marks* the page hands out, and
//!   sends a snapshot there; the page shows a mark once every part has reached it. A part that
//!   gets ahead waits at its last mark, so the parts never drift further apart than two marks.
//!   The marks' spacing adapts so that they come about once per frame;
//! * a command (Pause, Step, a seek) goes to every part. Where the parts then stand at different
//!   moments (a pause lands wherever each part was; a step in continuous time goes to each
//!   part's own next event), the page moves them to one moment with a seek: the latest one
//!   after a pause or a step back, the earliest after a step (the first event of any lane, as
//!   the whole race's step), and where a part failed, the moment it failed at;
//! * commands that arrive while the parts are on their way to one moment wait for it, so every
//!   command starts from a moment the page has shown;
//! * the lanes are placed by what they cost ([`mod@place`]): each part measures its lanes' wall time
//!   per slot while it plays and sends it with its snapshots. Once every lane is measured, and
//!   later when the costs drift far apart, a placement whose costliest part is clearly cheaper
//!   moves the lanes: no more marks are handed out, so the parts hold at the last one; each part
//!   whose lanes change is rebuilt with its new lanes and plays them from time 0 to that mark (a
//!   run is a pure function of its link, so the replay gives the same bits), and they play on.
//!   The page shows nothing of it but the time it takes: the numbers do not depend on where a
//!   lane runs.
//!
//! Everything here is plain Rust, free of browser APIs, and tested natively.

use std::collections::VecDeque;

use packlab_core::scenario::Setup;

use crate::play::player::Command;
use crate::play::snapshot::{Phase, Snapshot};

mod merge;
mod moves;
mod place;
pub use merge::merge;
pub use place::{place, split};

/// One part of a split race: the setup with its policies, and which of the whole race's lanes
/// they are, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    pub setup: Setup,
    pub lanes: Vec<usize>,
}

/// Marks handed out ahead of the last one shown: the parts work on towards them while the page
/// merges and draws. They are topped up to this many when fewer than [`MARKS_LOW`] are left,
/// in one message per part: a message to a worker cost the page's thread about 80 µs (it
/// wakes the worker's thread), and one per mark was a tenth of that thread in a two-worker race.
const MARKS_AHEAD: usize = 8;
/// Marks left ahead below which more are handed out.
const MARKS_LOW: usize = 4;
/// Wall time the page wants between two marks, in ms: well within a frame at 60 Hz, so that
/// every frame has a new mark to draw although the marks' pace wavers.
const MARK_MS: f64 = 6.0;
/// Marks shown but not drawn beyond which no more are handed out: a page that does not draw (a
/// hidden tab gets no animation frames) stops the race, as it stops a race in one worker.
const MAX_UNDRAWN: u32 = 8;
/// Widest spacing of marks, in slots.
const MAX_STRIDE: u64 = 1 << 24;

/// Whether a command can go out to the parts.
enum Readiness {
    Now,
    /// Once the parts answered what they were sent, and stand at one moment.
    Wait,
    /// Never: the parts do it already.
    Moot,
}

/// A message for one part's worker.
#[derive(Debug, Clone, PartialEq)]
pub enum ToPart {
    /// Carry out this command.
    Do(Command),
    /// Stop at these slots while playing, sending a snapshot at each (replacing any marks).
    Marks(Vec<u64>),
    /// Stop at these slots too, after the marks it has.
    More(Vec<u64>),
    /// Play these lanes instead, from time 0, stopped (the worker builds the race anew); the
    /// part's count of commands carried out is `answered` from now on, so that what it sent
    /// before is not taken for answers to what follows.
    Become { part: Box<Part>, answered: u64 },
}

/// What a part sent.
#[derive(Clone)]
struct Latest {
    snapshot: Snapshot,
    /// Whether the part waited for a mark before it sent it: it had nothing to do.
    starved: bool,
    /// How many commands the part had carried out when it sent it (it answers each one).
    answered: u64,
}

/// The page's side of a split race: what to send each part, and when the parts' snapshots
/// make one to show.
pub struct Lockstep {
    /// The whole race (each part is some of its lanes).
    setup: Setup,
    /// Which of the whole race's lanes each part plays.
    lanes: Vec<Vec<usize>>,
    /// Each lane's latest measured wall ms per slot (the whole race's index).
    costs: Vec<Option<f64>>,
    /// Whether the lanes were placed by their measured costs yet, and the slot of the last move.
    placed: bool,
    moved_at: u64,
    /// A move of lanes between parts under way: the placement the parts take once they all
    /// hold at the last mark handed out, and that mark.
    moving: Option<(Vec<Vec<usize>>, u64)>,
    /// The mark rebuilt parts replay to: nothing else is shown meanwhile.
    replaying: Option<u64>,
    /// Whether the race plays as fast as possible (lanes move only then: at a set pace the
    /// pace, not the costliest part, limits it).
    max: bool,
    /// What each part sent last.
    latest: Vec<Option<Latest>>,
    /// What each part sent at marks not yet shown, in order: the parts reach a mark at
    /// different times, and one may be at the next mark before the other reaches this one.
    at_marks: Vec<VecDeque<Latest>>,
    /// Commands sent to each part.
    sent: Vec<u64>,
    /// Marks handed out and not yet shown, in order.
    marks: VecDeque<u64>,
    /// Slots between two marks.
    stride: u64,
    /// The lane whose per-bin series are shown (the whole race's index).
    focus: usize,
    /// Commands that wait until the parts stand at one moment.
    waiting: VecDeque<Command>,
    /// Whether stopped parts meet at the earliest of their moments (after a step) rather
    /// than the latest.
    earliest: bool,
    /// The seeks sent to bring the parts to one moment, by part (so that none is sent twice).
    seeking: Vec<Option<u64>>,
    /// When the last mark was shown (ms), and its slot.
    last_shown: Option<(f64, u64)>,
    /// Marks shown since the page last drew.
    undrawn: u32,
    /// The moment and phase last shown, or none yet.
    shown: Option<(u64, Phase)>,
}

impl Lockstep {
    pub fn new(parts: &[Part]) -> Self {
        let n = parts.iter().map(|p| p.lanes.len()).sum();
        let mut policies = vec![None; n];
        for part in parts {
            for (&lane, policy) in part.lanes.iter().zip(&part.setup.policies) {
                policies[lane] = Some(policy.clone());
            }
        }
        let setup = Setup { policies: policies.into_iter().flatten().collect(), ..parts[0].setup.clone() };
        Self {
            setup,
            costs: vec![None; n],
            placed: false,
            moved_at: 0,
            moving: None,
            replaying: None,
            max: true,
            lanes: parts.iter().map(|p| p.lanes.clone()).collect(),
            latest: parts.iter().map(|_| None).collect(),
            at_marks: parts.iter().map(|_| VecDeque::new()).collect(),
            sent: vec![0; parts.len()],
            marks: VecDeque::new(),
            stride: 1,
            focus: 0,
            waiting: VecDeque::new(),
            earliest: false,
            seeking: parts.iter().map(|_| None).collect(),
            last_shown: None,
            undrawn: 0,
            shown: None,
        }
    }

    /// Tells the lockstep the speed the race starts at (later speeds pass through it).
    pub fn set_speed(&mut self, speed: crate::state::Speed) {
        self.max = speed == crate::state::Speed::Max;
    }

    /// The number of parts.
    pub fn parts(&self) -> usize {
        self.lanes.len()
    }

    /// The messages that carry out `command`, now or (where the parts are on their way to one
    /// moment) once they are there.
    pub fn command(&mut self, command: Command) -> Vec<(usize, ToPart)> {
        // Speed and focus do not move the race: they never wait, nor does anything wait for them.
        if let Command::Speed(speed) = command {
            self.set_speed(speed);
        }
        // New changes do not move the race either: each part takes them where it stands (one
        // that ran past their moment goes back and plays to where it was, RES-96).
        if let Command::Changes(text) = &command {
            let _ = self.setup.scenario.set(packlab_core::changes::KEY, text);
        }
        let moves = !matches!(command, Command::Speed(_) | Command::Focus(_) | Command::Changes(_));
        if moves && !self.waiting.is_empty() {
            self.waiting.push_back(command);
            return Vec::new();
        }
        match self.readiness(&command) {
            Readiness::Now => self.send(command),
            Readiness::Wait => {
                self.waiting.push_back(command);
                Vec::new()
            }
            Readiness::Moot => Vec::new(),
        }
    }

    /// Whether `command` can go out now. A command that moves the race goes out only when
    /// every part has answered every command before it (a second command sent before then
    /// would be carried out from moments the page never knew: a Pause and a Play sent
    /// together left the parts playing from different slots without marks, and the race stood
    /// still showing itself playing), and, unless the parts play, when they stand at one moment.
    fn readiness(&self, command: &Command) -> Readiness {
        if matches!(command, Command::Speed(_) | Command::Focus(_) | Command::Changes(_)) {
            return Readiness::Now;
        }
        let answered =
            self.latest.iter().zip(&self.sent).all(|(l, &sent)| l.as_ref().map_or(0, |l| l.answered) >= sent);
        if !answered {
            return Readiness::Wait;
        }
        if self.latest.iter().all(Option::is_some) && self.all_running() {
            // Playing: a command stops the parts wherever they are, and they meet. Play is what
            // they do already (a second click on Play before the first was shown).
            return if *command == Command::Play { Readiness::Moot } else { Readiness::Now };
        }
        if self.at_one_moment().is_some() { Readiness::Now } else { Readiness::Wait }
    }

    /// The waiting commands that can go out now, in order: each that moves the race waits for
    /// the parts to answer the one before.
    fn release(&mut self) -> Vec<(usize, ToPart)> {
        let mut out = Vec::new();
        while let Some(command) = self.waiting.pop_front() {
            match self.readiness(&command) {
                Readiness::Now => out.extend(self.send(command)),
                Readiness::Moot => {}
                Readiness::Wait => {
                    self.waiting.push_front(command);
                    break;
                }
            }
        }
        out
    }

    fn send(&mut self, command: Command) -> Vec<(usize, ToPart)> {
        let out = self.messages(command);
        self.count(&out);
        out
    }

    /// Counts the commands among `out`: each part answers each of its own.
    fn count(&mut self, out: &[(usize, ToPart)]) {
        for (k, message) in out {
            if matches!(message, ToPart::Do(_)) {
                self.sent[*k] += 1;
            }
        }
    }

    fn messages(&mut self, command: Command) -> Vec<(usize, ToPart)> {
        let parts = 0..self.parts();
        // A part drops its marks with any command: one that leaves it playing gets them back.
        let n = self.parts();
        let marks_again = move |marks: &VecDeque<u64>| {
            let marks: Vec<u64> = marks.iter().copied().collect();
            (0..n).map(move |k| (k, ToPart::Marks(marks.clone())))
        };
        if let Command::Focus(lane) = command {
            self.focus = lane;
            // What the part holding the lane sent at marks not shown yet shows another lane's
            // series: those marks are passed over (see [`Lockstep::arrived`]).
            if let Some(holder) = self.lanes.iter().position(|l| l.contains(&lane)) {
                self.at_marks[holder].clear();
            }
            // Each part focuses on its own lane of that index, or its first.
            let mut out: Vec<_> = parts.map(|k| (k, ToPart::Do(Command::Focus(self.local_focus(k))))).collect();
            out.extend(marks_again(&self.marks));
            return out;
        }
        if let Command::Speed(_) | Command::Changes(_) = command {
            let mut out: Vec<_> = parts.map(|k| (k, ToPart::Do(command.clone()))).collect();
            out.extend(marks_again(&self.marks));
            return out;
        }
        // A command that moves the race ends a move under way (the marks start anew).
        self.moving = None;
        self.replaying = None;
        self.earliest = command == Command::Step;
        self.seeking.iter_mut().for_each(|s| *s = None);
        self.at_marks.iter_mut().for_each(VecDeque::clear);
        let mut out: Vec<(usize, ToPart)> = parts.clone().map(|k| (k, ToPart::Do(command.clone()))).collect();
        // Playing starts from a moment every part stands at: its marks follow from there.
        let from = match command {
            Command::Play | Command::OpenAt(_) => self.at_one_moment(),
            Command::RunAgain => Some(0),
            _ => None,
        };
        if let Some(from) = from {
            self.marks.clear();
            let mut mark = from;
            for _ in 0..MARKS_AHEAD {
                mark = mark.saturating_add(self.stride);
                self.marks.push_back(mark);
            }
            out.extend(marks_again(&self.marks));
        }
        out
    }

    /// A snapshot from part `part`, sent after it carried out `answered` commands; `starved`
    /// says whether the part waited for a mark before it. Returns the snapshot of the whole
    /// race to show, if the parts now make one, and the messages to send.
    pub fn arrived(
        &mut self,
        part: usize,
        snapshot: Snapshot,
        starved: bool,
        answered: u64,
        now_ms: f64,
    ) -> (Option<Snapshot>, Vec<(usize, ToPart)>) {
        if part >= self.parts() {
            return (None, Vec::new());
        }
        if snapshot.costs.len() == self.lanes[part].len() && answered >= self.sent[part] {
            for (&lane, &cost) in self.lanes[part].iter().zip(&snapshot.costs) {
                self.costs[lane] = Some(cost);
            }
        }
        let latest = Latest { snapshot, starved, answered };
        let at_mark = latest.snapshot.phase == Phase::Running && self.marks.contains(&latest.snapshot.slot);
        if at_mark && answered >= self.sent[part] {
            self.at_marks[part].push_back(latest.clone());
        }
        // Marks this part passed with nothing to show for them (what it sent there was before a
        // command, or before the focus moved to its lane) are never shown: the next ones are.
        if latest.snapshot.phase == Phase::Running && answered >= self.sent[part] {
            let (slot, sent) = (latest.snapshot.slot, &self.at_marks[part]);
            self.marks.retain(|&m| m >= slot || sent.iter().any(|l| l.snapshot.slot == m));
        }
        self.latest[part] = Some(latest);
        // Until every part has answered every command, what they sent is of before it.
        let answered =
            self.latest.iter().zip(&self.sent).all(|(l, &sent)| l.as_ref().is_some_and(|l| l.answered >= sent));
        if !answered {
            return (None, Vec::new());
        }
        let active = self.active();
        // Playing: the last of the marks every part that runs has reached. Mostly one mark is
        // new; when a part drops out (its scripts all stopped), every mark the others reached
        // meanwhile is, and showing only the first would leave the rest, and the race, waiting
        // for snapshots already sent. Else where they all stand (stopped, or all just told to
        // play, which they answer where they are).
        let mark = self
            .marks
            .iter()
            .copied()
            .take_while(|&m| {
                self.at_marks.iter().zip(&active).all(|(sent, &a)| !a || sent.iter().any(|l| l.snapshot.slot == m))
            })
            .last();
        let moment = mark.or_else(|| if self.replaying.is_some() { None } else { self.at_one_moment() });
        if let Some(slot) = moment {
            let snapshots: Vec<&Snapshot> = (0..self.parts())
                .map(|k| match mark {
                    Some(m) if active[k] => {
                        &self.at_marks[k].iter().find(|l| l.snapshot.slot == m).expect("found above").snapshot
                    }
                    _ => &self.latest[k].as_ref().expect("every part answered").snapshot,
                })
                .collect();
            let whole = merge(&snapshots, &self.lanes, self.focus, &active);
            if mark.is_some() {
                let all_starved = (0..self.parts()).all(|k| {
                    !active[k] || self.at_marks[k].iter().take_while(|l| l.snapshot.slot <= slot).any(|l| l.starved)
                });
                self.adapt_stride(now_ms, slot, all_starved);
            }
            for sent in &mut self.at_marks {
                sent.retain(|l| l.snapshot.slot > slot);
            }
            if whole.phase != Phase::Running {
                self.last_shown = None;
            }
            self.marks.retain(|&m| m > slot);
            self.shown = Some((slot, whole.phase.clone()));
            let mut out = Vec::new();
            if whole.phase == Phase::Running {
                self.undrawn += 1;
                match mark {
                    Some(_) if active.iter().all(|&a| a) => {
                        out.extend(self.move_on(slot));
                        out.extend(self.place_by_cost(&whole));
                    }
                    // A part dropped out (its scripts stopped): no move.
                    _ => (self.moving, self.replaying) = (None, None),
                }
                if self.undrawn <= MAX_UNDRAWN {
                    out.extend(self.more_marks());
                }
            } else {
                (self.moving, self.replaying) = (None, None);
            }
            out.extend(self.release());
            return (Some(whole), out);
        }
        (None, self.meet())
    }

    /// Part `k`'s own index of the focused lane (its first lane where it does not hold it).
    fn local_focus(&self, k: usize) -> usize {
        self.lanes[k].iter().position(|&l| l == self.focus).unwrap_or(0)
    }

    /// The page drew the last snapshot shown: while playing, the parts get marks so that
    /// [`MARKS_AHEAD`] are ahead of it again.
    pub fn drawn(&mut self) -> Vec<(usize, ToPart)> {
        self.undrawn = 0;
        self.more_marks()
    }

    /// While playing, when fewer than [`MARKS_LOW`] marks are ahead of the last one shown,
    /// marks so that [`MARKS_AHEAD`] are.
    fn more_marks(&mut self) -> Vec<(usize, ToPart)> {
        let Some((slot, Phase::Running)) = self.shown else { return Vec::new() };
        if self.marks.len() >= MARKS_LOW || self.moving.is_some() {
            return Vec::new();
        }
        let mut more = Vec::new();
        while self.marks.len() < MARKS_AHEAD {
            let last = self.marks.back().copied().unwrap_or(slot);
            let mark = last.saturating_add(self.stride);
            self.marks.push_back(mark);
            more.push(mark);
        }
        (0..self.parts()).map(|k| (k, ToPart::More(more.clone()))).collect()
    }

    /// Marks about [`MARK_MS`] apart. When every part waited for its mark, the page (drawing,
    /// handing out marks) set the pace, not the simulation: the spacing doubles. Otherwise the
    /// slowest part ran all along, and its pace since the last mark shown says how many slots
    /// that is (smoothed, and at most twofold at a time, so one odd mark does not throw it).
    fn adapt_stride(&mut self, now_ms: f64, slot: u64, all_starved: bool) {
        let last = self.last_shown.replace((now_ms, slot));
        if all_starved {
            self.stride = (self.stride * 2).min(MAX_STRIDE);
        } else if let Some((then, from)) = last.filter(|(then, from)| now_ms > *then && slot > *from) {
            let per_mark = (slot - from) as f64 * MARK_MS / (now_ms - then);
            let lo = (self.stride / 2).max(1) as f64;
            let hi = (self.stride * 2).min(MAX_STRIDE) as f64;
            // Smoothed: the pace wavers from mark to mark with what else the machine runs.
            let smooth = 0.75 * self.stride as f64 + 0.25 * per_mark;
            self.stride = smooth.clamp(lo, hi).round().max(1.0) as u64;
        }
    }

    /// Whether each part's lanes still run (a part whose lanes all stopped on their scripts
    /// is left out of the moment shown).
    fn active(&self) -> Vec<bool> {
        self.latest.iter().map(|l| l.as_ref().is_none_or(|l| !all_stopped(&l.snapshot))).collect()
    }

    fn all_running(&self) -> bool {
        self.latest.iter().flatten().all(|l| l.snapshot.phase == Phase::Running)
    }

    /// The slot the parts that run stand at, if they all stand at one moment (or have sent
    /// nothing yet: they all start at 0), all playing or all stopped.
    fn at_one_moment(&self) -> Option<u64> {
        if self.latest.iter().all(Option::is_none) {
            return Some(0);
        }
        let active = self.active();
        let mut moments = self.latest.iter().zip(&active).filter(|(_, a)| **a).map(|(l, _)| l.as_ref());
        let first = match moments.next() {
            Some(Some(l)) => &l.snapshot,
            Some(None) => return None,
            // Every part's lanes stopped: the race is over where it is.
            None => return self.latest.iter().flatten().map(|l| l.snapshot.slot).min(),
        };
        let running = first.phase == Phase::Running;
        moments
            .all(|l| {
                l.is_some_and(|l| {
                    let s = &l.snapshot;
                    s.slot == first.slot
                        && s.now.to_bits() == first.now.to_bits()
                        && (s.phase == Phase::Running) == running
                })
            })
            .then_some(first.slot)
    }

    /// Stopped parts at different moments: seeks that bring them to one.
    fn meet(&mut self) -> Vec<(usize, ToPart)> {
        let active = self.active();
        let stopped: Vec<(usize, &Snapshot)> = self
            .latest
            .iter()
            .enumerate()
            .filter(|(k, _)| active[*k])
            .filter_map(|(k, l)| l.as_ref().map(|l| (k, &l.snapshot)))
            .collect();
        if stopped.iter().any(|(_, s)| s.phase == Phase::Running) {
            // Some part still plays: it stops with the command it has, or at its next mark.
            return Vec::new();
        }
        let failed = stopped.iter().filter(|(_, s)| matches!(s.phase, Phase::Failed(_))).map(|(_, s)| s.now);
        let nows = stopped.iter().map(|(_, s)| s.now);
        let target = match failed.reduce(f64::min) {
            Some(t) => t,
            None if self.earliest => nows.reduce(f64::min).unwrap_or(0.0),
            None => nows.reduce(f64::max).unwrap_or(0.0),
        };
        let mut out = Vec::new();
        for (k, s) in &stopped {
            if s.now.to_bits() != target.to_bits() && self.seeking[*k] != Some(target.to_bits()) {
                self.seeking[*k] = Some(target.to_bits());
                out.push((*k, ToPart::Do(Command::Seek(target))));
            }
        }
        self.count(&out);
        out
    }
}

/// Whether every lane of `snapshot` stopped on its script.
fn all_stopped(snapshot: &Snapshot) -> bool {
    !snapshot.lanes.is_empty() && snapshot.lanes.iter().all(|l| l.stopped.is_some())
}

#[cfg(test)]
mod tests;
