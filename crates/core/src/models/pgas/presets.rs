//! PG-AS's presets: §7.1's random collections, Figs. 2-6 and the introductory example (SPEC
//! 4.7).

use super::Pgas;
use super::PgasScenario;
use super::theory::MemoryDraw;
use super::types::PgasTypes;
use crate::model::policy::PolicySpec;
use crate::model::{Figure, Plot, Preset, Reference, Sweep};
use crate::window::RunWindow;

/// The presets, in catalogue order.
pub fn presets() -> Vec<Preset<PgasScenario>> {
    vec![pgas_c1(), pgas_c2(), pgas_c3(), pgas_c4(), pgas_c5(), pgas_c6()]
}

fn spec(text: &str) -> PolicySpec {
    PolicySpec::parse_for::<Pgas>(text).expect("preset policies are valid")
}

/// The C2 collection at α = 1 on `servers` servers (SPEC 4.7; RES-12: 200 time units with a
/// warm-up of 50, as C3 proposes).
fn c2_run(servers: u32, horizon: u64, warmup: u64, sample_every: f64) -> PgasScenario {
    PgasScenario {
        servers,
        types: PgasTypes::C2,
        rho: None,
        load: 1.0,
        window: RunWindow::new(1, horizon, warmup, sample_every),
        trace: None,
    }
}

/// The normalised reward R/L (Fig. 5 against L).
const NORMALIZED_REWARD: Figure = Figure {
    key: "normalized_reward",
    index: None,
    ci: Some("normalized_reward_ci95"),
    per: None,
    label: "normalised reward R/L",
};

/// The normalised reward over each bound (Fig. 3 against L), with the bounds' own ratio.
const RATIOS: Plot = Plot::Curves {
    figures: &[
        Figure { per: Some("greedy_reward"), label: "/ U^(g)", ..NORMALIZED_REWARD },
        Figure { per: Some("optimal_reward"), label: "/ U*", ..NORMALIZED_REWARD },
    ],
    y_label: "normalised reward / U^(g) and / U*",
    references: &[
        Reference { label: "U^(g)", key: "greedy_reward", per: None, line: false },
        Reference { label: "U*", key: "optimal_reward", per: None, line: false },
        Reference { label: "U^(g)/U*", key: "greedy_reward", per: Some("optimal_reward"), line: true },
    ],
};

fn dra_and_po_d() -> Vec<PolicySpec> {
    vec![spec("dra"), spec("po-d")]
}

/// Fig. 2's α grid: 0.05 to 10 by 0.05, and the critical point 6/7.
fn alpha_grid() -> Vec<f64> {
    let mut grid: Vec<f64> = (1..=200).map(|i| f64::from(i) / 20.0).collect();
    grid.push(6.0 / 7.0);
    grid.sort_by(f64::total_cmp);
    grid
}

fn pgas_c1() -> Preset<PgasScenario> {
    Preset {
        id: "pgas-c1",
        title: "Greedy vs optimal on random VM collections",
        figure: "PG-AS §7.1 (statistics)",
        summary: "50 random collections of 3 small and 3 large VM types: how close the global greedy's reward comes to the LP optimum",
        explanation: "Each collection has three small VM types (2, 4 or 8 vCPUs) and three large ones (32 or 64), with \
                      high, low or regular memory per vCPU (Table 1), on servers of 80 vCPUs and 640 GB; a VM earns 8 \
                      per vCPU and 1 per GB per time unit, and each type's workload ρ_j is uniform on [0.2, 2]. For \
                      each, U^(g) is the reward of the global greedy assignment (the limit of what DRA earns per \
                      server) and U* the optimum of LP (7). The paper found 23 of 50 with ratio exactly 1, a mean of \
                      0.972 and a minimum of 0.86, all above the 1 − 1/e guarantee. Bounds only: run `packlab \
                      bounds --preset pgas-c1`; types=random:N changes the count, random:N:per-value draws the memory \
                      per vCPU uniformly from 1, 2, 4, 8 or 16 GB instead of by category, the seed the collections.",
        scenario: PgasScenario {
            types: PgasTypes::Random { collections: 50, memory: MemoryDraw::ByCategory },
            ..c2_run(180, 200, 50, 1.0)
        },
        policies: vec![spec("dra")],
        sweep: Sweep::Unavailable(
            "random collections have no sweep; run `packlab bounds --preset pgas-c1` for their statistics",
        ),
    }
}

fn pgas_c2() -> Preset<PgasScenario> {
    Preset {
        id: "pgas-c2",
        title: "Global greedy vs optimal as the workload grows",
        figure: "PG-AS Fig. 2",
        summary: "the worst-case collection: U^(g) and U* against α; equal up to α = 6/7 and from α = 6, 0.862 apart at α = 1",
        explanation: "Four VM types (2 vCPU/2 GB, 8/32, 4/64, 64/512: the paper's tuples doubled, since as listed \
                      they do not reproduce its α = 6/7, α = 6 or ratio 0.862) on 80 vCPU / 640 GB servers, each \
                      earning 8 per vCPU and 1 per GB, with workload α·ρ, ρ = (2, 1/2, 4/3, 1). \
                      At low α the greedy packing serves everything and matches the optimum; from α = 6 every server \
                      can run the best configuration (12, 3, 8, 0) full. In between the greedy fills servers with the \
                      best configuration first and runs out of the small types the optimum would mix in; at α = 1 it \
                      earns 3196/3 ≈ 1065.3 per server against 1236. `packlab sweep` draws the figure from the \
                      theory; a run simulates DRA at L = 180.",
        scenario: c2_run(180, 200, 50, 1.0),
        policies: dra_and_po_d(),
        sweep: Sweep::Theory { grid: alpha_grid() },
    }
}

