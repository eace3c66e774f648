//! One run of a stability round as a task a Web Worker can make on its own: the probe's
//! scenario and policy as a link, the load and the replication's seed. A worker rebuilds the
//! run from these exactly as [`Round::run`] makes it, so the page's map is `packlab
//! stability`'s, run for run. It lives with the links, not in [`crate::stability`], so that the
//! stability map (which the page's keys and the tours name) does not depend on links.

use serde::{Deserialize, Serialize};

use crate::ConfigError;
use crate::keys::LOAD;
use crate::page::PageSettings;
use crate::scenario::Setup;
use crate::stability::{Finder, Growth, Round};
use crate::sweep::point;

use super::{decode_link, encode_link};

/// One run of a round, for a worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunTask {
    /// The probe's scenario (its horizon as doubled) and its one policy, as a link query.
    pub link: String,
    pub load: f64,
    pub seed: u64,
}

impl Round {
    /// Run `i` as a task a worker can make alone ([`RunTask::run`]).
    pub fn run_task(&self, i: usize) -> RunTask {
        let (setup, load, seed) = self.run_of(i);
        RunTask {
            link: encode_link(&setup.preset, &setup.policies, &setup.scenario, &PageSettings::default()),
            load,
            seed,
        }
    }
}

/// The link query (without `?`) of the lab at axis value `value` and `load` of `finder`'s map,
/// racing the map's policies: where a user watches the queue grow or settle at a point of the
/// map.
pub fn map_point(finder: &Finder, value: usize, load: f64) -> Result<String, ConfigError> {
    let setup = finder.lab_setup(value, load)?;
    Ok(encode_link(&setup.preset, &setup.policies, &setup.scenario, &PageSettings::default()))
}

impl RunTask {
    /// Makes the run and measures its growth: [`Round::run`] of the run it came from.
    pub fn run(&self) -> Result<Growth, String> {
        let (link, errors) = decode_link(&self.link);
        if let Some(e) = errors.first() {
            return Err(format!("the task's link: {e}"));
        }
        let setup = Setup { preset: link.preset, scenario: link.scenario, policies: link.policies };
        let policy = setup.policies.first().ok_or("the task's link names no policy")?;
        let scenario = point(&setup, LOAD, self.load, self.seed).map_err(|e| e.to_string())?;
        crate::stability::measure(setup.preset.id, &scenario, policy).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use crate::keys::HORIZON;
    use crate::scenario::Setup;
    use crate::stability::{Finder, Options};

    /// A worker's run is the round's own, in the first round and at a doubled horizon.
    #[test]
    fn a_task_makes_the_rounds_run() {
        let mut setup = Setup::from_preset("pgrr-a1").unwrap();
        let before = setup.scenario.clone();
        setup.scenario.set(HORIZON, "20000").unwrap();
        setup.scenario.follow(&before, &before, &[HORIZON]).unwrap();
        let options = Options { reps: 2, max_doublings: 1, ..Options::default() };
        let mut finder = Finder::new(&setup, None, options).unwrap();
        let mut doubled = false;
        while let Some(round) = finder.next_round().unwrap() {
            doubled |= round.probes.iter().any(|p| p.doublings > 0);
            let growths: Vec<_> = (0..round.len()).map(|i| round.run(i).unwrap()).collect();
            for (i, growth) in growths.iter().enumerate() {
                let task = round.run_task(i);
                let json = serde_json::to_string(&task).unwrap();
                let back: crate::link::RunTask = serde_json::from_str(&json).unwrap();
                let theirs = back.run().unwrap();
                assert_eq!(format!("{theirs:?}"), format!("{growth:?}"), "round {} run {i}: {json}", round.index);
            }
            finder.absorb(&round, &growths);
            if finder.rounds >= 3 && doubled {
                break;
            }
        }
        assert!(doubled, "a short horizon leaves some load undecided, run again at twice the horizon");
    }
}
