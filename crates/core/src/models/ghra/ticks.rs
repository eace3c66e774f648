//! GH-RA's Poisson clocks, simulated by the ticks that can act (thinning and superposition).
//!
//! Each queue has a clock of rate exp(f(Q)) (GH-RA §III–IV). At a tick the clock tries one
//! server (its own server for Algorithm 2's queue (ℓ, j); a uniformly random one of the L for
//! Algorithm 1's and the LOSS system's central queue j) and starts a job of its type there,
//! real or dummy, if one fits; otherwise the tick changes nothing. Ticks that change nothing
//! were nearly all of the engine's events (about 6 500 per time unit on 100 servers, where
//! jobs arrive at 180), and their number grew with the queues.
//!
//! Simulated here, the same process in law, with only the ticks that act:
//!
//! - **Thinning.** Clock (ℓ, j) at rate r acts exactly when its tick finds room for a type-j
//!   job on ℓ. Between events nothing moves, so its acting ticks are a Poisson process of rate
//!   r·1{j fits ℓ}. A central clock of rate r tries each server with probability 1/L, so its
//!   acting ticks have rate r·F_j/L, F_j the servers a type-j job fits now, and the server it
//!   acts on is uniform over those F_j.
//! - **Superposition.** Independent Poisson processes add up: the next acting tick of any
//!   clock comes at rate R = the sum of those rates, and it is clock i's with probability
//!   (its rate)/R. The rates sit in a [`SumTree`] with one leaf per group of J clocks (the
//!   central clocks, then each server's), so drawing the clock and updating a rate cost
//!   O(J + log L). A server that is full for every type weighs nothing: its clocks cost no
//!   event however long its queues (the overloaded runs' cost per time unit no longer grows
//!   with the queue).
//! - **One exponential clock for R, by its integrated rate.** The next tick comes when
//!   ∫R dt since the last tick reaches an Exp(1) draw; when an event changes R, the part used
//!   so far is subtracted and the rest is spent at the new rate (the time-change
//!   representation of a Poisson process of varying rate; exact, and it draws nothing when R
//!   changes).
//!
//! The paper's footnote re-draws a clock when its queue changes (RES-50); by memorylessness a
//! re-draw and a continued clock of the new rate are the same process, which is what lets
//! one Exp(1) serve every change. Everything is drawn from the policy's stream, as the
//! clocks were before, so the jobs keep their common random numbers.
//!
//! [`ClockMode::EveryTick`] simulates every tick of every clock (each its own event on the
//! heap, re-drawn when its rate changes, stale ones dropped; the engine before issue 57): the
//! reference the thinned clocks are tested against (`thinning_tests.rs`).

use super::state::{Event, GhraState, QueueRef};
use crate::des::{Clocks, EventQueue, Tick};
use crate::index::SumTree;
use crate::rng::StreamRng;
use crate::workload::sample;
use rand::RngExt;

/// How the engine simulates the clocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClockMode {
    /// Only the ticks that act, drawn from the superposition of the clocks that can act.
    #[default]
    Thinned,
    /// Every tick of every clock, one heap event each (the reference of the tests).
    EveryTick,
}

/// The servers a type fits now, for drawing a central clock's server uniformly among them.
#[derive(Debug, Clone)]
struct Room {
    /// Per type, the servers it fits, in no particular order.
    members: Vec<Vec<u32>>,
    /// `pos[ℓ·J + j]`: server ℓ's place in `members[j]`, or `u32::MAX`.
    pos: Vec<u32>,
}

/// The clocks of a run.
#[derive(Debug, Clone)]
pub(crate) struct Ticks {
    mode: ClockMode,
    types: usize,
    servers: usize,
    /// The servers that take jobs (RES-97): a central clock tries one of these uniformly. The
    /// others have no room, so no clock acts on them.
    active: usize,
    /// Whether a clock has been armed: MaxWeight arms none and pays nothing here.
    armed: bool,
    /// `fits[ℓ·J + j]`: whether one more type-j job fits server ℓ now.
    fits: Vec<bool>,
    /// Kept once a central clock is armed.
    room: Option<Room>,
    /// Leaf 0: the central clocks' acting rates; leaf 1 + ℓ: server ℓ's clocks'.
    tree: SumTree,
    /// The total rate the pending tick was set under, the Exp(1) budget left at `since`, and
    /// the time of the next tick (infinite when nothing can act).
    total: f64,
    budget: f64,
    since: f64,
    next: f64,
    /// [`ClockMode::EveryTick`]: the version of each clock's pending heap event.
    versions: Clocks,
}

