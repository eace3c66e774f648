//! The policy registry: what every policy file declares about itself, and the policy specs
//! users write (`vqs:j=7:ties=random`).
//!
//! A policy file declares one [`Policy`] constant: its name, label, summary, parameters (each
//! with its range and default) and a fallible `build`. Its model lists it in one slice
//! ([`crate::model::Model::POLICIES`]); the CLI, the page, links and the tests read that
//! slice, so adding a policy is its file plus that line. Nothing here panics on user input:
//! an unknown name or a bad parameter is a [`ConfigError`] naming the key `policy`.

use std::fmt;

use super::{Model, ModelInfo};
use crate::ConfigError;

/// The key every policy error names.
pub const KEY: &str = "policy";

/// A parameter a policy takes, `name:KEY=VALUE`.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    pub key: &'static str,
    pub help: &'static str,
    pub kind: ParamKind,
    /// The value when it is not given, when that does not depend on the scenario. A given
    /// value equal to it is dropped, so `vqs:ties=first` is `vqs`.
    pub default: Option<&'static str>,
    /// The symbol labels show it with: `J` gives "VQS (J=7)".
    pub symbol: Option<&'static str>,
    /// Whether the label shows it even when it is not given (with the value the policy uses).
    pub always_in_label: bool,
    /// What the label shows of a given value, in place of `symbol=value`, where the value
    /// is not for people (a script's text shows the name it declares).
    pub shown_by: Option<fn(&str) -> Option<String>>,
}

