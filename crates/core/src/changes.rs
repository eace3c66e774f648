//! Changes of a run while it plays: a scenario's ordered list of (moment, key, value).
//!
//! A scenario carries its changes in its run window ([`crate::window::RunWindow::changes`]),
//! written as the key `change`: entries `T:KEY=VALUE` separated by `;` (a link's `change=`,
//! the CLI's `--change`). A key may change only if its row says what a change of it means
//! ([`crate::keys::Key::changes`]); its new value is checked against the key's own range.
//!
//! An engine never reads the list: [`Shifts::build`] turns it, once, into what the engine
//! changes at each moment (the arrival rates, computed by the model from the scenario as it is
//! after the changes up to then), and the engine compares its clock with the next moment only
//! (O(1) per event, nothing at all without changes). How each engine applies a shift so that
//! the run before it is bit for bit the run without it, and a change to the current value
//! changes nothing, is RES-93 (docs/resolutions.md).

use std::fmt;
use std::sync::Arc;

use crate::ConfigError;
use crate::keys::Key;

/// The key of the changes in links and `--set`.
pub const KEY: &str = "change";

/// Most changes a scenario may carry (a link's or a page's list stays small; each change costs
/// a copy of the scenario when a run starts and a line of the recovery report).
pub const MAX_CHANGES: usize = 64;

/// What the key's range says.
pub const RANGE: &str = "entries T:KEY=VALUE separated by ';' (T a whole moment in 0..horizon, KEY a key that can \
                         change, VALUE in KEY's own range), at most 64, one per key and moment; empty for none";

/// One change: from moment `at` on, `key` has the value `value` (its text form).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub at: u64,
    pub key: String,
    pub value: String,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}={}", self.at, self.key, self.value)
    }
}

/// A scenario's changes, ordered by moment (entries of one moment in the order given).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Changes(Vec<Change>);

impl Changes {
    /// No change.
    pub const NONE: Changes = Changes(Vec::new());

