//! Worst-Fit: each job to the server with the most room.
//!
//! Not a policy of PG-RR; the classic baseline next to best fit (the spreading rule behind
//! Kubernetes' `LeastAllocated` score). Every slot, waiting jobs in arrival order each go to the
//! server with the largest residual (lowest index on ties), if they fit there; a job that does
//! not fit the emptiest server fits nowhere and waits. Best fit packs servers to keep large
//! holes free; worst fit spreads load and so fragments every server's room, which is why it
//! falls behind BF-J/S as loads and sizes grow.

use crate::EngineError;
use crate::models::pgrr::{Pgrr, PgrrContext, PgrrDecision, PgrrPolicy, Rule, boxed};
use crate::model::policy::Policy;

pub const POLICY: Policy<Pgrr> = Policy::new(
    "worst-fit",
    "Worst-Fit",
    "each waiting job, oldest first, goes to the emptiest server if it fits (a baseline, not in the paper)",
    |_, _| boxed(WorstFit),
);

/// Worst fit, job's view.
#[derive(Debug, Clone, Copy, Default)]
pub struct WorstFit;

impl PgrrPolicy for WorstFit {
    fn schedule(&mut self, ctx: &mut PgrrContext<'_>) -> Result<(), EngineError> {
        let rule = Rule::Server("worst fit: the emptiest server, if it fits");
        // As in BF-J, only jobs no larger than the largest residual can start, and that only
        // shrinks during the slot, so the walk jumps from one such job to the next.
        let mut from = 0;
        loop {
            let room = ctx.cluster().max_residual();
            let Some(job) = ctx.queue().first_fitting(from, room) else { break };
            // The lowest-index server whose residual is the largest: an O(log L) descent.
            let Some(server) = ctx.cluster().first_fit(0, room) else { break };
            ctx.apply(PgrrDecision::Start { job: job.id, server, rule })?;
            from = job.id + 1;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::models::pgrr::engine::testing::Harness;
    use crate::models::pgrr::{Pgrr, PgrrPolicy};
    use crate::model::Model;
use crate::models::Scenario;
    use crate::model::policy::PolicySpec;
    use crate::scenario::preset;

    fn build(servers: u32) -> Box<dyn PgrrPolicy> {
        let Scenario::Pgrr(mut scenario) = preset("pgrr-a1").unwrap().scenario else { panic!("a PG-RR preset") };
        scenario.servers = servers;
        let spec = PolicySpec::parse("worst-fit").unwrap();
        (Pgrr::policy(&spec).unwrap().build)(&spec, &scenario).unwrap()
    }

    /// Residuals (35, 50, 31) of 100, waiting a = 30 then b = 45: a goes to the emptiest
    /// server (50, where best fit would pick 31); that leaves 35 at most, so b waits.
    #[test]
    fn takes_the_emptiest_server_and_waits_when_that_is_too_small() {
        let mut policy = build(3);
        let mut h = Harness::new(3, 100);
        h.running(0, 65);
        h.running(1, 50);
        h.running(2, 69);
        let a = h.waiting(30, policy.as_mut());
        let b = h.waiting(45, policy.as_mut());
        h.schedule(policy.as_mut()).unwrap();
        assert_eq!(h.server_of(a), Some(1));
        assert_eq!(h.server_of(b), None);
        assert_eq!(h.waiting_ids(), vec![b]);
    }

    /// Spreading: on empty servers, jobs go one per server (lowest index on ties) before any
    /// server takes a second.
    #[test]
    fn spreads_before_it_stacks() {
        let mut policy = build(3);
        let mut h = Harness::new(3, 100);
        let jobs: Vec<_> = [20, 20, 20, 20].iter().map(|s| h.waiting(*s, policy.as_mut())).collect();
        h.schedule(policy.as_mut()).unwrap();
        let servers: Vec<_> = jobs.iter().map(|j| h.server_of(*j)).collect();
        assert_eq!(servers, vec![Some(0), Some(1), Some(2), Some(0)]);
    }
}
