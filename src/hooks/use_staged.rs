//! A view drawn in stages, each in a task of its own after the previous one is on screen.
//!
//! Yew renders a whole new tree in one task: the lab's first render (the playback, the lanes,
//! six charts, the event log, the sweep, the map, the exports and the scenario's form) was one
//! long task of about 90 ms here and 360 ms under Lighthouse's 4x CPU slowdown, and the layout
//! of all of it another, before a phone could take a tap (total blocking time 1.1 s,
//! docs/web.md "Lighthouse"). Drawn in stages, the first screen (Play, the stats, the lanes)
//! comes first and the parts further down follow, one task each.

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use yew::prelude::*;

/// How many of `stages` stages are drawn: 1 on the first render, then one more once the
/// browser has painted the last, until all are. Stages from `waits_from` on wait until `ready`
/// (the lab's race, made in a task of its own after the first paint). Each stage is marked
/// (`packlab <name> <n>`) in the page's performance timeline.
#[hook]
pub fn use_staged(name: &'static str, stages: u8, waits_from: u8, ready: bool) -> u8 {
    let drawn = use_state_eq(|| 1u8);
    {
        let drawn = drawn.clone();
        use_effect_with((*drawn, ready), move |&(now, ready)| {
            if now < stages && (now + 1 < waits_from || ready) {
                after_paint(move || {
                    mark(&format!("packlab {name} {}", now + 1));
                    drawn.set(now + 1)
                });
            }
        });
    }
    *drawn
}

/// Calls `then` in a task after the next frame is painted: a frame callback runs before the
/// frame's layout and paint, and a timeout set there fires after them. A hidden page paints no
/// frames: there it is the next task.
pub fn after_paint(then: impl FnOnce() + 'static) {
    let Some(window) = web_sys::window() else { return };
    let later = Closure::once_into_js(then);
    if window.document().is_none_or(|d| d.hidden()) {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), 0);
        return;
    }
    let frame = Closure::once_into_js(move || {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), 0);
        }
    });
    let _ = window.request_animation_frame(frame.unchecked_ref());
}

/// Calls `then` in a task of its own, after the one running: each canvas's first draw, which
/// the frame that lays the canvases out would otherwise run all together in one long task.
pub fn in_a_task_of_its_own(then: impl FnOnce() + 'static) {
    let Some(window) = web_sys::window() else { return then() };
    let later = Closure::once_into_js(then);
    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(later.unchecked_ref(), 0);
}

/// A named point in the page's performance timeline, which a trace shows inside the task that
/// set it: which step of the lab's start a long task was (`scripts/long-tasks.mjs`).
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(name);
    }
}
