//! The root component: the lab as the address bar describes it. State lives in one reducer
//! ([`Lab`]); the URL follows it, so the address bar is always a link to what is on screen. It
//! routes to the gallery, the workbench or the embedded page, and sets the document's theme
//! and presenter mode.

use std::rc::Rc;

use wasm_bindgen::JsValue;
use yew::prelude::*;

use crate::components::embedded::EmbeddedLab;
use crate::components::gallery::Gallery;
use crate::components::notices::Notices;
use crate::components::preset_picker::PresetPicker;
use crate::components::scripts_loading::ScriptsLoading;
use crate::components::workbench::Workbench;
use crate::dom::focus::{focus_first, focus_lost, set_title};
use crate::dom::page::{location_search, value_of};
use crate::hooks::use_staged::use_staged;
use crate::hooks::use_system_dark::use_system_dark;
use crate::state::theme::ThemeChoice;
use crate::state::{Action, Lab};

/// The root component: the lab as the address bar describes it.
#[component]
pub fn App() -> Html {
    let lab = use_reducer(|| Lab::from_link(&location_search()));
    let dispatch = {
        let lab = lab.clone();
        Callback::from(move |action| lab.dispatch(action))
    };
    // The page's first download has no script engine: a lab that runs a script loads the build
    // that has one, which opens the same address.
    let loading_scripts = lab.needs_scripts() && !packlab_core::script::AVAILABLE;
    // The address bar follows the state (replaceState: no history entry per keystroke), but
    // for a link that needs the engine as it opens: this build cannot judge its scripts (it
    // keeps them unchecked, so a lane after them may be refused as one too many), and the
    // build with the engine reads the link as it was given. A script lane added later is in
    // the address before that build reads it.
    let opened = use_mut_ref(|| true);
    use_effect_with((lab.query(), loading_scripts), move |(query, loading)| {
        if std::mem::replace(&mut *opened.borrow_mut(), false) && *loading {
            return;
        }
        if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
            let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("?{query}")));
        }
    });
    // The theme, whether its colours are dark, and presenter mode are attributes of the
    // document (style.css reads them).
    let system_dark = use_system_dark();
    use_effect_with((lab.theme, lab.present, system_dark), |(theme, present, system_dark)| {
        if let Some(root) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
            let dark = theme.is_dark(*system_dark);
            let _ = root.set_attribute("data-theme", theme.name());
            let _ = root.set_attribute("data-dark", if dark { "1" } else { "0" });
            let _ = root.set_attribute("data-present", if *present { "1" } else { "0" });
        }
    });
    // The document's title names the view (a tab, the history and a screen reader read it),
    // and a new view takes the focus to its heading: the card, tour link or step button that
    // had it is gone, and focus left on <body> would send a keyboard user back to the top.
    let view = view_title(&lab);
    let first_view = use_mut_ref(|| true);
    use_effect_with(view.clone(), move |title| {
        set_title(title);
        if !std::mem::replace(&mut *first_view.borrow_mut(), false) && focus_lost() {
            focus_first(&["main h1".into()]);
        }
    });
    // The app's first render replaces the first picture (www/first-paint.js drew it before the
    // wasm ran), but for the workbench, which replaces it once its first screen is drawn (it
    // draws in stages); an app started in place of the first download goes on where it was
    // asked to.
    let workbench_first =
        !lab.gallery && lab.embed.is_none() && (packlab_core::script::AVAILABLE || !lab.needs_scripts());
    // The first render in three tasks: the state from the link, then the header, then the
    // view below it (the lab's own first stage). Rendered at once, they were one task
    // (`packlab mount`) of 110-430 ms on a phone (Lighthouse's 4x CPU slowdown), much of it V8
    // compiling the wasm functions they call for the first time; each in a task of its own,
    // the phone takes a tap between them (docs/web.md, "What blocks a phone"). The app is out
    // of sight behind the first picture until its view is drawn.
    let drawn = use_staged("app", 3, 3, true);
    // An app started in place of another gives the focus back where that one asked (the
    // scripted lane's editor button, the exercise's button): here, but for the workbench,
    // whose form comes in its last stage and which gives it back then.
    use_effect_with(drawn == 3, move |&whole| {
        if whole && !workbench_first {
            crate::dom::boot::first_picture_done();
            crate::dom::boot::take_resumed_focus();
        }
    });
    // One copy of the state per render, shared by the components below.
    let state = Rc::new((*lab).clone());
    if drawn < 2 || (drawn < 3 && state.embed.is_some()) {
        return html! {};
    }
    if loading_scripts && state.embed.is_some() {
        return html! { <ScriptsLoading lab={state} /> };
    }
    if state.embed.is_some() {
        return html! {
            <>
                <Notices lab={state.clone()} dispatch={dispatch.clone()} />
                <EmbeddedLab lab={state} {dispatch} />
            </>
        };
    }
    html! {
        <>
            <header class="masthead">
                // The first Tab stop: Play is otherwise behind every control of the scenario.
                if state.gallery {
                    <a class="skip" href="#gallery-title" onclick={Callback::from(|e: MouseEvent| skip_to(e, "#gallery-title"))}>
                        { "Skip to the presets" }</a>
                } else if state.setup.scenario.any().theory_only() {
                    <a class="skip" href="#preset-title" onclick={Callback::from(|e: MouseEvent| skip_to(e, "#preset-title"))}>
                        { "Skip to the figures" }</a>
                } else {
                    <a class="skip" href="#play" onclick={Callback::from(|e: MouseEvent| skip_to(e, "#play"))}>{ "Skip to Play" }</a>
                }
                <a class="brand" href="?" id="gallery-link" title="Every preset, by paper"
                    onclick={dispatch.reform(|e: MouseEvent| { e.prevent_default(); Action::ShowGallery })}>
                    { "packlab" }
                </a>
                <span class="tagline">{ "cluster job scheduling, simulated in your browser" }</span>
                if !state.gallery {
                    <PresetPicker lab={state.clone()} dispatch={dispatch.clone()} />
                }
                <span class="view-options">
                    <label>
                        <span>{ "Colours" }</span>
                        <select id="theme" onchange={dispatch.reform(|e: Event| Action::SetTheme(value_of(&e)))}>
                            { for ThemeChoice::ALL.iter().map(|t| html! {
                                <option value={t.name()} selected={*t == state.theme}>{ t.label() }</option>
                            }) }
                        </select>
                    </label>
                    <button type="button" id="present" aria-pressed={state.present.to_string()} title="P"
                        onclick={dispatch.reform(|_: MouseEvent| Action::TogglePresent)}>
                        { if state.present { "Leave presenter mode" } else { "Present" } }
                    </button>
                </span>
            </header>
            // What this build refused of a link that needs the engine is not what the build with
            // it will refuse: that build says.
            if !loading_scripts {
                <Notices lab={state.clone()} dispatch={dispatch.clone()} />
            }
            if drawn < 3 {
                // The view below comes in the next task.
            } else if state.gallery {
                <Gallery {dispatch} />
            } else if loading_scripts {
                <ScriptsLoading lab={state} />
            } else {
                <Workbench lab={state} {dispatch} />
            }
        </>
    }
}

/// Moves the keyboard focus to the skip link's target (Play, or the view's heading), without
/// touching the address, which holds the scenario.
fn skip_to(event: MouseEvent, target: &str) {
    event.prevent_default();
    focus_first(&[target.into(), "main h1".into()]);
}

/// The document's title for the view on screen: the gallery, a tour's step, or the preset.
fn view_title(lab: &Lab) -> String {
    if lab.gallery {
        return "Every figure of the papers, live · packlab".into();
    }
    let preset = &lab.setup.preset;
    match lab.tour {
        Some(at) => format!("Tour: {}, step {} of {} · packlab", at.tour.title, at.step + 1, at.tour.steps.len()),
        None if lab.embed.is_some() => format!("{}: {} · packlab, embedded", preset.figure, preset.title),
        None => format!("{}: {} · packlab", preset.figure, preset.title),
    }
}
