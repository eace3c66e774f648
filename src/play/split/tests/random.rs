//! Random play against the lockstep: commands a person could give, at any moment, while the
//! workers read their messages late and answer in any order between them. Whatever the order,
//! every moment the page shows is the whole race's at that moment, and once the person stops
//! the race comes to rest at one moment with nothing left waiting.
//!
//! The workers here do what `www/race-worker.js` does, one step at a time: read one message
//! (a command is carried out and answered with a snapshot; marks replace or extend the list),
//! or play to the next mark and send a snapshot there. Messages between the page and each
//! worker stay in order, as `postMessage` keeps them; which worker or which side moves next
//! is drawn at random, and the page draws (hands out more marks) at random moments too.

use std::collections::VecDeque;

use proptest::prelude::*;

use super::*;

/// One worker: its part of the race, its messages from the page not read yet, and its state
/// as the worker script keeps it.
struct Worker {
    player: Player,
    inbox: VecDeque<ToPart>,
    marks: VecDeque<u64>,
    starved: bool,
    answered: u64,
    /// Its lanes (the whole race's indices).
    lanes: Vec<usize>,
}

/// The page and its workers, moved one step at a time by random numbers ([`World::step`]).
struct World {
    setup: Setup,
    /// The whole race in one player, moved forward to each moment shown to compare (a fresh
    /// one when the moment is earlier).
    whole: Player,
    workers: Vec<Worker>,
    /// Snapshots each worker sent and the page has not read yet, in order.
    outbox: Vec<VecDeque<(Snapshot, bool, u64)>>,
    lockstep: Lockstep,
    /// Every moment shown.
    shown: Vec<Snapshot>,
    /// Whether the last moment shown is not drawn yet.
    undrawn: bool,
    clock: f64,
    focus: usize,
    /// Where the whole race goes with the last command, given at rest: the next moment shown
    /// must be that one.
    expected: Option<(Command, f64)>,
    /// Each lane's cost per slot, as the workers say they measured it: drawn anew at random
    /// moments, so that the lanes move between the workers while the race plays (ms per slot,
    /// as small as a slot of ten servers costs, so that a move's replay stays short).
    costs: Vec<f64>,
    /// Lanes moved so far.
    moves: usize,
}

impl World {
    fn new(setup: &Setup, parts: usize) -> Self {
        let split = split(setup, parts);
        let n = split.len() as u64;
        let workers = split
            .iter()
            .map(|p| Worker {
                player: Player::part(Rc::new(p.setup.clone()), Speed::Max, n),
                inbox: VecDeque::new(),
                marks: VecDeque::new(),
                starved: false,
                answered: 0,
                lanes: p.lanes.clone(),
            })
            .collect::<Vec<_>>();
        let mut world = Self {
            setup: setup.clone(),
            whole: Player::new(Rc::new(setup.clone()), Speed::Max),
            outbox: vec![VecDeque::new(); workers.len()],
            workers,
            lockstep: Lockstep::new(&split),
            shown: Vec::new(),
            undrawn: false,
            clock: 0.0,
            focus: 0,
            expected: None,
            // The costliest lane last: the consecutive split is uneven from the start.
            costs: (1..=setup.policies.len()).map(|c| c as f64 * 1e-5).collect(),
            moves: 0,
        };
        // Every worker sends its race's first snapshot.
        for k in 0..world.workers.len() {
            world.send(k);
        }
        world
    }

    fn send(&mut self, k: usize) {
        let w = &mut self.workers[k];
        let mut snapshot = Snapshot::from_bytes(&w.player.snapshot().to_bytes().unwrap()).unwrap();
        snapshot.costs = w.lanes.iter().map(|&l| self.costs[l]).collect();
        self.outbox[k].push_back((snapshot, std::mem::take(&mut w.starved), w.answered));
    }

    fn post(&mut self, out: Vec<(usize, ToPart)>) {
        for (k, message) in out {
            self.workers[k].inbox.push_back(message);
        }
    }

