//! What each lane of a race costs per slot, measured in wall time while it plays: what places
//! the lanes of a race split over workers ([`crate::play::split::place`]).

use std::collections::VecDeque;

/// Wall time spent in the lanes over which their costs per slot are measured, in ms: a few
/// hundred chunks, so that the clock's coarse grain in a browser (0.1 ms) averages out.
const WINDOW_MS: f64 = 100.0;
/// Windows measured at the start of a race but not reported: the browser first runs the wasm
/// compiled in haste (Liftoff) and recompiles each hot function optimised (TurboFan) while the
/// race plays, every lane's own functions at their own moment. Costs measured then compare
/// lanes at different stages of that: a split race placed by them moved four lanes to parts of
/// three against one, or stayed in consecutive halves 7.6 % slower than the best placement
/// (docs/speed.md, "Costs measured too early").
pub(super) const WARMUP_WINDOWS: u32 = 2;
/// Windows whose costs are reported as their median, lane by lane: a window's wall time
/// includes the moments the worker's thread waited for a core (the page's thread and the
/// other workers share them), which land on whichever lane was running; the median of three
/// leaves out one window that took such a wait.
pub(super) const WINDOWS: usize = 3;

/// The lanes' wall time per slot, window by window.
#[derive(Debug, Clone)]
pub(super) struct CostMeter {
    /// Wall ms each lane spent playing over the window under way, and the slots run in it.
    spent: Vec<f64>,
    slots: u64,
    /// Windows measured so far.
    windows: u32,
    /// Each lane's ms per slot in the last [`WINDOWS`] windows after the warm-up.
    recent: VecDeque<Vec<f64>>,
    /// Each lane's median of `recent` once it holds [`WINDOWS`] (empty until then).
    costs: Vec<f64>,
}

impl CostMeter {
    /// A meter for a race of `lanes` lanes.
    pub(super) fn new(lanes: usize) -> Self {
        Self { spent: vec![0.0; lanes], slots: 0, windows: 0, recent: VecDeque::new(), costs: Vec::new() }
    }

    /// Lane `lane` spent `ms` of wall time in the chunk under way.
    pub(super) fn spent(&mut self, lane: usize, ms: f64) {
        self.spent[lane] += ms;
    }

    /// The chunk under way ran `slots` slots in every lane; a window that is full is measured.
    pub(super) fn chunk(&mut self, slots: u64) {
        self.slots += slots;
        if self.spent.iter().sum::<f64>() < WINDOW_MS {
            return;
        }
        let per_slot: Vec<f64> = self.spent.iter().map(|ms| ms / self.slots as f64).collect();
        self.spent.iter_mut().for_each(|ms| *ms = 0.0);
        self.slots = 0;
        self.windows += 1;
        if self.windows <= WARMUP_WINDOWS {
            return;
        }
        if self.recent.len() == WINDOWS {
            self.recent.pop_front();
        }
        self.recent.push_back(per_slot);
        if self.recent.len() == WINDOWS {
            self.costs = (0..self.spent.len())
                .map(|lane| {
                    let mut costs: Vec<f64> = self.recent.iter().map(|w| w[lane]).collect();
                    costs.sort_by(f64::total_cmp);
                    costs[WINDOWS / 2]
                })
                .collect();
        }
    }

    /// Each lane's ms per slot (empty until measured).
    pub(super) fn costs(&self) -> &[f64] {
        &self.costs
    }
}
