//! The live charts: packlab-plot drawing on `<canvas>` elements through plotters-canvas, the
//! same chart code the CLI uses for its SVG figures.

use std::rc::Rc;

use packlab_core::models::LoadMark;
use packlab_plot::{Chart, Curve, Ink, LegendAt, Mark};
use plotters::prelude::*;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform};
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::canvas_size::{css_size, use_canvas_size};
use crate::play::snapshot::{Phase, Snapshot};

/// Whether trajectories mark their points (no: ~1000 points make a line).
pub const QUEUE_MARKERS: bool = false;

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

/// The charts of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    /// Q(t) of every policy.
    Queue,
    /// Occupied fraction of the capacity of every policy, with the papers' guarantees.
    Occupancy,
    /// Waiting jobs per bin (virtual queue or size class) of the focused policy.
    Bins,
    /// Running mean per-job time (response time, delay) of every policy, in models that
    /// measure one.
    JobTime,
    /// Running mean per-job time per bin (class, VM type) of the focused policy.
    ClassJobTime,
    /// The reward rate per server R(t)/L of every policy, with U^(g) and U* (PG-AS Fig. 4).
    Reward,
}

impl ChartKind {
    pub const ALL: [ChartKind; 6] = [
        ChartKind::Reward,
        ChartKind::Queue,
        ChartKind::Occupancy,
        ChartKind::JobTime,
        ChartKind::ClassJobTime,
        ChartKind::Bins,
    ];

    /// Whether the page shows this chart for the snapshot's model: per-job time charts only
    /// in models that measure one. Fixed for a race, so charts never swap places mid-run.
    pub fn applies(self, snapshot: &Snapshot) -> bool {
        match self {
            ChartKind::JobTime | ChartKind::ClassJobTime => snapshot.job_time().is_some(),
            // A loss system has no queue to plot; its reward is what it is about.
            ChartKind::Queue => snapshot.queues(),
            ChartKind::Reward => snapshot.model.reward,
            ChartKind::Occupancy | ChartKind::Bins => true,
        }
    }

    /// Whether the chart shows one focused policy (and comes with a picker for it).
    pub fn focused(self) -> bool {
        matches!(self, ChartKind::Bins | ChartKind::ClassJobTime)
    }

    /// The chart's name in an embed link's `views` (`queue`, `job-time`).
    pub fn name(self) -> &'static str {
        self.id().trim_start_matches("chart-")
    }

    /// The canvas id, also the name of its PNG.
    pub fn id(self) -> &'static str {
        match self {
            ChartKind::Queue => "chart-queue",
            ChartKind::Occupancy => "chart-occupancy",
            ChartKind::Bins => "chart-bins",
            ChartKind::JobTime => "chart-job-time",
            ChartKind::ClassJobTime => "chart-class-job-time",
            ChartKind::Reward => "chart-reward",
        }
    }

    fn description(self) -> &'static str {
        match self {
            ChartKind::Queue => {
                "Line chart of the number of waiting jobs (jobs in the system, for multiserver jobs) against time, \
                 one line per policy"
            }
            ChartKind::Occupancy => {
                "Line chart of the occupied fraction of the servers against the slot, one line per policy, \
                 with the offered load and the papers' guarantees as dashed lines"
            }
            ChartKind::Bins => {
                "Line chart of the waiting jobs of each queue bin (jobs in service per type, for a loss system) \
                 against time, for one policy"
            }
            ChartKind::Reward => {
                "Line chart of the reward rate per server against time, one line per policy, with the global \
                 greedy's reward U^(g) and the LP optimum U* as dashed lines"
            }
            ChartKind::JobTime => {
                "Line chart of the running mean response time or delay against time, one line per policy, with the \
                 analysis where it exists as dashed lines"
            }
            ChartKind::ClassJobTime => {
                "Line chart of the running mean response time or delay of each job class against time, for one policy, \
                 with the analysis where it exists as dashed lines"
            }
        }
    }
}

