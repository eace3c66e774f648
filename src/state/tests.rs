//! The lab's state on a log dropped on a preset whose lanes include a policy that cannot replay
//! it: the refusal in one sentence, the log waiting until that lane leaves, and the same replay
//! by fingerprint (RES-90, RES-91).

use packlab_core::trace::{self, Shared};

use crate::state::{Action, Lab};

/// An SWF log of 16 processors whose jobs need 1 to 16 of them: not one-or-all.
fn log() -> Shared {
    let mut text = String::from("; Version: 2.2\n; MaxProcs: 16\n");
    for job in 1..=300u64 {
        let procs = [1, 2, 4, 8, 16][(job % 5) as usize];
        text.push_str(&format!(
            "{job} {} 0 {} {procs} -1 -1 {procs} -1 -1 1 1 1 -1 1 -1 -1 -1\n",
            job * 40,
            100 + job % 7 * 30
        ));
    }
    trace::keep(trace::read_bytes(text.as_bytes()).unwrap())
}

/// The first preset whose lanes hold a policy that refuses the log while others take it.
fn lab_with_a_refusing_lane(shared: &Shared) -> (Lab, &'static str) {
    for preset in packlab_core::scenario::presets() {
        let lab = Lab::from_link(&format!("?preset={}", preset.id));
        let scenario = &lab.setup.scenario;
        let Ok(Some(_)) = scenario.named_trace(&shared.name()) else { continue };
        let mut replayed = scenario.clone();
        if replayed.replay(shared, &[], &preset.scenario).is_err() {
            continue;
        }
        let (run, refused) = replayed.runnable(&lab.setup.policies);
        if !run.is_empty() && !refused.is_empty() {
            let name = lab.setup.policies.iter().find(|p| !run.contains(p)).unwrap().name();
            return (lab, name);
        }
    }
    panic!("no preset races a policy that cannot replay a log of many needs");
}

#[test]
fn a_refused_lane_holds_the_log_until_it_leaves() {
    let shared = log();
    let (mut lab, refusing) = lab_with_a_refusing_lane(&shared);
    let before = lab.setup.scenario.clone();
    lab.apply(Action::LoadTrace(shared.clone()));
    let notice = lab.notice_for(trace::KEY).expect("the refusal is said").message.clone();
    assert!(notice.contains("leave") && !notice.contains('@'), "one sentence in words: {notice}");
    assert_eq!(lab.setup.scenario, before, "the log waits");

    // Unticking the lane replays the log, without loading it again.
    lab.apply(Action::TogglePolicy(refusing));
    assert!(lab.notice_for(trace::KEY).is_none(), "the refusal is gone");
    let scenario = &lab.setup.scenario;
    assert_eq!(scenario.get(trace::KEY), Some(shared.name()));
    assert_eq!(scenario.load(), 1.0, "at the log's own pace");
    let machine = scenario.info().replay.as_ref().unwrap().machine;
    for key in machine {
        assert_eq!(scenario.get(key).as_deref(), Some("16"), "{key}: the log's machine");
    }

    // The fingerprint typed in the Trace field gives the same scenario on the same lanes.
    let mut typed = Lab::from_link(&format!("?preset={}", lab.setup.preset.id));
    typed.setup = std::rc::Rc::new(packlab_core::scenario::Setup {
        policies: lab.setup.policies.clone(),
        ..(*typed.setup).clone()
    });
    typed.apply(Action::Set { key: trace::KEY.to_string(), value: shared.name() });
    assert_eq!(typed.setup.scenario, lab.setup.scenario);
}

#[test]
fn trace_none_stops_the_replay_and_gives_the_preset_its_machine_back() {
    let shared = log();
    let (mut lab, refusing) = lab_with_a_refusing_lane(&shared);
    let before = lab.setup.scenario.clone();
    lab.apply(Action::TogglePolicy(refusing));
    lab.apply(Action::LoadTrace(shared.clone()));
    assert_eq!(lab.setup.scenario.get(trace::KEY), Some(shared.name()));
    assert_ne!(lab.setup.scenario, before, "the log's machine and pace");

    // Typed "none": the preset's machine, load and horizon again (the log's 16 processors did
    // not fit the preset's classes, and "none" was refused for it).
    lab.apply(Action::Set { key: trace::KEY.to_string(), value: "none".into() });
    assert!(lab.notice_for(trace::KEY).is_none(), "{:?}", lab.notice_for(trace::KEY));
    assert_eq!(lab.setup.scenario, before, "the scenario before the log");
}

/// A link the Python package wrote for a race with a Python lane (`script:host=N`, a policy
/// object alive only in that Python process) opens with that lane refused in the notice for
/// `policy`, saying why, and the rest of the race: no panic, no lane without a policy.
#[test]
fn a_python_lane_in_a_link_is_refused_with_a_notice() {
    let script = packlab_core::model::policy::PolicySpec::parse(packlab_core::script::NAME).unwrap();
    let preset = packlab_core::scenario::presets()
        .into_iter()
        .find(|p| p.scenario.check_policy(&script).is_ok() && !p.policies.is_empty())
        .expect("a preset whose model runs scripts");
    let builtin = preset.policies[0].to_string();
    let lab = Lab::from_link(&format!("?preset={}&policy=script:host=1,{builtin}", preset.id));
    let notice = lab.notices.iter().find(|n| n.key == "policy").expect("a notice for the policy key");
    assert!(notice.message.contains("no host policy 1 here"), "{}", notice.message);
    assert_eq!(lab.setup.policies.iter().map(|p| p.to_string()).collect::<Vec<_>>(), [builtin]);
}

