//! A race shown on the page, for as long as its setup lasts: where it runs, its latest
//! snapshot, and the controls' commands.
//!
//! The engine stays out of the component tree: [`RaceSession`] owns the race (in the race
//! worker, or here), keeps the latest [`Snapshot`], and hands each new one to the component
//! ([`crate::play::use_race`] passes it on to what draws every frame). Dropping the session (the component
//! unmounts, or the setup changes) stops the race.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use packlab_core::scenario::Setup;

use crate::dom::workers::{cores, now_ms};
use crate::play::frame_budget::FrameBudget;
use crate::play::frame_loop::FrameLoop;
use crate::play::player::{Command, Player};
use crate::play::snapshot::{Phase, Snapshot};
use crate::play::worker::client::{Listener, RaceWorker, RemoteRace};
use crate::play::worker::host::link_of;
use crate::state::Speed;

/// Owns a race and shows it: the latest [`Snapshot`], and the commands of the controls.
///
/// The race runs in the race worker when one can start ([`RaceSession::threaded`]): the main
/// thread then only draws the snapshots the worker sends, one per animation frame at most.
/// Otherwise (no worker, a trace file the worker was not given or could not read, the
/// session's own browser tests) it runs here, inside requestAnimationFrame, within a frame
/// budget ([`FrameBudget`]). Both run the same [`Player`], so the commands mean the same and
/// the trajectory is the same.
pub struct RaceSession {
    state: Rc<SessionState>,
}

/// What a session shares with its animation loop and with the race worker's listener (both
/// hold it weakly, so dropping the session frees it).
struct SessionState {
    snapshot: RefCell<Rc<Snapshot>>,
    /// Hands the view each new snapshot.
    notify: Notify,
    location: RefCell<RaceLocation>,
    /// The speed last asked for (a worker is told only when it changes).
    speed: Cell<Speed>,
    /// The animation loop of a race played here.
    frames: RefCell<Option<FrameLoop>>,
    budget: Cell<FrameBudget>,
    /// When the current frame's tick started and how long its simulation took, in ms.
    tick: Cell<(f64, f64)>,
}

/// What a session hands each new snapshot to.
type Notify = Box<dyn Fn(&Rc<Snapshot>)>;

/// Where the race runs.
enum RaceLocation {
    /// Here, on the page's own thread.
    Page(Player),
    /// In the race worker, which has not answered yet. The player here made the first
    /// snapshot; it takes over, with the commands sent so far, if the worker cannot run the
    /// race.
    Starting { player: Player, sent: Vec<Command>, remote: Rc<RemoteRace> },
    /// In the race worker.
    Worker(Rc<RemoteRace>),
}

impl RaceSession {
    /// A session that plays `setup` on the main thread. `notify` is given each new snapshot.
    pub fn new(setup: Rc<Setup>, speed: Speed, notify: impl Fn(&Rc<Snapshot>) + 'static) -> Self {
        Self::with(Player::new(setup, speed), speed, Box::new(notify), &[])
    }

    /// A session that plays `setup` in the race workers where it can (its lanes split over
    /// one worker per core), else here.
    pub fn threaded(setup: Rc<Setup>, speed: Speed, notify: impl Fn(&Rc<Snapshot>) + 'static) -> Self {
        let player = Player::new(setup.clone(), speed);
        let workers: Vec<_> = RaceWorker::pool(cores().min(setup.policies.len()))
            .inspect_err(|e| {
                web_sys::console::warn_1(&format!("packlab: the race runs on the page's thread: {e}").into())
            })
            .unwrap_or_default()
            .into_iter()
            .filter(|worker| worker_can_run(worker, &setup))
            .collect();
        Self::with(player, speed, Box::new(notify), &workers)
    }

    /// Starts the race workers that [`Self::threaded`] plays `setup` in, before its race is
    /// made: on a phone, starting them and making the race were one long task together
    /// (docs/web.md, "What blocks a phone"). The workers stay for the race that follows.
    pub fn prepare_workers(setup: &Setup) {
        // Whatever goes wrong, `threaded` meets it again and says so.
        let _ = RaceWorker::pool(cores().min(setup.policies.len()));
    }

    /// A session whose first snapshot is `player`'s; with `workers`, the race is started in
    /// them and `player` stands by until they answer.
    fn with(player: Player, speed: Speed, notify: Notify, workers: &[Rc<RaceWorker>]) -> Self {
        let snapshot = Rc::new(player.snapshot());
        let setup = player.setup().clone();
        let state = Rc::new_cyclic(|me: &Weak<SessionState>| {
            let location = if workers.is_empty() {
                RaceLocation::Page(player)
            } else {
                let remote = RaceWorker::start(workers, &setup, speed, ToSession(me.clone()));
                RaceLocation::Starting { player, sent: Vec::new(), remote }
            };
            SessionState {
                snapshot: RefCell::new(snapshot),
                notify,
                location: RefCell::new(location),
                speed: Cell::new(speed),
                frames: RefCell::new(None),
                budget: Cell::new(FrameBudget::default()),
                tick: Cell::new((0.0, 0.0)),
            }
        });
        Self { state }
    }

