//! The lab's state as the page keeps it: links decode to the controls and encode back
//! unchanged, bad keys are named and the rest loads, and every reducer action does what its
//! control promises. Plain logic: these run in Chromium under wasm-bindgen-test (scripts/test)
//! and natively under `cargo test`.

use packlab_web::state::Speed;
use packlab_web::state::{Action, Lab, MAX_POLICIES};
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

fn policies(lab: &Lab) -> Vec<String> {
    lab.setup.policies.iter().map(|p| p.to_string()).collect()
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn links_round_trip() {
    let link = "http://127.0.0.1:8080/packlab/?preset=pgrr-a3&policy=vqs:j=5,bf-js,fifo-ff&seed=42&load=0.97\
                &servers=12&size=discrete:0.2@2/3,0.5@1/3&service=deterministic:7&speed=max";
    let lab = Lab::from_link(link);
    assert!(lab.notices.is_empty(), "{:?}", lab.notices);
    assert_eq!(lab.setup.preset.id, "pgrr-a3");
    assert_eq!(policies(&lab), ["vqs:j=5", "bf-js", "fifo-ff"]);
    assert_eq!(lab.speed, Speed::Max);
    let s = &lab.setup.scenario;
    assert_eq!((s.seed(), s.load(), s.get("servers").unwrap()), (42, 0.97, "12".to_string()));
    // Encoding gives a query that decodes to the same state, and encodes the same again.
    let again = Lab::from_link(&lab.query());
    assert_eq!(again, lab);
    assert_eq!(again.query(), lab.query());
    // Keys at the preset's value are left out; the minimum keys are always there.
    let plain = Lab::from_link("?preset=pgrr-a1");
    assert_eq!(plain.query(), "preset=pgrr-a1&policy=vqs,bf-js,vqs-bf&seed=1");
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn bad_keys_are_named_with_their_range_and_the_rest_loads() {
    let lab = Lab::from_link("?preset=pgrr-a1&servers=-3&seed=abc&load=0.8&speed=warp&policy=vqs,bf-js");
    let keys: Vec<&str> = lab.notices.iter().map(|n| n.key.as_str()).collect();
    assert_eq!(keys, ["servers", "seed", "speed"]);
    let text: Vec<String> = lab.notices.iter().map(|n| n.to_string()).collect();
    assert!(text[0].contains("servers") && text[0].contains("1..=100000"), "{text:?}");
    assert!(text[1].contains("seed") && text[1].contains("0..="), "{text:?}");
    assert_eq!(lab.setup.scenario.load(), 0.8);
    assert_eq!(lab.setup.scenario.get("servers").unwrap(), "1");
    assert_eq!(lab.speed, Speed::DEFAULT);
    assert_eq!(policies(&lab), ["vqs", "bf-js"]);
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn setting_a_key_changes_the_scenario_or_names_the_problem() {
    let mut lab = Lab::from_link("?preset=pgrr-a1&policy=vqs,bf-js");
    lab.apply(Action::Set { key: "servers".into(), value: "40".into() });
    assert_eq!(lab.setup.scenario.get("servers").unwrap(), "40");
    assert!(lab.query().contains("servers=40"));
    lab.apply(Action::Set { key: "servers".into(), value: "0".into() });
    assert_eq!(lab.setup.scenario.get("servers").unwrap(), "40", "a rejected value changes nothing");
    assert!(lab.notice_for("servers").unwrap().to_string().contains("1..=100000"));
    lab.apply(Action::Set { key: "servers".into(), value: "7".into() });
    assert!(lab.notice_for("servers").is_none(), "a good value clears the notice");
    // The horizon keeps the warm-up's fraction, as the CLI's --horizon does.
    lab.apply(Action::Set { key: "horizon".into(), value: "100000".into() });
    assert_eq!(lab.setup.scenario.get("warmup").unwrap(), "10000");
    // A relation that fails is reported on the field that was edited.
    lab.apply(Action::Set { key: "warmup".into(), value: "100000".into() });
    assert!(lab.notice_for("warmup").unwrap().to_string().contains("below the horizon"));
    lab.apply(Action::Set { key: "size".into(), value: "uniform:0.5,0.2".into() });
    assert!(lab.notice_for("size").is_some());
    lab.apply(Action::Dismiss);
    assert!(lab.notices.is_empty());
    // Back to the preset's values, keeping the seed.
    lab.apply(Action::Set { key: "seed".into(), value: "9".into() });
    lab.apply(Action::ResetScenario);
    assert_eq!(lab.setup.scenario.get("servers").unwrap(), "1");
    assert_eq!(lab.setup.scenario.seed(), 9);
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn policies_toggle_between_one_and_four() {
    let mut lab = Lab::from_link("?preset=pgrr-a1&policy=vqs");
    lab.apply(Action::TogglePolicy("vqs"));
    assert_eq!(policies(&lab), ["vqs"], "the last policy stays");
    assert_eq!(lab.notice_for("policy").unwrap().message, "at least one policy must run");
    for kind in ["bf-js", "vqs-bf", "fifo-ff"] {
        lab.apply(Action::TogglePolicy(kind));
    }
    assert_eq!(policies(&lab), ["vqs", "bf-js", "vqs-bf", "fifo-ff"]);
    assert!(lab.notice_for("policy").is_none());
    lab.apply(Action::TogglePolicy("bf-j"));
    assert_eq!(lab.setup.policies.len(), MAX_POLICIES);
    assert!(lab.notice_for("policy").unwrap().message.contains("at most 4"));
    lab.apply(Action::TogglePolicy("vqs-bf"));
    assert_eq!(policies(&lab), ["vqs", "bf-js", "fifo-ff"]);
    // A link with too many is cut to four, with a notice.
    let crowded = Lab::from_link("?policy=bf-j,bf-s,bf-js,vqs,vqs-bf");
    assert_eq!(crowded.setup.policies.len(), MAX_POLICIES);
    assert!(crowded.notice_for("policy").is_some());
}

/// Issue 20, item 1: the page's one J field sets every lane's partition depth, because the
/// presets' VQS lanes take the scenario's J instead of pinning their own.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn the_j_field_re_bins_every_lane() {
    for id in ["pgrr-a1", "pgrr-a2", "pgrr-a3", "pgrr-a4", "pgrr-a6"] {
        let mut lab = Lab::from_link(&format!("?preset={id}"));
        lab.apply(Action::Set { key: "j".into(), value: "5".into() });
        let labels: Vec<String> = lab.setup.policies.iter().map(|p| lab.setup.scenario.policy_label(p)).collect();
        for label in labels.iter().filter(|l| l.starts_with("VQS")) {
            assert!(label.ends_with("(J=5)"), "{id}: {labels:?}");
        }
        assert!(labels.iter().any(|l| l.starts_with("VQS")), "{id}: {labels:?}");
    }
}

/// Issue 20, item 3: each lane's parameters are set in the form, a policy races more than
/// once with different parameters, and a lane identical to another is refused, naming both.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn lanes_take_their_own_parameters() {
    let mut lab = Lab::from_link("?preset=msfq-d1");
    assert_eq!(policies(&lab), ["msf", "msfq:l=31"]);
    lab.apply(Action::SetPolicyParam { lane: 1, key: "l".into(), value: "8".into() });
    assert_eq!(policies(&lab), ["msf", "msfq:l=8"]);
    lab.apply(Action::AddPolicy("msfq"));
    assert_eq!(policies(&lab), ["msf", "msfq:l=8", "msfq"]);
    lab.apply(Action::SetPolicyParam { lane: 2, key: "l".into(), value: "2".into() });
    assert_eq!(policies(&lab), ["msf", "msfq:l=8", "msfq:l=2"]);
    assert!(lab.notices.is_empty(), "{:?}", lab.notices);
    // The range is the scenario's (ℓ < k = 32), named with the lane.
    lab.apply(Action::SetPolicyParam { lane: 2, key: "l".into(), value: "40".into() });
    let notice = lab.notice_for("policy").expect("ℓ = 40 on 32 cores");
    assert!(notice.message.starts_with("lane 3 (MSFQ (ℓ=2)), l: "), "{notice}");
    assert_eq!(policies(&lab), ["msf", "msfq:l=8", "msfq:l=2"]);
    // Two lanes of one spec are refused; empty text is the default again.
    lab.apply(Action::SetPolicyParam { lane: 2, key: "l".into(), value: "8".into() });
    let notice = lab.notice_for("policy").expect("a second msfq:l=8");
    assert!(notice.message.contains("lane 2 already races MSFQ (ℓ=8)"), "{notice}");
    lab.apply(Action::SetPolicyParam { lane: 2, key: "l".into(), value: "".into() });
    assert_eq!(policies(&lab), ["msf", "msfq:l=8", "msfq"]);
    assert!(lab.notices.is_empty());
    lab.apply(Action::AddPolicy("msfq"));
    assert!(lab.notice_for("policy").unwrap().message.contains("lane 3 already races"));
    // The round trip keeps every lane; removing one and toggling a name off removes lanes.
    assert_eq!(Lab::from_link(&lab.query()).setup, lab.setup);
    lab.apply(Action::RemovePolicy(0));
    assert_eq!(policies(&lab), ["msfq:l=8", "msfq"]);
    lab.apply(Action::TogglePolicy("msfq"));
    assert_eq!(policies(&lab), ["msfq:l=8", "msfq"], "every lane is MSFQ: one must run");
    lab.apply(Action::TogglePolicy("fcfs"));
    lab.apply(Action::TogglePolicy("msfq"));
    assert_eq!(policies(&lab), ["fcfs"]);
    lab.apply(Action::RemovePolicy(0));
    assert_eq!(policies(&lab), ["fcfs"]);
    assert_eq!(lab.notice_for("policy").unwrap().message, "at least one policy must run");
    // A choice parameter, and a lane index past the end does nothing.
    let mut lab = Lab::from_link("?preset=pgrr-a1&policy=vqs");
    lab.apply(Action::SetPolicyParam { lane: 0, key: "ties".into(), value: "random".into() });
    lab.apply(Action::SetPolicyParam { lane: 7, key: "ties".into(), value: "random".into() });
    assert_eq!(policies(&lab), ["vqs:ties=random"]);
}

/// A link that names a policy twice, or several that cannot run, says so about each of them.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn every_refused_policy_of_a_link_is_named() {
    let lab = Lab::from_link("?preset=pgrr-a1&policy=msf,dra");
    let notice = lab.notice_for("policy").expect("two policies of other models");
    assert!(notice.message.contains("msf is a policy of MSFQ") && notice.message.contains("dra"), "{notice}");
    assert_eq!(lab.notices.len(), 1);
    let lab = Lab::from_link("?preset=pgrr-a1&policy=vqs,bf-js,vqs:ties=first");
    assert_eq!(policies(&lab), ["vqs", "bf-js"]);
    assert!(lab.notice_for("policy").unwrap().message.contains("vqs is named more than once; it runs once"));
}

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn presets_and_speed() {
    let mut lab = Lab::from_link("?preset=pgrr-a1&servers=3&speed=1000");
    assert_eq!(lab.speed, Speed::PerSecond(1000));
    lab.apply(Action::ChoosePreset("pgrr-a4".into()));
    assert_eq!(lab.setup.preset.id, "pgrr-a4");
    assert_eq!(lab.setup.scenario.get("servers").unwrap(), "5", "a preset brings its own values");
    assert_eq!(lab.speed, Speed::PerSecond(1000), "the speed stays");
    lab.apply(Action::ChoosePreset("pgrr-z9".into()));
    assert_eq!(lab.setup.preset.id, "pgrr-a4");
    assert!(lab.notice_for("preset").unwrap().message.contains("unknown preset"));
    lab.apply(Action::SetSpeed("max".into()));
    assert_eq!(lab.speed, Speed::Max);
    assert!(lab.query().ends_with("&speed=max"));
    lab.apply(Action::SetSpeed("0".into()));
    assert_eq!(lab.speed, Speed::Max);
    assert!(lab.notice_for("speed").is_some());
}

/// The multiserver-job presets: only their own policies can be added, a key that would break
/// a chosen policy is refused naming both, an upload's error is shown, and a preset with
/// eight policies races four of them.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn msfq_presets() {
    let mut lab = Lab::from_link("?preset=msfq-d1&seed=3");
    assert_eq!(policies(&lab), ["msf", "msfq:l=31"]);
    lab.apply(Action::TogglePolicy("vqs"));
    let notice = lab.notice_for("policy").expect("a PG-RR policy is refused");
    assert!(notice.message.contains("vqs is a policy of PG-RR"), "{notice}");
    lab.apply(Action::TogglePolicy("first-fit"));
    assert_eq!(policies(&lab), ["msf", "msfq:l=31", "first-fit"]);
    // The 32-core class does not fit 16 cores; with 48 cores, MSFQ no longer has one-or-all
    // classes.
    lab.apply(Action::Set { key: "cores".into(), value: "16".into() });
    let notice = lab.notice_for("cores").expect("a 32-core class on 16 cores");
    assert!(notice.message.contains("needs 32 cores"), "{notice}");
    lab.apply(Action::Set { key: "cores".into(), value: "48".into() });
    let notice = lab.notice_for("cores").expect("MSFQ on 48 cores with needs 1 and 32");
    assert!(notice.message.contains("one-or-all"), "{notice}");
    assert!(
        notice.message.starts_with("a running policy cannot take this value (MSFQ needs one-or-all classes"),
        "{notice}"
    );
    assert_eq!(lab.setup.scenario.get("cores").unwrap(), "32");
    lab.apply(Action::Set { key: "cores".into(), value: "32".into() });
    lab.apply(Action::Set { key: "classes".into(), value: "1@0.8,32@0.2".into() });
    assert!(lab.notices.is_empty(), "{:?}", lab.notices);
    let again = Lab::from_link(&lab.query());
    assert_eq!(again.setup, lab.setup);
    lab.apply(Action::Reject(packlab_core::ConfigError::new("classes", "uploaded CSV: line 2: need 'x'")));
    assert!(lab.notice_for("classes").is_some());
    lab.apply(Action::ChoosePreset("msfq-d4".into()));
    assert_eq!(policies(&lab), ["msfq:l=0", "msfq:l=2", "msfq:l=8", "msfq:l=31"]);
    assert!(lab.notices.is_empty());
    // A link to the preset races the same four, without a notice; a link that names more
    // than four is told so.
    let linked = Lab::from_link("?preset=msfq-d4");
    assert_eq!((linked.setup.policies.clone(), linked.notices.len()), (lab.setup.policies.clone(), 0));
    let named = Lab::from_link("?preset=msfq-d4&policy=msfq:l=0,msfq:l=1,msfq:l=2,msfq:l=4,msfq:l=8");
    assert_eq!(policies(&named), ["msfq:l=0", "msfq:l=1", "msfq:l=2", "msfq:l=4"]);
    assert!(named.notice_for("policy").is_some());
}

