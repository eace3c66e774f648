//! MSFQ's stability theory on the load knob λ (SPEC 5.3): the capacity (the LP over the
//! schedules), the guarantees of Theorems 1 and 3 (MSF and MSFQ, one-or-all classes) and of
//! Remark 1 (Static Quickswap) with their hypotheses, and the load marks.

use std::cell::RefCell;

use super::classes::JobClasses;
use super::policies;
use super::scenario::MsfqScenario;
use crate::model::policy::PolicySpec;
use crate::model::{Capacity, Guarantee, Hypothesis, LoadMark};
use crate::resources::capacity::{Kind, along, along_by_pricing, best_schedule};
use crate::workload::ServiceLaw;

/// Load marks in units of λ: the capacity (beyond it no policy is stable; for one-or-all
/// classes MSF and MSFQ reach it, Theorems 1 and 3), or the work bound Σ_j j·λ_j/(k·μ_j) < 1
/// where the capacity is not computed; and, where it is lower and Remark 1's hypotheses
/// hold, Static Quickswap's sufficient condition Σ_j λ_j/(⌊k/j⌋·μ_j) < 1.
pub fn marks(scenario: &MsfqScenario) -> Vec<LoadMark> {
    let (cores, classes) = (scenario.cores, &scenario.classes);
    let (capacity, label) = match schedule_capacity(cores, classes) {
        Some(c) => (c, format!("capacity λ = {c:.4}")),
        None => {
            let w = work_bound(cores, classes);
            (w, format!("work bound λ = {w:.4} (the capacity is at most this)"))
        }
    };
    let mut marks = vec![LoadMark { load: capacity, label, short: "λ max" }];
    let quickswap = quickswap_bound(cores, classes);
    let proven = guarantee(scenario, "static-qs", false).is_some_and(|g| g.holds());
    if quickswap < capacity * (1.0 - 1e-9) && proven {
        marks.push(LoadMark {
            load: quickswap,
            label: format!("Static QS stable below λ = {quickswap:.4}"),
            short: "λ max",
        });
    }
    marks
}

/// The capacity of a scenario without a log (a log's classes are fitted to it, and λ is then
/// its traffic scaling). Whatever the size law: no policy keeps a larger λ stable (the jobs in
/// service average to a time-sharing of schedules), and one that runs the LP's schedules for
/// long frames, each slot restarting jobs of its class and the machine emptied between frames,
/// keeps every smaller λ stable (RES-76).
pub fn capacity_of(scenario: &MsfqScenario) -> Option<Capacity> {
    if scenario.trace.is_some() {
        return None;
    }
    let load = schedule_capacity(scenario.cores, &scenario.classes)?;
    Some(Capacity { load, source: "LP over the maximal schedules" })
}

/// Largest cores × classes the knapsack pricing of [`schedule_capacity`] takes on (each of its
/// rounds costs that many steps, and a table of many classes takes many rounds); past it, and
/// past the schedules' enumeration, the capacity is not computed. msfq-d6 (26 classes on
/// 2048 cores) takes 53 248.
pub const PRICING_BUDGET: u64 = 1 << 18;

/// A capacity with the cores and classes it was computed for.
type Cached = ((u32, JobClasses), Option<f64>);

thread_local! {
    /// The last capacity computed, by its cores and classes: the page asks for it (the load's
    /// marks, the map's cells) at every render, and pricing a large table takes a while.
    static LAST: RefCell<Option<Cached>> = const { RefCell::new(None) };
}

