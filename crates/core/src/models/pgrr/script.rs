//! What a script sees of PG-RR: the `ctx` its `fn schedule(ctx)` gets each slot, after
//! departures and arrivals, and the starting points shipped as scripts.
//!
#![doc = include_str!("scripts/context.md")]

use std::rc::Rc;

use super::partition::{self, Config, Partition};
use super::policy::{PgrrContext, PgrrDecision, Rule};
use super::state::WaitingJob;
use crate::script::context::{self, Answer, Field, Handle, JobType, Member, Meter, Stop, Ty, Value};
use crate::script::lease::{Family, Lease};
use crate::script::{self, Scripting, Starter};
use crate::workload::sample;

/// PG-RR's starting points; the first runs when `script` is given no source.
pub const STARTERS: &[Starter] = &[
    Starter { policy: "bf-j", source: include_str!("scripts/best_fit.rhai") },
    Starter { policy: "fifo-ff", source: include_str!("scripts/first_fit.rhai") },
    Starter { policy: "vqs", source: include_str!("scripts/vqs.rhai") },
];

/// What the page's editor shows a PG-RR script writer.
pub const SCRIPTING: Scripting = Scripting { context: include_str!("scripts/context.md"), starters: STARTERS };

/// The rule a scripted start shows; the script's notes say why.
const SCRIPTED: Rule = Rule::Server("the script's choice");

/// `PgrrContext<'a>` for every `'a`.
pub struct Contexts;
impl Family for Contexts {
    type Of<'a> = PgrrContext<'a>;
}

/// The `ctx` a script gets: a handle to the slot's context, valid during the call, and VQS's
/// partition of sizes by the scenario's J with its configurations K_RED (what the virtual-queue
/// members answer from, as the built-in VQS does).
#[derive(Clone)]
pub struct Ctx {
    pub lease: Lease<Contexts>,
    pub queues: Rc<Queues>,
}

/// VQS's partition of sizes and its reduced configurations, made once per lane.
#[derive(Debug)]
pub struct Queues {
    pub partition: Partition,
    pub configs: Vec<Config>,
}

impl Queues {
    pub fn new(partition: Partition) -> Self {
        Self { partition, configs: partition::reduced_configs(partition.j()) }
    }
}

impl Ctx {
    fn with<R>(&self, use_it: impl for<'x> FnOnce(&mut PgrrContext<'x>) -> R) -> Result<R, Stop> {
        // Only a routine that kept `ctx` past its call gets here.
        self.lease.with(use_it).map_err(|_| Stop::Error("ctx is used outside the call it was given to".into()))
    }

    /// Configuration `k` of K_RED, refused (as a bug of the policy) when there is none.
    fn config(&self, k: i64) -> Result<Config, Stop> {
        let n = self.queues.configs.len();
        usize::try_from(k)
            .ok()
            .and_then(|k| self.queues.configs.get(k).copied())
            .ok_or_else(|| Stop::invalid(format!("configuration {k} does not exist (K_RED has {n}, numbered from 0)")))
    }

    /// Virtual queue `t`, refused when there is none.
    fn queue(&self, t: i64) -> Result<usize, Stop> {
        let n = self.queues.partition.types();
        usize::try_from(t)
            .ok()
            .filter(|&t| t < n)
            .ok_or_else(|| Stop::invalid(format!("virtual queue {t} does not exist (2J = {n}, numbered from 0)")))
    }
}

/// A waiting job as a script sees it.
#[derive(Debug, Clone, Copy)]
pub struct Job {
    id: u64,
    units: u64,
    arrival: u64,
    slot: u64,
    capacity: u64,
    vq: usize,
}

impl Job {
    fn of(job: WaitingJob, ctx: &PgrrContext<'_>, partition: &Partition) -> Self {
        let capacity = ctx.cluster().capacity();
        let units = job.occupies.primary();
        let vq = partition.type_of(units);
        Self { id: job.id, units, arrival: job.arrival, slot: ctx.slot(), capacity, vq }
    }

    fn value(job: Option<WaitingJob>, ctx: &PgrrContext<'_>, partition: &Partition) -> Value<Job> {
        job.map_or(Value::Unit, |job| Value::Job(Self::of(job, ctx, partition)))
    }

    fn size(&self) -> f64 {
        self.units as f64 / self.capacity as f64
    }
}

