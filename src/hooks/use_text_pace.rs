//! The race as the page's text shows it: the numbers and sentences (the stats table, the
//! progress and pace, the lanes' last placements) follow a playing race ten times a second,
//! while its pictures follow it as before (the lanes' canvases every frame, each chart twenty
//! times a second).
//!
//! Digits that change sixty times a second cannot be read, and every change of text makes the
//! browser lay out and repaint the page: about a tenth of a core in a race on two workers
//! ("Text ten times a second" in docs/web.md), which the workers' lanes then lacked. A race
//! that is not playing shows its text exactly, and a change of phase (a pause, the horizon, a
//! failure) or of race (other lanes, or back to an earlier moment: a new race plays from time
//! 0) shows at once.

use std::rc::Rc;

use yew::prelude::*;

use crate::dom::workers::now_ms;
use crate::play::snapshot::{Phase, Snapshot};

/// Least wall time between two updates of the text while the race plays, in ms.
pub const TEXT_EVERY_MS: f64 = 100.0;

/// What the text shows of `snapshot`: the snapshot itself, or while the race plays, the one it
/// last showed until [`TEXT_EVERY_MS`] have passed.
#[hook]
pub fn use_text_pace(snapshot: &Rc<Snapshot>) -> Rc<Snapshot> {
    let pace = use_mut_ref(TextPace::default);
    let mut pace = pace.borrow_mut();
    pace.due(snapshot, now_ms());
    pace.shown().cloned().unwrap_or_else(|| snapshot.clone())
}

/// The snapshot text last moved to, and when: what [`use_text_pace`] shows, and when the
/// component that owns a race renders again ([`crate::play::use_race`]).
#[derive(Default)]
pub struct TextPace {
    /// The snapshot shown, and when it was (ms).
    shown: Option<(Rc<Snapshot>, f64)>,
}

impl TextPace {
    /// Whether the text moves to `next`, published at `now` (ms) ([`follows`]); if so, `next`
    /// is the one shown from now on.
    pub fn due(&mut self, next: &Rc<Snapshot>, now: f64) -> bool {
        let due = self.shown.as_ref().is_none_or(|(shown, at)| follows(shown, next, now - at));
        if due {
            self.shown = Some((next.clone(), now));
        }
        due
    }

    /// The snapshot shown (none before the first).
    pub fn shown(&self) -> Option<&Rc<Snapshot>> {
        self.shown.as_ref().map(|(shown, _)| shown)
    }
}

/// Whether the text moves from `shown` to `next`, `elapsed_ms` after it showed `shown`.
pub fn follows(shown: &Snapshot, next: &Snapshot, elapsed_ms: f64) -> bool {
    next.phase != Phase::Running
        || shown.phase != next.phase
        || elapsed_ms >= TEXT_EVERY_MS
        // Another race is never described by the last one's text.
        || next.now < shown.now
        || shown.lanes.len() != next.lanes.len()
        || shown.lanes.iter().zip(&next.lanes).any(|(a, b)| a.policy != b.policy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::player::{Command, Player};
    use crate::state::Speed;
    use packlab_core::scenario::Setup;

    fn snapshots() -> (Snapshot, Snapshot) {
        let setup = Rc::new(Setup::from_preset("pgrr-a1").unwrap());
        let mut player = Player::new(setup, Speed::Max);
        let paused = player.snapshot();
        player.apply(Command::Play);
        (paused, player.snapshot())
    }

    #[test]
    fn a_playing_race_moves_its_text_ten_times_a_second() {
        let (_, playing) = snapshots();
        assert!(!follows(&playing, &playing, 16.7), "one frame later");
        assert!(!follows(&playing, &playing, 99.9));
        assert!(follows(&playing, &playing, TEXT_EVERY_MS));
        assert!(follows(&playing, &playing, f64::INFINITY), "the first time");
    }

    #[test]
    fn a_change_of_phase_or_of_lanes_shows_at_once() {
        let (paused, playing) = snapshots();
        assert!(follows(&paused, &playing, 0.0), "play");
        assert!(follows(&playing, &paused, 0.0), "pause");
        assert!(follows(&paused, &paused, 0.0), "a stopped race shows every move exactly");
        let mut fewer = playing.clone();
        fewer.lanes.pop();
        assert!(follows(&playing, &fewer, 0.0), "another race");
        let mut other = playing.clone();
        other.lanes[0].policy = "bf-s".into();
        assert!(follows(&playing, &other, 0.0), "other lanes");
        let mut later = playing.clone();
        later.now += 1000.0;
        assert!(follows(&later, &playing, 0.0), "a race that plays again from an earlier moment");
        assert!(!follows(&playing, &later, 0.0), "playing on");
    }
}