/// The VM presets: the fleet and the VM types are keys like any other, a fleet whose servers
/// have other resources than the types is refused naming the key, and the link restores it all.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn ghra_presets() {
    let mut lab = Lab::from_link("?preset=ghra-b3&seed=2");
    assert_eq!(policies(&lab), ["mw-local", "alg2-jsq"]);
    lab.apply(Action::TogglePolicy("alg1"));
    assert_eq!(policies(&lab), ["mw-local", "alg2-jsq", "alg1"]);
    lab.apply(Action::TogglePolicy("msf"));
    assert!(lab.notice_for("policy").unwrap().message.contains("msf is a policy of MSFQ"));
    lab.apply(Action::Dismiss);
    // One-resource servers under three-resource VM types.
    lab.apply(Action::Set { key: "servers".into(), value: "4x10".into() });
    let notice = lab.notice_for("servers").expect("capacities of another dimension");
    assert!(notice.message.contains("must match"), "{notice}");
    assert_eq!(lab.setup.scenario.get("servers").unwrap(), "5xsmall,5xlarge");
    lab.apply(Action::Set { key: "servers".into(), value: "3xsmall,1x900/180/5000".into() });
    lab.apply(Action::Set { key: "load".into(), value: "0.7".into() });
    assert!(lab.notices.is_empty(), "{:?}", lab.notices);
    let again = Lab::from_link(&lab.query());
    assert_eq!(again.setup, lab.setup);
    assert!(lab.query().contains("servers=3xsmall,1x900/180/5000"), "{}", lab.query());
    // A bad link names each bad key and loads the rest.
    let bad = Lab::from_link("?preset=ghra-b1&servers=2xhuge&types=0,3&load=0.6");
    assert!(bad.notice_for("servers").is_some() && bad.notice_for("types").is_some());
    assert_eq!(bad.setup.scenario.get("load").unwrap(), "0.6");
}

