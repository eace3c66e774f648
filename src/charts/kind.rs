//! The charts of the page ([`ChartKind`]): which apply to a model, their ids and names, and
//! what each shows.

use crate::play::snapshot::Snapshot;

/// The charts of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChartKind {
    /// Q(t) of every policy.
    Queue,
    /// Occupied fraction of the capacity of every policy, with the papers' guarantees.
    Occupancy,
    /// Waiting jobs per bin (virtual queue or size class) of the focused policy.
    Bins,
    /// Running mean per-job time (response time, delay) of every policy, in models that
    /// measure one.
    JobTime,
    /// Running mean per-job time per bin (class, VM type) of the focused policy.
    ClassJobTime,
    /// The reward rate per server R(t)/L of every policy, with U^(g) and U* (PG-AS Fig. 4).
    Reward,
}

impl ChartKind {
    pub const ALL: [ChartKind; 6] = [
        ChartKind::Reward,
        ChartKind::Queue,
        ChartKind::Occupancy,
        ChartKind::JobTime,
        ChartKind::ClassJobTime,
        ChartKind::Bins,
    ];

    /// Whether the page shows this chart for the snapshot's model: per-job time charts only
    /// in models that measure one. Fixed for a race, so charts never swap places mid-run.
    pub fn applies(self, snapshot: &Snapshot) -> bool {
        match self {
            ChartKind::JobTime | ChartKind::ClassJobTime => snapshot.job_time().is_some(),
            // A loss system has no queue to plot; its reward is what it is about.
            ChartKind::Queue => snapshot.queues(),
            ChartKind::Reward => snapshot.model.reward,
            ChartKind::Occupancy | ChartKind::Bins => true,
        }
    }

    /// Whether the chart shows one focused policy (and comes with a picker for it).
    pub fn focused(self) -> bool {
        matches!(self, ChartKind::Bins | ChartKind::ClassJobTime)
    }

    /// The chart's name in an embed link's `views` (`queue`, `job-time`).
    pub fn name(self) -> &'static str {
        self.id().trim_start_matches("chart-")
    }

    /// The canvas id, also the name of its PNG.
    pub fn id(self) -> &'static str {
        match self {
            ChartKind::Queue => "chart-queue",
            ChartKind::Occupancy => "chart-occupancy",
            ChartKind::Bins => "chart-bins",
            ChartKind::JobTime => "chart-job-time",
            ChartKind::ClassJobTime => "chart-class-job-time",
            ChartKind::Reward => "chart-reward",
        }
    }

    /// What the chart shows, for screen readers (its canvas's `aria-label`).
    pub fn description(self) -> &'static str {
        match self {
            ChartKind::Queue => {
                "Line chart of the number of waiting jobs (jobs in the system, for multiserver jobs) against time, \
                 one line per policy"
            }
            ChartKind::Occupancy => {
                "Line chart of the occupied fraction of the servers against the slot, one line per policy, \
                 with the offered load and the papers' guarantees as dashed lines"
            }
            ChartKind::Bins => {
                "Line chart of the waiting jobs of each queue bin (jobs in service per type, for a loss system) \
                 against time, for one policy"
            }
            ChartKind::Reward => {
                "Line chart of the reward rate per server against time, one line per policy, with the global \
                 greedy's reward U^(g) and the LP optimum U* as dashed lines"
            }
            ChartKind::JobTime => {
                "Line chart of the running mean response time or delay against time, one line per policy, with the \
                 analysis where it exists as dashed lines"
            }
            ChartKind::ClassJobTime => {
                "Line chart of the running mean response time or delay of each job class against time, for one policy, \
                 with the analysis where it exists as dashed lines"
            }
        }
    }
}
