//! A run's changes on its charts (issue 54): a dotted line at each change's moment, one legend
//! entry for them (labels on the plot say what each was where the legend is on the plot), and the band each lane's queue held before a change shaded from
//! the change until the queue drained back into it (RES-94), in the lane's colour. The page's
//! live charts and `packlab run --out`'s SVG draw them alike.

use packlab_core::changes::Changes;
use packlab_core::metrics::Recovery;

use crate::{Band, Ink, Mark, Stroke};

/// The legend's words for the shaded bands (the queue's range before a change, shaded from
/// the change until the queue is back in it), short enough for a phone's chart.
pub const BAND_LABEL: &str = "shaded: a queue's band until back in it";

/// The legend's words for the changes' lines: short, so that a phone's chart (about 350 px
/// wide) shows them whole; the timeline lists each change, and the chart in words its moments.
pub const CHANGE_LABEL: &str = "dotted: a change of the run";

/// The moments of a run's changes and the legend's words for them, owned, so a chart can
/// borrow them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChangeMarks {
    moments: Vec<u64>,
    /// What changes at each moment ("load = 1.3"), for labels on the plot.
    each: Vec<String>,
}

impl ChangeMarks {
    /// The marks of `changes`.
    pub fn of(changes: &Changes) -> Self {
        let moments = changes.moments();
        let each = moments
            .iter()
            .map(|&at| {
                let said: Vec<String> =
                    changes.iter().filter(|c| c.at == at).map(|c| format!("{} = {}", c.key, c.value)).collect();
                said.join(", ")
            })
            .collect();
        Self { moments, each }
    }

    /// Whether the run has no change.
    pub fn is_empty(&self) -> bool {
        self.moments.is_empty()
    }

    /// A dotted line at each change's moment up to `up_to` (the chart's end). With the legend
    /// below the plot (`legend_below`), the first is labelled [`CHANGE_LABEL`] for the legend;
    /// with labels on the plot, each with what changed there.
    pub fn marks(&self, up_to: f64, legend_below: bool) -> impl Iterator<Item = Mark<'_>> {
        let shown = self.moments.iter().zip(&self.each).filter(move |&(&at, _)| at as f64 <= up_to);
        shown.enumerate().map(move |(i, (&at, each))| {
            let label = match (legend_below, i) {
                (false, _) => each.as_str(),
                (true, 0) => CHANGE_LABEL,
                (true, _) => "",
            };
            Mark { stroke: Some(Stroke::Dotted), ..Mark::new(at as f64, label) }
        })
    }
}

/// The bands of one lane's `recovery` in its colour `ink`, each from its change until the queue
/// drained back, until the next change if it had not, or until `now` while it has not yet.
pub fn recovery_bands(recovery: &[Recovery], ink: Ink, now: f64) -> impl Iterator<Item = Band<'static>> + '_ {
    recovery.iter().enumerate().map(move |(i, r)| {
        let next = recovery.get(i + 1).map_or(now, |n| n.at as f64);
        let end = match r.drain {
            Some(drain) => r.at as f64 + drain,
            None => next,
        };
        Band { x: (r.at as f64, end.min(now).max(r.at as f64)), y: (r.band[0], r.band[1]), label: BAND_LABEL, ink }
    })
}
