//! Streaming measurement of a PG-AS run (SPEC 4.6): the reward rate R(t) = Σ_j u_j Y_j(t) per
//! server, its time average after the warm-up (the normalised reward) and series, blocking per
//! type, migrations, preemptions, configuration changes, the reject group's size and the
//! reserved empty slots over time. Nothing is kept per job.

use super::state::{PgasConfig, PgasState};
use crate::metrics::{Level, Series, SoFar, Stretch, StretchWatch};

/// Everything measured during a run. Counters named `window_*` count events after the warm-up;
/// the others count the whole run.
#[derive(Debug, Clone)]
pub struct PgasStats {
    warmup: f64,
    /// The servers present (taking jobs or draining): L until a change of the count moves
    /// them (RES-98), as a count and as the per-server figures' divisor.
    present: usize,
    servers: f64,
    /// One server's capacity per resource.
    unit: Vec<f64>,
    /// Total capacity of the servers present per resource, and what jobs on servers hold of it.
    capacity: Vec<f64>,
    used: Vec<u64>,
    /// R(t)/L: the reward rate per server.
    pub reward: Level,
    /// Mean over resources of the share of the fleet's capacity held by jobs.
    pub occupancy: Level,
    /// |RG|, the reject group's size (DRA; 0 for other policies).
    pub reject_group: Level,
    /// Deployed empty slots per server.
    pub reserved: Level,
    /// Σ_j Y_j, and Y_j per type.
    pub in_system: Level,
    pub type_in_system: Vec<Level>,
    pub arrivals: u64,
    pub admitted: u64,
    pub rejected: u64,
    pub departures: u64,
    pub migrations: u64,
    pub preemptions: u64,
    pub reconfigurations: u64,
    /// Per type, after the warm-up: arrivals, rejections, preemptions.
    pub window_arrivals: Vec<u64>,
    pub window_rejected: Vec<u64>,
    pub window_preempted: Vec<u64>,
    pub window_migrations: u64,
    pub window_preemptions: u64,
    /// Total size (primary resource) of the jobs preempted after the warm-up.
    pub window_preempted_size: u64,
    pub window_reconfigurations: u64,
    /// The reward and the rejections between the scenario's changes (none without changes).
    stretches: Option<Box<StretchWatch>>,
}

impl PgasStats {
    pub(super) fn new(config: &PgasConfig) -> Self {
        let series = || Some(Series::new(config.sample_every, config.max_points));
        let w = config.warmup;
        let types = config.types();
        Self {
            warmup: w,
            present: config.servers,
            servers: config.servers as f64,
            unit: config.capacity.as_slice().iter().map(|&c| c as f64).collect(),
            capacity: config.capacity.as_slice().iter().map(|&c| (c as f64 * config.servers as f64).max(1.0)).collect(),
            used: vec![0; config.capacity.dims()],
            reward: Level::new(w, series()),
            occupancy: Level::new(w, series()),
            reject_group: Level::new(w, series()),
            reserved: Level::new(w, series()),
            in_system: Level::new(w, series()),
            type_in_system: (0..types).map(|_| Level::new(w, series())).collect(),
            arrivals: 0,
            admitted: 0,
            rejected: 0,
            departures: 0,
            migrations: 0,
            preemptions: 0,
            reconfigurations: 0,
            window_arrivals: vec![0; types],
            window_rejected: vec![0; types],
            window_preempted: vec![0; types],
            window_migrations: 0,
            window_preemptions: 0,
            window_preempted_size: 0,
            window_reconfigurations: 0,
            stretches: None,
        }
    }

    fn measured(&self, now: f64) -> bool {
        now >= self.warmup
    }

    pub(super) fn arrived(&mut self, now: f64, job_type: usize) {
        self.arrivals += 1;
        if self.measured(now) {
            self.window_arrivals[job_type] += 1;
        }
    }

    pub(super) fn admitted(&mut self, now: f64, job_type: usize, st: &PgasState, on_server: bool) {
        self.admitted += 1;
        self.type_changed(now, job_type, st, on_server.then_some(true));
    }

    pub(super) fn rejected(&mut self, now: f64, job_type: usize) {
        self.rejected += 1;
        if self.measured(now) {
            self.window_rejected[job_type] += 1;
        }
    }

    /// An arrival was answered, `rejected` or not: a run with changes counts it in its
    /// stretch.
    pub(super) fn answered(&mut self, now: f64, rejected: bool) {
        if let Some(w) = &mut self.stretches {
            w.arrival(now, rejected);
        }
    }

    /// Follows the reward and the rejections across the scenario's changes at `moments` (none:
    /// no watch). Set before the run starts.
    pub(super) fn stretching(&mut self, moments: Vec<u64>) {
        self.stretches = StretchWatch::new(moments, self.warmup, self.reward.value()).map(Box::new);
    }

