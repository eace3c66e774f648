//! What the full page and the embedded one both run: the race of the lab's setup, the theory's
//! load marks, the keyboard and its help, and the chart theme.

use std::rc::Rc;

use packlab_core::model::LoadMark;
use yew::prelude::*;

use crate::dom::page::prefers_reduced_motion;
use crate::hooks::use_keyboard::use_keyboard;
use crate::hooks::use_system_dark::use_system_dark;
use crate::play::use_race::{RaceHandle, use_race};
use crate::state::{Action, Lab};

/// What the full page and the embedded one both run: the race, the theory's load marks, the
/// keyboard and its help, and the chart theme.
pub struct LabRace {
    pub race: RaceHandle,
    pub marks: Rc<[LoadMark]>,
    pub reduced_motion: bool,
    pub help: UseStateHandle<bool>,
    /// `None` toggles the keyboard help, `Some(open)` sets it.
    pub toggle_help: Callback<Option<bool>>,
    pub theme: packlab_plot::Theme,
}

/// The race of `lab`'s setup at its speed, with what comes with it ([`LabRace`]); `dispatch`
/// receives presenter mode's toggle (the `P` key).
#[hook]
pub fn use_lab_race(lab: &Lab, dispatch: &Callback<Action>) -> LabRace {
    let setup = lab.setup.clone();
    let race = use_race(setup.clone(), lab.speed, lab.open_at);
    let marks = use_memo(setup, |s| Rc::<[LoadMark]>::from(s.scenario.marks()));
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
    LabRace { race, marks: (*marks).clone(), reduced_motion, help, toggle_help, theme }
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
