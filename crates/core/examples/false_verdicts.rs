//! Measures the verdict's false answers at 0.9, 0.95, 0.98, 1.02, 1.05 and 1.1 of boundaries
//! known exactly (docs/stability.md reports the figures):
//!
//! ```sh
//! cargo run --release -p packlab-core --example false_verdicts -- run [TRIALS]   # one run, as the page plays it
//! cargo run --release -p packlab-core --example false_verdicts -- map [TRIALS]   # one load, as the map judges it
//! cargo run --release -p packlab-core --example false_verdicts -- coverage [SEEDS] # whole maps: do they hold the boundary?
//! CASE='msfq-d1 msfq' cargo run ... # only the cases whose "preset policy" starts so
//! FROM=10 cargo run ... -- coverage 20  # only seeds 10 to 19 (to extend a measured table)
//! FACTORS=1.05,1.1 cargo run ... -- map 20  # only these loads
//! ```
//!
//! `coverage` prints each map to stderr as it ends (case, trial, interval, band, runs), so a
//! long measurement shows its progress and a cut-off one keeps what it measured.
//!
//! `coverage` makes the map of each known case as `packlab stability` does with its defaults
//! (pgrr-a2 at 4 000 000 slots), once per seed, and counts the maps whose interval holds the
//! exact boundary.
//!
//! `run` plays one run per trial at the preset's horizon, as the page does, and reads its
//! verdict at every look: how often the answer at the horizon is stable, not stable or
//! undecided, and how many runs were ever wrong at some look (a false answer, however brief,
//! is what a student watching the page could take away). `map` judges one load per trial as
//! the finder does: 4 replications, 4 more if they do not decide, the horizon doubled up to
//! twice while undecided. Below a boundary "not stable" is false; above it "stable" is (every
//! load tried keeps at least 2% of its arrivals, four times the test's resolution). Trials use
//! disjoint seeds, so they are independent. Runs on two threads.

use packlab_core::keys::{HORIZON, LOAD, SEED};
use packlab_core::limits::PAGE_MAX_POINTS;
use packlab_core::model::policy::PolicySpec;
use packlab_core::report::live_run;
use packlab_core::scenario::{Scenario, Setup};
use packlab_core::stability::{Finder, Growth, Options, Verdict, judge, look_budget, measure};
use packlab_core::view::Watch;

/// (preset, policy, boundary on the load knob, horizon of the map's runs or the preset's): cases
/// whose boundary a theorem proves at these settings (GH-RA's Algorithm 1 with f = loglog, the
/// only weight that grows as o(log x), Theorem 1).
const CASES: [(&str, &str, f64, Option<u64>); 7] = [
    ("pgrr-a1", "vqs", 2.0 / 3.0, None),
    ("pgrr-a1", "bf-js", 1.0, None),
    ("pgrr-a2", "bf-js", 0.9, Some(4_000_000)),
    ("pgrr-a2", "vqs", 1.0, Some(4_000_000)),
    ("msfq-d1", "msf", 32.0 / 4.1, None),
    ("msfq-d1", "msfq", 32.0 / 4.1, None),
    ("ghra-b0", "alg1:f=loglog", 20.0 / 19.0, None),
];

const FACTORS: [f64; 6] = [0.9, 0.95, 0.98, 1.02, 1.05, 1.1];

/// FCFS's boundary on msfq-d1's one-or-all classes (exponential sizes of mean 1): the
/// saturated system's throughput, by a renewal argument over the cycle from one large job's
/// start to the next (its own service, then the geometric run of small jobs before the next
/// large one, served k at a time and drained before it starts).
fn fcfs_d1() -> f64 {
    let (k, p) = (32usize, 0.9f64);
    let harmonic = |n: usize| (1..=n).map(|i| 1.0 / i as f64).sum::<f64>();
    let small: f64 = (0..20_000)
        .map(|n| {
            let time = if n <= k { harmonic(n) } else { (n - k) as f64 / k as f64 + harmonic(k) };
            p.powi(n as i32) * (1.0 - p) * time
        })
        .sum();
    (1.0 + p / (1.0 - p)) / (1.0 + small)
}

