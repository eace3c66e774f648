//! PG-RR's bounds in units of the load α (SPEC 2.3): the capacity ρ* (the LP over the
//! configurations), the guarantees of Theorems 2-4 with their hypotheses, and the load marks.

use super::PgrrScenario;
use super::service::SlotService;
use super::sizes::{CAPACITY_UNITS, SizeDist, format_fraction};
use crate::model::{Capacity, Guarantee, Hypothesis};
use crate::models::LoadMark;
use crate::resources::capacity::{Kind, along};

/// The load marks: the work-conservation bound α = 1, the capacity ρ* where the LP knows it
/// and it is lower, and the guarantees of BF-J/S (ρ*/2, Theorem 2) and VQS ((2/3)ρ*, Theorem
/// 3 at the scenario's J) where their hypotheses hold on this scenario. Where ρ* is unknown (a
/// continuous size law) the guarantees are marked at their largest possible value, ρ* = 1,
/// and say so.
pub fn marks(scenario: &PgrrScenario) -> Vec<LoadMark> {
    let capacity = capacity_of(scenario).map(|c| c.load);
    let mut marks = vec![LoadMark { load: 1.0, label: "work-conservation bound α = 1".into(), short: "α = 1" }];
    if let Some(rho) = capacity.filter(|&rho| rho < 1.0 - 1e-9) {
        marks.push(LoadMark {
            load: rho,
            label: format!("capacity ρ*, α = {}", crate::model::table::sig(rho)),
            short: "ρ*",
        });
    }
    let rho = capacity.unwrap_or(1.0);
    let at_most = if capacity.is_some() { "" } else { ", at most (ρ* unknown)" };
    for (name, fraction, label, short) in
        [("bf-js", 0.5, "BF-J/S guarantee ρ*/2", "ρ*/2"), ("vqs", 2.0 / 3.0, "VQS guarantee (2/3)ρ*", "(2/3)ρ*")]
    {
        if guarantee(scenario, name, scenario.j).is_some_and(|g| g.holds()) {
            marks.push(LoadMark { load: fraction * rho, label: format!("{label}{at_most}"), short });
        }
    }
    marks
}

/// The capacity ρ* of a scenario: the LP over the configurations, for discrete sizes and no
/// trace. Whatever the service law: no policy keeps a load above it stable (the jobs in
/// service average to a point of L·conv(K)), and a policy that holds each configuration of
/// the LP's solution for long frames, stalling servers to empty between them (the stalling of
/// PG-RR §VIII), keeps every load below it stable (RES-76).
pub fn capacity_of(scenario: &PgrrScenario) -> Option<Capacity> {
    let SizeDist::Discrete(d) = &scenario.size else { return None };
    if !scenario.trace.is_none() {
        return None;
    }
    let load = capacity(d.sizes(), d.probs(), CAPACITY_UNITS)?;
    Some(Capacity { load, source: "LP over the server configurations" })
}

/// The guarantee a theorem of PG-RR gives policy `name` (partition depth `j` for the
/// virtual-queue policies), with its hypotheses checked against `scenario`: Theorem 2 for
/// BF-J/S (half the capacity), Theorems 3 and 4 for VQS and VQS-BF (2/3 of it).
///
/// Every theorem assumes geometric service (§II: "made to simplify the proofs"; §VIII: other
/// laws need servers stalled until they empty, which these policies do not do) and arrivals
/// i.i.d. over slots with a finite second moment (§II; Poisson here, not a trace). Theorem 2
/// adds a minimum size u > 0, Theorems 3 and 4 a minimum size of at least 1/2^J.
pub fn guarantee(scenario: &PgrrScenario, name: &str, j: u8) -> Option<Guarantee> {
    let (fraction, theorem, claim) = match name {
        "bf-js" => (0.5, "Theorem 2", "BF-J/S is stable below half the capacity"),
        "vqs" => (2.0 / 3.0, "Theorem 3", "VQS is stable below 2/3 of the capacity"),
        "vqs-bf" => (2.0 / 3.0, "Theorem 4", "VQS-BF is stable below 2/3 of the capacity"),
        _ => return None,
    };
    let traced = !scenario.trace.is_none();
    let service = |holds, why: String| Hypothesis::new("geometric service", SERVICE_SOURCE, holds, why);
    let service = match (traced, scenario.service) {
        (true, _) => service(false, "this scenario's durations come from a trace".into()),
        (false, SlotService::Geometric { mean }) => {
            service(true, format!("this scenario's is geometric (mean {mean} slots)"))
        }
        (false, SlotService::Deterministic { slots }) => {
            service(false, format!("this scenario's is fixed ({slots} slots)"))
        }
    };
    let arrivals = |holds, why| Hypothesis::new("arrivals i.i.d. over slots", "§II", holds, why);
    let arrivals = if traced {
        arrivals(false, "this scenario replays a trace")
    } else {
        arrivals(true, "this scenario's are Poisson")
    };
    let smallest = format_fraction(scenario.size.min());
    let sizes = if name == "bf-js" {
        // Sizes are whole units of the capacity, so never 0.
        let why = if traced {
            "a trace's sizes are whole units too".into()
        } else {
            format!("this scenario's smallest is {smallest}")
        };
        Hypothesis::new("a minimum job size u > 0", "Theorem 2's statement", true, why)
    } else {
        let bound = CAPACITY_UNITS >> j;
        let text = format!("every size at least 1/2^J = {}", format_fraction(bound));
        let (holds, why) = if traced {
            (false, "this scenario's come from a trace, not checked".to_string())
        } else if scenario.size.min() < bound {
            let reach = if matches!(scenario.size, SizeDist::Uniform { .. }) { "go down to" } else { "include" };
            (false, format!("this scenario's sizes {reach} {smallest}"))
        } else {
            (true, format!("this scenario's smallest is {smallest}"))
        };
        Hypothesis::new(text, format!("{theorem}'s statement, J = {j}"), holds, why)
    };
    Some(Guarantee { fraction, theorem, claim, hypotheses: vec![service, arrivals, sizes] })
}

