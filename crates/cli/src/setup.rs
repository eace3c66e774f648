//! Turns `--preset`/`--link` and the override flags into one validated scenario. The rules
//! are the core's: keys through [`Scenario::set`], a trace file through
//! [`Scenario::replay`], and what follows them through [`Scenario::follow`].

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::policy::PolicySpec;
use packlab_core::scenario::Scenario;
use packlab_core::scenario::resolve::{Names, Request, Setting, Source, resolve as resolve_request};
use packlab_core::script;

use crate::args::ScenarioArgs;

/// What the scenario flags of a `run`, `sweep` or `bounds` resolve to (the core's rules).
pub use packlab_core::scenario::resolve::Resolved;

/// The CLI's names for the inputs the core's errors name.
const NAMES: Names = Names { preset: "--preset", link: "--link", policy: "--policy", horizon: "--horizon" };

pub fn resolve(args: &ScenarioArgs) -> Result<Resolved> {
    // Traces are read first: a link may name one by its fingerprint.
    let trace = if args.traces.is_empty() { None } else { Some(crate::trace::read(&args.traces, args.trace_tasks)?) };
    let source = match (&args.preset, &args.link) {
        (_, Some(link)) => Source::Link(link),
        (Some(id), None) => Source::Preset(id),
        // clap requires one of the two; keep a message rather than a panic all the same.
        (None, None) => bail!("give --preset ID or --link URL"),
    };
    let policies = if args.policies.is_empty() { None } else { Some(parse_policies(&args.policies)?) };

    let value = |key: &str, value: &str, flag: &str| Setting::Value {
        key: key.into(),
        value: value.into(),
        label: Some(flag.into()),
    };
    let mut settings = Vec::new();
    if let Some(seed) = &args.seed {
        settings.push(value("seed", seed, "--seed"));
    }
    if let Some(horizon) = &args.horizon {
        settings.push(value("horizon", horizon, "--horizon"));
    }
    if let Some(path) = &args.classes_file {
        let label = format!("--classes-file {}", path.display());
        let text = std::fs::read_to_string(path).with_context(|| format!("{label}: cannot read the file"))?;
        settings.push(Setting::File { key: "classes".into(), text, label });
    }
    for pair in &args.sets {
        settings.push(Setting::Pair { text: pair.clone(), label: "--set".into() });
    }
    if !args.changes.is_empty() {
        settings.push(value(packlab_core::changes::KEY, &args.changes.join(";"), "--change"));
    }
    let flag = format!("--trace {}", args.traces.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" "));
    let request = Request { source, policies, settings, trace: trace.as_ref().map(|t| (t, flag)) };
    resolve_request(request, NAMES).map_err(|e| anyhow!("{e}"))
}

/// What to say when a trace file is replayed with replications: its arrivals are the same in
/// every one, so only the policies' own random choices (ties, sampling) tell them apart.
pub fn trace_reps_note(args: &ScenarioArgs, reps: u64) -> Option<&'static str> {
    (reps > 1 && !args.traces.is_empty()).then_some(
        "note: a trace file fixes the arrivals, so the replications differ only in the policies' own random \
         choices (ties, sampling); their interval says nothing of the workload's variability",
    )
}

/// Parses `--policy` values: each may be a comma-separated list; duplicates keep the first
/// occurrence, as links do.
pub fn parse_policies(values: &[String]) -> Result<Vec<PolicySpec>> {
    let mut out = Vec::new();
    for value in values {
        for entry in value.split(',') {
            if entry.trim().is_empty() {
                bail!("--policy: empty entry in '{value}'; give names separated by commas (see `packlab policies`)");
            }
            let spec = match script_file(entry)? {
                Some(text) => PolicySpec::parse(&text),
                None => PolicySpec::parse(entry),
            }
            .map_err(|e| anyhow!("--policy: {}", e.message))?;
            if !out.contains(&spec) {
                out.push(spec);
            }
        }
    }
    Ok(out)
}

