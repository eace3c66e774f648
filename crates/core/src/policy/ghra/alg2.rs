//! Algorithm 2 (GH-RA §3.2.2, SPEC 3.2.2): per-server queues, join-the-shortest-queue (or
//! power-of-two) routing, one Poisson clock per server and type, dummy jobs.
//!
//! An arriving type-j job joins the shortest type-j queue among the servers that could hold
//! it when empty (RES-17; ties at random, RES-18), or the shorter of two sampled ones
//! (Remark 1). Clock (ℓ, j) ticks at rate exp(f(Q_j^ℓ)); at a tick, if a type-j job fits
//! server ℓ (real and dummy jobs counted), the head of Q_j^ℓ starts there, or a dummy when the
//! queue is empty. Servers that can never hold type j keep no such queue and no clock.

use super::{Router, Routing, Weight};
use crate::EngineError;
use crate::engine::vm::{QueueRef, Source, VmContext, VmEvent, VmPolicy};

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

    fn arm(&self, ctx: &mut VmContext<'_>, queue: QueueRef) {
        ctx.set_clock(queue, self.weight.rate(ctx.state().queue_len(queue)));
    }
}

impl VmPolicy for Alg2 {
    fn distributed(&self) -> bool {
        true
    }

    fn route(&mut self, job_type: usize, ctx: &mut VmContext<'_>) -> u32 {
        let router = self.router.as_mut().expect("routing starts after Begin");
        router.route(job_type, ctx.rng())
    }

    fn on_event(&mut self, event: VmEvent, ctx: &mut VmContext<'_>) -> Result<(), EngineError> {
        match event {
            VmEvent::Begin => {
                let router = Router::new(self.routing, ctx.state());
                for j in 0..ctx.state().types() {
                    for &server in router.eligible(j) {
                        self.arm(ctx, QueueRef::Local { server, job_type: j as u16 });
                    }
                }
                self.router = Some(router);
            }
            VmEvent::Arrival { queue } => self.arm(ctx, queue),
            VmEvent::Tick { queue } => {
                let QueueRef::Local { server, .. } = queue else { unreachable!("Algorithm 2 arms local clocks only") };
                let j = queue.job_type();
                if ctx.state().fits(j, server as usize) {
                    if ctx.state().queue_len(queue) > 0 {
                        ctx.start(server, j, Source::Local, "its queue's clock ticked and the job fits")?;
                        self.router.as_mut().expect("built at Begin").left(j, server);
                    } else {
                        ctx.start(server, j, Source::Dummy, "its queue's clock ticked while empty: a dummy")?;
                    }
                }
                self.arm(ctx, queue);
            }
            VmEvent::Departure { .. } => {}
        }
        Ok(())
    }
}