/// Where the papers assume geometric service, and what other laws would need.
const SERVICE_SOURCE: &str =
    "§II; §VIII: other laws need servers stalled until they empty, which these policies do not do";

/// Most server configurations [`capacity`] enumerates before giving up (small sizes among
/// many classes make the count explode; the LP is then not worth solving in a page).
pub const MAX_CONFIGURATIONS: usize = 20_000;

/// The capacity ρ* on the load knob α for discrete sizes: the largest α for which the rates
/// of the size classes lie in L·conv(K), K the configurations that fit a server (SPEC 2.3).
/// λ/μ = α·L/R̄ jobs are in service on average, a share p_i of them of class i, so per server
/// the mean jobs in service are α·p/R̄ and ρ* is how far that direction reaches into conv(K)
/// (the LP of [`crate::resources::capacity::along`] over the maximal configurations). `None`
/// past [`MAX_CONFIGURATIONS`].
pub fn capacity(sizes: &[u64], probs: &[f64], server: u64) -> Option<f64> {
    let configurations = maximal_configurations(sizes, server)?;
    let mean = sizes.iter().zip(probs).map(|(&s, p)| s as f64 * p).sum::<f64>() / server as f64;
    let direction: Vec<f64> = probs.iter().map(|p| p / mean).collect();
    let kind = Kind { count: 1.0, configurations: configurations.iter().map(Vec::as_slice).collect() };
    along(&direction, &[kind])
}

