//! The gallery's thumbnails: each card's race run for a moment and drawn as the curve its page
//! plots first. A thumbnail is computed once its card comes into view (an
//! `IntersectionObserver`), so a visit that never scrolls down computes only the first
//! screen's. They are computed one card at a time, in page order, in the browser's idle
//! time (`requestIdleCallback`, with a timeout so a busy page still gets them), and in slices:
//! a race is built in one slice, then simulated in slices of at most [`SLICE_MS`] until it has
//! had [`THUMBNAIL_BUDGET_MS`], then drawn. Run back to back, 24 thumbnails made tasks of up to
//! 800 ms, which Lighthouse counted as blocking time.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{
    CanvasRenderingContext2d, HtmlCanvasElement, IdleDeadline, IdleRequestOptions, IntersectionObserver,
    IntersectionObserverEntry,
};

use crate::dom::workers::now_ms;
use crate::play::race::Race;
use crate::play::snapshot::{Phase, Snapshot};
use crate::state::preset_setup;

/// Simulation time a thumbnail gets, in ms.
const THUMBNAIL_BUDGET_MS: f64 = 25.0;
/// Longest slice of simulation in one go, in ms: well under the 50 ms at which a task counts
/// as long, even on a phone four times slower.
const SLICE_MS: f64 = 8.0;
/// How long a thumbnail waits for idle time before it runs anyway, in ms.
const IDLE_TIMEOUT_MS: u32 = 400;
/// Thumbnail size in CSS pixels.
const THUMBNAIL: (f64, f64) = (240.0, 64.0);

/// The thumbnails being computed; dropping it stops them (the gallery was left).
pub struct Thumbnails {
    state: Rc<RefCell<State>>,
    observer: Option<IntersectionObserver>,
    _on_visible: Closure<dyn FnMut(js_sys::Array)>,
}

struct State {
    /// The cards still to draw, in page order, and the one being simulated.
    queue: std::collections::VecDeque<(HtmlCanvasElement, String)>,
    current: Option<(HtmlCanvasElement, Race, f64)>,
    /// The idle callback and the request pending.
    callback: Option<Closure<dyn FnMut(IdleDeadline)>>,
    request: Option<u32>,
}

impl Thumbnails {
    /// Watches the thumbnails on the page now, and computes each once it comes into view.
    pub fn start() -> Thumbnails {
        let state = Rc::new(RefCell::new(State {
            queue: std::collections::VecDeque::new(),
            current: None,
            callback: None,
            request: None,
        }));
        let weak = Rc::downgrade(&state);
        let callback = Closure::<dyn FnMut(IdleDeadline)>::new(move |deadline: IdleDeadline| {
            if let Some(state) = weak.upgrade() {
                let more = work(&mut state.borrow_mut(), &deadline);
                state.borrow_mut().request = None;
                if more {
                    request(&state);
                }
            }
        });
        state.borrow_mut().callback = Some(callback);
        let weak = Rc::downgrade(&state);
        let on_visible = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let Some(state) = weak.upgrade() else { return };
            for entry in entries.iter().filter_map(|e| e.dyn_into::<IntersectionObserverEntry>().ok()) {
                if !entry.is_intersecting() {
                    continue;
                }
                let Ok(canvas) = entry.target().dyn_into::<HtmlCanvasElement>() else { continue };
                let id = canvas.closest("li.card").ok().flatten().and_then(|li| li.get_attribute("data-preset"));
                let queued = state.borrow().queue.iter().any(|(c, _)| c == &canvas);
                if let (Some(id), false) = (id, queued || canvas.has_attribute("data-drawn")) {
                    state.borrow_mut().queue.push_back((canvas, id));
                }
            }
            if state.borrow().request.is_none() {
                request(&state);
            }
        });
        let observer = IntersectionObserver::new(on_visible.as_ref().unchecked_ref()).ok();
        if let (Some(observer), Some(list)) = (
            observer.as_ref(),
            web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.query_selector_all(".gallery li.card[data-preset] canvas.thumbnail").ok()),
        ) {
            for i in 0..list.length() {
                if let Some(canvas) = list.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
                    observer.observe(&canvas);
                }
            }
        }
        Thumbnails { state, observer, _on_visible: on_visible }
    }
}

impl Drop for Thumbnails {
    fn drop(&mut self) {
        if let Some(observer) = &self.observer {
            observer.disconnect();
        }
        let mut state = self.state.borrow_mut();
        if let (Some(id), Some(window)) = (state.request.take(), web_sys::window()) {
            window.cancel_idle_callback(id);
        }
        state.callback = None;
    }
}

