//! The preset catalogue: every figure and instability example of the papers (SPEC 2.5, 7).

use super::{MsjScenario, PgasScenario, PgasTypes, PgrrScenario, Scenario, VmScenario};
use crate::ConfigError;
use crate::policy::{PolicyKind, PolicySpec};
use crate::workload::{Fleet, JobClasses, ServiceLaw, SizeDist, SlotService, VmCatalog};

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
    vec![
        pgrr_a1(),
        pgrr_a2(),
        pgrr_a3(),
        pgrr_a4(),
        pgrr_a6(),
        msfq_d1(),
        msfq_d2(),
        msfq_d3(),
        msfq_d4(),
        msfq_d5(),
        msfq_d6(),
        ghra_b0(),
        ghra_b1(),
        ghra_b2(),
        ghra_b3(),
        ghra_b4(),
        ghra_b5(),
        pgas_c1(),
        pgas_c2(),
        pgas_c3(),
        pgas_c4(),
        pgas_c5(),
        pgas_c6(),
    ]
}

/// The server counts L of a preset whose sweep runs against L (PG-AS Figs. 3 and 5), `None`
/// for sweeps against the load.
pub fn server_grid(id: &str) -> Option<&'static [u32]> {
    match id {
        // RES-12: the paper gives no grid for Fig. 3.
        "pgas-c3" => Some(&[12, 24, 48, 90, 180, 360, 720]),
        // SPEC 4.7's proposal for Fig. 5.
        "pgas-c5" => Some(&[250, 500, 1000, 2000]),
        _ => None,
    }
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

/// The one-or-all workload of MSFQ Figs. 1-4: k = 32, 90% small jobs (1 core), 10% large
/// (all 32 cores), all of mean size 1. Stable for λ < 1/(0.9/32 + 0.1) = 7.80488.
fn one_or_all(load: f64, horizon: u64) -> MsjScenario {
    MsjScenario {
        cores: 32,
        load,
        classes: JobClasses::parse("1@0.9,32@0.1").expect("valid classes"),
        service: ServiceLaw::Exponential,
        seed: 1,
        horizon,
        warmup: horizon / 10,
        sample_every: (horizon / 1000).max(1),
    }
}

const ONE_OR_ALL_GRID: [f64; 9] = [4.0, 5.0, 6.0, 6.5, 7.0, 7.25, 7.5, 7.6, 7.7];

fn msfq(l: u32) -> PolicySpec {
    PolicySpec::with_l(PolicyKind::Msfq, l)
}

fn msfq_d1() -> Preset {
    Preset {
        id: "msfq-d1",
        title: "MSF vs MSFQ: the number in system",
        figure: "MSFQ Fig. 1",
        summary: "32 cores, 10% of jobs need all of them: MSF keeps every core busy yet n(t) swings wildly; MSFQ stays low",
        explanation: "One machine with k = 32 cores. 90% of the jobs need one core, 10% need all 32; every job runs for \
                      an exponential time of mean 1, and jobs arrive at λ = 7.5 per time unit, close to the stability \
                      limit 7.805. MSF (most servers first) serves large jobs one at a time while small ones pile up, \
                      then small ones until none is left while large ones pile up: the cycles grow long and so does \
                      n(t). MSFQ with ℓ = 31 swaps back to the large jobs as soon as fewer than 32 small jobs remain, \
                      so cycles stay short and the mean response time drops about twentyfold.",
        scenario: Scenario::Msj(one_or_all(7.5, 200_000)),
        policies: vec![PolicySpec::new(PolicyKind::Msf), msfq(31)],
        load_grid: ONE_OR_ALL_GRID.to_vec(),
    }
}

