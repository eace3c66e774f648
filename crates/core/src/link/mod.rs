//! Shareable links: the whole scenario in a URL query.
//!
//! `?preset=pgrr-a1&policy=vqs,bf-js&seed=1&load=0.75` — the keys are the scenario keys
//! (the CLI's `--set` keys) plus `preset` and `policy`, and the page's own keys
//! ([`crate::page`]); only keys that differ from the preset (and the page's defaults) are
//! written. Decoding never gives up on the whole link: each bad key is reported, named, and
//! left at the preset's value, and the rest loads.

use crate::ConfigError;
use crate::model::policy::PolicySpec;
use crate::models::policies_of;
use crate::page::{PageSettings, is_page_key};
use crate::scenario::{Preset, Scenario, preset, presets};

mod stability_run;

pub use stability_run::{RunTask, map_point};

/// A decoded link.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub preset: Preset,
    pub policies: Vec<PolicySpec>,
    /// Whether `policies` are the link's own; false when the link named none that could run,
    /// and `policies` are the preset's.
    pub named_policies: bool,
    pub scenario: Scenario,
    /// What the link says of the page: its own keys, parsed.
    pub page: PageSettings,
}

/// Most policies a link may name: the page races four, the CLI runs them all, and a link of
/// thousands of parameterised copies took seconds to decode.
pub const MAX_LINK_POLICIES: usize = 16;

/// Keys whose validity depends on other keys (checked by [`Scenario::validate`]).
const RELATED: [&str; 9] = ["horizon", "warmup", "sample_every", "load", "servers", "size", "service", "types", "rho"];

