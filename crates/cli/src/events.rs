//! `packlab run --events FILE`: the decisions of every policy with their reasons, the same log
//! the page's event log and inspector show, as CSV for a window of time.

use std::path::Path;

use anyhow::{Context, Result, bail};
use packlab_core::decisions::CSV_HEADER;
use packlab_core::report::live_run;
use packlab_core::scenario::Setup;
use packlab_core::view::Watch;

/// Decisions kept between two reads: the run is read after every time unit, and no time unit
/// of any preset makes more (a thousand-server slot starts about a thousand jobs).
const LOG: usize = 1 << 16;

/// Writes the decisions made in `[from, to]` (to the horizon without `to`) by each policy of
/// `setup` on its first seed; returns how many.
pub fn write(path: &Path, setup: &Setup, from: f64, to: Option<f64>) -> Result<u64> {
    let s = &setup.scenario;
    let horizon = s.horizon() as f64;
    let to = to.unwrap_or(horizon);
    if from > to {
        bail!("--events-from ({from}) must not be after --events-to ({to})");
    }
    if to > horizon {
        bail!("--events-to must be within the run, 0..={horizon} (got {to})");
    }
    let mut csv = csv::Writer::from_path(path).with_context(|| format!("cannot write {}", path.display()))?;
    csv.write_record(CSV_HEADER)?;
    let mut written = 0;
    for policy in &setup.policies {
        let mut run = live_run(s, policy, Watch::batch(2).with_log(LOG)).with_context(|| format!("policy {policy}"))?;
        let bins = run.bin_labels();
        let mut seen = 0;
        let name = policy.brief();
        loop {
            let now = run.now();
            let log = run.decisions();
            if log.count() - seen > log.records().len() as u64 {
                bail!("{name} made more than {LOG} decisions in one time unit before {now}: narrow the run");
            }
            for d in log.since(seen).filter(|d| (from..=to).contains(&d.time)) {
                csv.write_record(d.csv_fields(&name, &bins))?;
                written += 1;
            }
            seen = log.count();
            // Past `to`: a slot's decisions are made while the run goes from t to t + 1.
            if now > to || now >= horizon {
                break;
            }
            run.run_to((now.floor() + 1.0).min(horizon)).with_context(|| format!("policy {policy}"))?;
        }
    }
    csv.flush()?;
    Ok(written)
}
