//! The page's view of a PG-AS run: each server with one bar per resource, stacked by its jobs
//! (coloured by type) and by its reserved empty slots, labelled with its configuration and, under
//! DRA, its rank, index and group; the jobs in service per type as bins; a readout of the reject
//! group, migrations and blocking. A loss system has no queue: the queue figures are zero.

use std::fmt::Write;

use super::engine::PgasSim;
use super::policy::ActionKind;
use crate::metrics::SeriesPoint;
use crate::resources::MAX_RESOURCES;
use crate::view::{BinsKind, Block, ClusterView, LiveRun, Metric, Readings, ServerView, Why};

impl PgasSim {
    /// The normalised reward so far: the time average of R(t)/L after the warm-up (NaN before).
    pub fn normalized_reward(&self) -> f64 {
        self.stats.normalized_reward(self.now)
    }

    fn shares(&self, job_type: usize) -> [f32; MAX_RESOURCES] {
        let cap = self.state.capacity.as_slice();
        let mut shares = [0.0; MAX_RESOURCES];
        for (s, (d, c)) in shares.iter_mut().zip(self.state.demands[job_type].as_slice().iter().zip(cap)) {
            *s = *d as f32 / (*c).max(1) as f32;
        }
        shares
    }

    /// The servers drawn: those that take jobs, then the removed ones up to the last that still
    /// drains (RES-98; those between that have left are drawn empty, "left").
    fn shown(&self) -> usize {
        let st = &self.state;
        (st.servers()..st.servers_built()).rev().find(|&l| st.is_draining(l)).map_or(st.servers(), |l| l + 1)
    }

    fn server_view(&self, server: usize, detail: bool) -> ServerView {
        let st = &self.state;
        let cap = st.capacity.as_slice();
        let fill =
            st.used[server].as_slice().iter().zip(cap).map(|(u, c)| *u as f32 / (*c).max(1) as f32).fold(0.0, f32::max);
        let mut blocks = Vec::new();
        if detail {
            let last =
                self.last.as_ref().filter(|a| a.server == Some(server as u32) && a.what != ActionKind::Preempted);
            for j in 0..st.types() {
                let shares = self.shares(j);
                // Each job by its record, so a click on it finds its decisions.
                let records = &st.lists[st.slot_index(server, j)];
                let placed = records.len();
                for (i, &record) in records.iter().enumerate() {
                    let last = last.is_some_and(|a| a.job_type as usize == j) && i + 1 == placed;
                    let job = Some(st.jobs[record as usize].id);
                    blocks.push(Block { shares, bin: j as u16, dummy: false, reserved: false, last, job });
                }
                for _ in 0..st.free_slots(server, j) {
                    blocks.push(Block { shares, bin: j as u16, dummy: false, reserved: true, last: false, job: None });
                }
            }
        }
        let label = st.configuration(server).map(|c| {
            let counts: Vec<String> = st.slots(c).iter().map(u32::to_string).collect();
            let mut text = format!("k = ({})", counts.join(","));
            if let Some(class) = self.classify(server) {
                let rank = if class.rank as usize > st.types() {
                    "unranked".to_string()
                } else {
                    format!("rank {}", class.rank)
                };
                let group = if class.reject_group { "RG" } else { "AG" };
                let _ = write!(text, " · {rank} · index {} · {group}", class.index);
            }
            text
        });
        // Past the servers that take jobs (RES-98): draining while it holds jobs, then left.
        let label = match (st.takes_jobs(server), st.is_draining(server), label) {
            (true, _, label) => label,
            (false, true, Some(text)) => Some(format!("{text}, draining")),
            (false, true, None) => Some("draining".to_string()),
            (false, false, _) => Some("left".to_string()),
        };
        ServerView { fill, blocks, label, waiting: None }
    }