fn msfq_d2() -> Preset {
    Preset {
        id: "msfq-d2",
        title: "Mean response time against load",
        figure: "MSFQ Fig. 2",
        summary: "the one-or-all workload swept in λ: MSFQ(31) has the lowest E[T] and E[T^w], up to 100× below MSF",
        explanation: "The workload of Fig. 1 (k = 32, 90% one-core jobs, 10% all-core jobs, mean size 1) at loads up \
                      to the stability limit λ = 7.805. Every policy here except FCFS is throughput-optimal, yet their \
                      response times differ by orders of magnitude: First-Fit favours small jobs (good unweighted \
                      E[T]), MSF favours large jobs (better weighted E[T^w]), and MSFQ beats both on both metrics. \
                      The analysis curve is the paper's approximation (SPEC 5.6).",
        scenario: Scenario::Msj(one_or_all(7.0, 1_000_000)),
        policies: vec![
            msfq(31),
            PolicySpec::new(PolicyKind::Msf),
            PolicySpec::new(PolicyKind::FirstFit),
            PolicySpec::new(PolicyKind::Fcfs),
        ],
        load_grid: ONE_OR_ALL_GRID.to_vec(),
    }
}

fn msfq_d3() -> Preset {
    Preset {
        id: "msfq-d3",
        title: "Phase durations of MSF and MSFQ",
        figure: "MSFQ Fig. 3",
        summary: "E[H1..H4] against λ: MSFQ's phases 1 and 2 are far shorter than MSF's",
        explanation: "MSF and MSFQ(31) on the one-or-all workload cycle through four phases: (1) large jobs, (2) small \
                      jobs k at a time, (3) small jobs down to the threshold, (4) draining the small jobs. MSF lets \
                      both queues build up for whole busy periods, so its phases grow without bound near the limit; \
                      MSFQ's phase 4 lasts H_31 = 4.03 on average and keeps the others short.",
        scenario: Scenario::Msj(one_or_all(7.0, 1_000_000)),
        policies: vec![PolicySpec::new(PolicyKind::Msf), msfq(31)],
        load_grid: ONE_OR_ALL_GRID.to_vec(),
    }
}

fn msfq_d4() -> Preset {
    Preset {
        id: "msfq-d4",
        title: "The threshold ℓ",
        figure: "MSFQ Fig. 4",
        summary: "E[T] of MSFQ(ℓ) at λ = 7.5 for ℓ from 0 (MSF) to 31: any ℓ > 0 helps, ℓ = k − 1 is a good choice",
        explanation: "MSFQ(ℓ) on the one-or-all workload at λ = 7.5 (the paper does not state its λ; SPEC proposes \
                      7.5). ℓ = 0 is MSF. Raising ℓ makes the machine swap back to large jobs earlier, trading a few \
                      idle cores during phase 4 for much shorter cycles.",
        scenario: Scenario::Msj(one_or_all(7.5, 1_000_000)),
        policies: [0, 1, 2, 4, 8, 16, 24, 31].into_iter().map(msfq).collect(),
        // Its sweep draws E[T] against ℓ, one curve per λ of Fig. 2's upper range.
        load_grid: vec![6.0, 7.0, 7.5],
    }
}

fn msfq_d5() -> Preset {
    Preset {
        id: "msfq-d5",
        title: "Four classes: Quickswap beyond one-or-all",
        figure: "MSFQ Fig. 5",
        summary: "k = 15, needs 1, 3, 5, 15: Adaptive and Static Quickswap beat MSF and First-Fit on E[T^w]",
        explanation: "One machine with 15 cores and four classes needing 1, 3, 5 or 15 cores (probabilities 0.5, 0.25, \
                      0.2, 0.05; the figure's caption says p_2 where class 3 is meant), all of mean size 1. Every \
                      need divides 15, so the stability limit is λ < 5 for any good policy. Static Quickswap serves one \
                      class at a time in a fixed cycle; Adaptive Quickswap fills like MSF but drains for a starving \
                      class. Both keep the weighted response time far below MSF's and First-Fit's near the limit.",
        scenario: Scenario::Msj(MsjScenario {
            cores: 15,
            load: 4.5,
            classes: JobClasses::parse("1@0.5,3@0.25,5@0.2,15@0.05").expect("valid classes"),
            ..one_or_all(4.5, 1_000_000)
        }),
        policies: vec![
            PolicySpec::new(PolicyKind::StaticQs),
            PolicySpec::new(PolicyKind::AdaptiveQs),
            PolicySpec::new(PolicyKind::Msf),
            PolicySpec::new(PolicyKind::FirstFit),
        ],
        load_grid: vec![2.0, 3.0, 4.0, 4.5, 4.75, 4.9],
    }
}

