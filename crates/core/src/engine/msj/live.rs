//! The page's view of a multiserver-job run: the machine as one bar of k cores filled by the
//! running jobs (one block per job, coloured by class), the per-class queues as bins, and
//! the policy's phase as the bar's label.

use super::MsjSim;
use crate::EngineError;
use crate::metrics::SeriesPoint;
use crate::view::{BinsKind, Block, ClusterView, LiveRun, ServerView, Why};

impl MsjSim {
    /// E[T] = Σ_j p_j E[T^(j)] with the nominal p_j (RES-45), over the jobs completed so far;
    /// NaN until every class has a completed job.
    pub fn mean_response(&self) -> f64 {
        self.config
            .classes
            .as_slice()
            .iter()
            .zip(&self.stats.classes)
            .map(|(c, s)| c.probability * s.mean_response())
            .sum()
    }
}

impl LiveRun for MsjSim {
    fn run(&mut self, units: u64) -> Result<(), EngineError> {
        let until = self.time() + units;
        self.run_until(until as f64)
    }

    fn time(&self) -> u64 {
        self.now as u64
    }

    fn queue_len(&self) -> u64 {
        self.state.waiting_total as u64
    }

    fn mean_queue(&self) -> f64 {
        MsjSim::mean_queue(self)
    }

    fn mean_occupancy(&self) -> f64 {
        self.stats.busy.mean(self.now, self.config.warmup)
    }

    fn measured(&self) -> u64 {
        (self.now - self.config.warmup).max(0.0) as u64
    }

    fn arrivals(&self) -> u64 {
        self.stats.arrivals
    }

    fn queue_series(&self) -> &[SeriesPoint] {
        self.stats.waiting.points()
    }

    fn occupancy_series(&self) -> &[SeriesPoint] {
        self.stats.busy.points()
    }

    fn bin_labels(&self) -> Vec<String> {
        self.config
            .classes
            .as_slice()
            .iter()
            .map(|c| if c.need == 1 { "1 core".to_string() } else { format!("{} cores", c.need) })
            .collect()
    }

    fn bin_series(&self, bin: usize) -> &[SeriesPoint] {
        self.stats.class_waiting[bin].points()
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
        let server = ServerView { fill: st.busy() as f32 / k, blocks, label: self.policy.status(), waiting: None };
        let last = self.last.as_ref().map(|l| Why {
            time: l.time as u64,
            server: 0,
            from: None,
            text: format!("a job needing {} of {} free cores started: {}", st.need(l.class), l.free_before, l.why),
        });
        ClusterView {
            servers: vec![server],
            resources: Vec::new(),
            readout: None,
            bins_kind: BinsKind::Queues,
            bins: (0..st.classes()).map(|c| st.waiting(c) as u64).collect(),
            bin_notes: Vec::new(),
            last,
        }
    }

    fn mean_job_time(&self) -> Option<f64> {
        let m = MsjSim::mean_response(self);
        m.is_finite().then_some(m)
    }

    fn job_time_series(&self) -> &[SeriesPoint] {
        self.stats.running_response.points()
    }

    fn bin_job_time_series(&self, bin: usize) -> &[SeriesPoint] {
        self.stats.class_running_response[bin].points()
    }

    fn in_system_series(&self) -> &[SeriesPoint] {
        self.stats.in_system.points()
    }
}
