//! How much of a frame the simulation may take when the race plays on the page's own thread:
//! what a 60 Hz frame leaves after the rest of the frame's work, measured frame by frame.

use crate::play::player::MAX_FRAME_GAP_MS;

/// The wall time the simulation may take in a frame: what a 60 Hz frame leaves after the rest
/// of the frame's work on the main thread.
///
/// That rest (the page's drawing, the browser's style, layout and paint) depends on the
/// scenario, the machine and what else runs on it: about 5 ms at 1000 servers on a 2-core
/// machine, more when other programs compete for the cores. Rather than guess it, the race
/// session measures it each frame ([`FrameLoop`](crate::play::frame_loop::FrameLoop) reports
/// when the frame's rendering is done), and the budget is one frame minus [`FrameBudget::SLACK_MS`] minus its mean over the last
/// [`FrameBudget::WINDOW`] frames, within `MIN_MS..=MAX_MS`. The slack absorbs the variation
/// from frame to frame (the charts take turns, so a frame redraws at most one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameBudget {
    ms: f64,
    /// The main thread's work besides the simulation in recent frames, in ms.
    recent: [f64; Self::WINDOW],
    next: usize,
}

impl FrameBudget {
    pub const START_MS: f64 = 9.0;
    pub const MIN_MS: f64 = 3.0;
    pub const MAX_MS: f64 = 14.0;
    /// One frame at 60 Hz.
    pub const FRAME_MS: f64 = 1000.0 / 60.0;
    /// Kept free in every frame for what the measurement misses (compositing, input, timers).
    pub const SLACK_MS: f64 = 2.0;
    pub const WINDOW: usize = 8;

    pub fn ms(&self) -> f64 {
        self.ms
    }

    /// Takes the main thread's work besides the simulation in the last frame, in ms. A stall
    /// (a hidden tab, a breakpoint) says nothing about the frame's cost and is ignored.
    pub fn after_frame(&mut self, other_ms: f64) {
        if !(0.0..MAX_FRAME_GAP_MS).contains(&other_ms) {
            return;
        }
        self.recent[self.next] = other_ms;
        self.next = (self.next + 1) % Self::WINDOW;
        let mean = self.recent.iter().sum::<f64>() / Self::WINDOW as f64;
        self.ms = (Self::FRAME_MS - Self::SLACK_MS - mean).clamp(Self::MIN_MS, Self::MAX_MS);
    }
}

impl Default for FrameBudget {
    fn default() -> Self {
        let other = Self::FRAME_MS - Self::SLACK_MS - Self::START_MS;
        Self { ms: Self::START_MS, recent: [other; Self::WINDOW], next: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::FrameBudget;

    #[test]
    fn the_budget_is_what_recent_frames_leave() {
        let mut b = FrameBudget::default();
        assert_eq!(b.ms(), FrameBudget::START_MS);
        for _ in 0..FrameBudget::WINDOW {
            b.after_frame(4.0);
        }
        let full = FrameBudget::FRAME_MS - FrameBudget::SLACK_MS;
        assert!((b.ms() - (full - 4.0)).abs() < 1e-9);
        // A costly frame weighs for a window of frames, by its share of the window.
        b.after_frame(12.0);
        assert!((b.ms() - (full - 5.0)).abs() < 1e-9);
        for _ in 0..FrameBudget::WINDOW {
            b.after_frame(4.0);
        }
        assert!((b.ms() - (full - 4.0)).abs() < 1e-9);
        // Within bounds, and a stall changes nothing.
        for _ in 0..FrameBudget::WINDOW {
            b.after_frame(30.0);
        }
        assert_eq!(b.ms(), FrameBudget::MIN_MS);
        b.after_frame(5_000.0);
        b.after_frame(f64::NAN);
        assert_eq!(b.ms(), FrameBudget::MIN_MS);
        for _ in 0..FrameBudget::WINDOW {
            b.after_frame(0.0);
        }
        assert_eq!(b.ms(), FrameBudget::MAX_MS);
    }
}
