//! One live chart: a canvas redrawn as snapshots arrive (taking turns with the other charts
//! while the race runs) and when its size changes.

use std::rc::Rc;

use packlab_core::model::LoadMark;
use packlab_plot::{ChangeMarks, Chart};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::charts::canvas::draw;
use crate::charts::describe::describe;
use crate::charts::kind::ChartKind;
use crate::charts::live::chart;
use crate::hooks::use_canvas_size::{css_size, use_canvas_size};
use crate::hooks::use_media::{NARROW, use_media};
use crate::hooks::use_staged::{in_a_task_of_its_own, mark};
use crate::play::snapshot::{Phase, Shown, Snapshot};

/// Least time between two redraws of a chart while the race runs, in ms: 20 a second is
/// smooth for curves that grow by a pixel at a time, and a chart costs about 1 ms to draw, as
/// much as the cluster view. Paused or finished, a chart is redrawn at once.
pub const RUNNING_REDRAW_MS: f64 = 50.0;

/// While the race runs, charts take turns: at most one redraws per frame, so no frame pays for
/// all of them (the frame budget is set by the costliest recent frame).
const ONE_PER_FRAME_MS: f64 = 8.0;

thread_local! {
    /// When a chart last redrew while the race ran (`performance.now()`, ms).
    static LAST_RUNNING_DRAW: std::cell::Cell<f64> = const { std::cell::Cell::new(f64::NEG_INFINITY) };
    /// Each chart on the page (by a number of its own) and when it last redrew. The turn goes to
    /// the chart that has waited longest: with five charts and a turn every frame, the first
    /// ones in the page would otherwise be due again before the last ever got one.
    static LAST_DRAWS: std::cell::RefCell<Vec<(u64, f64)>> = const { std::cell::RefCell::new(Vec::new()) };
    static NEXT_CHART: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Whether chart `me`, last drawn at `last`, has waited longest of the charts on the page.
fn my_turn(me: u64, last: f64) -> bool {
    LAST_DRAWS.with_borrow(|draws| draws.iter().all(|&(other, t)| other == me || t >= last))
}

fn record_draw(me: u64, now: f64) {
    LAST_DRAWS.with_borrow_mut(|draws| match draws.iter_mut().find(|(other, _)| *other == me) {
        Some(entry) => entry.1 = now,
        None => draws.push((me, now)),
    });
}

/// What a chart draws from, as last rendered: a redraw on resize or in its turn reads it.
struct Latest {
    snapshot: Rc<Snapshot>,
    marks: Rc<[LoadMark]>,
    load: f64,
    theme: packlab_plot::Theme,
    changes: Rc<ChangeMarks>,
}

impl Latest {
    fn of(props: &LiveChartProps) -> Self {
        Self {
            snapshot: props.snapshot.clone(),
            marks: props.marks.clone(),
            load: props.load,
            theme: props.theme,
            changes: props.changes.clone(),
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct LiveChartProps {
    pub kind: ChartKind,
    pub snapshot: Rc<Snapshot>,
    pub marks: Rc<[LoadMark]>,
    pub load: f64,
    /// Least time between two redraws while the race runs, in ms.
    #[prop_or(RUNNING_REDRAW_MS)]
    pub min_interval_ms: f64,
    /// The page's colours and, presenting, thicker lines and larger text.
    #[prop_or_default]
    pub theme: packlab_plot::Theme,
    /// The scenario's changes, marked on the chart.
    #[prop_or_default]
    pub changes: Rc<ChangeMarks>,
}

/// A chart canvas, redrawn when a new snapshot arrives (while running, at most once per
/// `min_interval_ms`) and when the window resizes.
#[component]
pub fn LiveChart(props: &LiveChartProps) -> Html {
    let canvas = use_node_ref();
    let error = use_state_eq(|| None::<String>);
    let latest = use_mut_ref(|| Latest::of(props));
    *latest.borrow_mut() = Latest::of(props);
    let last_draw = use_mut_ref(|| f64::NEG_INFINITY);
    let me = *use_state(|| NEXT_CHART.replace(NEXT_CHART.get() + 1));
    use_effect_with((), move |()| {
        record_draw(me, f64::NEG_INFINITY);
        move || LAST_DRAWS.with_borrow_mut(|draws| draws.retain(|(other, _)| *other != me))
    });
    let kind = props.kind;
    // A chart follows its canvas's size, paused or not; the size's first report (once the
    // canvas is laid out) draws it the first time. Each chart in a task of its own: the
    // frame that lays out the charts reports all their sizes, and drawing them all there was
    // one long task (0.26 s under Lighthouse's 4x slowdown).
    let on_resize = {
        let (canvas, latest, error) = (canvas.clone(), latest.clone(), error.clone());
        Callback::from(move |size| {
            let (canvas, latest, error) = (canvas.clone(), latest.clone(), error.clone());
            in_a_task_of_its_own(move || {
                mark("packlab chart");
                if let Some(canvas) = canvas.cast::<HtmlCanvasElement>() {
                    let l = &*latest.borrow();
                    let chart = Chart { theme: l.theme, ..chart(kind, &l.snapshot, &l.marks, l.load, &l.changes) };
                    error.set(draw(&canvas, size, &chart).err());
                }
            });
        })
    };
    // On a phone a chart is first drawn once it is on screen (www/phone.css's charts are below
    // the first screen, one at a time in a swiped row).
    let on_phone = use_media(NARROW);
    let size = use_canvas_size(canvas.clone(), on_resize, on_phone);
    {
        let (canvas, error, latest) = (canvas.clone(), error.clone(), latest.clone());
        let min_interval = props.min_interval_ms;
        use_effect_with((props.snapshot.clone(), props.load, props.theme, props.changes.clone()), move |_| {
            let l = &*latest.borrow();
            let snapshot = &l.snapshot;
            let now = web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now());
            // The snapshot that ends a run (paused, finished, failed) is never skipped.
            let running = snapshot.phase == Phase::Running;
            let last = *last_draw.borrow();
            // Not before the canvas's size is known: its first report draws the chart (drawn here
            // too, each chart was drawn twice as the lab opened, the first time after a forced
            // layout to read its size, 0.1 s of a phone's first second).
            let due = size.get().is_some()
                && (!running
                    || (now - last >= min_interval
                        && now - LAST_RUNNING_DRAW.get() >= ONE_PER_FRAME_MS
                        && my_turn(me, last)));
            if due && let Some(canvas) = canvas.cast::<HtmlCanvasElement>() {
                *last_draw.borrow_mut() = now;
                record_draw(me, now);
                if running {
                    LAST_RUNNING_DRAW.set(now);
                }
                let chart = Chart { theme: l.theme, ..chart(kind, snapshot, &l.marks, l.load, &l.changes) };
                error.set(draw(&canvas, css_size(&canvas, &size), &chart).err());
            }
        });
    }
    // The chart in words (values and trend), written when the race stops: while it plays, the
    // numbers move every frame and a screen reader could not keep up anyway.
    let running = props.snapshot.phase == Phase::Running;
    let words = {
        let (marks, load) = (props.marks.clone(), props.load);
        use_memo(
            (Shown(props.snapshot.clone()), running, props.changes.clone()),
            move |(snapshot, running, changes)| {
                if *running {
                    "Playing: pause to hear the values.".to_string()
                } else {
                    describe(&chart(kind, &snapshot.0, &marks, load, changes))
                }
            },
        )
    };
    let summary_id = format!("{}-summary", kind.id());
    html! {
        <figure class="chart">
            <canvas ref={canvas} id={kind.id()} role="img" aria-label={kind.description()}
                aria-describedby={summary_id.clone()} />
            <figcaption class="visually-hidden" id={summary_id}>{ (*words).clone() }</figcaption>
            if let Some(message) = &*error {
                <p class="error" role="alert">{ message }</p>
            }
        </figure>
    }
}