    /// Whether the race runs in the race worker (once the worker has answered).
    pub fn in_worker(&self) -> bool {
        matches!(*self.state.location.borrow(), RaceLocation::Worker(_))
    }

    /// The latest snapshot.
    pub fn snapshot(&self) -> Rc<Snapshot> {
        self.state.snapshot.borrow().clone()
    }

    pub fn set_speed(&self, speed: Speed) {
        if self.state.speed.replace(speed) != speed {
            self.state.send(Command::Speed(speed));
        }
    }

    /// Chooses the lane whose per-bin series are published.
    pub fn set_focus(&self, lane: usize) {
        self.state.send(Command::Focus(lane));
    }

    /// Play ⇄ pause; at the horizon, runs the race again from slot 0. Decided by the
    /// snapshot shown ([`Command::toggle`]), not where the race has got to since.
    pub fn toggle(&self) {
        let command = Command::toggle(&self.snapshot().phase);
        if let Some(command) = command {
            self.state.send(command);
        }
    }

    /// Starts or resumes playing.
    pub fn play(&self) {
        self.state.send(Command::Play);
    }

    pub fn pause(&self) {
        self.state.send(Command::Pause);
    }

    /// Pauses and runs one step: a slot, or in continuous time the next event.
    pub fn step(&self) {
        self.state.send(Command::Step);
    }

    /// Pauses and goes one step back: a slot, or the previous event.
    pub fn step_back(&self) {
        self.state.send(Command::Back);
    }

    /// Pauses and goes to `time` within the run so far (the timeline's scrubber).
    pub fn seek(&self, time: f64) {
        self.state.send(Command::Seek(time));
    }

    /// Plays at full speed up to `time` and pauses there: a link's `t=`.
    pub fn open_at(&self, time: f64) {
        self.state.send(Command::OpenAt(time));
    }

    /// Back to slot 0, paused.
    pub fn restart(&self) {
        self.state.send(Command::Restart);
    }

    /// Whether the race of `old` takes `new` where it is: `new` differs from `old` in its
    /// changes alone, from a moment past 0, the race has left 0 (RES-96; a race at 0, or a
    /// change at 0, is as quick to start again), and a race of `old` can take each new change
    /// (the core's `live_refusal`: not more servers than it was built for). The race is then
    /// given the new changes.
    pub fn take_changes(&self, old: &Setup, new: &Setup) -> bool {
        let key = packlab_core::changes::KEY;
        let text = new.scenario.get(key).unwrap_or_default();
        let mut same = old.clone();
        if same.scenario.set(key, &text).is_err() || same != *new {
            return false;
        }
        let changes = |s: &Setup| s.scenario.any().window().changes.clone();
        let at = changes(old).first_difference(&changes(new));
        if at == Some(0) || self.snapshot().now <= 0.0 {
            return false;
        }
        let from = at.unwrap_or(u64::MAX);
        let new_changes = changes(new);
        let mut taken = new_changes.iter().filter(|c| c.at >= from);
        if taken.any(|c| old.scenario.any().live_refusal(&c.key, &c.value).is_some()) {
            return false;
        }
        self.state.send(Command::Changes(text));
        true
    }
}

impl Drop for RaceSession {
    fn drop(&mut self) {
        self.state.frames.borrow_mut().take();
        if let RaceLocation::Worker(remote) | RaceLocation::Starting { remote, .. } = &*self.state.location.borrow() {
            remote.end();
        }
    }
}

impl SessionState {
    /// Carries out `command` where the race runs.
    fn send(self: &Rc<Self>, command: Command) {
        let changed = {
            let mut location = self.location.borrow_mut();
            match &mut *location {
                RaceLocation::Page(player) => Some(player.apply(command)),
                RaceLocation::Starting { sent, remote, .. } => {
                    sent.push(command.clone());
                    remote.command(command);
                    None
                }
                RaceLocation::Worker(remote) => {
                    remote.command(command);
                    None
                }
            }
        };
        // Here, the loop follows the player and the change is shown at once; the worker
        // answers with a snapshot of its own.
        if let Some(changed) = changed {
            self.follow_player();
            if changed {
                self.publish_here();
            }
        }
    }