/// The chart `kind` of a snapshot. `marks` are the theory's load marks (in units of the load
/// knob; those below 1 are fractions of the capacity and drawn on the occupancy chart), `load`
/// the offered fraction of the capacity.
pub fn chart<'a>(kind: ChartKind, snapshot: &'a Snapshot, marks: &'a [LoadMark], load: f64) -> Chart<'a> {
    let x_range = Some((0.0, snapshot.slot.max(1) as f64));
    // The end of the warm-up, unlabelled (the stats footnote explains it): a label at the top
    // would run into the legend once the warm-up is a small part of the x range.
    let x_marks = if snapshot.slot > snapshot.warmup && snapshot.warmup > 0 {
        vec![Mark::new(snapshot.warmup as f64, "")]
    } else {
        Vec::new()
    };
    let x_label = snapshot.model.time.axis();
    // The legend goes under the plot, off the data, with the reference lines in it.
    let base = Chart { x_label, x_marks, x_range, legend: LegendAt::Below, ..Chart::default() };
    match kind {
        // The multiserver-job figures (MSFQ Fig. 1) plot n(t), every job in the system; the
        // other models plot the waiting jobs Q(t).
        ChartKind::Queue if snapshot.lanes.iter().any(|l| !l.in_system_series.is_empty()) => Chart {
            title: "Jobs in the system n(t)",
            y_label: "jobs waiting or running",
            curves: snapshot
                .lanes
                .iter()
                .map(|l| Curve {
                    label: &l.label,
                    color: Ink::Policy(l.color),
                    points: &l.in_system_series,
                    markers: QUEUE_MARKERS,
                })
                .collect(),
            ..base
        },
        ChartKind::Queue => Chart {
            title: "Waiting jobs Q(t)",
            y_label: "waiting jobs",
            curves: snapshot
                .lanes
                .iter()
                .map(|l| Curve {
                    label: &l.label,
                    color: Ink::Policy(l.color),
                    points: &l.queue_series,
                    markers: QUEUE_MARKERS,
                })
                .collect(),
            ..base
        },
        ChartKind::Occupancy => Chart {
            title: "Occupancy, running average",
            y_label: "occupied fraction",
            curves: snapshot
                .lanes
                .iter()
                .map(|l| Curve {
                    label: &l.label,
                    color: Ink::Policy(l.color),
                    points: &l.occupancy_series,
                    markers: false,
                })
                .collect(),
            // Offered load (what a stable policy carries) and, where the load knob is a
            // fraction of the capacity (PG-RR's α), the fractions the papers guarantee; the
            // work-conservation bound is the top of the axis.
            y_marks: std::iter::once(Mark::new(load, "offered load"))
                .chain(
                    marks
                        .iter()
                        .filter(|m| snapshot.model.load.is_utilization && m.load < 1.0)
                        .map(|m| Mark::new(m.load, &m.label)),
                )
                .collect(),
            y_range: Some((0.0, 1.0)),
            ..base
        },
        ChartKind::JobTime => Chart {
            title: snapshot.job_time().map_or("", |t| t.title),
            y_label: snapshot.job_time().map_or("", |t| t.name),
            curves: snapshot
                .lanes
                .iter()
                .map(|l| Curve {
                    label: &l.label,
                    color: Ink::Policy(l.color),
                    points: &l.job_time_series,
                    markers: false,
                })
                .collect(),
            // The analysis (SPEC 5.6) that the running means should settle near.
            y_marks: snapshot
                .lanes
                .iter()
                .filter_map(|l| {
                    l.analysis.as_ref().map(|(value, label)| Mark::inked(*value, label, Ink::Policy(l.color)))
                })
                .collect(),
            ..base
        },
        ChartKind::ClassJobTime => Chart {
            title: snapshot.job_time().map_or("", |t| t.bin_title),
            y_label: snapshot.job_time().map_or("", |t| t.name),
            curves: snapshot
                .bin_labels
                .iter()
                .zip(&snapshot.bin_job_time_series)
                .enumerate()
                .map(|(bin, (label, points))| Curve { label, color: Ink::Class(bin), points, markers: false })
                .collect(),
            y_marks: snapshot
                .bin_analysis
                .iter()
                .enumerate()
                .map(|(bin, (value, label))| Mark::inked(*value, label, Ink::Class(bin)))
                .collect(),
            ..base
        },
        ChartKind::Bins if !snapshot.queues() => Chart {
            title: "Jobs in service per type",
            y_label: "jobs in service",
            curves: snapshot
                .bin_labels
                .iter()
                .zip(&snapshot.bin_series)
                .enumerate()
                .map(|(bin, (label, points))| Curve { label, color: Ink::Class(bin), points, markers: false })
                .collect(),
            ..base
        },
        ChartKind::Reward => Chart {
            title: "Reward per server R(t)/L",
            y_label: "reward rate per server",
            curves: snapshot
                .lanes
                .iter()
                .map(|l| Curve {
                    label: &l.label,
                    color: Ink::Policy(l.color),
                    points: &l.reward_series,
                    markers: false,
                })
                .collect(),
            // What DRA tends to as L grows (U^(g)), and what no policy can beat (U*).
            y_marks: snapshot
                .reward
                .iter()
                .flat_map(|r| [Mark::new(r.greedy, "U^(g) greedy"), Mark::new(r.optimal, "U* LP optimum")])
                .collect(),
            ..base
        },
        ChartKind::Bins => Chart {
            title: "Waiting jobs per bin",
            y_label: "waiting jobs",
            curves: snapshot
                .bin_labels
                .iter()
                .zip(&snapshot.bin_series)
                .enumerate()
                // Bins that never held a job would only crowd the legend.
                .filter(|(_, (_, points))| points.iter().any(|p| p.y > 0.0))
                .map(|(bin, (label, points))| Curve { label, color: Ink::Class(bin), points, markers: false })
                .collect(),
            ..base
        },
    }
}