/// Decodes a link: a full URL or just its query, with or without the leading `?`.
///
/// Returns the best scenario the link allows and one error per rejected key.
pub fn decode_link(input: &str) -> (Link, Vec<ConfigError>) {
    let query = input.split_once('?').map_or(input, |(_, q)| q);
    let query = query.split_once('#').map_or(query, |(q, _)| q);
    let mut errors = Vec::new();
    let pairs: Vec<(String, String)> = match serde_urlencoded::from_str::<Vec<(String, String)>>(query) {
        // Keys and values are trimmed, as `--set KEY=VALUE` trims them.
        Ok(pairs) => pairs.into_iter().map(|(k, v)| (k.trim().to_string(), v.trim().to_string())).collect(),
        Err(e) => {
            errors.push(ConfigError::new("link", format!("cannot read the query: {e}")));
            Vec::new()
        }
    };
    let value_of = |key: &str| pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    // A key given more than once takes its last value, and says so.
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for (key, _) in &pairs {
        *counts.entry(key.as_str()).or_default() += 1;
    }
    for (key, count) in counts.into_iter().filter(|&(_, count)| count > 1) {
        let last = value_of(key).unwrap_or_default();
        errors.push(ConfigError::new(key, format!("given {count} times; the last value, '{last}', is used")));
    }

    let chosen = match value_of("preset") {
        None => presets().remove(0),
        Some(id) => preset(id).unwrap_or_else(|e| {
            errors.push(e);
            presets().remove(0)
        }),
    };

    let mut policies = Vec::new();
    if let Some(list) = value_of("policy") {
        let mut names: Vec<&str> = list.split(',').filter(|s| !s.trim().is_empty()).collect();
        if names.len() > MAX_LINK_POLICIES {
            errors.push(ConfigError::new(
                "policy",
                format!("{} policies; a link names at most {MAX_LINK_POLICIES} (the first ones are kept)", names.len()),
            ));
            names.truncate(MAX_LINK_POLICIES);
        }
        for name in names {
            match PolicySpec::parse(name) {
                Ok(p) if !policies.contains(&p) => policies.push(p),
                // Two lanes of one spec would race the same numbers under the same label.
                Ok(p) => errors.push(ConfigError::new("policy", format!("{p} is named more than once; it runs once"))),
                Err(e) => errors.push(e),
            }
        }
    }
    // Without usable policies in the link, the preset's, checked against the scenario below.
    let mut named_policies = !policies.is_empty();
    if !named_policies {
        policies = chosen.policies.clone();
    }

    let mut scenario = chosen.scenario.clone();
    let mut applied: Vec<&str> = Vec::new();
    let mut page_pairs = Vec::new();
    let mut trace = None;
    let replays = scenario.info().replay.is_some();
    for (key, value) in &pairs {
        match key.as_str() {
            "preset" | "policy" => {}
            k if is_page_key(k) => page_pairs.push((key.clone(), value.clone())),
            // A trace replays once the other keys are set, as a dropped file does (below).
            k if k == crate::trace::KEY && replays => trace = Some(value.as_str()),
            k => match scenario.set(k, value) {
                Ok(()) => {
                    applied.retain(|a| *a != k);
                    applied.push(scenario.keys().iter().find(|s| s.key == k).expect("set accepted it").key);
                }
                Err(e) => errors.push(e),
            },
        }
    }
    // A log named by its fingerprint replays as a dropped file does: on its machine at 1/β = 1
    // with a horizon covering its arrivals, unless the link gives them (RES-91).
    if let Some(name) = trace {
        let result = match scenario.named_trace(name) {
            Ok(Some(shared)) => scenario.replay(&shared, &applied, &chosen.scenario).map(drop),
            Ok(None) => scenario.set(crate::trace::KEY, name),
            Err(e) => Err(e),
        };
        match result {
            Ok(()) => applied.push(crate::trace::KEY),
            Err(e) => errors.push(e),
        }
    }
    // A link that only shortens the run keeps the preset's warm-up fraction, as `--horizon`.
    if let Err(e) = scenario.follow(&chosen.scenario, &chosen.scenario, &applied) {
        errors.push(e);
    }
    // Relations between keys: revert the key the error names if the link set it; otherwise
    // the key the link set whose own value brings the error (`cores=3` on msfq-d2 is refused
    // under `classes`), else the related key the link set last; until the scenario is valid.
    // Each error is said once, and the link's other keys stay.
    while let Err(e) = scenario.validate() {
        let reverted = |key: &str| {
            let mut trial = scenario.clone();
            let original = chosen.scenario.get(key).expect("a known key");
            trial.set(key, &original).is_ok() && trial.validate().err().as_ref() != Some(&e)
        };
        let culprit = if applied.contains(&e.key.as_str()) {
            Some(e.key.clone())
        } else {
            applied
                .iter()
                .rev()
                .find(|k| reverted(k))
                .or_else(|| applied.iter().rev().find(|k| RELATED.contains(k)))
                .map(|k| k.to_string())
        };
        // Said under the key the link gave, with the relation it broke.
        let said = match &culprit {
            Some(k) if *k != e.key => ConfigError::new(k.clone(), format!("{}: {}", e.key, e.message)),
            _ => e.clone(),
        };
        if !errors.contains(&said) {
            errors.push(said);
        }
        let Some(culprit) = culprit else {
            scenario = chosen.scenario.clone();
            break;
        };
        let original = chosen.scenario.get(&culprit).expect("a known key");
        scenario.set(&culprit, &original).expect("preset values are valid");
        applied.retain(|k| *k != culprit);
        // A reverted warm-up or grid follows the link's horizon again.
        if scenario.follow(&chosen.scenario, &chosen.scenario, &applied).is_err() {
            scenario = chosen.scenario.clone();
            break;
        }
    }
    // Policies must belong to the scenario's model and fit it (MSFQ's ℓ < k, ...).
    policies.retain(|p| match scenario.check_policy(p) {
        Ok(()) => true,
        Err(e) => {
            errors.push(e);
            false
        }
    });
    if policies.is_empty() {
        // None of the link's (or the preset's) policies can run this scenario: the preset's
        // that can, else the model's first that can, so the page still races something. The
        // errors above say what was dropped.
        named_policies = false;
        let fits = |p: &PolicySpec| scenario.check_policy(p).is_ok();
        policies = chosen.policies.iter().filter(|p| fits(p)).cloned().collect();
        if policies.is_empty() {
            policies.extend(policies_of(scenario.info().id).filter_map(|p| PolicySpec::parse(p.name).ok()).find(fits));
        }
    }
    // The page's keys last: the moment a link opens at must fall in the run it opens (its
    // tour step's, when it opens a tour).
    let (page, page_errors) = PageSettings::parse(&page_pairs, |tour| match tour {
        Some(at) => decode_link(at.step().link).0.scenario,
        None => scenario.clone(),
    });
    errors.extend(page_errors);
    (Link { preset: chosen, policies, named_policies, scenario, page }, errors)
}

