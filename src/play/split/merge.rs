//! The snapshot of a whole split race from its parts' snapshots.

use std::rc::Rc;

use crate::play::snapshot::{Phase, Rate, Snapshot};

/// The snapshot of the whole race from its parts' snapshots, all of one moment (`active`
/// marks the parts whose lanes run: the moment and phase are theirs). `focus` is the whole
/// race's focused lane; the part that holds it was told to focus on it.
pub fn merge(parts: &[&Snapshot], lanes: &[Vec<usize>], focus: usize, active: &[bool]) -> Snapshot {
    let lead = parts.iter().zip(active).find(|(_, a)| **a).map_or(parts[0], |(s, _)| *s);
    let focused = lanes.iter().position(|r| r.contains(&focus)).unwrap_or(0);
    let holder = parts[focused];
    let phase = whole_phase(parts, active);
    let rate = parts.iter().map(|s| s.rate).collect::<Option<Vec<Rate>>>().and_then(|rates| {
        rates.into_iter().reduce(|a, b| Rate {
            fps: a.fps.min(b.fps),
            slots_per_second: a.slots_per_second.min(b.slots_per_second),
            simulating_ms: a.simulating_ms.max(b.simulating_ms),
            worker: true,
            workers: 0,
        })
    });
    let rate = rate.map(|rate| Rate { workers: parts.len() as u32, ..rate });
    let n = lanes.iter().map(Vec::len).sum();
    let mut all = vec![None; n];
    let mut costs = vec![f64::NAN; n];
    for (snapshot, whole) in parts.iter().zip(lanes) {
        for (lane, &at) in snapshot.lanes.iter().zip(whole) {
            let mut lane = lane.clone();
            lane.color = at;
            all[at] = Some(lane);
        }
        for (&cost, &at) in snapshot.costs.iter().zip(whole) {
            costs[at] = cost;
        }
    }
    let all: Vec<_> = all.into_iter().flatten().collect();
    let costs = if costs.iter().any(|c| c.is_nan()) { Vec::new() } else { costs };
    let first = parts[0];
    Snapshot {
        slot: lead.slot,
        now: lead.now,
        furthest: parts.iter().zip(active).filter(|(_, a)| **a).map(|(s, _)| s.furthest).fold(lead.furthest, f64::min),
        checkpoints: parts.iter().fold((0, 0), |(n, b), s| (n + s.checkpoints.0, b + s.checkpoints.1)),
        horizon: first.horizon,
        warmup: first.warmup,
        model: first.model,
        reward: first.reward,
        phase,
        lanes: all,
        bin_labels: Rc::clone(&first.bin_labels),
        focus: focus.min(n.saturating_sub(1)),
        bin_series: holder.bin_series.clone(),
        bin_job_time_series: holder.bin_job_time_series.clone(),
        bin_analysis: holder.bin_analysis.clone(),
        detail: first.detail,
        rate,
        costs,
    }
}

/// The phase of the whole race: a failure shows; else the parts that run agree (a part that
/// reached the horizon with the others, a pause of all). When every part's lanes stopped on
/// their scripts, the race failed with the last stop's message, as a whole race does.
fn whole_phase(parts: &[&Snapshot], active: &[bool]) -> Phase {
    let running = || parts.iter().zip(active).filter(|(_, a)| **a).map(|(s, _)| &s.phase);
    if let Some(failed) = running().find(|p| matches!(p, Phase::Failed(_))) {
        return failed.clone();
    }
    if running().next().is_none() {
        let why = parts.iter().flat_map(|s| s.lanes.iter().filter_map(|l| l.stopped.clone())).last();
        return Phase::Failed(format!("the simulation stopped: {}", why.unwrap_or_default()));
    }
    let rank = |p: &Phase| match p {
        Phase::Failed(_) => 4,
        Phase::Finished => 3,
        Phase::Paused => 2,
        Phase::Ready => 1,
        Phase::Running => 0,
    };
    running().max_by_key(|p| rank(p)).cloned().unwrap_or(Phase::Ready)
}
