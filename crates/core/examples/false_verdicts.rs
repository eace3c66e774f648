//! Measures the stability test's false verdicts at 0.95 and 1.05 of boundaries known exactly
//! (docs/stability.md reports the figures):
//!
//! ```sh
//! cargo run --release -p packlab-core --example false_verdicts -- [TRIALS]
//! ```
//!
//! Each trial judges one load as the finder does: 4 replications (seeds 1 + 8t, …), 4 more
//! if they do not decide, the horizon doubled up to twice while undecided, then "not shown
//! stable". Trials use disjoint seeds, so they are independent. Runs on two threads.

use packlab_core::keys::{HORIZON, LOAD, SEED};
use packlab_core::model::policy::PolicySpec;
use packlab_core::report::run;
use packlab_core::scenario::Setup;
use packlab_core::stability::{Growth, Options, Verdict, judge};

/// (preset, policy, boundary on the load knob, horizon or the preset's).
const CASES: [(&str, &str, f64, Option<u64>); 4] = [
    ("pgrr-a1", "vqs", 2.0 / 3.0, None),
    ("pgrr-a1", "bf-js", 1.0, None),
    ("pgrr-a2", "bf-js", 0.9, Some(4_000_000)),
    ("msfq-d1", "msf", 32.0 / 4.1, None),
];

/// The first verdict, and the finder's decision after its doublings (stable or not).
fn decide(setup: &Setup, policy: &PolicySpec, load: f64, first_seed: u64, base: u64) -> (Verdict, bool) {
    let options = Options::default();
    let mut first = None;
    let (half, all) = (options.reps / 2, options.reps);
    for stage in 0..=2 * options.max_doublings + 1 {
        let doublings = stage / 2;
        let reps = if stage % 2 == 0 { 0..half } else { 0..all };
        let growths: Vec<Growth> = reps
            .map(|r| {
                let mut scenario = setup.scenario.clone();
                scenario.set(HORIZON, &(base << doublings).to_string()).expect("horizon");
                scenario.follow(&setup.scenario, &setup.preset.scenario, &[HORIZON]).expect("follow");
                scenario.set(LOAD, &load.to_string()).expect("load");
                scenario.set(SEED, &(first_seed + r).to_string()).expect("seed");
                Growth::of(&run(setup.preset.id, &scenario, policy).expect("run"))
            })
            .collect();
        let verdict = judge(&growths).verdict;
        first.get_or_insert(verdict);
        match verdict {
            Verdict::Stable => return (first.unwrap_or(verdict), true),
            Verdict::Unstable => return (first.unwrap_or(verdict), false),
            Verdict::Undecided => {}
        }
    }
    (first.unwrap_or(Verdict::Undecided), false)
}

fn main() {
    let trials: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    println!("case, load/boundary, trials, first verdict stable/unstable/undecided, judged stable, false verdicts");
    for (id, policy, boundary, horizon) in CASES {
        let mut setup = Setup::from_preset(id).expect("preset");
        let spec = PolicySpec::parse(policy).expect("policy");
        setup.policies = vec![spec.clone()];
        let base = horizon.unwrap_or(setup.scenario.any().window().horizon);
        for factor in [0.95, 1.05] {
            let load = boundary * factor;
            let results: Vec<(Verdict, bool)> = std::thread::scope(|scope| {
                let halves: Vec<_> = (0..2)
                    .map(|half| {
                        let (setup, spec) = (&setup, &spec);
                        scope.spawn(move || {
                            (half..trials)
                                .step_by(2)
                                .map(|t| decide(setup, spec, load, 1 + 8 * t, base))
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                halves.into_iter().flat_map(|h| h.join().expect("thread")).collect()
            });
            let count = |v: Verdict| results.iter().filter(|r| r.0 == v).count();
            let stable = results.iter().filter(|r| r.1).count();
            let false_verdicts = if factor < 1.0 { results.len() - stable } else { stable };
            println!(
                "{id} {policy}, {factor}, {trials}, {}/{}/{}, {stable}, {false_verdicts}",
                count(Verdict::Stable),
                count(Verdict::Unstable),
                count(Verdict::Undecided)
            );
        }
    }
}
