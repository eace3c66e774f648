//! Task traces for the PG-AS loss model (SPEC 4.7, PGAS-C5): a CSV of tasks with their submit
//! time, duration, size and priority, mapped to job types as the paper does, and a synthetic
//! stand-in with demand surges for when no trace is loaded.
//!
//! The CSV has one task per line: `submit_time,duration,size,priority` (a header line naming
//! these columns, in any order, is optional; `#` starts a comment). Times are in the
//! simulation's time units, sizes a fraction of a server (for the Google trace: the larger of
//! the normalised CPU and memory requests), priorities the trace's 0 to 11. The mapping:
//!
//! * size: clamped to at least 2^−10 (a request of 0 included, RES-16), then rounded **up** to
//!   the nearest power of 1/2, 2^−m with m ∈ 0..=10;
//! * priority: 0–1 → 0 ("free"), 2–8 → 1, 9–11 → 2 (RES-35), reward factor 1, 3, 9;
//! * type = (priority, size), reward rate = size × factor; types are indexed by priority, then
//!   size, descending (RES-36), so GPA has the homogeneous shortcut (see
//!   [`Packing`](crate::models::pgas::theory::Packing)).
//!
//! Every error names the line and the field. A Google task_events trace maps the same way
//! ([`Trace::from_google`]), in seconds.

use serde::{Deserialize, Serialize};

use crate::ConfigError;
use crate::rng::{Stream, stream};
use crate::trace::Loaded;
use crate::trace::google::{GoogleTrace, PriorityBand};
use crate::trace::tasks::TaskTable;
use crate::workload::sample;

/// Smallest size class: 2^−10 of a server (RES-16).
pub const MIN_SIZE_EXP: u8 = 10;
/// Sizes are integers in units of 2^−10 of a server.
pub const CAPACITY_UNITS: u64 = 1 << MIN_SIZE_EXP;
/// Reward factor per priority 0, 1, 2.
pub const FACTORS: [u64; 3] = [1, 3, 9];
/// Most tasks a trace may hold.
pub const MAX_TASKS: usize = crate::trace::tasks::MAX_TASKS;

/// A job type of a trace: a priority (0, 1, 2) and a size 2^−`size_exp` of a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TraceType {
    pub priority: u8,
    pub size_exp: u8,
}

impl TraceType {
    /// Size in units of 2^−10 of a server.
    pub fn size_units(self) -> u64 {
        CAPACITY_UNITS >> self.size_exp
    }

    /// Reward factor: 1, 3 or 9.
    pub fn factor(self) -> u64 {
        FACTORS[self.priority as usize]
    }

    /// "p1 · 1/8".
    pub fn name(self) -> String {
        format!("p{} · 1/{}", self.priority, 1u64 << self.size_exp)
    }
}

/// One task: when it arrives, how long it runs, its type (an index into [`Trace::types`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Task {
    pub submit: f64,
    pub duration: f64,
    pub job_type: u16,
}

/// A task trace, sorted by submit time (ties keep file order).
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    tasks: Vec<Task>,
    types: Vec<TraceType>,
    fingerprint: u64,
    /// Σ size × duration over the tasks, in servers × time units.
    work: f64,
}

/// What a task line holds before it is mapped to a type.
struct RawTask {
    submit: f64,
    duration: f64,
    class: TraceType,
}

impl Trace {
    pub const KEY: &'static str = crate::trace::KEY;

    /// Parses a task CSV ([`crate::trace::tasks`]) and maps it. Errors (key `trace`) name
    /// the line and field.
    pub fn from_csv(text: &str) -> Result<Self, ConfigError> {
        TaskTable::from_csv(text).map(|table| Self::from_tasks(&table))
    }

    /// The tasks of a task CSV, mapped to PG-AS's types.
    pub fn from_tasks(table: &TaskTable) -> Self {
        let raw = table
            .tasks
            .iter()
            .map(|t| RawTask {
                submit: t.submit,
                duration: t.duration,
                class: TraceType { priority: map_priority(t.priority), size_exp: size_exp(t.size) },
            })
            .collect();
        Self::from_raw(raw)
    }

    /// A loaded file as PG-AS replays it: a Google trace or a task CSV (`None` for an SWF log).
    pub fn from_loaded(loaded: &Loaded) -> Option<Self> {
        match loaded {
            Loaded::Google(t) => Some(Self::from_google(t)),
            Loaded::TaskCsv(t) => Some(Self::from_tasks(t)),
            Loaded::Swf(_) => None,
        }
    }

