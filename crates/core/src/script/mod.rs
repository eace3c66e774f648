//! Scripted policies: a policy written in [rhai](https://rhai.rs) by the user, run by any
//! model with a queue under the same rules as a built-in policy.
//!
//! A script defines `fn schedule(ctx)`; the model calls it where it would call its Rust
//! policy, with a handle `ctx` to the same read-only context (the model's binding, e.g.
//! [`crate::models::pgrr::script`], documents what `ctx` offers), and every decision the script
//! makes through `ctx.start(…)` goes through the model's own validation (`apply`). What this
//! module owns is shared by every model: the engine's set-up and limits, compiling and
//! calling, the link-safe text of a script ([`source`]) and the errors, which name the line
//! and what was exceeded.
//!
//! The sandbox ([`sandbox`]): a script sees only its arguments, has no `eval`, no modules, no
//! clock, no printing (print and debug are discarded; `ctx.note` is its channel to the
//! inspector), and no random numbers other than the policy's own stream through `ctx`. What it
//! may spend is a deterministic budget of weighted operations per call and per run
//! ([`budget`]), with a wall-clock safety net; its call depth, its values' sizes and its source
//! length are bounded (the `MAX_*` constants). Top-level code runs once when the policy is
//! built, under the same limits and the same budget as a call.

#[cfg(feature = "script")]
pub mod budget;
#[cfg(feature = "script")]
pub mod context;
#[cfg(feature = "script")]
pub mod decider;
pub mod lease;
#[cfg(feature = "script")]
mod sandbox;
pub mod source;
#[cfg(feature = "script")]
pub mod state;

#[cfg(feature = "script")]
use std::rc::Rc;

#[cfg(feature = "script")]
use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, NativeCallContext, Position, Scope};

use crate::ConfigError;
use crate::model::policy::{KEY, Param};

#[cfg(feature = "script")]
use budget::{Exceeded, Meter};
#[cfg(feature = "script")]
pub use budget::{MAX_CALL_COST, RunBudget, set_clock};

/// The longest source, in bytes (checked before compiling).
pub const MAX_SOURCE_BYTES: usize = 20_000;
/// Nested function calls.
pub const MAX_CALL_LEVELS: usize = 32;
/// Nesting of expressions (and of statements in function bodies).
pub const MAX_EXPR_DEPTH: usize = 64;
/// The longest string, in bytes; strings inside an array or map count together.
pub const MAX_STRING_BYTES: usize = 4_096;
/// The most elements of an array, nested arrays' elements counted.
pub const MAX_ARRAY_LEN: usize = 10_000;
/// The most entries of an object map, nested maps' entries counted.
pub const MAX_MAP_LEN: usize = 1_000;
/// Arrays and maps nested in one another.
pub const MAX_NESTING: usize = 64;
/// The most functions a script defines.
pub const MAX_FUNCTIONS: usize = 100;
/// The most variables alive at once.
pub const MAX_VARIABLES: usize = 1_000;
/// The longest label and value of a note, in characters; longer ones are cut. (A decision
/// keeps at most [`crate::decisions::MAX_NOTES`] notes.)
pub const MAX_NOTE_CHARS: usize = 120;
/// Operations a note costs besides its size: a kept note is formatted as text and escaped.
pub const NOTE_COST: u64 = 8;

/// The function a script must define, taking the context.
pub const ENTRY: &str = "schedule";

/// The name of the scripted policy in every model that has one (specs, links, `--policy`).
pub const NAME: &str = "script";
/// What users see before the script's own name: "Script (best fit)".
pub const LABEL: &str = "Script";
/// What a policy picker calls the scripted policy: checking it adds a lane whose script the
/// user writes (its lane row opens the editor).
pub const PICKER_LABEL: &str = "Write your own…";
/// How the CLI's `--policy script:FILE` starts (a spec's own parameters are `KEY=VALUE`).
pub const FILE_PREFIX: &str = "script:";

/// The scripted policy's parameter: the script, as [`source::encode`] writes it.
pub const PARAMS: &[Param] = &[Param::text(
    "src",
    "a script as base64url of its deflate compression (the CLI's --policy script:FILE writes it)",
    source::canonical,
    "the script's source; without it, the model's first starting point",
)
.shown_by(source::label_name),
Param::text(
    "host",
    "a number",
    canonical_host,
    "a policy object of the program running packlab (the Python package's), registered under this number; not in links",
)
.shown_by(host_label)];