/// Asks for the next idle period.
fn request(state: &Rc<RefCell<State>>) {
    let mut state = state.borrow_mut();
    let Some(callback) = state.callback.as_ref() else { return };
    let options = IdleRequestOptions::new();
    options.set_timeout(IDLE_TIMEOUT_MS);
    let id = web_sys::window()
        .and_then(|w| w.request_idle_callback_with_options(callback.as_ref().unchecked_ref(), &options).ok());
    state.request = id;
}

/// One idle period's work: steps while it has time left (at least one). Returns whether
/// anything is left to do.
fn work(state: &mut State, deadline: &IdleDeadline) -> bool {
    loop {
        step(state);
        if state.current.is_none() && state.queue.is_empty() {
            return false;
        }
        // A step is a race built, a slice simulated, or a thumbnail drawn: go on only while the
        // period has room for another (a timed-out callback has none, and does one).
        if deadline.time_remaining() < SLICE_MS + 2.0 {
            return true;
        }
    }
}

/// One step of the current thumbnail, or the start of the next.
fn step(state: &mut State) {
    if let Some((canvas, mut race, spent)) = state.current.take() {
        let budget = SLICE_MS.min(THUMBNAIL_BUDGET_MS - spent);
        let start = now_ms();
        let ok = race.advance(u64::MAX, budget, now_ms).is_ok();
        let spent = spent + (now_ms() - start);
        if ok && spent < THUMBNAIL_BUDGET_MS && !race.finished() {
            state.current = Some((canvas, race, spent));
        } else if ok {
            draw(&canvas, &race.snapshot(Phase::Paused, 0));
        }
        return;
    }
    let Some((canvas, id)) = state.queue.pop_front() else { return };
    let Ok(setup) = preset_setup(&id) else { return };
    let Some(ctx) = context(&canvas) else { return };
    if setup.scenario.any().theory_only() {
        ctx.set_fill_style_str("#5b6472");
        ctx.set_font("12px system-ui, sans-serif");
        let _ = ctx.fill_text("bounds only: computed, not simulated", 4.0, THUMBNAIL.1 / 2.0);
        canvas.set_attribute("data-drawn", "bounds").ok();
        return;
    }
    state.current = Some((canvas, Race::new(&setup, 96), 0.0));
}

/// The canvas sized for the screen's pixels, with its context scaled to CSS pixels.
fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    let (w, h) = THUMBNAIL;
    canvas.set_width((w * ratio) as u32);
    canvas.set_height((h * ratio) as u32);
    let ctx = canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())?;
    let _ = ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0);
    Some(ctx)
}

/// Draws each lane's main curve (the queue, n(t) or the reward) as a small line in its
/// policy's colour.
fn draw(canvas: &HtmlCanvasElement, snapshot: &Snapshot) {
    let Some(ctx) = context(canvas) else { return };
    let (w, h) = THUMBNAIL;
    let curves = main_curves(snapshot);
    let top = curves.iter().flat_map(|c| c.1.iter().map(|p| p.1)).fold(f64::MIN_POSITIVE, f64::max);
    let right = curves.iter().flat_map(|c| c.1.iter().map(|p| p.0)).fold(f64::MIN_POSITIVE, f64::max);
    for (color, points) in &curves {
        ctx.set_stroke_style_str(&packlab_plot::css_color(*color));
        ctx.set_line_width(1.5);
        ctx.begin_path();
        for (i, &(x, y)) in points.iter().enumerate() {
            let (px, py) = (x / right * (w - 2.0) + 1.0, h - 2.0 - y / top * (h - 6.0));
            if i == 0 {
                ctx.move_to(px, py);
            } else {
                ctx.line_to(px, py);
            }
        }
        ctx.stroke();
    }
    canvas.set_attribute("data-drawn", &snapshot.slot.to_string()).ok();
}

/// A thumbnail's curve: (time, value) points.
type Line = Rc<[(f64, f64)]>;

/// Each lane's colour and the curve its page plots first: the reward of a loss system, n(t)
/// of multiserver jobs, else the queue.
fn main_curves(snapshot: &Snapshot) -> Vec<(usize, Line)> {
    snapshot
        .lanes
        .iter()
        .map(|lane| {
            let series = if snapshot.model.reward {
                &lane.reward_series
            } else if !lane.in_system_series.is_empty() {
                &lane.in_system_series
            } else {
                &lane.queue_series
            };
            (lane.color, series.iter().map(|p| (p.x, p.y)).collect())
        })
        .collect()
}
