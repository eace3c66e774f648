//! Export: the plotted series as CSV, each chart as PNG or SVG, saved through a download link
//! (the page makes no network request for it).

use std::rc::Rc;

use packlab_core::report::sig;
use packlab_plot::{Chart, Point};
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;

use crate::charts::canvas::{draw_scaled, svg};
use crate::dom::page::download;
use crate::play::snapshot::{LaneStats, Snapshot};

/// One column of the CSV: a plotted series and how its points line up with the rows.
struct Column<'a> {
    name: String,
    points: &'a [Point],
    /// Point `i` is row `i` (series on the common grid); otherwise points are matched to rows by
    /// time (series that start later, like a running mean after the warm-up).
    by_row: bool,
}

impl Column<'_> {
    fn cell(&self, row: usize, x: f64) -> String {
        let point = if self.by_row {
            self.points.get(row)
        } else {
            let i = self.points.partition_point(|p| p.x < x);
            self.points.get(i).filter(|p| p.x == x)
        };
        point.map_or(String::new(), |p| sig(p.y))
    }
}

/// The series of every chart, one row per grid interval: the time at the interval's middle,
/// then each policy's series (its queue, n(t), reward rate, running-mean occupancy and
/// running-mean response time or delay, as far as the model has them), then the focused
/// policy's bins. A cell is empty where a series has no value yet (a running mean before its
/// first measured job).
///
/// Every lane runs the same time on the same grid, so row `i` of each grid series is the same
/// interval.
///
/// The file starts with `#` lines saying where it comes from: packlab's version, the link
/// (which holds the scenario, the policies and the seed), the seed, and how far the run got;
/// readers skip them as comments (`pandas.read_csv(f, comment="#")`, R's
/// `read.csv(f, comment.char="#")`). Values carry six significant digits, so float noise
/// (0.46499999999999997) does not show; times are exact.
pub fn series_csv(snapshot: &Snapshot, link: &str, seed: u64) -> Result<String, csv::Error> {
    let focus = snapshot.lanes.get(snapshot.focus).map_or("", |l| l.policy.as_str());
    let in_system = snapshot.lanes.iter().any(|l| !l.in_system_series.is_empty());
    let rewards = snapshot.reward.is_some() || snapshot.lanes.iter().any(|l| !l.reward_series.is_empty());
    let column = |name: String, points, by_row| Column { name, points, by_row };
    let mut columns = Vec::new();
    for lane in &snapshot.lanes {
        let policy = &lane.policy;
        if snapshot.queues() {
            columns.push(column(format!("{policy} queue"), &lane.queue_series[..], true));
        }
        if in_system {
            columns.push(column(format!("{policy} in system"), &lane.in_system_series[..], true));
        }
        if rewards {
            columns.push(column(format!("{policy} reward rate per server"), &lane.reward_series[..], true));
        }
        columns.push(column(format!("{policy} occupancy running mean"), &lane.occupancy_series[..], true));
        if let Some(t) = snapshot.job_time() {
            columns.push(column(format!("{policy} {} running mean", t.key), &lane.job_time_series[..], false));
        }
    }
    for (bin, series) in snapshot.bin_labels.iter().zip(&snapshot.bin_series) {
        columns.push(column(format!("{focus} {bin}"), &series[..], true));
    }
    // The rows are the grid's intervals: those of the queue, or of the reward in a loss system.
    let grid =
        |lane: &'_ LaneStats| if snapshot.queues() { lane.queue_series.clone() } else { lane.reward_series.clone() };
    let rows = snapshot.lanes.iter().map(|l| grid(l).len()).min().unwrap_or(0);
    let times = snapshot.lanes.first().map(grid).unwrap_or_else(|| Rc::from([]));

    let time_unit = snapshot.model.time;
    let head = format!(
        "# packlab {} series\n# link: {link}\n# seed: {}\n# run to {} {} of {}\n",
        env!("CARGO_PKG_VERSION"),
        seed,
        time_unit.prefix(),
        snapshot.slot,
        snapshot.horizon
    )
    .into_bytes();
    let mut out = csv::Writer::from_writer(head);
    let time = snapshot.model.time.axis();
    out.write_record(std::iter::once(time.to_string()).chain(columns.iter().map(|c| c.name.clone())))?;
    for (row, at) in times.iter().take(rows).enumerate() {
        out.write_record(std::iter::once(at.x.to_string()).chain(columns.iter().map(|c| c.cell(row, at.x))))?;
    }
    let bytes = out.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8(bytes).expect("CSV of numbers and names is UTF-8"))
}

/// Saves the series of `snapshot` as `packlab-<query>.csv`.
pub fn save_csv(snapshot: &Snapshot, name: &str, link: &str, seed: u64) -> Result<(), String> {
    let csv = series_csv(snapshot, link, seed).map_err(|e| format!("cannot write the CSV: {e}"))?;
    let href = format!("data:text/csv;charset=utf-8,{}", js_sys::encode_uri_component(&csv));
    download(&format!("{name}.csv"), &href)
}

/// The image formats a chart exports to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// At twice the chart's size on the page (a projector or a paper wants more pixels than a
    /// laptop screen shows).
    Png,
    /// Vector, from plotters' SVG backend: the same chart code as the canvas and the CLI.
    Svg,
}

impl ImageFormat {
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Svg => "svg",
        }
    }
}

/// Pixels per CSS pixel of an exported PNG.
pub const PNG_SCALE: f64 = 2.0;
/// Least size of an exported chart, in CSS pixels: a chart that is small on a phone still
/// exports at a size fit for slides.
pub const EXPORT_MIN_SIZE: (f64, f64) = (640.0, 400.0);

