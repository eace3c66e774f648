//! DRA+Preemption (PG-AS §7.2; SPEC 4.4, RES-31): DRA that, when an arriving job of priority
//! 1 or 2 finds no accept-group slot, preempts priority-0 jobs until their total size reaches
//! g(L)·s_j or none is left, runs CRA, and retries the admission once.
//!
//! The paper gives only the order (smallest priority-0 jobs first), the stopping rule and "the
//! same way it finds jobs to migrate". Victims are taken by size ascending, then server rank
//! descending (the servers DRA wants to empty first), then server id ascending, then youngest
//! first on a server (the engine's rule for migrations too). Preempted jobs are lost. A
//! priority-0 arrival never preempts. The search looks at every server for each victim type
//! with jobs in the system, O(L·J) per preempting arrival, which only happens when a
//! high-priority job would be lost.

use std::cmp::Reverse;

use super::dra::Dra;
use super::reservation_factor::{G, ReservationFactor};
use crate::models::pgas::theory::Packing;
use crate::models::pgas::{Pgas, PgasConfig, PgasContext, PgasDecision, PgasScenario, PgasTypes, boxed};
use crate::model::policy::{KEY, Policy};
use crate::{ConfigError, EngineError};

/// Why DRA+Preemption refuses types without priorities.
const NEEDS_PRIORITIES: &str = "dra-preempt preempts priority-0 jobs for priority-1 and -2 arrivals; only \
                                trace types have priorities: use types=trace (pgas-c5)";

pub const POLICY: Policy<Pgas> = Policy::new(
    "dra-preempt",
    "DRA+Preemption",
    "DRA that preempts the smallest priority-0 jobs for a priority-1/2 arrival it would reject (PG-AS §7.2)",
    |spec, config: &PgasConfig| {
        let Some(priorities) = config.priorities.clone() else {
            return Err(ConfigError::new(KEY, NEEDS_PRIORITIES));
        };
        let g = ReservationFactor::of(spec).at(config.servers);
        let sizes = config.demands.iter().map(|d| d.primary()).collect();
        let built = config.built.max(config.servers);
        boxed(Dra::with_preemption(config.packing.clone(), built, g, priorities, sizes))
    },
)
.params(&[G])
.check(|_, scenario: &PgasScenario| match scenario.types {
    PgasTypes::Trace => Ok(()),
    _ => Err(ConfigError::new(KEY, NEEDS_PRIORITIES)),
});

impl Dra {
    /// DRA+Preemption for types with `priorities` (0, 1, 2) and `sizes` (the primary resource).
    pub fn with_preemption(packing: Packing, servers: usize, g: u64, priorities: Vec<u8>, sizes: Vec<u64>) -> Self {
        let mut dra = Self::new(packing, servers, g);
        dra.preemption = Some((priorities, sizes));
        dra
    }

    /// The arriving type-j job found no slot: preempt for it if its priority allows (RES-31).
    pub(super) fn preempt_for(&mut self, job_type: usize, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        let Some((priorities, sizes)) = self.preemption.clone() else {
            return ctx.apply(PgasDecision::Reject);
        };
        if priorities[job_type] == 0 {
            return ctx.apply(PgasDecision::Reject);
        }
        let budget = self.g * sizes[job_type];
        let mut victims: Vec<usize> =
            (0..self.types).filter(|&t| priorities[t] == 0 && ctx.state().in_system(t) > 0).collect();
        victims.sort_by_key(|&t| (sizes[t], t));
        let mut preempted = 0;
        'types: for t in victims {
            let st = ctx.state();
            // Draining servers (RES-98) come before every rank: DRA wants them empty first.
            let mut servers: Vec<(Reverse<usize>, u32)> = (0..st.servers_built() as u32)
                .filter(|&l| st.placed(l as usize, t) > 0)
                .map(|l| (Reverse(if self.is_draining(l) { self.types + 1 } else { self.rank(l) }), l))
                .collect();
            servers.sort_unstable();
            for (_, server) in servers {
                while ctx.state().placed(server as usize, t) > 0 {
                    if preempted >= budget {
                        break 'types;
                    }
                    ctx.apply(PgasDecision::Preempt { server, job_type: t as u16 })?;
                    self.freed(server, t, ctx.state());
                    preempted += sizes[t];
                }
            }
        }
        if preempted == 0 {
            return ctx.apply(PgasDecision::Reject);
        }
        self.cra(ctx)?;
        match self.accept_server(job_type) {
            Some(server) => self.admit(server, job_type, ctx),
            None => ctx.apply(PgasDecision::Reject),
        }
    }
}
