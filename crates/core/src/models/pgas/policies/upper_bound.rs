//! The upper bound (PG-AS §7.2; SPEC 4.4, RES-30): an infinite-server system that admits
//! every job, Ŷ(t) its jobs in service per type, and UB(t) = F*(L, Ŷ(t)), the value of LP (6)
//! with L servers. Its time average bounds the reward of any policy on the same arrivals.
//!
//! * Trace types (1-D sizes 2^−m, reward = size × factor): Conv(K) is the simplex
//!   {y ≥ 0 : Σ_j s_j y_j ≤ 1}, so LP (6) is a fractional knapsack: fill the L servers'
//!   capacity with the active work of priority 2, then 1, then 0 (RES-30). O(J) per event.
//! * Enumerated instances: LP (6) itself, without solving it at every event (a solve is two
//!   `microlp` LPs, some 30 µs on C2, against well under 1 µs for a DRA event). Each solve leaves
//!   a primal X (its coverage Σ_k X_k k is feasible for any Ŷ, so Σ_j u_j min(Ŷ_j, cover_j) is
//!   a lower bound) and a dual w (L·max_k w·k + Σ_j Ŷ_j (u_j − w_j) an upper bound for any Ŷ,
//!   by weak duality). At each event the kept certificates are evaluated: when the best lower and
//!   upper bounds meet (within 1e-9 relative) that is F*(L, Ŷ); otherwise, if no solve happened
//!   in the last `refresh` time units, a solve gives the exact value and a new certificate pair;
//!   otherwise the best upper bound stands in. The recorded UB(t) is therefore never below
//!   F*(L, Ŷ(t)) — still an upper bound on every policy — and exact at every solve and every
//!   certified event. The dual vertex rarely changes as Ŷ moves by ±1, so the stand-in is
//!   nearly always exact (on C3 at L = 180 the time average is within 0.1% of solving at every
//!   event, at a hundredth of the cost). `refresh` is a tenth of the scenario's series grid.

use std::sync::Arc;

use crate::EngineError;
use crate::models::pgas::theory::{HomogeneousTypes, Packing, RewardInstance};
use crate::models::pgas::{Pgas, PgasConfig, PgasContext, PgasDecision, PgasObservation, PgasPolicy, PgasState, boxed};
use crate::model::policy::Policy;

pub const POLICY: Policy<Pgas> = Policy::new(
    "upper-bound",
    "Upper bound",
    "LP (6) on the jobs of an infinite-server system: no policy earns more on these arrivals (PG-AS §7.2)",
    |_, config: &PgasConfig| boxed(UpperBound::new(&config.packing, config.servers, config.sample_every / 10.0)),
);

/// Relative gap under which the cached bounds count as equal.
const TOLERANCE: f64 = 1e-9;
/// Primal certificates kept (the most recent).
const PRIMALS_KEPT: usize = 16;

#[derive(Debug, Clone)]
pub struct UpperBound {
    bound: Bound,
}

#[derive(Debug, Clone)]
enum Bound {
    Knapsack { types: HomogeneousTypes, servers: u64 },
    Lp(Box<LpCache>),
}

/// LP (6) certificates along a run.
#[derive(Debug, Clone)]
struct LpCache {
    instance: Arc<RewardInstance>,
    servers: f64,
    /// u_j in real reward units.
    rewards: Vec<f64>,
    /// Coverage Σ_k X_k k_j of each kept primal solution.
    primals: Vec<Vec<f64>>,
    /// (w, max_k w·k) of each kept dual solution.
    duals: Vec<(Vec<f64>, f64)>,
    best: (usize, usize),
    y: Vec<f64>,
    /// LP solves so far, the time of the last, and the least time between two.
    solves: u64,
    last_solve: f64,
    refresh: f64,
}

impl UpperBound {
    /// The bound for `servers` servers; on an enumerated instance LP (6) is solved at most once
    /// per `refresh` time units (0: whenever the cached certificates do not meet).
    pub fn new(packing: &Packing, servers: usize, refresh: f64) -> Self {
        let bound = match packing {
            Packing::Homogeneous(types) => Bound::Knapsack { types: types.clone(), servers: servers as u64 },
            Packing::Enumerated(instance) => Bound::Lp(Box::new(LpCache {
                rewards: (0..instance.types())
                    .map(|j| crate::models::pgas::theory::rational::to_f64(&instance.reward(j)))
                    .collect(),
                instance: Arc::clone(instance),
                servers: servers as f64,
                primals: Vec::new(),
                duals: Vec::new(),
                best: (0, 0),
                y: vec![0.0; instance.types()],
                solves: 0,
                last_solve: f64::NEG_INFINITY,
                refresh,
            })),
        };
        Self { bound }
    }

    /// LP solves made so far (0 for the knapsack), for the tests.
    pub fn solves(&self) -> u64 {
        match &self.bound {
            Bound::Knapsack { .. } => 0,
            Bound::Lp(cache) => cache.solves,
        }
    }

    fn report(&mut self, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        let value = match &mut self.bound {
            Bound::Knapsack { types, servers } => knapsack(types, *servers, ctx.state()),
            Bound::Lp(cache) => cache.value(ctx.state(), ctx.now())?,
        };
        ctx.observe(PgasObservation::Reward(value));
        Ok(())
    }
}

