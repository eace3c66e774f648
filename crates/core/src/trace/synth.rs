//! Synthetic traces in the real formats, for the bundled samples, tests and benchmarks. They
//! are **not** the Google or archive data: they have the shape of it (the columns, the event
//! sequences, the unknown fields a reader must skip), with distributions chosen here.
//!
//! Both generators stream: events are written in time order while only the tasks still
//! running are held, so a file of 10^6 tasks costs little memory to write.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::{self, Write};

use rand::Rng;

use super::google::{Event, EventReader, GoogleTask, GoogleTrace, event};
use crate::ConfigError;
use crate::rng::{Stream, StreamRng, stream};
use crate::workload::sample;

/// A Google `task_events` file of `tasks` tasks.
///
/// Distributions: Poisson arrivals at `per_second`, from trace time 600 s (where the real
/// trace's events begin); CPU request log-uniform on [0.005, 0.5], memory the CPU request times a
/// log-uniform factor on [0.5, 2] (at most 1), so the size max(CPU, memory) has mean about
/// 0.13; run time 60 % Exp(mean 30 s), 40 % Exp(mean 200 s) (mean 98 s); a scheduling delay of
/// Exp(mean 0.2 s); trace priorities 0–11 with weights 25, 5, 30, 2, 15, 2, 2, 2, 2, 10, 3, 2.
/// The first 40 tasks were running at time 0; of the others 4 % are killed, 2 % are evicted and
/// resubmitted, 1 % have no requests, 3 % have their memory updated while pending; the rest
/// are submitted, scheduled and finish. Job IDs hold four tasks each.
#[derive(Debug, Clone, Copy)]
pub struct GoogleSynth {
    pub tasks: u64,
    pub per_second: f64,
    pub seed: u64,
}

/// A pending event: (time µs, sequence) orders it.
type Pending = Reverse<(u64, u64, TaskLine)>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct TaskLine {
    task: u64,
    kind: u8,
    priority: u8,
    /// Requests in units of 10^-5 (None: missing).
    cpu: Option<u32>,
    memory: Option<u32>,
}

const START_US: u64 = 600_000_000;
const TIME_ZERO_TASKS: u64 = 40;
const PRIORITY_WEIGHTS: [u32; 12] = [25, 5, 30, 2, 15, 2, 2, 2, 2, 10, 3, 2];

impl GoogleSynth {
    /// The generator behind the bundled sample and `packlab trace synth --format google`.
    pub fn new(tasks: u64, seed: u64) -> Self {
        Self { tasks, per_second: 60.0, seed }
    }