/// The PG-AS presets: their own policies, keys checked with ranges, and an uploaded trace that
/// replaces the types (and a bad one, or one on another model, named as `trace`).
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn pgas_presets_and_traces() {
    use packlab_core::trace;

    let mut lab = Lab::from_link("?preset=pgas-c4");
    assert_eq!(policies(&lab), ["dra", "po-d"]);
    lab.apply(Action::Set { key: "servers".into(), value: "-1".into() });
    assert_eq!(lab.notice_for("servers").unwrap().key, "servers");
    lab.apply(Action::Set { key: "rho".into(), value: "1,2".into() });
    let notice = lab.notice_for("rho").expect("two entries for four types");
    assert!(notice.message.contains("4"), "{notice}");
    lab.apply(Action::Dismiss);
    lab.apply(Action::Set { key: "load".into(), value: "2".into() });
    assert!(lab.notices.is_empty(), "{:?}", lab.notices);
    assert_eq!(Lab::from_link(&lab.query()).setup, lab.setup);

    let mut trace_lab = Lab::from_link("?preset=pgas-c5&servers=20");
    let loaded = trace::keep(trace::read_task_csv("0,1,0.5,0\n0.5,2,0.25,9\n1,1,0.125,4\n").unwrap());
    trace_lab.apply(Action::LoadTrace(loaded.clone()));
    assert!(trace_lab.notices.is_empty(), "{:?}", trace_lab.notices);
    let packlab_core::scenario::Scenario::Pgas(s) = &trace_lab.setup.scenario else { panic!("a PG-AS scenario") };
    assert_eq!(s.trace.as_ref().map(|t| t.tasks.len()), Some(3));
    // The horizon covers the tasks' arrivals (the last at 1, at α = 1), and the page says how
    // the file replays.
    assert_eq!(trace_lab.setup.scenario.horizon(), 1);
    let status = trace_lab.setup.scenario.replay_status().expect("a file replays");
    assert_eq!(status.scaling, 1.0);
    // On a model without traces the file is refused by name, saying which models take it.
    let mut other = Lab::from_link("?preset=ghra-b1");
    other.apply(Action::LoadTrace(loaded));
    assert!(other.notice_for("trace").unwrap().message.contains("PG-AS"));
}