/// The `host` parameter's value as the spec keeps it: a registration's number.
/// Why a lane of host policy `id` cannot run here: none was given to this run (a page never
/// has one).
fn no_host_policy(id: impl std::fmt::Display) -> String {
    format!("host: no host policy {id} here (a Python policy races only in the packlab.run that was given it)")
}

fn canonical_host(text: &str) -> Result<String, String> {
    text.parse::<u64>().map(|n| n.to_string()).map_err(|_| format!("'{text}' is not a host policy's number"))
}

/// How a lane of host policy `text` is labelled: its name (no host policy runs in a build
/// without the engine, [`decider`] being part of it).
fn host_label(text: &str) -> Option<String> {
    #[cfg(feature = "script")]
    return decider::host_label(text);
    #[cfg(not(feature = "script"))]
    {
        let _ = text;
        None
    }
}

/// The spec text of a script: `script:src=…`, what `--policy script:FILE` becomes.
pub fn spec_text(source: &str) -> Result<String, ConfigError> {
    source::check_length(source.len()).map_err(|m| ConfigError::new(KEY, m))?;
    Ok(format!("{NAME}:src={}", source::encode(source)))
}

/// A starting point: a built-in policy written as a script, run bit for bit like it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Starter {
    /// The built-in policy it reproduces.
    pub policy: &'static str,
    pub source: &'static str,
}

impl Starter {
    /// What the editor lists it as: the name the script declares, else its policy's.
    pub fn name(&self) -> String {
        source::declared_name(self.source).unwrap_or_else(|| self.policy.to_string())
    }
}

/// What a model offers a script writer: what `ctx` holds (Markdown, the same text the model's
/// rustdoc shows) and the starting points, the first being what `script` runs without a source.
#[derive(Debug, PartialEq, Eq)]
pub struct Scripting {
    pub context: &'static str,
    pub starters: &'static [Starter],
}

impl Scripting {
    /// The source `spec`'s lane runs: its own script, or the first starting point.
    pub fn source_of(&self, spec: &crate::model::policy::PolicySpec) -> Result<String, String> {
        match spec.param("src") {
            Some(text) => source::decode(text),
            None => Ok(self.starters.first().map_or(String::new(), |s| s.source.to_string())),
        }
    }
}

/// A problem with a script: its line (from 1) when it has one, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "script line {line}: {}", self.message),
            None => write!(f, "script: {}", self.message),
        }
    }
}

impl From<ScriptError> for ConfigError {
    fn from(e: ScriptError) -> Self {
        ConfigError::new(KEY, e.to_string())
    }
}

impl ScriptError {
    /// An error saying `message`, with the script's own text in it made safe to show
    /// (control and bidirectional characters escaped, as [`ConfigError`] does).
    fn new(line: Option<usize>, message: impl Into<String>) -> Self {
        Self { line, message: crate::error::readable(&message.into()) }
    }

    /// An error at `line` of the script (a model's check after a call: GH-RA's arrival left
    /// unrouted).
    pub fn at(line: Option<usize>, message: impl Into<String>) -> Self {
        Self::new(line, message)
    }

