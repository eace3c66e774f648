//! A race in play: what Play, Pause, Step, Back, the timeline and a link's `t=` do to a
//! [`Race`] (the [`Command`]s a [`Player`] carries out), and how far it runs in a slice of wall
//! time at the chosen speed.
//!
//! The player is the same wherever the race runs. The page runs it in the race worker
//! (`www/race-worker.js` with [`crate::play::worker::host::RaceHost`]), which steps it as fast
//! as the speed allows and sends [`Snapshot`]s to the main thread; where no worker can start
//! (and in the browser tests of the race session itself) it runs on the main thread inside
//! requestAnimationFrame ([`crate::play::session`]). Either way the commands mean the same and
//! the trajectory is the same.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use packlab_core::EngineError;
use packlab_core::limits::PAGE_MAX_POINTS;
use packlab_core::scenario::Setup;

use crate::play::race::Race;
use crate::play::snapshot::{Phase, Rate, Snapshot};
use crate::state::Speed;

/// Longest gap between two slices honoured: after a stall (hidden tab, breakpoint) the race
/// resumes at its normal pace instead of catching up.
pub const MAX_FRAME_GAP_MS: f64 = 100.0;
/// The rate meter's window.
const METER_WINDOW_MS: f64 = 1000.0;

/// What the page asks of a race.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Command {
    Play,
    Pause,
    /// Pause and run one step: a slot, or in continuous time the next event.
    Step,
    /// Pause and go one step back.
    Back,
    /// Pause and go to a time within the run so far (the timeline).
    Seek(f64),
    /// Play at full speed to a time and pause there (a link's `t=`).
    OpenAt(f64),
    /// Back to time 0, paused.
    Restart,
    /// Back to time 0 and play: "Run again" at the horizon.
    RunAgain,
    /// The lane whose per-bin series the snapshots carry.
    Focus(usize),
    Speed(Speed),
    /// The scenario's changes from now on (a knob moved while the race plays, as
    /// `T:KEY=VALUE;…`): the race takes them and goes on from where it is (RES-96).
    Changes(String),
}

impl Command {
    /// What the play button (and Space) asks of a race the page shows in `phase`: it acts on
    /// what the person sees. The race itself may be further on: in the worker it may have
    /// reached the horizon after the snapshot the page shows, and a toggle decided there would
    /// turn the "Pause" someone clicked into "Run again".
    pub fn toggle(phase: &Phase) -> Option<Command> {
        match phase {
            Phase::Running => Some(Command::Pause),
            Phase::Ready | Phase::Paused => Some(Command::Play),
            Phase::Finished => Some(Command::RunAgain),
            Phase::Failed(_) => None,
        }
    }
}

/// A race and where it is in play.
pub struct Player {
    setup: Rc<Setup>,
    race: Race,
    phase: Phase,
    speed: Speed,
    focus: usize,
    /// When the previous slice of play started.
    last_slice: Option<f64>,
    /// Fraction of a slot owed from earlier slices (slow speeds run less than one per frame).
    owed: f64,
    /// Where playing stops by itself: the moment a link opens at (`t=`), reached at full
    /// speed.
    stop_at: Option<f64>,
    /// The slot playing does not pass, where the race is one part of a race split over
    /// several workers: the page sets it so that every part stops at the same slots
    /// ([`crate::play::split`]).
    limit: Option<u64>,
    /// How many parts the race it is part of has (0: a whole race).
    parts: u64,
    meter: Meter,
}

/// Slices and slots counted over a window of play.
#[derive(Default)]
struct Meter {
    since: Option<f64>,
    slices: u32,
    slots: u64,
    /// Wall time spent simulating, in ms.
    simulating: f64,
    rate: Option<Rate>,
}

impl Meter {
    fn count(&mut self, now: f64, slots: u64, simulating: f64) {
        let since = *self.since.get_or_insert(now);
        self.slices += 1;
        self.slots += slots;
        self.simulating += simulating;
        let span = now - since;
        if span >= METER_WINDOW_MS {
            self.rate = Some(Rate {
                fps: f64::from(self.slices) * 1000.0 / span,
                slots_per_second: self.slots as f64 * 1000.0 / span,
                simulating_ms: self.simulating / f64::from(self.slices),
                worker: false,
                workers: 0,
            });
            (self.since, self.slices, self.slots, self.simulating) = (Some(now), 0, 0, 0.0);
        }
    }
}

impl Player {
    pub fn new(setup: Rc<Setup>, speed: Speed) -> Self {
        Self::build(setup, speed, 0)
    }

    /// A player of one of `parts` parts of a race split over several workers
    /// ([`crate::play::split`]): `setup` holds that part's policies.
    pub fn part(setup: Rc<Setup>, speed: Speed, parts: u64) -> Self {
        Self::build(setup, speed, parts.max(1))
    }

