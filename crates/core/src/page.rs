//! The page's own link keys: how fast it plays, its colours, presenter mode, the embedded
//! views, the guided tour and its step, and the moment a link opens at. They are declared once
//! here, as rows like the scenario's keys ([`PAGE_KEYS`]: name, range, help, parser), so the
//! page, its Web Workers (which decode the page's links for each run of a sweep) and `packlab
//! run --link` (which honours `t`, running to that moment, and ignores the rest) read the same
//! rows.

use std::fmt;

use crate::ConfigError;
use crate::model::table::group_digits;
use crate::scenario::Scenario;
use crate::stability::{MAP, MAP_AXIS, MapSpec};
use crate::tours::{self, Tour};

/// One page key: its name, what it takes (as messages state it), and what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageKey {
    pub key: &'static str,
    pub range: &'static str,
    pub help: &'static str,
}

pub const SPEED: &str = "speed";
pub const TOUR: &str = "tour";
pub const STEP: &str = "step";
pub const THEME: &str = "theme";
pub const PRESENT: &str = "present";
pub const TIME: &str = "t";
pub const EMBED: &str = "embed";
pub const VIEWS: &str = "views";
pub const ATTEMPT: &str = "attempt";

/// Every page key, in the order a link writes them.
pub const PAGE_KEYS: [PageKey; 11] = [
    PageKey {
        key: SPEED,
        range: "max, a run duration such as 30s (1s..=3600s), or slots per second (1..=10000000)",
        help: "how fast the page plays the run",
    },
    PageKey { key: TOUR, range: "a tour's id (`packlab tours`)", help: "the guided tour under way" },
    PageKey { key: STEP, range: "a step of the tour, from 1", help: "the tour's step on screen" },
    PageKey {
        key: ATTEMPT,
        range: "a script that compiles, as base64url of its deflate compression (as script:src= holds it), on an exercise's step",
        help: "the learner's script in an exercise, to check again or to show",
    },
    PageKey { key: THEME, range: "auto, light, dark or high-contrast", help: "the page's colours" },
    PageKey { key: PRESENT, range: "1 or 0", help: "presenter mode: large type, the controls folded away" },
    PageKey {
        key: TIME,
        range: "a moment of the run, in 0..=horizon (whole slots in slotted time)",
        help: "the moment the page opens at, paused",
    },
    PageKey { key: EMBED, range: "1 or 0", help: "the page inside a frame: the chosen views only" },
    PageKey { key: VIEWS, range: "view names, comma-separated", help: "what an embedded page shows" },
    PageKey {
        key: MAP,
        range: "replications per load, an integer in 2..=50",
        help: "the stability map, open and computed (`packlab stability --reps`)",
    },
    PageKey {
        key: MAP_AXIS,
        range: "KEY:V1,V2,… a scenario key and its values",
        help: "the stability map's second axis (`packlab stability --axis`)",
    },
];

/// Whether `key` is one of the page's own.
pub fn is_page_key(key: &str) -> bool {
    PAGE_KEYS.iter().any(|k| k.key == key)
}

/// The views an embedded page can show (`views=lanes,queue`), in the order of the page: the
/// statistics, the lanes, then the charts.
pub const VIEW_NAMES: [&str; 8] =
    ["stats", "lanes", "reward", "queue", "occupancy", "job-time", "class-job-time", "bins"];

/// How fast the page plays a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Speed {
    /// The whole run, to the horizon, in this many seconds of wall time: the pace a story
    /// is told at, whatever the model, its time unit or the horizon.
    Duration(u32),
    /// Simulated slots (or time units) per second of wall time.
    PerSecond(u64),
    /// As many slots as each frame's time budget allows.
    Max,
}

impl Speed {
    /// Every preset plays its whole run in 30 s: long enough to watch the story (a queue
    /// that grows, a reward that converges), short enough for a lecture.
    pub const DEFAULT: Speed = Speed::Duration(30);
    /// Fastest explicit rate; beyond it, `max` says what is meant.
    pub const TOP_RATE: u64 = 10_000_000;
    /// Longest run duration: an hour.
    pub const LONGEST: u32 = 3_600;
    /// The choices the speed menu offers (a link may hold any rate or duration in range).
    pub const CHOICES: [Speed; 12] = [
        Speed::Duration(10),
        Speed::Duration(30),
        Speed::Duration(60),
        Speed::Duration(180),
        Speed::Duration(600),
        Speed::PerSecond(10),
        Speed::PerSecond(100),
        Speed::PerSecond(1_000),
        Speed::PerSecond(10_000),
        Speed::PerSecond(100_000),
        Speed::PerSecond(1_000_000),
        Speed::Max,
    ];