    /// Reads `T:KEY=VALUE;...`: the form of each entry, the cap and one change per key and
    /// moment. What depends on the scenario (the key, its value, the horizon) is checked by
    /// [`Changes::check`].
    pub fn parse(text: &str) -> Result<Self, ConfigError> {
        let mut list: Vec<Change> = Vec::new();
        for entry in text.split(';').map(str::trim).filter(|e| !e.is_empty()) {
            if list.len() == MAX_CHANGES {
                return Err(ConfigError::new(KEY, format!("more than {MAX_CHANGES} changes; at most {MAX_CHANGES}")));
            }
            let bad = |why: &str| ConfigError::new(KEY, format!("entry '{entry}': {why}; give {RANGE}"));
            let (at, rest) = entry.split_once(':').ok_or_else(|| bad("no ':' after the moment"))?;
            let (key, value) = rest.split_once('=').ok_or_else(|| bad("no '=' between the key and its value"))?;
            let at: u64 = at.trim().parse().map_err(|_| bad("the moment is not a whole number"))?;
            let (key, value) = (key.trim(), value.trim());
            if key.is_empty() || value.is_empty() {
                return Err(bad("the key or the value is empty"));
            }
            if list.iter().any(|c| c.at == at && c.key == key) {
                return Err(bad(&format!("{key} already changes at {at}; one change per key and moment")));
            }
            list.push(Change { at, key: key.to_string(), value: value.to_string() });
        }
        // Stable: entries of one moment keep their order.
        list.sort_by_key(|c| c.at);
        Ok(Self(list))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Change> {
        self.0.iter()
    }

    /// These changes with `key` set to `value` at `at` in place of every change from `at` on:
    /// what moving a knob at moment `at` of a playing run makes (RES-96). What the run was
    /// told to do after `at` belonged to the future it leaves.
    pub fn made_at(&self, at: u64, key: &str, value: &str) -> Changes {
        let mut list: Vec<Change> = self.0.iter().filter(|c| c.at < at).cloned().collect();
        list.push(Change { at, key: key.to_string(), value: value.to_string() });
        Self(list)
    }

    /// The changes before moment `at`.
    pub fn before(&self, at: u64) -> &[Change] {
        &self.0[..self.0.iter().take_while(|c| c.at < at).count()]
    }

    /// The first moment at which `self` and `other` differ (`None` when they are the same).
    pub fn first_difference(&self, other: &Changes) -> Option<u64> {
        let common = self.0.iter().zip(&other.0).take_while(|(a, b)| a == b).count();
        let first = |c: &Changes| c.0.get(common).map_or(u64::MAX, |c| c.at);
        let at = first(self).min(first(other));
        (at != u64::MAX).then_some(at)
    }

    /// The value of `key` in force at moment `at`: its last change at or before `at`, if any.
    pub fn value_at(&self, key: &str, at: u64) -> Option<&str> {
        self.0.iter().rev().find(|c| c.at <= at && c.key == key).map(|c| c.value.as_str())
    }

    /// The distinct moments, in order.
    pub fn moments(&self) -> Vec<u64> {
        let mut at: Vec<u64> = self.0.iter().map(|c| c.at).collect();
        at.dedup();
        at
    }

    /// Checks every change against the scenario's keys and horizon: the key is known and can
    /// change, the moment falls in `0..horizon`, and the value is in the key's range (checked
    /// on a copy of `scenario`, by the key's own parser). Errors name the entry.
    pub fn check<S: Clone>(&self, scenario: &S, keys: &[Key<S>], horizon: u64) -> Result<(), ConfigError> {
        for c in &self.0 {
            let bad = |why: String| ConfigError::new(KEY, format!("entry '{c}': {why}"));
            let row = keys
                .iter()
                .find(|k| k.key == c.key)
                .ok_or_else(|| bad(format!("unknown key; keys that can change: {}", changeable(keys).join(", "))))?;
            if row.changes.is_none() {
                let why = row.fixed.map(|why| format!(" ({why})")).unwrap_or_default();
                return Err(bad(format!(
                    "{} cannot change while a run plays{why}; keys that can: {}",
                    c.key,
                    changeable(keys).join(", ")
                )));
            }
            if c.at >= horizon {
                return Err(bad(format!("the moment must be in 0..{horizon} (below the horizon)")));
            }
            row.set(&mut scenario.clone(), &c.value).map_err(|e| bad(format!("{} {}", e.key, e.message)))?;
        }
        Ok(())
    }
}

impl fmt::Display for Changes {
    /// The text [`Changes::parse`] reads back: `T:KEY=VALUE;...` in order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(";")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// The keys of `keys` that can change.
pub fn changeable<S>(keys: &[Key<S>]) -> Vec<&'static str> {
    keys.iter().filter(|k| k.changes.is_some()).map(|k| k.key).collect()
}

/// Builds the list of shifts for other changes of the same scenario (a change made while the
/// run plays), or refuses them naming the entry.
type Rebuild<T> = Arc<dyn Fn(&Changes) -> Result<Vec<(u64, T)>, ConfigError> + Send + Sync>;

/// What an engine changes, moment by moment: `T` is the model's (the arrival rates). The
/// engine asks only for the next moment ([`Shifts::next_at`]), so a run without changes pays
/// one comparison per slot or event.
pub struct Shifts<T> {
    list: Vec<(u64, T)>,
    next: usize,
    /// The changes the list was built from.
    changes: Changes,
    /// How the list is built from the scenario as it started: shared by the clones of a run
    /// (it is immutable), so a checkpoint costs no copy of the scenario.
    rebuild: Option<Rebuild<T>>,
}

impl<T: Clone> Clone for Shifts<T> {
    fn clone(&self) -> Self {
        Self { list: self.list.clone(), next: self.next, changes: self.changes.clone(), rebuild: self.rebuild.clone() }
    }
}

impl<T: fmt::Debug> fmt::Debug for Shifts<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shifts").field("list", &self.list).field("next", &self.next).finish()
    }
}

