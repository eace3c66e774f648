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
use crate::trace::google::{GoogleTask, GoogleTrace};
use crate::trace::synth::{GoogleSynth, KeptTasks};
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

/// One task as a job: (submit offset µs after `first`, size units, service slots).
fn slot_job(task: &GoogleTask, first: u64) -> (u64, u64, u64) {
    let size = match task.size() {
        0.0 => ZERO_SIZE,
        s => ((s * CAPACITY_UNITS as f64).ceil() as u64).clamp(1, CAPACITY_UNITS),
    };
    let service = (task.duration_us.div_ceil(SLOT_US as u64)).max(1);
    (task.submit_us - first, size, service)
}

/// What a run's set-up needs of a whole trace, in slotted units: how many jobs, how long it
/// lasts, their mean service and their work.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TraceSummary {
    pub len: usize,
    /// Submit time of the last job after the first's, µs.
    last_offset: u64,
    service_sum: u64,
    /// Σ size × service, in server-slots, summed in arrival order.
    work: f64,
}

impl TraceSummary {
    fn add(&mut self, (offset, size, service): (u64, u64, u64)) {
        self.len += 1;
        self.last_offset = offset;
        self.service_sum += service;
        self.work += size as f64 / CAPACITY_UNITS as f64 * service as f64;
    }

    /// Slots from the first arrival to the last under `scaling`.
    pub fn span(&self, scaling: f64) -> u64 {
        if self.len == 0 { 0 } else { slot_of(self.last_offset, scaling) }
    }

    pub fn mean_service(&self) -> f64 {
        self.service_sum as f64 / self.len.max(1) as f64
    }

    /// Arrivals per slot under `scaling`, while the trace lasts.
    pub fn arrival_rate(&self, scaling: f64) -> f64 {
        self.len as f64 / self.span(scaling).max(1) as f64
    }

    /// Offered work per slot over `servers` under `scaling`, while the trace lasts.
    pub fn offered_load(&self, servers: u32, scaling: f64) -> f64 {
        let span = self.span(scaling).max(1) as f64;
        self.work / (span * f64::from(servers))
    }
}

/// The arrival slot of a job submitted `offset` µs after the first under traffic scaling
/// `scaling` = 1/β.
fn slot_of(offset: u64, scaling: f64) -> u64 {
    (offset as f64 / (scaling * SLOT_US)).ceil() as u64
}

/// The jobs of a loaded trace in arrival order, in slotted units (before the traffic scaling).
#[derive(Debug, Clone, PartialEq)]
pub struct SlotJobs {
    /// (submit offset µs, size units, service slots).
    jobs: Vec<(u64, u64, u64)>,
    summary: TraceSummary,
}

impl SlotJobs {
    pub fn from_google(trace: &GoogleTrace) -> Self {
        let first = trace.tasks.first().map_or(0, |t| t.submit_us);
        let mut summary = TraceSummary::default();
        let jobs = trace
            .tasks
            .iter()
            .map(|task| {
                let job = slot_job(task, first);
                summary.add(job);
                job
            })
            .collect();
        Self { jobs, summary }
    }

    pub fn len(&self) -> usize {
        self.jobs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// The arrival slot of job `i` under traffic scaling `scaling` = 1/β.
    pub fn slot(&self, i: usize, scaling: f64) -> u64 {
        slot_of(self.jobs[i].0, scaling)
    }

    pub fn size(&self, i: usize) -> u64 {
        self.jobs[i].1
    }

    pub fn service(&self, i: usize) -> u64 {
        self.jobs[i].2
    }

    pub fn summary(&self) -> &TraceSummary {
        &self.summary
    }

    /// Slots from the first arrival to the last under `scaling`.
    pub fn span(&self, scaling: f64) -> u64 {
        self.summary.span(scaling)
    }
}

/// The trace a PG-RR run replays, as its engine reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum TraceJobs {
    /// A loaded file's jobs, mapped once and shared by the lanes.
    Loaded(Arc<SlotJobs>),
    /// The synthetic trace of `seed` with `tasks` tasks. Each lane draws its jobs as its slots
    /// reach them (the same jobs in every lane: they come from the seed), so a run's set-up
    /// and memory do not grow with the load.
    Synthetic { seed: u64, tasks: u64, summary: TraceSummary },
}

impl TraceJobs {
    pub fn summary(&self) -> &TraceSummary {
        match self {
            Self::Loaded(jobs) => jobs.summary(),
            Self::Synthetic { summary, .. } => summary,
        }
    }

    /// A reader from the first job on.
    pub fn cursor(&self) -> TraceCursor {
        match self {
            Self::Loaded(jobs) => TraceCursor::Loaded { jobs: jobs.clone(), next: 0 },
            Self::Synthetic { seed, tasks, .. } => TraceCursor::Synthetic {
                tasks: Box::new(GoogleSynth::new(*tasks, *seed).kept_tasks()),
                first: None,
                next: None,
            },
        }
    }
}