/// Issue 20, item 8: once the scenario or the lanes differ from the preset's, the header says
/// what changed instead of letting the preset's summary describe another scenario.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn the_header_says_when_it_no_longer_describes_the_scenario() {
    use packlab_web::components::workbench::edited_note;
    let mut lab = Lab::from_link("?preset=pgrr-a1");
    assert_eq!(edited_note(&lab.setup), None);
    // A new seed or horizon leaves the description true.
    lab.apply(Action::Set { key: "seed".into(), value: "9".into() });
    lab.apply(Action::Set { key: "horizon".into(), value: "100000".into() });
    assert_eq!(edited_note(&lab.setup), None);
    lab.apply(Action::Set { key: "servers".into(), value: "1000".into() });
    lab.apply(Action::Set { key: "size".into(), value: "uniform:0.1,0.9".into() });
    let note = edited_note(&lab.setup).expect("1000 servers are not the preset's one");
    assert!(note.starts_with("Edited: Servers L = 1000 · "), "{note}");
    assert!(note.contains("uniform:0.1,0.9"), "{note}");
    lab.apply(Action::ResetScenario);
    assert_eq!(edited_note(&lab.setup), None);
    lab.apply(Action::TogglePolicy("vqs"));
    let note = edited_note(&lab.setup).expect("a lane removed");
    assert!(note.starts_with("Edited: lanes BF-J/S, VQS-BF (J=2)."), "{note}");
}

