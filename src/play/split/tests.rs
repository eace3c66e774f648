//! A split race shows what the whole race shows: the parts driven here as the workers drive
//! them (`www/race-worker.js`), their snapshots merged by [`Lockstep`], compared bit for bit
//! with one [`Player`] of every lane.

use std::collections::VecDeque;
use std::rc::Rc;

use super::*;
use crate::play::player::Player;
use crate::state::Speed;

fn setup(preset: &str, policies: &[&str], sets: &[(&str, &str)]) -> Setup {
    let mut setup = Setup::from_preset(preset).unwrap();
    setup.policies = policies.iter().map(|p| packlab_core::policy::PolicySpec::parse(p).unwrap()).collect();
    for (key, value) in sets {
        setup.scenario.set(key, value).unwrap();
    }
    setup
}

/// The parts of a split race and the page's side, with the workers' queues of marks.
struct Split {
    players: Vec<Player>,
    marks: Vec<VecDeque<u64>>,
    starved: Vec<bool>,
    /// Commands each part carried out.
    answered: Vec<u64>,
    lockstep: Lockstep,
    /// Snapshots on their way to the page, in order.
    inbox: VecDeque<(usize, Snapshot, bool, u64)>,
    shown: Vec<Snapshot>,
    clock: f64,
    /// Whether the page draws what it shows (a hidden tab does not).
    drawing: bool,
    /// Each part's lanes (the whole race's indices), and each lane's cost per slot the parts
    /// say they measured, if they say any (the players here run on a clock that stands still).
    lanes: Vec<Vec<usize>>,
    costs: Option<Vec<f64>>,
}

impl Split {
    fn new(setup: &Setup, parts: usize) -> Self {
        let parts = split(setup, parts);
        let players = parts
            .iter()
            .map(|p| Player::part(Rc::new(p.setup.clone()), Speed::Max, parts.len() as u64))
            .collect::<Vec<_>>();
        let n = players.len();
        let mut split = Self {
            players,
            marks: vec![VecDeque::new(); n],
            starved: vec![false; n],
            answered: vec![0; n],
            lockstep: Lockstep::new(&parts),
            inbox: VecDeque::new(),
            shown: Vec::new(),
            clock: 0.0,
            drawing: true,
            lanes: parts.iter().map(|p| p.lanes.clone()).collect(),
            costs: None,
        };
        // Every worker sends its race's first snapshot.
        for k in 0..n {
            split.send_snapshot(k);
        }
        split.settle();
        split
    }

    fn send_snapshot(&mut self, k: usize) {
        let mut snapshot = Snapshot::from_bytes(&self.players[k].snapshot().to_bytes().unwrap()).unwrap();
        if let Some(costs) = &self.costs {
            snapshot.costs = self.lanes[k].iter().map(|&l| costs[l]).collect();
        }
        self.inbox.push_back((k, snapshot, std::mem::take(&mut self.starved[k]), self.answered[k]));
    }

    fn deliver(&mut self, messages: Vec<(usize, ToPart)>) {
        for (k, message) in messages {
            match message {
                // A part answers every command with a snapshot.
                ToPart::Do(command) => {
                    self.marks[k].clear();
                    self.players[k].apply(command);
                    self.answered[k] += 1;
                    self.send_snapshot(k);
                }
                ToPart::Marks(marks) => self.marks[k] = marks.into(),
                ToPart::More(more) => self.marks[k].extend(more),
                ToPart::Become { part, answered } => {
                    let n = self.players.len() as u64;
                    self.players[k] = Player::part(Rc::new(part.setup.clone()), Speed::Max, n);
                    self.lanes[k] = part.lanes.clone();
                    self.marks[k].clear();
                    self.answered[k] = answered;
                    self.send_snapshot(k);
                }
            }
        }
    }

    /// The page reads every snapshot on its way, drawing each one it shows.
    fn settle(&mut self) {
        while let Some((k, snapshot, starved, answered)) = self.inbox.pop_front() {
            self.clock += 1.0;
            let (whole, out) = self.lockstep.arrived(k, snapshot, starved, answered, self.clock);
            self.deliver(out);
            if let Some(whole) = whole {
                self.shown.push(whole);
                if self.drawing {
                    let out = self.lockstep.drawn();
                    self.deliver(out);
                }
            }
        }
    }

