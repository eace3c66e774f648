//! MSFQ(ℓ), Most Servers First with Quickswap (MSFQ paper §3, SPEC 5.2.4), for the
//! one-or-all case: classes 1 ("small") and k ("large").
//!
//! Four phases: (1) large jobs one at a time until none is left; (2) small jobs, k at once,
//! while n_1 ≥ k; (3) small jobs while n_1 > ℓ; (4) admit nothing until the small jobs in
//! service finish (RES-38). Entering phase 3 admits the waiting small jobs first
//! (admit-on-entry, RES-39). ℓ = 0 is MSF; ℓ = k − 1 is the paper's choice.

use super::{Admission, PhaseMachine};
use crate::EngineError;
use crate::engine::msj::{MsjContext, MsjPolicy};

#[derive(Debug, Clone)]
pub struct Msfq {
    phases: PhaseMachine,
}

impl Msfq {
    /// `open_phase4`: the MSFQ-C option of RES-39 (small jobs may start in phase 4 while no
    /// large job waits).
    pub fn new(threshold: u32, open_phase4: bool) -> Self {
        let admission = if open_phase4 { Admission::AdmitOpenPhase4 } else { Admission::Admit };
        Self { phases: PhaseMachine::new(threshold, admission) }
    }
}

impl MsjPolicy for Msfq {
    fn admit(&mut self, ctx: &mut MsjContext<'_>) -> Result<(), EngineError> {
        self.phases.step(ctx)
    }

    fn status(&self) -> Option<String> {
        Some(self.phases.status())
    }
}
