//! The slotted engine as the page sees it ([`LiveRun`]): server fills, queue bins and the
//! reason for the last placement.

use super::engine::PgrrSim;
use super::partition::reduced_configs;
use super::policy::Placement;
use super::state::ServerId;
use crate::EngineError;
use crate::decisions::DecisionLog;
use crate::metrics::{Judgement, SeriesPoint};
use crate::view::{BinsKind, Block, ClusterView, LiveRun, Metric, Readings, ServerView, Why};

impl LiveRun for PgrrSim {
    fn check_invariants(&self) -> Result<(), String> {
        PgrrSim::check_invariants(self)
    }

    fn run(&mut self, units: u64) -> Result<(), EngineError> {
        PgrrSim::run(self, units)
    }

    fn time(&self) -> u64 {
        self.slot
    }

    fn decisions(&self) -> &DecisionLog {
        &self.log
    }

    fn set_log(&mut self, capacity: usize) {
        self.log.set_capacity(capacity);
    }

    fn open_moment(&self) -> u64 {
        crate::model::TimeUnit::Slots.open_moment(self.time() as f64)
    }

    fn set_changes(&mut self, changes: &crate::changes::Changes) -> Result<(), crate::ConfigError> {
        PgrrSim::set_changes(self, changes)
    }

    fn readings(&self) -> Readings {
        Readings {
            queue_len: self.state.queue.len() as u64,
            mean_queue: self.mean_queue(),
            mean_occupancy: self.mean_occupancy(),
            measured: self.window_slots(),
            arrivals: self.state.counters.arrivals,
            events: self.state.counters.arrivals + self.state.counters.started + self.state.counters.departed,
            mean_job_time: None,
            mean_reward: None,
        }
    }

    fn verdict(&self) -> Option<Judgement> {
        Some(PgrrSim::verdict(self).judgement())
    }

    fn recoveries(&self) -> &[crate::metrics::Recovery] {
        PgrrSim::recoveries(self)
    }

    fn series(&self, metric: Metric) -> &[SeriesPoint] {
        match metric {
            Metric::Queue => self.queue_series(),
            Metric::Occupancy => self.occupancy_series(),
            Metric::Bin(b) => self.class_series(b),
            Metric::JobTime | Metric::InSystem | Metric::Reward | Metric::BinJobTime(_) => &[],
        }
    }

    fn bin_labels(&self) -> Vec<String> {
        let classes = &self.state.classes;
        (0..classes.types())
            .map(|t| format!("{} {}", super::partition::bin_name(t), classes.interval_label(t)))
            .collect()
    }