/// The values a parameter takes.
#[derive(Debug, Clone, Copy)]
pub enum ParamKind {
    /// An integer in `lo..=hi`.
    Int { lo: u64, hi: u64 },
    /// A non-negative integer whose range depends on the scenario (`range` says how); the
    /// policy's `build` checks it.
    ScenarioInt { range: &'static str },
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Text with its own parser, which returns the canonical form or what is wrong with it.
    Text { range: &'static str, parse: fn(&str) -> Result<String, String> },
}

impl Param {
    pub const fn int(key: &'static str, lo: u64, hi: u64, help: &'static str) -> Self {
        Self::new(key, ParamKind::Int { lo, hi }, help)
    }

    pub const fn scenario_int(key: &'static str, range: &'static str, help: &'static str) -> Self {
        Self::new(key, ParamKind::ScenarioInt { range }, help)
    }

    /// A choice among `options`, the first being the default.
    pub const fn choice(key: &'static str, options: &'static [&'static str], help: &'static str) -> Self {
        Self { default: Some(options[0]), ..Self::new(key, ParamKind::Choice(options), help) }
    }

    pub const fn text(
        key: &'static str,
        range: &'static str,
        parse: fn(&str) -> Result<String, String>,
        help: &'static str,
    ) -> Self {
        Self::new(key, ParamKind::Text { range, parse }, help)
    }

    const fn new(key: &'static str, kind: ParamKind, help: &'static str) -> Self {
        Self { key, help, kind, default: None, symbol: None, always_in_label: false, shown_by: None }
    }

    /// Shown in labels as `show(value)` when given (and when that is `Some`).
    pub const fn shown_by(self, show: fn(&str) -> Option<String>) -> Self {
        Self { shown_by: Some(show), ..self }
    }

    /// Shown in labels as `symbol=value` when given.
    pub const fn symbol(self, symbol: &'static str) -> Self {
        Self { symbol: Some(symbol), ..self }
    }

    /// Shown in labels always, with the value the policy uses when it is not given.
    pub const fn always_in_label(self) -> Self {
        Self { always_in_label: true, ..self }
    }

    /// A choice whose options have no default (every given value is kept).
    pub const fn no_default(self) -> Self {
        Self { default: None, ..self }
    }

    /// The allowed values, as messages and listings state them.
    pub fn range(&self) -> String {
        match self.kind {
            ParamKind::Int { lo, hi } => format!("an integer in {lo}..={hi}"),
            ParamKind::ScenarioInt { range } | ParamKind::Text { range, .. } => range.to_string(),
            ParamKind::Choice(options) => match options {
                [a, b] => format!("{a} or {b}"),
                [rest @ .., last] => format!("{}, or {last}", rest.join(", ")).replacen(", or", " or", 1),
                [] => String::new(),
            },
        }
    }

    /// The canonical text of `value`, or what is wrong with it beyond its range (empty when
    /// the range says it all).
    fn canonical(&self, value: &str) -> Result<String, String> {
        let within = |v: Option<String>| v.ok_or_else(String::new);
        match self.kind {
            ParamKind::Int { lo, hi } => {
                within(value.parse::<u64>().ok().filter(|v| (lo..=hi).contains(v)).map(|v| v.to_string()))
            }
            ParamKind::ScenarioInt { .. } => within(value.parse::<u32>().ok().map(|v| v.to_string())),
            ParamKind::Choice(options) => within(options.iter().find(|o| **o == value).map(|o| o.to_string())),
            ParamKind::Text { parse, .. } => parse(value),
        }
    }
}

/// Declares a model's policies, one file each, and lists them in catalogue order as `ALL`:
/// `policy_list!(Pgrr: bf_j, bf_s)` is `mod bf_j; mod bf_s;` and `ALL = &[bf_j::POLICY,
/// bf_s::POLICY]`. Adding a policy is its file and its name here.
#[macro_export]
macro_rules! policy_list {
    ($model:ty: $($file:ident),+ $(,)?) => {
        $(pub mod $file;)+

        /// Every policy of the model, in catalogue order.
        pub const ALL: &[$crate::model::policy::Policy<$model>] = &[$($file::POLICY),+];
    };
}

/// How a policy file builds its policy for a run (see [`Policy::build`]).
pub type Build<M> = fn(&PolicySpec, &<M as Model>::Context) -> Result<Box<<M as Model>::Policy>, ConfigError>;
/// How a policy file checks it fits a scenario (see [`Policy::check`]).
pub type Check<M> = fn(&PolicySpec, &<M as Model>::Scenario) -> Result<(), ConfigError>;

/// What a policy file declares: its metadata and how to build it for model `M`.
pub struct Policy<M: Model> {
    pub meta: PolicyMeta,
    /// Builds the policy for a run; checks the parameters whose range depends on the
    /// scenario (MSFQ's ℓ < k) and names the key `policy` when one does not fit.
    pub build: Build<M>,
    /// Checks that the policy can run `scenario`, without building it (for models whose
    /// build context is costly to make); `None`: build it and drop it.
    pub check: Option<Check<M>>,
    /// The value a parameter takes when it is not given, where it depends on the scenario
    /// (VQS's J is the scenario's j).
    pub resolve: fn(&str, &M::Scenario) -> Option<String>,
}

/// A policy's metadata, the same for every model.
#[derive(Debug)]
pub struct PolicyMeta {
    /// The name in `--policy`, links and JSON: `bf-js`.
    pub name: &'static str,
    /// The name in the papers and on charts: `BF-J/S`.
    pub label: &'static str,
    /// One line on what it does, citing the paper's section.
    pub summary: &'static str,
    pub params: &'static [Param],
    /// Whether other models have a policy of the same name (`script`): a spec of it names no
    /// one model.
    pub shared: bool,
}

impl<M: Model> Policy<M> {
    pub const fn new(name: &'static str, label: &'static str, summary: &'static str, build: Build<M>) -> Self {
        let meta = PolicyMeta { name, label, summary, params: &[], shared: false };
        Self { meta, build, check: None, resolve: |_, _| None }
    }

    /// Other models have a policy of this name too (`script`).
    pub const fn shared(mut self) -> Self {
        self.meta.shared = true;
        self
    }

    pub const fn params(mut self, params: &'static [Param]) -> Self {
        self.meta.params = params;
        self
    }

    pub const fn check(mut self, check: Check<M>) -> Self {
        self.check = Some(check);
        self
    }

    pub const fn resolve(mut self, resolve: fn(&str, &M::Scenario) -> Option<String>) -> Self {
        self.resolve = resolve;
        self
    }
}

/// A policy with its parameters: `name[:key=value]...`, e.g. `vqs:j=7:ties=random`.
///
/// Given parameters are kept in their canonical form in declaration order, and values equal
/// to a fixed default are dropped, so equal specs print the same and compare equal.
#[derive(Clone)]
pub struct PolicySpec {
    model: &'static ModelInfo,
    meta: &'static PolicyMeta,
    params: Vec<(&'static str, String)>,
}

impl PolicySpec {
    /// Parses a spec whose policy `lookup` finds by its name (with its model); `known` lists
    /// the names for the error of an unknown one. [`PolicySpec::parse`] looks in every model,
    /// [`PolicySpec::parse_for`] in one.
    pub fn parse_with(
        text: &str,
        lookup: impl Fn(&str) -> Option<(&'static ModelInfo, &'static PolicyMeta)>,
        known: impl Fn() -> Vec<&'static str>,
    ) -> Result<Self, ConfigError> {
        let mut parts = text.trim().split(':');
        let name = parts.next().unwrap_or("").trim();
        let (model, meta) = lookup(name)
            .ok_or_else(|| ConfigError::new(KEY, format!("unknown policy '{name}'; known: {}", known().join(", "))))?;
        Self { model, meta, params: Vec::new() }.with_params(parts)
    }

    /// Parses a spec of one of model `M`'s policies (its presets name them so).
    pub fn parse_for<M: Model>(text: &str) -> Result<Self, ConfigError> {
        let own = |name: &str| M::POLICIES.iter().map(|p| &p.meta).find(|m| m.name == name).map(|m| (&M::INFO, m));
        Self::parse_with(text, own, || M::POLICIES.iter().map(|p| p.meta.name).collect())
    }

    /// This spec with the parameters `parts` (`KEY=VALUE` each) added, each checked against
    /// the policy's own.
    fn with_params<'t>(mut self, parts: impl Iterator<Item = &'t str>) -> Result<Self, ConfigError> {
        let (name, meta) = (self.meta.name, self.meta);
        let err = |m: String| ConfigError::new(KEY, m);
        for part in parts {
            let (key, value) =
                part.split_once('=').ok_or_else(|| err(format!("{name}: parameter '{part}' is not KEY=VALUE")))?;
            let (key, value) = (key.trim(), value.trim());
            let Some(param) = meta.params.iter().find(|p| p.key == key) else {
                let names: Vec<_> = meta.params.iter().map(|p| p.key).collect();
                return Err(err(if names.is_empty() {
                    format!("{name} takes no parameters (got '{key}')")
                } else {
                    format!("{name} has no parameter '{key}'; it takes {}", names.join(", "))
                }));
            };
            let canonical = param.canonical(value).map_err(|why| {
                err(if why.is_empty() {
                    format!("{name}: {key} must be {} (got '{value}')", param.range())
                } else {
                    // What is wrong first: the range of a text parameter does not say it.
                    format!("{name}: {key}: {why}; it must be {} (got '{value}')", param.range())
                })
            })?;
            self.params.retain(|(k, _)| *k != param.key);
            if param.default != Some(canonical.as_str()) {
                self.params.push((param.key, canonical));
            }
        }
        self.params.sort_by_key(|(k, _)| meta.params.iter().position(|p| p.key == *k));
        Ok(self)
    }

    /// The spec of policy `name` of model `M` without parameters, for presets and tests.
    pub fn of<M: Model>(name: &str) -> Option<Self> {
        let meta = M::POLICIES.iter().map(|p| &p.meta).find(|m| m.name == name)?;
        Some(Self { model: &M::INFO, meta, params: Vec::new() })
    }

    pub fn name(&self) -> &'static str {
        self.meta.name
    }

    pub fn meta(&self) -> &'static PolicyMeta {
        self.meta
    }

    /// The model the policy belongs to.
    pub fn model(&self) -> &'static ModelInfo {
        self.model
    }