    /// The finished tasks of a Google task_events trace (RES-14, read by
    /// [`crate::trace::google`]): times in seconds from the first submit, size the larger of the
    /// normalised CPU and memory requests, priorities mapped by RES-35 as for the CSV.
    pub fn from_google(trace: &GoogleTrace) -> Self {
        let first = trace.tasks.first().map_or(0, |t| t.submit_us);
        let raw = trace
            .tasks
            .iter()
            .map(|t| RawTask {
                submit: (t.submit_us - first) as f64 / 1e6,
                duration: t.duration_us as f64 / 1e6,
                class: TraceType { priority: map_priority(t.priority), size_exp: size_exp(t.size()) },
            })
            .collect();
        Self::from_raw(raw)
    }

    fn from_raw(mut raw: Vec<RawTask>) -> Self {
        raw.sort_by(|a, b| a.submit.total_cmp(&b.submit));
        let mut types: Vec<TraceType> = raw.iter().map(|t| t.class).collect();
        // RES-36: priority descending, then size descending (size_exp ascending).
        types.sort_by(|a, b| b.priority.cmp(&a.priority).then(a.size_exp.cmp(&b.size_exp)));
        types.dedup();
        let tasks: Vec<Task> = raw
            .iter()
            .map(|t| Task {
                submit: t.submit,
                duration: t.duration,
                job_type: types.iter().position(|c| *c == t.class).expect("listed") as u16,
            })
            .collect();
        let fingerprint = tasks.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, t| {
            [t.submit.to_bits(), t.duration.to_bits(), u64::from(t.job_type)]
                .iter()
                .fold(h, |h, v| (h ^ v).wrapping_mul(0x0000_0100_0000_01B3))
        });
        let work = tasks.iter().map(|t| t.duration * types[t.job_type as usize].size_units() as f64).sum::<f64>()
            / CAPACITY_UNITS as f64;
        Self { tasks, types, fingerprint, work }
    }

    /// A synthetic stand-in for the Google trace (PGAS-C5 without an upload): tasks over
    /// `[0, horizon)` for `servers` servers, from `seed`. Offered work is 0.45, 0.40 and 0.15
    /// server per server for priorities 0, 1, 2, with two surges: priority 0 triples during
    /// [0.3, 0.45)·horizon, then priority 1 during [0.45, 0.6)·horizon (the pattern of Fig. 6
    /// under which power-of-d can beat plain DRA). Sizes are 2^−m, m = 1..6 with weights
    /// 1, 2, 4, 4, 2, 1 (mean 0.131); durations Exp(1). Arrival gaps come from the seed's
    /// arrivals stream, priorities and sizes from its sizes stream, durations from its service
    /// stream.
    pub fn surges(servers: u32, horizon: f64, seed: u64) -> Self {
        const WORK: [f64; 3] = [0.45, 0.40, 0.15];
        const WEIGHTS: [f64; 6] = [1.0, 2.0, 4.0, 4.0, 2.0, 1.0];
        let mean_size: f64 =
            WEIGHTS.iter().enumerate().map(|(i, w)| w * libm::ldexp(1.0, -(i as i32 + 1))).sum::<f64>()
                / WEIGHTS.iter().sum::<f64>();
        let phases = [
            (0.0, [1.0, 1.0, 1.0]),
            (0.3 * horizon, [3.0, 1.0, 1.0]),
            (0.45 * horizon, [1.0, 3.0, 1.0]),
            (0.6 * horizon, [1.0, 1.0, 1.0]),
        ];
        let mut arrivals = stream(seed, Stream::Arrivals);
        let mut sizes = stream(seed, Stream::Sizes);
        let mut service = stream(seed, Stream::Service);
        let mut raw = Vec::new();
        let mut t: f64 = 0.0;
        for (p, &(start, boost)) in phases.iter().enumerate() {
            let end = phases.get(p + 1).map_or(horizon, |n| n.0);
            let rates: Vec<f64> = (0..3).map(|q| WORK[q] * boost[q] * f64::from(servers) / mean_size).collect();
            let total: f64 = rates.iter().sum();
            t = t.max(start);
            loop {
                // Memoryless: a gap that crosses the phase's end restarts there at the new rate.
                let next = t + sample::exponential(&mut arrivals, total);
                if next >= end {
                    t = end;
                    break;
                }
                t = next;
                let mut u = sample::open_unit(&mut sizes) * total;
                let priority = rates.iter().position(|&r| {
                    u -= r;
                    u <= 0.0
                });
                let mut v = sample::open_unit(&mut sizes) * WEIGHTS.iter().sum::<f64>();
                let m = WEIGHTS.iter().position(|&w| {
                    v -= w;
                    v <= 0.0
                });
                raw.push(RawTask {
                    submit: t,
                    duration: sample::exponential(&mut service, 1.0),
                    class: TraceType { priority: priority.unwrap_or(2) as u8, size_exp: m.unwrap_or(5) as u8 + 1 },
                });
            }
        }
        Self::from_raw(raw)
    }

    /// Tasks the synthetic stand-in draws on average for `servers` servers over `horizon`.
    pub fn surges_expected_tasks(servers: u32, horizon: f64) -> f64 {
        // Work 1.0 per server, +0.45·2 over 15% and +0.40·2 over 15% of the horizon, mean size 0.131.
        f64::from(servers) * horizon * (1.0 + 0.15 * 0.9 + 0.15 * 0.8) / 0.1306
    }

    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// The job types in RES-36 order.
    pub fn types(&self) -> &[TraceType] {
        &self.types
    }

    pub fn len(&self) -> usize {
        self.tasks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tasks.is_empty()
    }

    /// Σ size × duration over the tasks (server × time units of work).
    pub fn work(&self) -> f64 {
        self.work
    }

    /// The last submit time.
    pub fn span(&self) -> f64 {
        self.tasks.last().map_or(0.0, |t| t.submit)
    }

    /// A hash of the parsed tasks: two traces with the same fingerprint and length are taken
    /// as equal (scenarios compare traces often; comparing a million tasks each time would not do).
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
}