    /// What stopped a call, with the line where it happened: the innermost error of a chain
    /// of function calls is the one that says what happened. rhai reports a limit exceeded
    /// inside a function at the line that called the function, and gives none for the call
    /// packlab makes: such an error is placed at `entry_line`, where `fn schedule` starts.
    #[cfg(feature = "script")]
    fn from_eval(error: &EvalAltResult, entry_line: Option<usize>) -> Self {
        let inner = error.unwrap_inner();
        if let EvalAltResult::ErrorTerminated(why, _) = inner
            && let Some(refusal) = why.clone().try_cast::<Refusal>()
        {
            return Self::new(refusal.line, refusal.message);
        }
        let line = inner.position().line().or_else(|| error.position().line()).or(entry_line);
        let message = match inner {
            EvalAltResult::ErrorTerminated(why, _) if why.is::<Exceeded>() => why.clone().cast::<Exceeded>().describe(),
            EvalAltResult::ErrorStackOverflow(_) => {
                format!("exceeded {MAX_CALL_LEVELS} nested function calls (endless recursion?)")
            }
            EvalAltResult::ErrorDataTooLarge(what, _) => {
                let limit = match what.as_str() {
                    w if w.contains("string") => format!("{MAX_STRING_BYTES} bytes of strings"),
                    w if w.contains("array") => format!("{MAX_ARRAY_LEN} array elements"),
                    w if w.contains("map") => format!("{MAX_MAP_LEN} map entries"),
                    w if w.contains("nesting") => format!("{MAX_NESTING} levels"),
                    _ => "its limit".to_string(),
                };
                format!("{} exceeded {limit}", what.to_lowercase())
            }
            EvalAltResult::ErrorTooManyVariables(_) => format!("exceeded {MAX_VARIABLES} variables"),
            EvalAltResult::ErrorRuntime(value, _) => format!("the script threw: {value}"),
            EvalAltResult::Exit(..) => "the script called exit".to_string(),
            // rhai's own words, without the position it appends (the line is said first).
            other => {
                let text = other.to_string();
                text.rfind(" (line ").map_or(text.clone(), |at| text[..at].to_string())
            }
        };
        Self::new(line, message)
    }
}

/// A decision the model refused, and the line of the call that made it.
#[cfg(feature = "script")]
#[derive(Debug, Clone)]
struct Refusal {
    line: Option<usize>,
    message: String,
}

/// The error a registered function returns when the model refused a decision made at `at`
/// (its call's position): uncatchable (a script's `try … catch` cannot swallow it), so the
/// run stops with the model's reason and the line.
#[cfg(feature = "script")]
pub fn refuse(at: &NativeCallContext, why: impl std::fmt::Display) -> Box<EvalAltResult> {
    let refusal = Refusal { line: at.call_position().line(), message: why.to_string() };
    Box::new(EvalAltResult::ErrorTerminated(Dynamic::from(refusal), Position::NONE))
}

/// An error of a registered function given a value it cannot use (a negative server).
#[cfg(feature = "script")]
pub fn invalid(at: &NativeCallContext, why: impl std::fmt::Display) -> Box<EvalAltResult> {
    refuse(at, format!("policy bug: {why}"))
}

/// What `ctx.note(label, value)` keeps: the label and the value as text, cut to
/// [`MAX_NOTE_CHARS`] and made safe to show; `None` when the note would not be kept (`kept`
/// false: the run keeps no log, or the decision has its notes). A note costs
/// [`NOTE_COST`] operations and its value's size whether or not it is kept, so keeping a log
/// never changes where a script stops.
#[cfg(feature = "script")]
pub fn note(
    at: &NativeCallContext,
    label: &str,
    value: &Dynamic,
    kept: bool,
) -> Result<Option<(String, String)>, Box<EvalAltResult>> {
    let size = sandbox::Weight::of(value).cost() + label.len() as u64 / budget::BYTES_PER_OPERATION;
    budget::charge(at, NOTE_COST + size)?;
    if !kept {
        return Ok(None);
    }
    let cut = |text: &str| {
        let mut kept: String = text.chars().take(MAX_NOTE_CHARS).collect();
        if kept.len() < text.len() {
            kept.push('…');
        }
        crate::error::readable(&kept)
    };
    Ok(Some((cut(label), cut(&value.to_string()))))
}

#[cfg(feature = "script")]
/// [`note`] for a member declared in [`context`]: `value` is the [`context::Value::Shown`]
/// the routine passed (its text and size), charged to `meter` by the same rule.
pub fn note_text<J>(
    meter: &mut dyn context::Meter,
    label: &str,
    value: &context::Value<J>,
    kept: bool,
) -> Result<Option<(String, String)>, context::Stop> {
    meter.charge(NOTE_COST + value.shown_cost() + label.len() as u64 / budget::BYTES_PER_OPERATION)?;
    Ok(kept.then(|| (cut_note(label), cut_note(value.text()))))
}

/// A note's label or value cut to [`MAX_NOTE_CHARS`] and made safe to show.
#[cfg(feature = "script")]
fn cut_note(text: &str) -> String {
    let mut kept: String = text.chars().take(MAX_NOTE_CHARS).collect();
    if kept.len() < text.len() {
        kept.push('…');
    }
    crate::error::readable(&kept)
}