/// The scenario of a link that must load whole (a link the code itself writes, such as a tour's
/// or an exercise's): its first bad key is the error.
pub fn scenario_of(link: &str) -> Result<Scenario, ConfigError> {
    let (link, errors) = decode_link(link);
    match errors.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(link.scenario),
    }
}

/// Encodes a scenario as a query string (without `?`): preset, policies, seed, the keys that
/// differ from the preset, then the page's keys that differ from their defaults.
pub fn encode_link(preset: &Preset, policies: &[PolicySpec], scenario: &Scenario, page: &PageSettings) -> String {
    let mut pairs: Vec<(&str, String)> = vec![
        ("preset", preset.id.to_string()),
        ("policy", policies.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(",")),
        ("seed", scenario.seed().to_string()),
    ];
    pairs.extend(scenario.link_overrides(&preset.scenario).into_iter().filter(|(k, _)| *k != "seed"));
    pairs.extend(page.pairs());
    pairs.iter().map(|(k, v)| format!("{}={}", escape(k), escape(v))).collect::<Vec<_>>().join("&")
}

/// The `packlab run` command line of a scenario, the inverse of `packlab run --link`: the
/// preset, the policies, the seed, and `--set KEY=VALUE` for each key that differs from the
/// preset (a new horizon brings its warm-up and grid, so nothing is rescaled on the way).
/// Arguments are quoted for a POSIX shell where they need it.
pub fn run_command(preset: &Preset, policies: &[PolicySpec], scenario: &Scenario) -> String {
    let mut args: Vec<String> = ["packlab", "run", "--preset", preset.id].map(String::from).to_vec();
    if !policies.is_empty() {
        args.extend(["--policy".into(), policies.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(",")]);
    }
    args.extend(["--seed".into(), scenario.seed().to_string()]);
    for (key, value) in scenario.link_overrides(&preset.scenario).into_iter().filter(|(k, _)| *k != "seed") {
        args.extend(["--set".into(), format!("{key}={value}")]);
    }
    args.iter().map(|a| shell_quote(a)).collect::<Vec<_>>().join(" ")
}