fn pgas_c3() -> Preset<PgasScenario> {
    Preset {
        id: "pgas-c3",
        title: "DRA against the number of servers",
        figure: "PG-AS Fig. 3",
        summary: "the C2 collection at α = 1: DRA's reward per server approaches U^(g) (about 86% of U*) as L grows",
        explanation: "DRA on L servers with the worst-case collection of Fig. 2 at α = 1: arrivals at rate ρ_j·L, \
                      service Exp(1), no waiting room. DRA keeps g(L) = ⌈(ln L)^1.5⌉ empty slots per type in the \
                      configurations the greedy placement (GPA) picks for the jobs in the system, admits a job only \
                      into such a slot, and empties servers of unwanted configurations by migrating their jobs. The \
                      reserved slots cost about (g(L) + K)/L of the reward, so the ratio to U^(g) climbs toward 1 \
                      and the ratio to U* toward 0.862. Power-of-d packs greedily without reservation and keeps \
                      admitting the cheap small VMs that block the large ones. `packlab sweep` runs the L grid \
                      12 … 720 (the paper gives no grid).",
        scenario: c2_run(180, 200, 50, 1.0),
        policies: dra_and_po_d(),
        // RES-12: the paper gives no grid for Fig. 3.
        sweep: Sweep::Runs { axis: "servers", grid: vec![12.0, 24.0, 48.0, 90.0, 180.0, 360.0, 720.0], plot: RATIOS },
    }
}

fn pgas_c4() -> Preset<PgasScenario> {
    Preset {
        id: "pgas-c4",
        title: "DRA converging over time",
        figure: "PG-AS Fig. 4",
        summary: "L = 180 from an empty system: the reward per server climbs to the global greedy's U^(g) = 3196/3 within a few time units",
        explanation: "The setting of Fig. 3 at L = 180, starting with every server empty and unconfigured, sampled every \
                      0.1 time units. DRA reserves slots for the first arrivals, grows the greedy configurations as \
                      jobs come, and settles near U^(g) ≈ 1065 per server (less the reserved empty slots), while the \
                      LP optimum U* = 1236 stays out of reach of any greedy packing. At 180 servers the page draws \
                      each server as one square, darker the fuller it is: the strip darkens within a few time units as \
                      the reward chart climbs toward U^(g). To watch the slots being reserved and filled server by \
                      server, set fewer than 100 servers (the reward then settles further below U^(g)).",
        scenario: c2_run(180, 50, 0, 0.1),
        policies: dra_and_po_d(),
        sweep: Sweep::Theory { grid: alpha_grid() },
    }
}

fn pgas_c5() -> Preset<PgasScenario> {
    Preset {
        id: "pgas-c5",
        title: "A task trace: DRA, preemption, power-of-d, upper bound",
        figure: "PG-AS Figs. 5-6",
        summary: "tasks of sizes 2^-m and priorities 0-2 (rewards ×1, ×3, ×9): a synthetic trace with surges; load your own CSV",
        explanation: "Tasks carry a size (a power of 1/2 of a server, rounded up) and a priority; a task earns size × 1, \
                      3 or 9 per time unit for priority 0, 1 or 2 (a trace's priorities 0–1, 2–8 and 9–11 map to 0, 1 \
                      and 2). The paper replays the Google 2011 trace; \
                      without an upload this preset draws a synthetic one with the pattern of Fig. 6: a surge of \
                      priority-0 demand followed by a surge of priority-1 demand. DRA reserves for each type; \
                      DRA+Preemption also evicts the smallest priority-0 jobs when a priority-1 or -2 job finds no \
                      slot; power-of-d packs without reservation; the upper bound solves the reward LP on the jobs \
                      of a system with unlimited servers. Load a trace with `--trace-file` (CSV: submit_time, \
                      duration, size, priority) or the page's upload.",
        scenario: PgasScenario { types: PgasTypes::Trace, ..c2_run(1000, 20, 2, 0.1) },
        policies: vec![spec("dra"), spec("dra-preempt"), spec("po-d"), spec("upper-bound")],
        // SPEC 4.7's proposal for Fig. 5.
        sweep: Sweep::Runs {
            axis: "servers",
            grid: vec![250.0, 500.0, 1000.0, 2000.0],
            plot: Plot::one(&NORMALIZED_REWARD),
        },
    }
}

fn pgas_c6() -> Preset<PgasScenario> {
    Preset {
        id: "pgas-c6",
        title: "The intro example: reserve for pairs",
        figure: "PG-AS §1",
        summary: "one (0.6, 0.6) job earns 4, a (0.7, 0.1) + (0.1, 0.7) pair earns 6: DRA reserves for pairs, greedy packing does not",
        explanation: "Servers of capacity (1, 1) and three types: (0.6, 0.6) earning 4, (0.7, 0.1) and (0.1, 0.7) \
                      earning 3 each. A server holds either the big job or one of each small type, so the best \
                      configuration is the pair (reward 6, MAXREWARD). With ρ = (1, 1, 1) the optimum serves only pairs \
                      (U* = U^(g) = 6 per server); DRA reserves pair slots and rejects most big jobs, while \
                      power-of-d admits a big job wherever it fits and loses the pair that server could have held.",
        scenario: PgasScenario { types: PgasTypes::C6, servers: 100, ..c2_run(100, 200, 50, 1.0) },
        policies: dra_and_po_d(),
        sweep: Sweep::Theory { grid: alpha_grid() },
    }
}