/// An engine with packlab's sandbox metered by `meter`, with deterministic math.
#[cfg(feature = "script")]
fn engine(meter: &Rc<Meter>) -> Engine {
    let mut engine = sandbox::engine(meter);
    deterministic_math(&mut engine);
    engine
}

/// The transcendental functions through `libm`, as the rest of the core computes them, so a
/// script gives the same numbers natively and in the page (registered functions take
/// precedence over rhai's own, which call the platform's).
#[cfg(feature = "script")]
fn deterministic_math(engine: &mut Engine) {
    type Unary = fn(f64) -> f64;
    let unary: [(&str, Unary); 13] = [
        ("ln", libm::log),
        ("log", libm::log10),
        ("exp", libm::exp),
        ("sin", libm::sin),
        ("cos", libm::cos),
        ("tan", libm::tan),
        ("asin", libm::asin),
        ("acos", libm::acos),
        ("atan", libm::atan),
        ("sinh", libm::sinh),
        ("cosh", libm::cosh),
        ("tanh", libm::tanh),
        ("cbrt", libm::cbrt),
    ];
    for (name, f) in unary {
        engine.register_fn(name, f);
    }
    engine.register_fn("log", |x: f64, base: f64| libm::log(x) / libm::log(base));
    engine.register_fn("pow", libm::pow);
}

/// A compiled script, ready to be called for each decision.
#[cfg(feature = "script")]
pub struct Program {
    engine: Engine,
    meter: Rc<Meter>,
    ast: AST,
    name: Option<String>,
    /// The source, for what it declares ([`Program::declared`]).
    source: String,
    /// The line `fn schedule` starts on.
    entry_line: Option<usize>,
    /// The calling lane's state, during a call ([`state`]).
    state: state::Slot,
}

#[cfg(feature = "script")]
impl std::fmt::Debug for Program {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Program({:?})", self.name)
    }
}

#[cfg(feature = "script")]
impl Program {
    /// Compiles `source` with a model's context registered by `register`, and runs its
    /// top-level code once (under the limits and a call's budget, so an endless loop there is
    /// refused here, wherever the script is built: a link decoded, the editor's check).
    pub fn compile<R: FnOnce(&mut Engine) + 'static>(source: &str, register: R) -> Result<Self, ScriptError> {
        source::check_length(source.len()).map_err(|m| ScriptError::new(None, m))?;
        let meter = Rc::new(Meter::default());
        let mut engine = engine(&meter);
        register(&mut engine);
        let ast = engine.compile(source).map_err(|e| {
            let mut kind = e.0.to_string();
            // It quotes the script, so cut it between characters.
            kind.truncate(kind.floor_char_boundary(200));
            ScriptError::new(syntax_error_line(source, &e), format!("syntax error: {kind}"))
        })?;
        if !ast.iter_functions().any(|f| f.name == ENTRY && f.params.len() == 1) {
            return Err(ScriptError::new(None, format!("it must define `fn {ENTRY}(ctx)`")));
        }
        top_level_verdict(source, std::any::TypeId::of::<R>(), || {
            meter.start(None);
            engine.run_ast(&ast).map(drop).map_err(|e| ScriptError::from_eval(&e, None))
        })?;
        let entry_line = source
            .lines()
            .position(|l| l.trim_start().strip_prefix("fn").is_some_and(|r| r.trim_start().starts_with(ENTRY)))
            .map(|i| i + 1);
        let state = state::Slot::default();
        Ok(Self {
            engine,
            meter,
            ast,
            name: source::declared_name(source),
            source: source.to_string(),
            entry_line,
            state,
        })
    }

    /// The name the script declares (`// name: …`).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// What the script declares of `key` (`// key: value`, [`source::declared`]).
    pub fn declared(&self, key: &str) -> Option<&str> {
        source::declared(&self.source, key)
    }

    /// The line `fn schedule` starts on, for errors of a call as a whole.
    pub fn entry_line(&self) -> Option<usize> {
        self.entry_line
    }

    /// Offers `ctx.state` ([`state`]) on the model's handle `H`.
    pub fn keep_state<H: context::Handle>(&mut self) {
        state::register::<H>(&mut self.engine, &self.state);
    }

    /// Calls `fn schedule(ctx)` with `ctx` and the lane's `state` (which it may change), under
    /// the limits and the budget left to `run` (which it then counts); what it returns is
    /// ignored (its decisions went through `ctx`).
    pub fn call(&self, ctx: Dynamic, run: &mut RunBudget, state: &mut Dynamic) -> Result<(), ScriptError> {
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(true);
        self.meter.start(Some(*run));
        std::mem::swap(&mut *self.state.borrow_mut(), state);
        let result = self.engine.call_fn_with_options::<Dynamic>(options, &mut Scope::new(), &self.ast, ENTRY, (ctx,));
        std::mem::swap(&mut *self.state.borrow_mut(), state);
        run.spent = run.spent.saturating_add(self.meter.spent());
        run.calls += 1;
        result.map(drop).map_err(|e| ScriptError::from_eval(&e, self.entry_line))
    }
}