/// Every configuration (jobs per size class) that fits a server of `server` units and takes
/// no further job, or `None` past [`MAX_CONFIGURATIONS`]. Depth-first over the classes; a
/// configuration is maximal when the smallest size no longer fits in what is left.
fn maximal_configurations(sizes: &[u64], server: u64) -> Option<Vec<Vec<u32>>> {
    let smallest = *sizes.iter().min()?;
    let mut found = Vec::new();
    let mut counts = vec![0u32; sizes.len()];
    fn walk(
        class: usize,
        room: u64,
        sizes: &[u64],
        smallest: u64,
        counts: &mut Vec<u32>,
        found: &mut Vec<Vec<u32>>,
    ) -> bool {
        if class == sizes.len() {
            if room < smallest {
                found.push(counts.clone());
            }
            return found.len() <= MAX_CONFIGURATIONS;
        }
        for n in (0..=room / sizes[class]).rev() {
            counts[class] = n as u32;
            if !walk(class + 1, room - n * sizes[class], sizes, smallest, counts, found) {
                return false;
            }
        }
        counts[class] = 0;
        true
    }
    walk(0, server, sizes, smallest, &mut counts, &mut found).then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_capacity_of_the_instability_examples_is_the_work_conservation_bound() {
        let u = 1_000_000;
        // A1: 0.4 + 0.6 fills a server; A2: five 0.2s or two 0.5s do.
        let a1 = capacity(&[4 * u / 10, 6 * u / 10], &[0.5, 0.5], u).unwrap();
        assert!((a1 - 1.0).abs() < 1e-9, "{a1}");
        let a2 = capacity(&[2 * u / 10, 5 * u / 10], &[2.0 / 3.0, 1.0 / 3.0], u).unwrap();
        assert!((a2 - 1.0).abs() < 1e-9, "{a2}");
        // Only one 0.6 fits: at most 0.6 of the work-conservation bound.
        let big = capacity(&[6 * u / 10], &[1.0], u).unwrap();
        assert!((big - 0.6).abs() < 1e-9, "{big}");
        assert_eq!(maximal_configurations(&[u / 1000], u).map(|c| c.len()), Some(1));
    }

    fn preset(id: &str) -> PgrrScenario {
        super::super::presets::presets().into_iter().find(|p| p.id == id).expect("a preset").scenario
    }

    /// Each preset's capacity against a second computation: the dual's vertices over the
    /// tests' own brute-force enumeration of the configurations; none for a continuous law or
    /// a trace.
    #[test]
    fn the_capacity_of_every_preset_is_checked_a_second_way() {
        use crate::resources::capacity::{along_by_vertices, brute_maximal};
        for p in super::super::presets::presets() {
            let s = &p.scenario;
            let (SizeDist::Discrete(d), true) = (&s.size, s.trace.is_none()) else {
                assert_eq!(capacity_of(s), None, "{}", p.id);
                continue;
            };
            let capacity = capacity_of(s).unwrap().load;
            // The same sizes in thousandths of the server: every preset's are whole thousandths.
            let step = CAPACITY_UNITS / 1000;
            assert!(d.sizes().iter().all(|s| s % step == 0), "{}", p.id);
            let demands: Vec<Vec<u64>> = d.sizes().iter().map(|s| vec![s / step]).collect();
            let mean = d.sizes().iter().zip(d.probs()).map(|(&s, p)| s as f64 * p).sum::<f64>() / CAPACITY_UNITS as f64;
            let direction: Vec<f64> = d.probs().iter().map(|p| p / mean).collect();
            let second = along_by_vertices(&direction, &[(1.0, brute_maximal(&demands, &[1000]))]);
            assert!((capacity - second).abs() <= 1e-9, "{}: {capacity} and {second}", p.id);
            assert!((capacity - 1.0).abs() < 1e-9, "{}: packings fill the server", p.id);
        }
    }

    #[test]
    fn the_theorems_need_geometric_service_and_sizes_of_at_least_2_to_the_minus_j() {
        let a1 = preset("pgrr-a1");
        for name in ["bf-js", "vqs", "vqs-bf"] {
            assert!(guarantee(&a1, name, 2).unwrap().holds(), "{name}");
        }
        assert_eq!(guarantee(&a1, "fifo-ff", 2), None);
        // A2's service is fixed at 100 slots: no theorem applies.
        let a2 = preset("pgrr-a2");
        let why = guarantee(&a2, "bf-js", 3).unwrap().why_not().unwrap();
        assert!(why.starts_with("Theorem 2 assumes geometric service (§II"), "{why}");
        assert!(why.ends_with("this scenario's is fixed (100 slots)"), "{why}");
        // Sizes 0.2 below 1/2^2: Theorem 3 fails at J = 2 and holds at J = 3.
        let small = PgrrScenario { size: SizeDist::parse("discrete:0.2@0.5,0.6@0.5").unwrap(), ..a1.clone() };
        let why = guarantee(&small, "vqs", 2).unwrap().why_not().unwrap();
        assert_eq!(
            why,
            "Theorem 3 assumes every size at least 1/2^J = 0.25 (Theorem 3's statement, J = 2); this scenario's sizes \
             include 0.2"
        );
        assert!(guarantee(&small, "vqs", 3).unwrap().holds());
        assert!(guarantee(&small, "bf-js", 2).unwrap().holds());
        // Through the model, the policy's own J counts.
        use crate::model::Model;
        use crate::model::policy::PolicySpec;
        let vqs = |text: &str| {
            super::super::Pgrr::guarantee(&small, &PolicySpec::parse_for::<super::super::Pgrr>(text).unwrap())
        };
        assert!(!vqs("vqs").unwrap().holds() && vqs("vqs:j=3").unwrap().holds());
    }

    #[test]
    fn the_marks_are_the_capacity_and_the_guarantees_that_hold() {
        let loads = |s: &PgrrScenario| marks(s).iter().map(|m| m.load).collect::<Vec<_>>();
        assert_eq!(loads(&preset("pgrr-a1")), [1.0, 0.5, 2.0 / 3.0]);
        // Fixed service: only the work-conservation bound.
        assert_eq!(loads(&preset("pgrr-a2")), [1.0]);
        // Only one 0.6 fits a server: the capacity is 0.6 and the guarantees scale with it.
        let big = PgrrScenario { size: SizeDist::parse("discrete:0.6@1").unwrap(), ..preset("pgrr-a1") };
        let got = loads(&big);
        assert!(got.len() == 4 && (got[1] - 0.6).abs() < 1e-9 && (got[2] - 0.3).abs() < 1e-9, "{got:?}");
        assert!((got[3] - 0.4).abs() < 1e-9, "{got:?}");
        // A continuous law: ρ* unknown, the guarantees at their largest possible value, said so.
        let uniform = marks(&preset("pgrr-a3"));
        assert!(uniform[1].label.ends_with("at most (ρ* unknown)"), "{uniform:?}");
    }
}
