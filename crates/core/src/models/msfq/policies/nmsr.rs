//! nMSR, non-preemptive Markovian Service Rate (MSFQ paper §2 and §6, SPEC 5.2.7): an
//! **approximation**. The paper cites nMSR from Chen, Grosof & Berg (2025) without giving its
//! schedule set, LP or switching rates, so this follows SPEC's clearly-marked placeholder
//! (RES-44) and is labelled "approximation" wherever it is shown; no preset runs it by
//! default.
//!
//! * Schedules: the maximal ways to fill the k cores with whole jobs (no further job of any
//!   class fits). In the one-or-all case these are {k small jobs} and {one large job}.
//! * Time fractions π: the LP "maximise ε s.t. Σ_m π_m u_i^(m) μ_i ≥ λ_i + ε for every
//!   class i, Σ_m π_m = 1, π ≥ 0", solved with `microlp`. ε > 0 exactly when the load is
//!   inside the capacity region.
//! * The schedules with π_m > 0 take turns in a fixed cycle; schedule m holds for an Exp time
//!   of mean π_m·τ, τ = 10·max_i E\[S_i\] by default (parameter `tau`, RES-44). Every switch
//!   to a schedule that needs cores still held by the previous one costs draining time, which
//!   the LP does not see: with the default τ the placeholder is unstable well below the
//!   capacity bound (one-or-all at λ = 7.5, D5 at λ = 4.5); a longer τ amortises the drains.
//! * Non-preemption: while schedule m is active, a class-i job may start only if fewer than
//!   u_i^(m) class-i jobs run and it fits in the free cores. Jobs started under an earlier
//!   schedule keep running and count against the caps. Among the classes that may start, the
//!   oldest waiting job goes first (our choice; the placeholder leaves it open).

use microlp::{ComparisonOp, OptimizationDirection, Problem};

use crate::models::msfq::classes::JobClasses;
use crate::models::msfq::{Msfq, MsfqContext, MsfqDecision, MsfqObservation, MsfqPolicy, MsfqScenario, Status, boxed};
use crate::model::policy::{Param, Policy};
use crate::workload::sample;
use crate::{ConfigError, EngineError};

pub const POLICY: Policy<Msfq> = Policy::new(
    "nmsr",
    "nMSR (approx.)",
    "an approximation of nMSR: time-share the maximal schedules by LP fractions, non-preemptively (MSFQ §2)",
    |spec, s: &MsfqScenario| boxed(Nmsr::new(s.cores, &s.classes, s.load, spec.int("tau").map(|t| t as f64))?),
)
.params(&[Param::int(
    "tau",
    1,
    1_000_000,
    "mean cycle length τ in time units (default 10·max E[S]); switches cost draining time",
)]);

/// More maximal schedules than this and nMSR refuses the class table (the LP and the cycle
/// would be meaningless at that size; the Borg table of D6 is far beyond it).
pub const MAX_SCHEDULES: usize = 5_000;

/// One schedule: how many jobs of each class it keeps running, and its share of time.
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    pub jobs: Vec<u32>,
    pub share: f64,
}

/// The schedules nMSR cycles through, with π from the LP.
#[derive(Debug, Clone, PartialEq)]
pub struct SchedulePlan {
    /// Only the schedules with π_m > 0, in enumeration order.
    pub schedules: Vec<Schedule>,
    /// The LP's ε: the smallest slack of service rate over arrival rate; ≤ 0 means no
    /// time-sharing of these schedules keeps up with the load.
    pub slack: f64,
}

