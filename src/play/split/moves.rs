//! Moves of lanes between the parts of a split race, by their measured costs ([`super`]).

use std::collections::VecDeque;

use super::place::{DRIFT_GAIN, FIRST_GAIN, MAX_REPLAY_MS, keep_order, largest, parts_of, place};
use super::{Lockstep, MARKS_AHEAD, ToPart};
use crate::play::player::Command;
use crate::play::snapshot::Snapshot;

impl Lockstep {
    /// At a mark shown while every lane plays: once every lane's cost is measured, and later
    /// when they drifted far apart, starts moving the lanes to their placement by cost if that
    /// makes the costliest part clearly cheaper (the parts pause first, as for a Pause).
    pub(super) fn place_by_cost(&mut self, shown: &Snapshot) -> Vec<(usize, ToPart)> {
        let costs: Option<Vec<f64>> = self.costs.iter().map(|c| c.filter(|c| c.is_finite() && *c > 0.0)).collect();
        let Some(costs) = costs else { return Vec::new() };
        // Near the horizon the parts may finish before they meet: not worth a move.
        let ahead = self.marks.back().copied().unwrap_or(shown.slot);
        let near_end = ahead.saturating_add(MARKS_AHEAD as u64 * self.stride) >= shown.horizon;
        let stopped = shown.lanes.iter().any(|l| l.stopped.is_some());
        if !self.max || self.moving.is_some() || !self.waiting.is_empty() || near_end || stopped {
            return Vec::new();
        }
        let (gain_needed, due) =
            if self.placed { (DRIFT_GAIN, shown.slot >= self.moved_at.saturating_mul(4)) } else { (FIRST_GAIN, true) };
        if !due {
            return Vec::new();
        }
        if !self.placed {
            self.placed = true;
            self.moved_at = shown.slot;
        }
        let best = keep_order(&self.lanes, place(&costs, self.parts()));
        // A rebuilt part replays its lanes from 0: the race waits that long, so not past a second.
        let replay_ms = |lanes: &Vec<usize>| lanes.iter().map(|&l| costs[l]).sum::<f64>() * shown.slot as f64;
        let changed = best.iter().zip(&self.lanes).filter(|(new, old)| new != old);
        let too_long = changed.map(|(new, _)| replay_ms(new)).fold(0.0, f64::max) > MAX_REPLAY_MS;
        if too_long || largest(&self.lanes, &costs) < gain_needed * largest(&best, &costs) {
            return Vec::new();
        }
        // No more marks: the parts hold at the last one handed out, still playing.
        let hold = self.marks.back().copied().unwrap_or(shown.slot);
        self.moving = Some((best, hold));
        self.moved_at = hold;
        Vec::new()
    }

    /// A move under way, at mark `slot` shown: once it is the mark the parts hold at, each part
    /// whose lanes change is rebuilt with its new lanes and plays them from time 0 to that mark
    /// (playing, not seeking: a seek stops the race, and a stopped race makes its decision log,
    /// which took seconds at a thousand servers); the others wait there, and once the rebuilt
    /// parts reach it, it is shown again and the race plays on.
    pub(super) fn move_on(&mut self, slot: u64) -> Vec<(usize, ToPart)> {
        if self.replaying.take_if(|hold| *hold == slot).is_some() {
            return Vec::new();
        }
        let Some((placement, hold)) = self.moving.take_if(|(_, hold)| *hold == slot) else { return Vec::new() };
        self.replaying = Some(hold);
        let old = std::mem::replace(&mut self.lanes, placement);
        let parts = parts_of(&self.setup, &self.lanes);
        let mut out = Vec::new();
        self.marks = VecDeque::from([hold]);
        for (k, part) in parts.into_iter().enumerate() {
            if self.lanes[k] == old[k] {
                // It holds at the mark: what it sent there stands for it again.
                self.at_marks[k] = self.latest[k].iter().filter(|l| l.snapshot.slot == hold).cloned().collect();
                continue;
            }
            self.sent[k] += 1;
            self.at_marks[k].clear();
            out.push((k, ToPart::Become { part: Box::new(part), answered: self.sent[k] }));
            out.push((k, ToPart::Do(Command::Focus(self.local_focus(k)))));
            out.push((k, ToPart::Do(Command::Play)));
            out.push((k, ToPart::Marks(vec![hold])));
        }
        self.count(&out);
        // Measured anew where they now run.
        self.costs.iter_mut().for_each(|c| *c = None);
        self.last_shown = None;
        out
    }
}
