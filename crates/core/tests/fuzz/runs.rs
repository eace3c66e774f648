//! The runs of the fuzz targets (`fuzz.rs`): every input that validates is built and run under
//! its policies until they decide, and what the runs reached is counted.

use std::cell::RefCell;
use std::collections::BTreeMap;

use packlab_core::model::{RunError, TimeUnit};
use packlab_core::models::Scenario;
use packlab_core::policy::PolicySpec;
use packlab_core::report::live_run;
use packlab_core::view::Watch;
use packlab_core::{ConfigError, EngineError};

/// How far a fuzzed run goes: until its policy has made [`DECISIONS`] decisions, or
/// [`ARRIVALS`] jobs have arrived (a policy that blocks on them decides no more), or the
/// horizon, or [`MAX_STEPS`] steps (a slot, or an event in continuous time), whichever comes
/// first. Measured in jobs, not time: a PG-RR preset of one server sees 0.014 arrivals per
/// slot, PG-AS hundreds per time unit.
const DECISIONS: u64 = 20;
const ARRIVALS: u64 = 50;
const MAX_STEPS: u64 = 10_000;

/// What the fuzzed runs of one target did, summed over its cases: the proof that they reach
/// the policies' decisions rather than stopping at start-up.
#[derive(Debug)]
pub struct Reached {
    /// Cases the target tries.
    cases: u32,
    /// By model: runs built and stepped, those whose policy made at least one decision, and
    /// the decisions made.
    runs: BTreeMap<&'static str, [u64; 3]>,
    /// Policies the scenario refused by name before building (they do not fit it, or it is
    /// the theory's alone).
    refused: u64,
    /// Runs the engine stopped at its queue limit, a refusal that names what to lower.
    queue_limit: u64,
}

/// The share of the runs that must reach a decision: at the default seed all but a few
/// percent do (a run may rightly decide nothing, as a queue blocked behind a job that fits
/// nowhere, or a horizon of one slot).
const MIN_DECIDING: f64 = 0.9;

impl Reached {
    pub fn new(cases: u32) -> Self {
        Self { cases, runs: BTreeMap::new(), refused: 0, queue_limit: 0 }
    }

    /// Fails unless each of `models` ran one fuzzed input in 40 cases at least (at least 20
    /// runs in `scripts/test`), and its runs, once there are 20, reached a decision in
    /// [`MIN_DECIDING`] of the cases and made `mean` decisions a run on average. Prints the
    /// counts.
    pub fn check(&self, target: &str, models: &[&str], mean: u64) {
        eprintln!("{target}: {self:?}");
        for model in models {
            let [runs, deciding, decisions] = self.runs.get(model).copied().unwrap_or_default();
            let least = u64::from(self.cases) / 40;
            assert!(runs >= least, "{target}: only {runs} fuzzed {model} inputs were run in {} cases", self.cases);
            if runs < 20 {
                continue;
            }
            assert!(
                deciding as f64 >= MIN_DECIDING * runs as f64,
                "{target}: only {deciding} of {runs} fuzzed {model} runs reached a decision: {self:?}"
            );
            assert!(
                decisions >= mean * runs,
                "{target}: the {runs} fuzzed {model} runs made {decisions} decisions, fewer than {mean} a run: {self:?}"
            );
        }
    }
}

/// Builds and steps every policy of a scenario: until it has made a few decisions, so the
/// engines and the policies run on the input ([`DECISIONS`]), and counts what it reached in
/// `reached`. Panics, a test failure naming the input, unless every error is a refusal the
/// input deserves: a policy that does not fit the scenario, refused by a message naming the
/// policy or a scenario key, or the engine's queue limit. A scenario that validates but does
/// not build, an engine that refuses a policy's decision or a broken invariant all fail.
pub fn run_briefly(reached: &RefCell<Reached>, scenario: &Scenario, policies: &[PolicySpec]) {
    if let Err(e) = scenario.validate() {
        panic!("a scenario that does not validate was given to run: {e}");
    }
    let model = scenario.info().id;
    let named = |e: &ConfigError| {
        let key = e.key == "policy" || scenario.keys().iter().any(|k| k.key == e.key);
        assert!(key && !e.message.is_empty(), "refused without naming a key: {e:?}");
    };
    // The theory the page draws for any scenario it opens: the load's marks, and each
    // policy's capacity and guarantee with its hypotheses; finite where given.
    for mark in scenario.marks() {
        assert!(mark.load.is_finite() && mark.load >= 0.0, "a load mark at {}: {}", mark.load, mark.label);
    }
    for policy in policies {
        if let Err(e) = scenario.check_policy(policy) {
            named(&e);
            reached.borrow_mut().refused += 1;
            continue;
        }
        let theory = scenario.any().stability_theory(policy);
        if let Some(capacity) = &theory.capacity {
            assert!(capacity.load.is_finite() && capacity.load >= 0.0, "{policy}: capacity {}", capacity.load);
        }
        if let Some(g) = &theory.guarantee {
            assert!(g.fraction > 0.0 && g.fraction <= 1.0, "{policy}: fraction {}", g.fraction);
            assert_eq!(theory.proven_load().is_some(), g.holds() && theory.capacity.is_some(), "{policy}");
        }
        if scenario.any().theory_only() {
            // PG-AS's random collections are for the bounds alone: a run is refused, by name.
            match live_run(scenario, policy, Watch::page(64)).err() {
                Some(RunError::Config(e)) => named(&e),
                other => panic!("{policy}: a scenario of the theory alone must refuse to run, by name: {other:?}"),
            }
            reached.borrow_mut().refused += 1;
            continue;
        }
        let mut run = live_run(scenario, policy, Watch::page(64)).unwrap_or_else(|e| {
            panic!("{policy}: the scenario validates and the policy fits, but it does not build: {e}")
        });
        let (end, slotted) = (scenario.horizon(), scenario.time_unit() == TimeUnit::Slots);
        let mut result = Ok(());
        for _ in 0..MAX_STEPS {
            if run.now() >= end as f64 || run.decisions().count() >= DECISIONS || run.readings().arrivals >= ARRIVALS {
                break;
            }
            // A slot at a time, or the next event; nothing pending in continuous time: done.
            result = match run.next_event() {
                _ if slotted => run.run(1),
                Some(t) => run.run_to(t.min(end as f64)),
                None => break,
            };
            if result.is_err() {
                break;
            }
        }
        match result {
            Ok(()) => {}
            Err(EngineError::QueueLimit { .. }) => reached.borrow_mut().queue_limit += 1,
            Err(e) => panic!("{policy}: the engine refused a decision at {}: {e}", run.now()),
        }
        let _ = run.readings();
        let _ = run.view(true);
        if let Err(e) = run.check_invariants() {
            panic!("{policy}: invariant broken: {e}");
        }
        let decisions = run.decisions().count();
        let mut reached = reached.borrow_mut();
        let [runs, deciding, made] = reached.runs.entry(model).or_default();
        *runs += 1;
        *deciding += u64::from(decisions > 0);
        *made += decisions;
    }
}