    /// "|RG| = 3 · reserved 1.2 slots/server · migrations 120 · preemptions 0 · rejected 4.8%".
    fn readout(&self) -> String {
        let s = &self.stats;
        let mut out = String::new();
        if self.unlimited {
            let _ = write!(out, "infinite-server bound: UB(t)/L = {:.2} · ", s.reward.value());
        } else {
            if self.ranking.is_some() {
                let _ = write!(out, "|RG| = {} · ", self.reject_group());
            }
            let _ = write!(out, "reserved {:.2} empty slots/server · ", s.reserved.value());
        }
        let _ = write!(out, "migrations {} · preemptions {}", s.migrations, s.preemptions);
        let arrived = s.arrivals.max(1) as f64;
        let _ = write!(out, " · rejected {:.1}%", 100.0 * s.rejected as f64 / arrived);
        out
    }

    fn why(&self) -> Option<Why> {
        let a = self.last.as_ref()?;
        let name = &self.config.type_names[a.job_type as usize];
        let text = match (a.what, a.server) {
            (ActionKind::Admitted, Some(s)) => {
                format!("a {name} job → server {}: admitted into a free slot of its type", s + 1)
            }
            (ActionKind::Admitted, None) => format!("a {name} job: admitted (no server limits the bound)"),
            (ActionKind::Rejected, _) => format!("a {name} job was rejected: no accepting server had room for it"),
            (ActionKind::Migrated { from }, Some(s)) => format!(
                "a {name} job moved from server {} (reject group) into the slot a departure freed on server {}",
                from + 1,
                s + 1
            ),
            (ActionKind::Preempted, Some(s)) => {
                format!("a {name} job on server {} was preempted for a higher priority", s + 1)
            }
            _ => return None,
        };
        let from = match a.what {
            ActionKind::Migrated { from } => Some(from),
            _ => None,
        };
        Some(Why { time: a.time, server: a.server.unwrap_or(0), from, text })
    }
}

impl LiveRun for PgasSim {
    crate::des::continuous_live_run!();

    fn check_invariants(&self) -> Result<(), String> {
        PgasSim::check_invariants(self)
    }

    fn stretches(&self) -> Vec<crate::metrics::Stretch> {
        self.stats.stretches(self.now)
    }

    /// A loss system never queues. The occupancy is NaN for the upper bound, which admits
    /// jobs without servers: it occupies nothing.
    fn readings(&self) -> Readings {
        let reward = self.normalized_reward();
        let occupancy = if self.unlimited { f64::NAN } else { self.stats.occupancy.mean(self.now, self.config.warmup) };
        Readings {
            queue_len: 0,
            mean_queue: 0.0,
            mean_occupancy: occupancy,
            measured: (self.now - self.config.warmup).max(0.0) as u64,
            arrivals: self.stats.arrivals,
            events: self.stats.arrivals + self.stats.departures,
            mean_job_time: None,
            mean_reward: reward.is_finite().then_some(reward),
        }
    }

    /// The bins are the job types, with the jobs of each type in service.
    fn series(&self, metric: Metric) -> &[SeriesPoint] {
        match metric {
            Metric::Occupancy if !self.unlimited => self.stats.occupancy.points(),
            Metric::Reward => self.stats.reward.points(),
            Metric::Bin(b) => self.stats.type_in_system[b].points(),
            _ => &[],
        }
    }

    /// The bins are the job types; their values the jobs of each type in service.
    fn bin_labels(&self) -> Vec<String> {
        self.config.type_names.clone()
    }

    fn view(&self, detail: bool) -> ClusterView {
        ClusterView {
            servers: (0..self.shown()).map(|l| self.server_view(l, detail)).collect(),
            resources: self.config.resource_names.clone(),
            readout: Some(self.readout()),
            legend: Some(
                if detail {
                    "Slots per server, bottom-up by type: filled squares are jobs, hollow ones reserved empty slots. \
                     Above: the configuration k, and under DRA the server's rank, index in its configuration and \
                     group (AG accepts, RG gives its jobs up to migrations)."
                } else {
                    "One square per server, darker when fuller (its fullest resource)."
                }
                .to_string(),
            ),
            bins_kind: BinsKind::InService,
            bins: (0..self.state.types()).map(|j| self.state.in_system(j)).collect(),
            // The share of each type's measured arrivals that was lost (blocking per type).
            bin_notes: self
                .stats
                .blocking()
                .iter()
                .map(|b| if b.is_finite() { format!("{:.1}% lost", 100.0 * b) } else { String::new() })
                .collect(),
            last: self.why(),
        }
    }
}
