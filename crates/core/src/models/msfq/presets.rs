//! MSFQ's presets: Figs. 1-6 of the paper (SPEC 5.5).

use super::Msfq;
use super::MsfqScenario;
use super::classes::JobClasses;
use crate::model::policy::PolicySpec;
use crate::model::{Figure, Plot, Preset, Sweep};
use crate::window::RunWindow;
use crate::workload::ServiceLaw;

/// The presets, in catalogue order.
pub fn presets() -> Vec<Preset<MsfqScenario>> {
    vec![msfq_d1(), msfq_d2(), msfq_d3(), msfq_d4(), msfq_d5(), msfq_d6()]
}

fn spec(text: &str) -> PolicySpec {
    PolicySpec::parse_for::<Msfq>(text).expect("preset policies are valid")
}

/// E\[T\] (MSFQ Figs. 2 and 4).
const MEAN_RESPONSE: Figure = Figure {
    key: "mean_response",
    index: None,
    ci: Some("mean_response_ci95"),
    per: None,
    label: "mean response time E[T]",
};
/// E[T^w] (Figs. 5 and 6).
const WEIGHTED_MEAN_RESPONSE: Figure = Figure {
    key: "weighted_mean_response",
    index: None,
    ci: None,
    per: None,
    label: "weighted mean response time E[T^w]",
};
/// E[H_1..H_4] of MSF and MSFQ (Fig. 3).
const PHASES: [Figure; 4] = [
    Figure { key: "phase_means", index: Some(0), ci: None, per: None, label: "E[H1]" },
    Figure { key: "phase_means", index: Some(1), ci: None, per: None, label: "E[H2]" },
    Figure { key: "phase_means", index: Some(2), ci: None, per: None, label: "E[H3]" },
    Figure { key: "phase_means", index: Some(3), ci: None, per: None, label: "E[H4]" },
];

/// A sweep over `grid` drawing `figure` against λ.
fn against_load(grid: &[f64], figure: &'static Figure) -> Sweep {
    Sweep::load(grid, Plot::one(figure))
}

/// The one-or-all workload of MSFQ Figs. 1-4: k = 32, 90% small jobs (1 core), 10% large
/// (all 32 cores), all of mean size 1. Stable for λ < 1/(0.9/32 + 0.1) = 7.80488.
fn one_or_all(load: f64, horizon: u64) -> MsfqScenario {
    MsfqScenario {
        cores: 32,
        load,
        classes: JobClasses::parse("1@0.9,32@0.1").expect("valid classes"),
        service: ServiceLaw::Exponential,
        trace: None,
        window: RunWindow::new(1, horizon, horizon / 10, (horizon / 1000).max(1) as f64),
    }
}

const ONE_OR_ALL_GRID: [f64; 9] = [4.0, 5.0, 6.0, 6.5, 7.0, 7.25, 7.5, 7.6, 7.7];

fn msfq(l: u32) -> PolicySpec {
    spec(&format!("msfq:l={l}"))
}

fn msfq_d1() -> Preset<MsfqScenario> {
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
        scenario: one_or_all(7.5, 200_000),
        policies: vec![spec("msf"), msfq(31)],
        sweep: against_load(&ONE_OR_ALL_GRID, &MEAN_RESPONSE),
    }
}

fn msfq_d2() -> Preset<MsfqScenario> {
    Preset {
        id: "msfq-d2",
        title: "Mean response time against load",
        figure: "MSFQ Fig. 2",
        summary: "the one-or-all workload swept in λ: MSFQ(31) has the lowest E[T] and E[T^w], up to 100× below MSF",
        explanation: "The workload of Fig. 1 (k = 32, 90% one-core jobs, 10% all-core jobs, mean size 1) at loads up \
                      to the stability limit λ = 7.805. Every policy here except FCFS is throughput-optimal, yet their \
                      response times differ by orders of magnitude: First-Fit favours small jobs (good unweighted \
                      E[T]), MSF favours large jobs (better weighted E[T^w]), and MSFQ beats both on both metrics. \
                      The analysis curve is the paper's approximation for MSFQ.",
        scenario: one_or_all(7.0, 1_000_000),
        policies: vec![msfq(31), spec("msf"), spec("first-fit"), spec("fcfs")],
        sweep: against_load(&ONE_OR_ALL_GRID, &MEAN_RESPONSE),
    }
}

