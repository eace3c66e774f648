//! Script: the user's own rule, written in rhai (see `docs/scripts.md`).
//!
//! Not a policy of the paper: every slot, after departures and arrivals (PG-RR §2, SPEC 1.1),
//! the script's `fn schedule(ctx)` starts jobs through the same checks as any policy
//! ([`crate::models::pgrr::script`] lists what `ctx` offers).

use crate::EngineError;
use crate::model::policy::{Policy, PolicySpec};
#[cfg(feature = "script")]
use crate::models::pgrr::script::{Contexts, Ctx, SCRIPTING, register};
use crate::models::pgrr::{PgrrContext, PgrrPolicy, Pgrr, boxed};
use crate::script;
#[cfg(feature = "script")]
use crate::script::decider::{self, Decider};
#[cfg(feature = "script")]
use crate::script::lease::Lease;
use crate::ConfigError;

pub const POLICY: Policy<Pgrr> = Policy::new(
    script::NAME,
    script::LABEL,
    "your own rule, a script that starts jobs each slot (docs/scripts.md)",
    |spec, _| boxed(Scripted::build(spec)?),
)
.params(script::PARAMS)
.shared();

/// What decides: a rhai script (clones, the timeline's checkpoints, share the script and carry
/// the run's spending) or a host program's policy object.
#[cfg(feature = "script")]
#[derive(Clone)]
pub struct Scripted {
    decider: Box<dyn Decider<Ctx>>,
}

#[cfg(feature = "script")]
impl std::fmt::Debug for Scripted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Scripted")
    }
}

#[cfg(feature = "script")]
impl Scripted {
    /// The spec's host policy or script, or the first starting point.
    pub fn build(spec: &PolicySpec) -> Result<Self, ConfigError> {
        Ok(Self { decider: decider::of_spec(spec, &SCRIPTING, register)? })
    }
}

#[cfg(feature = "script")]
impl PgrrPolicy for Scripted {
    fn schedule(&mut self, ctx: &mut PgrrContext<'_>) -> Result<(), EngineError> {
        Lease::<Contexts>::lend(ctx, |lease| self.decider.decide(Ctx(lease.clone())))
            .map_err(|e| EngineError::Script { message: e.to_string() })
    }
}

/// Without the script engine no scripted lane is ever built ([`crate::script::AVAILABLE`]).
#[cfg(not(feature = "script"))]
#[derive(Debug, Clone)]
pub enum Scripted {}

#[cfg(not(feature = "script"))]
impl Scripted {
    pub fn build(spec: &PolicySpec) -> Result<Self, ConfigError> {
        Err(script::refused(spec))
    }
}

#[cfg(not(feature = "script"))]
impl PgrrPolicy for Scripted {
    fn schedule(&mut self, _: &mut PgrrContext<'_>) -> Result<(), EngineError> {
        match *self {}
    }
}
