//! GH-RA's theory (SPEC 3.3): the traffic vector V that sets the arrival rates λ = ζ·V, the
//! capacity along it (the largest ζ with ζ·V in the capacity region), and the product-form
//! stationary law of the loss system LOSS(L, J, w) (Lemma 1), against which the tests check
//! the engine's Poisson clocks.

use std::cell::RefCell;

use super::GhraScenario;
use super::policies::Weight;
use crate::model::{Guarantee, Hypothesis};
use crate::resources::capacity::{Kind, along};
use crate::resources::{Configurations, FleetConfigurations, Resources, TooManyConfigurations};
use crate::workload::ServiceLaw;

/// Most maximal configurations, over the fleet's distinct capacities, that [`capacity`] puts
/// in its LP (a column each); past it the capacity is not computed. The presets have a few
/// dozen.
pub const MAX_CAPACITY_COLUMNS: usize = 20_000;

/// V for one fleet and catalogue, and the capacity along it once asked for.
#[derive(Debug, Clone, PartialEq)]
struct Traffic {
    v: Vec<f64>,
    capacity: Option<Option<f64>>,
}

/// The theory computed for some demands and capacities.
type Cached = ((Vec<Resources>, Vec<Resources>), Result<Traffic, TooManyConfigurations>);

thread_local! {
    /// The last traffic vector (and capacity) computed, by their demands and capacities: the
    /// page asks for them (through the load's marks and the offered occupancy) at every
    /// render, and a large fleet takes an enumeration of every distinct capacity.
    static LAST: RefCell<Option<Cached>> = const { RefCell::new(None) };
}

/// The cached theory of a fleet, computed (with the capacity if `with_capacity`) if it is
/// not there yet.
fn traffic(
    demands: &[Resources],
    capacities: &[Resources],
    with_capacity: bool,
) -> Result<Traffic, TooManyConfigurations> {
    let hit = LAST.with_borrow(|last| {
        last.as_ref().filter(|((d, c), _)| d == demands && c == capacities).map(|(_, t)| t.clone())
    });
    if let Some(t) = hit {
        // A hit made without the capacity does not answer for it.
        if !with_capacity || t.as_ref().map_or(true, |t| t.capacity.is_some()) {
            return t;
        }
    }
    let t = compute(demands, capacities, with_capacity);
    LAST.with_borrow_mut(|last| *last = Some(((demands.to_vec(), capacities.to_vec()), t.clone())));
    t
}

/// V = Σ_ℓ V^ℓ, where V^ℓ is the plain average of server ℓ's maximal configurations (RES-21).
/// With μ_j = 1, λ = ζ·V sits on the boundary of the capacity region at ζ = [`capacity`]
/// (1 when every server's maximal configurations lie on one facet, as for the EC2 fleets).
pub fn traffic_vector(demands: &[Resources], capacities: &[Resources]) -> Result<Vec<f64>, TooManyConfigurations> {
    traffic(demands, capacities, false).map(|t| t.v)
}

/// The capacity on the load knob: the largest ζ for which ζ·V lies in the capacity region
/// C = Σ_ℓ conv(K_ℓ) (GH-RA §II; μ_j = 1, so the load vector is λ = ζ·V), from the LP over the
/// fleet's maximal configurations, servers of one capacity taken together (RES-21). `None`
/// past [`MAX_CAPACITY_COLUMNS`] or if the solver fails.
pub fn capacity(demands: &[Resources], capacities: &[Resources]) -> Result<Option<f64>, TooManyConfigurations> {
    traffic(demands, capacities, true).map(|t| t.capacity.flatten())
}

fn compute(
    demands: &[Resources],
    capacities: &[Resources],
    with_capacity: bool,
) -> Result<Traffic, TooManyConfigurations> {
    let fleet = FleetConfigurations::enumerate(demands, capacities)?;
    let averages: Vec<Vec<f64>> = fleet.distinct.iter().map(|(_, configs)| configs.maximal_average()).collect();
    let mut v = vec![0.0; demands.len()];
    let mut counts = vec![0usize; fleet.distinct.len()];
    for &i in &fleet.of_server {
        counts[i] += 1;
        for (sum, a) in v.iter_mut().zip(&averages[i]) {
            *sum += a;
        }
    }
    let capacity = with_capacity.then(|| {
        let kinds: Vec<Kind<'_>> = fleet
            .distinct
            .iter()
            .zip(&counts)
            .map(|((_, configs), &n)| Kind { count: n as f64, configurations: configs.maximal().collect() })
            .collect();
        let columns: usize = kinds.iter().map(|k| k.configurations.len()).sum();
        if columns <= MAX_CAPACITY_COLUMNS { along(&v, &kinds) } else { None }
    });
    Ok(Traffic { v, capacity })
}

