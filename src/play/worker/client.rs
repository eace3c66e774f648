//! The page's side of the race workers: [`RaceWorker`] starts them, hands them the files of a
//! trace, and plays [`RemoteRace`]s in them, drawing the snapshots they send with the page's
//! animation frames (the messages are listed in [`crate::play::worker`]). A race of several
//! lanes is split over up to `navigator.hardwareConcurrency` workers, one part of its lanes in
//! each, kept in lockstep by [`Lockstep`] ([`crate::play::split`]).

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

use packlab_core::scenario::Setup;

use crate::dom::workers::{asset_url, cores, module_urls, now_ms, worker_init};
use crate::play::player::Command;
use crate::play::snapshot::{Phase, Snapshot};
use crate::play::split::{Lockstep, ToPart, split};
use crate::play::worker::host::link_of;
use crate::state::Speed;

/// What a race shown from the worker tells its race session.
pub trait Listener {
    /// A snapshot to show, in an animation frame.
    fn show(&self, snapshot: Snapshot);
    /// The worker cannot run the race.
    fn failed(&self, message: String);
}

/// One of the page's race workers.
pub struct RaceWorker {
    worker: Worker,
    /// The race shown now, and which of its parts this worker plays: its messages are the only
    /// ones heeded.
    current: RefCell<(Weak<RemoteRace>, usize)>,
    /// Why the worker cannot run races, once it has said so.
    broken: RefCell<Option<String>>,
    /// The fingerprints of the trace files the worker was given.
    traces: RefCell<std::collections::BTreeSet<String>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

thread_local! {
    /// The race workers started so far; the first is the one a race of one part plays in.
    static WORKERS: RefCell<Vec<Rc<RaceWorker>>> = const { RefCell::new(Vec::new()) };
    /// The number of the next race, in every worker.
    static NEXT_RACE: Cell<u64> = const { Cell::new(0) };
}

impl RaceWorker {
    /// The page's first race worker, started on first use.
    pub fn get() -> Result<Rc<RaceWorker>, String> {
        let first = WORKERS.with(|w| w.borrow().first().cloned());
        if let Some(race_worker) = first {
            let broken = race_worker.broken.borrow().clone();
            return match broken {
                Some(why) => Err(why),
                None => Ok(race_worker),
            };
        }
        let race_worker = Self::spawn()?;
        WORKERS.with(|w| w.borrow_mut().push(race_worker.clone()));
        Ok(race_worker)
    }

    /// Up to `n` race workers that can run races (the first of them [`RaceWorker::get`]'s),
    /// started on first use; fewer where the page cannot start more.
    pub fn pool(n: usize) -> Result<Vec<Rc<RaceWorker>>, String> {
        let first = Self::get()?;
        while WORKERS.with(|w| w.borrow().len()) < n {
            match Self::spawn() {
                Ok(more) => WORKERS.with(|w| w.borrow_mut().push(more)),
                Err(e) => {
                    web_sys::console::warn_1(&format!("packlab: fewer race workers: {e}").into());
                    break;
                }
            }
        }
        let all = WORKERS.with(|w| w.borrow().clone());
        let mut usable: Vec<_> =
            all.into_iter().skip(1).filter(|w| w.broken.borrow().is_none()).take(n.saturating_sub(1)).collect();
        usable.insert(0, first);
        Ok(usable)
    }

