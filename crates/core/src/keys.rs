//! Scenario keys, each declared once as a row: its name, its label in the page's form, what it
//! means, how the page asks for it, and its value: a range and the field it reads and writes.
//!
//! Everything a user sees of a key comes from its row, so the text cannot drift from the
//! check: `presets --describe` prints [`Key::range`], a rejected value's message quotes the
//! same range, the page builds its form fields from the rows ([`Key::input`]), and links
//! read and write values through [`Key::get`] and [`Key::set`].

use crate::ConfigError;

/// The load knob's key, the same in every model.
pub const LOAD: &str = "load";
/// The keys of the run window, the same in every model.
pub const SEED: &str = "seed";
pub const HORIZON: &str = "horizon";
pub const WARMUP: &str = "warmup";
pub const SAMPLE_EVERY: &str = "sample_every";

/// One settable key of a scenario of type `S`.
pub struct Key<S: 'static> {
    /// The name in `--set KEY=VALUE`, links and form ids.
    pub key: &'static str,
    /// The label of its form field ("Servers L"); the key itself when empty.
    pub label: &'static str,
    /// What it means.
    pub help: &'static str,
    /// How the page asks for it.
    pub input: Input,
    pub value: Value<S>,
    /// A relation to other keys that [`crate::scenario::Scenario::validate`] checks (e.g.
    /// "below the horizon"), shown after the range.
    pub relation: Option<&'static str>,
    /// A file the key's value may be read from (a table as CSV): what it holds, and how its
    /// text becomes the key's text form.
    pub file: Option<KeyFile>,
    /// What a change of the key while a run plays means (`None`: it cannot change; see
    /// [`crate::changes`]).
    pub changes: Option<&'static str>,
    /// Why the key cannot change while a run plays, where the reason is particular to it (the
    /// run window's keys need none); the refusal and `presets --describe` quote it.
    pub fixed: Option<&'static str>,
    /// Whether a run already playing can take a change of it (a live knob in the page).
    pub live: Live<S>,
}

/// Which changes of a key a run already playing can take.
pub enum Live<S: 'static> {
    /// Any value in the key's range.
    Any,
    /// None: a change of the key is read when a run starts.
    No,
    /// Values a run of this scenario was built for: the function says why a run of the
    /// scenario cannot take the value, if it cannot (PG-RR's servers past the count its cluster
    /// and its policy's indexes were built for, GH-RA's fleet past the largest fleet of its
    /// changes); such a value needs a run built anew.
    Within(fn(&S, &str) -> Option<String>),
}

impl<S> Clone for Live<S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for Live<S> {}

/// A file a key's value may be read from (the page's upload, the CLI's `--set-file`).
#[derive(Debug, Clone, Copy)]
pub struct KeyFile {
    /// What the file holds: "a CSV of need, probability, mean_size".
    pub holds: &'static str,
    /// The file picker's accept list: ".csv,text/csv".
    pub accept: &'static str,
    /// The file's text as the key's text form; errors name the line.
    pub read: fn(&str) -> Result<String, ConfigError>,
}

/// What values a key takes and where they go.
pub enum Value<S: 'static> {
    /// An integer in `lo..=hi`.
    Int { lo: u64, hi: u64, get: fn(&S) -> u64, set: fn(&mut S, u64) },
    /// A finite number in `(above, hi]`.
    Real { above: f64, hi: f64, get: fn(&S) -> f64, set: fn(&mut S, f64) },
    /// A structured value with its own parser; `range` is the parser's own description.
    Text { range: &'static str, get: fn(&S) -> String, set: fn(&mut S, &str) -> Result<(), ConfigError> },
}

/// How the page's form asks for a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// A number box.
    Number,
    /// A short text box.
    Text,
    /// The model's load knob: a slider with the theory's marks, and the exact value.
    Load,
    /// A long text on a row of its own (a fleet, a list of types).
    Wide,
    /// A structured editor with the text beside it.
    Editor(Editor),
    /// Not in the form (the warm-up, the series grid): set by the CLI and links.
    Hidden,
}

/// The page's structured editors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Editor {
    /// A job-size distribution: discrete sizes with probabilities, or a uniform range.
    Sizes,
    /// A job-class table (need, probability, mean size), with a CSV upload.
    Classes,
    /// Job types, with a task-trace upload.
    Types,
    /// A workload trace: none, a synthetic one, or a file picked or dropped.
    Trace,
}

