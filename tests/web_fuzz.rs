//! Fuzz targets of the page's own inputs (see `scripts/fuzz` for the core's): the page keys of a
//! link (`speed`, `embed`, `views`, `theme`, `present`, `tour`, `step`, `attempt`, `t`, `map`,
//! `map_axis`) and the timeline's
//! moves (play, step, step back, seek anywhere). A link never panics and every key it refuses
//! is named; a race moved about at random always shows exactly what a race played straight to
//! the same moment shows. Native only (proptest draws its seeds from the OS).
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use packlab_core::model::TimeUnit;
use packlab_core::page::{self, Speed, Theme};
use packlab_core::scenario::{Scenario, Setup};
use packlab_core::stability::{self, MapSpec};
use packlab_core::tours;
use packlab_web::play::race::Race;
use packlab_web::play::snapshot::Phase;
use packlab_web::state::Lab;
use proptest::prelude::*;

/// The page keys, as the core lists them.
fn page_keys() -> Vec<&'static str> {
    packlab_core::page::PAGE_KEYS.iter().map(|k| k.key).collect()
}

/// Values from every key's edges, malformed text and unusual characters.
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "30s",
    "max",
    "10000000",
    "10000001",
    "3601s",
    "true",
    "false",
    "lanes,queue",
    "lanes,,",
    "dark",
    "light",
    "contrast",
    "auto",
    "vqs-vs-best-fit",
    "write-jsq",
    "write-best-fit",
    // A script that compiles and one that does not (line 2), as `attempt=` holds them.
    "S8tTKE7OSE0pzUnVSC6p0FSo5lIAAiBTryi_tAQsqJeak5memQRUoRltEKtpzVXLBQA",
    "S8tTKE7OSE0pzUnVSC6p0FSo5lIAgpzUEoUKBVsFa65aLgA",
    "nonsense",
    "2",
    "7",
    "100",
    "400",
    "401",
    "18446744073709551615",
    "18446744073709551616",
    "1e3",
    "NaN",
    "inf",
    "",
    " ",
    "%00",
    "ß",
    "٣",
    "1.5",
    "+3",
];

/// The page keys whose value a link refuses, found key by key from each key's own rule (its
/// range in [`packlab_core::page::PAGE_KEYS`]): a value its parser refuses; `step`, when the
/// link opens a tour, unless its last value is a step of that tour; `t`, unless its last value
/// is a moment of the run the page opens (`scenario`: the tour step's when a tour opens).
fn refused_keys(pairs: &[(String, String)], scenario: &Scenario) -> BTreeSet<String> {
    let last = |key: &str| pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    let mut refused = BTreeSet::new();
    for (key, value) in pairs {
        let bad = match key.as_str() {
            page::SPEED => Speed::parse(value).is_err(),
            page::THEME => Theme::parse(value).is_err(),
            page::PRESENT | page::EMBED => !["1", "0", "true", "false"].contains(&value.as_str()),
            page::VIEWS => page::parse_views(value).is_err(),
            page::TOUR => tours::tour(value).is_err(),
            stability::MAP => MapSpec::parse_reps(value, stability::MAP).is_err(),
            stability::MAP_AXIS => MapSpec::parse_axis(value, stability::MAP_AXIS).is_err(),
            page::ATTEMPT => !compiles(value),
            _ => false,
        };
        if bad {
            refused.insert(key.clone());
        }
    }
    let tour = pairs.iter().rev().find_map(|(k, v)| (k == page::TOUR).then(|| tours::tour(v).ok()).flatten());
    if let (Some(tour), Some(step)) = (tour, last(page::STEP))
        && !step.parse::<usize>().is_ok_and(|k| (1..=tour.steps.len()).contains(&k))
    {
        refused.insert(page::STEP.to_string());
    }
    // A script that compiles is still refused off an exercise's step.
    let step = |tour: &tours::Tour| {
        last(page::STEP).and_then(|k| k.trim().parse::<usize>().ok()).filter(|k| (1..=tour.steps.len()).contains(k))
    };
    let on_exercise = tour.is_some_and(|t| t.steps[step(t).map_or(0, |k| k - 1)].check.exercise().is_some());
    if !on_exercise && pairs.iter().any(|(k, v)| k == page::ATTEMPT && compiles(v)) {
        refused.insert(page::ATTEMPT.to_string());
    }
    if let Some(t) = last(page::TIME) {
        let slotted = scenario.info().time == TimeUnit::Slots;
        let moment = t
            .parse::<f64>()
            .ok()
            .filter(|t| (0.0..=scenario.horizon() as f64).contains(t) && (!slotted || t.fract() == 0.0));
        if moment.is_none() {
            refused.insert(page::TIME.to_string());
        }
    }
    refused
}

/// Whether an `attempt=` value holds a script that compiles.
fn compiles(value: &str) -> bool {
    packlab_core::script::source::decode(value).is_ok_and(|source| packlab_core::script::check(&source).is_empty())
}