impl JobType for Job {
    const FIELDS: &'static [Field<Self>] = &[
        Field { name: "id", doc: "its number, in order of arrival", get: |j| Value::Int(int(j.id)) },
        Field { name: "size", doc: "its size, a fraction of a server", get: |j| Value::Float(j.size()) },
        Field { name: "arrival", doc: "the slot it arrived in", get: |j| Value::Int(int(j.arrival)) },
        Field { name: "wait", doc: "slots it has waited", get: |j| Value::Int(int(j.slot - j.arrival)) },
        Field {
            name: "vq",
            doc: "its virtual queue under VQS's partition by J (0 for sizes above 2/3, 2J-1 for the smallest)",
            get: |j| Value::Int(j.vq as i64),
        },
    ];

    fn text(&self) -> String {
        format!("job {} (size {})", self.id, self.size())
    }
}

/// A size or room given as a fraction, in capacity units (clamped to 0..=capacity).
fn units(fraction: f64, ctx: &PgrrContext<'_>) -> u64 {
    let capacity = ctx.cluster().capacity();
    if fraction.is_nan() {
        return capacity + 1;
    }
    (fraction * capacity as f64).round().clamp(0.0, capacity as f64 + 1.0) as u64
}

fn fraction(units: u64, ctx: &PgrrContext<'_>) -> f64 {
    units as f64 / ctx.cluster().capacity() as f64
}

fn server_or_unit(server: Option<u32>) -> Value<Job> {
    server.map_or(Value::Unit, |s| Value::Int(s as i64))
}

fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A server number from a script: refused (as the engine would) when out of range.
fn server_id(server: i64) -> Result<u32, Stop> {
    u32::try_from(server).map_err(|_| Stop::invalid(format!("server {server} does not exist")))
}

/// The size a job argument or a fraction argument stands for, in capacity units.
fn size_of(arg: &Value<Job>, x: &PgrrContext<'_>) -> u64 {
    arg.job().map_or_else(|| units(arg.float(), x), |j| j.units)
}

type Call = context::Call<Ctx>;

/// `f(ctx)` as a getter's answer.
macro_rules! get {
    ($name:literal, $doc:literal, $f:expr) => {
        Member::get($name, $doc, |c, _, _| c.with($f))
    };
}

/// What a list hands over costs an operation per element (the budget's rule).
fn list(
    c: &mut Ctx,
    meter: &mut dyn Meter,
    items: impl for<'x> Fn(&PgrrContext<'x>, &Partition) -> Vec<Value<Job>>,
) -> Answer<Job> {
    let partition = c.queues.partition;
    let items = c.with(|x| items(x, &partition))?;
    meter.charge(items.len() as u64)?;
    Ok(Value::List(items))
}

const BEST_FIT: Call = |c, _, a| c.with(|x| server_or_unit(x.cluster().best_fit(size_of(&a[0], x))));
const FIRST_FIT: Call = |c, _, a| c.with(|x| server_or_unit(x.cluster().first_fit(0, size_of(&a[0], x))));
const FIRST_FIT_FROM: Call = |c, _, a| {
    let from = server_id(a[0].int().max(0))?;
    c.with(|x| server_or_unit(x.cluster().first_fit(from, size_of(&a[1], x))))
};
const START: Call = |c, _, a| {
    let job = match &a[0] {
        Value::Job(j) => j.id,
        other => {
            u64::try_from(other.int()).map_err(|_| Stop::invalid(format!("job {} is not waiting", other.int())))?
        }
    };
    let server = server_id(a[1].int())?;
    c.with(|x| x.apply(PgrrDecision::Start { job, server, rule: SCRIPTED }).map(|_| Value::Unit))?
        .map_err(|e| Stop::Refused(e.to_string()))
};

/// The largest queue count `heaviest` takes: far above any queue, and ⟨k, counts⟩ stays exact.
const MAX_COUNT: u64 = 1 << 40;

const HEAVIEST: Call = |c, meter, a| {
    let Value::List(list) = &a[0] else { return Err(Stop::invalid("heaviest takes a list of counts")) };
    meter.charge(list.len() as u64)?;
    let n = c.queues.partition.types();
    let counts: Option<Vec<u64>> = list
        .iter()
        .map(|v| u64::try_from(v.int()).ok().filter(|&q| matches!(v, Value::Int(_)) && q <= MAX_COUNT))
        .collect();
    let counts = counts.filter(|q| q.len() == n).ok_or_else(|| {
        Stop::invalid(format!(
            "heaviest(counts): counts must be {n} whole numbers in 0..={MAX_COUNT}, one per virtual queue"
        ))
    })?;
    Ok(Value::Int(partition::heaviest(&c.queues.configs, &counts) as i64))
};

/// Server `s` of the cluster, refused when there is none.
fn existing(s: i64, x: &PgrrContext<'_>) -> Result<u32, Stop> {
    server_id(s)
        .ok()
        .filter(|&s| s < x.cluster().len() as u32)
        .ok_or_else(|| Stop::invalid(format!("server {s} does not exist")))
}

