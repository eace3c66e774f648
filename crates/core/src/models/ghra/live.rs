//! The page's view of a VM-scheduling run: each server with one bar per resource, stacked by
//! its jobs (coloured by VM type, dummies hatched), its own queue where queues are per server
//! and its configuration where the policy keeps one; the per-type queues as bins; a readout
//! of the clocks' rates or of the configurations in use.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::engine::GhraSim;
use super::state::{QueueRef, Source};
use crate::metrics::{Judgement, SeriesPoint};
use crate::resources::MAX_RESOURCES;
use crate::view::{BinsKind, Block, ClusterView, LiveRun, Metric, Readings, ServerView, Why};

impl GhraSim {
    /// The mean delay (start − arrival) of the measured jobs so far, those still waiting
    /// counted with their wait so far; NaN before the first.
    pub fn mean_delay(&self) -> f64 {
        self.stats.mean_delay(self.now)
    }

    fn server_view(&self, server: usize, detail: bool) -> ServerView {
        let st = &self.state;
        // The fleet's own capacity: a draining server's room is gone, not its size (RES-97).
        let cap = self.config.capacities[server].as_slice();
        let used = st.used[server].as_slice();
        let fill = used.iter().zip(cap).map(|(u, c)| *u as f32 / (*c).max(1) as f32).fold(0.0, f32::max);
        let mut blocks = Vec::new();
        if detail {
            let last = self.last.as_ref().filter(|l| l.server as usize == server);
            for j in 0..st.types() {
                let demand = st.demand(j).as_slice();
                let mut shares = [0.0; MAX_RESOURCES];
                for (s, (d, c)) in shares.iter_mut().zip(demand.iter().zip(cap)) {
                    *s = *d as f32 / (*c).max(1) as f32;
                }
                let is_last = |dummy: bool| {
                    last.is_some_and(|l| l.job_type as usize == j && (l.source == Source::Dummy) == dummy)
                };
                for (count, dummy) in [(st.real(server, j), false), (st.dummies(server, j), true)] {
                    for i in 0..count {
                        let last = is_last(dummy) && i + 1 == count;
                        blocks.push(Block { shares, bin: j as u16, dummy, reserved: false, last, job: None });
                    }
                }
            }
        }
        let label = self.configuration(server).map(|k| {
            let counts: Vec<String> = k.iter().map(u32::to_string).collect();
            format!("k = ({})", counts.join(","))
        });
        // A removed server still holding jobs drains; one among them that is empty has left.
        let label = match (server < st.active(), st.jobs_on(server) > 0) {
            (true, _) => label,
            (false, true) => Some(label.map_or("draining".to_string(), |k| format!("{k}, draining"))),
            (false, false) => Some("left".to_string()),
        };
        let waiting = self.distributed.then(|| st.waiting_at(server) as u64);
        ServerView { fill, blocks, label, waiting }
    }

    /// How many servers the drawing shows: those that take jobs and the removed ones up to
    /// the last still holding jobs (RES-97).
    fn shown(&self) -> usize {
        let st = &self.state;
        (st.active()..st.servers()).rev().find(|&l| st.jobs_on(l) > 0).map_or(st.active(), |l| l + 1)
    }

    /// A line of live readings: the clock rates per type (Algorithms 1 and 2), or the
    /// configurations in use and the refresh count (MaxWeight).
    fn readout(&self) -> Option<String> {
        let st = &self.state;
        let names = &self.config.type_names;
        let mut out = String::new();
        if (0..st.types()).any(|j| st.clock_rate(QueueRef::Central { job_type: j as u16 }).is_some()) {
            out.push_str("clock rates exp(f(Q_j)):");
            for (j, name) in names.iter().enumerate() {
                let rate = st.clock_rate(QueueRef::Central { job_type: j as u16 }).unwrap_or(0.0);
                let _ = write!(out, " {name} {rate:.3}/time unit;");
            }
        } else if self.distributed && self.configurations.iter().all(Option::is_none) {
            out.push_str("clock rates exp(f(Q_j^ℓ)) over the servers (mean, max):");
            for (j, name) in names.iter().enumerate() {
                let rates: Vec<f64> = (0..st.active())
                    .filter_map(|l| st.clock_rate(QueueRef::Local { server: l as u32, job_type: j as u16 }))
                    .collect();
                let mean = rates.iter().sum::<f64>() / rates.len().max(1) as f64;
                let max = rates.iter().copied().fold(0.0, f64::max);
                let _ = write!(out, " {name} {mean:.3}, {max:.3};");
            }
        } else {
            let mut in_use: BTreeMap<&[u32], usize> = BTreeMap::new();
            for k in self.configurations.iter().flatten() {
                *in_use.entry(k.as_slice()).or_default() += 1;
            }
            if in_use.is_empty() {
                return None;
            }
            let _ = write!(out, "{} refreshes so far; configurations in use:", self.stats.refreshes);
            for (k, n) in in_use.iter().rev() {
                let counts: Vec<String> = k.iter().map(u32::to_string).collect();
                let _ = write!(out, " ({})×{n}", counts.join(","));
            }
        }
        Some(out.trim_end_matches(';').to_string())
    }
}

