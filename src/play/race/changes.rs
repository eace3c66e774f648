//! A knob moved while the race plays (RES-96): the lanes take the scenario's new changes and
//! go on from where they are; the checkpoints before the change take them too, so going back
//! before it and playing again replays it.

use packlab_core::changes::Changes;

use super::Race;

impl Race {
    /// The changes the lanes make.
    pub fn changes(&self) -> &Changes {
        &self.changes
    }

    /// Takes `changes` in place of the race's. The lanes stay where they are: those whose
    /// open moment is not past the first change that differs take the list as they stand (the
    /// run so far is the run of `changes`, RES-96); if a lane ran past it (a worker's race runs
    /// ahead of the moment the page showed when the knob moved), the lanes go back to the
    /// latest checkpoint before it, take the list there and play on to where they were. The
    /// checkpoints after that moment belonged to the future the race leaves and go; the
    /// timeline then ends where the race is. Refuses a list that changes the moment 0 (a
    /// change there is a new race) or that a lane cannot take, naming why.
    pub fn amend(&mut self, changes: &Changes) -> Result<(), String> {
        let Some(at) = self.changes.first_difference(changes) else { return Ok(()) };
        if at == 0 {
            return Err("a change at 0 starts a new race".into());
        }
        let target = self.now();
        if self.running().any(|l| l.run.open_moment() > at) {
            // Every checkpoint's lanes stand at a whole moment c; the latest at or before
            // at - 1 has its open moment (c, or c + 1 in continuous time) at or before `at`.
            self.restore(self.checkpoints.restore((at - 1) as f64));
        }
        for lane in &mut self.lanes {
            if let Err(e) = lane.run.set_changes(changes)
                && lane.stopped.is_none()
            {
                return Err(format!("{}: {e}", lane.label));
            }
        }
        self.checkpoints.amend(changes);
        self.changes = changes.clone();
        self.run_forward(target).map_err(|e| e.to_string())?;
        self.furthest = self.now();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use packlab_core::scenario::Setup;

    use super::*;
    use crate::play::snapshot::Phase;

    fn setup(preset: &str, policies: &[&str], horizon: u64, changes: &str) -> Setup {
        let mut setup = Setup::from_preset(preset).unwrap();
        setup.policies = policies.iter().map(|p| packlab_core::policy::PolicySpec::parse(p).unwrap()).collect();
        setup.scenario.set_horizon_scaled(horizon).unwrap();
        setup.scenario.set("change", changes).unwrap();
        setup.scenario.validate().unwrap();
        setup
    }

    /// What the page shows of every lane at the race's moment, as bits.
    fn shown(race: &Race) -> Vec<(u64, u64, u64, u64)> {
        let snap = race.snapshot(Phase::Paused, 0);
        snap.lanes.iter().map(|l| (l.slot, l.queue, l.arrivals, l.mean_queue.to_bits())).collect()
    }

    /// A knob moved at the race's moment, or at a moment a worker's race has run past, or
    /// replayed after going back: the race at the horizon is the race of the link with the
    /// change from the start, bit for bit, in slotted and continuous time.
    #[test]
    fn a_change_made_while_the_race_plays_is_the_link_with_the_change() {
        for (preset, policies) in [("pgrr-a1", ["vqs", "bf-js"]), ("msfq-d1", ["msf", "msfq"])] {
            let plain = setup(preset, &policies, 2_000, "");
            let load = plain.scenario.any().load();
            let mut race = Race::new(&plain, 64);
            race.seek(700.0).unwrap();
            let at = plain.scenario.info().time.open_moment(race.now());
            let text = format!("{at}:load={}", load * 1.4);
            race.amend(&Changes::parse(&text).unwrap()).unwrap();
            assert_eq!(race.now(), 700.0, "{preset}: the race stays where it is");
            let mut linked = Race::new(&setup(preset, &policies, 2_000, &text), 64);
            linked.seek(1_300.0).unwrap();
            race.seek(1_300.0).unwrap();
            assert_eq!(shown(&race), shown(&linked), "{preset}: amended at {at}");
            // Back before the change and on again: it replays.
            race.seek(300.0).unwrap();
            race.seek(2_000.0).unwrap();
            linked.seek(2_000.0).unwrap();
            assert_eq!(shown(&race), shown(&linked), "{preset}: replayed");

            // A second change at a moment the race ran past (a worker ahead of the page):
            // the race goes back, takes it there and plays to where it was.
            let mut ahead = Race::new(&setup(preset, &policies, 2_000, &text), 64);
            ahead.seek(1_500.0).unwrap();
            let both = format!("{text};1200:load={load}");
            ahead.amend(&Changes::parse(&both).unwrap()).unwrap();
            assert_eq!(ahead.now(), 1_500.0);
            assert_eq!(ahead.furthest(), 1_500.0, "the old future is gone");
            let mut linked = Race::new(&setup(preset, &policies, 2_000, &both), 64);
            linked.seek(2_000.0).unwrap();
            ahead.seek(2_000.0).unwrap();
            assert_eq!(shown(&ahead), shown(&linked), "{preset}: amended behind the race");
            // After going back before the second change, editing at that moment replaces it.
            ahead.seek(1_000.0).unwrap();
            let edit = Changes::parse(&both).unwrap().made_at(1_000, "load", &(load * 0.5).to_string());
            ahead.amend(&edit).unwrap();
            assert_eq!(ahead.changes().to_string(), format!("{text};1000:load={}", load * 0.5));
            let mut linked = Race::new(&setup(preset, &policies, 2_000, &edit.to_string()), 64);
            linked.seek(2_000.0).unwrap();
            ahead.seek(2_000.0).unwrap();
            assert_eq!(shown(&ahead), shown(&linked), "{preset}: edited after going back");
        }
    }

    /// A server lost and back while the race plays (a live knob up to the count the race was
    /// built for): the race stays where it is and is the link's race with both changes, bit for
    /// bit, also in its drawing (the draining servers); more servers than built are refused.
    #[test]
    fn a_server_lost_and_back_while_the_race_plays_is_the_link_with_both() {
        let ten = |changes: &str| {
            let mut s = setup("pgrr-a1", &["vqs", "bf-js"], 3_000, "");
            s.scenario.set("servers", "10").unwrap();
            s.scenario.set("change", changes).unwrap();
            s.scenario.validate().unwrap();
            s
        };
        let plain = ten("");
        let built = 10;
        let mut race = Race::new(&plain, 64);
        race.seek(700.0).unwrap();
        let lost = format!("700:servers={}", built - 2);
        race.amend(&Changes::parse(&lost).unwrap()).unwrap();
        race.seek(1_500.0).unwrap();
        let both = format!("{lost};1500:servers={built}");
        race.amend(&Changes::parse(&both).unwrap()).unwrap();
        assert_eq!(race.now(), 1_500.0, "the race stays where it is");
        let mut linked = Race::new(&ten(&both), 64);
        for t in [1_000.0, 3_000.0] {
            linked.seek(t).unwrap();
            race.seek(t).unwrap();
            assert_eq!(shown(&race), shown(&linked), "at {t}");
            let views =
                |r: &Race| r.snapshot(Phase::Paused, 0).lanes.iter().map(|l| l.view.clone()).collect::<Vec<_>>();
            assert_eq!(views(&race), views(&linked), "the drawing at {t}");
        }
        let more = format!("{both};2000:servers={}", built + 1);
        assert!(race.amend(&Changes::parse(&more).unwrap()).is_err(), "more servers than built");
    }

    /// GH-RA's fleet lost and back while the race plays (a live knob within the fleet the race
    /// was built for): the race stays where it is and is the link's race with both changes, bit
    /// for bit, in its numbers and its drawing (the draining servers); a bigger fleet is
    /// refused.
    #[test]
    fn a_fleet_lost_and_back_while_the_race_plays_is_the_link_with_both() {
        let fleet = |changes: &str| setup("ghra-b3", &["mw-local", "alg2-jsq"], 3_000, changes);
        let plain = fleet("");
        let built = plain.scenario.get("servers").unwrap();
        assert_eq!(built, "5xsmall,5xlarge");
        let open = |race: &Race| plain.scenario.info().time.open_moment(race.now());
        let mut race = Race::new(&plain, 64);
        race.seek(700.0).unwrap();
        let lost = format!("{}:servers=5xsmall,2xlarge", open(&race));
        race.amend(&Changes::parse(&lost).unwrap()).unwrap();
        race.seek(1_500.0).unwrap();
        let both = format!("{lost};{}:servers={built}", open(&race));
        race.amend(&Changes::parse(&both).unwrap()).unwrap();
        assert_eq!(race.now(), 1_500.0, "the race stays where it is");
        let mut linked = Race::new(&fleet(&both), 64);
        let views = |r: &Race| r.snapshot(Phase::Paused, 0).lanes.iter().map(|l| l.view.clone()).collect::<Vec<_>>();
        // Inside the drain (the removed servers still hold jobs), after the return, the end.
        for t in [703.0, 1_000.0, 3_000.0] {
            linked.seek(t).unwrap();
            race.seek(t).unwrap();
            assert_eq!(shown(&race), shown(&linked), "at {t}");
            assert_eq!(views(&race), views(&linked), "the drawing at {t}");
        }
        let drained = |r: &mut Race| {
            r.seek(703.0).unwrap();
            views(r)
                .iter()
                .any(|v| v.servers.iter().any(|s| s.label.as_deref().is_some_and(|l| l.ends_with("draining"))))
        };
        assert!(drained(&mut race), "servers drain after the loss");
        let more = format!("{both};2000:servers=5xsmall,6xlarge");
        let refused = race.amend(&Changes::parse(&more).unwrap()).unwrap_err();
        assert!(refused.contains("10 servers"), "{refused}");
    }

    /// PG-AS's server count is a live knob too, in continuous time: servers lost at the race's
    /// open moment and back later make the link's race with both changes, bit for bit (the
    /// reward per server present, its series, the drawing with the draining servers); more
    /// servers than built are refused.
    #[test]
    fn a_pgas_server_lost_and_back_while_the_race_plays_is_the_link_with_both() {
        let pgas = |changes: &str| {
            let mut s = setup("pgas-c3", &["dra", "po-d"], 100, "");
            s.scenario.set("servers", "24").unwrap();
            s.scenario.set("change", changes).unwrap();
            s.scenario.validate().unwrap();
            s
        };
        let plain = pgas("");
        let time = plain.scenario.info().time;
        let mut race = Race::new(&plain, 64);
        race.seek(30.5).unwrap();
        let lost = format!("{}:servers=16", time.open_moment(race.now()));
        race.amend(&Changes::parse(&lost).unwrap()).unwrap();
        race.seek(60.5).unwrap();
        let both = format!("{lost};{}:servers=24", time.open_moment(race.now()));
        race.amend(&Changes::parse(&both).unwrap()).unwrap();
        assert_eq!(race.now(), 60.5, "the race stays where it is");
        let mut linked = Race::new(&pgas(&both), 64);
        let read = |r: &Race| {
            let snap = r.snapshot(Phase::Paused, 0);
            let lanes = snap.lanes.iter();
            let reward = lanes.clone().map(|l| l.mean_reward.map(f64::to_bits)).collect::<Vec<_>>();
            let series: Vec<Vec<u64>> =
                lanes.clone().map(|l| l.reward_series.iter().map(|p| p.y.to_bits()).collect()).collect();
            (shown(r), reward, series, lanes.map(|l| l.view.clone()).collect::<Vec<_>>())
        };
        for t in [31.5, 100.0] {
            linked.seek(t).unwrap();
            race.seek(t).unwrap();
            assert!(read(&race) == read(&linked), "at {t}");
        }
        let more = format!("{both};80:servers=25");
        assert!(race.amend(&Changes::parse(&more).unwrap()).is_err(), "more servers than built");
    }
}
