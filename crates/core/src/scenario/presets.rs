//! The preset catalogue: every figure and instability example of the papers (SPEC 2.5, 7).

use super::{PgrrScenario, Scenario};
use crate::ConfigError;
use crate::policy::{PolicyKind, PolicySpec};
use crate::workload::{SizeDist, SlotService};

/// A one-click scenario with the policies it compares.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// Lower-case SPEC id, e.g. `pgrr-a1`.
    pub id: &'static str,
    pub title: &'static str,
    /// The paper figure or result it reproduces.
    pub figure: &'static str,
    /// One line on what it shows.
    pub summary: &'static str,
    /// A short paragraph for "What am I looking at?".
    pub explanation: &'static str,
    pub scenario: Scenario,
    pub policies: Vec<PolicySpec>,
    /// The load grid of its sweep (the x axis of the figure).
    pub load_grid: Vec<f64>,
}

/// All presets, in catalogue order.
pub fn presets() -> Vec<Preset> {
    vec![pgrr_a1(), pgrr_a2(), pgrr_a3(), pgrr_a4(), pgrr_a6()]
}

/// The preset with this id.
pub fn preset(id: &str) -> Result<Preset, ConfigError> {
    let id = id.trim().to_ascii_lowercase();
    presets().into_iter().find(|p| p.id == id).ok_or_else(|| {
        let ids: Vec<_> = presets().iter().map(|p| p.id).collect();
        ConfigError::new("preset", format!("unknown preset '{id}'; known: {}", ids.join(", ")))
    })
}

/// SPEC RES-12 defaults: 2·10^6 slots, warm-up 2·10^5, grid of 1000 slots.
fn pgrr(servers: u32, load: f64, size: &str, service: SlotService, j: u8) -> PgrrScenario {
    PgrrScenario {
        servers,
        load,
        size: SizeDist::parse(size).expect("preset sizes are valid"),
        service,
        j,
        seed: 1,
        horizon: 2_000_000,
        warmup: 200_000,
        sample_every: 1_000,
    }
}

const GEOMETRIC_100: SlotService = SlotService::Geometric { mean: 100.0 };

fn vq_trio(j: u8) -> Vec<PolicySpec> {
    vec![
        PolicySpec::with_j(PolicyKind::Vqs, j),
        PolicySpec::new(PolicyKind::BfJs),
        PolicySpec::with_j(PolicyKind::VqsBf, j),
    ]
}

fn pgrr_a1() -> Preset {
    Preset {
        id: "pgrr-a1",
        title: "VQS unstable, best fit stable",
        figure: "PG-RR Fig. 3a",
        summary: "one server, jobs of size 0.4 or 0.6: VQS's queue grows while BF-J/S and VQS-BF stay flat",
        explanation: "One server of capacity 1 receives jobs of size 0.4 or 0.6 (half each) at λ = 0.014 per slot, each \
                      served for 100 slots on average. Packing one job of each size uses the server fully and supports \
                      λ up to 0.02. VQS rounds each job up to its interval of the partition and can only hold two 0.4s \
                      or one 0.6 (with a third of the server reserved), so it serves at most (2/3)·0.02 ≈ 0.0133 and its \
                      queue grows by about 0.0007 jobs per slot. Best fit packs 0.4 + 0.6 and stays stable.",
        scenario: Scenario::Pgrr(pgrr(1, 0.7, "discrete:0.4@0.5,0.6@0.5", GEOMETRIC_100, 2)),
        policies: vq_trio(2),
        load_grid: vec![0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9],
    }
}

fn pgrr_a2() -> Preset {
    Preset {
        id: "pgrr-a2",
        title: "Best fit unstable, VQS stable",
        figure: "PG-RR Fig. 3b",
        summary: "one server, sizes 0.2 (2/3) and 0.5 (1/3), fixed service: best fit gets stuck at 0.2+0.2+0.5 and grows",
        explanation: "One server receives jobs of size 0.2 (probability 2/3) and 0.5 (1/3) at λ = 0.0306 per slot, each \
                      served for exactly 100 slots. Best fit keeps refilling the server with two 0.2s and one 0.5 \
                      (90% full), which serves the two sizes at 0.02 and 0.01 per slot, just below their arrival \
                      rates 0.0204 and 0.0102, so both queues grow. VQS-BF behaves like VQS until its server \
                      empties at a moment when the 0.5 queue dominates; from then on it is stuck the same way. \
                      VQS alternates between five 0.2s and two 0.5s and can serve up to λ = 0.0333, so it stays \
                      stable.",
        // VQS-BF falls into the best-fit trap only after a random time, typically a few
        // million slots, so this preset runs ten times the default horizon (RES-12).
        scenario: Scenario::Pgrr(PgrrScenario {
            horizon: 20_000_000,
            warmup: 2_000_000,
            sample_every: 10_000,
            ..pgrr(1, 0.918, "discrete:0.2@2/3,0.5@1/3", SlotService::Deterministic { slots: 100 }, 3)
        }),
        policies: vq_trio(3),
        load_grid: vec![0.8, 0.85, 0.88, 0.9, 0.918, 0.95],
    }
}