    fn command(&mut self, command: Command) {
        let out = self.lockstep.command(command);
        self.deliver(out);
        self.settle();
    }

    /// One slice of each worker, part `first` first: a part runs to its next mark and sends
    /// a snapshot there; one without marks waits (starved).
    fn slice(&mut self, first: usize) {
        let n = self.players.len();
        for k in (0..n).map(|i| (first + i) % n) {
            self.run_part(k);
        }
        self.settle();
    }

    /// Part `k` runs to its next mark.
    fn run_part(&mut self, k: usize) {
        if !self.players[k].playing() {
            return;
        }
        let Some(&mark) = self.marks[k].front() else {
            self.starved[k] = true;
            return;
        };
        self.players[k].set_limit(Some(mark));
        self.players[k].slice(self.clock, f64::INFINITY, || 0.0);
        if !self.players[k].playing() {
            self.send_snapshot(k);
        } else if self.players[k].slot() >= mark {
            self.marks[k].pop_front();
            self.send_snapshot(k);
        }
    }

    /// Slices until the race shown stops (the horizon, a failure), after a command to play.
    fn play_until_stopped(&mut self) {
        for k in 0..10_000 {
            if self.latest().phase != Phase::Running && k > 0 {
                return;
            }
            self.slice(k);
        }
        panic!("still playing after 10 000 slices");
    }

    fn latest(&self) -> &Snapshot {
        self.shown.last().unwrap()
    }
}

/// What the page shows, to compare bit for bit (the checkpoints, how far the race went and
/// the meter differ rightly).
fn shown(s: &Snapshot) -> String {
    format!(
        "{:?}",
        (
            s.now,
            s.slot,
            &s.phase,
            &s.lanes,
            &s.bin_labels,
            s.focus,
            &s.bin_series,
            &s.bin_job_time_series,
            &s.bin_analysis
        )
    )
}

/// Asserts two pictures are the same, showing where they first differ.
#[track_caller]
fn same(a: &Snapshot, b: &Snapshot, what: &str) {
    let (a, b) = (shown(a), shown(b));
    if a != b {
        let at = a.bytes().zip(b.bytes()).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
        let window = |s: &str| s.get(at.saturating_sub(150)..(at + 150).min(s.len())).unwrap_or("").to_string();
        panic!("{what}: they differ at byte {at}:\n split: …{}…\n whole: …{}…", window(&a), window(&b));
    }
}

fn whole_at(setup: &Setup, time: f64, focus: usize) -> Snapshot {
    let mut player = Player::new(Rc::new(setup.clone()), Speed::Max);
    player.apply(Command::Focus(focus));
    player.apply(Command::Seek(time));
    player.snapshot()
}

#[test]
fn lanes_are_split_evenly_in_order() {
    let s = setup("pgrr-a1", &["vqs", "bf-js", "bf-j", "vqs:j=3"], &[]);
    let parts = split(&s, 3);
    let lanes: Vec<_> = parts.iter().map(|p| p.lanes.clone()).collect();
    assert_eq!(lanes, [vec![0], vec![1], vec![2, 3]]);
    let names: Vec<Vec<String>> =
        parts.iter().map(|p| p.setup.policies.iter().map(|q| q.to_string()).collect()).collect();
    assert_eq!(names, [vec!["vqs"], vec!["bf-js"], vec!["bf-j", "vqs:j=3"]]);
    assert!(parts.iter().all(|p| p.setup.scenario == s.scenario));
    assert_eq!(split(&s, 9).len(), 4, "no more parts than lanes");
    assert_eq!(split(&s, 0).len(), 1);
}

