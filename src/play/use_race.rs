//! The hook a component plays its race with: [`use_race`] owns a [`RaceSession`] for the
//! component's setup and hands the component the latest snapshot, the [`Frames`] its pictures
//! follow, and the controls' callbacks.

use std::rc::Rc;

use packlab_core::scenario::Setup;
use yew::prelude::*;

use crate::dom::workers::now_ms;
use crate::hooks::use_staged::{after_paint, in_a_task_of_its_own, mark};
use crate::hooks::use_text_pace::TextPace;
use crate::play::frames::Frames;
use crate::play::session::RaceSession;
use crate::play::snapshot::{Phase, Snapshot};
use crate::state::Speed;

/// What a new race does once shown.
#[derive(Default)]
enum Start {
    #[default]
    Nothing,
    /// Play on: the race it replaced was playing.
    Play,
    /// Play to this time and pause: the link's `t=`.
    OpenAt(f64),
}

/// What a component gets from [`use_race`].
pub struct RaceHandle {
    /// The race as the component last rendered it: while it plays, ten times a second (see
    /// [`Frames`]).
    pub snapshot: Rc<Snapshot>,
    /// Every snapshot, for what draws every frame ([`crate::play::frames::use_frames`]).
    pub frames: Frames,
    /// Why the race is at time 0 though the person had run it: the scenario changed mid-run
    /// (said once per new race; a change used to restart the run silently).
    pub restarted: Option<Rc<str>>,
    pub toggle: Callback<()>,
    /// Pauses if playing; plays if paused (never restarts a finished run, unlike `toggle`).
    pub pause: Callback<()>,
    pub play: Callback<()>,
    pub step: Callback<()>,
    pub back: Callback<()>,
    /// Goes to a time within the run so far.
    pub seek: Callback<f64>,
    pub restart: Callback<()>,
    pub focus: Callback<usize>,
    /// Where the race runs: `worker` (the race worker) or `page` (the page's own thread, also
    /// while the worker has not answered yet).
    pub thread: &'static str,
    /// Whether the race is made (see `after_first_paint` in [`use_race`]).
    pub started: bool,
}