    /// Parses `max`, a duration `30s` (1..=3600 seconds) or a whole number of slots per
    /// second in 1..=10^7.
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("max") {
            return Ok(Speed::Max);
        }
        let wrong = || {
            ConfigError::new(
                SPEED,
                format!(
                    "must be max, a run duration in seconds such as 30s (1s..={}s), or slots per second, an \
                     integer in 1..={} (got '{text}')",
                    Self::LONGEST,
                    Self::TOP_RATE
                ),
            )
        };
        if let Some(seconds) = text.strip_suffix('s') {
            return match seconds.trim().parse::<u32>() {
                Ok(s) if (1..=Self::LONGEST).contains(&s) => Ok(Speed::Duration(s)),
                _ => Err(wrong()),
            };
        }
        match text.parse::<u64>() {
            Ok(rate) if (1..=Self::TOP_RATE).contains(&rate) => Ok(Speed::PerSecond(rate)),
            _ => Err(wrong()),
        }
    }

    /// Simulated time units per second of wall time for a run of `horizon` units, or `None`
    /// for as fast as possible.
    pub fn rate(self, horizon: u64) -> Option<f64> {
        match self {
            Speed::Duration(seconds) => Some(horizon as f64 / f64::from(seconds)),
            Speed::PerSecond(rate) => Some(rate as f64),
            Speed::Max => None,
        }
    }

    /// For people: "whole run in 30 s", "100 000 slots/s", "as fast as possible"; `unit`
    /// names the time unit ("slots", "time units").
    pub fn label(self, unit: &str) -> String {
        match self {
            Speed::Duration(seconds) if seconds % 60 == 0 => format!("whole run in {} min", seconds / 60),
            Speed::Duration(seconds) => format!("whole run in {seconds} s"),
            Speed::PerSecond(rate) => format!("{} {unit}/s", group_digits(rate)),
            Speed::Max => "as fast as possible".into(),
        }
    }
}

impl fmt::Display for Speed {
    /// The link form: `max`, `30s` or the rate.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Speed::Duration(seconds) => write!(f, "{seconds}s"),
            Speed::PerSecond(rate) => write!(f, "{rate}"),
            Speed::Max => f.write_str("max"),
        }
    }
}

/// The page's colours: the system's choice (`prefers-color-scheme`) unless one is picked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    #[default]
    Auto,
    Light,
    Dark,
    HighContrast,
}

impl Theme {
    pub const ALL: [Theme; 4] = [Theme::Auto, Theme::Light, Theme::Dark, Theme::HighContrast];

    /// The link form, also the `data-theme` of the page.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::HighContrast => "high-contrast",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Theme::Auto => "as the system",
            Theme::Light => "light",
            Theme::Dark => "dark",
            Theme::HighContrast => "high contrast",
        }
    }

    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        Self::ALL.into_iter().find(|t| t.name() == text.trim()).ok_or_else(|| {
            ConfigError::new(THEME, format!("must be auto, light, dark or high-contrast (got '{}')", text.trim()))
        })
    }

    /// Whether the colours are dark: picked so, or following a system that prefers them.
    pub fn is_dark(self, system_dark: bool) -> bool {
        self == Theme::Dark || (self == Theme::Auto && system_dark)
    }
}

/// Where a guided tour is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TourAt {
    pub tour: &'static Tour,
    /// From 0.
    pub step: usize,
}

impl TourAt {
    pub fn step(&self) -> &'static tours::Step {
        &self.tour.steps[self.step]
    }
}

/// What a link says of the page (every page key, parsed).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PageSettings {
    /// `None`: [`Speed::DEFAULT`].
    pub speed: Option<Speed>,
    pub theme: Theme,
    pub present: bool,
    pub embed: bool,
    /// The views an embedded page shows, by name ([`VIEW_NAMES`]); empty: its default.
    pub views: Vec<&'static str>,
    pub tour: Option<TourAt>,
    /// The moment the link opens at (`t=`).
    pub at: Option<f64>,
    /// The stability map, open and computed (`map=`, `map_axis=`).
    pub map: Option<MapSpec>,
    /// The learner's script on an exercise's step (`attempt=`), its source.
    pub attempt: Option<String>,
}