    fn spawn() -> Result<Rc<RaceWorker>, String> {
        let (js, wasm) = module_urls().ok_or("cannot find the page's wasm module")?;
        let script = asset_url("race-worker.js").ok_or("cannot find race-worker.js")?;
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker =
            Worker::new_with_options(&script, &options).map_err(|e| format!("cannot start a worker: {e:?}"))?;
        let race_worker = Rc::new_cyclic(|me: &Weak<RaceWorker>| {
            let on_message = {
                let me = me.clone();
                Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                    if let Some(race_worker) = me.upgrade() {
                        race_worker.heard(&event.data());
                    }
                })
            };
            let on_error = {
                let me = me.clone();
                Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
                    if let Some(race_worker) = me.upgrade() {
                        race_worker.break_down(format!("the race worker failed: {}", event.message()));
                    }
                })
            };
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            RaceWorker {
                worker: worker.clone(),
                current: RefCell::new((Weak::new(), 0)),
                broken: RefCell::new(None),
                traces: RefCell::new(std::collections::BTreeSet::new()),
                _on_message: on_message,
                _on_error: on_error,
            }
        });
        let init = worker_init(&js, &wasm)?;
        race_worker.worker.post_message(&init).map_err(|e| format!("cannot talk to the race worker: {e:?}"))?;
        Ok(race_worker)
    }

    /// Gives every race worker the files of a trace the page is reading (the blobs themselves,
    /// not copies), for its own library. Returns the workers, to be told the trace's
    /// fingerprint once the page knows it ([`TraceHolders::has_trace`]); `None` when there is
    /// no worker.
    pub fn share_trace(files: &[(String, web_sys::Blob)]) -> Option<TraceHolders> {
        // Every worker a race may be split over, started now if need be.
        Self::pool(cores()).ok()?;
        let message = crate::trace_file::worker_message(files)?;
        let holders: Vec<_> = WORKERS
            .with(|w| w.borrow().clone())
            .into_iter()
            .filter(|race_worker| race_worker.worker.post_message(&message).is_ok())
            .collect();
        Some(TraceHolders(holders))
    }

    /// Whether the worker was given trace `fingerprint`.
    pub fn knows_trace(&self, fingerprint: &str) -> bool {
        self.traces.borrow().contains(fingerprint)
    }

    /// Plays `setup` in `workers` from now on (its lanes split over them, where it has more
    /// than one lane and there is more than one worker), shown through `listener`.
    pub fn start(
        workers: &[Rc<RaceWorker>],
        setup: &Setup,
        speed: Speed,
        listener: impl Listener + 'static,
    ) -> Rc<RemoteRace> {
        let id = NEXT_RACE.with(|n| n.replace(n.get() + 1));
        let parts = split(setup, workers.len());
        let workers: Vec<_> = workers.iter().take(parts.len()).cloned().collect();
        let lockstep = (parts.len() > 1).then(|| {
            let mut lockstep = Lockstep::new(&parts);
            lockstep.set_speed(speed);
            RefCell::new(lockstep)
        });
        let race = Rc::new(RemoteRace {
            id,
            workers: workers.clone(),
            lockstep,
            pending: RefCell::new(None),
            frame: RefCell::new(None),
            requested: Cell::new(None),
            playing: Cell::new(false),
            idle_frames: Cell::new(0),
            speed: Cell::new(speed),
            meter: RefCell::new(DrawMeter::default()),
            listener: Box::new(listener),
        });
        let speed = serde_json::to_value(speed).unwrap_or_default().to_string();
        for (k, (worker, part)) in workers.iter().zip(&parts).enumerate() {
            *worker.current.borrow_mut() = (Rc::downgrade(&race), k);
            let message = serde_json::json!({
                "race": id, "link": link_of(&part.setup), "speed": speed,
                "parts": if parts.len() > 1 { parts.len() } else { 0 }
            });
            if let Err(e) = worker.post(&message.to_string()) {
                worker.break_down(e);
            }
        }
        race
    }

    fn post(&self, message: &str) -> Result<(), String> {
        self.worker
            .post_message(&JsValue::from_str(message))
            .map_err(|e| format!("cannot talk to the race worker: {e:?}"))
    }

    /// A message from the worker.
    fn heard(&self, data: &JsValue) {
        let field =
            |name: &str| js_sys::Reflect::get(data, &JsValue::from_str(name)).ok().filter(|v| !v.is_undefined());
        let race = field("race").and_then(|v| v.as_f64()).unwrap_or(-1.0);
        if let Some(error) = field("error") {
            let message = error.as_string().unwrap_or_else(|| format!("{error:?}"));
            if race < 0.0 {
                self.break_down(message);
            } else if let Some((current, _)) = self.current_if(race) {
                current.listener.failed(message);
            }
            return;
        }
        let Some((current, part)) = self.current_if(race) else { return };
        let Some(buffer) = field("snapshot") else { return };
        let starved = field("starved").is_some_and(|v| v.is_truthy());
        let answered = field("answered").and_then(|v| v.as_f64()).unwrap_or(0.0) as u64;
        match Snapshot::from_bytes(&js_sys::Uint8Array::new(&buffer).to_vec()) {
            Ok(snapshot) => current.arrived_from(part, snapshot, starved, answered),
            Err(e) => current.listener.failed(e),
        }
    }

    /// The race shown now and the part of it this worker plays, if it is race `id`.
    fn current_if(&self, id: f64) -> Option<(Rc<RemoteRace>, usize)> {
        let (race, part) = &*self.current.borrow();
        race.upgrade().filter(|race| race.id as f64 == id).map(|race| (race, *part))
    }

    /// Whether this worker plays race `id` now.
    fn plays(&self, id: u64) -> bool {
        self.current.borrow().0.upgrade().is_some_and(|race| race.id == id)
    }

    /// The worker cannot run races: says so to the race shown, and to every later one.
    fn break_down(&self, message: String) {
        *self.broken.borrow_mut() = Some(message.clone());
        let current = self.current.borrow().0.upgrade();
        if let Some(current) = current {
            current.listener.failed(message);
        }
    }
}