/// The space server `s`'s jobs outside VQ1 take, and how many of its jobs are of queue `t`.
fn server_book(x: &PgrrContext<'_>, p: &Partition, s: u32, t: usize) -> (u64, i64) {
    let (mut other, mut of_t) = (0, 0);
    for job in x.cluster().jobs_on(s) {
        let space = job.occupies.primary();
        let vq = p.type_of(space);
        if vq != 1 {
            other += space;
        }
        of_t += i64::from(vq == t);
    }
    (other, of_t)
}

const HOLDS: Call = |c, _, a| {
    let t = c.queue(a[1].int())?;
    c.with(|x| existing(a[0].int(), x).map(|s| Value::Int(server_book(x, &c.queues.partition, s, t).1)))?
};

/// VQS's room for the configuration's other queue (SPEC 2.2.6): with a type-1 job in k, a
/// third of the server less the rest's space, rounded down to the unit, as the built-in does.
const VQ_ROOM: Call = |c, _, a| {
    let k = c.config(a[1].int())?;
    c.with(|x| {
        let s = existing(a[0].int(), x)?;
        let capacity = x.cluster().capacity();
        let (other, _) = server_book(x, &c.queues.partition, s, 1);
        let thirds = if k.type1 { capacity.saturating_sub(3 * other) } else { 3 * (capacity - other) };
        Ok(Value::Float(fraction(thirds / 3, x)))
    })?
};

/// The oldest job of queue `t` from `from` on within `room`. A queue is an interval of sizes,
/// so the engine's FIFO index by size, bounded by the queue's largest size, offers its jobs and
/// those of the smaller queues: the latter are passed over (each an O(log n) query more).
const OLDEST_IN: Call = |c, _, a| {
    let t = c.queue(a[0].int())?;
    let mut from = u64::try_from(a[1].int()).unwrap_or(0);
    let p = c.queues.partition;
    c.with(|x| {
        let room = units(a[2].float(), x).min(x.cluster().capacity()).min(p.largest_of(t));
        loop {
            match x.queue().first_fitting(from, room) {
                None => return Value::Unit,
                Some(job) if p.type_of(job.occupies.primary()) == t => return Value::Job(Job::of(job, x, &p)),
                Some(job) => from = job.id + 1,
            }
        }
    })
};

