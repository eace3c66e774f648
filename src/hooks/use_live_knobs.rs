//! The scenario form's dispatch while a race plays: moving a key that can change (the load)
//! past 0 and before the horizon changes the race from the moment on screen, where it is,
//! instead of starting it again (RES-96).

use std::rc::Rc;

use yew::prelude::*;

use crate::play::frames::Frames;
use crate::play::snapshot::{Phase, Snapshot};
use crate::state::{Action, Lab};

/// `dispatch` for the form: a [`Action::Set`] of a key that can change becomes an
/// [`Action::ChangeLive`] at the race's open moment (the core's `TimeUnit::open_moment` of the moment
/// shown) while the race is past 0 and short of its horizon; anything else passes as it is.
/// The moment is the frame's on screen when the knob moves (`frames`), not the one the form
/// rendered with, and the callback stays the same while the race plays (the form does not
/// render with every frame).
#[hook]
pub fn use_live_knobs(lab: &Lab, dispatch: &Callback<Action>, frames: &Frames) -> Callback<Action> {
    let changeable: Rc<[&'static str]> =
        lab.setup.scenario.keys().iter().filter(|k| k.changes.is_some() && k.live).map(|k| k.key).collect();
    let frames = frames.clone();
    use_callback((dispatch.clone(), changeable), move |action: Action, (dispatch, changeable)| {
        match (action, live_at(&frames.latest())) {
            (Action::Set { key, value }, Some(at)) if changeable.contains(&key.as_str()) => {
                dispatch.emit(Action::ChangeLive { key, value, at })
            }
            (action, _) => dispatch.emit(action),
        }
    })
}

/// The moment a change made now takes in the race `snapshot` shows: its open moment, while
/// the race is past 0, short of its horizon and not stopped for good.
fn live_at(snapshot: &Snapshot) -> Option<u64> {
    let at = snapshot.model.time.open_moment(snapshot.now);
    let live =
        snapshot.now > 0.0 && at < snapshot.horizon && !matches!(snapshot.phase, Phase::Finished | Phase::Failed(_));
    live.then_some(at)
}