/// Runs `setup` as a race owned by the calling component, at `speed` (changing the speed
/// keeps the race; changing the setup starts a new one). A new race opens at `open_at` when
/// the link asks (`t=`): it plays there at full speed and pauses.
///
/// A new setup while the old race had run says so in [`RaceHandle::restarted`]; if the old
/// race was playing, the new one plays on from time 0.
///
/// The calling component renders again when its text would move ([`TextPace`]: ten times a
/// second while the race plays, at once when it stops, steps, jumps or starts anew); every
/// snapshot goes to [`RaceHandle::frames`], which the lanes and charts follow.
///
/// With `after_first_paint`, the first race is made in a task of its own after the first
/// frame is painted rather than in the first render: building its lanes (each policy's
/// simulation and its analysis) and starting the race workers were most of the lab's first
/// long task on a phone (docs/web.md); the race workers are started in the task before
/// ([`RaceSession::prepare_workers`]), the race in the next. Until then the handle shows the race at time 0 with no
/// lanes ([`Snapshot::before_race`], [`RaceHandle::started`] false) and the controls do
/// nothing; the same race is made afterwards, so a link replays exactly as before.
#[hook]
pub fn use_race(
    setup: Rc<Setup>,
    speed: Speed,
    open_at: Option<f64>,
    run_of: Option<(&'static str, usize)>,
    after_first_paint: bool,
) -> RaceHandle {
    let redraw = use_force_update();
    let frames = {
        let setup = setup.clone();
        (*use_memo((), move |()| Frames::new(Rc::new(Snapshot::before_race(&setup))))).clone()
    };
    // When this component renders with a new snapshot.
    let pace = use_mut_ref(TextPace::default);
    // Whether the first race may be made: at once, or once the first frame is painted.
    let may_start = use_state_eq(|| !after_first_paint);
    {
        let (may_start, setup) = (may_start.clone(), setup.clone());
        use_effect_with(*may_start, move |&started| {
            if !started {
                // The race workers first, the race in the next task: each a task of its own.
                after_paint(move || {
                    mark("packlab workers");
                    RaceSession::prepare_workers(&setup);
                    in_a_task_of_its_own(move || {
                        mark("packlab race");
                        may_start.set(true)
                    });
                });
            }
        });
    }
    // A new race for a new setup, and for each tour step entered (`run_of`): two steps may play
    // the same scenario (a race, then its map), and each plays its own run from 0. A setup
    // that changes only the race's changes, past 0, keeps the race: it takes them where it is
    // (a knob moved while it plays, RES-96).
    let current = use_mut_ref(|| None::<(Rc<Setup>, Option<(&'static str, usize)>, Rc<RaceSession>)>);
    let made = (*may_start).then(|| {
        let mut current = current.borrow_mut();
        let kept = match &*current {
            Some((shown, step, session)) if *step == run_of && (Rc::ptr_eq(shown, &setup) || **shown == *setup) => {
                Some(session.clone())
            }
            Some((shown, step, session)) if *step == run_of && session.take_changes(shown, &setup) => {
                Some(session.clone())
            }
            _ => None,
        };
        let session = kept.unwrap_or_else(|| {
            let (redraw, frames, pace) = (redraw.clone(), frames.clone(), pace.clone());
            Rc::new(RaceSession::threaded(setup.clone(), speed, move |snapshot: &Rc<Snapshot>| {
                frames.publish(snapshot.clone());
                if pace.borrow_mut().due(snapshot, now_ms()) {
                    redraw.force_update();
                }
            }))
        });
        *current = Some((setup.clone(), run_of, session.clone()));
        session
    });
    let waiting = use_memo(setup, |setup| Rc::new(Snapshot::before_race(setup)));
    // The race this component showed last, its state when it was replaced, and what the new
    // one still has to start doing (in an effect, not while rendering).
    let last = use_mut_ref(|| None::<(Rc<RaceSession>, Option<Rc<str>>, Start)>);
    {
        let last = last.clone();
        use_effect(move || {
            // Taken out of the cell first: playing publishes, which may render.
            let start = last.borrow_mut().as_mut().map(|(session, _, start)| (session.clone(), std::mem::take(start)));
            match start {
                Some((session, Start::Play)) => session.play(),
                Some((session, Start::OpenAt(t))) => session.open_at(t),
                _ => {}
            }
        });
    }
    // Every hook is above: the race's absence must not change their order.
    let Some(session) = made else {
        frames.keep((*waiting).clone());
        let nothing = Callback::from(|_| ());
        return RaceHandle {
            snapshot: (*waiting).clone(),
            frames,
            restarted: None,
            toggle: nothing.clone(),
            pause: nothing.clone(),
            play: nothing.clone(),
            step: nothing.clone(),
            back: nothing.clone(),
            seek: Callback::from(|_| ()),
            restart: nothing,
            focus: Callback::from(|_| ()),
            thread: "page",
            started: false,
        };
    };
    session.set_speed(speed);
    let restarted = {
        let mut last = last.borrow_mut();
        match &*last {
            Some((shown, note, _)) if Rc::ptr_eq(shown, &session) => note.clone(),
            previous => {
                let old = previous.as_ref().map(|(shown, _, _)| shown.snapshot());
                let note = old.as_ref().filter(|o| o.slot > 0).map(|o| {
                    let time = o.model.time;
                    Rc::from(format!(
                        "The scenario changed at {} {}, so the run started again from 0 with the new values{}.",
                        time.prefix(),
                        packlab_core::format::group_digits(o.slot),
                        if o.phase == Phase::Running { " and plays on" } else { "" }
                    ))
                });
                let start = match open_at {
                    Some(t) if old.is_none() => Start::OpenAt(t),
                    _ if old.is_some_and(|o| o.phase == Phase::Running) => Start::Play,
                    _ => Start::Nothing,
                };
                *last = Some((session.clone(), note.clone(), start));
                note
            }
        }
    };
    let call = |f: fn(&RaceSession)| {
        let session = session.clone();
        Callback::from(move |()| f(&session))
    };
    let focus = {
        let session = session.clone();
        Callback::from(move |lane| session.set_focus(lane))
    };
    let seek = {
        let session = session.clone();
        Callback::from(move |time| session.seek(time))
    };
    // Whatever made this render, the pictures show what it shows (a new race's first
    // snapshot is not published).
    frames.keep(session.snapshot());
    RaceHandle {
        thread: if session.in_worker() { "worker" } else { "page" },
        snapshot: session.snapshot(),
        frames,
        restarted,
        toggle: call(RaceSession::toggle),
        pause: call(RaceSession::pause),
        play: call(RaceSession::play),
        step: call(RaceSession::step),
        back: call(RaceSession::step_back),
        seek,
        restart: call(RaceSession::restart),
        focus,
        started: true,
    }
}