    /// The page: what the person sees decides which commands they can give.
    fn command(&mut self, pick: u32) {
        let Some(latest) = self.shown.last() else { return };
        if matches!(latest.phase, Phase::Failed(_)) {
            return;
        }
        let lanes = latest.lanes.len();
        let command = match pick % 7 {
            0 | 1 => Command::toggle(&latest.phase),
            2 if latest.phase != Phase::Finished => Some(Command::Step),
            3 if latest.now > 0.0 => Some(Command::Back),
            4 => Some(Command::Seek(latest.furthest * f64::from(pick % 1000) / 1000.0)),
            5 if latest.slot > 0 => Some(Command::Restart),
            6 => Some(Command::Focus(pick as usize / 7 % lanes)),
            _ => None,
        };
        if let Some(command) = command {
            self.give(command);
        }
    }

    /// The page hands `command` to the lockstep.
    fn give(&mut self, command: Command) {
        let Some(latest) = self.shown.last() else { return };
        if let Command::Focus(lane) = command {
            self.focus = lane;
        }
        // Given at rest, a move lands where it lands in the whole race.
        let at_rest = latest.phase != Phase::Running && self.quiet() && self.lockstep.waiting.is_empty();
        self.expected = match command.clone() {
            Command::Step | Command::Back | Command::Seek(_) | Command::Restart if at_rest => {
                let mut whole = Player::new(Rc::new(self.setup.clone()), Speed::Max);
                whole.apply(Command::Seek(latest.now));
                whole.apply(command.clone());
                Some((command.clone(), whole.snapshot().now))
            }
            _ => None,
        };
        let out = self.lockstep.command(command);
        self.post(out);
    }

    /// The page reads worker `k`'s next snapshot.
    fn read(&mut self, k: usize) -> bool {
        let Some((snapshot, starved, answered)) = self.outbox[k].pop_front() else { return false };
        self.clock += 1.0;
        let (whole, out) = self.lockstep.arrived(k, snapshot, starved, answered, self.clock);
        self.post(out);
        if let Some(whole) = whole {
            if let Some((command, now)) = self.expected.take() {
                assert_eq!(whole.now.to_bits(), now.to_bits(), "{command:?} at rest showed {} for {now}", whole.now);
            }
            self.check(&whole);
            self.shown.push(whole);
            self.undrawn = true;
        }
        true
    }

    /// Whether nothing moves: no message is on its way, either way, and no part has a mark
    /// to play to.
    fn quiet(&self) -> bool {
        self.outbox.iter().all(VecDeque::is_empty)
            && self.workers.iter().all(|w| w.inbox.is_empty() && (w.marks.is_empty() || !w.player.playing()))
    }

    /// An animation frame: the page draws what it showed last.
    fn draw(&mut self) {
        if std::mem::take(&mut self.undrawn) {
            let out = self.lockstep.drawn();
            self.post(out);
        }
    }

    /// Worker `k` reads one message, or else plays to its next mark. Returns whether it did
    /// anything.
    fn work(&mut self, k: usize) -> bool {
        let n = self.workers.len() as u64;
        let w = &mut self.workers[k];
        if let Some(message) = w.inbox.pop_front() {
            match message {
                ToPart::Do(command) => {
                    w.marks.clear();
                    w.player.apply(command);
                    w.answered += 1;
                    self.send(k);
                }
                ToPart::Marks(marks) => w.marks = marks.into(),
                ToPart::More(more) => w.marks.extend(more),
                ToPart::Become { part, answered } => {
                    w.player = Player::part(Rc::new(part.setup.clone()), Speed::Max, n);
                    w.lanes = part.lanes.clone();
                    w.marks.clear();
                    w.answered = answered;
                    self.moves += 1;
                    self.send(k);
                }
            }
            return true;
        }
        if !w.player.playing() {
            return false;
        }
        let Some(&mark) = w.marks.front() else {
            w.starved = true;
            return false;
        };
        w.player.set_limit(Some(mark));
        w.player.slice(self.clock, f64::INFINITY, || 0.0);
        if !w.player.playing() {
            self.send(k);
        } else if w.player.slot() >= mark {
            w.marks.pop_front();
            self.send(k);
        }
        true
    }