/// A synthetic stand-in for the Borg table of Fig. 6 (RES-46: the paper does not print it).
/// 26 classes on 2048 cores, built to pass SPEC's two sanity checks: Σ_j p_j·j·E[S_j]/2048 =
/// 1/4.94 (so the limit is λ < 4.94) and 85.8% of the load from the 0.34% of jobs needing
/// 256 cores or more. Load the real table with `--classes-file` or the page's CSV upload.
pub const SYNTHETIC_BORG_CLASSES: &str = "1@0.299219@14.121,2@0.209453@14.121,3@0.146617@14.121,4@0.102632@14.121,\
5@0.071842@14.121,6@0.05029@14.121,8@0.035203@14.121,10@0.024642@14.121,12@0.017249@14.121,16@0.012075@14.121,\
20@0.008452@14.121,24@0.005917@14.121,32@0.004142@14.121,40@0.002899@14.121,48@0.002029@14.121,\
64@0.001421@14.121,80@0.000994@14.121,96@0.000696@14.121,128@0.000487@14.121,160@0.000341@14.121,\
256@0.0014266@228.728,320@0.0008559@228.728,512@0.0005136@228.728,768@0.0003081@228.728,1024@0.0001849@228.728,\
2048@0.0001109@228.728";

fn msfq_d6() -> Preset {
    Preset {
        id: "msfq-d6",
        title: "A Borg-like cell: 2048 cores, 26 classes",
        figure: "MSFQ Fig. 6",
        summary: "2048 cores, 26 job classes (synthetic Borg-like table; load your own CSV): Quickswap wins ~100× near λ = 4.94",
        explanation: "Fig. 6 uses the job classes of Google's Borg 2019 trace, cell B, which the paper does not list. \
                      This preset ships a synthetic table with the same two published statistics (the stability limit \
                      λ < 4.94 and 85.8% of the load from 0.34% of the jobs); upload the real table as a CSV of need, \
                      probability, mean size to reproduce the figure itself. Small jobs are plentiful and short, a \
                      few huge jobs carry most of the work: MSF and First-Fit starve one side or the other, Static \
                      and Adaptive Quickswap do not.",
        scenario: Scenario::Msj(MsjScenario {
            cores: 2048,
            load: 4.5,
            classes: JobClasses::parse(SYNTHETIC_BORG_CLASSES).expect("valid classes"),
            ..one_or_all(4.5, 1_000_000)
        }),
        policies: vec![
            PolicySpec::new(PolicyKind::StaticQs),
            PolicySpec::new(PolicyKind::AdaptiveQs),
            PolicySpec::new(PolicyKind::Msf),
            PolicySpec::new(PolicyKind::FirstFit),
        ],
        load_grid: vec![3.0, 3.5, 4.0, 4.25, 4.5, 4.75, 4.9],
    }
}

/// The EC2 setting of GH-RA §VII: the three instance types, service of mean 1 (SPEC 3.5,
/// proposed horizon 10^4 with a 10^3 warm-up, RES-12).
fn ec2(servers: &str, load: f64, horizon: u64) -> VmScenario {
    VmScenario {
        load,
        servers: Fleet::parse(servers).expect("valid fleet"),
        types: VmCatalog::Ec2,
        service: ServiceLaw::Exponential,
        seed: 1,
        horizon,
        warmup: horizon / 10,
        sample_every: (horizon / 1000).max(1),
    }
}

