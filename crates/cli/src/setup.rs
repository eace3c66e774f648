//! Turns `--preset`/`--link` and the override flags into one validated scenario. The rules
//! are the core's: keys through [`Scenario::set`], a trace file through
//! [`Scenario::replay`], and what follows them through [`Scenario::follow`].

use anyhow::{Context, Result, anyhow, bail};
use packlab_core::link::decode_link;
use packlab_core::policy::PolicySpec;
use packlab_core::scenario::{Scenario, Setup, preset};
use packlab_core::script;

use crate::args::ScenarioArgs;

/// What the scenario flags of a `run`, `sweep` or `bounds` resolve to.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The preset, the scenario with the flags applied, the policies.
    pub setup: Setup,
    /// Keys the user set on the command line (`--set`, `--seed`, `--horizon`).
    pub explicit: Vec<String>,
    /// Set when the warm-up was rescaled because only the horizon changed; says how.
    pub warmup_note: Option<String>,
    /// What replaying the trace file says: the scaling, the offered load, jobs capped.
    pub replay_notes: Vec<String>,
    /// The moment a link opens at (`t=`): `run` reports the runs there, as the page shows
    /// them paused at that moment.
    pub at: Option<f64>,
}

pub fn resolve(args: &ScenarioArgs) -> Result<Resolved> {
    // Traces are read first: a link may name one by its fingerprint.
    let trace = if args.traces.is_empty() { None } else { Some(crate::trace::read(&args.traces, args.trace_tasks)?) };
    let (preset, base, link_policies, at) = match (&args.preset, &args.link) {
        (_, Some(link)) => {
            let (link, errors) = decode_link(link);
            if !errors.is_empty() {
                let lines: Vec<String> = errors.iter().map(|e| format!("  {e}")).collect();
                bail!("--link: {} bad key(s):\n{}", errors.len(), lines.join("\n"));
            }
            (link.preset, link.scenario, link.policies, link.page.at)
        }
        (Some(id), None) => {
            let p = preset(id).map_err(|e| anyhow!("--preset: {}", e.message))?;
            let (scenario, policies) = (p.scenario.clone(), p.policies.clone());
            (p, scenario, policies, None)
        }
        // clap requires one of the two; keep a message rather than a panic all the same.
        (None, None) => bail!("give --preset ID or --link URL"),
    };
    let policies = if args.policies.is_empty() { link_policies } else { parse_policies(&args.policies)? };

    let mut overrides: Vec<(String, String, String)> = Vec::new();
    if let Some(seed) = &args.seed {
        overrides.push(("seed".into(), seed.clone(), "--seed".into()));
    }
    if let Some(horizon) = &args.horizon {
        overrides.push(("horizon".into(), horizon.clone(), "--horizon".into()));
    }
    if let Some(path) = &args.classes_file {
        let flag = format!("--classes-file {}", path.display());
        let text = std::fs::read_to_string(path).with_context(|| format!("{flag}: cannot read the file"))?;
        let value = base.any().read_key_file("classes", &text).map_err(|e| anyhow!("{flag}: {e}"))?;
        overrides.push(("classes".into(), value, flag));
    }
    for pair in &args.sets {
        let Some((key, value)) = pair.split_once('=') else {
            let keys: Vec<_> = base.keys().into_iter().map(|k| k.key).collect();
            bail!("--set '{pair}': expected KEY=VALUE, e.g. load=0.9; keys: {}", keys.join(", "));
        };
        overrides.push((key.trim().to_string(), value.trim().to_string(), format!("--set {pair}")));
    }

    let mut scenario = base.clone();
    let mut explicit = Vec::new();
    for (key, value, flag) in &overrides {
        scenario.set(key, value).with_context(|| flag.clone())?;
        explicit.push(key.clone());
    }
    let explicit_keys: Vec<&str> = explicit.iter().map(String::as_str).collect();

    let mut replay_notes = Vec::new();
    if let Some(trace) = &trace {
        // The user's keys stay: the flags', and a link's (what it sets differently from the
        // preset, its horizon among them). A link's load stays if it was a traffic scaling
        // already (the core's rule), not the model's own λ or α.
        let mut keep = explicit_keys.clone();
        keep.extend(base.overrides_from(&preset.scenario).into_iter().map(|(k, _)| k).filter(|k| *k != "load"));
        let flag =
            format!("--trace {}", args.traces.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" "));
        replay_notes = scenario.replay(trace, &keep, &preset.scenario).map_err(|e| anyhow!("{flag}: {e}"))?;
    }

    scenario.follow(&base, &preset.scenario, &explicit_keys).context("--horizon")?;
    // The horizon moved (a flag, or a trace file) and the warm-up with it.
    let warmup_moved = !explicit_keys.contains(&"warmup") && scenario.get("warmup") != base.get("warmup");
    let warmup_note = warmup_moved.then(|| {
        format!(
            "warm-up {} = {} × {} / {} {}: the same fraction of the new horizon as the preset's",
            scenario.get("warmup").unwrap_or_default(),
            preset.scenario.get("warmup").unwrap_or_default(),
            scenario.horizon(),
            preset.scenario.horizon(),
            scenario.time_unit().plural()
        )
    });
    scenario.validate().map_err(|e| anyhow!("invalid scenario: {e}"))?;
    // A policy that cannot run the scenario (MSFQ on a log of many needs) is refused in one
    // sentence with the fix. Named with --policy, that is an error; the preset's or the link's,
    // it is dropped with a note and the others run, as the page leaves its lane out (RES-90).
    let (runnable, refused) = scenario.runnable(&policies);
    let named = !args.policies.is_empty();
    if let Some(first) = refused.first()
        && (named || runnable.is_empty())
    {
        let spec = &policies[policies.iter().position(|p| !runnable.contains(p)).expect("one was refused")];
        let message = first.message.strip_prefix(&format!("{}: ", spec.name())).unwrap_or(&first.message);
        match (named, &args.link) {
            (true, _) => bail!("--policy {spec}: {message}"),
            (false, Some(_)) => bail!("--link: none of its policies can run this scenario; {spec}: {message}"),
            (false, None) => bail!("--preset {}: none of its policies can run this scenario; {message}", preset.id),
        }
    }
    let mut policy_notes: Vec<String> =
        refused.iter().map(|e| format!("{} (left out here; the other policies run)", e.message)).collect();
    let policies = runnable;
    if let Some(status) = scenario.replay_status() {
        replay_notes.insert(0, format!("the trace {}", status.describe()));
    }
    replay_notes.append(&mut policy_notes);
    // The link checked its moment against its own horizon; the flags may have moved it.
    if let Some(t) = at.filter(|&t| t > scenario.horizon() as f64) {
        bail!(
            "--link: t = {t} is past the horizon ({}): a moment of the run is in 0..={}",
            scenario.horizon(),
            scenario.horizon()
        );
    }
    Ok(Resolved { setup: Setup { preset, scenario, policies }, explicit, warmup_note, replay_notes, at })
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
