//! A gallery card's thumbnail: the first moments of the preset's race, each lane's main curve
//! (the queue, n(t) or the reward, what its lab plots first) in its policy's colour, as SVG.
//! Drawn when the page is built, the same for everyone (the race is deterministic), so a
//! phone computes none of them and the gallery loads them as pictures after its first paint.

use std::fmt::Write as _;

use crate::play::race::Race;
use crate::play::snapshot::{Phase, Snapshot};
use crate::state::preset_setup;

/// Thumbnail size in CSS pixels.
const SIZE: (f64, f64) = (240.0, 64.0);
/// The first moments: a fiftieth of the horizon, or less where that many jobs would arrive
/// first (pgrr-a3's thousand servers take 95 a slot).
const SHARE_OF_HORIZON: u64 = 50;
const MOST_JOBS: u64 = 30_000;
/// The run goes in this many pieces of its horizon, the jobs counted after each.
const PIECES: u64 = 2_500;

/// Preset `id`'s thumbnail, or `None` for a preset with nothing to simulate.
pub fn svg(id: &str) -> Option<String> {
    let setup = preset_setup(id).ok()?;
    if setup.scenario.any().theory_only() {
        return None;
    }
    let mut race = Race::new(&setup, 96);
    let horizon = race.horizon();
    let (end, piece) = ((horizon / SHARE_OF_HORIZON).max(1), (horizon / PIECES).max(1));
    while race.slot() < end && !race.finished() {
        race.advance(piece.min(end - race.slot()), f64::INFINITY, || 0.0).ok()?;
        if race.snapshot(Phase::Paused, 0).lanes.iter().map(|l| l.arrivals).max().unwrap_or(0) >= MOST_JOBS {
            break;
        }
    }
    Some(draw(&race.snapshot(Phase::Paused, 0)))
}

/// Each lane's curve as a line in its policy's colour, scaled to the thumbnail.
fn draw(snapshot: &Snapshot) -> String {
    let (w, h) = SIZE;
    let curves: Vec<(usize, Vec<(f64, f64)>)> = snapshot
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
        .collect();
    let top = curves.iter().flat_map(|c| c.1.iter().map(|p| p.1)).fold(f64::MIN_POSITIVE, f64::max);
    let right = curves.iter().flat_map(|c| c.1.iter().map(|p| p.0)).fold(f64::MIN_POSITIVE, f64::max);
    let mut out =
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">");
    for (color, points) in &curves {
        let line: Vec<String> = points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", x / right * (w - 2.0) + 1.0, h - 2.0 - y / top * (h - 6.0)))
            .collect();
        let _ = write!(
            out,
            "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" stroke-linejoin=\"round\"/>",
            line.join(" "),
            packlab_plot::css_color(*color)
        );
    }
    out.push_str("</svg>");
    out
}
