//! Power-of-d choices (PG-AS §7.2 after \[58\]; SPEC 4.4): on an arrival, sample d distinct
//! servers uniformly at random (all of them when L ≤ d), take the least loaded one — the
//! smallest Σ_r used_r / C_r, ties uniformly at random — and admit the job there if it fits,
//! otherwise reject it. No slots, no reservation, no migration. In one dimension, if the least
//! loaded sampled server cannot take the job, none of the sampled servers can; with several
//! resources another one might, and the rule still rejects (as SPEC 4.4 states it).
//!
//! O(d) per arrival (Floyd's sampling of d distinct servers), nothing per departure. Every draw
//! comes from the policy's stream.

use crate::EngineError;
use crate::models::pgas::{Pgas, PgasContext, PgasDecision, PgasPolicy, boxed};
use crate::model::policy::{Param, Policy};
use crate::decisions::short;
use crate::workload::sample;

/// The paper's d.
pub const DEFAULT_D: u32 = 5;

pub const POLICY: Policy<Pgas> = Policy::new(
    "po-d",
    "Power-of-d",
    "the least loaded of d random servers, if the job fits; no reservation (PG-AS §7.2, [58])",
    |spec, _| boxed(PowerOfD::new(spec.int("d").map_or(DEFAULT_D, |d| d as u32))),
)
.params(&[Param::int("d", 1, 1000, "servers sampled per arrival (default 5)").symbol("d")]);

#[derive(Debug, Clone)]
pub struct PowerOfD {
    d: usize,
    chosen: Vec<u32>,
}

impl PowerOfD {
    pub fn new(d: u32) -> Self {
        Self { d: d as usize, chosen: Vec::with_capacity(d as usize) }
    }
}

impl PowerOfD {
    /// The servers sampled with their loads, and the least loaded: what the inspector shows.
    #[cold]
    #[inline(never)]
    fn note_sampled(&self, ctx: &mut PgasContext<'_>, best: u32) {
        let loads: Vec<String> = self
            .chosen
            .iter()
            .map(|&s| format!("server {} ({})", s + 1, short(ctx.state().load(s as usize))))
            .collect();
        ctx.note("sampled servers (load Σ used/capacity)", loads.join(", "));
        ctx.note("least loaded", format!("server {}", best + 1));
    }
}

impl PgasPolicy for PowerOfD {
    fn on_arrival(&mut self, job_type: usize, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        // The servers that take jobs: after a change of the count, d draws among them as many
        // as before (RES-98), so the policy's stream stays in step.
        let servers = ctx.state().servers();
        self.chosen.clear();
        if servers <= self.d {
            self.chosen.extend(0..servers as u32);
        } else {
            // Floyd: for k = L − d .. L − 1, draw t in 0..=k; take t, or k if t was taken.
            for k in (servers - self.d)..servers {
                let t = sample::uniform_int(ctx.rng(), 0, k as u64) as u32;
                let pick = if self.chosen.contains(&t) { k as u32 } else { t };
                self.chosen.push(pick);
            }
        }
        let mut best = self.chosen[0];
        let mut best_load = ctx.state().load(best as usize);
        let mut ties = 1;
        for i in 1..self.chosen.len() {
            let server = self.chosen[i];
            let load = ctx.state().load(server as usize);
            if load < best_load {
                (best, best_load, ties) = (server, load, 1);
            } else if load == best_load {
                // Reservoir sampling: each of the tied servers is kept with probability 1/ties.
                ties += 1;
                if sample::uniform_int(ctx.rng(), 0, ties - 1) == 0 {
                    best = server;
                }
            }
        }
        if ctx.explaining() {
            self.note_sampled(ctx, best);
        }
        if ctx.state().fits(job_type, best as usize) {
            ctx.rule("power-of-d: the least loaded of d sampled servers, and the job fits there");
            ctx.apply(PgasDecision::Admit { server: best })
        } else {
            ctx.rule("power-of-d: the job does not fit on the least loaded of d sampled servers");
            ctx.apply(PgasDecision::Reject)
        }
    }
}