/// PG-RR's `ctx`, declared once: rhai's registration and the Python package's view are built
/// from it.
impl Handle for Ctx {
    type Job = Job;
    const ROUTINE: &'static str = "schedule";
    const MEMBERS: &'static [Member<Self>] = &[
        get!("slot", "the current slot", |x| Value::Int(int(x.slot()))),
        get!("servers", "the number of servers that take jobs", |x| Value::Int(x.cluster().active() as i64)),
        get!("queue_len", "jobs waiting", |x| Value::Int(x.queue().len() as i64)),
        get!("max_residual", "the largest free room of a server, a fraction", |x| {
            Value::Float(fraction(x.cluster().max_residual(), x))
        }),
        get!("explaining", "whether notes are kept (the inspector is open)", |x| Value::Bool(x.explaining())),
        Member::method("residual", &[Ty::Int], "server s's free room, a fraction", |c, _, a| {
            let s = server_id(a[0].int())?;
            c.with(|x| (s < x.cluster().len() as u32).then(|| Value::Float(fraction(x.cluster().residual(s), x))))?
                .ok_or_else(|| Stop::invalid(format!("server {s} does not exist")))
        }),
        Member::method("best_fit", &[Ty::Float], "the fullest server with room for a size, or None", BEST_FIT),
        Member::method("best_fit", &[Ty::Job], "the fullest server with room for a job, or None", BEST_FIT),
        Member::method("first_fit", &[Ty::Float], "the lowest server with room for a size, or None", FIRST_FIT),
        Member::method("first_fit", &[Ty::Job], "the lowest server with room for a job, or None", FIRST_FIT),
        Member::method("first_fit", &[Ty::Int, Ty::Float], "first_fit from server `from` on", FIRST_FIT_FROM),
        Member::method("first_fit", &[Ty::Int, Ty::Job], "first_fit from server `from` on", FIRST_FIT_FROM),
        Member::method("head", &[], "the oldest waiting job, or None", |c, _, _| {
            c.with(|x| Job::value(x.queue().head(), x, &c.queues.partition))
        }),
        Member::method("job", &[Ty::Int], "waiting job `id`, or None", |c, _, a| {
            let id = u64::try_from(a[0].int()).unwrap_or(u64::MAX);
            c.with(|x| Job::value(x.queue().get(id), x, &c.queues.partition))
        }),
        Member::method(
            "largest_fitting",
            &[Ty::Float],
            "the largest waiting job no larger than a room, or None",
            |c, _, a| {
                c.with(|x| {
                    let room = units(a[0].float(), x).min(x.cluster().capacity());
                    Job::value(x.queue().largest_fitting(room), x, &c.queues.partition)
                })
            },
        ),
        Member::method(
            "first_fitting",
            &[Ty::Int, Ty::Float],
            "the oldest waiting job from id `from` on no larger than a room, or None",
            |c, _, a| {
                let from = u64::try_from(a[0].int()).unwrap_or(0);
                let room = a[1].float();
                c.with(|x| {
                    let room = units(room, x).min(x.cluster().capacity());
                    Job::value(x.queue().first_fitting(from, room), x, &c.queues.partition)
                })
            },
        ),
        Member::method("waiting", &[], "the waiting jobs, oldest first", |c, m, _| {
            list(c, m, |x, p| x.queue().iter().map(|j| Value::Job(Job::of(j, x, p))).collect())
        }),
        Member::method("arrivals", &[], "the jobs that arrived this slot", |c, m, _| {
            list(c, m, |x, p| x.arrivals().iter().map(|j| Value::Job(Job::of(*j, x, p))).collect())
        }),
        Member::method("departed", &[], "the servers a job left this slot", |c, m, _| {
            list(c, m, |x, _| x.departed().iter().map(|s| Value::Int(*s as i64)).collect())
        }),
        Member::get(
            "j",
            "J, the depth of VQS's partition of sizes (the scenario's j): 2J virtual queues",
            |c, _, _| Ok(Value::Int(c.queues.partition.j() as i64)),
        ),
        Member::method(
            "heaviest",
            &[Ty::Ints],
            "the configuration of K_RED with the largest <k, counts> (counts per virtual queue; the first on ties)",
            HEAVIEST,
        ),
        Member::method(
            "reserves",
            &[Ty::Int],
            "whether configuration k keeps 2/3 of a server for one VQ1 job",
            |c, _, a| Ok(Value::Bool(c.config(a[0].int())?.type1)),
        ),
        Member::method("config_queue", &[Ty::Int], "configuration k's other virtual queue, or None", |c, _, a| {
            Ok(c.config(a[0].int())?.other.map_or(Value::Unit, |(t, _)| Value::Int(t as i64)))
        }),
        Member::method("holds", &[Ty::Int, Ty::Int], "the jobs of virtual queue t running on server s", HOLDS),
        Member::method(
            "vq_room",
            &[Ty::Int, Ty::Int],
            "the room server s has for configuration k's other queue: 1 less its jobs outside VQ1, less 2/3 if k reserves",
            VQ_ROOM,
        ),
        Member::method(
            "oldest_in",
            &[Ty::Int, Ty::Int, Ty::Float],
            "the oldest waiting job of virtual queue t with id >= from and size <= room, or None",
            OLDEST_IN,
        ),
        Member::method("start", &[Ty::Job, Ty::Int], "starts a waiting job on a server (checked by the engine)", START),
        Member::method(
            "start",
            &[Ty::Int, Ty::Int],
            "starts waiting job `id` on a server (checked by the engine)",
            START,
        ),
        Member::method("random", &[], "a uniform number in (0, 1) from the policy's own stream", |c, _, _| {
            c.with(|x| Value::Float(sample::open_unit(x.rng())))
        }),
        Member::method(
            "random_int",
            &[Ty::Int, Ty::Int],
            "a uniform integer in lo..=hi from the policy's stream",
            |c, _, a| random_int(c, a[0].int(), a[1].int()),
        ),
        Member::method("note", &[Ty::Text, Ty::Any], "a note for the inspector: a label and a value", |c, m, a| {
            let kept = c.with(|x| x.keeps_notes())?;
            if let Some((label, value)) = script::note_text(m, a[0].text(), &a[1], kept)? {
                c.with(|x| x.note(label, value))?;
            }
            Ok(Value::Unit)
        }),
    ];
}

fn random_int(c: &mut Ctx, lo: i64, hi: i64) -> Answer<Job> {
    if lo > hi {
        return Err(Stop::invalid(format!("random_int({lo}, {hi}): lo must not exceed hi")));
    }
    // Drawn as an offset from lo, so negative bounds work on the unsigned sampler.
    let span = hi.abs_diff(lo);
    c.with(|x| Value::Int(lo.wrapping_add(sample::uniform_int(x.rng(), 0, span) as i64)))
}

/// Registers `ctx`'s type and functions on a script's engine, from the declaration.
pub fn register(engine: &mut rhai::Engine) {
    context::register::<Ctx>(engine);
}
