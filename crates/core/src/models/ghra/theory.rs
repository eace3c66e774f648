//! GH-RA's theory (SPEC 3.3): the traffic vector V that puts λ = ζ·V on the boundary of the
//! capacity region, and the product-form stationary law of the loss system LOSS(L, J, w)
//! (Lemma 1), against which the tests check the engine's Poisson clocks.

use std::cell::RefCell;

use crate::resources::{Configurations, FleetConfigurations, Resources, TooManyConfigurations};

/// A traffic vector with the demands and capacities it was computed for.
type CachedTraffic = ((Vec<Resources>, Vec<Resources>), Result<Vec<f64>, TooManyConfigurations>);

thread_local! {
    /// The last traffic vector computed, by its demands and capacities: the page asks for it
    /// (through the load's marks and the offered occupancy) at every render, and a large fleet
    /// takes an enumeration of every distinct capacity.
    static LAST: RefCell<Option<CachedTraffic>> = const { RefCell::new(None) };
}

/// V = Σ_ℓ V^ℓ, where V^ℓ is the plain average of server ℓ's maximal configurations (RES-21).
/// With μ_j = 1, λ = ζ·V is on the boundary of the capacity region at ζ = 1.
pub fn traffic_vector(demands: &[Resources], capacities: &[Resources]) -> Result<Vec<f64>, TooManyConfigurations> {
    let hit = LAST.with_borrow(|last| {
        last.as_ref().filter(|((d, c), _)| d == demands && c == capacities).map(|(_, v)| v.clone())
    });
    if let Some(v) = hit {
        return v;
    }
    let v = compute_traffic_vector(demands, capacities);
    LAST.with_borrow_mut(|last| *last = Some(((demands.to_vec(), capacities.to_vec()), v.clone())));
    v
}

fn compute_traffic_vector(demands: &[Resources], capacities: &[Resources]) -> Result<Vec<f64>, TooManyConfigurations> {
    let fleet = FleetConfigurations::enumerate(demands, capacities)?;
    let averages: Vec<Vec<f64>> = fleet.distinct.iter().map(|(_, configs)| configs.maximal_average()).collect();
    let mut v = vec![0.0; demands.len()];
    for &i in &fleet.of_server {
        for (sum, a) in v.iter_mut().zip(&averages[i]) {
            *sum += a;
        }
    }
    Ok(v)
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
