//! MaxWeight with global refresh (MW-global) and with local refresh (MW-local), the baselines
//! of GH-RA's simulations (Maguluri & Srikant; SPEC 3.2.4, RES-19, RES-20).
//!
//! Jobs are routed to per-server queues by join-the-shortest-queue (RES-19). Each server runs
//! an active configuration k^ℓ and starts queued jobs only into its free slots: FILL(ℓ) starts
//! the head of Q_j^ℓ while fewer than k^ℓ_j type-j jobs run. A configuration is re-selected
//! only at a *refresh*: MW-local refreshes a server whenever it holds no job, MW-global
//! refreshes every server when no server holds a job. The new configuration maximises
//! Σ_j k_j·Q_j^ℓ over the server's feasible configurations; ties prefer maximal
//! configurations, then more jobs, then the lexicographically larger vector (RES-20).
//!
//! SPEC 3.2.4 re-checks the refresh rule at every event, for every empty server. A server's
//! choice depends only on its own queues, and those change only at an arrival to it or a
//! start from it; so at each event only the server the event touched is re-selected (and, for
//! MW-global, every server at the moment the system empties). The configurations and starts
//! are the same as with the literal rule, without an O(L) pass per event. A refresh is
//! counted once per moment the rule applies: per server refreshed (MW-local), per event with
//! every server empty (MW-global).

use super::routing::{Router, Routing};
use crate::EngineError;
use crate::decisions::Decision;
use crate::model::policy::PolicySpec;
use crate::models::ghra::{
    GhraContext, GhraDecision, GhraEvent, GhraObservation, GhraPolicy, GhraScenario, GhraState, QueueRef, Source,
};
use crate::resources::{Configurations, FleetConfigurations, Resources, TooManyConfigurations};

/// When configurations are re-selected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refresh {
    /// Every server, when no server holds a job.
    Global,
    /// A server, whenever it holds no job.
    Local,
}

/// The feasible configurations of one server capacity, with what the tie-break needs.
#[derive(Debug, Clone)]
struct ConfigTable {
    configs: Configurations,
    /// Σ_j k_j of each configuration.
    jobs: Vec<u32>,
}

#[derive(Debug, Clone)]
pub struct MaxWeight {
    refresh: Refresh,
    /// One table per distinct capacity.
    tables: Vec<ConfigTable>,
    table_of: Vec<usize>,
    /// Each server's active configuration (an index into its table).
    active: Vec<usize>,
    /// Built at `Begin`.
    router: Option<Router>,
    /// Scratch: the queue lengths of the server being refreshed.
    lengths: Vec<u64>,
}

impl MaxWeight {
    /// Enumerates the configurations of each distinct server capacity.
    pub fn new(
        refresh: Refresh,
        demands: &[Resources],
        capacities: &[Resources],
    ) -> Result<Self, TooManyConfigurations> {
        let fleet = FleetConfigurations::enumerate(demands, capacities)?;
        let table_of = fleet.of_server;
        let tables = fleet
            .distinct
            .into_iter()
            .map(|(_, configs)| {
                let jobs = configs.iter().map(|k| k.iter().sum()).collect();
                ConfigTable { configs, jobs }
            })
            .collect();
        Ok(Self {
            refresh,
            tables,
            table_of,
            active: vec![0; capacities.len()],
            router: None,
            lengths: vec![0; demands.len()],
        })
    }

    /// MaxWeight on the fleet and types of `scenario`; an error names the key `policy` when a
    /// server has too many configurations to choose from.
    pub fn for_scenario(
        refresh: Refresh,
        spec: &PolicySpec,
        scenario: &GhraScenario,
    ) -> Result<Self, crate::ConfigError> {
        Self::new(refresh, &scenario.types.demands(), &scenario.servers.capacities())
            .map_err(|e| spec.error(format!("the servers have {}", e.describe())))
    }

    /// MW_config(ℓ): the max-weight configuration for server ℓ's own queues (RES-20 ties).
    fn max_weight(&mut self, server: usize, state: &GhraState) -> usize {
        for (j, len) in self.lengths.iter_mut().enumerate() {
            *len = state.queue_len(QueueRef::Local { server: server as u32, job_type: j as u16 }) as u64;
        }
        let table = &self.tables[self.table_of[server]];
        let mut best = 0;
        let mut best_key = (0, false, 0);
        for (i, k) in table.configs.iter().enumerate() {
            let weight: u64 = k.iter().zip(&self.lengths).map(|(&c, &q)| u64::from(c) * q).sum();
            let key = (weight, table.configs.is_maximal(i), table.jobs[i]);
            // Configurations come in lexicographic order, so on a full tie the later one is
            // the lexicographically larger.
            if key >= best_key {
                best = i;
                best_key = key;
            }
        }
        best
    }

