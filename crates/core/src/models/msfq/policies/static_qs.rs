//! Static Quickswap (MSFQ paper §5, SPEC 5.2.5): serve one class at a time in a fixed cycle.
//! While working on class i, keep up to ⌊k/i⌋ of its jobs running; once fewer than ℓ_i cores
//! are busy, stop admitting, let class i drain, and move on.
//!
//! ℓ counts servers, 1 ≤ ℓ ≤ k (default k, the analogue of MSFQ's ℓ = k − 1), and the
//! threshold of class i is ℓ_i = min(ℓ, i·⌊k/i⌋) so classes that do not divide k can fill
//! up (RES-42). The cycle defaults to descending need (RES-41). Stable whenever
//! Σ_j λ_j/(⌊k/j⌋μ_j) < 1 (Remark 1).

use crate::EngineError;
use crate::models::msfq::{Msfq, MsfqContext, MsfqDecision, MsfqObservation, MsfqPolicy, MsfqScenario, Status, boxed};
use crate::model::policy::{Param, Policy};

pub const POLICY: Policy<Msfq> = Policy::new(
    "static-qs",
    "Static QS",
    "serve one class at a time in a fixed cycle, swap when busy cores drop below l (MSFQ §5)",
    |spec, s: &MsfqScenario| {
        let cores = s.cores;
        let l = spec.int("l").map_or(cores, |l| l as u32);
        if !(1..=cores).contains(&l) {
            return Err(spec.error(format!("l must be an integer in 1..={cores} (k) (got {l})")));
        }
        let needs: Vec<u32> = s.classes.as_slice().iter().map(|c| c.need).collect();
        let mut cycle: Vec<usize> = (0..needs.len()).collect();
        if spec.is("order", "desc") {
            cycle.reverse();
        }
        boxed(StaticQs::new(cycle, l, needs))
    },
)
.params(&[
    Param::scenario_int("l", "an integer in 1..=k", "swap when fewer than min(l, i·⌊k/i⌋) cores are busy (default k)")
        .symbol("ℓ"),
    Param::choice(
        "order",
        &["desc", "asc"],
        "cycle through the classes by descending or ascending need (default desc)",
    ),
])
.resolve(|key, s: &MsfqScenario| (key == "l").then(|| s.cores.to_string()));

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

impl MsfqPolicy for StaticQs {
    fn admit(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError> {
        loop {
            let class = self.cycle[self.pointer];
            let st = ctx.state();
            let need = st.need(class);
            let per = st.cores() / need;
            match self.mode {
                Mode::Working => {
                    while ctx.state().in_service(class) < per && ctx.state().waiting(class) > 0 {
                        let why = "Static Quickswap: the class being served, up to ⌊k/i⌋ jobs";
                        ctx.apply(MsfqDecision::Start { class, why })?;
                    }
                    let limit = self.threshold.min(need * per);
                    if ctx.state().busy() < limit {
                        self.mode = Mode::Draining;
                        self.report(ctx);
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
                    self.report(ctx);
                    if ctx.state().is_empty() {
                        // RES-40: parked at this pointer, in Working mode, until an arrival.
                        return Ok(());
                    }
                }
            }
        }
    }

    fn on_start(&mut self, ctx: &mut MsfqContext<'_>) {
        self.report(ctx);
    }
}

impl StaticQs {
    /// Tells the page the class served and whether it drains.
    fn report(&self, ctx: &mut MsfqContext<'_>) {
        let need = self.needs[self.cycle[self.pointer]];
        ctx.observe(MsfqObservation::Status(Status::Serving { need, draining: self.mode == Mode::Draining }));
    }
}