    /// A moment shown is the whole race's at that moment (playing, without the decision log
    /// a playing race does not keep).
    fn check(&mut self, shown: &Snapshot) {
        if self.whole.snapshot().now > shown.now {
            self.whole = Player::new(Rc::new(self.setup.clone()), Speed::Max);
        }
        self.whole.apply(Command::Focus(self.focus));
        self.whole.apply(Command::Seek(shown.now));
        let mut whole = self.whole.snapshot();
        whole.phase = shown.phase.clone();
        if shown.phase == Phase::Running {
            whole.lanes.iter_mut().for_each(|l| l.decisions = Rc::from([]));
        }
        same(shown, &whole, &format!("shown at {} ({:?})", shown.now, shown.phase));
    }

    /// One move of the page, the person or a worker, drawn from `pick`; or a wait until nothing
    /// moves.
    fn step(&mut self, pick: u32) {
        let n = self.workers.len() as u32;
        match pick % 16 {
            0 => self.command(pick / 16),
            1 | 2 => self.draw(),
            3..=8 => {
                self.read((pick / 16 % n) as usize);
            }
            // The lanes' costs drift.
            14 => {
                let pick = pick / 16;
                self.costs.iter_mut().enumerate().for_each(|(i, c)| *c = f64::from(1 + (pick >> (3 * i)) % 8) * 1e-5);
            }
            // The person waits until nothing moves (a played race runs to its horizon).
            15 => {
                self.rest();
            }
            _ => {
                self.work((pick / 16 % n) as usize);
            }
        }
    }

    /// No more commands: the page reads and draws, the workers work, until nothing moves.
    fn rest(&mut self) {
        for _ in 0..200_000 {
            let mut moved = false;
            for k in 0..self.workers.len() {
                moved |= self.read(k);
            }
            self.draw();
            for k in 0..self.workers.len() {
                moved |= self.work(k);
            }
            if !moved {
                return;
            }
        }
        panic!("the race never came to rest");
    }
}

fn random_play(setup: &Setup, parts: usize, picks: &[u32]) {
    let mut world = World::new(setup, parts);
    for &pick in picks {
        world.step(pick);
    }
    // The person pauses what plays, and leaves the race alone.
    world.rest();
    if world.shown.last().is_some_and(|s| s.phase == Phase::Running) {
        let out = world.lockstep.command(Command::Pause);
        world.post(out);
        world.rest();
    }
    let last = world.shown.last().expect("the race showed something").clone();
    assert!(!matches!(last.phase, Phase::Running), "at rest, the race still shows itself playing at {}", last.now);
    assert!(world.lockstep.waiting.is_empty(), "commands left waiting: {:?}", world.lockstep.waiting);
    for w in &world.workers {
        assert_eq!(w.player.snapshot().now.to_bits(), last.now.to_bits(), "a part stands elsewhere than shown");
    }
    // And it still answers: a step back or forward is shown.
    let command = if last.now > 0.0 { Command::Back } else { Command::Step };
    let before = world.shown.len();
    let out = world.lockstep.command(command.clone());
    world.post(out);
    world.rest();
    assert!(world.shown.len() > before, "{command:?} at rest was never shown");
}

/// Play clicked twice on a paused race, the second time after the page had read one part's
/// answer to the first: the second Play waited, and went out when the race was shown playing.
/// The parts dropped their marks with it and were handed marks they had passed, so no mark was
/// ever reached by all of them: the race stood still, showing itself playing.
#[test]
fn play_clicked_twice_plays_on_to_the_horizon() {
    let s = setup("pgrr-a1", &["vqs", "bf-js", "bf-j"], &[("servers", "10"), ("horizon", "1500"), ("warmup", "100")]);
    let mut world = World::new(&s, 2);
    world.rest();
    // Played once to the end (the marks widen), then back to the middle.
    world.give(Command::Play);
    world.rest();
    world.give(Command::Seek(859.0));
    world.rest();
    assert_eq!(world.shown.last().map(|s| (s.slot, s.phase.clone())), Some((859, Phase::Paused)));
    world.give(Command::Play);
    world.work(0);
    world.work(0);
    world.read(0);
    world.give(Command::Play);
    world.work(0);
    world.rest();
    let last = world.shown.last().unwrap();
    assert_eq!((last.slot, &last.phase), (1500, &Phase::Finished));
    assert!(world.lockstep.waiting.is_empty());
}

