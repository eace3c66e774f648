//! MSF, Most Servers First (MSFQ paper §2, SPEC 5.2.3): waiting jobs in order of descending
//! server need (ties by arrival) start whenever they fit.
//!
//! In the one-or-all case MSF is MSFQ with ℓ = 0, so its phases (SPEC 5.4 H_1..H_4) are
//! recorded by a [`PhaseMachine`] that only observes: with ℓ = 0 the machine's own
//! admissions would be exactly MSF's.

use super::{Admission, PhaseMachine, fill_most_servers_first};
use crate::EngineError;
use crate::models::msfq::{Msfq, MsfqContext, MsfqObservation, MsfqPolicy, MsfqScenario, Status, boxed};
use crate::model::policy::Policy;

pub const POLICY: Policy<Msfq> = Policy::new(
    "msf",
    "MSF",
    "most servers first: the largest waiting job that fits starts (MSFQ §2)",
    |_, s: &MsfqScenario| boxed(Msf::new(s.classes.is_one_or_all(s.cores) && s.cores > 1)),
);

#[derive(Debug, Clone)]
pub struct Msf {
    phases: Option<PhaseMachine>,
}

impl Msf {
    /// `one_or_all`: the classes are {1, k}, so the phases are defined and recorded.
    pub fn new(one_or_all: bool) -> Self {
        Self { phases: one_or_all.then(|| PhaseMachine::new(0, Admission::Observe)) }
    }
}

impl MsfqPolicy for Msf {
    fn admit(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError> {
        fill_most_servers_first(ctx, "MSF: the largest waiting job that fits")?;
        if let Some(phases) = &mut self.phases {
            phases.step(ctx)?;
        }
        Ok(())
    }

    fn on_start(&mut self, ctx: &mut MsfqContext<'_>) {
        if self.phases.is_some() {
            ctx.observe(MsfqObservation::Status(Status::Idle));
        }
    }

    fn analysed_threshold(&self) -> Option<u32> {
        Some(0)
    }
}