/// Playing in lockstep, pausing, stepping, going back: at every moment shown, the split race
/// is the whole race, numbers, series, servers and decisions.
#[test]
fn a_split_race_shows_what_the_whole_race_shows() {
    let s = setup("pgrr-a1", &["vqs", "bf-js", "bf-j"], &[("servers", "20"), ("horizon", "3000"), ("warmup", "100")]);
    for parts in [2, 3] {
        let mut split = Split::new(&s, parts);
        same(split.latest(), &Player::new(Rc::new(s.clone()), Speed::Max).snapshot(), "at the start");
        split.command(Command::Focus(2));
        split.command(Command::Play);
        let mut k = 0;
        while split.latest().slot < 700 {
            split.slice(k);
            k += 1;
            // Commands that leave the race playing keep its marks.
            if k == 5 {
                split.command(Command::Speed(Speed::Max));
                split.command(Command::Focus(2));
            }
        }
        // Every moment shown while playing is one the whole race passed.
        let playing = split.latest().clone();
        assert_eq!(playing.phase, Phase::Running);
        let mut whole = whole_at(&s, playing.now, 2);
        whole.phase = Phase::Running;
        // Playing keeps no decision log, in the whole race as in the parts.
        whole.lanes.iter_mut().for_each(|l| l.decisions = Rc::from([]));
        same(&playing, &whole, "playing");
        // A pause lands wherever each part was: they meet at the latest.
        split.slice(1);
        split.command(Command::Pause);
        let paused = split.latest().clone();
        assert_eq!(paused.phase, Phase::Paused);
        same(&paused, &whole_at(&s, paused.now, 2), &format!("{parts} parts, paused"));
        assert!(paused.lanes.iter().all(|l| !l.decisions.is_empty()), "explained");
        split.command(Command::Step);
        split.command(Command::Back);
        split.command(Command::Back);
        assert_eq!(split.latest().slot, paused.slot - 1);
        same(split.latest(), &whole_at(&s, paused.now - 1.0, 2), "");
        split.command(Command::Seek(2_500.5));
        same(split.latest(), &whole_at(&s, 2_500.0, 2), "");
        // Played on to the horizon, the parts finish together.
        split.command(Command::Play);
        split.play_until_stopped();
        assert_eq!((split.latest().slot, split.latest().phase.clone()), (3_000, Phase::Finished));
        let mut end = whole_at(&s, 3_000.0, 2);
        end.phase = Phase::Finished;
        same(split.latest(), &end, "");
        // The colours are the whole race's.
        let colors: Vec<usize> = split.latest().lanes.iter().map(|l| l.color).collect();
        assert_eq!(colors, [0, 1, 2]);
    }
}

/// In continuous time a step goes to the next event of any lane: each part steps to its own,
/// and the parts meet at the earliest; a step back meets at the latest event before.
#[test]
fn in_continuous_time_parts_meet_at_the_next_event_of_any_lane() {
    let s = setup("msfq-d1", &["msf", "msfq", "fcfs"], &[("horizon", "500")]);
    let mut split = Split::new(&s, 3);
    let mut whole = Player::new(Rc::new(s.clone()), Speed::Max);
    split.command(Command::Seek(100.0));
    whole.apply(Command::Seek(100.0));
    for _ in 0..6 {
        split.command(Command::Step);
        whole.apply(Command::Step);
        same(split.latest(), &whole.snapshot(), "");
    }
    assert!(split.latest().now.fract() != 0.0, "steps land on events: {}", split.latest().now);
    for _ in 0..4 {
        split.command(Command::Back);
        whole.apply(Command::Back);
        same(split.latest(), &whole.snapshot(), "");
    }
}

/// Where every part's lanes stopped on their scripts, the race stops, naming the failure,
/// and going back runs them again.
#[test]
fn a_race_whose_scripts_all_fail_stops_and_goes_back() {
    let script = |n: u32| {
        packlab_core::script::spec_text(&format!(
            "fn schedule(ctx) {{\n  if ctx.slot > {n} {{\n    loop {{ }}\n  }}\n}}\n"
        ))
        .unwrap()
    };
    let s = setup("pgrr-a1", &[&script(50), &script(80)], &[("servers", "10"), ("horizon", "400")]);
    let mut split = Split::new(&s, 2);
    split.command(Command::Play);
    split.play_until_stopped();
    let Phase::Failed(why) = split.latest().phase.clone() else { panic!("{:?}", split.latest().phase) };
    assert!(why.contains("exceeded 1000000 operations"), "{why}");
    split.command(Command::Seek(30.0));
    assert_eq!(split.latest().phase, Phase::Paused);
    same(split.latest(), &whole_at(&s, 30.0, 0), "back before the failures");
}

