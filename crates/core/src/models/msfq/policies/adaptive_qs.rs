//! Adaptive Quickswap (MSFQ paper §5, SPEC 5.2.6): fill like MSF; when some class waits
//! with nothing in service while every class in service has an empty queue, stop filling
//! and let only the largest waiting job in, as soon as it fits.
//!
//! RES-43: the draining target is recomputed at every event by default (a larger arrival
//! becomes the target); `frozen` keeps the target chosen when the trigger fired.

use super::fill_most_servers_first;
use crate::EngineError;
use crate::models::msfq::{
    Msfq, MsfqContext, MsfqDecision, MsfqObservation, MsfqPolicy, MsfqScenario, MsfqState, Status, boxed,
};
use crate::model::policy::{Param, Policy};

pub const POLICY: Policy<Msfq> = Policy::new(
    "adaptive-qs",
    "Adaptive QS",
    "MSF fill; when a class starves while served classes are empty, drain for the largest job (MSFQ §5)",
    |spec, s: &MsfqScenario| {
        boxed(AdaptiveQs::new(spec.is("target", "frozen"), s.classes.as_slice().iter().map(|c| c.need).collect()))
    },
)
.params(&[Param::choice(
    "target",
    &["recompute", "frozen"],
    "draining target recomputed at each event, or frozen when the trigger fires (default recompute)",
)]);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Working,
    /// Waiting for the target class's oldest job to fit.
    Draining {
        target: usize,
    },
}

#[derive(Debug, Clone)]
pub struct AdaptiveQs {
    mode: Mode,
    frozen: bool,
    needs: Vec<u32>,
}

impl AdaptiveQs {
    pub fn new(frozen: bool, needs: Vec<u32>) -> Self {
        Self { mode: Mode::Working, frozen, needs }
    }

    /// Some class waits with none of its jobs in service, and every class in service has no
    /// job waiting.
    pub fn trigger(st: &MsfqState) -> bool {
        let starved = (0..st.classes()).any(|c| st.waiting(c) > 0 && st.in_service(c) == 0);
        let served_are_empty = (0..st.classes()).all(|c| st.in_service(c) == 0 || st.waiting(c) == 0);
        starved && served_are_empty
    }

    /// The class of the waiting job with the largest need (its oldest job: ties by arrival).
    fn largest_waiting(st: &MsfqState) -> Option<usize> {
        (0..st.classes()).rev().find(|&c| st.waiting(c) > 0)
    }
}

impl MsfqPolicy for AdaptiveQs {
    fn admit(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError> {
        let before = self.mode;
        let result = self.step(ctx);
        if self.mode != before {
            self.report(ctx);
        }
        result
    }

    fn on_start(&mut self, ctx: &mut MsfqContext<'_>) {
        self.report(ctx);
    }
}

impl AdaptiveQs {
    fn step(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError> {
        loop {
            match self.mode {
                Mode::Working => {
                    fill_most_servers_first(ctx, "Adaptive Quickswap: MSF fill, the largest job that fits")?;
                    // The trigger needs a waiting job, so there is a largest one.
                    if Self::trigger(ctx.state())
                        && let Some(target) = Self::largest_waiting(ctx.state())
                    {
                        self.mode = Mode::Draining { target };
                        continue;
                    }
                    return Ok(());
                }
                Mode::Draining { target } => {
                    let target = if self.frozen { Some(target) } else { Self::largest_waiting(ctx.state()) };
                    let Some(target) = target.filter(|&c| ctx.state().waiting(c) > 0) else {
                        self.mode = Mode::Working;
                        continue;
                    };
                    self.mode = Mode::Draining { target };
                    if ctx.state().need(target) > ctx.state().free() {
                        return Ok(());
                    }
                    let why = "Adaptive Quickswap: draining until the largest waiting job fits";
                    ctx.apply(MsfqDecision::Start { class: target, why })?;
                    self.mode = Mode::Working;
                }
            }
        }
    }

    /// Tells the page whether it fills or drains, and for which need.
    fn report(&self, ctx: &mut MsfqContext<'_>) {
        let status = match self.mode {
            Mode::Working => Status::Filling,
            Mode::Draining { target } => Status::DrainingFor { need: self.needs[target] },
        };
        ctx.observe(MsfqObservation::Status(status));
    }
}
