//! The PG-RR scenario (SPEC section 2) and its keys.

use super::Pgrr;
use super::engine::Shift;
use super::partition::{MAX_J, MIN_J, Partition};
use super::service::SlotService;
use super::sizes::SizeDist;
use super::trace::{MAX_SYNTHETIC_TASKS, TraceJobs, TraceSource, synthetic, synthetic_tasks};
use super::{CAPACITY_UNITS, PgrrConfig};
use crate::ConfigError;
use crate::changes::Shifts;
use crate::keys::{Editor, Input, Key};
use crate::model::{ModelScenario, window_keys};
use crate::window::{HasWindow, RunWindow, WindowRules};

/// Largest server count accepted.
pub const MAX_SERVERS: u64 = 100_000;
/// Largest mean number of arrivals per slot (keeps one slot's work bounded).
pub const MAX_ARRIVAL_RATE: f64 = 1e6;
/// Largest load α.
pub const MAX_LOAD: f64 = 10.0;

/// L unit-capacity servers in slotted time, Poisson arrivals of jobs with random sizes.
///
/// The load knob is the traffic intensity α = λ·R̄ / (μ·L): the offered work per slot over the
/// cluster's capacity, so α = 1 is the work-conservation bound ρ* ≤ L/R̄ (SPEC 2.3) and
/// λ = α·μ·L/R̄ (the A3/A4 formula, RES-49). The papers' λ values are α = 0.7 for A1 and A6
/// (λ = 0.014 = 1.4μ) and α = 0.918 for A2 (λ = 0.0306).
#[derive(Debug, Clone, PartialEq)]
pub struct PgrrScenario {
    pub servers: u32,
    /// α.
    pub load: f64,
    pub size: SizeDist,
    pub service: SlotService,
    /// Partition depth J of the virtual-queue policies (a policy may override it).
    pub j: u8,
    /// A trace replayed instead of the Poisson arrivals; `load` is then its traffic scaling 1/β.
    pub trace: TraceSource,
    pub window: RunWindow,
}

const WINDOW: [Key<PgrrScenario>; 5] = window_keys();

/// The keys of a PG-RR scenario, in the order listings and the form show them.
pub const KEYS: &[Key<PgrrScenario>] = &[
    Key::real("load", 0.0, MAX_LOAD, |s: &PgrrScenario| s.load, |s: &mut PgrrScenario, v| s.load = v)
        .label("Load α")
        .help(
            "traffic intensity α = λ·R̄/(μ·L); 1 is the work-conservation bound; with a trace, the traffic scaling 1/β",
        )
        .input(Input::Load)
        .changes("the arrival rate λ from that moment on (not while a trace replays)"),
    Key::int(
        "servers",
        1,
        MAX_SERVERS,
        |s: &PgrrScenario| s.servers as u64,
        |s: &mut PgrrScenario, v| s.servers = v as u32,
    )
    .label("Servers L")
    .help("number of servers L")
    .changes(
        "servers added from that moment on are empty and take jobs at once; servers removed (the highest-numbered) \
         take no new job and leave once their jobs are done; λ stays the one the load gave with the starting L",
    )
    // The cluster and the policy's indexes are built for the most servers the changes reach:
    // a playing race takes a count up to that (a server lost and back), not more.
    .live_within(|s: &PgrrScenario, v| {
        crate::keys::more_than(crate::models::pgrr::engine::most_servers(s.servers as usize, &s.shifts()) as u64, v)
    }),
    Key::text(
        "size",
        SizeDist::RANGE,
        |s: &PgrrScenario| s.size.to_string(),
        |s: &mut PgrrScenario, v| {
            s.size = SizeDist::parse(v)?;
            Ok(())
        },
    )
    .label("Job sizes")
    .help("job-size distribution, as fractions of a server")
    .input(Input::Editor(Editor::Sizes)),
    Key::text(
        "service",
        SlotService::RANGE,
        |s: &PgrrScenario| s.service.to_string(),
        |s: &mut PgrrScenario, v| {
            s.service = SlotService::parse(v)?;
            Ok(())
        },
    )
    .label("Service time")
    .help("service length in slots"),
    Key::int("j", MIN_J as u64, MAX_J as u64, |s: &PgrrScenario| s.j as u64, |s: &mut PgrrScenario, v| s.j = v as u8)
        .label("Partition depth J")
        .help("partition depth J of VQS and VQS-BF (2J virtual queues)"),
    Key::text(
        "trace",
        TraceSource::RANGE,
        |s: &PgrrScenario| s.trace.name(),
        |s: &mut PgrrScenario, v| {
            s.trace = TraceSource::parse(v)?;
            Ok(())
        },
    )
    .label("Trace")
    .help("replay a Google task trace instead of Poisson arrivals (sizes and services then come from it)")
    .input(Input::Editor(Editor::Trace)),
    WINDOW[0],
    WINDOW[1],
    WINDOW[2],
    WINDOW[3],
    WINDOW[4],
];

impl HasWindow for PgrrScenario {
    const WINDOW_RULES: WindowRules = WindowRules { max_horizon: 10_000_000_000, whole_grid: true, slotted: true };

    fn window(&self) -> &RunWindow {
        &self.window
    }

    fn window_mut(&mut self) -> &mut RunWindow {
        &mut self.window
    }
}

impl ModelScenario for PgrrScenario {
    type Model = Pgrr;
}

