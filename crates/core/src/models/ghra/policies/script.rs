//! Script: the user's own routing, written in rhai (see `docs/scripts.md`).
//!
//! Not a policy of the paper: Algorithm 2 (GH-RA §3.2.2, SPEC 3.2.2) with the routing of
//! each arriving job to a server's own queue decided by the script's `fn schedule(ctx)`
//! instead of JSQ or power of two; the clocks, dummies and starts are Algorithm 2's
//! ([`crate::models::ghra::script`] lists what `ctx` offers and why routing is what a script
//! owns).

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
use crate::script;
#[cfg(feature = "script")]
use crate::script::decider::{self, Decider};
#[cfg(feature = "script")]
use crate::script::lease::Lease;
use crate::{ConfigError, EngineError};

/// The script, and Algorithm 2's weight function.
const PARAMS: &[Param] = &[script::PARAMS[0], script::PARAMS[1], F];

pub const POLICY: Policy<Ghra> = Policy::new(
    script::NAME,
    script::LABEL,
    "your own routing, a script that picks the server queue each arriving job joins; Algorithm 2's clocks start it (docs/scripts.md)",
    |spec, _| boxed(Scripted::build(spec)?),
)
.params(PARAMS)
.shared();

/// What routes (a rhai script, whose clones, the timeline's checkpoints, share the script and
/// carry the run's spending, or a host program's policy object) and Algorithm 2's clocks.
#[cfg(feature = "script")]
#[derive(Clone)]
pub struct Scripted {
    /// Algorithm 2, whose router only keeps the queue lengths (the script routes).
    clocks: Alg2,
    decider: Box<dyn Decider<Ctx>>,
}

#[cfg(feature = "script")]
impl std::fmt::Debug for Scripted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scripted").field("clocks", &self.clocks).finish_non_exhaustive()
    }
}

#[cfg(feature = "script")]
impl Scripted {
    /// The spec's script, or the first starting point.
    pub fn build(spec: &PolicySpec) -> Result<Self, ConfigError> {
        let decider = decider::of_spec(spec, &SCRIPTING, register)?;
        Ok(Self { clocks: Alg2::new(Weight::of(spec), Routing::Jsq), decider })
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
        let decider = &mut self.decider;
        Lease::<Arrivals>::lend(&mut arrival, |a| {
            Lease::<Contexts>::lend(ctx, |x| decider.decide(Ctx { engine: x.clone(), arrival: a.clone() }))
        })
        .map_err(|e| EngineError::Script { message: e.to_string() })?;
        let server = arrival.chosen.ok_or_else(|| {
            let (entry, line) = decider.entry();
            let message = format!("{entry} returned without routing the arriving job (call `ctx.route(server)`)");
            EngineError::Script { message: script::ScriptError::at(line, message).to_string() }
        })?;
        self.clocks.router_mut().expect("built at Begin").joined(job_type, server);
        Ok(server)
    }

    fn on_event(&mut self, event: GhraEvent, ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        self.clocks.on_event(event, ctx)
    }

    fn on_servers(&mut self, old: usize, ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        self.clocks.on_servers(old, ctx)
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
