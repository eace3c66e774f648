//! Resolving what a front end was given (a preset or a link, policies, keys to set, a trace
//! file) into one validated [`Setup`], with the notes to show. The CLI's flags and the Python
//! package's arguments both come here, so the two cannot resolve the same request differently.
//!
//! Errors name the input as the front end calls it ([`Names`]: `--preset` in the CLI, `preset`
//! in Python), and carry the core's message for the key.

use crate::ConfigError;
use crate::link::decode_link;
use crate::model::policy::PolicySpec;
use crate::trace::Shared;

use super::{Scenario, Setup, preset};

/// What a front end calls its inputs, for the errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Names {
    pub preset: &'static str,
    pub link: &'static str,
    pub policy: &'static str,
    pub horizon: &'static str,
}

/// Where the scenario comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source<'a> {
    /// A preset id.
    Preset(&'a str),
    /// A page URL or just its query.
    Link(&'a str),
}

/// One key to set, in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setting {
    /// `key` to `value`; an error is prefixed with `label` if there is one (`--set load=2`).
    Value { key: String, value: String, label: Option<String> },
    /// `KEY=VALUE` text as typed (`--set`); text without `=` is refused naming the keys.
    Pair { text: String, label: String },
    /// A key read from a file's text by the model ([`crate::models::AnyScenario::read_key_file`]).
    File { key: String, text: String, label: String },
}

/// A request to resolve.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub source: Source<'a>,
    /// The policies the user named; `None` takes the link's or the preset's.
    pub policies: Option<Vec<PolicySpec>>,
    pub settings: Vec<Setting>,
    /// A trace file to replay, with how the user gave it (`--trace FILE`).
    pub trace: Option<(&'a Shared, String)>,
}

/// What a request resolves to.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The preset, the scenario with the settings applied, the policies that can run it.
    pub setup: Setup,
    /// Keys the user set.
    pub explicit: Vec<String>,
    /// Set when the warm-up was rescaled because only the horizon changed; says how.
    pub warmup_note: Option<String>,
    /// What replaying the trace file says (the scaling, the offered load, jobs capped) and the
    /// policies left out because they cannot run the scenario.
    pub replay_notes: Vec<String>,
    /// The moment a link opens at (`t=`): a run reports there, as the page shows it paused.
    pub at: Option<f64>,
}

fn error(key: &str, message: impl Into<String>) -> ConfigError {
    // Built directly: the messages quoted here already passed through `readable`.
    ConfigError { key: key.to_string(), message: message.into() }
}

fn labelled(label: &Option<String>, e: ConfigError) -> ConfigError {
    match label {
        Some(label) => error(label, e.to_string()),
        None => e,
    }
}

/// Resolves `request`: the source's scenario, the settings in order, the trace file replayed,
/// what follows them ([`Scenario::follow`]), validation, and the policies that can run it (a
/// named one that cannot is an error; the source's own are left out with a note, RES-90).
pub fn resolve(request: Request<'_>, names: Names) -> Result<Resolved, ConfigError> {
    let (preset, base, link_policies, at) = match request.source {
        Source::Link(link) => {
            let (link, errors) = decode_link(link);
            if !errors.is_empty() {
                let lines: Vec<String> = errors.iter().map(|e| format!("  {e}")).collect();
                return Err(error(names.link, format!("{} bad key(s):\n{}", errors.len(), lines.join("\n"))));
            }
            (link.preset, link.scenario, link.policies, link.page.at)
        }
        Source::Preset(id) => {
            let p = preset(id).map_err(|e| error(names.preset, e.message))?;
            let (scenario, policies) = (p.scenario.clone(), p.policies.clone());
            (p, scenario, policies, None)
        }
    };
    let named = request.policies.is_some();
    let policies = request.policies.unwrap_or(link_policies);

    let mut scenario = base.clone();
    let mut explicit = Vec::new();
    for setting in &request.settings {
        let key = match setting {
            Setting::Value { key, value, label } => {
                scenario.set(key, value).map_err(|e| labelled(label, e))?;
                key.clone()
            }
            Setting::Pair { text, label } => {
                let Some((key, value)) = text.split_once('=') else {
                    let keys: Vec<_> = base.keys().into_iter().map(|k| k.key).collect();
                    return Err(error(
                        &format!("{label} '{text}'"),
                        format!("expected KEY=VALUE, e.g. load=0.9; keys: {}", keys.join(", ")),
                    ));
                };
                let (key, value) = (key.trim(), value.trim());
                scenario.set(key, value).map_err(|e| error(&format!("{label} {text}"), e.to_string()))?;
                key.to_string()
            }
            Setting::File { key, text, label } => {
                let value = base.any().read_key_file(key, text).map_err(|e| error(label, e.to_string()))?;
                scenario.set(key, &value).map_err(|e| error(label, e.to_string()))?;
                key.clone()
            }
        };
        explicit.push(key);
    }
    let explicit_keys: Vec<&str> = explicit.iter().map(String::as_str).collect();

    let mut replay_notes = Vec::new();
    if let Some((trace, flag)) = &request.trace {
        // The user's keys stay: the settings', and a link's (what it sets differently from the
        // preset, its horizon among them). A link's load stays if it was a traffic scaling
        // already (the core's rule), not the model's own λ or α.
        let mut keep = explicit_keys.clone();
        keep.extend(base.overrides_from(&preset.scenario).into_iter().map(|(k, _)| k).filter(|k| *k != "load"));
        replay_notes = scenario.replay(trace, &keep, &preset.scenario).map_err(|e| error(flag, e.to_string()))?;
    }

    scenario.follow(&base, &preset.scenario, &explicit_keys).map_err(|e| error(names.horizon, e.to_string()))?;
    let warmup_note = warmup_note(&scenario, &base, &preset.scenario, &explicit_keys);
    scenario.validate().map_err(|e| error("invalid scenario", e.to_string()))?;
    let (runnable, refused) = scenario.runnable(&policies);
    if let Some(first) = refused.first()
        && (named || runnable.is_empty())
    {
        let spec = &policies[policies.iter().position(|p| !runnable.contains(p)).expect("one was refused")];
        let message = first.message.strip_prefix(&format!("{}: ", spec.name())).unwrap_or(&first.message);
        return Err(match (named, request.source) {
            (true, _) => error(&format!("{} {spec}", names.policy), message),
            (false, Source::Link(_)) => {
                error(names.link, format!("none of its policies can run this scenario; {spec}: {message}"))
            }
            (false, Source::Preset(_)) => error(
                &format!("{} {}", names.preset, preset.id),
                format!("none of its policies can run this scenario; {message}"),
            ),
        });
    }
    let mut policy_notes: Vec<String> =
        refused.iter().map(|e| format!("{} (left out here; the other policies run)", e.message)).collect();
    if let Some(status) = scenario.replay_status() {
        replay_notes.insert(0, format!("the trace {}", status.describe()));
    }
    replay_notes.append(&mut policy_notes);
    // The link checked its moment against its own horizon; the settings may have moved it.
    if let Some(t) = at.filter(|&t| t > scenario.horizon() as f64) {
        return Err(error(
            names.link,
            format!(
                "t = {t} is past the horizon ({}): a moment of the run is in 0..={}",
                scenario.horizon(),
                scenario.horizon()
            ),
        ));
    }
    Ok(Resolved { setup: Setup { preset, scenario, policies: runnable }, explicit, warmup_note, replay_notes, at })
}

