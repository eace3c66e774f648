//! The page's cores, shared between what runs on them at once: the race that plays (its
//! workers, [`crate::play::worker::client`]) and batches of runs (a sweep, a stability map,
//! [`crate::sweep::pool`]).
//!
//! The race comes first: it is what the person watches, and its lanes step in lockstep, so one
//! starved worker slows them all. A batch runs as many tasks at a time as the cores the playing
//! race leaves, shared equally with the other batches, and at least one, so it always moves on.
//! A paused race leaves every core to the batches. On 2 cores a sweep started beside a two-lane
//! race runs one task at a time while the race plays, and two while it is paused.
//!
//! The race keeps the workers it was split over when it started (one per lane, up to the cores):
//! splitting it again while it plays would mean building it again. A batch adapts at once,
//! handing out fewer tasks as its tasks end, or more to its waiting workers.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// Who uses the cores now.
#[derive(Default)]
pub struct Ledger {
    cores: usize,
    /// Workers of each race that plays now, by race.
    races: BTreeMap<u64, usize>,
    /// Batches under way, by ticket.
    batches: BTreeMap<u64, Rc<dyn Fn()>>,
    next_ticket: u64,
}

impl Ledger {
    pub fn new(cores: usize) -> Self {
        Self { cores: cores.max(1), ..Self::default() }
    }

    /// Tasks each batch runs at a time now.
    pub fn batch_share(&self) -> usize {
        let racing: usize = self.races.values().sum();
        let free = self.cores.saturating_sub(racing);
        (free / self.batches.len().max(1)).max(1)
    }

    /// Race `race` plays on `workers` workers (0: it stopped). Returns whether the batches'
    /// share changed.
    pub fn set_race(&mut self, race: u64, workers: usize) -> bool {
        let before = self.batch_share();
        if workers == 0 {
            self.races.remove(&race);
        } else {
            self.races.insert(race, workers);
        }
        self.batch_share() != before
    }

    /// A batch joins; `changed` is called whenever the share changes while it runs.
    pub fn join(&mut self, changed: Rc<dyn Fn()>) -> u64 {
        self.next_ticket += 1;
        self.batches.insert(self.next_ticket, changed);
        self.next_ticket
    }

    /// A batch leaves (done, stopped or dropped).
    pub fn leave(&mut self, ticket: u64) {
        self.batches.remove(&ticket);
    }

    fn listeners(&self) -> Vec<Rc<dyn Fn()>> {
        self.batches.values().cloned().collect()
    }
}

thread_local! {
    static LEDGER: RefCell<Option<Ledger>> = const { RefCell::new(None) };
}

/// The page's ledger, made on first use with the cores the browser reports.
fn with_ledger<T>(f: impl FnOnce(&mut Ledger) -> T) -> T {
    LEDGER.with_borrow_mut(|ledger| f(ledger.get_or_insert_with(|| Ledger::new(crate::dom::workers::cores()))))
}

/// Tells every batch that its share changed, once the task at hand is done: the change may come
/// from inside a batch's own bookkeeping (a stability map starting its next round holds its
/// state while it joins again), and a batch told at once would find its state borrowed.
fn tell_batches() {
    let listeners = with_ledger(|ledger| ledger.listeners());
    wasm_bindgen_futures::spawn_local(async move {
        for changed in listeners {
            changed();
        }
    });
}

/// Tasks a batch runs at a time now.
pub fn batch_share() -> usize {
    with_ledger(|ledger| ledger.batch_share())
}

/// Race `race` plays on `workers` workers, or stopped (0).
pub fn race_plays(race: u64, workers: usize) {
    if with_ledger(|ledger| ledger.set_race(race, workers)) {
        tell_batches();
    }
}

/// A batch's place in the ledger: it leaves when this is dropped.
pub struct BatchTicket(u64);

impl BatchTicket {
    /// Joins a batch; `changed` is called whenever its share changes.
    pub fn join(changed: impl Fn() + 'static) -> Self {
        let ticket = with_ledger(|ledger| ledger.join(Rc::new(changed)));
        tell_batches();
        Self(ticket)
    }
}

impl Drop for BatchTicket {
    fn drop(&mut self) {
        with_ledger(|ledger| ledger.leave(self.0));
        tell_batches();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_playing_race_comes_first_and_a_batch_keeps_at_least_one_core() {
        let mut ledger = Ledger::new(2);
        let sweep = ledger.join(Rc::new(|| {}));
        assert_eq!(ledger.batch_share(), 2, "alone, a sweep has every core");
        assert!(ledger.set_race(1, 2));
        assert_eq!(ledger.batch_share(), 1, "beside a two-worker race, one");
        assert!(!ledger.set_race(1, 2), "nothing changed");
        assert!(ledger.set_race(1, 0));
        assert_eq!(ledger.batch_share(), 2, "the race paused");
        ledger.leave(sweep);
        assert_eq!(ledger.batch_share(), 2);
    }

    #[test]
    fn batches_share_what_the_race_leaves_equally() {
        let mut ledger = Ledger::new(8);
        ledger.join(Rc::new(|| {}));
        let map = ledger.join(Rc::new(|| {}));
        assert_eq!(ledger.batch_share(), 4);
        ledger.set_race(7, 2);
        assert_eq!(ledger.batch_share(), 3);
        ledger.set_race(8, 3);
        assert_eq!(ledger.batch_share(), 1, "three cores left for two batches");
        ledger.set_race(7, 0);
        ledger.leave(map);
        assert_eq!(ledger.batch_share(), 5);
    }

    #[test]
    fn no_cores_reported_is_one() {
        let mut ledger = Ledger::new(0);
        ledger.join(Rc::new(|| {}));
        ledger.set_race(1, 4);
        assert_eq!(ledger.batch_share(), 1);
    }
}