/// The size to export the chart whose canvas has id `id` at: its size on the page, at least
/// [`EXPORT_MIN_SIZE`].
pub fn export_size(id: &str) -> (f64, f64) {
    let on_page = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .map_or((0.0, 0.0), |e| (f64::from(e.client_width()), f64::from(e.client_height())));
    (on_page.0.max(EXPORT_MIN_SIZE.0), on_page.1.max(EXPORT_MIN_SIZE.1))
}

/// Saves `chart`, laid out for `size` CSS pixels, as `<base>.png` (at [`PNG_SCALE`]) or
/// `<base>.svg`. The PNG is drawn on a canvas of its own, not read from the page's.
pub fn save_chart(chart: &Chart<'_>, size: (f64, f64), base: &str, format: ImageFormat) -> Result<(), String> {
    let filename = format!("{base}.{}", format.extension());
    match format {
        ImageFormat::Png => {
            let canvas: HtmlCanvasElement = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.create_element("canvas").ok())
                .and_then(|e| e.dyn_into().ok())
                .ok_or("cannot make a canvas")?;
            draw_scaled(&canvas, size, PNG_SCALE, chart)?;
            let href = canvas.to_data_url().map_err(|_| "cannot read the chart's pixels".to_string())?;
            download(&filename, &href)
        }
        ImageFormat::Svg => {
            let svg = svg(size, chart)?;
            let href = format!("data:image/svg+xml;charset=utf-8,{}", js_sys::encode_uri_component(&svg));
            download(&filename, &href)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::race::Race;
    use crate::play::snapshot::Phase;
    use packlab_core::scenario::Setup;

    #[test]
    fn the_csv_has_a_column_per_plotted_series() {
        let mut setup = Setup::from_preset("pgrr-a1").unwrap();
        setup.policies.truncate(2);
        setup.scenario.set("sample_every", "100").unwrap();
        let mut race = Race::new(&setup, 64);
        race.advance(1_000, f64::INFINITY, || 0.0).unwrap();
        let snapshot = race.snapshot(Phase::Paused, 1);
        let csv = series_csv(&snapshot, "http://127.0.0.1:8080/?preset=pgrr-a1&seed=1", 1).unwrap();
        let head: Vec<&str> = csv.lines().take_while(|l| l.starts_with('#')).collect();
        assert_eq!(
            head,
            [
                concat!("# packlab ", env!("CARGO_PKG_VERSION"), " series"),
                "# link: http://127.0.0.1:8080/?preset=pgrr-a1&seed=1",
                "# seed: 1",
                "# run to slot 1000 of 2000000",
            ]
        );
        let csv = &csv[head.iter().map(|l| l.len() + 1).sum::<usize>()..];
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(
            header,
            [
                "slot",
                "vqs queue",
                "vqs occupancy running mean",
                "bf-js queue",
                "bf-js occupancy running mean",
                "bf-js VQ0 (2/3, 1]",
                "bf-js VQ1 (1/2, 2/3]",
                "bf-js VQ2 (1/3, 1/2]",
                "bf-js VQ3 (0, 1/3]",
            ]
        );
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 1 + 10);
        assert!(lines[1].starts_with("50,"));
        // Six significant digits at most: no float noise.
        for cell in lines[1..].iter().flat_map(|l| l.split(',')).filter(|c| !c.is_empty()) {
            let digits = cell.trim_start_matches(['0', '.']).chars().filter(char::is_ascii_digit).count();
            assert!(digits <= 6, "{cell}");
        }
    }

    /// A loss system has no queue: its rows follow the reward's grid, and the reward is a column.
    #[test]
    fn a_loss_system_exports_its_reward() {
        let setup = Setup::from_preset("pgas-c4").unwrap();
        let mut race = Race::new(&setup, 64);
        race.advance(2_000, f64::INFINITY, || 0.0).unwrap();
        let csv = series_csv(&race.snapshot(Phase::Paused, 0), "", 1).unwrap();
        let body: String = csv.lines().filter(|l| !l.starts_with('#')).map(|l| format!("{l}\n")).collect();
        let mut reader = csv::Reader::from_reader(body.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        assert!(!header.iter().any(|h| h.ends_with(" queue")), "{header:?}");
        let reward = header.iter().position(|h| h == "dra reward rate per server").expect("a reward column");
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert!(rows.len() > 10, "{} rows", rows.len());
        let last: f64 = rows.last().unwrap()[reward].parse().unwrap();
        assert!(last > 0.0, "DRA earns a reward: {last}");
    }

    /// Before the first measured job there is no running mean: the cell is empty, not 0.
    #[test]
    fn a_running_mean_starts_empty_not_at_zero() {
        let mut setup = Setup::from_preset("msfq-d1").unwrap();
        setup.scenario.set("warmup", "100").unwrap();
        setup.scenario.set("sample_every", "10").unwrap();
        let mut race = Race::new(&setup, 4096);
        race.advance(1_000, f64::INFINITY, || 0.0).unwrap();
        let csv = series_csv(&race.snapshot(Phase::Paused, 0), "", 1).unwrap();
        let mut reader = csv::ReaderBuilder::new().comment(Some(b'#')).from_reader(csv.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        let column = header.iter().position(|h| h.ends_with("response running mean")).expect("a response column");
        let cells: Vec<String> = reader.records().map(|r| r.unwrap()[column].to_string()).collect();
        let first = cells.iter().position(|c| !c.is_empty()).expect("some job measured by t = 1000");
        assert!(first >= 10, "nothing is measured in the warm-up: {first}");
        assert!(cells[first..].iter().all(|c| c.parse::<f64>().is_ok_and(|v| v > 0.0)), "{:?}", &cells[first..]);
    }
}