impl PgrrScenario {
    pub(super) fn validate(&self) -> Result<(), ConfigError> {
        if let TraceSource::Synthetic = self.trace {
            let tasks = synthetic_tasks(self.window.horizon, self.load);
            if tasks > MAX_SYNTHETIC_TASKS {
                return Err(ConfigError::new(
                    "horizon",
                    format!(
                        "the synthetic trace would need {tasks} tasks for {} slots at scaling {}; at most \
                         {MAX_SYNTHETIC_TASKS} (shorten the horizon)",
                        self.window.horizon, self.load
                    ),
                ));
            }
        }
        if !self.trace.is_none() {
            return Ok(());
        }
        let rate = self.arrival_rate();
        if rate > MAX_ARRIVAL_RATE {
            return Err(ConfigError::new(
                "load",
                format!("gives λ = {rate:.3e} arrivals per slot; at most {MAX_ARRIVAL_RATE:e} (lower load or servers)"),
            ));
        }
        Ok(())
    }

    /// λ = α·μ·L/R̄, mean arrivals per slot; with a trace, its tasks over its span.
    pub fn arrival_rate(&self) -> f64 {
        match self.trace_jobs() {
            Ok(Some(jobs)) => jobs.summary().arrival_rate(self.load),
            _ => self.load * self.service.rate() * self.servers as f64 / self.size.mean(),
        }
    }

    /// What the engine sets at each moment of the changes: λ, from the load read against the
    /// starting L (a change of the server count moves no arrival, RES-95), and the servers
    /// that take jobs.
    pub fn shifts(&self) -> Shifts<Shift> {
        let servers = self.servers;
        Shifts::build(self, &self.window.changes, self.window.horizon, KEYS, move |now| Shift {
            arrival_rate: PgrrScenario { servers, ..now.clone() }.arrival_rate(),
            servers: now.servers as usize,
        })
    }

    /// The trace's jobs, when the arrivals come from one.
    pub fn trace_jobs(&self) -> Result<Option<TraceJobs>, ConfigError> {
        match &self.trace {
            TraceSource::None => Ok(None),
            TraceSource::Synthetic => {
                synthetic(self.window.seed, synthetic_tasks(self.window.horizon, self.load)).map(Some)
            }
            TraceSource::File(_, jobs) => Ok(Some(TraceJobs::Loaded(jobs.clone()))),
        }
    }

    /// The offered work per slot over the cluster: α, or for a trace its work over its span.
    pub fn offered_utilization(&self) -> f64 {
        match self.trace_jobs() {
            Ok(Some(jobs)) => jobs.summary().offered_load(self.servers, self.load),
            _ => self.load,
        }
    }

    /// The engine configuration. The waiting jobs are counted by the policy's virtual queues
    /// (`queues`: their partition depth) or else by the scenario's J.
    pub fn engine_config(&self, queues: Option<u8>, max_points: usize) -> Result<PgrrConfig, ConfigError> {
        let trace = self.trace_jobs()?.map(|jobs| (jobs, self.load));
        Ok(PgrrConfig {
            servers: self.servers as usize,
            capacity: CAPACITY_UNITS,
            arrival_rate: self.arrival_rate(),
            sizes: self.size.clone(),
            service: self.service,
            warmup: self.window.warmup,
            horizon: self.window.horizon,
            sample_every: self.window.sample_every as u64,
            max_points,
            classes: Partition::new(queues.unwrap_or(self.j), CAPACITY_UNITS),
            trace,
        })
    }

    /// α for a given λ (the inverse of [`PgrrScenario::arrival_rate`]).
    pub fn load_for_rate(&self, rate: f64) -> f64 {
        rate * self.size.mean() / (self.service.rate() * self.servers as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::{AnyScenario, Scenario};
    use crate::scenario::preset;

    fn pgrr(id: &str) -> PgrrScenario {
        let Scenario::Pgrr(s) = preset(id).unwrap().scenario else { panic!("{id} is a PG-RR preset") };
        s
    }

    #[test]
    fn paper_rates_from_load() {
        let approx = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(approx(pgrr("pgrr-a1").arrival_rate(), 0.014));
        assert!((pgrr("pgrr-a2").arrival_rate() - 0.0306).abs() < 1e-9);
        let mut a3 = pgrr("pgrr-a3");
        a3.load = 0.9;
        assert!(approx(a3.arrival_rate(), 0.45));
        assert!(approx(a3.load_for_rate(0.45), 0.9));
    }

    #[test]
    fn keys_round_trip_and_reject() {
        let mut s = pgrr("pgrr-a3");
        for k in KEYS {
            let v = k.get(&s);
            k.set(&mut s, &v).unwrap();
        }
        for (key, value) in [
            ("servers", "-3"),
            ("servers", "0"),
            ("servers", "1.5"),
            ("load", "NaN"),
            ("load", "-1"),
            ("load", "0"),
            ("load", "11"),
            ("j", "1"),
            ("seed", "abc"),
            ("horizon", "0"),
            ("size", "uniform:0.5,1.5"),
            ("nonsense", "1"),
        ] {
            let e = AnyScenario::set(&mut s, key, value).unwrap_err();
            assert_eq!(e.key, key, "{key}={value}: {e}");
        }
        s.window.warmup = s.window.horizon;
        assert_eq!(AnyScenario::validate(&s).unwrap_err().key, "warmup");
    }
}
