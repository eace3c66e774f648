//! GH-RA's presets: the introductory example and Figs. 1-5 (SPEC 3.5).

use super::Ghra;
use super::GhraScenario;
use super::vms::{Fleet, VmCatalog};
use crate::model::policy::PolicySpec;
use crate::model::{Figure, Plot, Preset, Sweep};
use crate::window::RunWindow;
use crate::workload::ServiceLaw;

/// The presets, in catalogue order.
pub fn presets() -> Vec<Preset<GhraScenario>> {
    vec![ghra_b0(), ghra_b1(), ghra_b2(), ghra_b3(), ghra_b4(), ghra_b5()]
}

fn spec(text: &str) -> PolicySpec {
    PolicySpec::parse_for::<Ghra>(text).expect("preset policies are valid")
}

/// The mean delay until service (Figs. 1, 2 and 5; Figs. 3 and 4 plot the total queue).
const MEAN_DELAY: Figure = Figure {
    key: "mean_delay",
    index: None,
    ci: Some("mean_delay_ci95"),
    per: None,
    label: "mean delay until service",
};

/// The EC2 setting of GH-RA §VII: the three instance types, service of mean 1 (SPEC 3.5,
/// proposed horizon 10^4 with a 10^3 warm-up, RES-12).
fn ec2(servers: &str, load: f64, horizon: u64) -> GhraScenario {
    GhraScenario {
        load,
        servers: Fleet::parse(servers).expect("valid fleet"),
        types: VmCatalog::Ec2,
        service: ServiceLaw::Exponential,
        window: RunWindow::new(1, horizon, horizon / 10, (horizon / 1000).max(1) as f64),
    }
}

/// SPEC RES-12's proposed ζ grid.
const ZETA_GRID: [f64; 7] = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95];

fn alg2() -> PolicySpec {
    spec("alg2-jsq")
}

fn ghra_b0() -> Preset<GhraScenario> {
    let alg1 = spec("alg1:f=log");
    Preset {
        id: "ghra-b0",
        title: "Two job types, one server, two clocks",
        figure: "GH-RA §I-A (introductory example)",
        summary: "capacity 10, jobs of size 2 and 3: a clock of rate 1+Q_j per queue does what max weight does, with no optimisation",
        explanation: "One server of capacity 10 serves jobs needing 2 or 3 units; (k1, k2) fits when 2k1 + 3k2 ≤ 10. Max \
                      weight would re-solve a small knapsack whenever the server empties. Algorithm 1 instead gives \
                      queue j a Poisson clock of rate 1 + Q_j: at each tick it tries to fit one type-j job, or a \
                      dummy when the queue is empty. Dummies hold room like real jobs, so the server's mix drifts \
                      toward what the longer queue needs, and no job is ever preempted. Arrival rates are ζ·V with V \
                      = (2.5, 1.5), the average of the maximal configurations (0,3), (2,2), (3,1), (5,0). V lies \
                      inside the capacity region: along it the boundary is the facet 2k1 + 3k2 = 10 through (2,2) \
                      and (5,0), at ζ = 20/19 ≈ 1.053, the capacity.",
        scenario: GhraScenario {
            servers: Fleet::parse("1x10").expect("valid fleet"),
            types: VmCatalog::parse("2,3").expect("valid types"),
            ..ec2("1x10", 0.8, 10_000)
        },
        policies: vec![alg1, spec("mw-local")],
        sweep: Sweep::load(&ZETA_GRID, Plot::one(&MEAN_DELAY)),
    }
}

fn ghra_b1() -> Preset<GhraScenario> {
    Preset {
        id: "ghra-b1",
        title: "Global refresh, 2 servers",
        figure: "GH-RA Fig. 1",
        summary: "2 small EC2 servers: Algorithm 2's mean delay well below MaxWeight with global refresh",
        explanation: "Two servers of 30 GB memory, 30 CPU units and 4000 GB storage host three EC2 instance types \
                      (Standard, High-Memory and High-CPU Extra Large). MaxWeight with global refresh may only change \
                      a server's configuration when every server is empty at once; between those moments idle slots \
                      of the wrong type sit unused while other queues grow. Algorithm 2 needs no refresh: each \
                      server's Poisson clocks keep adjusting its mix one job (or dummy) at a time.",
        scenario: ec2("2xsmall", 0.8, 10_000),
        policies: vec![spec("mw-global"), alg2()],
        sweep: Sweep::load(&ZETA_GRID, Plot::one(&MEAN_DELAY)),
    }
}