/// The guarantee of Theorems 1 and 2 (Algorithms 1 and 2 keep all of the capacity) for
/// policy `name` with weight function `weight`, its hypotheses checked against `scenario`:
///
/// * f(x) = o(log x): the proofs assume the configurations settle faster than the weights move
///   (separation of time scales, §V), which "holds under functions f(x) that grow as
///   o(log(x))"; the paper's own simulations use Θ(log x) forms;
/// * exponential service (§II; §VIII argues by the loss system's insensitivity that other
///   laws do as well, without a proof);
/// * for Algorithm 2, JSQ routing: its proof uses it (step (a) of §VI-B); Remark 1 names
///   power-of-two routing in its place without a proof.
pub fn guarantee(scenario: &GhraScenario, name: &str, weight: Weight) -> Option<Guarantee> {
    let (theorem, claim) = match name {
        "alg1" => ("Theorem 1", "Algorithm 1 is throughput-optimal"),
        "alg2-jsq" | "alg2-po2" => ("Theorem 2", "Algorithm 2 is throughput-optimal"),
        _ => return None,
    };
    let f = weight.formula().split(':').next().unwrap_or_default();
    let (slow, grows) = if weight == Weight::LogLog { (true, "o(log x)") } else { (false, "log x") };
    let f = Hypothesis::new(
        "f(x) = o(log x)",
        "§V: the configurations must settle faster than the weights move",
        slow,
        format!("this policy's {f} grows as {grows}"),
    );
    let law = |holds, why: String| {
        Hypothesis::new(
            "exponential service",
            "§II; §VIII argues other laws by insensitivity, without a proof",
            holds,
            why,
        )
    };
    let service = match scenario.service {
        ServiceLaw::Exponential => law(true, "this scenario's is exponential".into()),
        ServiceLaw::Deterministic => law(false, "this scenario's is deterministic".into()),
        ServiceLaw::Hyperexponential { scv } => law(false, format!("this scenario's is hyperexponential (SCV {scv})")),
    };
    let mut hypotheses = vec![f, service];
    let routing = |holds, why| {
        Hypothesis::new(
            "JSQ routing",
            "§VI-B, step (a); Remark 1 names power-of-two routing without a proof",
            holds,
            why,
        )
    };
    match name {
        "alg2-jsq" => hypotheses.push(routing(true, "this policy routes to the shortest queue")),
        "alg2-po2" => hypotheses.push(routing(false, "this policy routes to the shorter of two")),
        _ => {}
    }
    Some(Guarantee { fraction: 1.0, theorem, claim, hypotheses })
}

