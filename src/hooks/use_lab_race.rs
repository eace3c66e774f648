//! What the full page and the embedded one both run: the race of the lab's setup, the theory's
//! load marks, the keyboard and its help, the chart theme, and what the status line says.

use std::cell::Cell;
use std::rc::Rc;

use packlab_core::model::LoadMark;
use packlab_core::scenario::Setup;
use yew::prelude::*;

use crate::components::announcer::{Intent, IntentCell};
use crate::dom::page::prefers_reduced_motion;
use crate::hooks::use_keyboard::use_keyboard;
use crate::hooks::use_system_dark::use_system_dark;
use crate::hooks::use_text_pace::use_text_pace;
use crate::play::snapshot::Snapshot;
use crate::play::use_race::{RaceHandle, use_race};
use crate::state::{Action, Lab};

/// What the full page and the embedded one both run: the race, the theory's load marks, the
/// keyboard and its help, and the chart theme.
pub struct LabRace {
    pub race: RaceHandle,
    /// The race as its numbers and sentences show it: while it plays, ten times a second
    /// ([`use_text_pace`]); the pictures follow `race.snapshot`, every frame.
    pub text: Rc<Snapshot>,
    pub reduced_motion: bool,
    pub help: UseStateHandle<bool>,
    /// `None` toggles the keyboard help, `Some(open)` sets it.
    pub toggle_help: Callback<Option<bool>>,
    pub theme: packlab_plot::Theme,
    /// What the person last asked of the race (step, back, a jump), for the status line.
    pub intent: IntentCell,
    /// The moment a jump on the timeline goes to, while the race replays it.
    pub seeking: Option<f64>,
}

/// The race of `lab`'s setup at its speed, with what comes with it ([`LabRace`]); `dispatch`
/// receives presenter mode's toggle (the `P` key). With `after_first_paint` the race is made
/// after the first frame ([`use_race`]): the full page draws no lane in its first stage.
#[hook]
pub fn use_lab_race(lab: &Lab, dispatch: &Callback<Action>, after_first_paint: bool) -> LabRace {
    let setup = lab.setup.clone();
    let step = lab.tour.map(|at| (at.tour.id, at.step));
    let mut race = use_race(setup.clone(), lab.speed, lab.open_at, step, after_first_paint);
    // Stepping, going back and jumping say so to the status line ([`Announcer`]), whether a
    // button or a key asked.
    let intent = (*use_state(|| Rc::new(Cell::new(Intent::None)))).clone();
    let noting = |callback: &Callback<()>, what: Intent| {
        let (callback, intent) = (callback.clone(), intent.clone());
        Callback::from(move |()| {
            intent.set(what);
            callback.emit(());
        })
    };
    race.step = noting(&race.step, Intent::Step);
    race.back = noting(&race.back, Intent::Back);
    // A jump is under way from the moment it is asked until a snapshot shows its moment.
    let pending = use_mut_ref(|| None::<f64>);
    let redraw = use_force_update();
    race.seek = {
        let (seek, intent, pending) = (race.seek.clone(), intent.clone(), pending.clone());
        Callback::from(move |t: f64| {
            intent.set(Intent::Seek);
            *pending.borrow_mut() = Some(t);
            redraw.force_update();
            seek.emit(t);
        })
    };
    let s = &race.snapshot;
    let arrived = |t: f64| (s.now - t).abs() < 1e-9 || s.now.floor() == t.floor() || s.error().is_some();
    if pending.borrow().is_some_and(arrived) {
        pending.borrow_mut().take();
    }
    let seeking = *pending.borrow();
    let reduced_motion = *use_memo((), |()| prefers_reduced_motion());
    let help = use_state(|| false);
    let toggle_help = {
        let help = help.clone();
        Callback::from(move |open: Option<bool>| help.set(open.unwrap_or(!*help)))
    };
    use_keyboard(
        race.toggle.clone(),
        race.step.clone(),
        race.back.clone(),
        toggle_help.clone(),
        present_toggle(dispatch, lab.present),
    );
    let theme = crate::state::theme::chart_theme(lab.theme, use_system_dark(), lab.present);
    let text = use_text_pace(&race.snapshot);
    LabRace { race, text, reduced_motion, help, toggle_help, theme, intent, seeking }
}

/// `P`: presenter mode on or off, full screen with it where the browser allows (a key press
/// lets a page ask for it).
fn present_toggle(dispatch: &Callback<Action>, presenting: bool) -> Callback<()> {
    let dispatch = dispatch.clone();
    Callback::from(move |()| {
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            if presenting {
                if document.fullscreen_element().is_some() {
                    document.exit_fullscreen();
                }
            } else if let Some(root) = document.document_element() {
                // Refused outside a user gesture or in an iframe without allowfullscreen:
                // presenter mode works in the window all the same.
                let _ = root.request_fullscreen();
            }
        }
        dispatch.emit(Action::TogglePresent);
    })
}

/// The theory's load marks of `setup` (the charts', the load slider's), worked out once
/// `wanted`: they solve each policy's analysis, which the full page's first stages do not draw
/// (empty until then).
#[hook]
pub fn use_load_marks(setup: &Rc<Setup>, wanted: bool) -> Rc<[LoadMark]> {
    let marks = use_memo((setup.clone(), wanted), |(s, wanted)| match wanted {
        true => Rc::<[LoadMark]>::from(s.scenario.marks()),
        false => Rc::from([]),
    });
    (*marks).clone()
}