fn ghra_b2() -> Preset<GhraScenario> {
    Preset {
        id: "ghra-b2",
        title: "Global refresh, 10 servers",
        figure: "GH-RA Fig. 2",
        summary: "10 small servers: global refresh times become rare, MaxWeight's delay explodes; Algorithm 2's shrinks",
        explanation: "The setting of Fig. 1 with ten servers. For MaxWeight with global refresh all ten must be empty \
                      at the same moment before any configuration can change, which almost never happens under load: \
                      most servers stay in the configuration they picked on empty queues, (2,0,0), and the other \
                      types queue up. Algorithm 2 pools ten servers' clocks and its delay falls as the system grows.",
        scenario: ec2("10xsmall", 0.8, 10_000),
        policies: vec![spec("mw-global"), alg2()],
        sweep: Sweep::load(&ZETA_GRID, Plot::one(&MEAN_DELAY)),
    }
}

fn ghra_b3() -> Preset<GhraScenario> {
    Preset {
        id: "ghra-b3",
        title: "Local refresh on a mixed fleet",
        figure: "GH-RA Fig. 3",
        summary: "5 small + 5 large servers at ζ = 0.9: MaxWeight with local refresh grows without bound, Algorithm 2 stays flat",
        explanation: "Five small servers (30 GB, 30 CPU, 4000 GB) and five large ones (90 GB, 90 CPU, 5000 GB) at ζ = \
                      0.9, λ = (7.5, 18, 6). MaxWeight with local refresh re-picks a server's configuration whenever \
                      that server empties; whether it is stable on a heterogeneous fleet is unknown, and here its total \
                      queue keeps climbing (slowly: it shows after a few thousand time units). Algorithm 2 is provably \
                      throughput-optimal and its queue stays near 50.",
        scenario: GhraScenario {
            window: RunWindow::new(1, 20_000, 2_000, 10.0),
            ..ec2("5xsmall,5xlarge", 0.9, 20_000)
        },
        policies: vec![spec("mw-local"), alg2()],
        sweep: Sweep::load(&ZETA_GRID, Plot::one(&Figure::MEAN_QUEUE)),
    }
}

fn ghra_b4() -> Preset<GhraScenario> {
    Preset {
        id: "ghra-b4",
        title: "100 servers: queue size",
        figure: "GH-RA Fig. 4",
        summary: "100 small servers: Algorithm 2's average total queue is close to MaxWeight with local refresh",
        explanation: "A homogeneous fleet of 100 small EC2 servers. With identical servers, MaxWeight with local \
                      refresh does well; Algorithm 2 comes close to it without solving any optimisation and without \
                      waiting for servers to empty. The sweep plots the time-average total queue against ζ.",
        scenario: ec2("100xsmall", 0.9, 10_000),
        policies: vec![spec("mw-local"), alg2()],
        sweep: Sweep::load(&ZETA_GRID, Plot::one(&Figure::MEAN_QUEUE)),
    }
}

fn ghra_b5() -> Preset<GhraScenario> {
    Preset {
        id: "ghra-b5",
        title: "100 servers: delay",
        figure: "GH-RA Fig. 5",
        summary: "100 small servers: Algorithm 2's mean delay is close to MaxWeight with local refresh",
        explanation: "The setting of Fig. 4, measured by the mean delay from arrival to the start of service. Both \
                      policies keep it small; Algorithm 2 pays a little for its randomness (a job waits for a clock \
                      tick even when room is free) and gains simplicity and provable stability.",
        scenario: ec2("100xsmall", 0.9, 10_000),
        policies: vec![spec("mw-local"), alg2()],
        sweep: Sweep::load(&ZETA_GRID, Plot::one(&MEAN_DELAY)),
    }
}
