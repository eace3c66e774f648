//! A Google task trace as PG-RR's arrivals (SPEC 2.5, PGRR-A5; RES-14, RES-15, RES-16).
//!
//! Each kept task becomes one job:
//!
//! * size = max(normalised CPU request, normalised memory request) of a unit server, on the
//!   [`CAPACITY_UNITS`] grid (rounded up); a size of 0 becomes 2^−10 for every policy (RES-16;
//!   VQS and VQS-BF round further up to their partition, as for any size);
//! * service = ⌈duration / 100 ms⌉ slots, at least 1 (RES-15);
//! * arrival slot = ⌈(submit − first submit) · β / 100 ms⌉, where 1/β is the traffic scaling,
//!   the scenario's load knob. Submit times are taken from the first task's so that the run
//!   starts with the trace (the real trace begins 600 s in); durations are not scaled.
//!
//! The source is a loaded file (named in links by its fingerprint) or the synthetic trace of
//! the bundled sample's distribution drawn from the run's seed and sized to the horizon, so
//! the preset runs without a download.

use std::sync::{Arc, Mutex};

use super::sizes::CAPACITY_UNITS;
use crate::ConfigError;
use crate::trace::google::GoogleTrace;
use crate::trace::synth::GoogleSynth;
use crate::trace::{self, Loaded, Shared};

/// One slot, in µs of trace time (RES-15).
pub const SLOT_US: f64 = 100_000.0;
/// The smallest size, 2^−10 of a server, for requests of 0 (RES-16).
pub const ZERO_SIZE: u64 = CAPACITY_UNITS >> 10;

/// Where a PG-RR scenario's arrivals come from.
#[derive(Debug, Clone, Default)]
pub enum TraceSource {
    /// Poisson arrivals with the scenario's size and service laws.
    #[default]
    None,
    /// The synthetic Google-format trace drawn from the seed ([`GoogleSynth`]).
    Synthetic,
    /// A loaded Google trace, with its jobs mapped once (the page asks for them every frame).
    File(Shared, Arc<SlotJobs>),
}

/// Two sources are the same trace when their fingerprints are ([`Shared`]'s equality).
impl PartialEq for TraceSource {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::None, Self::None) | (Self::Synthetic, Self::Synthetic) => true,
            (Self::File(a, _), Self::File(b, _)) => a == b,
            _ => false,
        }
    }
}

impl TraceSource {
    pub const RANGE: &'static str = "none (Poisson arrivals), synthetic (a Google-format trace drawn from the seed), or the 16-digit fingerprint \
         of a loaded Google task_events trace";

    pub fn name(&self) -> String {
        match self {
            Self::None => "none".into(),
            Self::Synthetic => "synthetic".into(),
            Self::File(s, _) => s.name(),
        }
    }

    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        match text.trim() {
            "none" => Ok(Self::None),
            "synthetic" => Ok(Self::Synthetic),
            name => Self::replay(&trace::find(name)?),
        }
    }

    /// The loaded file `shared` as PG-RR's arrivals: a Google trace.
    pub fn replay(shared: &Shared) -> Result<Self, ConfigError> {
        match &*shared.0 {
            Loaded::Google(google) => Ok(Self::File(shared.clone(), Arc::new(SlotJobs::from_google(google)))),
            other => Err(ConfigError::new(
                trace::KEY,
                format!(
                    "{} is a {} file; PG-RR replays Google task_events traces",
                    shared.name(),
                    other.format().name()
                ),
            )),
        }
    }

    pub fn is_none(&self) -> bool {
        matches!(self, Self::None)
    }
}

/// The jobs of a trace in arrival order, in slotted units (before the traffic scaling).
#[derive(Debug, Clone, PartialEq)]
pub struct SlotJobs {
    /// Submit time after the first task's, µs.
    offsets: Vec<u64>,
    sizes: Vec<u64>,
    services: Vec<u64>,
    /// Σ size × service, in server-slots.
    work: f64,
}

impl SlotJobs {
    pub fn from_google(trace: &GoogleTrace) -> Self {
        let first = trace.tasks.first().map_or(0, |t| t.submit_us);
        let mut jobs = Self { offsets: Vec::new(), sizes: Vec::new(), services: Vec::new(), work: 0.0 };
        for task in &trace.tasks {
            let size = match task.size() {
                0.0 => ZERO_SIZE,
                s => ((s * CAPACITY_UNITS as f64).ceil() as u64).clamp(1, CAPACITY_UNITS),
            };
            let service = (task.duration_us.div_ceil(SLOT_US as u64)).max(1);
            jobs.offsets.push(task.submit_us - first);
            jobs.sizes.push(size);
            jobs.services.push(service);
            jobs.work += size as f64 / CAPACITY_UNITS as f64 * service as f64;
        }
        jobs
    }

    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The arrival slot of job `i` under traffic scaling `scaling` = 1/β.
    pub fn slot(&self, i: usize, scaling: f64) -> u64 {
        (self.offsets[i] as f64 / (scaling * SLOT_US)).ceil() as u64
    }