/// Where an engine is in its trace.
#[derive(Debug, Clone)]
pub enum TraceCursor {
    Loaded {
        jobs: Arc<SlotJobs>,
        next: usize,
    },
    Synthetic {
        /// Boxed: the generator's three random streams are large beside a loaded trace's index.
        tasks: Box<KeptTasks>,
        /// The first task's submit, µs.
        first: Option<u64>,
        /// The next job, drawn but not yet arrived.
        next: Option<(u64, u64, u64)>,
    },
}

impl TraceCursor {
    /// The next job (size units, service slots) that arrives by slot `t` under `scaling`.
    pub fn next_by(&mut self, t: u64, scaling: f64) -> Option<(u64, u64)> {
        match self {
            Self::Loaded { jobs, next } => {
                let i = *next;
                (i < jobs.len() && jobs.slot(i, scaling) <= t).then(|| {
                    *next += 1;
                    (jobs.size(i), jobs.service(i))
                })
            }
            Self::Synthetic { tasks, first, next } => {
                if next.is_none() {
                    let task = tasks.next()?;
                    *next = Some(slot_job(&task, *first.get_or_insert(task.submit_us)));
                }
                let (offset, size, service) = (*next)?;
                (slot_of(offset, scaling) <= t).then(|| {
                    *next = None;
                    (size, service)
                })
            }
        }
    }
}

/// Tasks of the synthetic trace for `horizon` slots at `scaling`: the trace time the run
/// reaches, at the generator's rate, with 2 % to spare.
pub fn synthetic_tasks(horizon: u64, scaling: f64) -> u64 {
    let seconds = horizon as f64 * scaling * SLOT_US / 1e6;
    (seconds * GoogleSynth::new(0, 0).per_second * 1.02).ceil() as u64 + 100
}

/// Most tasks the synthetic trace may be asked for: 2·10^6 tasks cover 9 hours of trace at
/// 1/β = 1 (3.3·10^5 slots); summing them up takes a fraction of a second.
pub const MAX_SYNTHETIC_TASKS: u64 = 2_000_000;

/// The synthetic trace of `seed` with `tasks` tasks, summed up once: the last one is kept,
/// since the lanes of a race and the page's views ask for the same one many times.
pub fn synthetic(seed: u64, tasks: u64) -> Result<TraceJobs, ConfigError> {
    static LAST: Mutex<Option<(u64, u64, TraceSummary)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|e| e.into_inner());
    let summary = match *last {
        Some((s, n, summary)) if (s, n) == (seed, tasks) => summary,
        _ => {
            let mut summary = TraceSummary::default();
            let mut first = None;
            for task in GoogleSynth::new(tasks, seed).kept_tasks() {
                summary.add(slot_job(&task, *first.get_or_insert(task.submit_us)));
            }
            if summary.len == 0 {
                return Err(ConfigError::new(trace::KEY, "no task of the synthetic trace finished normally"));
            }
            *last = Some((seed, tasks, summary));
            summary
        }
    };
    Ok(TraceJobs::Synthetic { seed, tasks, summary })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::Report;

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

    /// Every job a cursor gives, at a slot past the whole trace.
    fn drain(trace: &TraceJobs) -> Vec<(u64, u64)> {
        let mut cursor = trace.cursor();
        std::iter::from_fn(|| cursor.next_by(u64::MAX, 1.0)).collect()
    }

    #[test]
    fn the_drawn_synthetic_trace_is_the_read_one() {
        // Drawn as a run reaches them, the jobs and the summary are those of the trace read
        // whole from the generator's events, bit for bit.
        let read = SlotJobs::from_google(&GoogleSynth::new(3_000, 5).trace().unwrap());
        let drawn = synthetic(5, 3_000).unwrap();
        assert_eq!(drawn.summary(), read.summary());
        let loaded = TraceJobs::Loaded(Arc::new(read));
        assert_eq!(drain(&drawn), drain(&loaded));
        // A job arrives at its own slot, not before.
        let TraceJobs::Loaded(jobs) = &loaded else { unreachable!() };
        let mut cursor = drawn.cursor();
        let at = jobs.slot(1, 2.0);
        assert_eq!(cursor.next_by(jobs.slot(0, 2.0), 2.0), Some((jobs.size(0), jobs.service(0))));
        if at > jobs.slot(0, 2.0) {
            assert_eq!(cursor.next_by(at - 1, 2.0), None);
        }
        assert_eq!(cursor.next_by(at, 2.0), Some((jobs.size(1), jobs.service(1))));
    }

    #[test]
    fn the_synthetic_trace_grows_by_its_prefix() {
        let short = drain(&synthetic(5, 2_000).unwrap());
        let long = drain(&synthetic(5, 4_000).unwrap());
        assert!(long.len() > short.len() + 1_500);
        assert_eq!(short[..], long[..short.len()]);
    }
}