    /// Starts or stops the animation loop of a race played here, as its player now plays
    /// or not.
    fn follow_player(self: &Rc<Self>) {
        let playing = matches!(&*self.location.borrow(), RaceLocation::Page(player) if player.playing());
        if !playing {
            self.frames.borrow_mut().take();
            return;
        }
        if self.frames.borrow().as_ref().is_some_and(FrameLoop::is_running) {
            return;
        }
        let weak: Weak<SessionState> = Rc::downgrade(self);
        let after = weak.clone();
        let started = FrameLoop::start(
            move |now| weak.upgrade().is_some_and(|state| state.frame_here(now)),
            move |done| {
                if let Some(state) = after.upgrade() {
                    state.rendered(done);
                }
            },
        );
        match started {
            Ok(frames) => *self.frames.borrow_mut() = Some(frames),
            Err(e) => {
                if let RaceLocation::Page(player) = &mut *self.location.borrow_mut() {
                    player.fail(format!("cannot start the animation loop: {e:?}"));
                }
                self.publish_here();
            }
        }
    }

    /// One animation frame of a race played here: a slice of play within the frame budget,
    /// then the snapshot. Returns whether to keep going.
    fn frame_here(&self, now: f64) -> bool {
        let started = now_ms();
        let again = {
            let mut location = self.location.borrow_mut();
            let RaceLocation::Page(player) = &mut *location else { return false };
            let (again, simulated) = player.slice(now, self.budget.get().ms(), now_ms);
            self.tick.set((started, simulated));
            again
        };
        self.publish_here();
        again
    }

    /// The frame that started with the last tick is rendered, at `done` (ms): the main
    /// thread's work besides the simulation sets the next frames' budget.
    fn rendered(&self, done: f64) {
        let (started, simulated) = self.tick.get();
        let mut budget = self.budget.get();
        budget.after_frame(done - started - simulated);
        self.budget.set(budget);
    }

    /// Shows the snapshot of a race played here.
    fn publish_here(&self) {
        let snapshot = match &*self.location.borrow() {
            RaceLocation::Page(player) => player.snapshot(),
            _ => return,
        };
        self.show(snapshot);
    }

    /// Shows `snapshot`. No borrow of the location is held: the view may render at once and
    /// ask for the speed.
    fn show(&self, snapshot: Snapshot) {
        let snapshot = Rc::new(snapshot);
        *self.snapshot.borrow_mut() = snapshot.clone();
        (self.notify)(&snapshot);
    }

    /// A snapshot the worker sent, in an animation frame. The first one means the worker
    /// runs the race: the player here is no longer needed.
    fn shown_by_worker(&self, snapshot: Snapshot) {
        {
            let mut location = self.location.borrow_mut();
            if let RaceLocation::Starting { remote, .. } = &*location {
                let remote = remote.clone();
                *location = RaceLocation::Worker(remote);
            }
        }
        self.show(snapshot);
    }

    /// The worker cannot run the race: before it ran any, the race goes on here with the
    /// commands sent so far; after, the race stops with `message`.
    fn worker_failed(self: &Rc<Self>, message: String) {
        let mut location = self.location.borrow_mut();
        let RaceLocation::Starting { remote, .. } = &*location else {
            drop(location);
            let mut snapshot = (**self.snapshot.borrow()).clone();
            snapshot.phase = Phase::Failed(format!("the simulation stopped: {message}"));
            self.show(snapshot);
            return;
        };
        let remote = remote.clone();
        let RaceLocation::Starting { mut player, sent, .. } =
            std::mem::replace(&mut *location, RaceLocation::Worker(remote))
        else {
            unreachable!("matched just above")
        };
        web_sys::console::warn_1(&format!("packlab: the race runs on the page's thread: {message}").into());
        for command in sent {
            player.apply(command);
        }
        *location = RaceLocation::Page(player);
        drop(location);
        self.follow_player();
        self.publish_here();
    }
}

/// Whether the worker can rebuild `setup` from its link: a trace file the link names by
/// fingerprint must be one the worker was given (a file loaded before the worker existed, or
/// while it could not be reached, is only the page's).
fn worker_can_run(worker: &RaceWorker, setup: &Setup) -> bool {
    let link = link_of(setup);
    link.split('&')
        .filter_map(|pair| pair.strip_prefix("trace="))
        .filter(|v| packlab_core::trace::parse_fingerprint(v).is_ok())
        .all(|fingerprint| worker.knows_trace(fingerprint))
}

/// The session as the race worker's listener.
struct ToSession(Weak<SessionState>);

impl Listener for ToSession {
    fn show(&self, snapshot: Snapshot) {
        if let Some(state) = self.0.upgrade() {
            state.shown_by_worker(snapshot);
        }
    }

    fn failed(&self, message: String) {
        if let Some(state) = self.0.upgrade() {
            state.worker_failed(message);
        }
    }
}