/// The capacity: the largest total arrival rate λ for which the classes' work λ·p_i·E\[S_i\]
/// fits a time-sharing of the maximal schedules (Σ_m π_m·u_{m,i} ≥ λ·p_i·E\[S_i\], Σ π_m = 1).
/// It equals k / Σ_j p_j·j·E\[S_j\] when schedules can fill every core (one-or-all classes,
/// or every need dividing k). The LP over the maximal schedules where nMSR's enumeration lists
/// them; past it, the same LP by pricing (a knapsack finds each next schedule); `None` past
/// [`PRICING_BUDGET`].
pub fn schedule_capacity(cores: u32, classes: &JobClasses) -> Option<f64> {
    let hit = LAST.with_borrow(|last| {
        last.as_ref().filter(|((k, c), _)| *k == cores && c == classes).map(|(_, capacity)| *capacity)
    });
    if let Some(capacity) = hit {
        return capacity;
    }
    let capacity = compute_capacity(cores, classes);
    LAST.with_borrow_mut(|last| *last = Some(((cores, classes.clone()), capacity)));
    capacity
}

fn compute_capacity(cores: u32, classes: &JobClasses) -> Option<f64> {
    let needs: Vec<u32> = classes.as_slice().iter().map(|c| c.need).collect();
    let direction: Vec<f64> = classes.as_slice().iter().map(|c| c.probability * c.mean_size).collect();
    match policies::nmsr::maximal_schedules(cores, &needs) {
        Some(schedules) => {
            let kind = Kind { count: 1.0, configurations: schedules.iter().map(Vec::as_slice).collect() };
            along(&direction, &[kind])
        }
        None if u64::from(cores) * needs.len() as u64 <= PRICING_BUDGET => {
            along_by_pricing(&direction, 1.0, |w| best_schedule(cores, &needs, w))
        }
        None => None,
    }
}

/// The work bound k / Σ_j p_j·j·E\[S_j\]: no λ above it is stable; the capacity where
/// schedules can fill every core.
pub fn work_bound(cores: u32, classes: &JobClasses) -> f64 {
    cores as f64 / classes.work_per_arrival()
}

/// Static Quickswap's sufficient condition Σ_j λ_j/(⌊k/j⌋·μ_j) < 1 as a total arrival rate.
pub fn quickswap_bound(cores: u32, classes: &JobClasses) -> f64 {
    1.0 / classes.as_slice().iter().map(|c| c.probability * c.mean_size / (cores / c.need) as f64).sum::<f64>()
}

/// The guarantee of policy `name` (MSFQ with `open` phase 4: the MSFQ-C option), with its
/// hypotheses checked against `scenario`: Theorems 1 and 3 for MSF and MSFQ (all of the
/// capacity), Remark 1 for Static Quickswap (its sufficient condition's share of it).
///
/// The paper's model (§3) has Poisson arrivals and exponential sizes; Theorems 1 and 3 are
/// stated for the 2-class one-or-all system, for MSFQ with the phase 4 of §3 (no small job
/// starts until those in service finish). Remark 1 is a proof sketch for general classes.
pub fn guarantee(scenario: &MsfqScenario, name: &str, open: bool) -> Option<Guarantee> {
    let (theorem, claim) = match name {
        "msf" => ("Theorem 1", "MSF is throughput-optimal for one-or-all jobs"),
        "msfq" => ("Theorem 3", "MSFQ is throughput-optimal for one-or-all jobs"),
        "static-qs" => ("Remark 1", "Static Quickswap is stable below its sufficient condition"),
        _ => return None,
    };
    let logged = scenario.trace.is_some();
    let mut hypotheses = vec![
        if logged {
            Hypothesis::new("Poisson arrivals", "§3", false, "this scenario replays an SWF log")
        } else {
            Hypothesis::new("Poisson arrivals", "§3", true, "this scenario's are Poisson")
        },
        match (logged, scenario.service) {
            (true, _) => Hypothesis::new(SIZES, "§3", false, "this scenario's run times come from the log"),
            (false, ServiceLaw::Exponential) => Hypothesis::new(SIZES, "§3", true, "this scenario's are exponential"),
            (false, ServiceLaw::Deterministic) => {
                Hypothesis::new(SIZES, "§3", false, "this scenario's are deterministic (each class's mean)")
            }
            (false, ServiceLaw::Hyperexponential { scv }) => {
                Hypothesis::new(SIZES, "§3", false, format!("this scenario's are hyperexponential (SCV {scv})"))
            }
        },
    ];
    let fraction = if name == "static-qs" {
        let capacity = schedule_capacity(scenario.cores, &scenario.classes)?;
        (quickswap_bound(scenario.cores, &scenario.classes) / capacity).min(1.0)
    } else {
        let needs: Vec<String> = scenario.classes.as_slice().iter().map(|c| c.need.to_string()).collect();
        let k = scenario.cores;
        // A long table by its ends.
        let needs = match needs.len() {
            n if n > 8 => format!("{}, {}, …, {} ({n} classes)", needs[0], needs[1], needs[n - 1]),
            _ => needs.join(", "),
        };
        let why = format!("this scenario's needs are {needs} on k = {k} cores");
        hypotheses.push(Hypothesis::new(
            "one-or-all classes",
            "the theorem's 2-class system: every job needs 1 core or all k",
            scenario.classes.is_one_or_all(k),
            why,
        ));
        if name == "msfq" {
            hypotheses.push(if open {
                Hypothesis::new(
                    PHASE4,
                    "§3: no small job starts until those in service finish",
                    false,
                    "this policy lets small jobs start in phase 4 (phase4=open)",
                )
            } else {
                Hypothesis::new(
                    PHASE4,
                    "§3: no small job starts until those in service finish",
                    true,
                    "this policy keeps it",
                )
            });
        }
        1.0
    };
    Some(Guarantee { fraction, theorem, claim, hypotheses })
}

