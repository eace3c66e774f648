//! Script: the user's own rule, written in rhai (see `docs/scripts.md`).
//!
//! Not a policy of the paper: every slot, after departures and arrivals (PG-RR §2, SPEC 1.1),
//! the script's `fn schedule(ctx)` starts jobs through the same checks as any policy
//! ([`crate::models::pgrr::script`] lists what `ctx` offers).

use std::rc::Rc;

use crate::EngineError;
use crate::model::policy::{Policy, PolicySpec};
use crate::models::pgrr::script::{Contexts, Ctx, SCRIPTING, register};
use crate::models::pgrr::{PgrrContext, PgrrPolicy, Pgrr, boxed};
use crate::script::lease::Lease;
use crate::script::{self, Program, RunBudget};
use crate::ConfigError;

pub const POLICY: Policy<Pgrr> = Policy::new(
    script::NAME,
    script::LABEL,
    "your own rule, a script that starts jobs each slot (docs/scripts.md)",
    |spec, _| boxed(Scripted::build(spec)?),
)
.params(script::PARAMS)
.shared();

/// A compiled script, and what this run has spent of its budget; clones (the timeline's
/// checkpoints) share the script and carry the spending.
#[derive(Debug, Clone)]
pub struct Scripted {
    program: Rc<Program>,
    run: RunBudget,
}

impl Scripted {
    /// The spec's script, or the first starting point.
    pub fn build(spec: &PolicySpec) -> Result<Self, ConfigError> {
        // The spec's script, or the model's first starting point: what the editor shows too.
        let source = SCRIPTING.source_of(spec).map_err(|m| spec.error(m))?;
        Ok(Self { program: Rc::new(Program::compile(&source, register)?), run: RunBudget::default() })
    }
}

impl PgrrPolicy for Scripted {
    fn schedule(&mut self, ctx: &mut PgrrContext<'_>) -> Result<(), EngineError> {
        Lease::<Contexts>::lend(ctx, |lease| self.program.call(rhai::Dynamic::from(Ctx(lease.clone())), &mut self.run))
            .map_err(|e| EngineError::Script { message: e.to_string() })
    }
}