/// An embedded lab scrolled out of sight and straight back while it plays: its Pause, then its
/// Play (neither asks the toggle) before the parts answered the Pause, the page having read
/// that the parts stood at different slots. The race plays on to the horizon.
#[test]
fn a_pause_and_a_play_before_the_parts_answer_play_on_to_the_horizon() {
    let s = setup("pgrr-a1", &["vqs", "bf-js"], &[("servers", "10"), ("horizon", "1500")]);
    let mut world = World::new(&s, 2);
    world.rest();
    world.give(Command::Play);
    for _ in 0..12 {
        world.work(0);
        world.work(1);
        world.read(0);
        world.read(1);
        world.draw();
    }
    // Part 0 further on than part 1, and the page knows it.
    world.work(0);
    world.work(0);
    world.read(0);
    world.read(0);
    assert_eq!(world.shown.last().unwrap().phase, Phase::Running);
    world.give(Command::Pause);
    world.give(Command::Play);
    world.rest();
    let last = world.shown.last().unwrap();
    assert_eq!((last.slot, &last.phase), (1500, &Phase::Finished));
}

proptest! {
    // A fixed seed: the same inputs on every run, as the fuzz targets (crates/core/tests/fuzz.rs).
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(1),
        ..ProptestConfig::default()
    })]

    /// Slotted: three lanes on two workers (one and two lanes), as the browser test plays them.
    #[test]
    fn slotted_random_play_shows_the_whole_race(picks in prop::collection::vec(any::<u32>(), 1..400)) {
        let s = setup("pgrr-a1", &["vqs", "bf-js", "bf-j"], &[("servers", "10"), ("horizon", "1500"), ("warmup", "100")]);
        random_play(&s, 2, &picks);
    }

    /// Continuous time: steps meet at the next event of any lane.
    #[test]
    fn continuous_random_play_shows_the_whole_race(picks in prop::collection::vec(any::<u32>(), 1..400)) {
        let s = setup("msfq-d1", &["msf", "msfq", "fcfs"], &[("horizon", "300")]);
        random_play(&s, 3, &picks);
    }
}

/// Lanes placed by what they cost: the consecutive split of three lanes ({0}, {1, 2}) is
/// uneven for costs 1, 2, 3, so the lanes move once measured; costs that later drift far apart
/// move them again once the run is twice as long. Every moment shown is the whole race's.
#[test]
fn lanes_move_to_their_placement_by_cost_and_the_numbers_stay() {
    let s = setup("pgrr-a1", &["vqs", "bf-js", "bf-j"], &[("servers", "10"), ("horizon", "20000"), ("warmup", "100")]);
    let mut world = World::new(&s, 2);
    world.rest();
    world.give(Command::Play);
    let mut k = 0;
    while world.shown.last().unwrap().slot < 2_000 {
        world.step(3 + 16 * (k % 2));
        world.step(9 + 16 * (k % 2));
        world.step(1);
        k += 1;
    }
    assert!(world.moves >= 1, "no move");
    let lanes: Vec<Vec<usize>> = world.workers.iter().map(|w| w.lanes.clone()).collect();
    assert_eq!(lanes, [vec![0, 1], vec![2]], "lane 2 alone");
    // Lanes 0 and 1 now the costliest by far: {0, 1}, {2} cost 16 against 1.
    world.costs = vec![8e-5, 8e-5, 1e-5];
    let moved = world.moves;
    world.rest();
    assert!(world.moves > moved, "no move after the costs drifted");
    // Lanes 0 and 1 apart (which part takes lane 2 depends on which costs the page had read).
    let lanes: Vec<Vec<usize>> = world.workers.iter().map(|w| w.lanes.clone()).collect();
    assert!(lanes.iter().all(|l| !(l.contains(&0) && l.contains(&1))), "{lanes:?}");
    let last = world.shown.last().unwrap();
    assert_eq!((last.slot, &last.phase), (20_000, &Phase::Finished));
}
