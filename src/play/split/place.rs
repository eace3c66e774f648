//! Where the lanes of a split race run: each part's share of the lanes, chosen from what each
//! lane costs per slot as measured while it plays.
//!
//! A split race runs at the pace of its slowest part (the others wait for it at the marks), so
//! what matters is the largest part's cost. The lanes are placed greedily, the costliest first,
//! each on the part that costs least so far (Graham's longest-processing-time rule: within 4/3
//! of the best possible largest part, and exact for the two to four lanes a race has on two
//! cores in nearly every case). Ties go to the lower lane and the lower part, so the same costs
//! always give the same placement.

use packlab_core::scenario::Setup;

use super::Part;

/// How much cheaper the costliest part of the placement by measured costs must be than that of
/// the placement the race started with, for the lanes to move once first measured: a move
/// replays the moved parts' lanes so far, a fraction of a second at the start. Low, because
/// the gains at stake are small: the four lanes of docs/speed.md gain 7.6 % by their move, and
/// at 1.05 the noise of the measured costs left them unmoved in half the races.
pub const FIRST_GAIN: f64 = 1.02;
/// The same, later, when the costs drifted (a queue that grows makes its lane costlier): only
/// when far apart, and only once the run is twice as long as at the last move, so that
/// replaying costs at most a fixed share of the run however long it is.
pub const DRIFT_GAIN: f64 = 1.25;
/// Longest wall time a move may take replaying the lanes of a rebuilt part, in ms, by their
/// measured costs: the race waits for it (a long run's later drift is left as it is).
pub const MAX_REPLAY_MS: f64 = 1000.0;

/// Splits `setup`'s lanes into at most `parts` parts of consecutive lanes, as even as they go
/// (a race of one lane, or one part, is the setup itself): where a race starts, before its
/// lanes' costs are measured.
pub fn split(setup: &Setup, parts: usize) -> Vec<Part> {
    let n = setup.policies.len();
    let parts = parts.clamp(1, n.max(1));
    let placement: Vec<Vec<usize>> = (0..parts).map(|k| (k * n / parts..(k + 1) * n / parts).collect()).collect();
    parts_of(setup, &placement)
}

/// The lanes of each part, in order, by the longest-processing-time rule on `costs` (each
/// lane's cost per slot), over at most `parts` parts.
pub fn place(costs: &[f64], parts: usize) -> Vec<Vec<usize>> {
    let parts = parts.clamp(1, costs.len().max(1));
    let mut order: Vec<usize> = (0..costs.len()).collect();
    // Costliest first; a stable sort keeps equal costs in lane order.
    order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]));
    let mut placed = vec![Vec::new(); parts];
    let mut load = vec![0.0_f64; parts];
    for lane in order {
        // The first of the least loaded parts.
        let k = (0..parts).min_by(|&a, &b| load[a].total_cmp(&load[b])).unwrap_or(0);
        placed[k].push(lane);
        load[k] += costs[lane];
    }
    placed.iter_mut().for_each(|lanes| lanes.sort_unstable());
    placed
}

/// The cost per slot of the costliest part of `placement`: what the race's pace follows.
pub fn largest(placement: &[Vec<usize>], costs: &[f64]) -> f64 {
    placement.iter().map(|lanes| lanes.iter().map(|&l| costs[l]).sum::<f64>()).fold(0.0, f64::max)
}

/// `new` reordered so that each part keeps as many of its lanes in `old` as it can (taken
/// greedily, part by part): a part whose lanes do not change is not rebuilt.
pub fn keep_order(old: &[Vec<usize>], mut new: Vec<Vec<usize>>) -> Vec<Vec<usize>> {
    let mut out = Vec::with_capacity(new.len());
    for lanes in old.iter().take(new.len()) {
        let shared = |p: &Vec<usize>| p.iter().filter(|l| lanes.contains(l)).count();
        // The first of those sharing most.
        let best = (0..new.len()).rev().max_by_key(|&j| shared(&new[j])).unwrap_or(0);
        out.push(new.remove(best));
    }
    out.extend(new);
    out
}

/// The parts that play `placement`'s lanes of `setup`, one per list of lanes.
pub fn parts_of(setup: &Setup, placement: &[Vec<usize>]) -> Vec<Part> {
    placement
        .iter()
        .map(|lanes| {
            let policies = lanes.iter().map(|&l| setup.policies[l].clone()).collect();
            Part { setup: Setup { policies, ..setup.clone() }, lanes: lanes.clone() }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_costliest_lanes_are_spread_first() {
        // bf-js, bf-j, bf-s, vqs-bf as measured (ns per job): consecutive halves would cost
        // 253 and 346; the rule gives 318 and 281.
        let costs = [126.5, 126.5, 154.5, 191.5];
        let placed = place(&costs, 2);
        assert_eq!(placed, [vec![1, 3], vec![0, 2]]);
        assert_eq!(largest(&placed, &costs), 318.0);
        assert_eq!(largest(&[vec![0, 1], vec![2, 3]], &costs), 346.0);
        // Equal costs: in lane order, alternately.
        assert_eq!(place(&[1.0; 4], 2), [vec![0, 2], vec![1, 3]]);
        assert_eq!(place(&[1.0, 2.0, 3.0], 3), [vec![2], vec![1], vec![0]]);
        assert_eq!(place(&[1.0, 2.0], 5).len(), 2, "no more parts than lanes");
        assert_eq!(place(&[1.0, 2.0], 0), [vec![0, 1]]);
    }

    #[test]
    fn parts_keep_the_lanes_they_had() {
        let old = [vec![0, 1], vec![2, 3]];
        // Where every way changes both parts, the order is the new one.
        assert_eq!(keep_order(&old, vec![vec![1, 2], vec![0, 3]]), [vec![1, 2], vec![0, 3]]);
        assert_eq!(keep_order(&old, vec![vec![2, 3], vec![0, 1]]), old);
        assert_eq!(keep_order(&[vec![0], vec![1, 2]], vec![vec![1, 2], vec![0]]), [vec![0], vec![1, 2]]);
    }
}