/// SPEC RES-12's proposed ζ grid.
const ZETA_GRID: [f64; 7] = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95];

fn alg2() -> PolicySpec {
    PolicySpec::new(PolicyKind::Alg2Jsq)
}

fn ghra_b0() -> Preset {
    let mut alg1 = PolicySpec::new(PolicyKind::Alg1);
    alg1.vm.weight = Some(crate::policy::ghra::Weight::Log);
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
                      = (2.5, 1.5), the average of the maximal configurations (0,3), (2,2), (3,1), (5,0).",
        scenario: Scenario::Vm(VmScenario {
            servers: Fleet::parse("1x10").expect("valid fleet"),
            types: VmCatalog::parse("2,3").expect("valid types"),
            ..ec2("1x10", 0.8, 10_000)
        }),
        policies: vec![alg1, PolicySpec::new(PolicyKind::MwLocal)],
        load_grid: ZETA_GRID.to_vec(),
    }
}

fn ghra_b1() -> Preset {
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
        scenario: Scenario::Vm(ec2("2xsmall", 0.8, 10_000)),
        policies: vec![PolicySpec::new(PolicyKind::MwGlobal), alg2()],
        load_grid: ZETA_GRID.to_vec(),
    }
}

fn ghra_b2() -> Preset {
    Preset {
        id: "ghra-b2",
        title: "Global refresh, 10 servers",
        figure: "GH-RA Fig. 2",
        summary: "10 small servers: global refresh times become rare, MaxWeight's delay explodes; Algorithm 2's shrinks",
        explanation: "The setting of Fig. 1 with ten servers. For MaxWeight with global refresh all ten must be empty \
                      at the same moment before any configuration can change, which almost never happens under load: \
                      most servers stay in the configuration they picked on empty queues, (2,0,0), and the other \
                      types queue up. Algorithm 2 pools ten servers' clocks and its delay falls as the system grows.",
        scenario: Scenario::Vm(ec2("10xsmall", 0.8, 10_000)),
        policies: vec![PolicySpec::new(PolicyKind::MwGlobal), alg2()],
        load_grid: ZETA_GRID.to_vec(),
    }
}

fn ghra_b3() -> Preset {
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
        scenario: Scenario::Vm(VmScenario { sample_every: 10, warmup: 2_000, ..ec2("5xsmall,5xlarge", 0.9, 20_000) }),
        policies: vec![PolicySpec::new(PolicyKind::MwLocal), alg2()],
        load_grid: ZETA_GRID.to_vec(),
    }
}

fn ghra_b4() -> Preset {
    Preset {
        id: "ghra-b4",
        title: "100 servers: queue size",
        figure: "GH-RA Fig. 4",
        summary: "100 small servers: Algorithm 2's average total queue is close to MaxWeight with local refresh",
        explanation: "A homogeneous fleet of 100 small EC2 servers. With identical servers, MaxWeight with local \
                      refresh does well; Algorithm 2 comes close to it without solving any optimisation and without \
                      waiting for servers to empty. The sweep plots the time-average total queue against ζ.",
        scenario: Scenario::Vm(ec2("100xsmall", 0.9, 10_000)),
        policies: vec![PolicySpec::new(PolicyKind::MwLocal), alg2()],
        load_grid: ZETA_GRID.to_vec(),
    }
}

fn ghra_b5() -> Preset {
    Preset {
        id: "ghra-b5",
        title: "100 servers: delay",
        figure: "GH-RA Fig. 5",
        summary: "100 small servers: Algorithm 2's mean delay is close to MaxWeight with local refresh",
        explanation: "The setting of Fig. 4, measured by the mean delay from arrival to the start of service. Both \
                      policies keep it small; Algorithm 2 pays a little for its randomness (a job waits for a clock \
                      tick even when room is free) and gains simplicity and provable stability.",
        scenario: Scenario::Vm(ec2("100xsmall", 0.9, 10_000)),
        policies: vec![PolicySpec::new(PolicyKind::MwLocal), alg2()],
        load_grid: ZETA_GRID.to_vec(),
    }
}

