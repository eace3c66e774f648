//! The MSFQ phase machine (SPEC 5.2.4 with RES-38, RES-39, RES-40), shared by MSFQ, which
//! admits through it, and MSF, whose phases it only records.

use crate::EngineError;
use crate::decisions::Decision;
use crate::models::msfq::{MsfqContext, MsfqDecision, MsfqObservation};

/// Whether the machine starts jobs or only follows the phases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// MSFQ: the machine's rules start the jobs.
    Admit,
    /// MSFQ-C (RES-39 option): as `Admit`, and phase 4 lets small jobs in while no large job
    /// waits.
    AdmitOpenPhase4,
    /// MSF: another rule started the jobs; only the phases are recorded (exact for ℓ = 0).
    Observe,
}

/// Phase z ∈ {1, 2, 3, 4} and the parking flag of SPEC 5.2.4.
#[derive(Debug, Clone)]
pub struct PhaseMachine {
    threshold: u32,
    admission: Admission,
    phase: u8,
    parked: bool,
    started: bool,
}

/// Class indices of the one-or-all model: classes are sorted by need, so small is first and
/// large is last; either may be missing.
fn small_and_large(ctx: &MsfqContext<'_>) -> (Option<usize>, Option<usize>) {
    let st = ctx.state();
    let k = st.cores();
    let small = (st.need(0) == 1).then_some(0);
    let last = st.classes() - 1;
    let large = (st.need(last) == k && k > 1).then_some(last);
    (small, large)
}

impl PhaseMachine {
    pub fn new(threshold: u32, admission: Admission) -> Self {
        Self { threshold, admission, phase: 1, parked: false, started: false }
    }

    /// ℓ.
    pub fn threshold(&self) -> u32 {
        self.threshold
    }

    /// The admission routine MSFQ_step of SPEC 5.2.4.
    pub fn step(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError> {
        if !self.started || self.parked {
            if ctx.state().is_empty() {
                return Ok(());
            }
            self.started = true;
            self.parked = false;
            ctx.observe(MsfqObservation::Phase(self.phase));
        }
        let admit = self.admission != Admission::Observe;
        let (small, large) = small_and_large(ctx);
        let k = ctx.state().cores();
        let count = |ctx: &MsfqContext<'_>, class: Option<usize>| {
            class.map_or((0, 0), |c| {
                let st = ctx.state();
                (st.waiting(c) as u64 + st.in_service(c) as u64, st.in_service(c))
            })
        };
        let mut transitions = 0;
        loop {
            let (n1, u1) = count(ctx, small);
            let (nk, uk) = count(ctx, large);
            let next = match self.phase {
                1 => {
                    if nk > 0 {
                        if admit
                            && uk == 0
                            && u1 == 0
                            && let Some(class) = large
                        {
                            ctx.apply(MsfqDecision::Start { class, why: "MSFQ phase 1: large jobs, one at a time" })?;
                        }
                        return Ok(());
                    }
                    2
                }
                2 => {
                    if n1 >= k as u64 {
                        if admit {
                            fill_small(ctx, small, "MSFQ phase 2: n₁ ≥ k, small jobs k at once")?;
                        }
                        return Ok(());
                    }
                    3
                }
                3 => {
                    if admit {
                        fill_small(ctx, small, "MSFQ phase 3: n₁ > ℓ, small jobs keep coming")?;
                    }
                    if n1 > self.threshold as u64 {
                        return Ok(());
                    }
                    4
                }
                _ => {
                    if self.admission == Admission::AdmitOpenPhase4 && large.is_none_or(|c| ctx.state().waiting(c) == 0)
                    {
                        fill_small(ctx, small, "MSFQ-C phase 4: no large job waits, small jobs may start")?;
                    }
                    let u1 = count(ctx, small).1;
                    if u1 > 0 {
                        return Ok(());
                    }
                    1
                }
            };
            self.phase = next;
            ctx.observe(MsfqObservation::Phase(next));
            if admit {
                let threshold = self.threshold;
                ctx.record(|now| {
                    Decision::new(
                        now,
                        "phase",
                        format!("phase {} → {next}", if next == 1 { 4 } else { next - 1 }),
                        PHASE_ENTRY[usize::from(next) - 1],
                    )
                    .fact("small jobs in the system n₁", n1.to_string())
                    .fact("small jobs in service u₁", u1.to_string())
                    .fact("large jobs in the system n_k", nk.to_string())
                    .fact("k, ℓ", format!("{k}, {threshold}"))
                });
            }
            transitions += 1;
            if transitions >= 4 && ctx.state().is_empty() {
                // RES-40: a full cycle on an empty system; wait in phase 1 for an arrival.
                self.phase = 1;
                self.parked = true;
                ctx.observe(MsfqObservation::Park);
                return Ok(());
            }
        }
    }
}

/// Why the machine enters phase z (index z − 1): the Quickswap rule that fired (SPEC 5.2.4).
const PHASE_ENTRY: [&str; 4] = [
    "no small job in service (u₁ = 0): Quickswap back to the large jobs",
    "no large job in the system (n_k = 0): the small jobs' turn",
    "fewer than k small jobs in the system (n₁ < k): keep them coming one by one",
    "at most ℓ small jobs left (n₁ ≤ ℓ): Quickswap, no new small job starts",
];

/// Starts waiting small jobs while fewer than k run (and cores are free).
fn fill_small(ctx: &mut MsfqContext<'_>, small: Option<usize>, why: &'static str) -> Result<(), EngineError> {
    let Some(c) = small else { return Ok(()) };
    while ctx.state().waiting(c) > 0 && ctx.state().in_service(c) < ctx.state().cores() && ctx.state().free() >= 1 {
        ctx.apply(MsfqDecision::Start { class: c, why })?;
    }
    Ok(())
}