impl Ticks {
    pub(crate) fn new(servers: usize, types: usize, mode: ClockMode) -> Self {
        Self {
            mode,
            types,
            servers,
            active: servers,
            armed: false,
            fits: Vec::new(),
            room: None,
            tree: SumTree::new(servers + 1),
            total: 0.0,
            budget: 0.0,
            since: 0.0,
            next: f64::INFINITY,
            versions: Clocks::new(types * (servers + 1)),
        }
    }

    pub(crate) fn mode(&self) -> ClockMode {
        self.mode
    }

    /// Clock `clock`'s rate is now `state.rates[clock]` (> 0): from `now` on it ticks at it.
    pub(crate) fn arm(
        &mut self,
        clock: usize,
        now: f64,
        state: &GhraState,
        events: &mut EventQueue<Event>,
        rng: &mut StreamRng,
    ) {
        if self.mode == ClockMode::EveryTick {
            self.every_tick_arm(clock as u32, now, state.rates[clock], events, rng);
            return;
        }
        if !self.armed {
            // The first Exp(1) is drawn here, not when the run starts, so a policy without
            // clocks draws nothing it did not draw before.
            self.armed = true;
            self.fits = (0..self.servers)
                .flat_map(|l| (0..self.types).map(move |j| (l, j)))
                .map(|(l, j)| state.fits(j, l))
                .collect();
            self.budget = sample::exponential(rng, 1.0);
            self.since = now;
        }
        let group = clock / self.types;
        if group == 0 && self.room.is_none() {
            self.room = Some(self.build_room());
        }
        self.reweigh(group, state);
    }

    /// Servers `0..active` take jobs from now on (RES-97): a central clock tries one of them
    /// uniformly, so its rate of acting ticks on each is r/active. The servers that stopped or
    /// started taking jobs have been passed to [`Ticks::server_changed`] (their room moved).
    pub(crate) fn set_active(&mut self, active: usize, state: &GhraState) {
        self.active = active;
        if self.armed && self.room.is_some() {
            self.reweigh(0, state);
        }
    }

    /// Server `server`'s jobs changed (a start or a departure): which types fit it now.
    pub(crate) fn server_changed(&mut self, server: usize, state: &GhraState) {
        if !self.armed {
            return;
        }
        let (mut changed, mut central) = (false, false);
        // One type fits when its demand fits the room left (the same as `state.fits`: what is
        // used never exceeds the capacity, so the difference is exact).
        let free = state.capacities[server].minus(&state.used[server]);
        for j in 0..self.types {
            let slot = server * self.types + j;
            let fits = state.demands[j].fits_in(&free);
            if fits == self.fits[slot] {
                continue;
            }
            self.fits[slot] = fits;
            changed = true;
            if let Some(room) = &mut self.room {
                central = true;
                if fits {
                    room.pos[slot] = room.members[j].len() as u32;
                    room.members[j].push(server as u32);
                } else {
                    let at = std::mem::replace(&mut room.pos[slot], u32::MAX) as usize;
                    room.members[j].swap_remove(at);
                    if let Some(&moved) = room.members[j].get(at) {
                        room.pos[moved as usize * self.types + j] = at as u32;
                    }
                }
            }
        }
        // No type started or stopped fitting: no rate moved (most starts and departures on a
        // server with room for several jobs).
        if changed {
            self.reweigh(1 + server, state);
        }
        if central {
            self.reweigh(0, state);
        }
    }

    /// After an event: if it changed the total rate, the pending tick moves. The Exp(1)
    /// budget spent at the old rate since the last change is subtracted; the rest is spent at
    /// the new one.
    pub(crate) fn settle(&mut self, now: f64) {
        let total = self.tree.total();
        if total.to_bits() == self.total.to_bits() || self.mode == ClockMode::EveryTick {
            return;
        }
        if self.total > 0.0 {
            self.budget = (self.budget - self.total * (now - self.since)).max(0.0);
        }
        self.since = now;
        self.total = total;
        self.next = if total > 0.0 { now + self.budget / total } else { f64::INFINITY };
    }

    /// The time of the next acting tick, if any clock can act.
    pub(crate) fn next(&self) -> Option<f64> {
        self.next.is_finite().then_some(self.next)
    }