/// Issue 16, item 4: `embed=1` with its views; bad values named; the CLI reads the same link.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn embed_links_choose_their_views() {
    use packlab_web::charts::kind::ChartKind;
    use packlab_web::state::views::{Embed, View};
    let lab = Lab::from_link("?preset=pgrr-a1&seed=1&embed=1&views=lanes,queue,lanes");
    assert!(lab.notices.is_empty(), "{:?}", lab.notices);
    assert_eq!(lab.embed, Some(Embed { views: vec![View::Lanes, View::Chart(ChartKind::Queue)] }));
    assert!(lab.query().ends_with("&embed=1&views=lanes,queue"), "{}", lab.query());
    assert_eq!(Lab::from_link(&lab.query()), lab);
    // The scenario is the link's, embedded or not; the command line ignores the page's keys.
    assert_eq!(Lab::from_link("?preset=pgrr-a1&seed=1").setup, lab.setup);
    let (_, errors) = packlab_core::link::decode_link(&lab.query());
    assert!(errors.is_empty(), "{errors:?}");

    let bad = Lab::from_link("?preset=pgrr-a1&embed=2&views=lanes,heatmap");
    let keys: Vec<&str> = bad.notices.iter().map(|n| n.key.as_str()).collect();
    assert_eq!(keys, ["embed", "views"]);
    assert!(bad.notices[0].message.contains("must be 1 or 0 (got '2')"));
    assert!(bad.notices[1].message.contains("'heatmap' is not a view; views are stats, lanes, reward, queue"));
    assert_eq!(bad.embed, None);
}