    fn refresh(&mut self, server: usize, ctx: &mut GhraContext<'_>) {
        let i = self.max_weight(server, ctx.state());
        self.active[server] = i;
        let counts = self.tables[self.table_of[server]].configs.get(i);
        // Recorded (counted) whether or not the run explains, so decisions keep their numbers.
        let seen = ctx.explaining().then(|| {
            let show = |k: &[u32]| format!("({})", k.iter().map(u32::to_string).collect::<Vec<_>>().join(", "));
            let weight = |k: &[u32]| k.iter().zip(&self.lengths).map(|(&c, &q)| u64::from(c) * q).sum::<u64>();
            (show(&self.lengths.iter().map(|&q| q as u32).collect::<Vec<_>>()), show(counts), weight(counts))
        });
        {
            ctx.record(|now| {
                let (queues, chosen, w) = seen.unwrap_or_default();
                Decision::new(
                    now,
                    "configure",
                    format!("server {} runs configuration {chosen}", server + 1),
                    "max weight Σ_j k_j·Q_j over its feasible configurations",
                )
                .server(server as u32)
                .fact("its queues Q per type", queues)
                .fact("weight of the chosen", w.to_string())
            });
        }
        ctx.observe(GhraObservation::Configuration { server, counts });
    }

    /// FILL(ℓ): starts queued jobs into the free slots of the active configuration.
    fn fill(&mut self, server: usize, ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        let l = server as u32;
        let table = &self.tables[self.table_of[server]];
        let k = table.configs.get(self.active[server]);
        // The router is built at Begin, before any job.
        let Some(router) = self.router.as_mut() else { return Ok(()) };
        for (j, &slots) in k.iter().enumerate() {
            let queue = QueueRef::Local { server: l, job_type: j as u16 };
            while ctx.state().running(server, j) < slots && ctx.state().queue_len(queue) > 0 {
                let why = "a free slot of the server's max-weight configuration";
                ctx.apply(GhraDecision::Start { server: l, job_type: j, source: Source::Local, why })?;
                router.left(j, l);
            }
        }
        Ok(())
    }

    /// Refreshes and fills every server (MW-global when the system has emptied, and time 0).
    fn refresh_all(&mut self, ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        ctx.observe(GhraObservation::Refresh);
        // The servers that take jobs (all of them unless the fleet changed, RES-97).
        for l in 0..ctx.state().active() {
            self.refresh(l, ctx);
            self.fill(l, ctx)?;
        }
        Ok(())
    }

    /// The refresh rule after an event that touched `server`, then FILL(server).
    fn touched(&mut self, server: usize, ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        match self.refresh {
            Refresh::Local if ctx.state().jobs_on(server) == 0 => {
                ctx.observe(GhraObservation::Refresh);
                self.refresh(server, ctx);
            }
            Refresh::Global if ctx.state().all_servers_empty() => {
                ctx.observe(GhraObservation::Refresh);
                self.refresh(server, ctx);
            }
            _ => {}
        }
        self.fill(server, ctx)
    }
}

impl GhraPolicy for MaxWeight {
    fn distributed(&self) -> bool {
        true
    }

    fn route(&mut self, job_type: usize, ctx: &mut GhraContext<'_>) -> Result<u32, EngineError> {
        // The router is built at Begin, before any arrival.
        let router = self.router.as_mut().ok_or(EngineError::Unrouted { job_type: job_type as u16 })?;
        let mut why = ctx.explaining().then(String::new);
        let server = router.route(job_type, ctx.rng(), why.as_mut());
        if let Some(why) = why {
            ctx.note("routing", why);
        }
        Ok(server)
    }

    fn on_event(&mut self, event: GhraEvent, ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        match event {
            GhraEvent::Begin => {
                self.router = Some(Router::new(Routing::Jsq, ctx.state()));
                // Every server is empty at time 0: the refresh rule applies to all of them.
                self.refresh_all(ctx)
            }
            GhraEvent::Arrival { queue: QueueRef::Local { server, .. } } => self.touched(server as usize, ctx),
            GhraEvent::Departure { server, .. } => {
                if self.refresh == Refresh::Global && ctx.state().all_servers_empty() {
                    // The system just emptied: every server re-selects on its own queues.
                    self.refresh_all(ctx)
                } else {
                    self.touched(server as usize, ctx)
                }
            }
            GhraEvent::Arrival { .. } | GhraEvent::Tick { .. } => Ok(()),
        }
    }

    /// The router takes the servers that take jobs now (RES-97). An added server that is
    /// empty chooses its configuration as every server does at time 0 (under both refresh
    /// rules: it joins as a server of a fresh system would); one still holding jobs (its drain
    /// cancelled) keeps its configuration. A removed server's queues were emptied, so it
    /// starts nothing.
    fn on_servers(&mut self, old: usize, ctx: &mut GhraContext<'_>) -> Result<(), EngineError> {
        self.router = Some(Router::new(Routing::Jsq, ctx.state()));
        for l in old..ctx.state().active() {
            if ctx.state().jobs_on(l) == 0 {
                ctx.observe(GhraObservation::Refresh);
                self.refresh(l, ctx);
            }
            self.fill(l, ctx)?;
        }
        Ok(())
    }
}