    /// Writes the trace as `task_events` text.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        self.emit(&mut |at, line| write_google(out, at, line))
    }

    /// The trace as the reader would read it from [`GoogleSynth::write`]'s text, without the
    /// text: the same tasks, bit for bit (a test checks), several times faster.
    pub fn trace(&self) -> Result<GoogleTrace, ConfigError> {
        let mut reader = EventReader::new();
        let mut failed = None;
        self.emit(&mut |at, l| {
            let value = |v: Option<u32>| v.map(|u| f64::from(u) / 1e5);
            let event = Event {
                time: at,
                job: job_of(l.task),
                index: (l.task % 4) as u32,
                kind: l.kind,
                priority: Some(l.priority),
                cpu: value(l.cpu),
                memory: value(l.memory),
            };
            reader.push(event).map_err(|e| {
                failed = Some(e);
                io::Error::other("stopped")
            })
        })
        .map_err(|_| failed.take().unwrap_or_else(|| ConfigError::new(super::KEY, "the synthetic trace failed")))?;
        reader.finish()
    }

    /// The tasks [`GoogleSynth::trace`] keeps, in its order, drawn one at a time: the same
    /// tasks bit for bit (a test checks) without the events, the reader or the memory. A run
    /// replaying the synthetic trace pulls them as its slots reach them, so starting a run costs
    /// nothing whatever the load asks for.
    pub fn kept_tasks(&self) -> KeptTasks {
        KeptTasks { draws: TaskDraws::new(self), task: 0 }
    }

    /// Hands every line, in time order, to `emit`.
    fn emit(&self, emit: &mut dyn FnMut(u64, &TaskLine) -> io::Result<()>) -> io::Result<()> {
        let mut draws = TaskDraws::new(self);
        let mut heap: BinaryHeap<Pending> = BinaryHeap::new();
        let mut seq = 0u64;
        let mut push = |heap: &mut BinaryHeap<Pending>, t: u64, line: TaskLine| {
            seq += 1;
            heap.push(Reverse((t, seq, line)));
        };
        for task in 0..self.tasks {
            let d = draws.next(task);
            let units = |v: f64| Some(((v * 1e5).round() as u32).max(1));
            let line = |kind, cpu, memory| TaskLine { task, kind, priority: d.priority, cpu, memory };
            let Some(t) = d.submit else {
                // Running when the trace began: submitted and scheduled at 0.
                let (cpu, memory) = (units(d.cpu), units(d.memory));
                push(&mut heap, 0, line(event::SUBMIT, cpu, memory));
                push(&mut heap, 0, line(event::SCHEDULE, cpu, memory));
                push(&mut heap, draws.t + d.run_us, line(event::FINISH, cpu, memory));
                continue;
            };
            let requests = match d.fate {
                Fate::NoRequest => (None, None),
                _ => (units(d.cpu), units(d.memory)),
            };
            push(&mut heap, t, line(event::SUBMIT, requests.0, requests.1));
            let scheduled = t + d.delay_us;
            if d.fate == Fate::MemoryUpdated {
                push(&mut heap, t + d.delay_us / 2, line(event::UPDATE_PENDING, None, units(d.updated_memory())));
            }
            push(&mut heap, scheduled, line(event::SCHEDULE, requests.0, requests.1));
            match d.fate {
                Fate::Killed => push(&mut heap, scheduled + d.run_us / 2, line(event::KILL, requests.0, requests.1)),
                Fate::Evicted => {
                    let evicted = scheduled + d.run_us / 3;
                    push(&mut heap, evicted, line(event::EVICT, requests.0, requests.1));
                    push(&mut heap, evicted + 1, line(event::SUBMIT, requests.0, requests.1));
                    push(&mut heap, evicted + 1 + d.delay_us, line(event::SCHEDULE, requests.0, requests.1));
                    push(&mut heap, evicted + 1 + d.delay_us + d.run_us, line(event::FINISH, requests.0, requests.1));
                }
                _ => push(&mut heap, scheduled + d.run_us, line(event::FINISH, requests.0, requests.1)),
            }
            // Everything up to now is settled: no later task has an event before its submit.
            while heap.peek().is_some_and(|Reverse((at, ..))| *at <= t) {
                let Reverse((at, _, l)) = heap.pop().expect("peeked");
                emit(at, &l)?;
            }
        }
        while let Some(Reverse((at, _, l))) = heap.pop() {
            emit(at, &l)?;
        }
        Ok(())
    }
}

/// What happens to a task after its submit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    /// Scheduled once and finished: the tasks a reader keeps.
    Finished,
    /// Its memory request raised while pending (UPDATE_PENDING), then finished: kept too.
    MemoryUpdated,
    Killed,
    Evicted,
    /// Submitted without requests.
    NoRequest,
}

/// One task's draws, in the order the generator has always made them (the bundled sample and
/// every recorded run depend on it).
struct TaskDraw {
    /// None: running when the trace began (submitted at time 0).
    submit: Option<u64>,
    cpu: f64,
    memory: f64,
    priority: u8,
    fate: Fate,
    run_us: u64,
    delay_us: u64,
}

impl TaskDraw {
    fn updated_memory(&self) -> f64 {
        (self.memory * 1.5).min(1.0)
    }
}

/// The generator's random streams and clock.
#[derive(Debug, Clone)]
struct TaskDraws {
    arrivals: StreamRng,
    draws: StreamRng,
    service: StreamRng,
    per_second: f64,
    tasks: u64,
    /// The last submit, µs of trace time.
    t: u64,
    cpu: LogUniform,
    /// Memory request over CPU request.
    memory_factor: LogUniform,
}