/// A knob moved while the race plays (RES-96): a change at the moment given, in place of the
/// changes from there on, said in a note; a value out of range is refused naming the key.
#[test]
fn a_knob_moved_while_the_race_plays_is_a_change_in_the_link() {
    let mut lab =
        Lab::from_link("?preset=pgrr-a1&load=0.5&horizon=20000&change=5000%3Aload%3D1.3%3B12000%3Aload%3D0.5");
    lab.apply(Action::ChangeLive { key: "load".into(), value: "0.9".into(), at: 8000 });
    assert_eq!(lab.setup.scenario.get("change").unwrap(), "5000:load=1.3;8000:load=0.9");
    assert_eq!(lab.setup.scenario.get("load").unwrap(), "0.5", "the load at 0 stays");
    let note = lab.live_note.as_deref().unwrap();
    assert!(
        note.contains(&packlab_core::format::group_digits(8000)) && note.contains("in place of the 1 change after it"),
        "{note}"
    );
    assert!(lab.query().contains("change=5000:load=1.3%3B8000:load=0.9"), "{}", lab.query());
    lab.apply(Action::ChangeLive { key: "load".into(), value: "99".into(), at: 9000 });
    assert_eq!(lab.notices.last().unwrap().key, "load");
    assert_eq!(lab.setup.scenario.get("change").unwrap(), "5000:load=1.3;8000:load=0.9");
}

/// The server count moved while the race plays (RES-96): fewer servers, or as many as the race
/// was built for, go on where the race is; more are still made at the moment, and the note
/// says the race starts again to take them.
#[test]
fn more_servers_than_the_race_was_built_for_start_it_again_with_the_change() {
    let mut lab = Lab::from_link("?preset=pgrr-a1&servers=10&horizon=20000");
    lab.apply(Action::ChangeLive { key: "servers".into(), value: "8".into(), at: 4000 });
    assert_eq!(lab.setup.scenario.get("change").unwrap(), "4000:servers=8");
    assert!(lab.live_note.as_deref().unwrap().ends_with("the race goes on from there."));
    lab.apply(Action::ChangeLive { key: "servers".into(), value: "12".into(), at: 6000 });
    assert_eq!(lab.setup.scenario.get("change").unwrap(), "4000:servers=8;6000:servers=12");
    let note = lab.live_note.as_deref().unwrap();
    assert!(note.contains("this race was built for at most 10, so it starts again from 0 with the change"), "{note}");
    // Out of range or not a number: refused naming the field and its range, the changes kept.
    for bad in ["0", "abc"] {
        lab.apply(Action::ChangeLive { key: "servers".into(), value: bad.into(), at: 7000 });
        let notice = lab.notices.last().unwrap();
        assert_eq!(notice.key, "servers", "{bad}");
        assert!(notice.message.contains("1..=100000"), "{bad}: {}", notice.message);
        assert_eq!(lab.setup.scenario.get("change").unwrap(), "4000:servers=8;6000:servers=12");
    }
}

/// GH-RA's fleet moved while the race plays: the first servers of the fleet the race was built
/// for go on where the race is; a bigger fleet is still made at its moment, and the note names
/// the fleet the race was built for; a fleet that changes the kinds of the servers kept is
/// refused naming the field.
#[test]
fn a_bigger_fleet_than_the_race_was_built_for_starts_it_again_with_the_change() {
    let mut lab = Lab::from_link("?preset=ghra-b3&horizon=20000");
    lab.apply(Action::ChangeLive { key: "servers".into(), value: "5xsmall,3xlarge".into(), at: 4000 });
    assert_eq!(lab.setup.scenario.get("change").unwrap(), "4000:servers=5xsmall,3xlarge");
    assert!(lab.live_note.as_deref().unwrap().ends_with("the race goes on from there."));
    lab.apply(Action::ChangeLive { key: "servers".into(), value: "5xsmall,7xlarge".into(), at: 6000 });
    assert_eq!(lab.setup.scenario.get("change").unwrap(), "4000:servers=5xsmall,3xlarge;6000:servers=5xsmall,7xlarge");
    let note = lab.live_note.as_deref().unwrap();
    let why = "this race was built for the fleet 5xsmall,5xlarge, so it starts again from 0 with the change";
    assert!(note.contains(why), "{note}");
    lab.apply(Action::ChangeLive { key: "servers".into(), value: "5xlarge".into(), at: 7000 });
    let notice = lab.notices.last().unwrap();
    assert_eq!(notice.key, "servers");
    assert!(notice.message.contains("server 1 is large here and small"), "{}", notice.message);
    assert_eq!(lab.setup.scenario.get("change").unwrap(), "4000:servers=5xsmall,3xlarge;6000:servers=5xsmall,7xlarge");
}
