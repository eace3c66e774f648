//! The papers' bounds, in the units of each preset's load knob, for drawing next to the
//! simulations.

use serde::{Deserialize, Serialize};

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

/// The load marks of `scenario`'s model, in units of its load knob.
pub fn load_marks(scenario: &crate::scenario::Scenario) -> Vec<LoadMark> {
    match scenario {
        crate::scenario::Scenario::Pgrr(_) => pgrr_marks(1.0),
    }
}