impl TaskDraws {
    fn new(synth: &GoogleSynth) -> Self {
        Self {
            arrivals: stream(synth.seed, Stream::Arrivals),
            draws: stream(synth.seed, Stream::Sizes),
            service: stream(synth.seed, Stream::Service),
            per_second: synth.per_second,
            tasks: synth.tasks,
            t: START_US,
            cpu: LogUniform::new(0.005, 0.5),
            memory_factor: LogUniform::new(0.5, 2.0),
        }
    }

    fn next(&mut self, task: u64) -> TaskDraw {
        let cpu = self.cpu.sample(&mut self.draws);
        let memory = (cpu * self.memory_factor.sample(&mut self.draws)).min(1.0);
        let priority = weighted(&mut self.draws, &PRIORITY_WEIGHTS);
        let fate = match sample::open_unit(&mut self.draws) {
            f if (0.01..0.05).contains(&f) => Fate::Killed,
            f if (0.05..0.07).contains(&f) => Fate::Evicted,
            f if (0.07..0.08).contains(&f) => Fate::NoRequest,
            f if (0.08..0.11).contains(&f) => Fate::MemoryUpdated,
            _ => Fate::Finished,
        };
        let run = if sample::open_unit(&mut self.service) < 0.6 {
            sample::exponential(&mut self.service, 1.0 / 30.0)
        } else {
            sample::exponential(&mut self.service, 1.0 / 200.0)
        };
        let run_us = (run * 1e6).round() as u64 + 1;
        let delay_us = (sample::exponential(&mut self.service, 5.0) * 1e6).round() as u64;
        // A fixed number of tasks run from time 0, so that a longer file of the same seed
        // starts with the shorter one's tasks.
        let submit = (task >= TIME_ZERO_TASKS.min(self.tasks / 2)).then(|| {
            self.t += (sample::exponential(&mut self.arrivals, self.per_second) * 1e6).round() as u64;
            self.t
        });
        TaskDraw { submit, cpu, memory, priority, fate, run_us, delay_us }
    }
}

/// The kept tasks of a [`GoogleSynth`] trace, one at a time ([`GoogleSynth::kept_tasks`]).
#[derive(Debug, Clone)]
pub struct KeptTasks {
    draws: TaskDraws,
    task: u64,
}

impl Iterator for KeptTasks {
    type Item = GoogleTask;

    fn next(&mut self) -> Option<GoogleTask> {
        // The reader keeps a task that was submitted after time 0 with its requests, scheduled
        // once and finished: its duration is the run time, its requests the last ones given,
        // which are the SCHEDULE line's (a pending update is overwritten by them).
        let units = |v: f64| f64::from(((v * 1e5).round() as u32).max(1)) / 1e5;
        while self.task < self.draws.tasks {
            let task = self.task;
            self.task += 1;
            let d = self.draws.next(task);
            let (Some(submit_us), Fate::Finished | Fate::MemoryUpdated) = (d.submit, d.fate) else { continue };
            return Some(GoogleTask {
                submit_us,
                duration_us: d.run_us,
                cpu: units(d.cpu),
                memory: units(d.memory),
                priority: d.priority,
                job: job_of(task),
                index: (task % 4) as u32,
            });
        }
        None
    }
}

/// Four tasks per job ID.
fn job_of(task: u64) -> u64 {
    6_000_000_000 + task / 4
}

fn write_google(out: &mut dyn Write, at: u64, l: &TaskLine) -> io::Result<()> {
    let request = |v: Option<u32>| v.map_or(String::new(), |u| format!("{}", f64::from(u) / 1e5));
    let machine = if matches!(l.kind, event::SUBMIT | event::UPDATE_PENDING) {
        String::new()
    } else {
        format!("{}", 5000 + l.task % 997)
    };
    writeln!(
        out,
        "{at},,{},{},{machine},{},u{},{},{},{},{},,0",
        job_of(l.task),
        l.task % 4,
        l.kind,
        l.task % 53,
        l.task % 4,
        l.priority,
        request(l.cpu),
        request(l.memory),
    )
}

/// An SWF log of `jobs` jobs on a machine of `max_procs` processors.
///
/// Distributions: Poisson arrivals at `per_hour`; processors and run times by `shape`
/// ([`SwfShape`]), run times in whole seconds. With probability 2 % the run time is unknown
/// (-1), 1 % both processor counts are unknown, 10 % only the allocation is unknown (the
/// request counts); statuses are 1 (completed), 0 (failed) or 5 (cancelled). The header and one
/// line in the middle are comments.
#[derive(Debug, Clone, Copy)]
pub struct SwfSynth {
    pub jobs: u64,
    pub max_procs: u32,
    pub per_hour: f64,
    pub seed: u64,
    pub shape: SwfShape,
}