    /// The run's changes became `moments` while it plays (RES-96): a watch already under way
    /// keeps its records; a first one takes over what the run measured so far.
    pub(super) fn stretching_amended(&mut self, moments: Vec<u64>) {
        let (value, since, area) = self.reward.parts();
        let so_far = SoFar {
            value,
            since,
            area,
            arrived: self.window_arrivals.iter().sum(),
            rejected: self.window_rejected.iter().sum(),
        };
        let watch = self.stretches.take().map(|w| *w);
        self.stretches = StretchWatch::amended(watch, moments, self.warmup, so_far).map(Box::new);
    }

    /// The reward and the rejections before the first change and from each change on, up to
    /// `now` (empty without changes).
    pub fn stretches(&self, now: f64) -> Vec<Stretch> {
        self.stretches.as_ref().map_or_else(Vec::new, |w| w.stretches(now))
    }

    pub(super) fn departed(&mut self, now: f64, job_type: usize, st: &PgasState, on_server: bool) {
        self.departures += 1;
        self.type_changed(now, job_type, st, on_server.then_some(false));
    }

    pub(super) fn preempted(&mut self, now: f64, job_type: usize, st: &PgasState) {
        self.preemptions += 1;
        if self.measured(now) {
            self.window_preemptions += 1;
            self.window_preempted[job_type] += 1;
            self.window_preempted_size += st.demands[job_type].primary();
        }
        self.type_changed(now, job_type, st, Some(false));
    }

    pub(super) fn migrated(&mut self, now: f64, _st: &PgasState) {
        self.migrations += 1;
        if self.measured(now) {
            self.window_migrations += 1;
        }
    }

    pub(super) fn reconfigured(&mut self, now: f64, _st: &PgasState) {
        self.reconfigurations += 1;
        if self.measured(now) {
            self.window_reconfigurations += 1;
        }
    }

    /// The servers present as the run holds them.
    pub(super) fn present(&self) -> usize {
        self.present
    }

    /// The servers present became `st.present()` at `now` (a change of the count, a draining
    /// server leaving): R(t), the occupancy and the reserved slots are per server present from
    /// now on (RES-98), as GH-RA's occupancy is over the capacity present (RES-97).
    pub(super) fn set_present(&mut self, now: f64, st: &PgasState) {
        self.present = st.present();
        self.servers = self.present as f64;
        for (c, &u) in self.capacity.iter_mut().zip(&self.unit) {
            *c = (u * self.servers).max(1.0);
        }
        self.occupancy.set(now, self.share());
    }

    /// Mean over resources of the share of the capacity present held by jobs.
    fn share(&self) -> f64 {
        self.used.iter().zip(&self.capacity).map(|(&u, &c)| u as f64 / c).sum::<f64>() / self.capacity.len() as f64
    }

    /// A job of `job_type` entered or left the system; `placed` is `Some(entered)` when it
    /// holds resources on a server (the upper bound's jobs have none). Occupancy follows the
    /// placed jobs, kept as fleet totals so an event costs O(resources), not O(L).
    fn type_changed(&mut self, now: f64, job_type: usize, st: &PgasState, placed: Option<bool>) {
        self.type_in_system[job_type].set(now, st.in_system[job_type] as f64);
        if let Some(entered) = placed {
            for (u, &d) in self.used.iter_mut().zip(st.demands[job_type].as_slice()) {
                if entered {
                    *u += d;
                } else {
                    *u -= d;
                }
            }
            let share = self.share();
            self.occupancy.set(now, share);
        }
    }

    /// The levels after every event: R(t)/L, |RG|, reserved slots, jobs in the system.
    pub(super) fn levels(&mut self, now: f64, reward: f64, reject_group: usize, st: &PgasState) {
        self.reward.set(now, reward / self.servers);
        if let Some(w) = &mut self.stretches {
            w.set(now, reward / self.servers);
        }
        self.reject_group.set(now, reject_group as f64);
        self.reserved.set(now, st.reserved_empty_slots() as f64 / self.servers);
        self.in_system.set(now, st.in_system.iter().sum::<u64>() as f64);
    }

    /// The normalised reward: the time average of R(t)/L over `[warmup, now)`.
    pub fn normalized_reward(&self, now: f64) -> f64 {
        self.reward.mean(now, self.warmup)
    }

    /// Blocking probability of each type: rejected / arrived after the warm-up (NaN for a type
    /// that never arrived).
    pub fn blocking(&self) -> Vec<f64> {
        self.window_arrivals
            .iter()
            .zip(&self.window_rejected)
            .map(|(&a, &r)| if a == 0 { f64::NAN } else { r as f64 / a as f64 })
            .collect()
    }

    /// Blocking over all types after the warm-up.
    pub fn overall_blocking(&self) -> f64 {
        let a: u64 = self.window_arrivals.iter().sum();
        let r: u64 = self.window_rejected.iter().sum();
        if a == 0 { f64::NAN } else { r as f64 / a as f64 }
    }

    /// Brings every level up to `now`.
    pub(super) fn flush(&mut self, now: f64) {
        if let Some(w) = &mut self.stretches {
            w.flush(now);
        }
        for level in
            [&mut self.reward, &mut self.occupancy, &mut self.reject_group, &mut self.reserved, &mut self.in_system]
        {
            level.flush(now);
        }
        for level in &mut self.type_in_system {
            level.flush(now);
        }
    }
}