/// Draws `chart` on `canvas`, first matching the canvas's pixel size to its CSS size (`size`,
/// as [`css_size`] gives it) times the device pixel ratio, so lines and text are sharp on
/// phones and at 150 % zoom.
pub fn draw(canvas: &HtmlCanvasElement, size: (f64, f64), chart: &Chart<'_>) -> Result<(), String> {
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
    draw_scaled(canvas, size, ratio, chart)
}

/// Draws `chart` laid out for `size` CSS pixels on a canvas of `scale` device pixels per CSS
/// pixel (at least 1).
pub fn draw_scaled(canvas: &HtmlCanvasElement, size: (f64, f64), scale: f64, chart: &Chart<'_>) -> Result<(), String> {
    let scale = if scale.is_finite() { scale.clamp(1.0, 4.0) } else { 1.0 };
    let (width, height) = (size.0.max(1.0).round(), size.1.max(1.0).round());
    let (pixels_wide, pixels_high) = ((width * scale).round() as u32, (height * scale).round() as u32);
    if canvas.width() != pixels_wide || canvas.height() != pixels_high {
        canvas.set_width(pixels_wide);
        canvas.set_height(pixels_high);
    }
    let context: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| wasm_bindgen::JsCast::dyn_into(c).ok())
        .ok_or("the canvas has no 2D context")?;
    // plotters draws in CSS pixels (what its backend reports as the size); the context's
    // transform maps them to device pixels, text and line widths included.
    context.set_transform(scale, 0.0, 0.0, scale, 0.0, 0.0).map_err(|_| "cannot scale the canvas")?;
    let backend = CanvasBackend::with_canvas_object(canvas.clone()).ok_or("the canvas has no 2D context")?;
    let area = MeasuredText { canvas: backend, size: (width as u32, height as u32) }.into_drawing_area();
    packlab_plot::draw(&area, chart).map_err(|e| format!("cannot draw the chart: {e}"))?;
    area.present().map_err(|e| format!("cannot draw the chart: {e}"))
}

/// `chart` as an SVG document of `size` CSS pixels: plotters' SVG backend and the same chart
/// code as the canvas and the CLI.
pub fn svg(size: (f64, f64), chart: &Chart<'_>) -> Result<String, String> {
    let mut out = String::new();
    {
        let size = (size.0.max(1.0).round() as u32, size.1.max(1.0).round() as u32);
        let area = plotters::backend::SVGBackend::with_string(&mut out, size).into_drawing_area();
        packlab_plot::draw(&area, chart).map_err(|e| format!("cannot draw the chart: {e}"))?;
        area.present().map_err(|e| format!("cannot draw the chart: {e}"))?;
    }
    Ok(out)
}

/// The canvas backend with remembered text sizes.
///
/// In the browser, plotters measures a text by adding a `<span>` to the page and reading its
/// size, which forces the browser to lay the page out, a dozen times per chart. The labels of
/// a live chart change little from one redraw to the next, so their sizes are kept (per text,
/// font and rotation) and each is measured once. (Legend entries are measured by plotters
/// directly and still go through the page.)
struct MeasuredText {
    canvas: CanvasBackend,
    /// The size the chart is laid out for, in CSS pixels (the canvas may have more pixels).
    size: (u32, u32),
}

/// Text sizes measured so far, by font, rotation and text.
type SizeCache = std::collections::HashMap<String, (u32, u32)>;

thread_local! {
    static TEXT_SIZES: std::cell::RefCell<SizeCache> = std::cell::RefCell::new(SizeCache::new());
}

/// Texts remembered at most (axis labels come and go as the axes grow).
const TEXT_SIZES_KEPT: usize = 2048;

