//! Script: the user's own rule, written in rhai (see `docs/scripts.md`).
//!
//! Not a policy of the paper: every slot, after departures and arrivals (PG-RR §2, SPEC 1.1),
//! the script's `fn schedule(ctx)` starts jobs through the same checks as any policy
//! ([`crate::models::pgrr::script`] lists what `ctx` offers).

use crate::EngineError;
use crate::model::policy::{Policy, PolicySpec};
#[cfg(feature = "script")]
use crate::models::pgrr::script::{Contexts, Ctx, Queues, SCRIPTING, register};
use crate::models::pgrr::{PgrrContext, PgrrPolicy, PgrrScenario, Pgrr, boxed};
use crate::script;
#[cfg(feature = "script")]
use crate::script::decider::{self, Decider};
#[cfg(feature = "script")]
use crate::script::lease::Lease;
#[cfg(feature = "script")]
use crate::models::pgrr::CAPACITY_UNITS;
#[cfg(feature = "script")]
use crate::models::pgrr::partition::Partition;
#[cfg(feature = "script")]
use std::rc::Rc;
use crate::ConfigError;

pub const POLICY: Policy<Pgrr> = Policy::new(
    script::NAME,
    script::LABEL,
    "your own rule, a script that starts jobs each slot (docs/scripts.md)",
    |spec, scenario: &PgrrScenario| boxed(Scripted::build(spec, scenario.j)?),
)
.params(script::PARAMS)
.shared();

/// What decides: a rhai script (clones, the timeline's checkpoints, share the script and carry
/// the run's spending) or a host program's policy object.
#[cfg(feature = "script")]
#[derive(Clone)]
pub struct Scripted {
    decider: Box<dyn Decider<Ctx>>,
    /// VQS's partition by the scenario's J, for `ctx`'s virtual-queue members.
    queues: Rc<Queues>,
    /// Whether jobs of size at most 2^-J occupy 2^-J, as under VQS (RES-6): what the policy
    /// declares of `small jobs` (`round`; `real`, the default, keeps their size).
    round_small: bool,
}

#[cfg(feature = "script")]
impl std::fmt::Debug for Scripted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Scripted")
    }
}

#[cfg(feature = "script")]
impl Scripted {
    /// The spec's host policy or script, or the first starting point, on a scenario whose
    /// partition depth is `j`.
    pub fn build(spec: &PolicySpec, j: u8) -> Result<Self, ConfigError> {
        let decider = decider::of_spec(spec, &SCRIPTING, register)?;
        let round_small = match decider.declared(SMALL_JOBS).as_deref() {
            None | Some("real") => false,
            Some("round") => true,
            Some(other) => {
                return Err(spec.error(format!(
                    "the policy declares `{SMALL_JOBS}: {other}`; it may declare round (VQS's 2^-J) or real"
                )));
            }
        };
        let queues = Rc::new(Queues::new(Partition::new(j, CAPACITY_UNITS)));
        Ok(Self { decider, queues, round_small })
    }
}

/// What a policy declares (a script's `// small jobs: round`, a Python policy's `small_jobs`
/// attribute) to have jobs of size at most 2^-J occupy 2^-J, as VQS's do.
#[cfg(feature = "script")]
const SMALL_JOBS: &str = "small jobs";

#[cfg(feature = "script")]
impl PgrrPolicy for Scripted {
    fn schedule(&mut self, ctx: &mut PgrrContext<'_>) -> Result<(), EngineError> {
        let queues = &self.queues;
        Lease::<Contexts>::lend(ctx, |lease| self.decider.decide(Ctx { lease: lease.clone(), queues: Rc::clone(queues) }))
            .map_err(|e| EngineError::Script { message: e.to_string() })
    }

    fn occupies(&self, size: u64) -> u64 {
        if self.round_small { self.queues.partition.rounded(size) } else { size }
    }
}

/// Without the script engine no scripted lane is ever built ([`crate::script::AVAILABLE`]).
#[cfg(not(feature = "script"))]
#[derive(Debug, Clone)]
pub enum Scripted {}

#[cfg(not(feature = "script"))]
impl Scripted {
    pub fn build(spec: &PolicySpec, _j: u8) -> Result<Self, ConfigError> {
        Err(script::refused(spec))
    }
}

#[cfg(not(feature = "script"))]
impl PgrrPolicy for Scripted {
    fn schedule(&mut self, _: &mut PgrrContext<'_>) -> Result<(), EngineError> {
        match *self {}
    }
}
