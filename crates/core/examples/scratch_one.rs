use packlab_core::policy::PolicySpec;
use packlab_core::report::slotted_sim;
use packlab_core::scenario::{Scenario, preset};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let Scenario::Pgrr(mut s) = preset("pgrr-a3").unwrap().scenario;
    s.servers = a[2].parse().unwrap();
    s.load = 0.95;
    let mut sim = slotted_sim(&s, &PolicySpec::parse(&a[1]).unwrap(), 1024);
    sim.run(2000).unwrap();
    let a0 = sim.counters().arrivals;
    while sim.counters().arrivals - a0 < 2_000_000 {
        sim.step().unwrap();
    }
}
