use packlab_core::policy::PolicySpec;
use packlab_core::report::slotted_sim;
use packlab_core::scenario::{Scenario, preset};
use std::time::Instant;
fn main() {
    for pol in ["bf-js", "vqs-bf", "vqs", "bf-j", "bf-s", "fifo-ff-skip"] {
        for l in [10u32, 100, 1000, 10000] {
            let Scenario::Pgrr(mut s) = preset("pgrr-a3").unwrap().scenario;
            s.servers = l;
            s.load = 0.95;
            let p = PolicySpec::parse(pol).unwrap();
            let mut sim = slotted_sim(&s, &p, 1024);
            sim.run(2000).unwrap();
            let a0 = sim.counters().arrivals;
            let t = Instant::now();
            while sim.counters().arrivals - a0 < 1_000_000 {
                sim.step().unwrap();
            }
            let dt = t.elapsed().as_secs_f64();
            let jobs = sim.counters().arrivals - a0;
            println!("{pol:12} L={l:6} ns/job={:7.1} queue={}", dt * 1e9 / jobs as f64, sim.queue().len());
        }
    }
}