fn msfq_d3() -> Preset<MsfqScenario> {
    Preset {
        id: "msfq-d3",
        title: "Phase durations of MSF and MSFQ",
        figure: "MSFQ Fig. 3",
        summary: "E[H1..H4] against λ: MSFQ's phases 1 and 2 are far shorter than MSF's",
        explanation: "MSF and MSFQ(31) on the one-or-all workload cycle through four phases: (1) large jobs, (2) small \
                      jobs k at a time, (3) small jobs down to the threshold, (4) draining the small jobs. MSF lets \
                      both queues build up for whole busy periods, so its phases grow without bound near the limit; \
                      MSFQ's phase 4 lasts H_31 = 4.03 on average and keeps the others short.",
        scenario: one_or_all(7.0, 1_000_000),
        policies: vec![spec("msf"), msfq(31)],
        sweep: Sweep::load(
            &ONE_OR_ALL_GRID,
            Plot::Curves { figures: &PHASES, y_label: "mean phase duration E[H_i]", references: &[] },
        ),
    }
}

fn msfq_d4() -> Preset<MsfqScenario> {
    Preset {
        id: "msfq-d4",
        title: "The threshold ℓ",
        figure: "MSFQ Fig. 4",
        summary: "E[T] of MSFQ(ℓ) at λ = 7.5 for ℓ from 0 (MSF) to 31: any ℓ > 0 helps, ℓ = k − 1 is a good choice",
        explanation: "MSFQ(ℓ) on the one-or-all workload at λ = 7.5 (the paper does not state its λ; packlab \
                      uses 7.5). ℓ = 0 is MSF. Raising ℓ makes the machine swap back to large jobs earlier, trading a \
                      few idle cores during phase 4 for much shorter cycles.",
        scenario: one_or_all(7.5, 1_000_000),
        policies: [0, 1, 2, 4, 8, 16, 24, 31].into_iter().map(msfq).collect(),
        // Its sweep draws E[T] against ℓ, one curve per λ of Fig. 2's upper range.
        sweep: Sweep::load(
            &[6.0, 7.0, 7.5],
            Plot::AgainstParameter { key: "l", axis: "threshold ℓ (0 = MSF)", figure: MEAN_RESPONSE },
        ),
    }
}

fn msfq_d5() -> Preset<MsfqScenario> {
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
        scenario: MsfqScenario {
            cores: 15,
            load: 4.5,
            classes: JobClasses::parse("1@0.5,3@0.25,5@0.2,15@0.05").expect("valid classes"),
            ..one_or_all(4.5, 1_000_000)
        },
        policies: vec![spec("static-qs"), spec("adaptive-qs"), spec("msf"), spec("first-fit")],
        sweep: against_load(&[2.0, 3.0, 4.0, 4.5, 4.75, 4.9], &WEIGHTED_MEAN_RESPONSE),
    }
}

/// A synthetic stand-in for the Borg table of Fig. 6 (RES-46: the paper does not print it).
/// 26 classes on 2048 cores, built to pass SPEC's two sanity checks: Σ_j p_j·j·E\[S_j\]/2048 =
/// 1/4.94 (so the limit is λ < 4.94) and 85.8% of the load from the 0.34% of jobs needing
/// 256 cores or more. Load the real table with `--classes-file` or the page's CSV upload.
pub const SYNTHETIC_BORG_CLASSES: &str = "1@0.299219@14.121,2@0.209453@14.121,3@0.146617@14.121,4@0.102632@14.121,\
5@0.071842@14.121,6@0.05029@14.121,8@0.035203@14.121,10@0.024642@14.121,12@0.017249@14.121,16@0.012075@14.121,\
20@0.008452@14.121,24@0.005917@14.121,32@0.004142@14.121,40@0.002899@14.121,48@0.002029@14.121,\
64@0.001421@14.121,80@0.000994@14.121,96@0.000696@14.121,128@0.000487@14.121,160@0.000341@14.121,\
256@0.0014266@228.728,320@0.0008559@228.728,512@0.0005136@228.728,768@0.0003081@228.728,1024@0.0001849@228.728,\
2048@0.0001109@228.728";

fn msfq_d6() -> Preset<MsfqScenario> {
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
        scenario: MsfqScenario {
            cores: 2048,
            load: 4.5,
            classes: JobClasses::parse(SYNTHETIC_BORG_CLASSES).expect("valid classes"),
            ..one_or_all(4.5, 1_000_000)
        },
        policies: vec![spec("static-qs"), spec("adaptive-qs"), spec("msf"), spec("first-fit")],
        sweep: against_load(&[3.0, 3.5, 4.0, 4.25, 4.5, 4.75, 4.9], &WEIGHTED_MEAN_RESPONSE),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
