//! LOSS(L, J, w), GH-RA's imaginary loss system (§IV, Lemma 1; SPEC 3.2.3): a test model,
//! not a scheduling policy.
//!
//! Type-j jobs arrive at the constant rate exp(w_j); each picks one of the L servers uniformly
//! at random and is kept if it fits, dropped otherwise; service is Exp(μ_j). It is Algorithm 1
//! with frozen weights and nothing in the queues, so every start is a dummy. Its configuration
//! has the product-form law of [`crate::models::ghra::theory::loss_marginal`], which the engine tests
//! check to validate the Poisson clocks, the random server choice and the fit test at once.

use crate::EngineError;
use crate::models::ghra::{GhraContext, GhraDecision, GhraEvent, GhraPolicy, QueueRef, Source};

#[derive(Debug, Clone)]
pub struct LossSystem {
    /// exp(w_j), the arrival rate of each type.
    rates: Vec<f64>,
}

impl LossSystem {
    pub fn new(rates: Vec<f64>) -> Self {
        Self { rates }
    }

    fn arm(&self, ctx: &mut GhraContext<'_>, job_type: usize) {
        ctx.set_clock(QueueRef::Central { job_type: job_type as u16 }, self.rates[job_type]);
    }
}

impl GhraPolicy for LossSystem {
    fn on_event(&mut self, event: GhraEvent, ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        match event {
            GhraEvent::Begin => (0..self.rates.len()).for_each(|j| self.arm(ctx, j)),
            GhraEvent::Tick { queue, server } => {
                // Arrivals that find their random server full are lost: the engine does not
                // pass them on.
                let why = "a LOSS arrival that fits its random server";
                ctx.apply(GhraDecision::Start { server, job_type: queue.job_type(), source: Source::Dummy, why })?;
            }
            GhraEvent::Arrival { .. } | GhraEvent::Departure { .. } => {}
        }
        Ok(())
    }
}