/// Issue 16, item 3: the colour theme and presenter mode are page keys of the link.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn theme_and_presenter_mode_travel_in_the_link() {
    use packlab_web::state::theme::ThemeChoice;
    let mut lab = Lab::from_link("?preset=msfq-d1&seed=1&theme=dark&present=1");
    assert!(lab.notices.is_empty(), "{:?}", lab.notices);
    assert_eq!((lab.theme, lab.present), (ThemeChoice::Dark, true));
    assert!(lab.query().ends_with("&theme=dark&present=1"), "{}", lab.query());
    assert_eq!(Lab::from_link(&lab.query()), lab);
    lab.apply(Action::TogglePresent);
    lab.apply(Action::SetTheme("auto".into()));
    assert_eq!(lab.query(), "preset=msfq-d1&policy=msf,msfq:l=31&seed=1");
    lab.apply(Action::SetTheme("sepia".into()));
    assert!(lab.notice_for("theme").unwrap().message.contains("auto, light, dark or high-contrast"));
    let bad = Lab::from_link("?preset=msfq-d1&present=yes");
    assert!(bad.notice_for("present").unwrap().message.contains("must be 1 or 0"));
    // The system's dark preference decides under auto; presenting thickens the lines.
    use packlab_web::state::theme::chart_theme;
    assert_eq!(chart_theme(ThemeChoice::Auto, true, false), packlab_plot::Theme::DARK);
    assert_eq!(chart_theme(ThemeChoice::Auto, false, false), packlab_plot::Theme::LIGHT);
    assert!(chart_theme(ThemeChoice::Light, false, true).line_width > packlab_plot::Theme::LIGHT.line_width);
}

