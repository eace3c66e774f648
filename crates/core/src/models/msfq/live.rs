//! The page's view of a multiserver-job run: the machine as one bar of k cores filled by the
//! running jobs (one block per job, coloured by class), the per-class queues as bins, and
//! the policy's phase as the bar's label.

use super::engine::MsfqSim;
use crate::metrics::{Judgement, SeriesPoint};
use crate::view::{Analysis, BinsKind, Block, ClusterView, LiveRun, Metric, Readings, ServerView, Why};

impl MsfqSim {
    /// E\[T\] = Σ_j p_j E\[T^(j)\] with the nominal p_j (RES-45), over the measured jobs, those
    /// still in the system counted with their time so far; NaN until every class has a measured
    /// arrival.
    pub fn mean_response(&self) -> f64 {
        self.config
            .classes
            .as_slice()
            .iter()
            .zip(&self.stats.classes)
            .map(|(c, s)| c.probability * s.mean_response(self.now))
            .sum()
    }
}

impl LiveRun for MsfqSim {
    crate::des::continuous_live_run!();

    fn check_invariants(&self) -> Result<(), String> {
        MsfqSim::check_invariants(self)
    }

    fn readings(&self) -> Readings {
        let response = self.mean_response();
        Readings {
            queue_len: self.state.waiting_total as u64,
            mean_queue: self.mean_queue(),
            mean_occupancy: self.stats.busy.mean(self.now, self.config.warmup),
            measured: (self.now - self.config.warmup).max(0.0) as u64,
            arrivals: self.stats.arrivals,
            events: self.stats.arrivals + self.stats.completed,
            mean_job_time: response.is_finite().then_some(response),
            mean_reward: None,
        }
    }

    fn verdict(&self) -> Option<Judgement> {
        Some(MsfqSim::verdict(self).judgement())
    }

    fn recoveries(&self) -> &[crate::metrics::Recovery] {
        self.stats.in_system.recoveries()
    }

    fn series(&self, metric: Metric) -> &[SeriesPoint] {
        let s = &self.stats;
        match metric {
            Metric::Queue => s.waiting.points(),
            Metric::Occupancy => s.busy.points(),
            Metric::JobTime => s.running_response.points(),
            Metric::InSystem => s.in_system.points(),
            Metric::Bin(b) => s.class_waiting[b].points(),
            Metric::BinJobTime(b) => s.class_running_response[b].points(),
            Metric::Reward => &[],
        }
    }

    fn bin_labels(&self) -> Vec<String> {
        self.config
            .classes
            .as_slice()
            .iter()
            .map(|c| if c.need == 1 { "1 core".to_string() } else { format!("{} cores", c.need) })
            .collect()
    }

    fn view(&self, detail: bool) -> ClusterView {
        let st = &self.state;
        let k = st.cores as f32;
        let last_class = self.last.as_ref().map(|l| l.class);
        let mut blocks = Vec::new();
        if detail {
            // Largest jobs first, so a k-core job fills the bar and small ones stack after.
            for class in (0..st.classes()).rev() {
                let share = st.need(class) as f32 / k;
                for i in 0..st.in_service(class) {
                    let last = last_class == Some(class) && i + 1 == st.in_service(class);
                    blocks.push(Block::scalar(share, class as u16, last));
                }
            }
        }
        let server = ServerView {
            fill: st.busy() as f32 / k,
            blocks,
            label: self.status.as_ref().map(ToString::to_string),
            waiting: None,
        };
        let last = self.last.as_ref().map(|l| Why {
            time: l.time,
            server: 0,
            from: None,
            text: format!("a job needing {} of {} free cores started: {}", st.need(l.class), l.free_before, l.why),
        });
        ClusterView {
            servers: vec![server],
            resources: Vec::new(),
            readout: None,
            legend: None,
            bins_kind: BinsKind::Queues,
            bins: (0..st.classes()).map(|c| st.waiting(c) as u64).collect(),
            bin_notes: Vec::new(),
            last,
        }
    }

    fn analysis(&self) -> Option<Analysis> {
        // The analysis covers one-or-all classes only: small jobs, then large ones.
        self.analysis.map(|a| Analysis {
            mean_response: a.mean_response,
            by_bin: vec![a.mean_response_small, a.mean_response_large],
        })
    }
}
