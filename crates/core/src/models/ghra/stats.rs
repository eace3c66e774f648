//! Streaming measurement of a VM-scheduling run (SPEC 1.6, 3.4): the time-average total
//! queue Σ_j Q_j(t), the mean delay until service starts, the share of the capacity held by
//! real and by dummy jobs, and the refresh count of the MaxWeight baselines. Nothing is kept
//! per job, so memory stays flat with the run length.
//!
//! The mean delay is over every job that arrived after the warm-up, a job still waiting
//! counted with its wait so far: the rule of every model ([`JobTimes`]).

use super::state::{GhraConfig, GhraJob, GhraState};
use crate::limits::BATCHES;
use crate::metrics::{JobTimes, Level, Series, VerdictWatch, mean_ci};
use crate::resources::Resources;

/// Everything measured during a run.
#[derive(Debug, Clone)]
pub struct GhraStats {
    warmup: f64,
    horizon: f64,
    /// Total capacity of the fleet in each resource.
    capacity: Vec<f64>,
    /// Resources held by real and by dummy jobs, fleet-wide.
    real_used: Vec<u64>,
    dummy_used: Vec<u64>,
    /// Σ_j Q_j(t), waiting jobs only.
    pub waiting: Level,
    /// Q_j(t) per type (the page's queue bins).
    pub type_waiting: Vec<Level>,
    /// The mean over resources of the fraction of the fleet's capacity held by real jobs.
    pub occupancy: Level,
    /// The same for dummy jobs.
    pub dummy_share: Level,
    /// The running mean delay of the measured jobs, as it stood over time.
    pub running_delay: Level,
    /// The same per VM type.
    pub type_running_delay: Vec<Level>,
    /// JobTimes of the measured jobs: all of them, per type, and per batch of arrival times.
    delays: JobTimes,
    type_delays: Vec<JobTimes>,
    batch_delays: [JobTimes; BATCHES],
    /// Jobs that arrived after the warm-up, and those of them that started.
    pub window_arrivals: u64,
    pub window_started: u64,
    /// All arrivals, real and dummy starts, warm-up included.
    pub arrivals: u64,
    pub started: u64,
    pub dummies_started: u64,
    /// Real jobs that finished service.
    pub completed: u64,
    /// MaxWeight configuration choices (refreshes) so far.
    pub refreshes: u64,
}

impl GhraStats {
    /// Statistics of a run whose first `active` servers are there at the start.
    pub(super) fn new(config: &GhraConfig, active: usize) -> Self {
        let series = || Some(Series::new(config.sample_every, config.max_points));
        let dims = config.capacities.first().map_or(1, |c| c.dims());
        let capacity = fleet_capacity(dims, &config.capacities[..active.min(config.capacities.len())]);
        let w = config.warmup;
        Self {
            warmup: w,
            horizon: config.horizon,
            capacity,
            real_used: vec![0; dims],
            dummy_used: vec![0; dims],
            waiting: Level::new(w, series()).judged(VerdictWatch::new(
                config.horizon,
                config.arrival_rates.iter().sum(),
                false,
            )),
            type_waiting: (0..config.types()).map(|_| Level::new(w, series())).collect(),
            occupancy: Level::new(w, series()),
            dummy_share: Level::new(w, None),
            running_delay: Level::running_mean(w, series()),
            type_running_delay: (0..config.types()).map(|_| Level::running_mean(w, series())).collect(),
            delays: JobTimes::default(),
            type_delays: vec![JobTimes::default(); config.types()],
            batch_delays: [JobTimes::default(); BATCHES],
            window_arrivals: 0,
            window_started: 0,
            arrivals: 0,
            started: 0,
            dummies_started: 0,
            completed: 0,
            refreshes: 0,
        }
    }

    pub(super) fn arrived(&mut self, now: f64, job_type: usize, st: &GhraState) {
        self.arrivals += 1;
        if now >= self.warmup {
            self.window_arrivals += 1;
            self.delays.arrived(now);
            self.type_delays[job_type].arrived(now);
            let b = self.batch(now);
            self.batch_delays[b].arrived(now);
            self.running_delay.set(now, self.delays.mean(now));
            self.type_running_delay[job_type].set(now, self.type_delays[job_type].mean(now));
        }
        self.waiting.set(now, st.waiting_total as f64);
        self.type_waiting[job_type].set(now, st.waiting_by_type[job_type] as f64);
    }