impl PageSettings {
    pub fn speed(&self) -> Speed {
        self.speed.unwrap_or(Speed::DEFAULT)
    }

    /// The page keys of a link, each bad value an error naming its key and range; the rest
    /// keeps its default. The moment must fall in the run the link opens: `run(tour)` gives
    /// it, the tour step's when the link opens a tour (the step sets the scenario), else the
    /// link's own. (A closure, so that this module need not decode the step's link.)
    pub fn parse(
        pairs: &[(String, String)],
        run: impl FnOnce(Option<&TourAt>) -> Scenario,
    ) -> (Self, Vec<ConfigError>) {
        let mut page = Self::default();
        let mut errors = Vec::new();
        let mut tour = None;
        let mut step = None;
        let mut at = None;
        let (mut map_reps, mut map_axis) = (None, None);
        let mut attempt = None;
        for (key, value) in pairs {
            let result = match key.as_str() {
                SPEED => Speed::parse(value).map(|s| page.speed = (s != Speed::DEFAULT).then_some(s)),
                THEME => Theme::parse(value).map(|t| page.theme = t),
                PRESENT => flag(PRESENT, value).map(|on| page.present = on),
                EMBED => flag(EMBED, value).map(|on| page.embed = on),
                VIEWS => parse_views(value).map(|v| page.views = v),
                TIME => {
                    at = Some(value);
                    Ok(())
                }
                TOUR => tours::tour(value).map(|t| tour = Some(t)),
                STEP => {
                    step = Some(value.clone());
                    Ok(())
                }
                ATTEMPT => parse_attempt(value).map(|source| attempt = Some(source)),
                MAP => MapSpec::parse_reps(value, MAP).map(|r| map_reps = Some(r)),
                MAP_AXIS => MapSpec::parse_axis(value, MAP_AXIS).map(|a| map_axis = a),
                _ => Ok(()),
            };
            if let Err(e) = result {
                errors.push(e);
            }
        }
        // An axis alone opens the map with its default replications.
        if map_reps.is_some() || map_axis.is_some() {
            page.map = Some(MapSpec { reps: map_reps.unwrap_or(MapSpec::default().reps), axis: map_axis });
        }
        if let Some(tour) = tour {
            let count = tour.steps.len();
            let k = match step.as_deref().map(str::trim) {
                None => 0,
                Some(text) => text.parse::<usize>().ok().filter(|k| (1..=count).contains(k)).map_or_else(
                    || {
                        errors.push(ConfigError::new(
                            STEP,
                            format!("must be a step of the tour, an integer in 1..={count} (got '{text}')"),
                        ));
                        0
                    },
                    |k| k - 1,
                ),
            };
            page.tour = Some(TourAt { tour, step: k });
        }
        // The script belongs to an exercise's step: elsewhere nothing would check or show it.
        if let Some(source) = attempt {
            match page.tour.map(|at| at.step()) {
                Some(step) if step.check.exercise().is_some() => page.attempt = Some(source),
                _ => errors.push(ConfigError::new(
                    ATTEMPT,
                    "only an exercise's step takes a script (a link with tour= set to an exercise, such as write-best-fit)",
                )),
            }
        }
        if let Some(value) = at {
            match moment(value, &run(page.tour.as_ref())) {
                Ok(t) => page.at = Some(t),
                Err(e) => errors.push(e),
            }
        }
        (page, errors)
    }

    /// The page keys a link writes for these settings, in [`PAGE_KEYS`]' order; defaults are
    /// left out.
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = Vec::new();
        if let Some(speed) = self.speed.filter(|s| *s != Speed::DEFAULT) {
            pairs.push((SPEED, speed.to_string()));
        }
        if let Some(at) = &self.tour {
            pairs.push((TOUR, at.tour.id.to_string()));
            pairs.push((STEP, (at.step + 1).to_string()));
        }
        if let Some(source) = &self.attempt {
            pairs.push((ATTEMPT, crate::script::source::encode(source)));
        }
        if self.theme != Theme::Auto {
            pairs.push((THEME, self.theme.name().into()));
        }
        if self.present {
            pairs.push((PRESENT, "1".into()));
        }
        if let Some(t) = self.at {
            pairs.push((TIME, t.to_string()));
        }
        if self.embed {
            pairs.push((EMBED, "1".into()));
            if !self.views.is_empty() {
                pairs.push((VIEWS, self.views.join(",")));
            }
        }
        if let Some(map) = &self.map {
            pairs.extend(map.pairs());
        }
        pairs
    }
}

