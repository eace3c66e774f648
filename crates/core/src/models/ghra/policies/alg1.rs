//! Algorithm 1 (GH-RA §3.2.1, SPEC 3.2.1): central queues, one Poisson clock per VM type,
//! a uniformly random server per tick, dummy jobs.
//!
//! Queue j's clock ticks at rate exp(f(Q_j)). At a tick a server is drawn uniformly at random
//! from all L; if one more type-j job fits it (real and dummy jobs counted), the head of Q_j
//! starts there, or a dummy type-j job when Q_j is empty. No optimisation, no refresh times,
//! no preemption: the dummies keep the occupancy of each server moving like the product-form
//! loss system of Lemma 1, whose weights are the queue lengths. An arriving job never starts
//! at once; it waits for a tick. The clock is re-armed whenever Q_j changes (RES-50). The
//! engine simulates only the ticks that find room (a tick on a server that cannot take the
//! job does nothing), drawing their server uniformly among those that can: the same law
//! (`ticks.rs`).

use super::weight::{F, Weight};
use crate::EngineError;
use crate::decisions::short;
use crate::models::ghra::{Ghra, GhraContext, GhraDecision, GhraEvent, GhraPolicy, QueueRef, Source, boxed};
use crate::model::policy::Policy;

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
            GhraEvent::Tick { queue, server } => {
                // The engine passes on the ticks that find room on their uniformly drawn
                // server; one that does not would do nothing (the paper's "Else").
                let j = queue.job_type();
                let q = ctx.state().queue_len(queue);
                if ctx.explaining() {
                    let rate = ctx.clock_rate(queue);
                    ctx.note("clock of its type: Q, rate exp(f(Q))", format!("Q = {q}, rate {}", short(rate)));
                    let servers = ctx.state().servers();
                    let room = ctx.servers_with_room(j).map_or(String::new(), |n| format!(", one of the {n} it fits"));
                    ctx.note("server drawn uniformly", format!("server {} of {servers}{room}", server + 1));
                }
                if q > 0 {
                    let why = "its type's clock ticked, this random server fits it";
                    ctx.apply(GhraDecision::Start { server, job_type: j, source: Source::Central, why })?;
                    self.arm(ctx, j);
                } else {
                    let why = "its type's clock ticked with an empty queue: a dummy";
                    ctx.apply(GhraDecision::Start { server, job_type: j, source: Source::Dummy, why })?;
                }
            }
            GhraEvent::Departure { .. } => {}
        }
        Ok(())
    }
}