/// RES-35: the Google trace's priority bands, free (0–1) → 0, normal (2–8) → 1, production
/// (9–11) → 2.
pub fn map_priority(trace_priority: u8) -> u8 {
    match PriorityBand::of(trace_priority) {
        PriorityBand::Free => 0,
        PriorityBand::Normal => 1,
        PriorityBand::Production => 2,
    }
}

/// RES-16 and the rounding up to a power of 1/2: the m of the smallest 2^−m ≥ max(s, 2^−10).
pub fn size_exp(size: f64) -> u8 {
    (0..=MIN_SIZE_EXP).rev().find(|&m| libm::ldexp(1.0, -i32::from(m)) >= size).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_round_up_to_powers_of_a_half() {
        assert_eq!(size_exp(1.0), 0);
        assert_eq!(size_exp(0.5), 1);
        assert_eq!(size_exp(0.51), 0);
        assert_eq!(size_exp(0.3), 1);
        assert_eq!(size_exp(0.25), 2);
        assert_eq!(size_exp(0.0), 10);
        assert_eq!(size_exp(1e-6), 10);
        assert_eq!(size_exp(1.0 / 1024.0), 10);
        assert_eq!(size_exp(1.5 / 1024.0), 9);
        assert_eq!((0..12).map(map_priority).collect::<Vec<_>>(), [0, 0, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2]);
    }

    #[test]
    fn parses_types_in_res36_order() {
        let t = Trace::from_csv(
            "# a trace\nsize,priority,submit_time,duration\n0.3,0,5,1\n0.1,9,2,3\n0.5,3,2,1\n\n0,0,1,0.5\n",
        )
        .unwrap();
        let names: Vec<String> = t.types().iter().map(|c| c.name()).collect();
        assert_eq!(names, ["p2 · 1/8", "p1 · 1/2", "p0 · 1/2", "p0 · 1/1024"]);
        let tasks: Vec<(f64, u16)> = t.tasks().iter().map(|t| (t.submit, t.job_type)).collect();
        assert_eq!(tasks, [(1.0, 3), (2.0, 0), (2.0, 1), (5.0, 2)]);
        assert_eq!(t.span(), 5.0);
        assert_eq!(Trace::from_csv("1,2,0.5,3").unwrap().types()[0], TraceType { priority: 1, size_exp: 1 });
    }

    #[test]
    fn surges_are_reproducible_and_surge() {
        let a = Trace::surges(50, 100.0, 3);
        assert_eq!(a, Trace::surges(50, 100.0, 3));
        assert_ne!(a.fingerprint(), Trace::surges(50, 100.0, 4).fingerprint());
        let expected = Trace::surges_expected_tasks(50, 100.0);
        assert!((a.len() as f64 / expected - 1.0).abs() < 0.05, "{} vs {expected}", a.len());
        // Priority-0 arrivals per time unit triple inside [30, 45).
        let p0 = |lo: f64, hi: f64| {
            a.tasks()
                .iter()
                .filter(|t| t.submit >= lo && t.submit < hi && a.types()[t.job_type as usize].priority == 0)
                .count() as f64
                / (hi - lo)
        };
        let ratio = p0(30.0, 45.0) / p0(0.0, 30.0);
        assert!((ratio - 3.0).abs() < 0.3, "{ratio}");
    }
}