/// What the jobs of a synthetic SWF log ask for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SwfShape {
    /// Processors a power of two (70 %, exponent uniform up to the machine) or uniform on
    /// 1..=`max_procs`; run time 50 % Exp(mean 5 min), 50 % Exp(mean 1 h).
    Mixed,
    /// One processor or the whole machine, the whole machine with probability `large`; run time
    /// Exp(mean 10 min) for both: the one-or-all workload of the multiserver-job papers.
    OneOrAll { large: f64 },
}

impl SwfShape {
    /// The mean run time of a one-or-all job, seconds.
    pub const ONE_OR_ALL_RUN: f64 = 600.0;
}

impl SwfSynth {
    pub fn new(jobs: u64, seed: u64) -> Self {
        Self { jobs, max_procs: 128, per_hour: 5.0, seed, shape: SwfShape::Mixed }
    }

    /// A one-or-all log on `procs` processors, a share `large` of the jobs asking for all of
    /// them, arriving at the rate that offers `load` of the machine's capacity.
    pub fn one_or_all(jobs: u64, seed: u64, procs: u32, large: f64, load: f64) -> Self {
        let work = (1.0 - large + large * f64::from(procs)) * SwfShape::ONE_OR_ALL_RUN;
        let per_hour = load * f64::from(procs) * 3600.0 / work;
        Self { jobs, max_procs: procs, per_hour, seed, shape: SwfShape::OneOrAll { large } }
    }

    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut arrivals = stream(self.seed, Stream::Arrivals);
        let mut draws = stream(self.seed, Stream::Sizes);
        let mut service = stream(self.seed, Stream::Service);
        writeln!(out, "; Version: 2.2")?;
        writeln!(out, "; Computer: packlab synthetic machine (not an archive log)")?;
        writeln!(out, "; MaxJobs: {}", self.jobs)?;
        writeln!(out, "; MaxProcs: {}", self.max_procs)?;
        writeln!(out, "; Note: generated by packlab trace synth --format swf, seed {}", self.seed)?;
        let mut t = 0.0;
        let bits = 32 - self.max_procs.leading_zeros();
        for n in 1..=self.jobs {
            if n == self.jobs / 2 {
                writeln!(out, "; the machine was upgraded here (a comment between jobs)")?;
            }
            t += sample::exponential(&mut arrivals, self.per_hour / 3600.0);
            let (procs, mean) = match self.shape {
                SwfShape::Mixed => {
                    let procs = if sample::open_unit(&mut draws) < 0.7 {
                        1u64 << sample::uniform_int(&mut draws, 0, u64::from(bits - 1))
                    } else {
                        sample::uniform_int(&mut draws, 1, u64::from(self.max_procs))
                    };
                    (procs, if sample::open_unit(&mut service) < 0.5 { 300.0 } else { 3600.0 })
                }
                SwfShape::OneOrAll { large } => {
                    let all = sample::open_unit(&mut draws) < large;
                    (if all { u64::from(self.max_procs) } else { 1 }, SwfShape::ONE_OR_ALL_RUN)
                }
            };
            let run = sample::exponential(&mut service, 1.0 / mean).ceil() as i64;
            let fate = sample::open_unit(&mut draws);
            let run = if fate < 0.02 { -1 } else { run };
            let (alloc, req) = match fate {
                f if (0.02..0.03).contains(&f) => (-1, -1),
                f if (0.03..0.13).contains(&f) => (-1, procs as i64),
                _ => (procs as i64, procs as i64),
            };
            let status = [1, 1, 1, 1, 1, 1, 1, 0, 5, 1][(n % 10) as usize];
            let wait = (sample::exponential(&mut arrivals, 1.0 / 60.0)).round() as i64;
            writeln!(
                out,
                "{n:>7} {:>9} {wait:>6} {run:>6} {alloc:>4} -1 -1 {req:>4} {:>6} -1 {status} {} {} -1 1 -1 -1 -1",
                t.round() as i64,
                if run < 0 { 3600 } else { run * 2 },
                1 + n % 37,
                1 + n % 5,
            )?;
        }
        Ok(())
    }
}

