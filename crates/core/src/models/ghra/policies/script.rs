//! Script: the user's own routing, written in rhai (see `docs/scripts.md`).
//!
//! Not a policy of the paper: Algorithm 2 (GH-RA §3.2.2, SPEC 3.2.2) with the routing of
//! each arriving job to a server's own queue decided by the script's `fn schedule(ctx)`
//! instead of JSQ or power of two; the clocks, dummies and starts are Algorithm 2's
//! ([`crate::models::ghra::script`] lists what `ctx` offers and why routing is what a script
//! owns).

#[cfg(feature = "script")]
use std::rc::Rc;

#[cfg(feature = "script")]
use rhai::Dynamic;

#[cfg(feature = "script")]
use super::alg2::Alg2;
#[cfg(feature = "script")]
use super::routing::Routing;
use super::weight::F;
#[cfg(feature = "script")]
use super::weight::Weight;
use crate::model::policy::{Param, Policy, PolicySpec};
#[cfg(feature = "script")]
use crate::models::ghra::script::{Arrival, Arrivals, Contexts, Ctx, SCRIPTING, register};
use crate::models::ghra::{Ghra, GhraContext, GhraEvent, GhraPolicy, boxed};
#[cfg(feature = "script")]
use crate::script::lease::Lease;
use crate::script;
#[cfg(feature = "script")]
use crate::script::{Program, RunBudget};
use crate::{ConfigError, EngineError};

/// The script, and Algorithm 2's weight function.
const PARAMS: &[Param] = &[script::PARAMS[0], F];

pub const POLICY: Policy<Ghra> = Policy::new(
    script::NAME,
    script::LABEL,
    "your own routing, a script that picks the server queue each arriving job joins; Algorithm 2's clocks start it (docs/scripts.md)",
    |spec, _| boxed(Scripted::build(spec)?),
)
.params(PARAMS)
.shared();

/// A compiled script and Algorithm 2's clocks; clones (the timeline's checkpoints) share the
/// script.
#[cfg(feature = "script")]
#[derive(Debug, Clone)]
pub struct Scripted {
    /// Algorithm 2, whose router only keeps the queue lengths (the script routes).
    clocks: Alg2,
    program: Rc<Program>,
    /// What this run has spent of the script's budget.
    run: RunBudget,
}

#[cfg(feature = "script")]
impl Scripted {
    /// The spec's script, or the first starting point.
    pub fn build(spec: &PolicySpec) -> Result<Self, ConfigError> {
        // The spec's script, or the model's first starting point: what the editor shows too.
        let source = SCRIPTING.source_of(spec).map_err(|m| spec.error(m))?;
        let program = Rc::new(Program::compile(&source, register)?);
        Ok(Self { clocks: Alg2::new(Weight::of(spec), Routing::Jsq), program, run: RunBudget::default() })
    }
}

#[cfg(feature = "script")]
impl GhraPolicy for Scripted {
    fn distributed(&self) -> bool {
        true
    }

    fn route(&mut self, job_type: usize, ctx: &mut GhraContext<'_>) -> Result<u32, EngineError> {
        let unrouted = EngineError::Unrouted { job_type: job_type as u16 };
        let router = self.clocks.router().ok_or(unrouted)?;
        let mut arrival = Arrival { router, job_type, chosen: None };
        let (program, run) = (&self.program, &mut self.run);
        Lease::<Arrivals>::lend(&mut arrival, |a| {
            Lease::<Contexts>::lend(ctx, |x| program.call(Dynamic::from(Ctx { engine: x.clone(), arrival: a.clone() }), run))
        })
        .map_err(|e| EngineError::Script { message: e.to_string() })?;
        let server = arrival.chosen.ok_or_else(|| EngineError::Script {
            message: script::ScriptError::at(
                program.entry_line(),
                "`fn schedule(ctx)` returned without routing the arriving job (call `ctx.route(server)`)",
            )
            .to_string(),
        })?;
        self.clocks.router_mut().expect("built at Begin").joined(job_type, server);
        Ok(server)
    }

    fn on_event(&mut self, event: GhraEvent, ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        self.clocks.on_event(event, ctx)
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
impl GhraPolicy for Scripted {
    fn distributed(&self) -> bool {
        match *self {}
    }

    fn route(&mut self, _: usize, _: &mut GhraContext<'_>) -> Result<u32, EngineError> {
        match *self {}
    }

    fn on_event(&mut self, _: GhraEvent, _: &mut GhraContext<'_>) -> Result<(), EngineError> {
        match *self {}
    }
}