impl<T> Default for Shifts<T> {
    fn default() -> Self {
        Self { list: Vec::new(), next: 0, changes: Changes::NONE, rebuild: None }
    }
}

impl<T: 'static> Shifts<T> {
    /// For each moment of `scenario`'s changes, `what` of the scenario as it is once every
    /// change up to that moment is made (keys set through their rows; the changes were
    /// checked by [`Changes::check`], so a value that does not set is left out).
    /// `horizon` is the scenario's (what a later list is checked against).
    pub fn build<S>(
        scenario: &S,
        changes: &Changes,
        horizon: u64,
        keys: &'static [Key<S>],
        what: impl Fn(&S) -> T + Send + Sync + 'static,
    ) -> Self
    where
        S: Clone + Send + Sync + 'static,
    {
        let list = list_for(scenario, changes, keys, &what);
        let base = scenario.clone();
        let rebuild: Rebuild<T> = Arc::new(move |changes: &Changes| {
            changes.check(&base, keys, horizon)?;
            Ok(list_for(&base, changes, keys, &what))
        });
        Self { list, next: 0, changes: changes.clone(), rebuild: Some(rebuild) }
    }
}

/// The shifts of `changes` on `scenario` (see [`Shifts::build`]).
fn list_for<S: Clone, T>(scenario: &S, changes: &Changes, keys: &[Key<S>], what: &impl Fn(&S) -> T) -> Vec<(u64, T)> {
    let mut now = scenario.clone();
    let mut list = Vec::new();
    for at in changes.moments() {
        for c in changes.iter().filter(|c| c.at == at) {
            if let Some(row) = keys.iter().find(|k| k.key == c.key) {
                let _ = row.set(&mut now, &c.value);
            }
        }
        list.push((at, what(&now)));
    }
    list
}

impl<T> Shifts<T> {
    /// The next moment a shift is due, `u64::MAX` when none is left.
    #[inline]
    pub fn next_at(&self) -> u64 {
        self.list.get(self.next).map_or(u64::MAX, |(at, _)| *at)
    }

    /// The next moment as a time (infinite when none is left).
    #[inline]
    pub fn next_time(&self) -> f64 {
        self.list.get(self.next).map_or(f64::INFINITY, |(at, _)| *at as f64)
    }

    /// Takes the next shift.
    pub fn take(&mut self) -> Option<&T> {
        let shift = self.list.get(self.next).map(|(_, t)| t);
        self.next += 1;
        shift
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// What each shift sets, in order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.list.iter().map(|(_, t)| t)
    }

    /// The moments of the shifts, in order.
    pub fn moments(&self) -> Vec<u64> {
        self.list.iter().map(|(at, _)| *at).collect()
    }

    /// The changes the shifts are of.
    pub fn changes(&self) -> &Changes {
        &self.changes
    }

    /// Takes `changes` in place of the run's from moment `open` on, the first moment whose
    /// shift the engine has not made (RES-96): the changes before it are made and must stay as
    /// they are. The run so far is then the run that had `changes` from the start (before its
    /// first change a run is the run without it, RES-93), and what the engine does from `open`
    /// on is theirs.
    pub fn amend(&mut self, changes: &Changes, open: u64) -> Result<(), ConfigError> {
        if changes.before(open) != self.changes.before(open) {
            let made = Changes(self.changes.before(open).to_vec());
            let made = if made.is_empty() { "none".to_string() } else { made.to_string() };
            return Err(ConfigError::new(
                KEY,
                format!(
                    "the run is at moment {open}: the changes before it are made ({made}) and must stay as they are"
                ),
            ));
        }
        let rebuild =
            self.rebuild.as_ref().ok_or_else(|| ConfigError::new(KEY, "this run takes no change while it plays"))?;
        let list = rebuild(changes)?;
        self.next = list.iter().take_while(|(at, _)| *at < open).count();
        self.list = list;
        self.changes = changes.clone();
        Ok(())
    }
}