fn pgrr_a3() -> Preset {
    Preset {
        id: "pgrr-a3",
        title: "Small uniform jobs",
        figure: "PG-RR Fig. 4a",
        summary: "5 servers, sizes uniform on [0.01, 0.19]: mean queue against load; VQS is worst, BF-J/S best near α = 1",
        explanation: "Five servers receive jobs with sizes uniform on [0.01, 0.19] (mean 0.1), served for 100 slots on \
                      average, at traffic intensity α (α = 1 is the work-conservation bound, λ = 0.5·α per slot). \
                      Small jobs pack well, so every policy is stable up to high loads; VQS wastes the room its \
                      rounding and reservations leave, and its queue is the largest. BF-J/S and VQS-BF stay close \
                      until α ≈ 0.95, where BF-J/S pulls ahead.",
        scenario: Scenario::Pgrr(pgrr(5, 0.95, "uniform:0.01,0.19", GEOMETRIC_100, 7)),
        policies: vq_trio(7),
        load_grid: vec![0.85, 0.87, 0.89, 0.91, 0.93, 0.95, 0.96, 0.97, 0.98, 0.99],
    }
}

fn pgrr_a4() -> Preset {
    Preset {
        id: "pgrr-a4",
        title: "Wide uniform jobs",
        figure: "PG-RR Fig. 4b",
        summary: "5 servers, sizes uniform on [0.1, 0.9]: VQS and VQS-BF fall well behind BF-J/S",
        explanation: "Five servers receive jobs with sizes uniform on [0.1, 0.9] (mean 0.5), served for 100 slots on \
                      average, at traffic intensity α (λ = 0.1·α per slot). Large jobs rarely find a server whose \
                      active configuration matches them, so VQS and VQS-BF leave room unused and queue much more \
                      than BF-J/S.",
        scenario: Scenario::Pgrr(pgrr(5, 0.9, "uniform:0.1,0.9", GEOMETRIC_100, 4)),
        policies: vq_trio(4),
        load_grid: vec![0.85, 0.87, 0.89, 0.91, 0.93, 0.95, 0.96, 0.97, 0.98, 0.99],
    }
}

fn pgrr_a6() -> Preset {
    Preset {
        id: "pgrr-a6",
        title: "The 2/3 bound is tight",
        figure: "PG-RR Proposition 2",
        summary: "one server, sizes 0.45 and 0.55: any fixed rounding loses a third of the capacity; VQS is unstable above α = 2/3",
        explanation: "One server receives jobs of size 0.45 or 0.55 (half each). One of each fills the server, so the \
                      true capacity is λ = 2μ (α = 1). A partition that rounds each size up to the top of its \
                      interval puts the two sizes in different cells and can only reach λ = (4/3)μ (α = 2/3), so VQS \
                      is unstable anywhere between; at α = 0.7 (λ = 1.4μ) its queue grows while BF-J/S stays stable. \
                      Closer to α = 1 best fit's stability is not guaranteed by the theory (only α = 1/2 is).",
        scenario: Scenario::Pgrr(pgrr(1, 0.7, "discrete:0.45@0.5,0.55@0.5", GEOMETRIC_100, 2)),
        policies: vec![PolicySpec::with_j(PolicyKind::Vqs, 2), PolicySpec::new(PolicyKind::BfJs)],
        load_grid: vec![0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_is_valid() {
        let all = presets();
        assert_eq!(
            all.iter().map(|p| p.id).collect::<Vec<_>>(),
            ["pgrr-a1", "pgrr-a2", "pgrr-a3", "pgrr-a4", "pgrr-a6"]
        );
        for p in &all {
            p.scenario.validate().unwrap();
            assert!(!p.policies.is_empty() && !p.load_grid.is_empty());
        }
        assert_eq!(preset("PGRR-A1").unwrap().id, "pgrr-a1");
        assert_eq!(preset("pgrr-a9").unwrap_err().key, "preset");
    }
}