impl SchedulePlan {
    /// Enumerates the maximal schedules for `cores` cores and solves the LP for arrival rate
    /// `arrival_rate` spread over `classes`.
    pub fn solve(cores: u32, classes: &JobClasses, arrival_rate: f64) -> Result<Self, ConfigError> {
        let err = |m: String| ConfigError::new("policy", format!("nmsr: {m}"));
        let needs: Vec<u32> = classes.as_slice().iter().map(|c| c.need).collect();
        let schedules = maximal_schedules(cores, &needs)
            .ok_or_else(|| err(format!("more than {MAX_SCHEDULES} maximal schedules for these classes on {cores} cores; nMSR is offered for small class tables only")))?;

        let mut lp = Problem::new(OptimizationDirection::Maximize);
        let shares: Vec<_> = schedules.iter().map(|_| lp.add_var(0.0, (0.0, 1.0))).collect();
        let slack = lp.add_var(1.0, (f64::NEG_INFINITY, f64::INFINITY));
        for (i, class) in classes.as_slice().iter().enumerate() {
            let mu = 1.0 / class.mean_size;
            let mut row: Vec<_> = schedules
                .iter()
                .zip(&shares)
                .filter(|(u, _)| u[i] > 0)
                .map(|(u, &pi)| (pi, f64::from(u[i]) * mu))
                .collect();
            row.push((slack, -1.0));
            lp.add_constraint(row.as_slice(), ComparisonOp::Ge, arrival_rate * class.probability);
        }
        let total: Vec<_> = shares.iter().map(|&pi| (pi, 1.0)).collect();
        lp.add_constraint(total.as_slice(), ComparisonOp::Eq, 1.0);
        let solution = lp.solve().map_err(|e| err(format!("the schedule LP failed: {e}")))?;
        let values = shares.iter().chain([&slack]).map(|v| *solution.var_value(*v));
        if values.into_iter().any(|v| !v.is_finite()) {
            return Err(err("the schedule LP has no finite solution for these classes".into()));
        }

        let schedules: Vec<Schedule> = schedules
            .into_iter()
            .zip(&shares)
            .map(|(jobs, &pi)| Schedule { jobs, share: *solution.var_value(pi) })
            .filter(|s| s.share > 1e-9)
            .collect();
        Ok(Self { schedules, slack: *solution.var_value(slack) })
    }
}

/// Every way to run whole jobs on `cores` cores to which no further job of any class fits,
/// or `None` past [`MAX_SCHEDULES`]. Classes are sorted by ascending need, so a schedule is
/// maximal exactly when the smallest class no longer fits: the depth-first search picks the
/// counts of the larger classes (largest first, so the list starts with the schedules of the
/// largest jobs) and fills the rest with the smallest class.
pub(crate) fn maximal_schedules(cores: u32, needs: &[u32]) -> Option<Vec<Vec<u32>>> {
    fn visit(class: usize, free: u32, needs: &[u32], jobs: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) -> bool {
        if class == 0 {
            jobs[0] = free / needs[0];
            out.push(jobs.clone());
            return out.len() <= MAX_SCHEDULES;
        }
        for count in (0..=free / needs[class]).rev() {
            jobs[class] = count;
            if !visit(class - 1, free - count * needs[class], needs, jobs, out) {
                return false;
            }
        }
        jobs[class] = 0;
        true
    }
    debug_assert!(needs.windows(2).all(|w| w[0] < w[1]), "classes sorted by need");
    let mut out = Vec::new();
    let mut jobs = vec![0; needs.len()];
    (!needs.is_empty() && visit(needs.len() - 1, cores, needs, &mut jobs, &mut out)).then_some(out)
}

#[derive(Debug, Clone)]
pub struct Nmsr {
    plan: SchedulePlan,
    /// τ: a full cycle lasts τ on average.
    cycle_length: f64,
    active: usize,
}

impl Nmsr {
    /// `cycle_length`: τ, or `None` for RES-44's default 10·max_i E\[S_i\].
    pub fn new(
        cores: u32,
        classes: &JobClasses,
        arrival_rate: f64,
        cycle_length: Option<f64>,
    ) -> Result<Self, ConfigError> {
        let plan = SchedulePlan::solve(cores, classes, arrival_rate)?;
        let longest = classes.as_slice().iter().map(|c| c.mean_size).fold(0.0, f64::max);
        Ok(Self { plan, cycle_length: cycle_length.unwrap_or(10.0 * longest), active: 0 })
    }

    pub fn plan(&self) -> &SchedulePlan {
        &self.plan
    }