/// The stationary law of one server's configuration in LOSS(L, J, w) (Lemma 1): type-j jobs
/// arrive at rate exp(w_j), each picks one of the L servers uniformly and is kept if it fits;
/// service is Exp(μ_j). The law is a product over servers of
/// φ(k) ∝ Π_j (exp(w_j)/(L·μ_j))^{k_j} / k_j!, so the servers are independent and this is
/// each one's marginal, in the order of `configs`. By insensitivity it holds for any service
/// law with these means.
pub fn loss_marginal(configs: &Configurations, w: &[f64], mu: &[f64], servers: usize) -> Vec<f64> {
    let load: Vec<f64> = w.iter().zip(mu).map(|(w, m)| libm::exp(*w) / (servers as f64 * m)).collect();
    let weights: Vec<f64> = configs
        .iter()
        .map(|k| k.iter().zip(&load).map(|(&n, a)| (1..=n).fold(1.0, |acc, i| acc * a / f64::from(i))).product())
        .collect();
    let total: f64 = weights.iter().sum();
    weights.iter().map(|x| x / total).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::ghra::vms::{Fleet, VmCatalog};

    #[test]
    fn traffic_vectors_of_the_presets() {
        let ec2 = VmCatalog::Ec2.demands();
        let v = |fleet: &str| traffic_vector(&ec2, &Fleet::parse(fleet).unwrap().capacities()).unwrap();
        let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9);
        assert!(close(&v("2xsmall"), &[2.0, 2.0 / 3.0, 4.0 / 3.0]));
        assert!(close(&v("10xsmall"), &[10.0, 10.0 / 3.0, 20.0 / 3.0]));
        // B3: 5 small + 5 large; at ζ = 0.9, λ = (7.5, 18, 6).
        let b3 = v("5xsmall,5xlarge");
        assert!(close(&b3, &[25.0 / 3.0, 20.0, 20.0 / 3.0]), "{b3:?}");
        assert!(close(&b3.iter().map(|x| 0.9 * x).collect::<Vec<_>>(), &[7.5, 18.0, 6.0]));
    }

    /// Each preset's capacity against a second computation: the dual's vertices over the
    /// tests' own brute-force enumeration of each kind's maximal configurations.
    #[test]
    fn the_capacity_of_every_preset_is_checked_a_second_way() {
        use crate::model::Model;
        use crate::models::ghra::Ghra;
        use crate::resources::capacity::{along_by_vertices, brute_maximal};
        let expected = [
            ("ghra-b0", 20.0 / 19.0),
            ("ghra-b1", 1.0),
            ("ghra-b2", 1.0),
            ("ghra-b3", 1.0),
            ("ghra-b4", 1.0),
            ("ghra-b5", 1.0),
        ];
        for p in super::super::presets::presets() {
            let s = &p.scenario;
            let capacity = Ghra::capacity(s).unwrap_or_else(|| panic!("{}: no capacity", p.id)).load;
            let demands: Vec<Vec<u64>> = s.types.demands().iter().map(|d| d.as_slice().to_vec()).collect();
            let mut kinds: Vec<(f64, Vec<Vec<u32>>)> = Vec::new();
            let mut seen: Vec<Resources> = Vec::new();
            for c in s.servers.capacities() {
                match seen.iter().position(|d| *d == c) {
                    Some(i) => kinds[i].0 += 1.0,
                    None => {
                        seen.push(c);
                        kinds.push((1.0, brute_maximal(&demands, c.as_slice())));
                    }
                }
            }
            let v = s.traffic_vector().unwrap();
            let second = along_by_vertices(&v, &kinds);
            assert!((capacity - second).abs() <= 1e-9 * capacity, "{}: {capacity} and {second}", p.id);
            if let Some((_, zeta)) = expected.iter().find(|(id, _)| *id == p.id) {
                assert!((capacity - zeta).abs() < 1e-9, "{}: {capacity}", p.id);
            }
        }
        // The load slider marks the capacity.
        let b0 = super::super::presets::presets().into_iter().find(|p| p.id == "ghra-b0").unwrap().scenario;
        let marks = Ghra::marks(&b0);
        assert_eq!(marks.len(), 1);
        assert!((marks[0].load - 20.0 / 19.0).abs() < 1e-9 && marks[0].label.ends_with("ζ = 1.05263"), "{marks:?}");
    }

    #[test]
    fn the_theorems_need_a_slowly_growing_f_exponential_service_and_jsq() {
        let b3 = super::super::presets::presets().into_iter().find(|p| p.id == "ghra-b3").unwrap().scenario;
        assert!(guarantee(&b3, "alg1", Weight::LogLog).unwrap().holds());
        assert!(guarantee(&b3, "alg2-jsq", Weight::LogLog).unwrap().holds());
        let why = guarantee(&b3, "alg1", Weight::Log10).unwrap().why_not().unwrap();
        assert_eq!(
            why,
            "Theorem 1 assumes f(x) = o(log x) (§V: the configurations must settle faster than the weights move); \
             this policy's f(x) = log(10(1+x)) grows as log x"
        );
        let po2 = guarantee(&b3, "alg2-po2", Weight::LogLog).unwrap().why_not().unwrap();
        assert!(po2.starts_with("Theorem 2 assumes JSQ routing") && po2.contains("shorter of two"), "{po2}");
        let fixed = GhraScenario { service: ServiceLaw::Deterministic, ..b3.clone() };
        let why = guarantee(&fixed, "alg2-jsq", Weight::LogLog).unwrap().why_not().unwrap();
        assert!(why.contains("exponential service") && why.ends_with("this scenario's is deterministic"), "{why}");
        assert_eq!(guarantee(&b3, "mw-local", Weight::LogLog), None);
    }

    #[test]
    fn loss_marginal_is_a_normalised_product_form() {
        let configs =
            Configurations::enumerate(&[Resources::scalar(2), Resources::scalar(3)], &Resources::scalar(10)).unwrap();
        let p = loss_marginal(&configs, &[0.0, 0.0], &[1.0, 1.0], 1);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // φ(k) ∝ 1/(k1!·k2!): (0,0) weighs 1, (1,1) weighs 1, (2,0) weighs 1/2.
        let at = |k: &[u32]| p[configs.position(k).unwrap()];
        assert!((at(&[0, 0]) - at(&[1, 1])).abs() < 1e-15);
        assert!((at(&[2, 0]) - at(&[0, 0]) / 2.0).abs() < 1e-15);
    }
}
