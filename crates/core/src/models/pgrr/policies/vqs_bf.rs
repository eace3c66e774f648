//! VQS-BF: virtual queue scheduling combined with best fit.
//!
//! PG-RR §5 (SPEC 2.2.7). Configurations are chosen exactly as in VQS. Every slot, servers in
//! index order (RES-48), after any renewal:
//!
//! 1. if the configuration has a type-1 job, the largest job of VQ_1 that fits is placed
//!    (nothing is reserved; at most one type-1 job can ever fit);
//! 2. while the server holds fewer than k_j jobs of the configuration's other type j and one
//!    fits, the largest fitting job of VQ_j is placed;
//! 3. BF-S fills what is left from the whole queue.
//!
//! Sizes and "largest" use the occupied space (2^-J for the smallest class, RES-6). Stable
//! below (2/3)ρ* (Theorem 4).
//!
//! Step 3 leaves no waiting job that fits, so only servers with room for the smallest waiting
//! job can do anything in a slot; they are found by first fit over residuals.

use super::best_fit_fill;
use super::virtual_queues::{
    Configurations, J, SMALL, SmallJobs, TIES, VirtualQueues, VqOptions, WEIGHTS, Weights, partition, resolve_j,
};
use crate::models::pgrr::partition::Partition;
use crate::models::pgrr::state::{JobId, RunningJob, ServerId, WaitingJob};
use crate::models::pgrr::{ConfigStep, Pgrr, boxed, PgrrContext, PgrrDecision, PgrrPolicy, Rule};
use crate::model::policy::Policy;
use crate::EngineError;

pub const POLICY: Policy<Pgrr> = Policy::new(
    "vqs-bf",
    "VQS-BF",
    "VQS configurations, then a best-fit fill of the leftover room (PG-RR)",
    |spec, scenario| boxed(VqsBf::new(partition(spec, scenario), scenario.servers as usize, VqOptions::of(spec))),
)
.params(&[J, TIES, WEIGHTS, SMALL])
.resolve(resolve_j);

/// VQS configurations with a best-fit fill.
#[derive(Debug, Clone)]
pub struct VqsBf {
    options: VqOptions,
    queues: VirtualQueues,
    configs: Configurations,
}

impl VqsBf {
    pub fn new(partition: Partition, servers: usize, options: VqOptions) -> Self {
        Self {
            options,
            queues: VirtualQueues::new(partition, false),
            configs: Configurations::new(partition, servers, options.ties),
        }
    }

    fn start(
        &mut self,
        ctx: &mut PgrrContext<'_>,
        job: JobId,
        server: ServerId,
        rule: Rule,
    ) -> Result<(), EngineError> {
        let running = ctx.apply(PgrrDecision::Start { job, server, rule })?;
        self.queues.remove(job, running.size.primary());
        self.configs.record(server, running.size.primary(), running.occupies.primary(), true);
        Ok(())
    }
}

impl PgrrPolicy for VqsBf {
    fn schedule(&mut self, ctx: &mut PgrrContext<'_>) -> Result<(), EngineError> {
        let snapshot = (self.options.weights == Weights::Snapshot).then(|| self.queues.counts().to_vec());
        let mut from = 0;
        while let Some(smallest) = ctx.queue().min_size() {
            let Some(server) = ctx.cluster().first_fit(from, smallest) else { break };
            if self.configs.is_empty(server) {
                let weights = snapshot.as_deref().unwrap_or(self.queues.counts());
                let choice = self.configs.argmax(weights, ctx.rng());
                self.configs.explain_renewal(ctx, weights, choice);
                self.configs.set_active(server, choice);
            }
            let config = self.configs.active(server).expect("renewed above or holding jobs");
            let k = self.configs.configs[config as usize];
            let rule = |step| Rule::Config { config, step };
            // (i)
            if k.type1
                && let Some(job) = self.queues.largest_fitting(1, ctx.cluster().residual(server), ctx.queue())
            {
                self.start(ctx, job, server, rule(ConfigStep::TypeOne))?;
            }
            // (ii)
            if let Some((t, wanted)) = k.other {
                while self.configs.config_type(server) < wanted {
                    let Some(job) = self.queues.largest_fitting(t, ctx.cluster().residual(server), ctx.queue()) else { break };
                    self.start(ctx, job, server, rule(ConfigStep::ConfigType))?;
                }
            }
            // (iii)
            let (queues, configs) = (&mut self.queues, &mut self.configs);
            best_fit_fill(ctx, server, rule(ConfigStep::BestFitFill), |job| {
                queues.remove(job.id, job.size.primary());
                configs.record(server, job.size.primary(), job.occupies.primary(), true);
            })?;
            from = server + 1;
        }
        Ok(())
    }

    fn occupies(&self, size: u64) -> u64 {
        match self.options.small {
            SmallJobs::Round => self.configs.partition.rounded(size),
            SmallJobs::Real => size,
        }
    }

    fn on_arrival(&mut self, job: &WaitingJob) {
        self.queues.push(job);
    }

    fn virtual_queues(&self) -> Option<u8> {
        Some(self.configs.partition.j())
    }

    fn on_departure(&mut self, job: &RunningJob, server: ServerId) {
        self.configs.record(server, job.size.primary(), job.occupies.primary(), false);
    }
}
