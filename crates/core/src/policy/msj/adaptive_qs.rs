//! Adaptive Quickswap (MSFQ paper §5, SPEC 5.2.6): fill like MSF; when some class waits
//! with nothing in service while every class in service has an empty queue, stop filling
//! and let only the largest waiting job in, as soon as it fits.
//!
//! RES-43: the draining target is recomputed at every event by default (a larger arrival
//! becomes the target); `frozen` keeps the target chosen when the trigger fired.

use super::fill_most_servers_first;
use crate::EngineError;
use crate::engine::msj::{MsjContext, MsjPolicy, MsjState};

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
    pub fn trigger(st: &MsjState) -> bool {
        let starved = (0..st.classes()).any(|c| st.waiting(c) > 0 && st.in_service(c) == 0);
        let served_are_empty = (0..st.classes()).all(|c| st.in_service(c) == 0 || st.waiting(c) == 0);
        starved && served_are_empty
    }

    /// The class of the waiting job with the largest need (its oldest job: ties by arrival).
    fn largest_waiting(st: &MsjState) -> Option<usize> {
        (0..st.classes()).rev().find(|&c| st.waiting(c) > 0)
    }
}

impl MsjPolicy for AdaptiveQs {
    fn admit(&mut self, ctx: &mut MsjContext<'_>) -> Result<(), EngineError> {
        loop {
            match self.mode {
                Mode::Working => {
                    fill_most_servers_first(ctx, "Adaptive Quickswap: MSF fill, the largest job that fits")?;
                    if Self::trigger(ctx.state()) {
                        let target = Self::largest_waiting(ctx.state()).expect("the trigger needs a waiting job");
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
                    ctx.start(target, "Adaptive Quickswap: draining until the largest waiting job fits")?;
                    self.mode = Mode::Working;
                }
            }
        }
    }

    fn status(&self) -> Option<String> {
        Some(match self.mode {
            Mode::Working => "filling (MSF)".into(),
            Mode::Draining { target } => format!("draining for need {}", self.needs[target]),
        })
    }
}