/// The C2 collection at α = 1 on `servers` servers (SPEC 4.7; RES-12: 200 time units with a
/// warm-up of 50, as C3 proposes).
fn c2_run(servers: u32, horizon: u64, warmup: u64, sample_every: f64) -> PgasScenario {
    PgasScenario {
        servers,
        types: PgasTypes::C2,
        rho: None,
        load: 1.0,
        seed: 1,
        horizon,
        warmup,
        sample_every,
        trace: None,
    }
}

fn dra_and_po_d() -> Vec<PolicySpec> {
    vec![PolicySpec::new(PolicyKind::Dra), PolicySpec::new(PolicyKind::PowerOfD)]
}

/// Fig. 2's α grid: 0.05 to 10 by 0.05, and the critical point 6/7.
fn alpha_grid() -> Vec<f64> {
    let mut grid: Vec<f64> = (1..=200).map(|i| f64::from(i) / 20.0).collect();
    grid.push(6.0 / 7.0);
    grid.sort_by(f64::total_cmp);
    grid
}

fn pgas_c1() -> Preset {
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
                      bounds --preset pgas-c1`; types=random:N changes the count, random:N:per-value the memory draw \
                      (RES-33), the seed the collections.",
        scenario: Scenario::Pgas(PgasScenario {
            types: PgasTypes::Random { collections: 50, memory: crate::theory::pgas::MemoryDraw::ByCategory },
            ..c2_run(180, 200, 50, 1.0)
        }),
        policies: vec![PolicySpec::new(PolicyKind::Dra)],
        load_grid: vec![1.0],
    }
}

fn pgas_c2() -> Preset {
    Preset {
        id: "pgas-c2",
        title: "Global greedy vs optimal as the workload grows",
        figure: "PG-AS Fig. 2",
        summary: "the worst-case collection: U^(g) and U* against α; equal up to α = 6/7 and from α = 6, 0.862 apart at α = 1",
        explanation: "Four VM types (2 vCPU/2 GB, 8/32, 4/64, 64/512, the paper's tuples doubled: RES-34) on 80 vCPU / \
                      640 GB servers, each earning 8 per vCPU and 1 per GB, with workload α·ρ, ρ = (2, 1/2, 4/3, 1). \
                      At low α the greedy packing serves everything and matches the optimum; from α = 6 every server \
                      can run the best configuration (12, 3, 8, 0) full. In between the greedy fills servers with the \
                      best configuration first and runs out of the small types the optimum would mix in; at α = 1 it \
                      earns 3196/3 ≈ 1065.3 per server against 1236. `packlab sweep` draws the figure from the \
                      theory; a run simulates DRA at L = 180.",
        scenario: Scenario::Pgas(c2_run(180, 200, 50, 1.0)),
        policies: dra_and_po_d(),
        load_grid: alpha_grid(),
    }
}

fn pgas_c3() -> Preset {
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
                      12 … 720 (RES-12).",
        scenario: Scenario::Pgas(c2_run(180, 200, 50, 1.0)),
        policies: dra_and_po_d(),
        load_grid: vec![1.0],
    }
}

fn pgas_c4() -> Preset {
    Preset {
        id: "pgas-c4",
        title: "DRA converging over time",
        figure: "PG-AS Fig. 4",
        summary: "L = 180 from an empty system: the reward per server climbs to the global greedy's U^(g) = 3196/3 within a few time units",
        explanation: "The setting of Fig. 3 at L = 180, starting with every server empty and unconfigured, sampled every \
                      0.1 time units. DRA reserves slots for the first arrivals, grows the greedy configurations as \
                      jobs come, and settles near U^(g) ≈ 1065 per server (less the reserved empty slots), while the \
                      LP optimum U* = 1236 stays out of reach of any greedy packing.",
        scenario: Scenario::Pgas(c2_run(180, 50, 0, 0.1)),
        policies: dra_and_po_d(),
        load_grid: alpha_grid(),
    }
}

fn pgas_c5() -> Preset {
    Preset {
        id: "pgas-c5",
        title: "A task trace: DRA, preemption, power-of-d, upper bound",
        figure: "PG-AS Figs. 5-6",
        summary: "tasks of sizes 2^-m and priorities 0-2 (rewards ×1, ×3, ×9): a synthetic trace with surges; load your own CSV",
        explanation: "Tasks carry a size (a power of 1/2 of a server, rounded up) and a priority; a task earns size × 1, \
                      3 or 9 per time unit for priority 0, 1 or 2 (RES-35). The paper replays the Google 2011 trace; \
                      without an upload this preset draws a synthetic one with the pattern of Fig. 6: a surge of \
                      priority-0 demand followed by a surge of priority-1 demand. DRA reserves for each type; \
                      DRA+Preemption also evicts the smallest priority-0 jobs when a priority-1 or -2 job finds no \
                      slot; power-of-d packs without reservation; the upper bound solves the reward LP on the jobs \
                      of a system with unlimited servers. Load a trace with `--trace-file` (CSV: submit_time, \
                      duration, size, priority) or the page's upload.",
        scenario: Scenario::Pgas(PgasScenario { types: PgasTypes::Trace, ..c2_run(1000, 20, 2, 0.1) }),
        policies: vec![
            PolicySpec::new(PolicyKind::Dra),
            PolicySpec::new(PolicyKind::DraPreempt),
            PolicySpec::new(PolicyKind::PowerOfD),
            PolicySpec::new(PolicyKind::UpperBound),
        ],
        load_grid: vec![1.0],
    }
}

fn pgas_c6() -> Preset {
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
        scenario: Scenario::Pgas(PgasScenario { types: PgasTypes::C6, servers: 100, ..c2_run(100, 200, 50, 1.0) }),
        policies: dra_and_po_d(),
        load_grid: alpha_grid(),
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
            [
                "pgrr-a1", "pgrr-a2", "pgrr-a3", "pgrr-a4", "pgrr-a6", "msfq-d1", "msfq-d2", "msfq-d3", "msfq-d4",
                "msfq-d5", "msfq-d6", "ghra-b0", "ghra-b1", "ghra-b2", "ghra-b3", "ghra-b4", "ghra-b5", "pgas-c1",
                "pgas-c2", "pgas-c3", "pgas-c4", "pgas-c5", "pgas-c6"
            ]
        );
        for p in &all {
            p.scenario.validate().unwrap();
            assert!(!p.policies.is_empty() && !p.load_grid.is_empty());
            for policy in &p.policies {
                p.scenario.check_policy(policy).unwrap();
            }
        }
        assert_eq!(preset("PGRR-A1").unwrap().id, "pgrr-a1");
        assert_eq!(preset("pgrr-a9").unwrap_err().key, "preset");
    }

    /// RES-46's sanity checks on the synthetic Borg-like table.
    #[test]
    fn synthetic_borg_table_matches_the_published_statistics() {
        let classes = JobClasses::parse(SYNTHETIC_BORG_CLASSES).unwrap();
        assert_eq!(classes.len(), 26);
        let work = classes.work_per_arrival();
        assert!((work / 2048.0 - 1.0 / 4.94).abs() < 1e-5, "{}", work / 2048.0);
        let big: Vec<_> = classes.as_slice().iter().filter(|c| c.need >= 256).collect();
        let share: f64 = big.iter().map(|c| c.probability * c.need as f64 * c.mean_size).sum::<f64>() / work;
        let jobs: f64 = big.iter().map(|c| c.probability).sum();
        assert!((share - 0.858).abs() < 1e-3 && (jobs - 0.0034).abs() < 1e-6, "{share} {jobs}");
    }
}