/// Cases per target: `PACKLAB_FUZZ_CASES` for a long run, else `default`.
fn config(default: u32) -> ProptestConfig {
    let cases = std::env::var("PACKLAB_FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(default);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config(256))]

    /// Any page keys with any values: the page loads, names exactly the keys it refuses (each
    /// in one notice that says why), opens at the moment `t` gives when it takes it, and the
    /// link it writes back loads to the same state.
    #[test]
    fn page_keys_load_or_are_named(
        preset in prop::sample::select(vec!["pgrr-a1", "msfq-d1", "ghra-b4", "pgas-c3"]),
        pairs in prop::collection::vec((prop::sample::select(page_keys()), prop::sample::select(VALUES.to_vec()), any::<u8>()), 0..6),
    ) {
        let mut link = format!("?preset={preset}&horizon=400");
        for (key, value, noise) in &pairs {
            // Now and then a value with a stray byte in it.
            let value = if noise % 7 == 0 { format!("{value}{}", char::from(b'!' + noise % 90)) } else { value.to_string() };
            link.push_str(&format!("&{key}={}", value.replace('&', "%26").replace('#', "%23")));
        }
        let lab = Lab::from_link(&link);
        for notice in &lab.notices {
            prop_assert!(!notice.message.is_empty() && !notice.key.is_empty(), "{notice:?}");
        }
        // The pairs as the page reads them: decoded, keys and values trimmed.
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str::<Vec<(String, String)>>(&link[1..])
            .unwrap()
            .into_iter()
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .collect();
        // Named: every key whose value is refused, and every key given more than once (the
        // last value is used).
        let refused = refused_keys(&pairs, &lab.setup.scenario);
        let repeated = pairs.iter().filter(|(k, _)| pairs.iter().filter(|(j, _)| j == k).count() > 1);
        let expected: BTreeSet<String> = refused.iter().cloned().chain(repeated.map(|(k, _)| k.clone())).collect();
        let named: BTreeSet<String> = lab.notices.iter().map(|n| n.key.clone()).collect();
        prop_assert_eq!(&named, &expected, "{}: notices {:?}", link, lab.notices);
        prop_assert_eq!(named.len(), lab.notices.len(), "one notice per key: {:?}", lab.notices);
        let t = pairs.iter().rev().find(|(k, _)| k == page::TIME).map(|(_, v)| v.as_str());
        match t.filter(|_| !refused.contains(page::TIME)) {
            Some(t) => prop_assert_eq!(lab.open_at, t.parse::<f64>().ok()),
            None => prop_assert_eq!(lab.open_at, None),
        }
        let again = Lab::from_link(&lab.query());
        prop_assert_eq!(again.query(), lab.query());
    }
}

/// Found by `page_keys_load_or_are_named`: a moment valid in the link's own run but not in
/// the tour step that replaces it (half a slot) was kept, and the link the page wrote then
/// lost it on reloading. The moment is checked against the run the tour's step opens.
#[test]
fn a_moment_is_checked_against_the_tour_steps_run() {
    let lab = Lab::from_link("?preset=msfq-d1&horizon=400&tour=vqs-vs-best-fit&t=1.5");
    assert_eq!(lab.open_at, None);
    assert!(
        lab.notices.iter().any(|n| n.key == "t" && n.message.contains("whole number of slots")),
        "{:?}",
        lab.notices
    );
    assert_eq!(Lab::from_link(&lab.query()).query(), lab.query());
    let lab = Lab::from_link("?preset=msfq-d1&horizon=400&tour=vqs-vs-best-fit&t=150000");
    assert_eq!(lab.open_at, Some(150_000.0), "{:?}", lab.notices);
}

proptest! {
    #![proptest_config(config(32))]

    /// Random moves on the timeline, then the state: the same as a race played there at once.
    #[test]
    fn timeline_moves_land_where_a_straight_run_does(
        preset in prop::sample::select(vec!["pgrr-a1", "msfq-d1", "ghra-b1"]),
        moves in prop::collection::vec((0u8..5, 0u64..=300), 1..12),
    ) {
        let mut setup = Setup::from_preset(preset).unwrap();
        setup.scenario.set("horizon", "300").unwrap();
        setup.scenario.set("warmup", "30").unwrap();
        let mut race = Race::new(&setup, 32);
        // The timeline covers the furthest moment any move reached, and no further.
        let mut furthest = 0.0_f64;
        for (op, at) in moves {
            match op {
                0 => race.advance(at, f64::INFINITY, || 0.0).map(drop),
                1 => race.step(),
                2 => race.step_back(),
                _ => race.seek(at as f64 + if op == 4 { 0.37 } else { 0.0 }),
            }
            .unwrap();
            furthest = furthest.max(race.now());
            prop_assert!(race.now() <= 300.0, "past the horizon: {}", race.now());
            prop_assert_eq!(race.furthest(), furthest, "the timeline's end, at {}", race.now());
        }
        let now = race.now();
        let mut straight = Race::new(&setup, 32);
        straight.seek(now).unwrap();
        // Everything the run shows; how far it went and its checkpoints differ, rightly.
        let show = |r: &Race| {
            let s = r.snapshot(Phase::Paused, 0);
            format!("{:?}", (s.now, s.slot, &s.lanes, &s.bin_series, &s.bin_job_time_series))
        };
        prop_assert_eq!(show(&race), show(&straight), "at {}", now);
    }
}
