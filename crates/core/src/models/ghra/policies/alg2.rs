//! Algorithm 2 (GH-RA §3.2.2, SPEC 3.2.2): per-server queues, join-the-shortest-queue (or
//! power-of-two) routing, one Poisson clock per server and type, dummy jobs.
//!
//! An arriving type-j job joins the shortest type-j queue among the servers that could hold
//! it when empty (RES-17; ties at random, RES-18, or with `ties=lowest` the lowest-numbered,
//! RES-70), or the shorter of two sampled ones
//! (Remark 1). Clock (ℓ, j) ticks at rate exp(f(Q_j^ℓ)); at a tick, if a type-j job fits
//! server ℓ (real and dummy jobs counted), the head of Q_j^ℓ starts there, or a dummy when the
//! queue is empty. Servers that can never hold type j keep no such queue and no clock.

use super::routing::{Router, Routing};
use super::weight::{F, Weight};
use crate::EngineError;
use crate::decisions::short;
use crate::models::ghra::{Ghra, GhraContext, GhraDecision, GhraEvent, GhraPolicy, QueueRef, Source, boxed};
use crate::model::policy::{Param, Policy};

/// How JSQ breaks ties: the paper's uniform draw, or the lowest-numbered server, a rule a
/// script can reproduce decision for decision (the GH-RA exercise, RES-70).
const TIES: Param = Param::choice(
    "ties",
    &["random", "lowest"],
    "which of the tied shortest queues a job joins: random (uniform, the paper's; default) or lowest (the lowest-numbered server)",
)
.symbol("ties");

pub const POLICY: Policy<Ghra> = Policy::new(
    "alg2-jsq",
    "Alg. 2 (JSQ)",
    "join the shortest queue at a server; each server's type-j clock starts the head job or a dummy (GH-RA Alg. 2)",
    |spec, _| {
        let routing = if spec.is("ties", "lowest") { Routing::JsqLowest } else { Routing::Jsq };
        boxed(Alg2::new(Weight::of(spec), routing))
    },
)
.params(&[F, TIES]);

#[derive(Debug, Clone)]
pub struct Alg2 {
    weight: Weight,
    routing: Routing,
    /// Built at `Begin`, when the servers are known.
    router: Option<Router>,
}

impl Alg2 {
    pub fn new(weight: Weight, routing: Routing) -> Self {
        Self { weight, routing, router: None }
    }

    /// The router, once built (at `Begin`): a scripted routing reads it and records its
    /// choices in it, so Algorithm 2's starts keep it current.
    pub fn router(&self) -> Option<&Router> {
        self.router.as_ref()
    }

    pub fn router_mut(&mut self) -> Option<&mut Router> {
        self.router.as_mut()
    }

    fn arm(&self, ctx: &mut GhraContext<'_>, queue: QueueRef) {
        ctx.set_clock(queue, self.weight.rate(ctx.state().queue_len(queue)));
    }
}

impl GhraPolicy for Alg2 {
    fn distributed(&self) -> bool {
        true
    }

    fn route(&mut self, job_type: usize, ctx: &mut GhraContext<'_>) -> Result<u32, EngineError> {
        // The router is built at Begin, before any arrival.
        let router = self.router.as_mut().ok_or(EngineError::Unrouted { job_type: job_type as u16 })?;
        let mut why = ctx.explaining().then(String::new);
        let server = router.route(job_type, ctx.rng(), why.as_mut());
        if let Some(why) = why {
            ctx.note("routing", why);
        }
        Ok(server)
    }

    fn on_event(&mut self, event: GhraEvent, ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        match event {
            GhraEvent::Begin => {
                let router = Router::new(self.routing, ctx.state());
                for j in 0..ctx.state().types() {
                    for &server in router.eligible(j) {
                        self.arm(ctx, QueueRef::Local { server, job_type: j as u16 });
                    }
                }
                self.router = Some(router);
            }
            GhraEvent::Arrival { queue } => self.arm(ctx, queue),
            GhraEvent::Tick { queue, server } => {
                // The engine passes on the ticks that find room on their server; one that does
                // not would do nothing (the paper's "Else").
                let j = queue.job_type();
                let q = ctx.state().queue_len(queue);
                if ctx.explaining() {
                    let rate = ctx.clock_rate(queue);
                    ctx.note("clock of this queue: Q, rate exp(f(Q))", format!("Q = {q}, rate {}", short(rate)));
                }
                if q > 0 {
                    let why = "its queue's clock ticked and the job fits";
                    ctx.apply(GhraDecision::Start { server, job_type: j, source: Source::Local, why })?;
                    self.router.as_mut().expect("built at Begin").left(j, server);
                    self.arm(ctx, queue);
                } else {
                    let why = "its queue's clock ticked while empty: a dummy";
                    ctx.apply(GhraDecision::Start { server, job_type: j, source: Source::Dummy, why })?;
                }
            }
            GhraEvent::Departure { .. } => {}
        }
        Ok(())
    }

    /// The router takes the servers that take jobs now; an added server's clocks start (its
    /// queues are empty: dummies at rate exp(f(0))), a removed one's run on at the rate of its
    /// emptied queues but never act (it has no room, RES-97).
    fn on_servers(&mut self, old: usize, ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        let router = Router::new(self.routing, ctx.state());
        let (active, types) = (ctx.state().active(), ctx.state().types());
        for l in (old.min(active)..old.max(active)).map(|l| l as u32) {
            for j in 0..types {
                let queue = QueueRef::Local { server: l, job_type: j as u16 };
                // A removed server's capacity is what its jobs hold: its clocks are the ones armed.
                let kept = match (l as usize) < active {
                    true => ctx.state().fits_empty(j, l as usize),
                    false => ctx.clock_rate(queue) > 0.0,
                };
                if kept {
                    self.arm(ctx, queue);
                }
            }
        }
        self.router = Some(router);
        Ok(())
    }
}