/// The memoryless rescaling of an exponential clock at a rate change (RES-93): an event due
/// at `due` of a Poisson stream of rate `old`, when the rate becomes `new` at `at` (`at <=
/// due`), is due at `at + (due - at)·old/new`. The same uniform draw then carries the stream
/// on, and a change to the same rate leaves `due` untouched, bit for bit.
pub fn rescale(due: f64, at: f64, old: f64, new: f64) -> f64 {
    if old == new || !due.is_finite() {
        return due;
    }
    at + (due - at) * (old / new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone)]
    struct S {
        load: f64,
        n: u64,
    }

    const KEYS: &[Key<S>] = &[
        Key::real("load", 0.0, 10.0, |s: &S| s.load, |s: &mut S, v| s.load = v).changes("arrival rates"),
        Key::int("n", 1, 9, |s: &S| s.n, |s: &mut S, v| s.n = v),
    ];

    #[test]
    fn parses_orders_and_prints_back() {
        let c = Changes::parse(" 12000:load=0.5 ; 5000 : load = 1.3;").unwrap();
        assert_eq!(c.to_string(), "5000:load=1.3;12000:load=0.5");
        assert_eq!(Changes::parse(&c.to_string()).unwrap(), c);
        assert_eq!(c.moments(), [5000, 12000]);
        assert!(Changes::parse("").unwrap().is_empty());
    }

    #[test]
    fn refuses_naming_the_entry_and_the_range() {
        let s = S { load: 0.5, n: 2 };
        for (text, says) in [
            ("5000load=1", "no ':'"),
            ("5000:load1", "no '='"),
            ("x:load=1", "whole number"),
            ("-1:load=1", "whole number"),
            ("5:load=1;5:load=2", "one change per key and moment"),
        ] {
            let e = Changes::parse(text).unwrap_err();
            assert_eq!(e.key, KEY);
            assert!(e.message.contains(says), "{text}: {e}");
        }
        let many = (0..=MAX_CHANGES).map(|i| format!("{i}:load=1")).collect::<Vec<_>>().join(";");
        assert!(Changes::parse(&many).unwrap_err().message.contains("at most 64"));
        for (text, says) in [
            ("5:speed=1", "unknown key; keys that can change: load"),
            ("5:n=3", "n cannot change"),
            ("100:load=1", "0..100"),
            ("5:load=11", "(0, 10]"),
            ("5:load=0", "(0, 10]"),
        ] {
            let e = Changes::parse(text).unwrap().check(&s, KEYS, 100).unwrap_err();
            assert!(e.message.contains(says) && e.message.contains(text), "{text}: {e}");
        }
        Changes::parse("0:load=2;99:load=0.1").unwrap().check(&s, KEYS, 100).unwrap();
    }

    #[test]
    fn shifts_follow_the_moments() {
        let s = S { load: 0.5, n: 2 };
        let c = Changes::parse("9:load=2;3:load=1").unwrap();
        let mut shifts = Shifts { list: list_for(&s, &c, KEYS, &|s: &S| s.load), next: 0, changes: c, rebuild: None };
        assert_eq!((shifts.next_at(), shifts.take()), (3, Some(&1.0)));
        assert_eq!((shifts.next_at(), shifts.take()), (9, Some(&2.0)));
        assert_eq!(shifts.next_at(), u64::MAX);
        assert_eq!(shifts.next_time(), f64::INFINITY);
    }

    #[test]
    fn rescaling_keeps_the_same_rate_exact() {
        for (due, at) in [(0.1 + 0.2, 0.0), (1e9 + 0.3, 7.0), (5.5, 5.0)] {
            assert_eq!(rescale(due, at, 0.3, 0.3).to_bits(), due.to_bits());
        }
        assert_eq!(rescale(12.0, 10.0, 1.0, 2.0), 11.0);
        assert_eq!(rescale(f64::INFINITY, 10.0, 1.0, 2.0), f64::INFINITY);
    }
}