/// The race workers given a trace's files.
pub struct TraceHolders(Vec<Rc<RaceWorker>>);

impl TraceHolders {
    /// Notes that the workers were given the files of trace `fingerprint`: races replaying it
    /// run there (a worker reads messages in order, so it has read them before any race that
    /// needs them; should it fail, that race runs on the page).
    pub fn has_trace(&self, fingerprint: String) {
        for race_worker in &self.0 {
            race_worker.traces.borrow_mut().insert(fingerprint.clone());
        }
    }
}

/// Animation frames without a new snapshot after which a playing race stops asking for them
/// (a race in a hidden tab, or held back, sends none).
const IDLE_FRAMES: u32 = 30;

/// The JS function handed to requestAnimationFrame.
type FrameCallback = Closure<dyn FnMut(f64)>;

/// A race played in the race workers, as the page sees it.
pub struct RemoteRace {
    id: u64,
    /// The workers it plays in, one per part.
    workers: Vec<Rc<RaceWorker>>,
    /// The parts' lockstep, where the race is split over several workers.
    lockstep: Option<RefCell<Lockstep>>,
    /// The snapshot to draw with the next animation frame.
    pending: RefCell<Option<Snapshot>>,
    frame: RefCell<Option<FrameCallback>>,
    /// The animation frame requested, to cancel at the end.
    requested: Cell<Option<i32>>,
    /// Whether the last snapshot drawn was of the race playing, and the animation frames
    /// since the last snapshot came ([`RemoteRace::frame_fired`]).
    playing: Cell<bool>,
    idle_frames: Cell<u32>,
    /// The speed last set, for a part rebuilt with other lanes ([`ToPart::Become`]).
    speed: Cell<Speed>,
    meter: RefCell<DrawMeter>,
    listener: Box<dyn Listener>,
}

impl RemoteRace {
    /// Sends `command` to the workers.
    pub fn command(&self, command: Command) {
        if let Command::Speed(speed) = command {
            self.speed.set(speed);
        }
        match &self.lockstep {
            Some(lockstep) => {
                let out = lockstep.borrow_mut().command(command);
                self.post_parts(out);
            }
            None => self.post_part(0, ToPart::Do(command)),
        }
    }

    /// Sends each part its messages.
    fn post_parts(&self, out: Vec<(usize, ToPart)>) {
        for (part, message) in out {
            self.post_part(part, message);
        }
    }

    fn post_part(&self, part: usize, message: ToPart) {
        let Some(worker) = self.workers.get(part) else { return };
        let message = match message {
            ToPart::Do(command) => {
                let command = serde_json::to_value(command).unwrap_or_default();
                serde_json::json!({ "race": self.id, "do": command.to_string() })
            }
            ToPart::Marks(marks) => serde_json::json!({ "race": self.id, "marks": marks }),
            ToPart::More(more) => serde_json::json!({ "race": self.id, "more": more }),
            ToPart::Become { part, answered } => serde_json::json!({
                "race": self.id, "link": link_of(&part.setup), "parts": self.workers.len(), "answered": answered,
                "speed": serde_json::to_value(self.speed.get()).unwrap_or_default().to_string(),
            }),
        };
        if let Err(e) = worker.post(&message.to_string()) {
            self.listener.failed(e);
        }
    }

    /// The race is no longer shown: the workers drop it, unless they play a newer one already.
    pub fn end(&self) {
        if let (Some(id), Some(window)) = (self.requested.take(), web_sys::window()) {
            let _ = window.cancel_animation_frame(id);
        }
        self.playing.set(false);
        crate::dom::cores::race_plays(self.id, 0);
        self.frame.borrow_mut().take();
        for worker in &self.workers {
            if worker.plays(self.id) {
                *worker.current.borrow_mut() = (Weak::new(), 0);
                // Nothing more to do if this fails: the worker's next race replaces this one.
                let _ = worker.post(&serde_json::json!({ "race": self.id, "end": true }).to_string());
            }
        }
    }

    /// A snapshot from the worker of part `part`, sent after it carried out `answered`
    /// commands: the race's own, or with the other parts' one of the whole race.
    fn arrived_from(self: &Rc<Self>, part: usize, snapshot: Snapshot, starved: bool, answered: u64) {
        let Some(lockstep) = &self.lockstep else {
            self.arrived(snapshot);
            return;
        };
        let (whole, out) = lockstep.borrow_mut().arrived(part, snapshot, starved, answered, now_ms());
        self.post_parts(out);
        if let Some(whole) = whole {
            self.arrived(whole);
        }
    }