    pub fn size(&self, i: usize) -> u64 {
        self.sizes[i]
    }

    pub fn service(&self, i: usize) -> u64 {
        self.services[i]
    }

    /// Slots from the first arrival to the last under `scaling`.
    pub fn span(&self, scaling: f64) -> u64 {
        self.len().checked_sub(1).map_or(0, |last| self.slot(last, scaling))
    }

    pub fn mean_service(&self) -> f64 {
        self.services.iter().sum::<u64>() as f64 / self.len().max(1) as f64
    }

    /// Mean size, a fraction of a server.
    pub fn mean_size(&self) -> f64 {
        self.sizes.iter().map(|&s| s as f64).sum::<f64>() / self.len().max(1) as f64 / CAPACITY_UNITS as f64
    }

    /// Offered work per slot over `servers` under `scaling`, while the trace lasts.
    pub fn offered_load(&self, servers: u32, scaling: f64) -> f64 {
        let span = self.span(scaling).max(1) as f64;
        self.work / (span * f64::from(servers))
    }
}

/// Tasks of the synthetic trace for `horizon` slots at `scaling`: the trace time the run
/// reaches, at the generator's rate, with 2 % to spare.
pub fn synthetic_tasks(horizon: u64, scaling: f64) -> u64 {
    let seconds = horizon as f64 * scaling * SLOT_US / 1e6;
    (seconds * GoogleSynth::new(0, 0).per_second * 1.02).ceil() as u64 + 100
}

/// Most tasks the synthetic trace may be asked for: 2·10^6 tasks cover 9 hours of trace at
/// 1/β = 1 (3.3·10^5 slots) and take about 150 MB while they are built.
pub const MAX_SYNTHETIC_TASKS: u64 = 2_000_000;

/// The synthetic trace's jobs for `seed`, with at least `tasks` tasks generated. The last one
/// built is kept: the lanes of a race and the points of a sweep share one seed.
pub fn synthetic(seed: u64, tasks: u64) -> Result<Arc<SlotJobs>, ConfigError> {
    static LAST: Mutex<Option<(u64, u64, Arc<SlotJobs>)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((s, n, jobs)) = last.as_ref()
        && *s == seed
        && *n >= tasks
    {
        // A longer trace of the same seed holds the shorter one's tasks, in the same order.
        return Ok(jobs.clone());
    }
    let google = GoogleSynth::new(tasks, seed).trace()?;
    let jobs = Arc::new(SlotJobs::from_google(&google));
    *last = Some((seed, tasks, jobs.clone()));
    Ok(jobs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Report;
    use crate::trace::google::GoogleTask;

    #[test]
    fn tasks_become_slotted_jobs() {
        let task = |submit_us, duration_us, cpu, memory| GoogleTask {
            submit_us,
            duration_us,
            cpu,
            memory,
            priority: 0,
            job: 1,
            index: 0,
        };
        let trace = GoogleTrace {
            tasks: vec![
                task(600_000_000, 50_000, 0.25, 0.5),
                task(600_150_000, 100_000, 0.0, 0.0),
                task(600_350_001, 100_001, 0.1, 0.0),
            ],
            report: Report::default(),
        };
        let jobs = SlotJobs::from_google(&trace);
        assert_eq!((0..3).map(|i| jobs.slot(i, 1.0)).collect::<Vec<_>>(), [0, 2, 4]);
        // 1/β = 2 halves the gaps (0.75 and 1.75 slots, rounded up).
        assert_eq!((0..3).map(|i| jobs.slot(i, 2.0)).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!((0..3).map(|i| jobs.service(i)).collect::<Vec<_>>(), [1, 1, 2]);
        assert_eq!(jobs.size(0), CAPACITY_UNITS / 2);
        assert_eq!(jobs.size(1), CAPACITY_UNITS / 1024);
        assert_eq!(jobs.size(2), CAPACITY_UNITS / 10);
        assert_eq!(jobs.span(1.0), 4);
    }

    #[test]
    fn the_synthetic_trace_grows_by_its_prefix() {
        let short = synthetic(5, 2_000).unwrap();
        let long = synthetic(5, 4_000).unwrap();
        assert!(long.len() > short.len() + 1_500);
        // Tasks that finish well inside the short file are the same in the long one.
        let n = short.len() * 9 / 10;
        assert_eq!(short.offsets[..n], long.offsets[..n]);
        assert_eq!(short.sizes[..n], long.sizes[..n]);
        assert_eq!(short.services[..n], long.services[..n]);
    }
}
