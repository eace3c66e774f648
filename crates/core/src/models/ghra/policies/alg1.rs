//! Algorithm 1 (GH-RA §3.2.1, SPEC 3.2.1): central queues, one Poisson clock per VM type,
//! a uniformly random server per tick, dummy jobs.
//!
//! Queue j's clock ticks at rate exp(f(Q_j)). At a tick a server is drawn uniformly at random
//! from all L; if one more type-j job fits it (real and dummy jobs counted), the head of Q_j
//! starts there, or a dummy type-j job when Q_j is empty. No optimisation, no refresh times,
//! no preemption: the dummies keep the occupancy of each server moving like the product-form
//! loss system of Lemma 1, whose weights are the queue lengths. An arriving job never starts
//! at once; it waits for a tick. The clock is re-armed whenever Q_j changes (RES-50).

use super::weight::{F, Weight};
use crate::EngineError;
use crate::decisions::short;
use crate::models::ghra::{Ghra, GhraContext, GhraDecision, GhraEvent, GhraPolicy, QueueRef, Source, boxed};
use crate::model::policy::Policy;
use crate::workload::sample;

pub const POLICY: Policy<Ghra> = Policy::new(
    "alg1",
    "Alg. 1",
    "central queues; type j's Poisson clock (rate exp(f(Q_j))) tries a random server: head job or a dummy (GH-RA Alg. 1)",
    |spec, _| boxed(Alg1::new(Weight::of(spec))),
)
.params(&[F]);

#[derive(Debug, Clone)]
pub struct Alg1 {
    weight: Weight,
}

impl Alg1 {
    pub fn new(weight: Weight) -> Self {
        Self { weight }
    }

    fn arm(&self, ctx: &mut GhraContext<'_>, job_type: usize) {
        let queue = QueueRef::Central { job_type: job_type as u16 };
        ctx.set_clock(queue, self.weight.rate(ctx.state().queue_len(queue)));
    }
}

impl GhraPolicy for Alg1 {
    fn on_event(&mut self, event: GhraEvent, ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        match event {
            GhraEvent::Begin => (0..ctx.state().types()).for_each(|j| self.arm(ctx, j)),
            GhraEvent::Arrival { queue } => self.arm(ctx, queue.job_type()),
            GhraEvent::Tick { queue } => {
                let j = queue.job_type();
                let servers = ctx.state().servers() as u64;
                let server = sample::uniform_int(ctx.rng(), 0, servers - 1) as u32;
                if ctx.explaining() {
                    let (q, rate) = (ctx.state().queue_len(queue), ctx.clock_rate(queue));
                    ctx.note("clock of its type: Q, rate exp(f(Q))", format!("Q = {q}, rate {}", short(rate)));
                    ctx.note("server drawn uniformly", format!("server {} of {servers}", server + 1));
                }
                if ctx.state().fits(j, server as usize) {
                    if ctx.state().queue_len(queue) > 0 {
                        let why = "its type's clock ticked, this random server fits it";
                        ctx.apply(GhraDecision::Start { server, job_type: j, source: Source::Central, why })?;
                    } else {
                        let why = "its type's clock ticked with an empty queue: a dummy";
                        ctx.apply(GhraDecision::Start { server, job_type: j, source: Source::Dummy, why })?;
                    }
                }
                self.arm(ctx, j);
            }
            GhraEvent::Departure { .. } => {}
        }
        Ok(())
    }
}