/// RES-30: Σ over priorities, highest factor first, of factor × min(capacity left, active size).
fn knapsack(types: &HomogeneousTypes, servers: u64, st: &PgasState) -> f64 {
    let mut capacity = servers * types.capacity();
    let mut units = 0u64;
    let mut j = 0;
    while j < types.sizes().len() {
        // Types come factor by factor (RES-36 order).
        let factor = types.factors()[j];
        let mut active = 0u64;
        while j < types.sizes().len() && types.factors()[j] == factor {
            active += st.in_system(j) * types.sizes()[j];
            j += 1;
        }
        let served = active.min(capacity);
        units += factor * served;
        capacity -= served;
    }
    units as f64 / types.capacity() as f64
}

impl LpCache {
    fn lower(&self, p: usize) -> f64 {
        self.primals[p].iter().zip(&self.y).zip(&self.rewards).map(|((c, y), u)| u * c.min(*y)).sum()
    }

    fn upper(&self, d: usize) -> f64 {
        let (w, theta) = &self.duals[d];
        self.servers * theta + self.y.iter().zip(w).zip(&self.rewards).map(|((y, w), u)| y * (u - w)).sum::<f64>()
    }

    fn meet(lo: f64, hi: f64) -> bool {
        hi - lo <= TOLERANCE * hi.abs().max(1.0)
    }

    fn value(&mut self, st: &PgasState, now: f64) -> Result<f64, EngineError> {
        for (j, y) in self.y.iter_mut().enumerate() {
            *y = st.in_system(j) as f64;
        }
        if !self.primals.is_empty() {
            let (p, d) = self.best;
            let (lo, hi) = (self.lower(p), self.upper(d));
            if Self::meet(lo, hi) {
                return Ok(lo);
            }
            let (bp, lo) =
                (0..self.primals.len()).map(|p| (p, self.lower(p))).fold((p, lo), |a, b| if b.1 > a.1 { b } else { a });
            let (bd, hi) =
                (0..self.duals.len()).map(|d| (d, self.upper(d))).fold((d, hi), |a, b| if b.1 < a.1 { b } else { a });
            self.best = (bp, bd);
            if Self::meet(lo, hi) {
                return Ok(lo);
            }
            if now - self.last_solve < self.refresh {
                return Ok(hi);
            }
        }
        self.last_solve = now;
        let (optimum, w) = self
            .instance
            .lp_bound_with_dual(&self.y, self.servers)
            .map_err(|e| EngineError::Bound { message: e.to_string() })?;
        self.solves += 1;
        let mut cover = vec![0.0; self.y.len()];
        for entry in &optimum.support {
            for (c, &k) in cover.iter_mut().zip(&entry.counts) {
                *c += entry.weight * f64::from(k);
            }
        }
        let theta = self
            .instance
            .maximal_configurations()
            .iter()
            .map(|&c| {
                self.instance.configuration(c as usize).iter().zip(&w).map(|(&k, w)| f64::from(k) * w).sum::<f64>()
            })
            .fold(0.0, f64::max);
        // The optimal X follows Ŷ, so old primals rarely certify again: keep the last few. Dual
        // vertices repeat: keep each once.
        if self.primals.len() == PRIMALS_KEPT {
            self.primals.remove(0);
        }
        self.primals.push(cover);
        let same = |d: &(Vec<f64>, f64)| d.0.iter().zip(&w).all(|(a, b)| (a - b).abs() <= 1e-12 * a.abs().max(1.0));
        let dual = match self.duals.iter().position(same) {
            Some(d) => d,
            None => {
                self.duals.push((w, theta));
                self.duals.len() - 1
            }
        };
        self.best = (self.primals.len() - 1, dual);
        Ok(optimum.value)
    }
}

impl UpperBound {
    /// LP (6) with `servers` servers (a change of the count, RES-98): the certificates were
    /// for the old count (a primal's coverage may not fit the new one), so they go and the
    /// bound is solved again at once.
    fn set_servers(&mut self, servers: usize) {
        match &mut self.bound {
            Bound::Knapsack { servers: l, .. } => *l = servers as u64,
            Bound::Lp(cache) => {
                cache.servers = servers as f64;
                cache.primals.clear();
                cache.duals.clear();
                cache.best = (0, 0);
                cache.last_solve = f64::NEG_INFINITY;
            }
        }
    }
}

impl PgasPolicy for UpperBound {
    fn on_servers(&mut self, servers: usize, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        self.set_servers(servers);
        self.report(ctx)
    }

    fn begin(&mut self, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        self.report(ctx)
    }

    fn on_arrival(&mut self, _job_type: usize, ctx: &mut PgasContext<'_>) -> Result<(), EngineError> {
        ctx.apply(PgasDecision::AdmitUnplaced)?;
        self.report(ctx)
    }

    fn on_departure(
        &mut self,
        _job_type: usize,
        _server: Option<u32>,
        ctx: &mut PgasContext<'_>,
    ) -> Result<(), EngineError> {
        self.report(ctx)
    }

    fn unlimited(&self) -> bool {
        true
    }
}