/// A part whose lanes all stopped on their scripts is left out of the moment shown: the
/// other parts run on to the horizon, as the whole race's other lanes do.
#[test]
fn a_part_of_failed_scripts_does_not_stop_the_others() {
    let script =
        packlab_core::script::spec_text("fn schedule(ctx) {\n  if ctx.slot > 50 {\n    loop { }\n  }\n}\n").unwrap();
    let s = setup("pgrr-a1", &["bf-js", &script], &[("servers", "10"), ("horizon", "400")]);
    let mut split = Split::new(&s, 2);
    split.command(Command::Play);
    split.play_until_stopped();
    let end = split.latest().clone();
    assert_eq!((end.slot, end.phase.clone()), (400, Phase::Finished));
    assert!(end.lanes[1].stopped.as_deref().is_some_and(|why| why.contains("exceeded")), "{:?}", end.lanes[1].stopped);
    let mut whole = whole_at(&s, 400.0, 0);
    whole.phase = Phase::Finished;
    // The failed lane's decisions are made by each side's own replay: compared without them.
    let numbers = |s: &Snapshot| {
        format!(
            "{:?}",
            s.lanes.iter().map(|l| (l.slot, l.queue, l.arrivals, &l.stopped, &l.queue_series)).collect::<Vec<_>>()
        )
    };
    assert_eq!(numbers(&end), numbers(&whole));
    // Going back before the failure runs the script's lane again.
    split.command(Command::Seek(20.0));
    same(split.latest(), &whole_at(&s, 20.0, 0), "");
}

/// Commands that arrive while the parts are on their way to one moment wait for it.
#[test]
fn commands_wait_for_the_parts_to_meet() {
    let s = setup("pgrr-a1", &["vqs", "bf-js"], &[("servers", "10"), ("horizon", "2000")]);
    let parts = split(&s, 2);
    let mut lockstep = Lockstep::new(&parts);
    let mut players: Vec<Player> =
        parts.iter().map(|p| Player::part(Rc::new(p.setup.clone()), Speed::Max, 2)).collect();
    for (k, player) in players.iter().enumerate() {
        lockstep.arrived(k, player.snapshot(), false, 0, 0.0);
    }
    // A seek that each part answers at another moment (as a pause does): until both
    // answered, nothing happens; then a seek brings the earlier one forward.
    assert_eq!(lockstep.command(Command::Seek(30.0)).len(), 2);
    players[0].apply(Command::Seek(30.0));
    players[1].apply(Command::Seek(40.0));
    let (none, out) = lockstep.arrived(0, players[0].snapshot(), false, 1, 1.0);
    assert!(none.is_none() && out.is_empty(), "part 1 has not answered: {out:?}");
    let (none, out) = lockstep.arrived(1, players[1].snapshot(), false, 1, 2.0);
    assert!(none.is_none());
    assert_eq!(out, [(0, ToPart::Do(Command::Seek(40.0)))]);
    // A step asked now waits; the seek's answer shows the moment, and the step goes out.
    assert!(lockstep.command(Command::Step).is_empty());
    players[0].apply(Command::Seek(40.0));
    let (shown, out) = lockstep.arrived(0, players[0].snapshot(), false, 2, 3.0);
    assert_eq!(shown.map(|s| s.slot), Some(40));
    assert_eq!(out, [(0, ToPart::Do(Command::Step)), (1, ToPart::Do(Command::Step))]);
    // The speed never waits, and a focus is each part's own lane (its first where it does not
    // hold the lane).
    assert_eq!(
        lockstep.command(Command::Focus(1)),
        [
            (0, ToPart::Do(Command::Focus(0))),
            (1, ToPart::Do(Command::Focus(0))),
            (0, ToPart::Marks(vec![])),
            (1, ToPart::Marks(vec![]))
        ]
    );
}