/// Issue 16, item 2: the page's bare address opens the gallery; a preset leaves it, the
/// brand link comes back to it.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_bare_link_opens_the_gallery() {
    for bare in ["", "?", "http://127.0.0.1:8080/packlab/", "http://127.0.0.1:8080/packlab/?"] {
        let lab = Lab::from_link(bare);
        assert!(lab.gallery, "{bare:?}");
        assert_eq!(lab.query(), "");
    }
    for link in ["?preset=pgrr-a1", "?seed=3", "http://127.0.0.1:8080/?speed=max"] {
        assert!(!Lab::from_link(link).gallery, "{link}");
    }
    let mut lab = Lab::from_link("");
    lab.apply(Action::ChoosePreset("msfq-d1".into()));
    assert!(!lab.gallery);
    assert_eq!(lab.query(), "preset=msfq-d1&policy=msf,msfq:l=31&seed=1");
    lab.apply(Action::ShowGallery);
    assert!(lab.gallery);
}

/// Issue 16, item 1: a tour is a link (`tour=ID&step=K`); its step sets the scenario; steps
/// out of range are named.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn tours_are_links_to_their_steps() {
    let mut lab = Lab::from_link("?tour=vqs-vs-best-fit&step=2");
    assert!(lab.notices.is_empty(), "{:?}", lab.notices);
    let at = lab.tour.expect("a tour");
    assert_eq!((at.tour.id, at.step), ("vqs-vs-best-fit", 1));
    assert_eq!(lab.setup.preset.id, "pgrr-a2");
    assert!(lab.query().ends_with("&tour=vqs-vs-best-fit&step=2"), "{}", lab.query());
    assert_eq!(Lab::from_link(&lab.query()), lab);
    lab.apply(Action::TourStep(0));
    assert_eq!(lab.setup.preset.id, "pgrr-a1");
    lab.apply(Action::TourStep(9));
    assert_eq!(lab.tour.unwrap().step, 0, "no step 10");
    lab.apply(Action::LeaveTour);
    assert_eq!(lab.tour, None);
    assert_eq!(lab.setup.preset.id, "pgrr-a1", "leaving keeps the scenario");
    lab.apply(Action::StartTour("msf-swings"));
    assert_eq!(lab.setup.preset.id, "msfq-d1");

    let bad = Lab::from_link("?tour=vqs-vs-best-fit&step=7");
    let steps = packlab_core::tours::tour("vqs-vs-best-fit").unwrap().steps.len();
    assert!(steps < 7, "step 7 must be past the tour's end");
    let message = &bad.notice_for("step").unwrap().message;
    assert!(message.contains(&format!("1..={steps} (got '7')")), "{message}");
    assert_eq!(bad.tour.unwrap().step, 0);
    let unknown = Lab::from_link("?tour=nope");
    assert!(unknown.notice_for("tour").unwrap().message.contains("unknown tour 'nope'"));
}

/// Issue 15: a link can open at a moment of its run (`t=`); a bad one is named with its range,
/// and a new scenario starts from time 0 again.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_link_opens_at_a_moment() {
    let lab = Lab::from_link("?preset=msfq-d1&horizon=400&t=200");
    assert!(lab.notices.is_empty(), "{:?}", lab.notices);
    assert_eq!(lab.open_at, Some(200.0));
    assert!(lab.query().ends_with("&t=200"), "{}", lab.query());
    assert!(!lab.query_at(None).contains("&t="), "{}", lab.query_at(None));
    assert_eq!(Lab::from_link(&lab.query()).open_at, Some(200.0));
    // In continuous time a link may open at an event's exact time, and writes it back exactly.
    let event = 200.95236271179313;
    let lab = Lab::from_link(&format!("?preset=msfq-d1&horizon=400&t={event}"));
    assert_eq!(lab.open_at, Some(event));
    assert_eq!(Lab::from_link(&lab.query()).open_at, Some(event));
    for bad in ["401", "-1", "soon", "NaN", "inf"] {
        let lab = Lab::from_link(&format!("?preset=msfq-d1&horizon=400&t={bad}"));
        assert_eq!(lab.open_at, None);
        let e = lab.notice_for("t").unwrap_or_else(|| panic!("t={bad} must be named"));
        assert!(e.message.contains("a number of time units in 0..=400") && e.message.contains(bad), "{e}");
    }
    for bad in ["200", "1.5"] {
        let slotted = Lab::from_link(&format!("?preset=pgrr-a1&horizon=100&t={bad}"));
        assert!(slotted.notice_for("t").unwrap().message.contains("a whole number of slots in 0..=100"), "t={bad}");
    }
    let mut lab = Lab::from_link("?preset=msfq-d1&horizon=400&t=200");
    lab.apply(Action::SetSpeed("max".into()));
    assert_eq!(lab.open_at, Some(200.0), "the speed is not the scenario");
    let lab = std::rc::Rc::new(lab);
    let lab = yew::Reducible::reduce(lab, Action::Set { key: "load".into(), value: "6".into() });
    assert_eq!(lab.open_at, None, "a new scenario plays from 0");
}

