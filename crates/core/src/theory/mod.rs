//! The papers' bounds, in the units of each preset's load knob, for drawing next to the
//! simulations.

pub mod ghra;
pub mod msfq;
pub mod pgas;

use serde::{Deserialize, Serialize};

use crate::scenario::Scenario;
use crate::workload::JobClasses;

/// A load value the theory marks, with its meaning.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadMark {
    pub load: f64,
    pub label: String,
}

/// PG-RR load marks in units of α (SPEC 2.3): the work-conservation bound α = 1 and the
/// guarantees of BF-J/S (ρ*/2, Theorem 2) and VQS/VQS-BF ((2/3)ρ*, Theorems 3-4), taking
/// ρ* at the work-conservation bound. Where the capacity ρ* is below L/R̄ the guarantees
/// scale with it.
pub fn pgrr_marks(capacity_alpha: f64) -> Vec<LoadMark> {
    vec![
        LoadMark { load: 1.0, label: "work-conservation bound α = 1".into() },
        LoadMark { load: capacity_alpha / 2.0, label: "BF-J/S guarantee ρ*/2".into() },
        LoadMark { load: 2.0 * capacity_alpha / 3.0, label: "VQS guarantee (2/3)ρ*".into() },
    ]
}

/// Multiserver-job load marks in units of λ (SPEC 5.3): the capacity bound
/// Σ_j j·λ_j/(k·μ_j) < 1, beyond which no policy is stable (for one-or-all classes MSF and
/// MSFQ reach it: Theorems 1 and 3), and, where it is lower, Static Quickswap's sufficient
/// condition Σ_j λ_j/(⌊k/j⌋·μ_j) < 1 (Remark 1).
pub fn msj_marks(cores: u32, classes: &JobClasses) -> Vec<LoadMark> {
    let capacity = msj_capacity(cores, classes);
    let mut marks = vec![LoadMark { load: capacity, label: format!("capacity bound λ = {capacity:.4}") }];
    let quickswap =
        1.0 / classes.as_slice().iter().map(|c| c.probability * c.mean_size / (cores / c.need) as f64).sum::<f64>();
    if quickswap < capacity * (1.0 - 1e-9) {
        marks.push(LoadMark { load: quickswap, label: format!("Static QS stable below λ = {quickswap:.4}") });
    }
    marks
}

/// The largest total arrival rate any policy can sustain: k / Σ_j p_j·j·E[S_j].
pub fn msj_capacity(cores: u32, classes: &JobClasses) -> f64 {
    cores as f64 / classes.work_per_arrival()
}

/// The input of the MSFQ analysis (SPEC 5.6) for `policy` on `scenario`, where it applies:
/// MSF or MSFQ (strict phase 4) on exactly the classes {1, k}, exponential service.
pub fn msfq_input(scenario: &Scenario, policy: &crate::policy::PolicySpec) -> Option<msfq::MsfqInput> {
    use crate::policy::PolicyKind;
    let Scenario::Msj(s) = scenario else { return None };
    let k = s.cores;
    let l = match policy.kind {
        PolicyKind::Msf => 0,
        PolicyKind::Msfq if !policy.msj.open_phase4 => policy.msj.l.unwrap_or(k.saturating_sub(1)),
        _ => return None,
    };
    let classes = s.classes.as_slice();
    if s.service != crate::workload::ServiceLaw::Exponential || k < 2 || classes.len() != 2 {
        return None;
    }
    let (small, large) = (classes[0], classes[1]);
    if small.need != 1 || large.need != k {
        return None;
    }
    Some(msfq::MsfqInput {
        k,
        lambda: s.load,
        p1: small.probability,
        mu1: 1.0 / small.mean_size,
        muk: 1.0 / large.mean_size,
        l,
    })
}

/// The analytic E[T] of `policy` on `scenario` where the analysis applies and answers.
pub fn analytic_mean_response(scenario: &Scenario, policy: &crate::policy::PolicySpec) -> Option<msfq::MsfqAnalysis> {
    msfq::msfq_analysis(&msfq_input(scenario, policy)?).ok()
}

/// The load marks of `scenario`'s model, in units of its load knob.
pub fn load_marks(scenario: &Scenario) -> Vec<LoadMark> {
    match scenario {
        Scenario::Pgrr(_) => pgrr_marks(1.0),
        Scenario::Msj(s) => msj_marks(s.cores, &s.classes),
        Scenario::Vm(_) => vm_marks(),
        Scenario::Pgas(s) => pgas_marks(s),
    }
}

/// PG-AS load marks in units of α: on the worst-case collection C2, Fig. 2's critical points
/// α = 6/7 (below it the greedy serves everything, U^(g) = U*) and α = 6 (from it every server
/// runs the best configuration full); none for other types.
pub fn pgas_marks(scenario: &crate::scenario::PgasScenario) -> Vec<LoadMark> {
    if scenario.types != crate::scenario::PgasTypes::C2 || scenario.rho.is_some() {
        return Vec::new();
    }
    vec![
        LoadMark { load: 6.0 / 7.0, label: "U^(g) = U* up to α = 6/7".into() },
        LoadMark { load: 6.0, label: "U^(g) = U* = 1272 from α = 6".into() },
    ]
}

/// The reference lines of a PG-AS scenario's reward charts: U^(g) and U* at its α·ρ (`None`
/// for other models, a trace, random collections, or if the LP fails).
pub fn pgas_reference(scenario: &Scenario) -> Option<crate::scenario::RewardReference> {
    match scenario {
        Scenario::Pgas(s) => s.reference().ok().flatten(),
        _ => None,
    }
}

/// VM-scheduling load marks in units of ζ (SPEC 3.3): at ζ = 1 the arrival rates λ = V sit
/// on the boundary of the capacity region; Algorithms 1 and 2 are stable for every ζ < 1.
pub fn vm_marks() -> Vec<LoadMark> {
    vec![LoadMark { load: 1.0, label: "capacity region boundary ζ = 1".into() }]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn msj_bounds_of_the_presets() {
        let one_or_all = JobClasses::parse("1@0.9,32@0.1").unwrap();
        let marks = msj_marks(32, &one_or_all);
        assert_eq!(marks.len(), 1);
        assert!((marks[0].load - 7.80488).abs() < 1e-5, "{}", marks[0].load);
        let four = JobClasses::parse("1@0.5,3@0.25,5@0.2,15@0.05").unwrap();
        let marks = msj_marks(15, &four);
        assert_eq!(marks.len(), 1, "every need divides 15");
        assert!((marks[0].load - 5.0).abs() < 1e-9);
        // k = 3, needs 1 and 2: capacity 3 / (0.5 + 1) = 2; Static QS runs one 2-core job at a
        // time, 1 / (0.5/3 + 0.5/1) = 1.5.
        let odd = JobClasses::parse("1@0.5,2@0.5").unwrap();
        let marks = msj_marks(3, &odd);
        assert_eq!(marks.len(), 2);
        assert!((marks[0].load - 2.0).abs() < 1e-9 && (marks[1].load - 1.5).abs() < 1e-9);
    }
}