/// A page that stops drawing (a hidden tab) stops the race after a few marks, as a race in one
/// worker waits for the page; drawing again, it plays on. Marks widen while every part waits
/// for them.
#[test]
fn a_page_that_does_not_draw_stops_the_race_and_marks_widen_while_parts_wait() {
    let s = setup("pgrr-a1", &["vqs", "bf-js"], &[("servers", "10"), ("horizon", "1000000")]);
    let mut split = Split::new(&s, 2);
    split.command(Command::Play);
    // Every part waits for marks in this driver (the page hands them out only as it shows
    // them), so the spacing doubles from one slot.
    for k in 0..40 {
        split.slice(k);
    }
    assert!(split.lockstep.stride >= 8, "{}", split.lockstep.stride);
    split.drawing = false;
    let shown = split.shown.len();
    for k in 0..100 {
        split.slice(k);
    }
    let stopped = split.shown.len();
    // The marks handed out before the eighth shown but undrawn one are still reached.
    assert!(stopped - shown <= MAX_UNDRAWN as usize + MARKS_AHEAD, "{} marks shown undrawn", stopped - shown);
    let at = split.latest().slot;
    split.slice(0);
    assert_eq!(split.latest().slot, at, "the parts wait");
    assert!(split.players.iter().all(|p| p.slot() <= at + MARKS_AHEAD as u64 * split.lockstep.stride));
    split.drawing = true;
    let out = split.lockstep.drawn();
    split.deliver(out);
    split.slice(0);
    split.slice(1);
    assert!(split.latest().slot > at, "drawing again, it plays on");
    assert_eq!(split.latest().phase, Phase::Running);
}

/// Parts that take turns being ahead: every mark is shown once all have reached it, though a
/// part is at the next one by then (keeping only each part's latest snapshot lost half the
/// marks in the browser).
#[test]
fn every_mark_is_shown_whichever_part_is_ahead() {
    let s = setup("pgrr-a1", &["vqs", "bf-js"], &[("servers", "10"), ("horizon", "100000")]);
    let mut split = Split::new(&s, 2);
    split.command(Command::Play);
    let marks: Vec<u64> = split.lockstep.marks.iter().copied().collect();
    assert_eq!(marks.len(), MARKS_AHEAD);
    // Part 0 runs two marks ahead, then part 1 catches up one mark at a time.
    split.run_part(0);
    split.run_part(0);
    split.settle();
    split.run_part(1);
    split.settle();
    assert_eq!(split.latest().slot, marks[0]);
    split.run_part(1);
    split.settle();
    assert_eq!(split.latest().slot, marks[1]);
    // Now part 1 is ahead.
    split.run_part(1);
    split.run_part(1);
    split.settle();
    split.run_part(0);
    split.settle();
    assert_eq!(split.latest().slot, marks[2]);
    let shown: Vec<u64> = split.shown.iter().map(|s| s.slot).filter(|&slot| slot > 0).collect();
    assert_eq!(&shown[..3], &marks[..3], "every mark shown, in order");
}

/// A part that drops out (its scripts all stopped) while another waits marks ahead: every mark
/// the other reached becomes whole at once; the race shows the last, plays on, and pauses. (The
/// page showed only the first, and then waited for snapshots the parts had already sent: the
/// race stood still and a pause never came.)
#[test]
fn a_part_that_drops_out_behind_the_others_does_not_hold_the_race() {
    let script = packlab_core::script::spec_text("fn schedule(ctx) {\n  loop { }\n}\n").unwrap();
    let s = setup("pgrr-a1", &["bf-js", &script], &[("servers", "10"), ("horizon", "100000")]);
    let mut split = Split::new(&s, 2);
    split.command(Command::Play);
    let marks: Vec<u64> = split.lockstep.marks.iter().copied().collect();
    for _ in 0..marks.len() {
        split.run_part(0);
    }
    for _ in 0..100 {
        if !split.players[1].playing() {
            break;
        }
        split.run_part(1);
        split.settle();
    }
    assert!(!split.players[1].playing(), "the script's part stopped");
    split.settle();
    assert_eq!(split.latest().slot, *marks.last().unwrap(), "the last mark reached");
    assert_eq!(split.latest().phase, Phase::Running);
    for k in 0..10 {
        split.slice(k);
    }
    assert!(split.latest().slot > *marks.last().unwrap(), "plays on");
    split.command(Command::Pause);
    for k in 0..5 {
        split.slice(k);
    }
    assert_eq!(split.latest().phase, Phase::Paused);
}

mod random;