    /// Checks that every given parameter is one of `params` (those of the same policy name in
    /// model `model`): a shared name's spec is parsed with the parameters of whichever model
    /// takes them, and only then meets a scenario.
    pub fn check_params(&self, params: &[Param], model: &str) -> Result<(), ConfigError> {
        match self.params.iter().find(|(k, _)| !params.iter().any(|p| p.key == *k)) {
            None => Ok(()),
            Some((key, _)) => {
                let names: Vec<_> = params.iter().map(|p| p.key).collect();
                Err(self.error(format!(
                    "{model}'s {} has no parameter '{key}'; it takes {}",
                    self.meta.name,
                    if names.is_empty() { "none".to_string() } else { names.join(", ") }
                )))
            }
        }
    }

    /// A given parameter's canonical value.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.params.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str())
    }

    /// A given parameter's value, or its fixed default.
    pub fn param_or_default(&self, key: &str) -> Option<&str> {
        self.param(key).or_else(|| self.meta.params.iter().find(|p| p.key == key).and_then(|p| p.default))
    }

    /// A given integer parameter.
    pub fn int(&self, key: &str) -> Option<u64> {
        self.param(key).and_then(|v| v.parse().ok())
    }

    /// Whether a parameter (given or by default) has this value.
    pub fn is(&self, key: &str, value: &str) -> bool {
        self.param_or_default(key) == Some(value)
    }

    /// The spec of policy `meta` with parameter values picked by `picks` (one number per
    /// parameter, taken modulo its choices): for property tests that cover every policy and
    /// parameter of a registry. Integers take one of the four lowest values of their range;
    /// parameters whose range depends on the scenario, or that are free text, stay unset.
    pub fn sampled(model: &'static ModelInfo, meta: &'static PolicyMeta, picks: &[usize]) -> Self {
        let mut params = Vec::new();
        for (p, pick) in meta.params.iter().zip(picks.iter().chain(std::iter::repeat(&0))) {
            let value = match p.kind {
                ParamKind::Choice(options) => Some(options[pick % options.len()].to_string()),
                ParamKind::Int { lo, hi } => Some((lo + (*pick as u64) % (hi - lo + 1).min(4)).to_string()),
                ParamKind::ScenarioInt { .. } | ParamKind::Text { .. } => None,
            };
            if let Some(value) = value.filter(|v| p.default != Some(v.as_str())) {
                params.push((p.key, value));
            }
        }
        Self { model, meta, params }
    }

    /// The spec with one more parameter (as if written `:key=value`).
    pub fn with(&self, key: &str, value: &str) -> Result<Self, ConfigError> {
        let pair = format!("{key}={value}");
        self.clone().with_params(std::iter::once(pair.as_str()))
    }

    /// The spec with parameter `key` set to `value`, or back to its default when `value` is
    /// empty: what a parameter field of the page asks for.
    pub fn with_param(&self, key: &str, value: &str) -> Result<Self, ConfigError> {
        let known = self.meta.params.iter().any(|p| p.key == key);
        if !value.trim().is_empty() || !known {
            return self.with(key, value);
        }
        let mut spec = self.clone();
        spec.params.retain(|(k, _)| *k != key);
        Ok(spec)
    }

    /// An error about this policy, naming the key `policy`: "msfq: l must be ...".
    pub fn error(&self, message: impl fmt::Display) -> ConfigError {
        ConfigError::new(KEY, format!("{}: {message}", self.meta.name))
    }

    /// The label with the parameters labels show; `resolved` gives the value used for a
    /// parameter that is not given (see [`Param::always_in_label`]).
    pub fn label_with(&self, resolved: impl Fn(&str) -> Option<String>) -> String {
        for p in self.meta.params {
            if let (Some(show), Some(value)) = (p.shown_by, self.param(p.key))
                && let Some(shown) = show(value)
            {
                return format!("{} ({shown})", self.meta.label);
            }
        }
        for p in self.meta.params.iter().filter(|p| p.symbol.is_some()) {
            let value = match self.param(p.key) {
                Some(v) => Some(v.to_string()),
                None if p.always_in_label => resolved(p.key),
                None => None,
            };
            if let (Some(symbol), Some(value)) = (p.symbol, value) {
                return format!("{} ({symbol}={value})", self.meta.label);
            }
        }
        self.meta.label.to_string()
    }
}

