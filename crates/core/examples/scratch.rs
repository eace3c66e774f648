use packlab_core::report::run;
use packlab_core::scenario::preset;
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let id = &args[1];
    let horizon: u64 = args[2].parse().unwrap();
    let seeds: u64 = args.get(3).map(|s| s.parse().unwrap()).unwrap_or(1);
    let p = preset(id).unwrap();
    for load in args
        .get(4)
        .map(|s| s.split(',').map(|x| x.parse::<f64>().unwrap()).collect::<Vec<_>>())
        .unwrap_or(vec![p.scenario.load()])
    {
        for pol in &p.policies {
            for seed in 1..=seeds {
                let mut s = p.scenario.clone();
                s.set("horizon", &horizon.to_string()).unwrap();
                s.set("warmup", &(horizon / 10).to_string()).unwrap();
                s.set("seed", &seed.to_string()).unwrap();
                s.set("load", &load.to_string()).unwrap();
                let t = Instant::now();
                let o = run(id, &s, pol).unwrap();
                let r = o.report;
                println!(
                    "{id} load={load} {:12} seed={seed} meanQ={:9.2} final={:6} unstable={} slope={:.2e} t={:.1} rise={:.1} level={:.1} arr={} wait={:.1} occ={:.3} [{:.2}s]",
                    r.policy,
                    r.mean_queue,
                    r.final_queue,
                    r.unstable,
                    r.trend.slope,
                    r.trend.t_stat,
                    r.trend.rise,
                    r.trend.level,
                    r.arrivals,
                    r.mean_wait,
                    r.mean_occupancy,
                    t.elapsed().as_secs_f64()
                );
            }
        }
    }
}