impl LiveRun for GhraSim {
    crate::des::continuous_live_run!();

    fn check_invariants(&self) -> Result<(), String> {
        GhraSim::check_invariants(self)
    }

    fn verdict(&self) -> Option<Judgement> {
        Some(GhraSim::verdict(self).judgement())
    }

    fn recoveries(&self) -> &[crate::metrics::Recovery] {
        self.stats.waiting.recoveries()
    }

    fn readings(&self) -> Readings {
        let delay = self.mean_delay();
        Readings {
            queue_len: self.state.waiting_total as u64,
            mean_queue: self.stats.waiting.mean(self.now, self.config.warmup),
            mean_occupancy: self.stats.occupancy.mean(self.now, self.config.warmup),
            measured: (self.now - self.config.warmup).max(0.0) as u64,
            arrivals: self.stats.arrivals,
            events: self.handled,
            mean_job_time: delay.is_finite().then_some(delay),
            mean_reward: None,
        }
    }

    fn series(&self, metric: Metric) -> &[SeriesPoint] {
        let s = &self.stats;
        match metric {
            Metric::Queue => s.waiting.points(),
            Metric::Occupancy => s.occupancy.points(),
            Metric::JobTime => s.running_delay.points(),
            Metric::Bin(b) => s.type_waiting[b].points(),
            Metric::BinJobTime(b) => s.type_running_delay[b].points(),
            Metric::InSystem | Metric::Reward => &[],
        }
    }

    fn bin_labels(&self) -> Vec<String> {
        self.config.type_names.clone()
    }

    fn view(&self, detail: bool) -> ClusterView {
        let st = &self.state;
        let last = self.last.as_ref().map(|l| {
            let name = &self.config.type_names[l.job_type as usize];
            let what = if l.source == Source::Dummy { format!("a dummy {name}") } else { format!("a {name} job") };
            Why {
                time: l.time,
                server: l.server,
                from: None,
                text: format!(
                    "{what} → server {} ({}): {}",
                    l.server + 1,
                    self.config.server_names[l.server as usize],
                    l.why
                ),
            }
        });
        ClusterView {
            // The servers that take jobs, then the removed ones up to the last still draining.
            servers: (0..self.shown()).map(|l| self.server_view(l, detail)).collect(),
            resources: self.config.resource_names.clone(),
            readout: self.readout(),
            legend: Some(legend(&self.config.resource_names, detail)),
            bins_kind: BinsKind::Queues,
            bins: (0..st.types()).map(|j| st.waiting_of_type(j) as u64).collect(),
            bin_notes: Vec::new(),
            last,
        }
    }
}

/// How the servers are drawn: the bars (one per resource where there are several), the labels
/// around them and the hatched dummy jobs, or, in the compact view of many servers, what a
/// square's shade means.
fn legend(resources: &[&str], detail: bool) -> String {
    if !detail {
        return "One square per server, darker when fuller: the share of its fullest resource held by real and \
                dummy jobs together (dummies hold a VM's room without doing work)."
            .to_string();
    }
    let initials: Vec<String> = resources
        .iter()
        .map(|r| format!("{} {r}", r.chars().next().map(|c| c.to_uppercase().to_string()).unwrap_or_default()))
        .collect();
    let bars = if resources.is_empty() {
        "Each server is a bar stacked by its jobs, coloured by type".to_string()
    } else {
        format!("One bar per resource ({})", initials.join(", "))
    };
    format!(
        "{bars}; under each server the jobs waiting in its own queues (and its number, where \
         there is room), above it the configuration it runs where the policy keeps one. Hatched blocks are dummy \
         jobs: they hold a VM's resources for an exponential time, like a real job of their type, but carry no \
         work and never count as waiting or delayed."
    )
}