/// `script:FILE` (a spec's own parameters are `KEY=VALUE`): the spec of the script in FILE,
/// as a link carries it.
fn script_file(entry: &str) -> Result<Option<String>> {
    let Some(path) = entry.trim().strip_prefix(script::FILE_PREFIX).filter(|p| !p.contains('=')) else {
        return Ok(None);
    };
    let too_long = || anyhow!("--policy: script file '{path}' is longer than {} bytes", script::MAX_SOURCE_BYTES);
    let size = std::fs::metadata(path).map_err(|e| anyhow!("--policy: cannot read script file '{path}': {e}"))?.len();
    if size > script::MAX_SOURCE_BYTES as u64 {
        return Err(too_long());
    }
    let source =
        std::fs::read_to_string(path).map_err(|e| anyhow!("--policy: cannot read script file '{path}': {e}"))?;
    Ok(Some(script::spec_text(&source).map_err(|_| too_long())?))
}

/// Seeds of `reps` replications starting at `seed`.
pub fn replication_seeds(seed: u64, reps: u64) -> Result<Vec<u64>> {
    (0..reps)
        .map(|r| {
            packlab_core::sweep::replication_seed(seed, r)
                .ok_or_else(|| anyhow!("--reps: seed {seed} + {reps} replications overflows a u64 seed"))
        })
        .collect()
}

/// `scenario` with another value for `key`, for replications.
pub fn with(scenario: &Scenario, key: &str, value: impl ToString) -> Result<Scenario> {
    let mut s = scenario.clone();
    s.set(key, &value.to_string())?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(preset: &str, extra: &[(&str, &str)]) -> ScenarioArgs {
        let mut a = ScenarioArgs {
            preset: Some(preset.into()),
            link: None,
            policies: vec![],
            seed: None,
            horizon: None,
            sets: vec![],
            changes: vec![],
            classes_file: None,
            traces: Vec::new(),
            trace_tasks: None,
        };
        for (k, v) in extra {
            match *k {
                "seed" => a.seed = Some(v.to_string()),
                "horizon" => a.horizon = Some(v.to_string()),
                "policy" => a.policies.push(v.to_string()),
                _ => a.sets.push(format!("{k}={v}")),
            }
        }
        a
    }

    #[test]
    fn horizon_alone_scales_the_warmup() {
        let s = resolve(&args("pgrr-a1", &[("horizon", "100000")])).unwrap();
        assert_eq!(s.setup.scenario.get("warmup").unwrap(), "10000");
        assert!(s.warmup_note.unwrap().contains("10000"));
        let s = resolve(&args("pgrr-a1", &[("horizon", "100000"), ("warmup", "5")])).unwrap();
        assert_eq!(s.setup.scenario.get("warmup").unwrap(), "5");
        assert!(s.warmup_note.is_none());
        // Rounded down: 200000 × 99999 / 2000000 = 9999.9.
        let s = resolve(&args("pgrr-a1", &[("horizon", "99999")])).unwrap();
        assert_eq!(s.setup.scenario.get("warmup").unwrap(), "9999");
    }

    #[test]
    fn errors_name_the_flag_and_key() {
        let err = |a: ScenarioArgs| format!("{:#}", resolve(&a).unwrap_err());
        assert!(err(args("pgrr-a1", &[("load", "-1")])).contains("load: must be a number in (0, 10]"));
        assert!(err(args("nope", &[])).contains("--preset"));
        assert!(err(args("pgrr-a1", &[("policy", "vqs,,bf-js")])).contains("empty entry"));
        let mut a = args("pgrr-a1", &[]);
        a.sets.push("load0.9".into());
        assert!(err(a).contains("expected KEY=VALUE"));
        assert!(err(args("pgrr-a1", &[("warmup", "3000000")])).contains("warmup"));
    }

    #[test]
    fn policies_split_and_dedupe() {
        let p = parse_policies(&["vqs,bf-js".into(), "vqs".into(), "vqs:j=7".into()]).unwrap();
        let names: Vec<_> = p.iter().map(|p| p.to_string()).collect();
        assert_eq!(names, ["vqs", "bf-js", "vqs:j=7"]);
    }

    #[test]
    fn seeds_never_overflow() {
        assert_eq!(replication_seeds(7, 3).unwrap(), [7, 8, 9]);
        assert!(replication_seeds(u64::MAX, 2).is_err());
        assert_eq!(replication_seeds(u64::MAX, 1).unwrap(), [u64::MAX]);
    }
}
