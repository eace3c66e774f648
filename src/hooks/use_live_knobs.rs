//! The scenario form's dispatch while a race plays: moving a key that can change (the load)
//! past 0 and before the horizon changes the race from the moment on screen, where it is,
//! instead of starting it again (RES-96).

use std::rc::Rc;

use yew::prelude::*;

use crate::play::snapshot::{Phase, Snapshot};
use crate::state::{Action, Lab};

/// `dispatch` for the form: a [`Action::Set`] of a key that can change becomes an
/// [`Action::ChangeLive`] at the race's open moment (the core's `TimeUnit::open_moment` of the moment
/// shown) while the race is past 0 and short of its horizon; anything else passes as it is.
/// The moment is read when the knob moves, not when the form rendered, and the callback stays
/// the same while the race plays (the form does not render with every frame).
#[hook]
pub fn use_live_knobs(lab: &Lab, dispatch: &Callback<Action>, snapshot: &Snapshot) -> Callback<Action> {
    let live_at = use_mut_ref(|| None::<u64>);
    let at = snapshot.model.time.open_moment(snapshot.now);
    let live =
        snapshot.now > 0.0 && at < snapshot.horizon && !matches!(snapshot.phase, Phase::Finished | Phase::Failed(_));
    *live_at.borrow_mut() = live.then_some(at);
    let changeable: Rc<[&'static str]> =
        lab.setup.scenario.keys().iter().filter(|k| k.changes.is_some() && k.live).map(|k| k.key).collect();
    use_callback((dispatch.clone(), changeable), move |action: Action, (dispatch, changeable)| {
        let at = *live_at.borrow();
        match (action, at) {
            (Action::Set { key, value }, Some(at)) if changeable.contains(&key.as_str()) => {
                dispatch.emit(Action::ChangeLive { key, value, at })
            }
            (action, _) => dispatch.emit(action),
        }
    })
}
