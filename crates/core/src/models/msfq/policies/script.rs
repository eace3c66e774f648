//! Script: the user's own admission routine, written in rhai (see `docs/scripts.md`).
//!
//! Not a policy of the paper: after every arrival and completion (RES-55, MSFQ §2's model,
//! SPEC 5.1) the script's `fn schedule(ctx)` starts jobs by class through the same checks as
//! any policy ([`crate::models::msfq::script`] lists what `ctx` offers).

#[cfg(feature = "script")]
use std::rc::Rc;

use crate::model::policy::{Policy, PolicySpec};
#[cfg(feature = "script")]
use crate::models::msfq::script::{Contexts, Ctx, SCRIPTING, register};
use crate::models::msfq::{Msfq, MsfqContext, MsfqPolicy, boxed};
#[cfg(feature = "script")]
use crate::script::lease::Lease;
use crate::script;
#[cfg(feature = "script")]
use crate::script::{Program, RunBudget};
use crate::{ConfigError, EngineError};

pub const POLICY: Policy<Msfq> = Policy::new(
    script::NAME,
    script::LABEL,
    "your own rule, a script that starts jobs after each arrival and completion (docs/scripts.md)",
    |spec, _| boxed(Scripted::build(spec)?),
)
.params(script::PARAMS)
.shared();

/// A compiled script, and what this run has spent of its budget; clones (the timeline's
/// checkpoints) share the script and carry the spending.
#[cfg(feature = "script")]
#[derive(Debug, Clone)]
pub struct Scripted {
    program: Rc<Program>,
    run: RunBudget,
}

#[cfg(feature = "script")]
impl Scripted {
    /// The spec's script, or the first starting point.
    pub fn build(spec: &PolicySpec) -> Result<Self, ConfigError> {
        // The spec's script, or the model's first starting point: what the editor shows too.
        let source = SCRIPTING.source_of(spec).map_err(|m| spec.error(m))?;
        Ok(Self { program: Rc::new(Program::compile(&source, register)?), run: RunBudget::default() })
    }
}

#[cfg(feature = "script")]
impl MsfqPolicy for Scripted {
    fn admit(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError> {
        Lease::<Contexts>::lend(ctx, |lease| self.program.call(rhai::Dynamic::from(Ctx(lease.clone())), &mut self.run))
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