/// Makes the map of each case per seed and counts the intervals that hold the boundary.
fn coverage(count: u64) {
    println!("| case | boundary | maps | interval holds it | mean width / boundary | undecided band | runs (mean) |");
    println!("|---|---|---|---|---|---|---|");
    let mut cases: Vec<(&str, &str, f64, Option<u64>)> = CASES.to_vec();
    cases.insert(4, ("msfq-d1", "fcfs", fcfs_d1(), None));
    let only = std::env::var("CASE").unwrap_or_default();
    let from: u64 = std::env::var("FROM").ok().and_then(|f| f.parse().ok()).unwrap_or(0).min(count);
    for (id, policy, boundary, horizon) in cases.into_iter().filter(|c| format!("{} {}", c.0, c.1).starts_with(&only)) {
        let mut setup = Setup::from_preset(id).expect("preset");
        setup.policies = vec![PolicySpec::parse(policy).expect("policy")];
        let maps = trials(count - from, |t| {
            let t = t + from;
            let mut s = setup.clone();
            if let Some(h) = horizon {
                s.scenario = scenario(&setup, setup.scenario.any().load(), 1, h);
            }
            s.scenario.set(SEED, &(1 + 100 * t).to_string()).expect("seed");
            let mut finder = Finder::new(&s, None, Options::default()).expect("finder");
            finder.run_all().expect("map");
            let cell = finder.cells[0].clone();
            eprintln!("{id} {policy} trial {t}: {:?} band {:?} runs {}", cell.boundary(), cell.band(), cell.runs);
            (cell.boundary(), cell.band().is_some(), cell.runs)
        });
        let held = maps.iter().filter(|(b, _, _)| b.is_some_and(|(lo, hi)| lo <= boundary && boundary <= hi)).count();
        let widths: Vec<f64> = maps
            .iter()
            .filter_map(|(b, _, _)| b.map(|(lo, hi)| (hi - lo) / boundary))
            .filter(|w| w.is_finite())
            .collect();
        let width = widths.iter().sum::<f64>() / widths.len().max(1) as f64;
        let banded = maps.iter().filter(|m| m.1).count();
        let runs = maps.iter().map(|m| m.2).sum::<usize>() as f64 / maps.len() as f64;
        let n = maps.len();
        println!(
            "| {id} {policy} | {boundary:.5} | {n} | {held} of {n} | {:.1}% | {banded} of {n} | {runs:.0} |",
            100.0 * width
        );
    }
}

/// The scenario of `setup` at `load`, `seed` and `horizon`.
fn scenario(setup: &Setup, load: f64, seed: u64, horizon: u64) -> Scenario {
    let mut scenario = setup.scenario.clone();
    scenario.set(HORIZON, &horizon.to_string()).expect("horizon");
    scenario.follow(&setup.scenario, &setup.preset.scenario, &[HORIZON]).expect("follow");
    scenario.set(LOAD, &load.to_string()).expect("load");
    scenario.set(SEED, &seed.to_string()).expect("seed");
    scenario
}

/// One run as the page plays it: its verdict at every look.
fn looks(setup: &Setup, policy: &PolicySpec, load: f64, seed: u64) -> Vec<Verdict> {
    let horizon = setup.scenario.any().window().horizon;
    let s = scenario(setup, load, seed, horizon);
    let mut run = live_run(&s, policy, Watch::batch(PAGE_MAX_POINTS)).expect("run");
    let mut seen = Vec::new();
    loop {
        let judgement = run.verdict().expect("a queue");
        if judgement.look as usize > seen.len() {
            seen.push(judgement.verdict);
        }
        if !judgement.next.is_finite() || run.now() >= horizon as f64 {
            return seen;
        }
        let to = judgement.next.max(run.now() + 1.0).min(horizon as f64);
        run.run_to(to).expect("steps");
    }
}