    /// A job of `job_type` started: `job` is the real job, `None` for a dummy.
    pub(super) fn started(&mut self, now: f64, job_type: usize, job: Option<&GhraJob>, st: &GhraState) {
        let demand = st.demands[job_type];
        match job {
            Some(job) => {
                self.started += 1;
                add(&mut self.real_used, demand.as_slice());
                if job.arrival >= self.warmup {
                    self.window_started += 1;
                    self.delays.finished(job.arrival, now);
                    self.type_delays[job_type].finished(job.arrival, now);
                    let b = self.batch(job.arrival);
                    self.batch_delays[b].finished(job.arrival, now);
                    self.running_delay.set(now, self.delays.mean(now));
                    self.type_running_delay[job_type].set(now, self.type_delays[job_type].mean(now));
                }
                self.waiting.set(now, st.waiting_total as f64);
                self.type_waiting[job_type].set(now, st.waiting_by_type[job_type] as f64);
                self.occupancy.set(now, share(&self.real_used, &self.capacity));
            }
            None => {
                self.dummies_started += 1;
                add(&mut self.dummy_used, demand.as_slice());
                self.dummy_share.set(now, share(&self.dummy_used, &self.capacity));
            }
        }
    }

    pub(super) fn departed(&mut self, now: f64, job_type: usize, dummy: bool, st: &GhraState) {
        let demand = st.demands[job_type];
        if dummy {
            sub(&mut self.dummy_used, demand.as_slice());
            self.dummy_share.set(now, share(&self.dummy_used, &self.capacity));
        } else {
            self.completed += 1;
            sub(&mut self.real_used, demand.as_slice());
            self.occupancy.set(now, share(&self.real_used, &self.capacity));
        }
    }

    fn batch(&self, arrival: f64) -> usize {
        let span = self.horizon - self.warmup;
        if span <= 0.0 {
            return 0;
        }
        (((arrival - self.warmup) / span * BATCHES as f64) as usize).min(BATCHES - 1)
    }

    /// Mean delay of the measured jobs at `now`, those still waiting counted with their wait
    /// so far; NaN before the first measured arrival.
    pub fn mean_delay(&self, now: f64) -> f64 {
        self.delays.mean(now)
    }

    /// Batch-means 95% interval of the mean delay at `now` (20 batches by arrival time).
    pub fn mean_delay_ci(&self, now: f64) -> [f64; 2] {
        let means: Vec<f64> = self.batch_delays.iter().map(|d| d.mean(now)).filter(|m| m.is_finite()).collect();
        let ci = mean_ci(&means);
        [ci.lo, ci.hi]
    }

    /// The capacity present changed (a change of the fleet, a draining server that left,
    /// RES-97): from `now` on the occupancy and the dummies' share are over the new one.
    pub(super) fn set_capacity(&mut self, now: f64, present: &[Resources]) {
        self.capacity = fleet_capacity(self.capacity.len(), present);
        self.occupancy.set(now, share(&self.real_used, &self.capacity));
        self.dummy_share.set(now, share(&self.dummy_used, &self.capacity));
    }

    /// Brings every level up to `now`.
    pub(super) fn flush(&mut self, now: f64) {
        for level in [&mut self.waiting, &mut self.occupancy, &mut self.dummy_share, &mut self.running_delay] {
            level.flush(now);
        }
        for level in self.type_waiting.iter_mut().chain(&mut self.type_running_delay) {
            level.flush(now);
        }
    }
}

fn add(total: &mut [u64], demand: &[u64]) {
    for (t, d) in total.iter_mut().zip(demand) {
        *t += d;
    }
}

fn sub(total: &mut [u64], demand: &[u64]) {
    for (t, d) in total.iter_mut().zip(demand) {
        *t -= d;
    }
}

/// The fleet's total capacity in each of its `dims` resources (at least 1).
fn fleet_capacity(dims: usize, capacities: &[Resources]) -> Vec<f64> {
    (0..dims).map(|d| capacities.iter().map(|c| c.as_slice()[d] as f64).sum::<f64>().max(1.0)).collect()
}

/// The mean over resources of the fraction of the capacity in `used`.
fn share(used: &[u64], capacity: &[f64]) -> f64 {
    used.iter().zip(capacity).map(|(u, c)| *u as f64 / c).sum::<f64>() / capacity.len() as f64
}
