//! PG-RR's presets: Figs. 3, 4 and 5 and Proposition 2 of the paper (SPEC 2.5).

use super::Pgrr;
use super::PgrrScenario;
use super::service::SlotService;
use super::sizes::SizeDist;
use super::trace::TraceSource;
use crate::model::policy::PolicySpec;
use crate::model::{Figure, Plot, Preset, Sweep};
use crate::window::RunWindow;

/// SPEC RES-12 defaults: 2·10^6 slots, warm-up 2·10^5, grid of 1000 slots.
fn pgrr(servers: u32, load: f64, size: &str, service: SlotService, j: u8) -> PgrrScenario {
    PgrrScenario {
        servers,
        load,
        size: SizeDist::parse(size).expect("preset sizes are valid"),
        service,
        j,
        trace: TraceSource::None,
        window: RunWindow::new(1, 2_000_000, 200_000, 1_000.0),
    }
}

const GEOMETRIC_100: SlotService = SlotService::Geometric { mean: 100.0 };

fn policies(specs: &[&str]) -> Vec<PolicySpec> {
    specs.iter().map(|s| PolicySpec::parse_for::<Pgrr>(s).expect("preset policies are valid")).collect()
}

/// VQS, BF-J/S and VQS-BF. None of them pins a partition depth: all three take the
/// scenario's J, so the one J field of the page (and `--set j=`) changes every lane alike.
fn vq_trio() -> Vec<PolicySpec> {
    policies(&["vqs", "bf-js", "vqs-bf"])
}

/// PG-RR Fig. 4 plots the mean queue against the load.
fn queue_against(grid: &[f64]) -> Sweep {
    Sweep::load(grid, Plot::one(&Figure::MEAN_QUEUE))
}

const UNIFORM_GRID: [f64; 10] = [0.85, 0.87, 0.89, 0.91, 0.93, 0.95, 0.96, 0.97, 0.98, 0.99];

