//! PG-RR's bounds in units of the load α (SPEC 2.3).

use crate::models::LoadMark;

/// The work-conservation bound α = 1 and the guarantees of BF-J/S (ρ*/2, Theorem 2) and
/// VQS/VQS-BF ((2/3)ρ*, Theorems 3-4), taking ρ* at the work-conservation bound. Where the
/// capacity ρ* is below L/R̄ the guarantees scale with it.
pub fn marks(capacity_alpha: f64) -> Vec<LoadMark> {
    vec![
        LoadMark { load: 1.0, label: "work-conservation bound α = 1".into(), short: "α = 1" },
        LoadMark { load: capacity_alpha / 2.0, label: "BF-J/S guarantee ρ*/2".into(), short: "ρ*/2" },
        LoadMark { load: 2.0 * capacity_alpha / 3.0, label: "VQS guarantee (2/3)ρ*".into(), short: "(2/3)ρ*" },
    ]
}