    fn build(setup: Rc<Setup>, speed: Speed, parts: u64) -> Self {
        let race = new_race(&setup, parts);
        Self {
            setup,
            race,
            phase: Phase::Ready,
            speed,
            focus: 0,
            last_slice: None,
            owed: 0.0,
            stop_at: None,
            limit: None,
            parts,
            meter: Meter::default(),
        }
    }

    /// Sets the slot playing stops at (it stays playing there, held, until the limit moves).
    pub fn set_limit(&mut self, limit: Option<u64>) {
        self.limit = limit;
    }

    /// Slots every lane has run.
    pub fn slot(&self) -> u64 {
        self.race.slot()
    }

    pub fn setup(&self) -> &Rc<Setup> {
        &self.setup
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    pub fn playing(&self) -> bool {
        self.phase == Phase::Running
    }

    /// Whether playing at a set speed is behind it by a slot or more (held at a mark, or out of
    /// time): the worker then plays on at once rather than waiting for the next slice.
    pub fn behind(&self) -> bool {
        self.playing() && self.owed >= 1.0
    }

    /// Whether playing is limited by the speed rather than by the machine: slices then need
    /// not follow each other at once.
    pub fn paced(&self) -> bool {
        self.stop_at.is_none() && self.speed.rate(self.setup.scenario.horizon()).is_some()
    }

    /// The race as the page shows it now, with the meter's latest reading.
    pub fn snapshot(&self) -> Snapshot {
        let mut snapshot = self.race.snapshot(self.phase.clone(), self.focus);
        snapshot.rate = self.meter.rate;
        snapshot
    }

    /// Carries out `command`. Returns whether the page has something new to show (a speed
    /// change alone has not).
    pub fn apply(&mut self, command: Command) -> bool {
        match command {
            Command::Play => {
                if self.race.finished() || self.playing() || matches!(self.phase, Phase::Failed(_)) {
                    return false;
                }
                self.last_slice = None;
                self.owed = 0.0;
                self.meter = Meter::default();
                self.enter(Phase::Running);
                true
            }
            Command::Pause => {
                if self.playing() {
                    self.enter(Phase::Paused);
                }
                true
            }
            Command::Step => self.move_paused(false, Race::step),
            // Going back works after a stop too (the waiting-job limit): the moments before it
            // are all there, exactly.
            Command::Back => self.move_paused(true, Race::step_back),
            Command::Seek(time) => self.move_paused(true, |race| race.seek(time)),
            Command::OpenAt(time) => {
                self.stop_at = Some(time);
                self.apply(Command::Play)
            }
            Command::Restart => {
                self.restart();
                true
            }
            Command::RunAgain => {
                self.restart();
                self.apply(Command::Play)
            }
            Command::Focus(lane) => {
                self.focus = lane;
                let phase = self.phase.clone();
                self.enter(phase);
                true
            }
            Command::Speed(speed) => {
                self.speed = speed;
                self.owed = 0.0;
                false
            }
            Command::Changes(text) => {
                let taken = packlab_core::changes::Changes::parse(&text)
                    .map_err(|e| e.to_string())
                    .and_then(|changes| self.race.amend(&changes));
                match taken {
                    // Restarting replays them too.
                    Ok(()) => {
                        let _ = Rc::make_mut(&mut self.setup).scenario.set(packlab_core::changes::KEY, &text);
                    }
                    Err(e) => self.phase = Phase::Failed(format!("the change could not be made: {e}")),
                }
                let phase = self.phase.clone();
                self.enter(phase);
                true
            }
        }
    }

    /// Stops playing where it is, with `phase` (a failure the caller met outside the race,
    /// such as an animation loop that would not start).
    pub fn fail(&mut self, message: String) {
        self.phase = Phase::Failed(message);
    }

    fn restart(&mut self) {
        self.race = new_race(&self.setup, self.parts);
        self.owed = 0.0;
        self.stop_at = None;
        self.enter(Phase::Ready);
    }

    /// Why the race stopped, naming the policy whose run stopped it.
    fn stopped(&self, e: &EngineError) -> String {
        match self.race.failed_lane() {
            Some(label) => format!("the simulation stopped: {label}: {e}"),
            None => format!("the simulation stopped: {e}"),
        }
    }

    /// Moves the race while paused; `back` moves (back, a jump) also leave a stopped race.
    fn move_paused(&mut self, back: bool, go: impl FnOnce(&mut Race) -> Result<(), EngineError>) -> bool {
        if self.playing() {
            // Paused without explaining: the move explains once, where it lands.
            self.phase = Phase::Paused;
        }
        self.stop_at = None;
        if matches!(self.phase, Phase::Failed(_)) && !back {
            return false;
        }
        let phase = match go(&mut self.race) {
            Err(e) => Phase::Failed(self.stopped(&e)),
            Ok(()) if self.race.finished() => Phase::Finished,
            Ok(()) => Phase::Paused,
        };
        self.enter(phase);
        true
    }

    /// One slice of play, started at `now` (ms): runs the race for what the speed asks since
    /// the last slice, within `budget_ms` of wall time read from `clock`. Returns whether it
    /// plays on, and the ms it spent simulating.
    pub fn slice(&mut self, now: f64, budget_ms: f64, clock: impl Fn() -> f64) -> (bool, f64) {
        if !self.playing() {
            return (false, 0.0);
        }
        let started = clock();
        let gap = self.last_slice.replace(now).map_or(1000.0 / 60.0, |last| (now - last).clamp(0.0, MAX_FRAME_GAP_MS));
        let stop_at = self.stop_at;
        let rate = self.speed.rate(self.setup.scenario.horizon());
        let want = match (stop_at, rate) {
            // Whole units at full speed, then the rest exactly (below).
            (Some(stop), _) => (stop.floor() as u64).saturating_sub(self.race.slot()),
            (None, None) => u64::MAX,
            (None, Some(rate)) => {
                let due = self.owed + rate * gap / 1000.0;
                let whole = due.floor();
                self.owed = due - whole;
                whole as u64
            }
        };
        let due = want;
        let want = match self.limit {
            Some(limit) => want.min(limit.saturating_sub(self.race.slot())),
            None => want,
        };
        let result = self.race.advance(want, budget_ms, &clock);
        let simulated = clock() - started;
        if let Ok(slots) = result {
            self.meter.count(now, slots, simulated);
            // At a set pace, slots due but not run (held at a part's mark, or out of time) stay
            // owed, up to a second's worth: the pace holds over the run, not only slice by slice.
            if let (None, Some(rate)) = (stop_at, rate) {
                self.owed = (self.owed + due.saturating_sub(slots) as f64).min(rate.max(1.0));
            }
        }
        let mut next = match result {
            Err(e) => Phase::Failed(self.stopped(&e)),
            Ok(_) if self.race.finished() => Phase::Finished,
            Ok(_) => Phase::Running,
        };
        if let Some(stop) = stop_at.filter(|stop| self.race.slot() >= stop.floor() as u64) {
            self.stop_at = None;
            // A moment between whole units (a link to an event) is reached event by event.
            let short_of_it = stop > self.race.now();
            if next == Phase::Running
                && short_of_it
                && let Err(e) = self.race.seek(stop)
            {
                next = Phase::Failed(self.stopped(&e));
            }
            if next == Phase::Running {
                next = Phase::Paused;
            }
        }
        self.enter(next);
        (self.playing(), simulated)
    }

    /// Enters `phase`. A race that stops is explained first (its decision log made by
    /// replay, [`Race::explain`]); a playing one keeps no log.
    fn enter(&mut self, phase: Phase) {
        self.phase = match phase {
            Phase::Running => {
                if self.race.explaining() {
                    self.race.quiet();
                }
                phase
            }
            Phase::Failed(_) => phase,
            stopped => match self.race.explain() {
                Ok(()) => stopped,
                Err(e) => Phase::Failed(self.stopped(&e)),
            },
        };
    }
}

/// The race of `setup`: whole (`parts` 0), or one of `parts` parts of a split race.
fn new_race(setup: &Setup, parts: u64) -> Race {
    let race = Race::new(setup, PAGE_MAX_POINTS);
    if parts > 0 { race.into_part(parts) } else { race }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(link: &str, speed: Speed) -> Player {
        Player::new(Rc::new(crate::play::worker::host::setup_of(link).unwrap()), speed)
    }

    /// A clock that says `ms` whenever asked: a slice then runs what the speed asks.
    fn frozen(ms: f64) -> impl Fn() -> f64 {
        move || ms
    }

    #[test]
    fn commands_play_pause_step_and_go_back() {
        let mut d = player("preset=pgrr-a1&servers=10&horizon=500", Speed::Max);
        assert_eq!(d.phase(), &Phase::Ready);
        assert!(!d.apply(Command::Speed(Speed::PerSecond(1000))), "a speed alone shows nothing new");
        assert!(d.apply(Command::toggle(d.phase()).unwrap()));
        assert!(d.playing());
        // The first slice counts as one frame at 60 Hz, then 1000 slots/s over a 100 ms gap.
        d.slice(0.0, 5.0, frozen(0.0));
        assert_eq!(d.snapshot().slot, 16);
        d.slice(100.0, 5.0, frozen(100.0));
        assert_eq!(d.snapshot().slot, 116);
        assert!(d.apply(Command::toggle(d.phase()).unwrap()));
        assert_eq!(d.phase(), &Phase::Paused);
        assert_eq!(d.slice(200.0, 5.0, frozen(200.0)), (false, 0.0), "a paused race does not run");
        d.apply(Command::Step);
        assert_eq!(d.snapshot().slot, 117);
        d.apply(Command::Back);
        d.apply(Command::Back);
        assert_eq!(d.snapshot().slot, 115);
        assert!(!d.snapshot().lanes[0].decisions.is_empty(), "a stopped race is explained");
        d.apply(Command::Seek(450.5));
        assert_eq!(d.snapshot().slot, 450);
        d.apply(Command::Restart);
        assert_eq!((d.snapshot().slot, d.phase().clone()), (0, Phase::Ready));
    }

    /// The default pace plays the whole run in 30 s of the page's clock: two seconds of frames
    /// at 60 Hz run a fifteenth of it (the browser test checks only that the menu says so;
    /// its wall clock is not a test's to trust).
    #[test]
    fn the_default_pace_plays_a_run_in_thirty_seconds() {
        let mut d = player("preset=pgas-c6&seed=1", Speed::DEFAULT);
        let horizon = d.snapshot().horizon as f64;
        d.apply(Command::Play);
        let frame = 1000.0 / 60.0;
        for k in 0..120 {
            let now = k as f64 * frame;
            d.slice(now, 1000.0, frozen(now));
        }
        let slot = d.snapshot().slot as f64;
        assert!((slot - horizon * 2.0 / 30.0).abs() <= 1.0, "{slot} of {horizon} after 2 s");
        assert!(d.playing());
    }

    /// A part of a split race, held at the page's marks, keeps a set pace over the run: the
    /// slots due while it waited at a mark stay owed, and while it is behind the worker plays
    /// on at once. (Dropping them lost a third of the pace and more: `vqs,bf-js` took 26 s at
    /// "whole run in 10 s", issue 53.) Here the worker's loop: a slice every 8 ms, marks 5 ms
    /// of play apart.
    #[test]
    fn a_part_held_at_marks_keeps_the_pace() {
        let setup = Rc::new(crate::play::worker::host::setup_of("preset=pgrr-a1&servers=10&horizon=100000").unwrap());
        let mut d = Player::part(setup, Speed::Duration(10), 2);
        d.apply(Command::Play);
        let (mut mark, mut now) = (50, 0.0);
        for _ in 0..10_000 {
            if now >= 1000.0 {
                break;
            }
            d.set_limit(Some(mark));
            d.slice(now, 1000.0, frozen(now));
            if d.slot() >= mark {
                mark += 50;
            }
            if !d.behind() {
                now += 8.0;
            }
        }
        // A second at 10 000 slots/s (the first slice counts as a frame at 60 Hz).
        let slot = d.slot();
        assert!((9_900..=10_200).contains(&slot), "{slot} slots in a second");
    }

    #[test]
    fn a_link_time_is_reached_at_full_speed_and_the_horizon_ends_play() {
        let mut d = player("preset=pgrr-a1&servers=10&horizon=300", Speed::PerSecond(1));
        d.apply(Command::OpenAt(120.0));
        while d.playing() {
            d.slice(0.0, 50.0, frozen(0.0));
        }
        assert_eq!((d.snapshot().slot, d.phase().clone()), (120, Phase::Paused));
        d.apply(Command::Speed(Speed::Max));
        d.apply(Command::Play);
        while d.playing() {
            d.slice(0.0, 50.0, frozen(0.0));
        }
        assert_eq!((d.snapshot().slot, d.phase().clone()), (300, Phase::Finished));
        // The button at the horizon runs it again from 0.
        assert_eq!(Command::toggle(d.phase()), Some(Command::RunAgain));
        d.apply(Command::RunAgain);
        assert!(d.playing());
        assert_eq!(d.snapshot().slot, 0);
    }

    /// The button acts on what the page shows. A worker's race can reach the horizon after
    /// the last snapshot the page drew, while the button still says "Pause": the pause must
    /// then leave the finished race where it is, not run it again from 0.
    #[test]
    fn a_pause_that_arrives_after_the_horizon_leaves_the_race_finished() {
        let mut d = player("preset=pgrr-a1&servers=10&horizon=300", Speed::Max);
        d.apply(Command::Play);
        let shown = d.phase().clone();
        while d.playing() {
            d.slice(0.0, 50.0, frozen(0.0));
        }
        assert_eq!(d.phase(), &Phase::Finished);
        d.apply(Command::toggle(&shown).unwrap());
        assert_eq!((d.snapshot().slot, d.phase().clone()), (300, Phase::Finished));
        assert_eq!(Command::toggle(&Phase::Failed("x".into())), None, "a failed race has nothing to toggle");
    }
}