    fn view(&self, detail: bool) -> ClusterView {
        let capacity = self.config.capacity as f64;
        let classes = &self.state.classes;
        let last = self.last;
        // Configuration labels only for the servers that carry a tag (VQS, VQS-BF).
        let configs = self.state.tags.iter().any(Option::is_some).then(|| reduced_configs(classes.j()));
        // The servers that take jobs, then the draining ones up to the last still holding jobs
        // (RES-95): one that has left among them is drawn empty and says so.
        let cluster = &self.state.cluster;
        let active = cluster.active();
        let shown = (active..cluster.len())
            .rev()
            .find(|&s| !cluster.server(s as ServerId).is_empty())
            .map_or(active, |s| s + 1);
        let servers = cluster
            .servers()
            .iter()
            .zip(&self.state.tags)
            .take(shown)
            .enumerate()
            .map(|(id, (server, tag))| {
                let closed = id >= active;
                let fill = if closed {
                    (server.used().primary() as f64 / capacity) as f32
                } else {
                    (1.0 - server.residual() as f64 / capacity) as f32
                };
                let blocks = if detail {
                    self.state
                        .cluster
                        .jobs_on(id as ServerId)
                        .map(|job| {
                            Block::scalar(
                                (job.occupies.primary() as f64 / capacity) as f32,
                                classes.type_of(job.size.primary()) as u16,
                                last.is_some_and(|p| p.job == job.id),
                            )
                            .with_job(job.id)
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                let label = match (tag, &configs) {
                    (Some(tag), Some(configs)) if detail => Some(configs[*tag as usize].label()),
                    _ => None,
                };
                let label = match (closed, label) {
                    (false, label) => label,
                    (true, _) if server.is_empty() => Some("left".to_string()),
                    (true, Some(config)) => Some(format!("{config}, draining")),
                    (true, None) => Some("draining".to_string()),
                };
                ServerView { fill, blocks, label, waiting: None }
            })
            .collect();
        let queues = self.policy.virtual_queues().is_some();
        let bins_kind = if queues { BinsKind::Queues } else { BinsKind::Sizes };
        ClusterView {
            servers,
            resources: Vec::new(),
            readout: None,
            // The bins are named as the paper names its virtual queues (from 0): say so.
            legend: Some(super::partition::bins_legend(queues).to_string()),
            bins_kind,
            bins: self.state.waiting_by_class.clone(),
            bin_notes: Vec::new(),
            last: last.map(|p| self.why(p)),
        }
    }
}

impl PgrrSim {
    /// A sentence on placement `p`: what the rule chose and the server's room before and after.
    fn why(&self, p: Placement) -> Why {
        let (what, rule) = p.describe(self.config.capacity, &self.state.classes);
        let frac = |units: u64| units as f64 / self.config.capacity as f64;
        let text = format!("{what}: {rule}; room {:.2} → {:.2}", frac(p.residual_before), frac(p.residual_after));
        Why { time: p.slot as f64, server: p.server, from: None, text }
    }
}

#[cfg(test)]
mod tests {
    use crate::model::policy::PolicySpec;
    use crate::models::pgrr::{Pgrr, PgrrSim};
    use crate::models::{Scenario, start};
    use crate::scenario::preset;
    use crate::view::{BinsKind, LiveRun, Watch};

    fn sim(policy: &str, servers: u32) -> PgrrSim {
        let Scenario::Pgrr(mut s) = preset("pgrr-a1").unwrap().scenario else { panic!("a PG-RR preset") };
        s.servers = servers;
        start::<Pgrr>(&s, &PolicySpec::parse(policy).unwrap(), Watch::page(64)).unwrap()
    }

    #[test]
    fn the_view_matches_the_engine() {
        let mut sim = sim("vqs", 3);
        LiveRun::run(&mut sim, 20_000).unwrap();
        let view = sim.view(true);
        assert_eq!(view.servers.len(), 3);
        assert_eq!(view.bins_kind, BinsKind::Queues);
        assert_eq!(view.bins.iter().sum::<u64>(), sim.readings().queue_len);
        assert_eq!(sim.bin_labels()[0], "VQ0 (2/3, 1]");
        for (server, engine) in view.servers.iter().zip(sim.cluster().servers()) {
            assert_eq!(server.blocks.len(), engine.job_count());
            let shares: f32 = server.blocks.iter().map(|b| b.share()).sum();
            assert!((shares - server.fill).abs() < 1e-5);
            assert_eq!(server.label.is_some(), !server.blocks.is_empty());
        }
        let why = view.last.expect("jobs were placed");
        assert!(why.text.contains("configuration"), "{}", why.text);
        assert!(view.servers.iter().flat_map(|s| &s.blocks).filter(|b| b.last).count() <= 1);
        // The compact view carries the fills only.
        let compact = sim.view(false);
        assert!(compact.servers.iter().all(|s| s.blocks.is_empty() && s.label.is_none()));
        assert_eq!(compact.servers[0].fill, view.servers[0].fill);
    }

    /// The bins, the sentence on the last placement and the inspector's queue counts name a
    /// job's virtual queue by the paper's index: on pgrr-a1 (J = 2) 0.6 waits in VQ1 and 0.4 in
    /// VQ2, and the legend says how the bins are counted.
    #[test]
    fn virtual_queues_carry_the_papers_names() {
        let mut sim = sim("vqs", 2).with_log(4_096);
        LiveRun::run(&mut sim, 2_000).unwrap();
        let labels = sim.bin_labels();
        assert_eq!(labels, ["VQ0 (2/3, 1]", "VQ1 (1/2, 2/3]", "VQ2 (1/3, 1/2]", "VQ3 (0, 1/3]"]);
        let view = sim.view(true);
        assert!(view.legend.as_deref().is_some_and(|l| l.contains("VQj holds the waiting jobs of type j")));
        let why = view.last.expect("jobs were placed").text;
        assert!(why.contains("size 0.60, VQ1)") || why.contains("size 0.40, VQ2)"), "{why}");
        let queues = sim
            .decisions()
            .records()
            .iter()
            .flat_map(|d| &d.facts)
            .find(|f| f.label == crate::models::pgrr::partition::QUEUES_NOTE && f.value != "none")
            .expect("a renewal with jobs waiting");
        assert!(queues.value.split(", ").all(|q| q.starts_with("VQ1 ") || q.starts_with("VQ2 ")), "{}", queues.value);
    }

    #[test]
    fn best_fit_explains_itself() {
        let mut sim = sim("bf-j", 2);
        LiveRun::run(&mut sim, 5_000).unwrap();
        let view = sim.view(true);
        assert_eq!(view.bins_kind, BinsKind::Sizes);
        let why = view.last.unwrap();
        assert!(why.text.contains("best fit") && why.text.contains("room"), "{}", why.text);
    }
}