/// `text` as one word of a POSIX shell: as it is when it holds only characters no shell
/// treats specially, else in single quotes.
pub fn shell_quote(text: &str) -> String {
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,@%+".contains(c)) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// Percent-encodes all but unreserved characters and `: , @ /`, which are legal in a query
/// and keep links readable (`policy=vqs:j=2,bf-js`). `=` in a value is legal after the first
/// one in a pair, so it stays too.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b':' | b',' | b'@' | b'/' | b'=' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_run_command_names_what_differs() {
        let p = preset("pgrr-a1").unwrap();
        let mut s = p.scenario.clone();
        s.set("servers", "3").unwrap();
        s.set("size", "uniform:0.1,0.9").unwrap();
        let policies = vec![PolicySpec::parse("vqs:j=3").unwrap(), PolicySpec::parse("bf-js").unwrap()];
        assert_eq!(
            run_command(&p, &policies, &s),
            "packlab run --preset pgrr-a1 --policy vqs:j=3,bf-js --seed 1 --set servers=3 --set \
             size=uniform:0.1,0.9"
        );
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn round_trip() {
        let p = preset("pgrr-a3").unwrap();
        let mut s = p.scenario.clone();
        s.set("load", "0.97").unwrap();
        s.set("seed", "42").unwrap();
        s.set("size", "discrete:0.2@2/3,0.5@1/3").unwrap();
        let policies = vec![PolicySpec::parse("vqs:j=5").unwrap(), PolicySpec::parse("bf-js").unwrap()];
        let page = PageSettings { speed: Some(crate::page::Speed::Max), ..PageSettings::default() };
        let q = encode_link(&p, &policies, &s, &page);
        assert!(q.starts_with("preset=pgrr-a3&policy=vqs:j=5,bf-js&seed=42&"), "{q}");
        let (link, errors) = decode_link(&format!("http://127.0.0.1:8080/sub/?{q}#x"));
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(link.scenario, s);
        assert_eq!(link.policies, policies);
        assert_eq!(link.preset.id, "pgrr-a3");
        assert_eq!(link.page, page);
    }

    #[test]
    fn bad_keys_are_named_and_the_rest_loads() {
        let (link, errors) = decode_link("preset=pgrr-a1&servers=-3&seed=abc&load=0.8&policy=vqs,nope");
        let keys: Vec<_> = errors.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["policy", "servers", "seed"]);
        assert_eq!(link.scenario.load(), 0.8);
        assert_eq!(link.scenario.seed(), 1);
        assert_eq!(link.policies, vec![PolicySpec::parse("vqs").unwrap()]);
    }

    /// `horizon` alone keeps the warm-up's and the grid's fractions, as `--horizon` does; an
    /// explicit `warmup` wins.
    #[test]
    fn a_shorter_horizon_scales_the_warm_up() {
        let (link, errors) = decode_link("preset=pgrr-a1&horizon=200000");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(
            (link.scenario.get("warmup").unwrap(), link.scenario.get("sample_every").unwrap()),
            ("20000".into(), "100".into())
        );
        let (link, errors) = decode_link("preset=pgrr-a1&horizon=200000&warmup=5");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(link.scenario.get("warmup").unwrap(), "5");
    }

    #[test]
    fn relational_errors_revert_the_offending_key() {
        let (link, errors) = decode_link("preset=pgrr-a1&warmup=5000000");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].key, "warmup");
        assert_eq!(link.scenario, preset("pgrr-a1").unwrap().scenario);
        let (link, errors) = decode_link("preset=pgrr-a1&horizon=100&warmup=150000");
        assert_eq!(errors[0].key, "warmup");
        assert_eq!(link.scenario.horizon(), 100);
        assert_eq!(link.scenario.get("warmup").unwrap(), "10");
        let (link, errors) = decode_link("preset=msfq-d1&policy=msf,vqs,msfq:l=40");
        assert_eq!(errors.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(), ["policy", "policy"]);
        assert_eq!(link.policies, vec![PolicySpec::parse("msf").unwrap()]);
        // The preset's own policies cannot run general classes: the model's first that can.
        let (link, errors) = decode_link("preset=msfq-d4&classes=1@0.5,4@0.5");
        assert_eq!(errors.len(), 8, "one per threshold of the preset: {errors:?}");
        assert_eq!(link.policies, vec![PolicySpec::parse("fcfs").unwrap()]);
        assert!(!link.named_policies);
        // A key refused under another's name (`cores` under `classes`) is the one reverted,
        // said once; the link's other keys stay.
        let (link, errors) = decode_link("preset=msfq-d2&cores=3&horizon=105&seed=411");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].key, "cores");
        assert!(errors[0].message.starts_with("classes: a class needs 32 cores"), "{errors:?}");
        assert_eq!(
            (link.scenario.get("cores").unwrap(), link.scenario.horizon(), link.scenario.seed()),
            ("32".into(), 105, 411)
        );
        let (_, errors) = decode_link("preset=nope");
        assert_eq!(errors[0].key, "preset");
        let (link, errors) = decode_link("");
        assert!(errors.is_empty());
        assert_eq!(link.preset.id, "pgrr-a1");
    }
}