    /// Holds the active schedule for an exponential time, and tells the page which it is.
    fn hold(&self, ctx: &mut MsfqContext<'_>) {
        let mean = self.plan.schedules[self.active].share * self.cycle_length;
        let delay = sample::exponential(ctx.rng(), 1.0 / mean);
        ctx.set_timer(delay);
        let s = &self.plan.schedules[self.active];
        let text = format!(
            "schedule {} of {}: {} (approximation)",
            self.active + 1,
            self.plan.schedules.len(),
            describe(&s.jobs)
        );
        ctx.observe(MsfqObservation::Status(Status::Text(text)));
    }
}

impl MsfqPolicy for Nmsr {
    fn admit(&mut self, ctx: &mut MsfqContext<'_>) -> Result<(), EngineError> {
        let caps = &self.plan.schedules[self.active].jobs;
        loop {
            let st = ctx.state();
            let free = st.free();
            let Some(class) = st.oldest_where(|c| st.in_service(c) < caps[c] && st.need(c) <= free) else {
                return Ok(());
            };
            let why = "nMSR (approximation): the active schedule has room for this class";
            ctx.apply(MsfqDecision::Start { class, why })?;
        }
    }

    fn on_start(&mut self, ctx: &mut MsfqContext<'_>) {
        self.hold(ctx);
    }

    fn on_timer(&mut self, ctx: &mut MsfqContext<'_>) {
        self.active = (self.active + 1) % self.plan.schedules.len();
        self.hold(ctx);
    }
}

/// "1 × 32 cores" or "32 × 1 core".
fn describe(jobs: &[u32]) -> String {
    let parts: Vec<String> =
        jobs.iter().enumerate().filter(|(_, n)| **n > 0).map(|(i, n)| format!("{n} of class {}", i + 1)).collect();
    parts.join(" + ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_or_all_schedules_and_shares_match_the_closed_form() {
        let classes = JobClasses::parse("1@0.9,32@0.1").unwrap();
        let lambda = 7.0;
        let plan = SchedulePlan::solve(32, &classes, lambda).unwrap();
        assert_eq!(plan.schedules.len(), 2);
        // The large-job schedule comes first.
        assert_eq!(plan.schedules[0].jobs, vec![0, 1]);
        assert_eq!(plan.schedules[1].jobs, vec![32, 0]);
        // π_large = (kμ1 − λ1 + λk)/(μk + kμ1), which equalises the two slacks.
        let (l1, lk) = (0.9 * lambda, 0.1 * lambda);
        let large = (32.0 - l1 + lk) / (1.0 + 32.0);
        assert!((plan.schedules[0].share - large).abs() < 1e-9, "{plan:?}");
        assert!((plan.slack - (large - lk)).abs() < 1e-9);
        // Above the capacity bound 7.80488 the slack turns negative.
        assert!(SchedulePlan::solve(32, &classes, 7.9).unwrap().slack < 0.0);
    }

    #[test]
    fn maximal_schedules_fill_the_machine() {
        let all = maximal_schedules(15, &[1, 3, 5, 15]).unwrap();
        // a + 3b + 5c + 15d = 15 (need 1 is present, so maximal means full).
        let brute = (0..=15u32)
            .flat_map(|a| {
                (0..=5u32).flat_map(move |b| (0..=3u32).flat_map(move |c| (0..=1u32).map(move |d| [a, b, c, d])))
            })
            .filter(|u| u[0] + 3 * u[1] + 5 * u[2] + 15 * u[3] == 15)
            .count();
        assert_eq!(all.len(), brute);
        for u in &all {
            assert_eq!(u[0] + 3 * u[1] + 5 * u[2] + 15 * u[3], 15);
        }
        // Without a need-1 class a schedule can leave cores idle: needs 4 and 6 on 10 cores.
        assert_eq!(maximal_schedules(10, &[4, 6]).unwrap(), vec![vec![1, 1], vec![2, 0]]);
    }

    #[test]
    fn a_huge_class_table_is_refused_by_name() {
        let classes = JobClasses::parse("1@0.2,2@0.2,3@0.2,5@0.2,7@0.2").unwrap();
        let e = SchedulePlan::solve(2048, &classes, 1.0).unwrap_err();
        assert_eq!(e.key, "policy");
        assert!(e.message.contains("nmsr") && e.message.contains("maximal schedules"), "{e}");
    }
}
