//! The slotted engine as the page sees it ([`LiveRun`]): server fills, queue bins and the
//! reason for the last placement.

use super::{Placement, SlottedSim};
use crate::EngineError;
use crate::metrics::SeriesPoint;
use crate::model::partition::reduced_configs;
use crate::policy::{ConfigStep, Rule};
use crate::view::{BinsKind, Block, ClusterView, LiveRun, ServerView, Why};

impl LiveRun for SlottedSim {
    fn run(&mut self, units: u64) -> Result<(), EngineError> {
        SlottedSim::run(self, units)
    }

    fn time(&self) -> u64 {
        self.slot
    }

    fn queue_len(&self) -> u64 {
        self.state.queue.len() as u64
    }

    fn mean_queue(&self) -> f64 {
        SlottedSim::mean_queue(self)
    }

    fn mean_occupancy(&self) -> f64 {
        SlottedSim::mean_occupancy(self)
    }

    fn measured(&self) -> u64 {
        self.window_slots()
    }

    fn arrivals(&self) -> u64 {
        self.state.counters.arrivals
    }

    fn queue_series(&self) -> &[SeriesPoint] {
        SlottedSim::queue_series(self)
    }

    fn occupancy_series(&self) -> &[SeriesPoint] {
        SlottedSim::occupancy_series(self)
    }

    fn bin_labels(&self) -> Vec<String> {
        let classes = &self.state.classes;
        (0..classes.types()).map(|t| format!("{} {}", bin_name(t), classes.interval_label(t))).collect()
    }

    fn bin_series(&self, bin: usize) -> &[SeriesPoint] {
        self.class_series(bin)
    }

    fn view(&self, detail: bool) -> ClusterView {
        let capacity = self.config.capacity as f64;
        let classes = &self.state.classes;
        let last = self.state.last;
        // Configuration labels only for the servers that carry a tag (VQS, VQS-BF).
        let configs = self.state.tags.iter().any(Option::is_some).then(|| reduced_configs(classes.j()));
        let servers = self
            .state
            .cluster
            .servers()
            .iter()
            .zip(&self.state.tags)
            .map(|(server, tag)| {
                let fill = (1.0 - server.residual() as f64 / capacity) as f32;
                let blocks = if detail {
                    server
                        .jobs()
                        .iter()
                        .map(|job| {
                            Block::scalar(
                                (job.occupies.primary() as f64 / capacity) as f32,
                                classes.type_of(job.size.primary()) as u16,
                                last.is_some_and(|p| p.job == job.id),
                            )
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                let label = match (tag, &configs) {
                    (Some(tag), Some(configs)) if detail => Some(configs[*tag as usize].label()),
                    _ => None,
                };
                ServerView { fill, blocks, label, waiting: None }
            })
            .collect();
        let bins_kind = if self.policy.keeps_virtual_queues() { BinsKind::Queues } else { BinsKind::Sizes };
        ClusterView {
            servers,
            resources: Vec::new(),
            readout: None,
            bins_kind,
            bins: self.state.waiting_by_class.clone(),
            bin_notes: Vec::new(),
            last: last.map(|p| self.why(p)),
        }
    }
}

/// "VQ1" … "VQ2J": the papers number the virtual queues from 1.
fn bin_name(t: usize) -> String {
    format!("VQ{}", t + 1)
}

impl SlottedSim {
    /// A sentence on placement `p`: what the rule chose and the server's room before and after.
    fn why(&self, p: Placement) -> Why {
        let capacity = self.config.capacity as f64;
        let frac = |units: u64| units as f64 / capacity;
        let classes = &self.state.classes;
        let rule = match p.rule {
            Rule::LargestFit => "largest waiting job that fits this server".to_string(),
            Rule::BestServer => "best fit: the fullest server it fits".to_string(),
            Rule::FirstFit => "first fit: the lowest-numbered server it fits".to_string(),
            Rule::Config { config, step } => {
                let k = reduced_configs(classes.j())[config as usize].label();
                match step {
                    ConfigStep::TypeOne => format!("configuration {k}: its type-1 job"),
                    ConfigStep::ConfigType => format!("configuration {k}: one of its jobs"),
                    ConfigStep::BestFitFill => format!("configuration {k}, then best fit into the room left"),
                }
            }
        };
        let text = format!(
            "job {} (size {:.2}, {}) → server {}: {rule}; room {:.2} → {:.2}",
            p.job,
            frac(p.size),
            bin_name(classes.type_of(p.size)),
            p.server + 1,
            frac(p.residual_before),
            frac(p.residual_after),
        );
        Why { time: p.slot, server: p.server, from: None, text }
    }
}

#[cfg(test)]
mod tests {
    use crate::policy::PolicySpec;
    use crate::report::slotted_sim;
    use crate::scenario::{Scenario, preset};
    use crate::view::{BinsKind, LiveRun};

    fn sim(policy: &str, servers: u32) -> super::SlottedSim {
        let Scenario::Pgrr(mut s) = preset("pgrr-a1").unwrap().scenario else { unreachable!("a PG-RR preset") };
        s.servers = servers;
        slotted_sim(&s, &PolicySpec::parse(policy).unwrap(), 64)
    }

    #[test]
    fn the_view_matches_the_engine() {
        let mut sim = sim("vqs", 3);
        LiveRun::run(&mut sim, 20_000).unwrap();
        let view = sim.view(true);
        assert_eq!(view.servers.len(), 3);
        assert_eq!(view.bins_kind, BinsKind::Queues);
        assert_eq!(view.bins.iter().sum::<u64>(), sim.queue_len());
        assert_eq!(sim.bin_labels()[0], "VQ1 (2/3, 1]");
        for (server, engine) in view.servers.iter().zip(sim.cluster().servers()) {
            assert_eq!(server.blocks.len(), engine.jobs().len());
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
