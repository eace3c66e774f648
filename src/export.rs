//! Export: the plotted series as CSV, each chart as PNG, saved through a download link (the
//! page makes no network request for it).

use wasm_bindgen::JsCast;
use web_sys::{HtmlAnchorElement, HtmlCanvasElement};

use crate::snapshot::Snapshot;

/// The series of every chart, one row per grid interval: the slot at the interval's middle,
/// then each policy's queue and running-mean occupancy (and, where the model has them, n(t)
/// and the running-mean response time or delay), then the focused policy's bins.
///
/// Every lane runs the same slots on the same grid, so row `i` of each series is the same
/// interval.
pub fn series_csv(snapshot: &Snapshot) -> Result<String, csv::Error> {
    let mut out = csv::Writer::from_writer(Vec::new());
    let focus = snapshot.lanes.get(snapshot.focus).map_or("", |l| l.policy.as_str());
    let in_system = snapshot.lanes.iter().any(|l| !l.in_system_series.is_empty());
    let job_time = snapshot.job_time;
    let mut header = vec![if snapshot.time_unit == "slots" { "slot" } else { "time" }.to_string()];
    for lane in &snapshot.lanes {
        header.push(format!("{} queue", lane.policy));
        if in_system {
            header.push(format!("{} in system", lane.policy));
        }
        header.push(format!("{} occupancy running mean", lane.policy));
        if let Some(t) = job_time {
            header.push(format!("{} {} running mean", lane.policy, t.key));
        }
    }
    header.extend(snapshot.bin_labels.iter().map(|b| format!("{focus} {b}")));
    out.write_record(&header)?;
    let rows = snapshot.lanes.iter().map(|l| l.queue_series.len()).min().unwrap_or(0);
    for i in 0..rows {
        let x = snapshot.lanes[0].queue_series[i].x;
        let mut record = vec![x.to_string()];
        for lane in &snapshot.lanes {
            record.push(lane.queue_series[i].y.to_string());
            if in_system {
                record.push(lane.in_system_series.get(i).map_or(String::new(), |p| p.y.to_string()));
            }
            record.push(lane.occupancy_series.get(i).map_or(String::new(), |p| p.y.to_string()));
            if job_time.is_some() {
                // The per-job time series starts after the warm-up; match its points by time.
                let at = lane.job_time_series.iter().find(|p| p.x == x);
                record.push(at.map_or(String::new(), |p| p.y.to_string()));
            }
        }
        record.extend(snapshot.bin_series.iter().map(|s| s.get(i).map_or(String::new(), |p| p.y.to_string())));
        out.write_record(&record)?;
    }
    let bytes = out.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8(bytes).expect("CSV of numbers and names is UTF-8"))
}

/// Saves `href` (a data URL) as `filename` through a temporary download link.
pub fn download(filename: &str, href: &str) -> Result<(), String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let anchor: HtmlAnchorElement =
        document.create_element("a").ok().and_then(|a| a.dyn_into().ok()).ok_or("cannot make a link")?;
    anchor.set_href(href);
    anchor.set_download(filename);
    anchor.click();
    Ok(())
}

/// Saves the series of `snapshot` as `packlab-<query>.csv`.
pub fn save_csv(snapshot: &Snapshot, name: &str) -> Result<(), String> {
    let csv = series_csv(snapshot).map_err(|e| format!("cannot write the CSV: {e}"))?;
    let href = format!("data:text/csv;charset=utf-8,{}", js_sys::encode_uri_component(&csv));
    download(&format!("{name}.csv"), &href)
}

/// Saves the canvas with id `id` as `<name>-<id>.png`.
pub fn save_png(id: &str, name: &str) -> Result<(), String> {
    let canvas: HtmlCanvasElement = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into().ok())
        .ok_or_else(|| format!("no chart '{id}' on the page"))?;
    let href = canvas.to_data_url().map_err(|_| format!("cannot read chart '{id}'"))?;
    download(&format!("{name}-{id}.png"), &href)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::Setup;
    use crate::race::Race;
    use crate::snapshot::Phase;

    #[test]
    fn the_csv_has_a_column_per_plotted_series() {
        let mut setup = Setup::from_preset("pgrr-a1").unwrap();
        setup.policies.truncate(2);
        setup.scenario.set("sample_every", "100").unwrap();
        let mut race = Race::new(&setup, 64);
        race.advance(1_000, f64::INFINITY, || 0.0).unwrap();
        let snapshot = race.snapshot(Phase::Paused, 1);
        let csv = series_csv(&snapshot).unwrap();
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(
            header,
            [
                "slot",
                "vqs:j=2 queue",
                "vqs:j=2 occupancy running mean",
                "bf-js queue",
                "bf-js occupancy running mean",
                "bf-js VQ1 (2/3, 1]",
                "bf-js VQ2 (1/2, 2/3]",
                "bf-js VQ3 (1/3, 1/2]",
                "bf-js VQ4 (0, 1/3]",
            ]
        );
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 1 + 10);
        assert!(lines[1].starts_with("50,"));
    }
}