impl<S> Clone for Key<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Key<S> {}
impl<S> Clone for Value<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for Value<S> {}

impl<S> Key<S> {
    /// An integer key in `lo..=hi`, shown as a number box.
    pub const fn int(key: &'static str, lo: u64, hi: u64, get: fn(&S) -> u64, set: fn(&mut S, u64)) -> Self {
        Self::new(key, Input::Number, Value::Int { lo, hi, get, set })
    }

    /// A number key in `(above, hi]`, shown as a text box (decimals).
    pub const fn real(key: &'static str, above: f64, hi: f64, get: fn(&S) -> f64, set: fn(&mut S, f64)) -> Self {
        Self::new(key, Input::Text, Value::Real { above, hi, get, set })
    }

    /// A key with its own parser (`set` names the key in its errors).
    pub const fn text(
        key: &'static str,
        range: &'static str,
        get: fn(&S) -> String,
        set: fn(&mut S, &str) -> Result<(), ConfigError>,
    ) -> Self {
        Self::new(key, Input::Text, Value::Text { range, get, set })
    }

    const fn new(key: &'static str, input: Input, value: Value<S>) -> Self {
        Self {
            key,
            label: "",
            help: "",
            input,
            value,
            relation: None,
            file: None,
            changes: None,
            fixed: None,
            live: Live::Any,
        }
    }

    pub const fn label(self, label: &'static str) -> Self {
        Self { label, ..self }
    }

    pub const fn help(self, help: &'static str) -> Self {
        Self { help, ..self }
    }

    pub const fn input(self, input: Input) -> Self {
        Self { input, ..self }
    }

    pub const fn hidden(self) -> Self {
        self.input(Input::Hidden)
    }

    pub const fn relation(self, relation: &'static str) -> Self {
        Self { relation: Some(relation), ..self }
    }

    /// The value may be read from a file.
    pub const fn file(self, file: KeyFile) -> Self {
        Self { file: Some(file), ..self }
    }

    /// The key can change while a run plays ([`crate::changes`]); `meaning` says what a change
    /// does ("arrival rates from that moment on"), as `presets --describe` lists it.
    pub const fn changes(self, meaning: &'static str) -> Self {
        Self { changes: Some(meaning), ..self }
    }

    /// The key cannot change while a run plays, for the reason `why` (a sentence without its
    /// full stop: "the one-or-all class needs every core").
    pub const fn fixed(self, why: &'static str) -> Self {
        Self { fixed: Some(why), ..self }
    }

    /// A change of the key is read when a run starts (the run is built for it), never taken by
    /// a run already playing: a page's knob of it starts the race again.
    pub const fn not_live(self) -> Self {
        Self { live: Live::No, ..self }
    }

    /// A run already playing takes a change of the key unless `refusal(scenario, value)` says
    /// why a run of the scenario was not built for the value (see [`more_than`] for a count);
    /// such a value starts the race again.
    pub const fn live_within(self, refusal: fn(&S, &str) -> Option<String>) -> Self {
        Self { live: Live::Within(refusal), ..self }
    }

    /// Why a run of `scenario` already playing cannot take `value` for this key, if it cannot
    /// (`None` for a value it can take, or one that is not a number where a limit applies:
    /// the key's own check names that).
    pub fn live_refusal(&self, scenario: &S, value: &str) -> Option<String> {
        match self.live {
            Live::Any => None,
            Live::No => Some(format!("{} cannot change while a race plays", self.form_label())),
            Live::Within(refusal) => refusal(scenario, value.trim()),
        }
    }

    /// The allowed values, as the error message and `presets --describe` state them.
    pub fn range(&self) -> String {
        let range = match self.value {
            Value::Int { lo, hi, .. } => format!("an integer in {lo}..={hi}"),
            Value::Real { above, hi, .. } => format!("a number in ({above}, {hi}]"),
            Value::Text { range, .. } => range.to_string(),
        };
        match self.relation {
            Some(relation) => format!("{range}, {relation}"),
            None => range,
        }
    }

    /// The value in `scenario`, as text that [`Key::set`] accepts.
    pub fn get(&self, scenario: &S) -> String {
        match self.value {
            Value::Int { get, .. } => get(scenario).to_string(),
            Value::Real { get, .. } => get(scenario).to_string(),
            Value::Text { get, .. } => get(scenario),
        }
    }