/// One load as the finder judges it: the verdict that decides it (undecided after the last
/// doubling).
fn decide(setup: &Setup, policy: &PolicySpec, load: f64, first_seed: u64, base: u64) -> Verdict {
    let options = Options::default();
    let alpha = look_budget(options.max_doublings);
    let (half, all) = (options.reps / 2, options.reps);
    for stage in 0..=2 * options.max_doublings + 1 {
        let doublings = stage / 2;
        let reps = if stage % 2 == 0 { 0..half } else { 0..all };
        let growths: Vec<Growth> = reps
            .map(|r| {
                let s = scenario(setup, load, first_seed + r, base << doublings);
                measure(setup.preset.id, &s, policy).expect("run")
            })
            .collect();
        let verdict = judge(&growths, alpha).verdict;
        if verdict.is_decided() {
            return verdict;
        }
    }
    Verdict::Undecided
}

/// Runs `f(trial)` for every trial on two threads, in trial order.
fn trials<T: Send>(count: u64, f: impl Fn(u64) -> T + Sync) -> Vec<T> {
    let f = &f;
    std::thread::scope(|scope| {
        let halves: Vec<_> =
            (0..2).map(|half| scope.spawn(move || (half..count).step_by(2).map(f).collect::<Vec<_>>())).collect();
        let mut halves: Vec<Vec<T>> = halves.into_iter().map(|h| h.join().expect("thread")).collect();
        let mut out = Vec::new();
        for i in 0..count as usize {
            out.push(halves[i % 2].remove(0));
        }
        out
    })
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_else(|| "run".to_string());
    let count: u64 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(20);
    if mode == "coverage" {
        return coverage(count);
    }
    println!(
        "| case | load / boundary | trials | stable | not stable | undecided | false (final) | false at some look |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    let only = std::env::var("CASE").unwrap_or_default();
    for (id, policy, boundary, map_horizon) in
        CASES.into_iter().filter(|c| format!("{} {}", c.0, c.1).starts_with(&only))
    {
        let mut setup = Setup::from_preset(id).expect("preset");
        let spec = PolicySpec::parse(policy).expect("policy");
        setup.policies = vec![spec.clone()];
        let base = map_horizon.unwrap_or(setup.scenario.any().window().horizon);
        let factors: Vec<f64> = match std::env::var("FACTORS") {
            Ok(list) => list.split(',').map(|f| f.trim().parse().expect("FACTORS: numbers such as 1.05,1.1")).collect(),
            Err(_) => FACTORS.to_vec(),
        };
        for factor in factors {
            let load = boundary * factor;
            let wrong = if factor < 1.0 { Verdict::Unstable } else { Verdict::Stable };
            let (finals, ever): (Vec<Verdict>, Vec<bool>) = match mode.as_str() {
                "map" => trials(count, |t| decide(&setup, &spec, load, 1 + 8 * t, base))
                    .into_iter()
                    .map(|v| (v, v == wrong))
                    .unzip(),
                _ => trials(count, |t| looks(&setup, &spec, load, 1 + t))
                    .into_iter()
                    .inspect(|seen| {
                        if std::env::var_os("VERBOSE").is_some() && seen.contains(&wrong) {
                            eprintln!(
                                "{id} {policy} {factor}: {:?}",
                                seen.iter().map(|v| v.word()).collect::<Vec<_>>()
                            );
                        }
                    })
                    .map(|seen| (seen.last().copied().unwrap_or(Verdict::Undecided), seen.contains(&wrong)))
                    .unzip(),
            };
            let n = |v: Verdict| finals.iter().filter(|f| **f == v).count();
            println!(
                "| {id} {policy} | {factor} | {count} | {} | {} | {} | {} | {} |",
                n(Verdict::Stable),
                n(Verdict::Unstable),
                n(Verdict::Undecided),
                n(wrong),
                ever.iter().filter(|e| **e).count()
            );
        }
    }
}
