//! Script: the user's own admission routine, written in rhai (see `docs/scripts.md`).
//!
//! Not a policy of the paper: after every arrival and completion (RES-55, MSFQ §2's model,
//! SPEC 5.1) the script's `fn schedule(ctx)` starts jobs by class through the same checks as
//! any policy ([`crate::models::msfq::script`] lists what `ctx` offers).

use crate::model::policy::{Policy, PolicySpec};
#[cfg(feature = "script")]
use crate::models::msfq::script::{Contexts, Ctx, SCRIPTING, register};
use crate::models::msfq::{Msfq, MsfqContext, MsfqPolicy, boxed};
use crate::script;
#[cfg(feature = "script")]
use crate::script::decider::{self, Decider};
#[cfg(feature = "script")]
use crate::script::lease::Lease;
use crate::{ConfigError, EngineError};

pub const POLICY: Policy<Msfq> = Policy::new(
    script::NAME,
    script::LABEL,
    "your own rule, a script that starts jobs after each arrival and completion (docs/scripts.md)",
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
impl MsfqPolicy for Scripted {
    fn admit(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError> {
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
impl MsfqPolicy for Scripted {
    fn admit(&mut self, _: &mut MsfqContext<'_>) -> Result<(), EngineError> {
        match *self {}
    }
}