/// What running `source`'s top-level code said, with the models' functions registered by a
/// `register` of type `registered`: `run` it, or recall what it said. Top-level code changes
/// nothing a call sees (a call starts from a fresh scope), so it matters only for what it may
/// refuse, and that is the same every time; recalling it spares the page running a costly
/// top level each time it builds the script (a link is decoded, then each lane is built).
#[cfg(feature = "script")]
fn top_level_verdict(
    source: &str,
    registered: std::any::TypeId,
    run: impl FnOnce() -> Result<(), ScriptError>,
) -> Result<(), ScriptError> {
    type Verdicts = std::collections::VecDeque<(String, std::any::TypeId, Result<(), ScriptError>)>;
    thread_local! {
        static RECENT: std::cell::RefCell<Verdicts> = const { std::cell::RefCell::new(Verdicts::new()) };
    }
    /// Sources remembered (at most 20 KB each).
    const KEPT: usize = 16;
    let known =
        RECENT.with(|r| r.borrow().iter().find(|(s, t, _)| s == source && *t == registered).map(|(.., v)| v.clone()));
    if let Some(verdict) = known {
        return verdict;
    }
    let verdict = run();
    RECENT.with(|r| {
        let mut recent = r.borrow_mut();
        if recent.len() == KEPT {
            recent.pop_front();
        }
        recent.push_back((source.to_string(), registered, verdict.clone()));
    });
    verdict
}

/// What is wrong with `source`, for an editor checking as the user types: empty when it
/// compiles, defines `fn schedule(ctx)` and its top-level code runs within the limits. (What
/// the script does with `ctx` is only checked when it runs.)
#[cfg(feature = "script")]
pub fn check(source: &str) -> Vec<ScriptError> {
    match Program::compile(source, |_| {}) {
        Ok(_) => Vec::new(),
        Err(e) => vec![e],
    }
}

/// The line a syntax error belongs to. The parser stops at the token after the mistake: a
/// missing `;` or `)` at the end of a line is found at the first token of the next one, so
/// where nothing but blanks precedes that token on its line, the error is the last non-blank
/// line's before it (where the writer must add the token).
#[cfg(feature = "script")]
fn syntax_error_line(source: &str, error: &rhai::ParseError) -> Option<usize> {
    let line = error.1.line()?;
    if !matches!(*error.0, rhai::ParseErrorType::MissingToken(..)) {
        return Some(line);
    }
    let lines: Vec<&str> = source.split('\n').collect();
    let column = error.1.position().unwrap_or(1);
    let blank_before =
        lines.get(line - 1).is_none_or(|l| l.chars().take(column.saturating_sub(1)).all(char::is_whitespace));
    if !blank_before {
        return Some(line);
    }
    (1..line).rev().find(|&l| !lines[l - 1].trim().is_empty()).or(Some(line))
}

/// The build leaves the script engine out (the page's first download, docs/web.md): what the
/// rest of the core names of it, standing in.
#[cfg(not(feature = "script"))]
mod absent;
#[cfg(not(feature = "script"))]
pub use absent::{Program, check, refused, set_clock, unbuilt};

/// Whether this build runs scripts: the page's first download leaves the engine out and loads
/// the build that has it when a script is used (docs/web.md, "Less to download").
pub const AVAILABLE: bool = cfg!(feature = "script");

#[cfg(test)]
mod tests;

/// What the models' tests of their scripts share.
#[cfg(test)]
pub(crate) mod testing;