/// The source of an `attempt=` value: a script as a spec holds it, that compiles.
fn parse_attempt(value: &str) -> Result<String, ConfigError> {
    let source = crate::script::source::decode(value).map_err(|m| {
        // Say what the key takes, as every refused key does, then what is wrong with this one.
        let takes = PAGE_KEYS.iter().find(|k| k.key == ATTEMPT).map_or("", |k| k.range);
        ConfigError::new(ATTEMPT, format!("must be {takes}: {m}"))
    })?;
    match crate::script::check(&source).first() {
        None => Ok(source),
        Some(e) => Err(ConfigError::new(ATTEMPT, format!("the script cannot run: {e}"))),
    }
}

fn flag(key: &str, value: &str) -> Result<bool, ConfigError> {
    match value.trim() {
        "1" | "true" => Ok(true),
        "0" | "false" => Ok(false),
        other => Err(ConfigError::new(key, format!("must be 1 or 0 (got '{other}')"))),
    }
}

/// A comma-separated list of view names, each once.
pub fn parse_views(text: &str) -> Result<Vec<&'static str>, ConfigError> {
    let mut views = Vec::new();
    for name in text.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let Some(view) = VIEW_NAMES.iter().find(|v| **v == name) else {
            return Err(ConfigError::new(
                VIEWS,
                format!("'{name}' is not a view; views are {} (comma-separated)", VIEW_NAMES.join(", ")),
            ));
        };
        if !views.contains(view) {
            views.push(*view);
        }
    }
    Ok(views)
}