    /// The tick due now: which clock's queue, and the server it acts on (the job fits there).
    /// A fresh Exp(1) budget starts for the next one.
    pub(crate) fn fire(&mut self, now: f64, state: &GhraState, rng: &mut StreamRng) -> (QueueRef, u32) {
        let u = rng.random::<f64>() * self.tree.total();
        let (group, mut u) = self.tree.find(u).expect("a tick is due only while a clock can act");
        let mut chosen = None;
        for j in 0..self.types {
            let w = self.weight(group, j, state);
            if w > 0.0 {
                chosen = Some(j);
                if u < w {
                    break;
                }
                u -= w;
            }
        }
        let j = chosen.expect("a group of positive weight has a clock that can act");
        let queue = match group {
            0 => {
                let members = &self.room.as_ref().expect("kept while central clocks run").members[j];
                let server = members[sample::uniform_int(rng, 0, members.len() as u64 - 1) as usize];
                (QueueRef::Central { job_type: j as u16 }, server)
            }
            g => {
                let server = (g - 1) as u32;
                (QueueRef::Local { server, job_type: j as u16 }, server)
            }
        };
        // The next tick at the current total; `settle` moves it if the tick's start changes
        // the total (a start that changes no rate and no fit leaves it as it is).
        self.budget = sample::exponential(rng, 1.0);
        self.since = now;
        self.total = self.tree.total();
        self.next = now + self.budget / self.total;
        queue
    }

    /// The servers a type-`job_type` job fits now, where the central clocks keep count.
    pub(crate) fn room_for(&self, job_type: usize) -> Option<usize> {
        self.room.as_ref().map(|r| r.members[job_type].len())
    }

    /// Clock `j` of `group`'s rate of acting ticks.
    fn weight(&self, group: usize, j: usize, state: &GhraState) -> f64 {
        let rate = state.rates[group * self.types + j];
        match group {
            0 => match &self.room {
                Some(room) => rate * room.members[j].len() as f64 / self.active as f64,
                None => 0.0,
            },
            g if self.fits[(g - 1) * self.types + j] => rate,
            _ => 0.0,
        }
    }

    fn reweigh(&mut self, group: usize, state: &GhraState) {
        let w = match group {
            0 => (0..self.types).map(|j| self.weight(0, j, state)).sum(),
            // A server's clocks: the same sum as `weight`'s, without its branches.
            g => {
                let (fits, rates) = (
                    &self.fits[(g - 1) * self.types..g * self.types],
                    &state.rates[g * self.types..(g + 1) * self.types],
                );
                fits.iter().zip(rates).map(|(&f, &r)| if f { r } else { 0.0 }).sum()
            }
        };
        self.tree.set(group, w);
    }

    fn build_room(&self) -> Room {
        let mut room = Room { members: vec![Vec::new(); self.types], pos: vec![u32::MAX; self.fits.len()] };
        for l in 0..self.servers {
            for j in 0..self.types {
                if self.fits[l * self.types + j] {
                    room.pos[l * self.types + j] = room.members[j].len() as u32;
                    room.members[j].push(l as u32);
                }
            }
        }
        room
    }

    // [`ClockMode::EveryTick`]: one heap event per tick.

    fn every_tick_arm(&mut self, clock: u32, now: f64, rate: f64, events: &mut EventQueue<Event>, rng: &mut StreamRng) {
        let tick = self.versions.reset(clock);
        events.push(now + sample::exponential(rng, rate), Event::Tick(tick));
    }

    /// Whether `tick` is its clock's pending one (else it is stale and dropped).
    pub(crate) fn is_current(&self, tick: Tick) -> bool {
        self.versions.is_current(tick)
    }

    /// A clock's tick came off the heap: the clock ticks on at its rate, and the server it
    /// tries is drawn (its own, or uniform over the L that take jobs for a central clock).
    pub(crate) fn every_tick_fired(
        &mut self,
        clock: usize,
        now: f64,
        state: &GhraState,
        events: &mut EventQueue<Event>,
        rng: &mut StreamRng,
    ) -> u32 {
        let server = match clock / self.types {
            0 => sample::uniform_int(rng, 0, self.active as u64 - 1) as u32,
            g => (g - 1) as u32,
        };
        self.every_tick_arm(clock as u32, now, state.rates[clock], events, rng);
        server
    }
}
