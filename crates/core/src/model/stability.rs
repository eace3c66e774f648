//! What a model's theory says about stability, on its load knob: the capacity (the largest
//! load any policy can sustain) where it is known in closed form or by the model's LP, and
//! the fraction of it a paper proves a policy keeps. The stability map
//! ([`crate::stability`]) draws both next to what it measures.

use serde::Serialize;

/// The largest load any policy can keep stable, on the scenario's load knob.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Capacity {
    pub load: f64,
    /// How it is known, for a legend: "LP over the server configurations".
    pub source: &'static str,
}

/// A policy's proven stability region as a fraction of the capacity.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Guarantee {
    /// Stable at every load below `fraction` × the capacity.
    pub fraction: f64,
    /// The result that proves it: "Theorem 3 (VQS: 2/3 of the capacity)".
    pub claim: &'static str,
}

/// What the theory says of one policy's stability on one scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Default)]
pub struct StabilityTheory {
    pub capacity: Option<Capacity>,
    pub guarantee: Option<Guarantee>,
}

impl StabilityTheory {
    /// The proven load: the guarantee's fraction of the capacity, where both are known.
    pub fn proven_load(&self) -> Option<f64> {
        Some(self.capacity.as_ref()?.load * self.guarantee.as_ref()?.fraction)
    }
}