    /// Parses and checks `value` and writes it; on error `scenario` is unchanged and the error
    /// names the key and its range.
    pub fn set(&self, scenario: &mut S, value: &str) -> Result<(), ConfigError> {
        match self.value {
            Value::Int { lo, hi, set, .. } => {
                let bad = || ConfigError::new(self.key, format!("must be an integer in {lo}..={hi} (got '{value}')"));
                let v: u64 = value.trim().parse().map_err(|_| bad())?;
                if !(lo..=hi).contains(&v) {
                    return Err(bad());
                }
                set(scenario, v);
            }
            Value::Real { above, hi, set, .. } => {
                let bad = || ConfigError::new(self.key, format!("must be a number in ({above}, {hi}] (got '{value}')"));
                let v: f64 = value.trim().parse().map_err(|_| bad())?;
                if !(v.is_finite() && v > above && v <= hi) {
                    return Err(bad());
                }
                set(scenario, v);
            }
            Value::Text { set, .. } => set(scenario, value)?,
        }
        Ok(())
    }

    /// The form label: the declared one, or the key.
    pub fn form_label(&self) -> &'static str {
        if self.label.is_empty() { self.key } else { self.label }
    }
}

/// A key as every model's scenario presents it, without its type: for listings, help texts
/// and the page's form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyInfo {
    pub key: &'static str,
    pub label: &'static str,
    pub help: &'static str,
    pub input: Input,
    /// See [`Key::range`].
    pub range: String,
    /// What a file for it holds and the picker accepts, if its value may be read from one.
    pub file: Option<(&'static str, &'static str)>,
    /// What a change of it while a run plays means, if it can change ([`Key::changes`]).
    pub changes: Option<&'static str>,
    /// Why it cannot change while a run plays, if the key says ([`Key::fixed`]).
    pub fixed: Option<&'static str>,
    /// Whether a playing run takes a change of it ([`Key::live`]).
    pub live: bool,
}

impl<S> From<&Key<S>> for KeyInfo {
    fn from(k: &Key<S>) -> Self {
        Self {
            key: k.key,
            label: k.form_label(),
            help: k.help,
            input: k.input,
            range: k.range(),
            file: k.file.map(|f| (f.holds, f.accept)),
            changes: k.changes,
            fixed: k.fixed,
            live: !matches!(k.live, Live::No),
        }
    }
}

/// Why a run built for at most `most` of a count cannot take `value` (a [`Live::Within`] of a
/// count): `None` up to `most`, and for a value that is not a number (the key's own check names
/// that).
pub fn more_than(most: u64, value: &str) -> Option<String> {
    let asked: u64 = value.trim().parse().ok()?;
    (asked > most).then(|| format!("this race was built for at most {most}"))
}

/// The error of a key no row declares.
pub fn unknown_key<S>(keys: &[Key<S>], key: &str) -> ConfigError {
    let known: Vec<_> = keys.iter().map(|k| k.key).collect();
    ConfigError::new(key, format!("unknown key; known keys: {}", known.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct S {
        n: u64,
        x: f64,
    }

    const N: Key<S> = Key::int("n", 1, 10, |s: &S| s.n, |s: &mut S, v| s.n = v).relation("below x");
    const X: Key<S> = Key::real("x", 0.0, 2.5, |s: &S| s.x, |s: &mut S, v| s.x = v);

    #[test]
    fn the_message_quotes_the_range_the_row_states() {
        let mut s = S { n: 3, x: 1.0 };
        assert_eq!(N.range(), "an integer in 1..=10, below x");
        assert_eq!(X.range(), "a number in (0, 2.5]");
        for (key, value) in [(N, "0"), (N, "11"), (N, "x"), (N, "1.5"), (X, "0"), (X, "NaN"), (X, "inf"), (X, "3")] {
            let e = key.set(&mut s, value).unwrap_err();
            assert_eq!(e.key, key.key);
            let allowed = key.range().split(", below").next().unwrap().to_string();
            assert!(e.message.contains(&allowed), "{e}");
        }
        assert_eq!((s.n, s.x), (3, 1.0), "a rejected value changes nothing");
        N.set(&mut s, " 7 ").unwrap();
        X.set(&mut s, "2.5").unwrap();
        assert_eq!((N.get(&s), X.get(&s)), ("7".to_string(), "2.5".to_string()));
    }
}
