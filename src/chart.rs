//! The live Q(t) chart: packlab-plot drawing on a `<canvas>` through plotters-canvas.

use gloo_events::EventListener;
use packlab_plot::{Chart, Curve, Mark};
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::snapshot::Snapshot;

/// Whether the Q(t) curves mark their points (no: a trajectory of ~1000 points is a line).
pub const QUEUE_MARKERS: bool = false;

/// The chart of a snapshot: Q(t) of every lane, x from 0 to the current slot, and a dashed
/// line at the end of the warm-up once it is passed.
pub fn queue_chart(snapshot: &Snapshot) -> Chart<'_> {
    let curves = snapshot
        .lanes
        .iter()
        .map(|lane| Curve { label: &lane.label, color: lane.color, points: &lane.series, markers: QUEUE_MARKERS })
        .collect();
    // Unlabelled (the stats footnote explains it): a label at the top would run into the
    // legend once the warm-up is a small part of the x range.
    let x_marks = if snapshot.slot > snapshot.warmup && snapshot.warmup > 0 {
        vec![Mark { value: snapshot.warmup as f64, label: "" }]
    } else {
        Vec::new()
    };
    Chart {
        title: "Waiting jobs Q(t)",
        x_label: "slot",
        y_label: "waiting jobs",
        curves,
        x_marks,
        x_range: Some((0.0, snapshot.slot.max(1) as f64)),
        ..Chart::default()
    }
}

/// Draws `snapshot` on `canvas`, first matching the canvas's pixel size to its CSS size.
pub fn draw(canvas: &HtmlCanvasElement, snapshot: &Snapshot) -> Result<(), String> {
    let (width, height) = (canvas.client_width().max(1) as u32, canvas.client_height().max(1) as u32);
    if canvas.width() != width || canvas.height() != height {
        canvas.set_width(width);
        canvas.set_height(height);
    }
    let backend = CanvasBackend::with_canvas_object(canvas.clone()).ok_or("the canvas has no 2D context")?;
    let area = backend.into_drawing_area();
    packlab_plot::draw(&area, &queue_chart(snapshot)).map_err(|e| format!("cannot draw the chart: {e}"))?;
    area.present().map_err(|e| format!("cannot draw the chart: {e}"))
}

#[derive(Properties, PartialEq)]
pub struct QueueChartProps {
    pub snapshot: std::rc::Rc<Snapshot>,
}

/// The canvas, redrawn whenever a new snapshot arrives.
#[component]
pub fn QueueChart(props: &QueueChartProps) -> Html {
    let canvas = use_node_ref();
    let error = use_state_eq(|| None::<String>);
    let latest = use_mut_ref(|| props.snapshot.clone());
    *latest.borrow_mut() = props.snapshot.clone();
    {
        let (canvas, error) = (canvas.clone(), error.clone());
        use_effect_with(props.snapshot.clone(), move |snapshot| {
            if let Some(canvas) = canvas.cast::<HtmlCanvasElement>() {
                error.set(draw(&canvas, snapshot).err());
            }
        });
    }
    // A paused chart still follows the window's size.
    use_effect_with(canvas.clone(), move |canvas| {
        let canvas = canvas.clone();
        let listener = web_sys::window().map(|window| {
            EventListener::new(&window, "resize", move |_| {
                if let Some(canvas) = canvas.cast::<HtmlCanvasElement>() {
                    let _ = draw(&canvas, &latest.borrow());
                }
            })
        });
        move || drop(listener)
    });
    html! {
        <figure class="chart">
            <canvas ref={canvas} id="chart" role="img"
                aria-label="Line chart of the number of waiting jobs against the slot, one line per policy" />
            if let Some(message) = &*error {
                <p class="error" role="alert">{ message }</p>
            }
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::race::{Race, Setup};
    use crate::snapshot::Phase;

    #[test]
    fn the_chart_follows_the_race() {
        let mut setup = Setup::load("pgrr-a1", &["vqs", "bf-js"]).unwrap();
        setup.scenario.horizon = 5_000;
        setup.scenario.warmup = 1_000;
        let mut race = Race::new(&setup, 64);
        race.advance(512, || false).unwrap();
        let snapshot = race.snapshot(Phase::Running);
        let chart = queue_chart(&snapshot);
        assert_eq!(chart.x_range, Some((0.0, 512.0)));
        assert!(chart.x_marks.is_empty(), "no warm-up line before the warm-up ends");
        let labels: Vec<_> = chart.curves.iter().map(|c| (c.label, c.color)).collect();
        assert_eq!(labels, [("VQS (J=2)", 0), ("BF-J/S", 1)]);
        race.advance(1_024, || false).unwrap();
        let snapshot = race.snapshot(Phase::Running);
        assert_eq!(queue_chart(&snapshot).x_marks.iter().map(|m| m.value).collect::<Vec<_>>(), [1_000.0]);
    }
}