pub fn presets() -> Vec<Preset<PgrrScenario>> {
    vec![
        Preset {
            id: "pgrr-a1",
            title: "VQS unstable, best fit stable",
            figure: "PG-RR Fig. 3a",
            summary: "one server, jobs of size 0.4 or 0.6: VQS's queue grows while BF-J/S and VQS-BF stay flat",
            explanation: "One server of capacity 1 receives jobs of size 0.4 or 0.6 (half each) at λ = 0.014 per \
                          slot, each served for 100 slots on average. Packing one job of each size uses the server \
                          fully and supports λ up to 0.02. VQS rounds each job up to its interval of the partition \
                          and can only hold two 0.4s or one 0.6 (with a third of the server reserved), so it serves \
                          at most (2/3)·0.02 ≈ 0.0133 and its queue grows by about 0.0007 jobs per slot. Best fit \
                          packs 0.4 + 0.6 and stays stable.",
            scenario: pgrr(1, 0.7, "discrete:0.4@0.5,0.6@0.5", GEOMETRIC_100, 2),
            policies: vq_trio(),
            sweep: queue_against(&[0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9]),
        },
        Preset {
            id: "pgrr-a2",
            title: "Best fit unstable, VQS stable",
            figure: "PG-RR Fig. 3b",
            summary: "one server, sizes 0.2 (2/3) and 0.5 (1/3), fixed service: best fit gets stuck at 0.2+0.2+0.5 \
                      and grows",
            explanation: "One server receives jobs of size 0.2 (probability 2/3) and 0.5 (1/3) at λ = 0.0306 per \
                          slot, each served for exactly 100 slots. Best fit keeps refilling the server with two 0.2s \
                          and one 0.5 (90% full), which serves the two sizes at 0.02 and 0.01 per slot, just below \
                          their arrival rates 0.0204 and 0.0102, so both queues grow. VQS-BF behaves like VQS until \
                          its server empties at a moment when the 0.5 queue dominates; from then on it is stuck the \
                          same way. VQS alternates between five 0.2s and two 0.5s and can serve up to λ = 0.0333, \
                          so it stays stable.",
            // VQS-BF falls into the best-fit trap only after a random time, typically a few
            // million slots, so this preset runs ten times the default horizon (RES-12).
            scenario: PgrrScenario {
                window: RunWindow::new(1, 20_000_000, 2_000_000, 10_000.0),
                ..pgrr(1, 0.918, "discrete:0.2@2/3,0.5@1/3", SlotService::Deterministic { slots: 100 }, 3)
            },
            policies: vq_trio(),
            sweep: queue_against(&[0.8, 0.85, 0.88, 0.9, 0.918, 0.95]),
        },
        Preset {
            id: "pgrr-a3",
            title: "Small uniform jobs",
            figure: "PG-RR Fig. 4a",
            summary: "5 servers, sizes uniform on [0.01, 0.19]: mean queue against load; VQS is worst, BF-J/S best \
                      near α = 1",
            explanation: "Five servers receive jobs with sizes uniform on [0.01, 0.19] (mean 0.1), served for 100 \
                          slots on average, at traffic intensity α (α = 1 is the work-conservation bound, λ = 0.5·α \
                          per slot). Small jobs pack well: BF-J/S is stable across the whole grid (about 6 waiting \
                          jobs at α = 0.9, 24 at 0.95, 290 at 0.99). VQS wastes the room its rounding and \
                          reservations leave and carries at most about α = 0.955, so its queue grows without bound \
                          at 0.97 and above; below that it settles, but high and slowly: about 1 900 waiting jobs at \
                          α = 0.85 and 4 900 at 0.9, while at this preset's α = 0.95 its mean still climbs for some \
                          10^8 slots (about 17 000 over the default 2·10^6 slots, 55 000 over 2·10^8). VQS-BF stays \
                          within a few jobs of BF-J/S up to α = 0.95, swings between hundreds and thousands of waiting \
                          jobs at 0.97, and grows without bound at 0.99.",
            scenario: pgrr(5, 0.95, "uniform:0.01,0.19", GEOMETRIC_100, 7),
            policies: vq_trio(),
            sweep: queue_against(&UNIFORM_GRID),
        },
        Preset {
            id: "pgrr-a4",
            title: "Wide uniform jobs",
            figure: "PG-RR Fig. 4b",
            summary: "5 servers, sizes uniform on [0.1, 0.9]: VQS and VQS-BF fall well behind BF-J/S",
            explanation: "Five servers receive jobs with sizes uniform on [0.1, 0.9] (mean 0.5), served for 100 \
                          slots on average, at traffic intensity α (λ = 0.1·α per slot). Large jobs rarely find a \
                          server whose active configuration matches them, so VQS and VQS-BF leave room unused and \
                          queue much more than BF-J/S.",
            scenario: pgrr(5, 0.9, "uniform:0.1,0.9", GEOMETRIC_100, 4),
            policies: vq_trio(),
            sweep: queue_against(&UNIFORM_GRID),
        },
        Preset {
            id: "pgrr-a5",
            title: "A Google cluster trace",
            figure: "PG-RR Fig. 5",
            summary: "1000 servers replay a Google task_events trace with 100 ms slots: mean queue against the traffic \
                      scaling 1/β; BF-J/S and VQS-BF best, FIFO-FF far behind",
            explanation: "A thousand servers of capacity 1 replay the tasks of a Google cluster trace that finished \
                          normally: each task arrives at its submit time, asks for the larger of its normalised CPU and \
                          memory requests, and runs for its recorded duration, in slots of 100 ms. The load knob is \
                          the traffic scaling 1/β: submit times are divided by it, durations kept, so 1.6 packs the \
                          same tasks into 1/1.6 of the time. Without a file the preset replays a synthetic trace in \
                          the Google format drawn from the seed (about 60 tasks per second, sizes 0.005 to 1, mean \
                          run 100 s: offered load about 0.74 at 1/β = 1); load a real task_events file (or the \
                          bundled sample) to replay it instead. FIFO-FF, the trace's baseline, blocks behind a head \
                          job that fits nowhere and queues most; best fit packs the small tasks around the large ones.",
            scenario: PgrrScenario {
                trace: TraceSource::Synthetic,
                window: RunWindow::new(1, 20_000, 2_000, 20.0),
                ..pgrr(1000, 1.0, "uniform:0.01,0.19", GEOMETRIC_100, 10)
            },
            policies: policies(&["bf-js", "vqs", "vqs-bf", "fifo-ff"]),
            sweep: queue_against(&[1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6]),
        },
        Preset {
            id: "pgrr-a6",
            title: "The 2/3 bound is tight",
            figure: "PG-RR Proposition 2",
            summary: "one server, sizes 0.45 and 0.55: any fixed rounding loses a third of the capacity; VQS is \
                      unstable above α = 2/3",
            explanation: "One server receives jobs of size 0.45 or 0.55 (half each). One of each fills the server, \
                          so the true capacity is λ = 2μ (α = 1). A partition that rounds each size up to the top \
                          of its interval puts the two sizes in different cells and can only reach λ = (4/3)μ (α = \
                          2/3), so VQS is unstable anywhere between; at α = 0.7 (λ = 1.4μ) its queue grows while \
                          BF-J/S stays stable. Closer to α = 1 best fit's stability is not guaranteed by the theory \
                          (only α = 1/2 is).",
            scenario: pgrr(1, 0.7, "discrete:0.45@0.5,0.55@0.5", GEOMETRIC_100, 2),
            policies: policies(&["vqs", "bf-js"]),
            sweep: queue_against(&[0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95]),
        },
    ]
}

#[cfg(test)]
mod tests {
    /// The keys of the model are the scenario's, in the order links write them.
    #[test]
    fn keys_are_in_link_order() {
        let keys: Vec<_> = super::super::scenario::KEYS.iter().map(|k| k.key).collect();
        assert_eq!(
            keys,
            ["load", "servers", "size", "service", "j", "trace", "seed", "horizon", "warmup", "sample_every", "change"]
        );
    }
}
