//! MSFQ(ℓ), Most Servers First with Quickswap (MSFQ paper §3, SPEC 5.2.4), for the
//! one-or-all case: classes 1 ("small") and k ("large").
//!
//! Four phases: (1) large jobs one at a time until none is left; (2) small jobs, k at once,
//! while n_1 ≥ k; (3) small jobs while n_1 > ℓ; (4) admit nothing until the small jobs in
//! service finish (RES-38). Entering phase 3 admits the waiting small jobs first
//! (admit-on-entry, RES-39). ℓ = 0 is MSF; ℓ = k − 1 is the paper's choice.

use super::{Admission, PhaseMachine};
use crate::EngineError;
use crate::models::msfq::{Msfq as Model, MsfqContext, MsfqObservation, MsfqPolicy, MsfqScenario, Status, boxed};
use crate::model::policy::{Param, Policy, PolicySpec};

pub const POLICY: Policy<Model> = Policy::new(
    "msfq",
    "MSFQ",
    "MSF with Quickswap: large jobs, then small ones down to the threshold l, then swap (MSFQ §3, one-or-all)",
    |spec, s| {
        let (l, open) = threshold(spec, s)?;
        boxed(Msfq::new(l, open))
    },
)
.params(&[
    Param::scenario_int("l", "an integer in 0..=k-1", "threshold ℓ on small jobs; 0 is MSF (default k-1)").symbol("ℓ"),
    Param::choice("phase4", &["strict", "open"], "open: MSFQ-C, small jobs start in phase 4 while no large job waits"),
])
.resolve(|key, s: &MsfqScenario| (key == "l").then(|| s.cores.saturating_sub(1).to_string()));

/// ℓ and the phase-4 option, checked against the scenario: MSFQ needs the classes {1, k}.
fn threshold(spec: &PolicySpec, s: &MsfqScenario) -> Result<(u32, bool), crate::ConfigError> {
    let cores = s.cores;
    if !s.classes.is_one_or_all(cores) || cores < 2 {
        return Err(crate::ConfigError::new(crate::model::policy::KEY, refusal(s)));
    }
    let l = spec.int("l").map_or(cores - 1, |l| l as u32);
    if l >= cores {
        return Err(spec.error(format!("l must be an integer in 0..={} (k - 1) (got {l})", cores - 1)));
    }
    Ok((l, spec.is("phase4", "open")))
}

/// Why MSFQ cannot run `s`, in one sentence with the fix: what it needs, what the scenario (or
/// its log) has, in words; never the class table itself, which a log makes dozens of entries
/// long (RES-90).
fn refusal(s: &MsfqScenario) -> String {
    let cores = s.cores;
    if cores < 2 {
        return format!(
            "MSFQ needs k >= 2 cores (needs 1 and k); this machine has k = {cores}: leave MSFQ out or give more cores"
        );
    }
    let needs = s.classes.len();
    let what = if s.trace.is_some() { "this log has" } else { "these classes have" };
    let needs = if needs == 1 { "1 need".to_string() } else { format!("{needs} different needs") };
    format!(
        "MSFQ needs one-or-all classes, needs 1 and k = {cores} only; {what} {needs}: leave MSFQ out or use \
         Static QS or Adaptive QS, which take any classes"
    )
}

#[derive(Debug, Clone)]
pub struct Msfq {
    phases: PhaseMachine,
    /// MSFQ-C: phase 4 lets small jobs in (outside the paper's analysis).
    open_phase4: bool,
}

impl Msfq {
    /// `open_phase4`: the MSFQ-C option of RES-39 (small jobs may start in phase 4 while no
    /// large job waits).
    pub fn new(threshold: u32, open_phase4: bool) -> Self {
        let admission = if open_phase4 { Admission::AdmitOpenPhase4 } else { Admission::Admit };
        Self { phases: PhaseMachine::new(threshold, admission), open_phase4 }
    }
}

impl MsfqPolicy for Msfq {
    fn admit(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError> {
        self.phases.step(ctx)
    }

    fn on_start(&mut self, ctx: &mut MsfqContext<'_>) {
        ctx.observe(MsfqObservation::Status(Status::Idle));
    }

    fn analysed_threshold(&self) -> Option<u32> {
        (!self.open_phase4).then(|| self.phases.threshold())
    }
}