/// A trace file read in the page: a Google trace replays on PG-RR (named in the link by its
/// fingerprint, the horizon covering it) and PG-AS, an SWF log on MSFQ on its own machine; a
/// link to a trace that is not loaded asks for the file, and a file of the wrong kind is named.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn trace_files_replay_on_their_models_and_links_name_them() {
    use packlab_core::trace::synth::{GoogleSynth, SwfSynth};
    use packlab_core::trace::{keep, read_bytes};
    let bytes = |write: &dyn Fn(&mut Vec<u8>)| {
        let mut out = Vec::new();
        write(&mut out);
        out
    };
    let google = keep(read_bytes(&bytes(&|o| GoogleSynth::new(600, 3).write(o).unwrap())).unwrap());
    let swf = keep(read_bytes(&bytes(&|o| SwfSynth::new(300, 3).write(o).unwrap())).unwrap());

    let mut lab = Lab::from_link("?preset=pgrr-a5&seed=2");
    lab.apply(Action::LoadTrace(google.clone()));
    assert!(lab.notices.is_empty(), "{:?}", lab.notices);
    let s = &lab.setup.scenario;
    assert_eq!(s.get("trace").unwrap(), google.name());
    // 600 tasks at 60 per second: about 10 s of trace time, 100 slots.
    assert!((80..130).contains(&s.horizon()), "{}", s.horizon());
    let link = lab.query();
    assert!(link.contains(&format!("trace={}", google.name())), "{link}");
    let again = Lab::from_link(&link);
    assert!(again.notices.is_empty(), "{:?}", again.notices);
    assert_eq!(again.setup, lab.setup);

    // Elsewhere, without the file: the link says which file to load; the rest loads.
    let missing = link.replace(&google.name(), "00000000000000aa");
    let elsewhere = Lab::from_link(&missing);
    let notice = elsewhere.notice_for("trace").expect("the trace is named");
    assert!(notice.message.contains("00000000000000aa") && notice.message.contains("not loaded here"), "{notice:?}");
    assert_eq!(elsewhere.setup.scenario.seed(), 2);

    let mut msfq = Lab::from_link("?preset=msfq-d6");
    msfq.apply(Action::LoadTrace(swf.clone()));
    assert!(msfq.notices.is_empty(), "{:?}", msfq.notices);
    assert_eq!(msfq.setup.scenario.get("cores").unwrap(), "128");
    assert_eq!(msfq.setup.scenario.get("trace").unwrap(), swf.name());

    let mut pgas = Lab::from_link("?preset=pgas-c5");
    pgas.apply(Action::LoadTrace(google.clone()));
    assert!(pgas.notices.is_empty(), "{:?}", pgas.notices);
    assert!(matches!(&pgas.setup.scenario, packlab_core::scenario::Scenario::Pgas(s) if s.trace.is_some()));
    // Its link names the trace (by its tasks as PG-AS maps them) and replays it.
    let link = pgas.query();
    assert!(link.contains("trace="), "{link}");
    let again = Lab::from_link(&link);
    assert!(again.notices.is_empty(), "{:?}", again.notices);
    assert_eq!(again.setup, pgas.setup);

    let mut wrong = Lab::from_link("?preset=msfq-d1");
    wrong.apply(Action::LoadTrace(google));
    let notice = wrong.notice_for("trace").expect("named");
    assert!(
        notice.message.contains("MSFQ replays an SWF log") && notice.message.contains("PG-RR and PG-AS"),
        "{notice:?}"
    );
}