/// exp(uniform(ln lo, ln hi)), in `libm`'s arithmetic so that the browser draws the same
/// trace as the native build (the platforms' own `ln` and `exp` may differ in the last bit).
/// A log-uniform law on [lo, hi], its logarithms taken once (the draws are the same bits as
/// taking them every time: they were, and recorded runs depend on them).
#[derive(Debug, Clone, Copy)]
struct LogUniform {
    ln_lo: f64,
    ln_ratio: f64,
}

impl LogUniform {
    fn new(lo: f64, hi: f64) -> Self {
        Self { ln_lo: libm::log(lo), ln_ratio: libm::log(hi / lo) }
    }

    fn sample(self, rng: &mut StreamRng) -> f64 {
        libm::exp(self.ln_lo + sample::open_unit(rng) * self.ln_ratio)
    }
}

fn weighted(rng: &mut impl Rng, weights: &[u32]) -> u8 {
    let total: u32 = weights.iter().sum();
    let mut u = sample::uniform_int(rng, 0, u64::from(total) - 1) as u32;
    for (i, w) in weights.iter().enumerate() {
        if u < *w {
            return i as u8;
        }
        u -= w;
    }
    (weights.len() - 1) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Loaded, read_bytes};

    #[test]
    fn google_sample_reads_back_with_every_reason() {
        let mut text = Vec::new();
        GoogleSynth::new(4000, 7).write(&mut text).unwrap();
        let Loaded::Google(t) = read_bytes(&text).unwrap() else { panic!() };
        let r = &t.report;
        // About 92 % are kept; each fate shows among the skipped.
        assert!((3600..3760).contains(&r.kept), "{}", r.describe());
        let reasons: Vec<&str> = r.skipped.iter().map(|(r, _)| *r).collect();
        for reason in
            ["evicted, failed, killed or lost", "present when the trace began (time 0)", "no CPU or memory request"]
        {
            assert!(reasons.contains(&reason), "{reason}: {}", r.describe());
        }
        let mean_size = t.tasks.iter().map(|t| t.size()).sum::<f64>() / t.tasks.len() as f64;
        assert!((0.11..0.15).contains(&mean_size), "{mean_size}");
        let mut again = Vec::new();
        GoogleSynth::new(4000, 7).write(&mut again).unwrap();
        assert_eq!(text, again);
        // Without the text: the same tasks and counts.
        let direct = GoogleSynth::new(4000, 7).trace().unwrap();
        assert!(direct.tasks == t.tasks, "the tasks differ");
        assert_eq!((direct.report.lines, &direct.report.skipped), (t.report.lines, &t.report.skipped));
    }

    #[test]
    fn the_kept_tasks_are_the_readers_bit_for_bit() {
        // Short traces too, where fewer than 40 tasks run from time 0.
        for (tasks, seed) in [(6, 1), (81, 2), (5000, 3), (20_000, 11)] {
            let synth = GoogleSynth::new(tasks, seed);
            let read = synth.trace().unwrap().tasks;
            let drawn: Vec<GoogleTask> = synth.kept_tasks().collect();
            assert_eq!(drawn.len(), read.len(), "{tasks} tasks, seed {seed}");
            if let Some(i) = (0..read.len()).find(|&i| drawn[i] != read[i]) {
                panic!("{tasks} tasks, seed {seed}: kept task {i}: {:?} drawn, {:?} read", drawn[i], read[i]);
            }
        }
    }

    #[test]
    fn swf_sample_reads_back_with_its_unknowns() {
        let mut text = Vec::new();
        SwfSynth::new(2000, 3).write(&mut text).unwrap();
        let Loaded::Swf(log) = read_bytes(&text).unwrap() else { panic!() };
        assert_eq!(log.max_procs, Some(128));
        let skipped: u64 = log.report.skipped_total();
        assert_eq!(log.report.kept + skipped, 2000);
        assert!((40..100).contains(&skipped), "{}", log.report.describe());
        assert!(log.jobs.iter().all(|j| (1..=128).contains(&j.processors)));
    }
}
