//! Static Quickswap (MSFQ paper §5, SPEC 5.2.5): serve one class at a time in a fixed cycle.
//! While working on class i, keep up to ⌊k/i⌋ of its jobs running; once fewer than ℓ_i cores
//! are busy, stop admitting, let class i drain, and move on.
//!
//! ℓ counts servers, 1 ≤ ℓ ≤ k (default k, the analogue of MSFQ's ℓ = k − 1), and the
//! threshold of class i is ℓ_i = min(ℓ, i·⌊k/i⌋) so classes that do not divide k can fill
//! up (RES-42). The cycle defaults to descending need (RES-41). Stable whenever
//! Σ_j λ_j/(⌊k/j⌋μ_j) < 1 (Remark 1).

use crate::EngineError;
use crate::engine::msj::{MsjContext, MsjPolicy};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Working,
    Draining,
}

#[derive(Debug, Clone)]
pub struct StaticQs {
    /// Class indices in cycle order.
    cycle: Vec<usize>,
    threshold: u32,
    pointer: usize,
    mode: Mode,
    needs: Vec<u32>,
}

impl StaticQs {
    /// `cycle`: class indices in the order served; `threshold`: ℓ in servers.
    pub fn new(cycle: Vec<usize>, threshold: u32, needs: Vec<u32>) -> Self {
        Self { cycle, threshold, pointer: 0, mode: Mode::Working, needs }
    }
}

impl MsjPolicy for StaticQs {
    fn admit(&mut self, ctx: &mut MsjContext<'_>) -> Result<(), EngineError> {
        loop {
            let class = self.cycle[self.pointer];
            let st = ctx.state();
            let need = st.need(class);
            let per = st.cores() / need;
            match self.mode {
                Mode::Working => {
                    while ctx.state().in_service(class) < per && ctx.state().waiting(class) > 0 {
                        ctx.start(class, "Static Quickswap: the class being served, up to ⌊k/i⌋ jobs")?;
                    }
                    let limit = self.threshold.min(need * per);
                    if ctx.state().busy() < limit {
                        self.mode = Mode::Draining;
                        continue;
                    }
                    return Ok(());
                }
                Mode::Draining => {
                    if st.in_service(class) > 0 {
                        return Ok(());
                    }
                    self.pointer = (self.pointer + 1) % self.cycle.len();
                    self.mode = Mode::Working;
                    if ctx.state().is_empty() {
                        // RES-40: parked at this pointer, in Working mode, until an arrival.
                        return Ok(());
                    }
                }
            }
        }
    }

    fn status(&self) -> Option<String> {
        let need = self.needs[self.cycle[self.pointer]];
        Some(match self.mode {
            Mode::Working => format!("serving need {need}"),
            Mode::Draining => format!("draining need {need}"),
        })
    }
}