impl DrawingBackend for MeasuredText {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.fill_polygon(vert, style)
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.canvas.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        let rotation = match style.transform() {
            FontTransform::None => 0,
            FontTransform::Rotate90 => 1,
            FontTransform::Rotate180 => 2,
            FontTransform::Rotate270 => 3,
        };
        let key = format!("{} {} {} {rotation} {text}", style.style().as_str(), style.size(), style.family().as_str());
        if let Some(size) = TEXT_SIZES.with_borrow(|sizes| sizes.get(&key).copied()) {
            return Ok(size);
        }
        let size = self.canvas.estimate_text_size(text, style)?;
        TEXT_SIZES.with_borrow_mut(|sizes| {
            if sizes.len() >= TEXT_SIZES_KEPT {
                sizes.clear();
            }
            sizes.insert(key, size);
        });
        Ok(size)
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
}

/// A chart canvas, redrawn when a new snapshot arrives (while running, at most once per
/// `min_interval_ms`) and when the window resizes.
#[component]
pub fn LiveChart(props: &LiveChartProps) -> Html {
    let canvas = use_node_ref();
    let error = use_state_eq(|| None::<String>);
    let latest = use_mut_ref(|| (props.snapshot.clone(), props.marks.clone(), props.load, props.theme));
    *latest.borrow_mut() = (props.snapshot.clone(), props.marks.clone(), props.load, props.theme);
    let last_draw = use_mut_ref(|| f64::NEG_INFINITY);
    let me = *use_state(|| NEXT_CHART.replace(NEXT_CHART.get() + 1));
    use_effect_with((), move |()| {
        record_draw(me, f64::NEG_INFINITY);
        move || LAST_DRAWS.with_borrow_mut(|draws| draws.retain(|(other, _)| *other != me))
    });
    let kind = props.kind;
    // A chart follows its canvas's size, paused or not.
    let on_resize = {
        let (canvas, latest) = (canvas.clone(), latest.clone());
        Callback::from(move |size| {
            if let Some(canvas) = canvas.cast::<HtmlCanvasElement>() {
                let (snapshot, marks, load, theme) = &*latest.borrow();
                let _ = draw(&canvas, size, &Chart { theme: *theme, ..chart(kind, snapshot, marks, *load) });
            }
        })
    };
    let size = use_canvas_size(canvas.clone(), on_resize);
    {
        let (canvas, error, latest) = (canvas.clone(), error.clone(), latest.clone());
        let min_interval = props.min_interval_ms;
        use_effect_with((props.snapshot.clone(), props.load, props.theme), move |_| {
            let (snapshot, marks, load, theme) = &*latest.borrow();
            let now = web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now());
            // The snapshot that ends a run (paused, finished, failed) is never skipped.
            let running = snapshot.phase == Phase::Running;
            let last = *last_draw.borrow();
            let due = !running
                || (now - last >= min_interval
                    && now - LAST_RUNNING_DRAW.get() >= ONE_PER_FRAME_MS
                    && my_turn(me, last));
            if due && let Some(canvas) = canvas.cast::<HtmlCanvasElement>() {
                *last_draw.borrow_mut() = now;
                record_draw(me, now);
                if running {
                    LAST_RUNNING_DRAW.set(now);
                }
                let chart = Chart { theme: *theme, ..chart(kind, snapshot, marks, *load) };
                error.set(draw(&canvas, css_size(&canvas, &size), &chart).err());
            }
        });
    }
    html! {
        <figure class="chart">
            <canvas ref={canvas} id={kind.id()} role="img" aria-label={kind.description()} />
            if let Some(message) = &*error {
                <p class="error" role="alert">{ message }</p>
            }
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::race::Race;
    use crate::play::snapshot::Phase;
    use packlab_core::scenario::Setup;

    #[test]
    fn the_charts_follow_the_race() {
        let mut setup = Setup::from_preset("pgrr-a1").unwrap();
        setup.policies.truncate(2);
        setup.scenario.set("horizon", "5000").unwrap();
        setup.scenario.set("warmup", "1000").unwrap();
        setup.scenario.set("sample_every", "64").unwrap();
        let mut race = Race::new(&setup, 64);
        race.advance(512, f64::INFINITY, || 0.0).unwrap();
        let marks = setup.scenario.marks();
        let snapshot = race.snapshot(Phase::Running, 0);
        let queue = chart(ChartKind::Queue, &snapshot, &marks, 0.7);
        assert_eq!(queue.x_range, Some((0.0, 512.0)));
        assert!(queue.x_marks.is_empty(), "no warm-up line before the warm-up ends");
        let labels: Vec<_> = queue.curves.iter().map(|c| (c.label, c.color)).collect();
        assert_eq!(labels, [("VQS (J=2)", Ink::Policy(0)), ("BF-J/S", Ink::Policy(1))]);
        let occupancy = chart(ChartKind::Occupancy, &snapshot, &marks, 0.7);
        let y: Vec<_> = occupancy.y_marks.iter().map(|m| m.value).collect();
        assert_eq!(y, [0.7, 0.5, 2.0 / 3.0]);
        race.advance(1_024, f64::INFINITY, || 0.0).unwrap();
        let snapshot = race.snapshot(Phase::Running, 0);
        assert_eq!(chart(ChartKind::Queue, &snapshot, &marks, 0.7).x_marks[0].value, 1_000.0);
        let bins = chart(ChartKind::Bins, &snapshot, &marks, 0.7);
        assert!(bins.curves.iter().all(|c| c.label.starts_with("VQ")));
    }

    #[test]
    fn multiserver_charts_plot_n_and_per_class_response_with_the_analysis() {
        let mut setup = Setup::from_preset("msfq-d1").unwrap();
        setup.scenario.set("horizon", "4000").unwrap();
        setup.scenario.set("warmup", "500").unwrap();
        setup.scenario.set("sample_every", "10").unwrap();
        let mut race = Race::new(&setup, 256);
        race.advance(4_000, f64::INFINITY, || 0.0).unwrap();
        let marks = setup.scenario.marks();
        // Focus on MSFQ(31), the second lane.
        let snapshot = race.snapshot(Phase::Running, 1);
        // Every chart but the reward chart, which is PG-AS's.
        let shown: Vec<ChartKind> = ChartKind::ALL.into_iter().filter(|k| k.applies(&snapshot)).collect();
        assert_eq!(
            shown,
            [ChartKind::Queue, ChartKind::Occupancy, ChartKind::JobTime, ChartKind::ClassJobTime, ChartKind::Bins]
        );
        let queue = chart(ChartKind::Queue, &snapshot, &marks, 0.9);
        assert_eq!(queue.title, "Jobs in the system n(t)");
        // n(t) counts running jobs too, so it is never below Q(t).
        let lane = &snapshot.lanes[1];
        assert!(lane.in_system_series.iter().zip(lane.queue_series.iter()).all(|(n, q)| n.y >= q.y));
        let classes = chart(ChartKind::ClassJobTime, &snapshot, &marks, 0.9);
        let labels: Vec<_> = classes.curves.iter().map(|c| c.label).collect();
        assert_eq!(labels, ["1 core", "32 cores"]);
        assert!(classes.curves.iter().all(|c| !c.points.is_empty() && c.points.iter().all(|p| p.x > 500.0)));
        // The analysis of MSFQ(31) at λ = 7.5 per class (SPEC 5.6): E[T^(1)] and E[T^(32)].
        assert_eq!(classes.y_marks.len(), 2);
        assert!(classes.y_marks.iter().all(|m| m.value > 1.0 && m.value < 200.0), "{:?}", classes.y_marks);
        // The PG-RR page has no response charts.
        let pgrr = Race::new(&Setup::from_preset("pgrr-a1").unwrap(), 64).snapshot(Phase::Ready, 0);
        assert!(!ChartKind::ClassJobTime.applies(&pgrr) && !ChartKind::JobTime.applies(&pgrr));
    }

    #[test]
    fn a_loss_system_plots_its_reward_against_the_bounds_not_a_queue() {
        let mut setup = Setup::from_preset("pgas-c4").unwrap();
        setup.scenario.set("servers", "24").unwrap();
        setup.scenario.set("horizon", "5").unwrap();
        let mut race = Race::new(&setup, 64);
        race.advance(5, f64::INFINITY, || 0.0).unwrap();
        let marks = setup.scenario.marks();
        let snapshot = race.snapshot(Phase::Finished, 0);
        let shown: Vec<ChartKind> = ChartKind::ALL.into_iter().filter(|k| k.applies(&snapshot)).collect();
        assert_eq!(shown, [ChartKind::Reward, ChartKind::Occupancy, ChartKind::Bins]);
        let reward = chart(ChartKind::Reward, &snapshot, &marks, 0.8);
        let lines: Vec<(f64, &str)> = reward.y_marks.iter().map(|m| (m.value, m.label)).collect();
        assert!((lines[0].0 - 3196.0 / 3.0).abs() < 1e-6 && (lines[1].0 - 1236.0).abs() < 1e-4, "{lines:?}");
        assert!(reward.curves.iter().all(|c| !c.points.is_empty()));
        assert_eq!(chart(ChartKind::Bins, &snapshot, &marks, 0.8).title, "Jobs in service per type");
        // α is not a fraction of the capacity: the occupancy chart carries no guarantee marks.
        assert_eq!(chart(ChartKind::Occupancy, &snapshot, &marks, 0.8).y_marks.len(), 1);
    }
}