/// Says how the warm-up moved when the horizon did (a setting, or a trace file) and the user
/// did not set the warm-up.
fn warmup_note(scenario: &Scenario, base: &Scenario, preset: &Scenario, explicit: &[&str]) -> Option<String> {
    let moved = !explicit.contains(&"warmup") && scenario.get("warmup") != base.get("warmup");
    moved.then(|| {
        format!(
            "warm-up {} = {} × {} / {} {}: the same fraction of the new horizon as the preset's",
            scenario.get("warmup").unwrap_or_default(),
            preset.get("warmup").unwrap_or_default(),
            scenario.horizon(),
            preset.horizon(),
            scenario.time_unit().plural()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PY: Names = Names { preset: "preset", link: "link", policy: "policy", horizon: "horizon" };

    fn request(source: Source<'_>, settings: Vec<Setting>) -> Request<'_> {
        Request { source, policies: None, settings, trace: None }
    }

    fn value(key: &str, value: &str) -> Setting {
        Setting::Value { key: key.into(), value: value.into(), label: None }
    }

    #[test]
    fn errors_name_the_input_as_the_front_end_calls_it() {
        let err = resolve(request(Source::Preset("nope"), vec![]), PY).unwrap_err();
        assert_eq!(err.key, "preset");
        // Without a label, a key's error is the core's own.
        let err = resolve(request(Source::Preset("pgrr-a1"), vec![value("load", "-1")]), PY).unwrap_err();
        assert_eq!(err.to_string(), "load: must be a number in (0, 10] (got '-1')");
        let pair = Setting::Pair { text: "load0.9".into(), label: "--set".into() };
        let err = resolve(request(Source::Preset("pgrr-a1"), vec![pair]), PY).unwrap_err();
        assert!(err.to_string().starts_with("--set 'load0.9': expected KEY=VALUE"), "{err}");
        let mut named = request(Source::Preset("pgrr-a1"), vec![]);
        named.policies = Some(vec![PolicySpec::parse("msf").unwrap()]);
        assert_eq!(resolve(named, PY).unwrap_err().key, "policy msf");
        let err = resolve(request(Source::Link("?preset=pgrr-a1&load=x"), vec![]), PY).unwrap_err();
        assert!(err.to_string().starts_with("link: 1 bad key(s)"), "{err}");
    }

    #[test]
    fn a_horizon_alone_moves_the_warmup_and_says_so() {
        let r = resolve(request(Source::Preset("pgrr-a1"), vec![value("horizon", "100000")]), PY).unwrap();
        assert_eq!(r.setup.scenario.get("warmup").unwrap(), "10000");
        assert!(r.warmup_note.unwrap().contains("10000"));
        assert_eq!(r.explicit, ["horizon"]);
        let r = resolve(request(Source::Link("?preset=pgrr-a1&seed=9"), vec![]), PY).unwrap();
        assert_eq!(r.setup.scenario.seed(), 9);
        assert!(r.warmup_note.is_none());
    }
}