/// The guarantee of a policy spec (MSFQ's `phase4` read from it).
pub fn guarantee_of(scenario: &MsfqScenario, spec: &PolicySpec) -> Option<Guarantee> {
    guarantee(scenario, spec.name(), spec.param("phase4") == Some("open"))
}

const SIZES: &str = "exponential sizes";
const PHASE4: &str = "the paper's phase 4";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::capacity::{along_by_vertices, brute_maximal, pricing};

    fn preset(id: &str) -> MsfqScenario {
        super::super::presets::presets().into_iter().find(|p| p.id == id).expect("a preset").scenario
    }

    #[test]
    fn bounds_of_the_presets() {
        let d1 = preset("msfq-d1");
        let one_or_all = d1.classes.clone();
        let m = marks(&d1);
        assert_eq!(m.len(), 1);
        assert!((m[0].load - 7.80488).abs() < 1e-5, "{}", m[0].load);
        let four = JobClasses::parse("1@0.5,3@0.25,5@0.2,15@0.05").unwrap();
        let m = marks(&MsfqScenario { cores: 15, classes: four.clone(), ..d1.clone() });
        assert_eq!(m.len(), 1, "every need divides 15");
        assert!((m[0].load - 5.0).abs() < 1e-9);
        // k = 3, needs 1 and 2: capacity 3 / (0.5 + 1) = 2; Static QS runs one 2-core job at a
        // time, 1 / (0.5/3 + 0.5/1) = 1.5.
        let odd = JobClasses::parse("1@0.5,2@0.5").unwrap();
        let m = marks(&MsfqScenario { cores: 3, classes: odd.clone(), ..d1.clone() });
        assert_eq!(m.len(), 2);
        assert!((m[0].load - 2.0).abs() < 1e-9 && (m[1].load - 1.5).abs() < 1e-9);
        // Remark 1 assumes exponential sizes: with deterministic ones its mark goes.
        let fixed = MsfqScenario { cores: 3, classes: odd.clone(), service: ServiceLaw::Deterministic, ..d1.clone() };
        assert_eq!(marks(&fixed).len(), 1);
        // The LP agrees with the work bound where schedules fill the machine.
        for (k, classes) in [(32, &one_or_all), (15, &four), (3, &odd)] {
            let lp = schedule_capacity(k, classes).unwrap();
            assert!((lp - work_bound(k, classes)).abs() < 1e-6, "{k}: {lp}");
        }
        // Only one 2-core job fits on 3 cores: the capacity is 1, not the work bound 1.5, and
        // the mark says 1.
        let two = JobClasses::parse("2@1").unwrap();
        assert!((schedule_capacity(3, &two).unwrap() - 1.0).abs() < 1e-9);
        let m = marks(&MsfqScenario { cores: 3, classes: two, ..d1 });
        assert!((m[0].load - 1.0).abs() < 1e-9 && m[0].label.starts_with("capacity"), "{m:?}");
    }

    /// Each preset's capacity against a second computation: the dual's vertices over the
    /// tests' own enumeration of the schedules where they are few, and for the Borg-like table
    /// (too many schedules to list) the primal LP over the schedules the pricing found, a
    /// lower bound that must meet the pricing's dual bound.
    #[test]
    fn the_capacity_of_every_preset_is_checked_a_second_way() {
        for p in super::super::presets::presets() {
            let s = &p.scenario;
            let capacity = capacity_of(s).unwrap_or_else(|| panic!("{}: no capacity", p.id)).load;
            let needs: Vec<Vec<u64>> = s.classes.as_slice().iter().map(|c| vec![u64::from(c.need)]).collect();
            let direction: Vec<f64> = s.classes.as_slice().iter().map(|c| c.probability * c.mean_size).collect();
            let second = if s.classes.len() <= 4 {
                along_by_vertices(&direction, &[(1.0, brute_maximal(&needs, &[u64::from(s.cores)]))])
            } else {
                let needs: Vec<u32> = s.classes.as_slice().iter().map(|c| c.need).collect();
                let (dual, columns) = pricing(&direction, 1.0, |w| best_schedule(s.cores, &needs, w)).unwrap();
                let kind = Kind { count: 1.0, configurations: columns.iter().map(Vec::as_slice).collect() };
                let primal = along(&direction, &[kind]).unwrap();
                assert!((primal - dual).abs() <= 1e-9 * dual, "{}: primal {primal}, dual {dual}", p.id);
                primal
            };
            assert!((capacity - second).abs() <= 1e-9 * capacity, "{}: {capacity} and {second}", p.id);
            // Never above the work bound, never below what Static Quickswap is proven to keep.
            assert!(capacity <= work_bound(s.cores, &s.classes) * (1.0 + 1e-12), "{}", p.id);
            assert!(capacity >= quickswap_bound(s.cores, &s.classes) * (1.0 - 1e-12), "{}", p.id);
        }
    }

    #[test]
    fn msf_is_proven_only_under_exponential_sizes_and_one_or_all_classes() {
        let d1 = preset("msfq-d1");
        let msf = guarantee(&d1, "msf", false).unwrap();
        assert!(msf.holds(), "{msf:?}");
        let fixed = MsfqScenario { service: ServiceLaw::Deterministic, ..d1.clone() };
        let why = guarantee(&fixed, "msf", false).unwrap().why_not().unwrap();
        assert_eq!(
            why,
            "Theorem 1 assumes exponential sizes (§3); this scenario's are deterministic (each class's mean)"
        );
        let heavy = MsfqScenario { service: ServiceLaw::Hyperexponential { scv: 4.0 }, ..d1.clone() };
        assert!(guarantee(&heavy, "msfq", false).unwrap().why_not().unwrap().contains("hyperexponential (SCV 4)"));
        // MSFQ-C is not the phase 4 Theorem 3 is about.
        let open = guarantee(&d1, "msfq", true).unwrap();
        assert!(!open.holds() && open.why_not().unwrap().contains("phase4=open"), "{open:?}");
        // MSF on general classes: Theorem 1 does not speak of them.
        let d5 = preset("msfq-d5");
        let general = guarantee(&d5, "msf", false).unwrap().why_not().unwrap();
        assert!(general.contains("one-or-all") && general.contains("1, 3, 5, 15 on k = 15"), "{general}");
        // Static Quickswap on the four classes: all of the capacity, by Remark 1.
        let qs = guarantee(&d5, "static-qs", false).unwrap();
        assert!(qs.holds() && (qs.fraction - 1.0).abs() < 1e-9, "{qs:?}");
        assert_eq!(guarantee(&d5, "fcfs", false), None);
    }
}
