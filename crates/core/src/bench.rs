//! Timing an engine: what `packlab bench` measures natively and the page's wasm measures in the
//! browser (`bench_case`, `npm run bench:wasm`). One measurement on both sides, so their ratio
//! compares the engines as compiled, not two harnesses.
//!
//! A timed run is an untimed warm-up, then whole time units until at least the asked number
//! of jobs has arrived (the count overshoots by the jobs of the last time unit: about 1 % for
//! the headline cases). The clock is the caller's: `std::time::Instant` natively,
//! `performance.now()` in a page, since the core has no clock of its own on wasm32.

use serde::Serialize;

use crate::EngineError;
use crate::view::LiveRun;

/// How long a run goes untimed before the clock starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warmup {
    /// This many time units.
    Units(u64),
    /// Until time `until` (the scenario's warm-up) or until a fifth of the timed jobs have
    /// arrived, whichever comes first.
    UntilOrFifth { until: u64 },
}

/// What one timed run did, and in how long.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Timing {
    /// Arrivals in the timed part.
    pub jobs: u64,
    /// Time units (slots) simulated in the timed part.
    pub time: u64,
    pub events: u64,
    pub seconds: f64,
    pub events_per_s: f64,
    pub jobs_per_s: f64,
    pub ns_per_job: f64,
    /// Jobs waiting when the clock started and when it stopped.
    pub start_queue: u64,
    pub final_queue: u64,
    /// Whether the queue grew while timed (more than doubled and by at least 1 000 jobs): the
    /// cost per job is then that of a growing queue, not of a steady state.
    pub growing: bool,
}

/// Times `run`: the warm-up untimed, then until `jobs` more jobs have arrived. `seconds` reads
/// the caller's clock.
pub fn time_run(
    run: &mut dyn LiveRun,
    warmup: Warmup,
    jobs: u64,
    seconds: &mut dyn FnMut() -> f64,
) -> Result<Timing, BenchError> {
    match warmup {
        Warmup::Units(units) => run.run(units)?,
        Warmup::UntilOrFifth { until } => advance(run, jobs / 5, until)?,
    }
    let before = run.readings();
    let t0 = run.time();
    let started = seconds();
    advance(run, jobs, u64::MAX)?;
    let elapsed = (seconds() - started).max(1e-9);
    let after = run.readings();
    let jobs = after.arrivals - before.arrivals;
    if jobs == 0 {
        return Err(BenchError::NoJobs);
    }
    let events = after.events - before.events;
    Ok(Timing {
        jobs,
        time: run.time() - t0,
        events,
        seconds: elapsed,
        events_per_s: events as f64 / elapsed,
        jobs_per_s: jobs as f64 / elapsed,
        ns_per_job: elapsed * 1e9 / jobs as f64,
        start_queue: before.queue_len,
        final_queue: after.queue_len,
        growing: after.queue_len > 2 * before.queue_len && after.queue_len >= before.queue_len + 1000,
    })
}

/// Why a run could not be timed.
#[derive(Debug)]
pub enum BenchError {
    Engine(EngineError),
    /// The scenario's arrivals stopped before the timed part (a trace that ended).
    NoJobs,
}

impl From<EngineError> for BenchError {
    fn from(e: EngineError) -> Self {
        Self::Engine(e)
    }
}

impl std::fmt::Display for BenchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Engine(e) => write!(f, "{e}"),
            Self::NoJobs => write!(f, "no job arrived in the timed part (the scenario's horizon or trace ended)"),
        }
    }
}

impl std::error::Error for BenchError {}

/// Runs whole time units until `jobs` more jobs have arrived or time `until` is reached (or
/// the run's arrivals stop), in chunks that grow while a chunk brings few jobs, so checking
/// costs nothing and the count overshoots by at most about 1%.
fn advance(run: &mut dyn LiveRun, jobs: u64, until: u64) -> Result<(), EngineError> {
    let start = run.readings().arrivals;
    let mut chunk = 1;
    let mut idle = 0;
    loop {
        let done = run.readings().arrivals - start;
        if done >= jobs || run.time() >= until {
            return Ok(());
        }
        let before = run.readings().arrivals;
        run.run(chunk.min(until - run.time()))?;
        let brought = run.readings().arrivals - before;
        if brought == 0 {
            // A trace that has ended brings nothing more.
            idle += 1;
            if idle > 64 {
                return Ok(());
            }
        }
        if brought < jobs / 100 {
            chunk *= 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::policy::PolicySpec;
    use crate::report::live_run;
    use crate::scenario::preset;
    use crate::view::Watch;

    #[test]
    fn a_timed_run_counts_what_it_ran_and_says_when_the_queue_grew() {
        let mut clock = 0.0;
        let mut tick = || {
            clock += 0.5;
            clock
        };
        let scenario = preset("pgrr-a1").unwrap().scenario;
        let mut stable = live_run(&scenario, &PolicySpec::parse("bf-js").unwrap(), Watch::batch(64)).unwrap();
        let t = time_run(stable.as_mut(), Warmup::Units(100), 20_000, &mut tick).unwrap();
        assert!((20_000..20_400).contains(&t.jobs), "at least the jobs asked, by at most ~1 %: {}", t.jobs);
        assert_eq!(t.seconds, 0.5, "one reading of the clock before, one after");
        assert!(!t.growing, "best fit is stable at A1: {t:?}");
        // VQS loses a third of the capacity on A1 (PG-RR Fig. 3a): its queue grows.
        let mut vqs = live_run(&scenario, &PolicySpec::parse("vqs").unwrap(), Watch::batch(64)).unwrap();
        let t = time_run(vqs.as_mut(), Warmup::Units(100), 400_000, &mut tick).unwrap();
        assert!(t.growing && t.final_queue > t.start_queue + 1000, "{t:?}");
    }
}