    /// A snapshot from the worker: drawn with the next animation frame (a newer one that
    /// arrives before replaces it).
    fn arrived(self: &Rc<Self>, snapshot: Snapshot) {
        // A race that stopped (a pause, a step, the horizon) is shown at once: the person
        // waits for it, and a page out of sight gets no animation frames (an embed scrolled
        // away pauses its race and must say so).
        let stopped = snapshot.phase != Phase::Running;
        *self.pending.borrow_mut() = Some(snapshot);
        if stopped {
            if let (Some(id), Some(window)) = (self.requested.take(), web_sys::window()) {
                let _ = window.cancel_animation_frame(id);
            }
            self.draw();
            return;
        }
        self.request_frame();
    }

    /// Asks for an animation frame, unless one is asked for already.
    fn request_frame(self: &Rc<Self>) {
        if self.requested.get().is_some() {
            return;
        }
        if self.frame.borrow().is_none() {
            let me = Rc::downgrade(self);
            *self.frame.borrow_mut() = Some(Closure::new(move |_: f64| {
                if let Some(race) = me.upgrade() {
                    race.frame_fired();
                }
            }));
        }
        let frame = self.frame.borrow();
        let requested = frame
            .as_ref()
            .zip(web_sys::window())
            .and_then(|(frame, window)| window.request_animation_frame(frame.as_ref().unchecked_ref()).ok());
        drop(frame);
        match requested {
            Some(id) => self.requested.set(Some(id)),
            // No animation frames (no window): draw at once.
            None => self.draw(),
        }
    }

    /// An animation frame: draws the snapshot that came since the last one, if any. While the
    /// race plays, the next frame is asked for here and now, whether or not a snapshot came:
    /// asked for from a worker's message instead, each frame cost the page's thread a quarter
    /// of a millisecond to start the browser's frames again (measured in a two-worker race),
    /// time the workers need. A loop that waited [`IDLE_FRAMES`] frames in vain stops; the
    /// next snapshot starts it again.
    fn frame_fired(self: &Rc<Self>) {
        self.requested.set(None);
        if self.pending.borrow().is_some() {
            self.idle_frames.set(0);
            self.draw();
        } else {
            self.idle_frames.set(self.idle_frames.get() + 1);
        }
        if self.playing.get() && self.idle_frames.get() < IDLE_FRAMES {
            self.request_frame();
        }
    }

    /// Draws the pending snapshot and asks the worker for the next.
    fn draw(&self) {
        self.requested.set(None);
        let Some(mut snapshot) = self.pending.borrow_mut().take() else { return };
        let playing = snapshot.phase == Phase::Running;
        if self.playing.replace(playing) != playing {
            // Sweeps and maps run fewer tasks at a time while the race plays.
            crate::dom::cores::race_plays(self.id, if playing { self.workers.len() } else { 0 });
        }
        match &self.lockstep {
            Some(lockstep) => {
                let out = lockstep.borrow_mut().drawn();
                self.post_parts(out);
            }
            None => {
                if let Some(worker) = self.workers.first() {
                    let _ = worker.post(&serde_json::json!({ "race": self.id, "drawn": true }).to_string());
                }
            }
        }
        let fps = self.meter.borrow_mut().count(now_ms(), snapshot.phase == Phase::Running);
        // The worker measured its slices; the page's frames are what the person sees.
        snapshot.rate = match (snapshot.rate, fps) {
            (Some(mut rate), Some(fps)) => {
                let simulating_per_second = rate.simulating_ms * rate.fps;
                rate.fps = fps;
                rate.simulating_ms = simulating_per_second / fps;
                rate.worker = true;
                rate.workers = rate.workers.max(1);
                Some(rate)
            }
            _ => None,
        };
        self.listener.show(snapshot);
    }
}

/// Snapshots drawn per second while the race plays.
#[derive(Default)]
struct DrawMeter {
    since: Option<f64>,
    frames: u32,
    fps: Option<f64>,
}

impl DrawMeter {
    /// Counts a frame drawn at `now`; returns the frames per second over the last window.
    fn count(&mut self, now: f64, playing: bool) -> Option<f64> {
        if !playing {
            *self = Self::default();
            return None;
        }
        let since = *self.since.get_or_insert(now);
        self.frames += 1;
        if now - since >= 1000.0 {
            self.fps = Some(f64::from(self.frames - 1) * 1000.0 / (now - since));
            (self.since, self.frames) = (Some(now), 1);
        }
        self.fps
    }
}