/// A moment of `scenario`'s run: a number in 0..=horizon, whole in slotted time.
fn moment(value: &str, scenario: &Scenario) -> Result<f64, ConfigError> {
    let horizon = scenario.horizon();
    let info = scenario.info();
    let slotted = info.time == crate::model::TimeUnit::Slots;
    value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|t| (0.0..=horizon as f64).contains(t) && (!slotted || t.fract() == 0.0))
        .ok_or_else(|| {
            let kind = if slotted {
                format!("a whole number of {}", info.time.plural())
            } else {
                format!("a number of {}", info.time.plural())
            };
            ConfigError::new(
                TIME,
                format!("must be a moment of the run, {kind} in 0..={horizon} (got '{}')", value.trim()),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_parse_and_print() {
        assert_eq!(Speed::parse("max").unwrap(), Speed::Max);
        assert_eq!(Speed::parse("250").unwrap(), Speed::PerSecond(250));
        assert_eq!(Speed::parse(" 45s ").unwrap(), Speed::Duration(45));
        for bad in ["0", "-1", "fast", "10000001", "0s", "3601s", "s", "1.5s", "-3s"] {
            let e = Speed::parse(bad).unwrap_err();
            assert_eq!(e.key, "speed");
            assert!(e.message.contains("1..=10000000") && e.message.contains("1s..=3600s"), "{e}");
        }
        assert_eq!(Speed::Duration(30).rate(2_000_000), Some(2_000_000.0 / 30.0));
        assert_eq!(Speed::PerSecond(7).rate(2_000_000), Some(7.0));
        assert_eq!(Speed::Max.rate(1), None);
        assert_eq!(Speed::Duration(30).label("slots"), "whole run in 30 s");
        assert_eq!(Speed::Duration(180).label("slots"), "whole run in 3 min");
        for s in Speed::CHOICES {
            assert_eq!(Speed::parse(&s.to_string()).unwrap(), s);
        }
    }

    #[test]
    fn every_key_has_its_row_and_round_trips() {
        let scenario = crate::scenario::preset("msfq-d1").unwrap().scenario;
        let pairs: Vec<(String, String)> = [
            ("speed", "max"),
            ("tour", "msf-swings"),
            ("step", "1"),
            ("theme", "dark"),
            ("present", "1"),
            ("t", "12.5"),
            ("embed", "1"),
            ("views", "lanes,queue"),
            ("map", "4"),
            ("map_axis", "cores:8,16"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        let (page, errors) = PageSettings::parse(&pairs, |_| scenario.clone());
        assert!(errors.is_empty(), "{errors:?}");
        let written: Vec<(String, String)> = page.pairs().into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        assert_eq!(written, pairs);
        assert!(written.iter().all(|(k, _)| is_page_key(k)));
        for (key, bad) in [
            ("speed", "0"),
            ("theme", "pink"),
            ("present", "2"),
            ("t", "-1"),
            ("views", "nope"),
            ("tour", "x"),
            ("map", "1"),
            ("map_axis", "cores"),
        ] {
            let (_, errors) = PageSettings::parse(&[(key.to_string(), bad.to_string())], |_| scenario.clone());
            assert_eq!(errors.len(), 1, "{key}={bad}");
            assert_eq!(errors[0].key, key);
        }
    }

    /// The learner's script travels with an exercise's step and comes back the same; anywhere
    /// else, or when it is not a script that compiles, the key is named with what it takes.
    #[test]
    fn an_exercise_keeps_its_attempt() {
        let scenario = crate::scenario::preset("ghra-b3").unwrap().scenario;
        let parse = |pairs: &[(&str, &str)]| {
            let pairs: Vec<(String, String)> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            PageSettings::parse(&pairs, |_| scenario.clone())
        };
        let source = "// name: mine\nfn schedule(ctx) {\n    ctx.route(ctx.eligible()[0]);\n}\n";
        let encoded = crate::script::source::encode(source);
        let (page, errors) = parse(&[("tour", "write-jsq"), ("attempt", &encoded)]);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(page.attempt.as_deref(), Some(source));
        let written: Vec<(&str, String)> = page.pairs();
        assert_eq!(
            written,
            [("tour", "write-jsq".to_string()), ("step", "1".to_string()), ("attempt", encoded.clone())]
        );

        let broken = crate::script::source::encode("fn schedule(ctx) {\n    let x = ;\n}");
        // Issue 58: top-level code runs while the link is read, under a call's budget, so a
        // costly loop there (it hung the page before it opened) or `sleep` is named by its line.
        let costly = crate::script::source::encode(
            "fn schedule(ctx) {}\nlet a = [];\na.pad(9999, 1);\nloop { a.contains(2); }\n",
        );
        let sleepy = crate::script::source::encode("fn schedule(ctx) {}\nsleep(1e300);\n");
        let long = format!("fn schedule(ctx) {{}}\n//{}", "x".repeat(crate::script::MAX_SOURCE_BYTES));
        let long = crate::script::source::encode_bytes(long.as_bytes());
        let not_utf8 = crate::script::source::encode_bytes(b"fn schedule(ctx) {}\n// \xff");
        for (pairs, needle) in [
            (vec![("attempt", encoded.as_str())], "only an exercise's step"),
            (vec![("tour", "msf-swings"), ("attempt", encoded.as_str())], "only an exercise's step"),
            (vec![("tour", "write-jsq"), ("attempt", "not base64!")], "not base64url"),
            (vec![("tour", "write-jsq"), ("attempt", broken.as_str())], "cannot run: script line 2: syntax error"),
            (
                vec![("tour", "write-jsq"), ("attempt", costly.as_str())],
                "cannot run: script line 4: exceeded 1000000 operations in one call",
            ),
            (
                vec![("tour", "write-jsq"), ("attempt", sleepy.as_str())],
                "cannot run: script line 2: sleep is not available",
            ),
            (vec![("tour", "write-jsq"), ("attempt", long.as_str())], "longer than 20000 bytes"),
            (vec![("tour", "write-jsq"), ("attempt", not_utf8.as_str())], "not UTF-8"),
        ] {
            let (page, errors) = parse(&pairs);
            assert_eq!(errors.len(), 1, "{pairs:?}: {errors:?}");
            assert_eq!(errors[0].key, "attempt");
            assert!(errors[0].message.contains(needle), "{pairs:?}: {}", errors[0].message);
            assert_eq!(page.attempt, None);
        }
    }
}