impl PolicySpec {
    /// The spec as narrow tables show it: parameters whose value is not for people (a
    /// script) show what their label shows, `script(best fit)`, or `…`.
    pub fn brief(&self) -> String {
        let mut out = self.meta.name.to_string();
        for (key, value) in &self.params {
            match self.meta.params.iter().find(|p| p.key == *key).and_then(|p| p.shown_by) {
                Some(show) => out.push_str(&format!("({})", show(value).unwrap_or_else(|| "…".into()))),
                None => out.push_str(&format!(":{key}={value}")),
            }
        }
        out
    }
}

impl PartialEq for PolicySpec {
    /// Names are unique across models, so the name and the parameters decide.
    fn eq(&self, other: &Self) -> bool {
        self.meta.name == other.meta.name && self.params == other.params
    }
}

impl Eq for PolicySpec {}

impl fmt::Display for PolicySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.meta.name)?;
        for (key, value) in &self.params {
            write!(f, ":{key}={value}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for PolicySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PolicySpec({self})")
    }
}

impl serde::Serialize for PolicySpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (_, meta) in crate::models::all_policies() {
            let spec = PolicySpec::parse(meta.name).unwrap();
            assert_eq!(PolicySpec::parse(&spec.to_string()).unwrap(), spec);
        }
        for text in ["msfq:l=31:phase4=open", "static-qs:l=15:order=asc", "adaptive-qs:target=frozen", "alg1:f=log"] {
            assert_eq!(PolicySpec::parse(text).unwrap().to_string(), text);
        }
        let spec = PolicySpec::parse("vqs:fill=strict:j=7:ties=random:weights=snapshot:small=real").unwrap();
        assert_eq!(spec.to_string(), "vqs:j=7:ties=random:weights=snapshot:small=real:fill=strict");
        assert_eq!(PolicySpec::parse("vqs:ties=first").unwrap(), PolicySpec::parse("vqs").unwrap());
        assert_eq!(PolicySpec::parse(" vqs : j = 3 ").unwrap().to_string(), "vqs:j=3");
    }

    #[test]
    fn a_parameter_is_set_or_cleared() {
        let vqs = PolicySpec::parse("vqs:j=3:ties=random").unwrap();
        assert_eq!(vqs.with_param("j", "5").unwrap().to_string(), "vqs:j=5:ties=random");
        assert_eq!(vqs.with_param("j", " ").unwrap().to_string(), "vqs:ties=random");
        assert_eq!(vqs.with_param("ties", "first").unwrap().to_string(), "vqs:j=3");
        assert!(vqs.with_param("j", "99").unwrap_err().message.contains("2..=20"));
        assert!(vqs.with_param("nope", "").unwrap_err().message.contains("no parameter 'nope'"));
    }

    #[test]
    fn bad_names_and_parameters_are_named() {
        for (text, needle) in [
            ("lifo", "unknown policy 'lifo'"),
            ("vqs:j=1", "j must be an integer in 2..=20 (got '1')"),
            ("vqs:j=x", "j must be"),
            ("vqs:k=3", "no parameter 'k'"),
            ("bf-js:j=3", "takes no parameters"),
            ("vqs-bf:fill=strict", "no parameter 'fill'"),
            ("vqs:j", "not KEY=VALUE"),
            ("msfq:l=-1", "l must be"),
            ("msf:l=3", "takes no parameters"),
            ("static-qs:order=up", "order must be desc or asc"),
            ("alg2-jsq:f=cube", "f must be log, log10 or loglog"),
            ("mw-local:f=log", "takes no parameters"),
        ] {
            let e = PolicySpec::parse(text).unwrap_err();
            assert_eq!(e.key, "policy");
            assert!(e.message.contains(needle), "{text}: {e}");
        }
    }
}
