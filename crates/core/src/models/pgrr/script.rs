//! What a script sees of PG-RR: the `ctx` its `fn schedule(ctx)` gets each slot, after
//! departures and arrivals, and the starting points shipped as scripts.
//!
#![doc = include_str!("scripts/context.md")]

use rhai::{Array, Dynamic, Engine, EvalAltResult, NativeCallContext as At};

use super::policy::{PgrrContext, PgrrDecision, Rule};
use super::state::WaitingJob;
use crate::script::lease::{Family, Lease};
use crate::script::{self, Scripting, Starter, invalid, refuse};
use crate::workload::sample;

type Reply<T> = Result<T, Box<EvalAltResult>>;

/// PG-RR's starting points; the first runs when `script` is given no source.
pub const STARTERS: &[Starter] = &[
    Starter { policy: "bf-j", source: include_str!("scripts/best_fit.rhai") },
    Starter { policy: "fifo-ff", source: include_str!("scripts/first_fit.rhai") },
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

/// The `ctx` a script gets: a handle to the slot's context, valid during the call.
#[derive(Clone)]
pub struct Ctx(pub Lease<Contexts>);

impl Ctx {
    fn with<R>(&self, use_it: impl for<'x> FnOnce(&mut PgrrContext<'x>) -> R) -> Reply<R> {
        // Only a script that kept `ctx` past its call (impossible without globals) gets here.
        self.0.with(use_it).map_err(|_| "ctx is used outside the call it was given to".into())
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
}

impl Job {
    fn of(job: WaitingJob, ctx: &PgrrContext<'_>) -> Self {
        let capacity = ctx.cluster().capacity();
        Self { id: job.id, units: job.occupies.primary(), arrival: job.arrival, slot: ctx.slot(), capacity }
    }

    fn dynamic(job: Option<WaitingJob>, ctx: &PgrrContext<'_>) -> Dynamic {
        job.map_or(Dynamic::UNIT, |job| Dynamic::from(Self::of(job, ctx)))
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

fn server_or_unit(server: Option<u32>) -> Dynamic {
    server.map_or(Dynamic::UNIT, |s| Dynamic::from(s as i64))
}

fn int(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A server number from a script: refused (as the engine would) when out of range.
fn server_id(at: &At, server: i64) -> Reply<u32> {
    u32::try_from(server).map_err(|_| invalid(at, format!("server {server} does not exist")))
}

fn job_id(at: &At, id: i64) -> Reply<u64> {
    u64::try_from(id).map_err(|_| invalid(at, format!("job {id} is not waiting")))
}

/// Registers `ctx`'s type and functions on a script's engine.
pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<Ctx>("Context");
    engine.register_type_with_name::<Job>("Job");
    engine
        .register_get("id", |j: &mut Job| int(j.id))
        .register_get("size", |j: &mut Job| j.units as f64 / j.capacity as f64)
        .register_get("arrival", |j: &mut Job| int(j.arrival))
        .register_get("wait", |j: &mut Job| int(j.slot - j.arrival))
        .register_fn("to_string", |j: &mut Job| format!("job {} (size {})", j.id, j.units as f64 / j.capacity as f64));

    engine
        .register_get("slot", |c: &mut Ctx| c.with(|x| int(x.slot())))
        .register_get("servers", |c: &mut Ctx| c.with(|x| x.cluster().len() as i64))
        .register_get("queue_len", |c: &mut Ctx| c.with(|x| x.queue().len() as i64))
        .register_get("max_residual", |c: &mut Ctx| c.with(|x| fraction(x.cluster().max_residual(), x)))
        .register_get("explaining", |c: &mut Ctx| c.with(|x| x.explaining()))
        .register_fn("residual", |at: At, c: &mut Ctx, s: i64| {
            let s = server_id(&at, s)?;
            c.with(|x| (s < x.cluster().len() as u32).then(|| fraction(x.cluster().residual(s), x)))?
                .ok_or_else(|| invalid(&at, format!("server {s} does not exist")))
        })
        .register_fn("best_fit", |c: &mut Ctx, size: f64| {
            c.with(|x| server_or_unit(x.cluster().best_fit(units(size, x))))
        })
        .register_fn("best_fit", |c: &mut Ctx, j: Job| c.with(|x| server_or_unit(x.cluster().best_fit(j.units))))
        .register_fn("first_fit", |c: &mut Ctx, size: f64| {
            c.with(|x| server_or_unit(x.cluster().first_fit(0, units(size, x))))
        })
        .register_fn("first_fit", |c: &mut Ctx, j: Job| c.with(|x| server_or_unit(x.cluster().first_fit(0, j.units))))
        .register_fn("first_fit", |at: At, c: &mut Ctx, from: i64, size: f64| {
            let from = server_id(&at, from.max(0))?;
            c.with(|x| server_or_unit(x.cluster().first_fit(from, units(size, x))))
        })
        .register_fn("first_fit", |at: At, c: &mut Ctx, from: i64, j: Job| {
            let from = server_id(&at, from.max(0))?;
            c.with(|x| server_or_unit(x.cluster().first_fit(from, j.units)))
        })
        .register_fn("head", |c: &mut Ctx| c.with(|x| Job::dynamic(x.queue().head(), x)))
        .register_fn("job", |c: &mut Ctx, id: i64| {
            let id = u64::try_from(id).unwrap_or(u64::MAX);
            c.with(|x| Job::dynamic(x.queue().get(id), x))
        })
        .register_fn("largest_fitting", |c: &mut Ctx, room: f64| {
            c.with(|x| Job::dynamic(x.queue().largest_fitting(units(room, x).min(x.cluster().capacity())), x))
        })
        .register_fn("first_fitting", |c: &mut Ctx, from: i64, room: f64| {
            let from = u64::try_from(from).unwrap_or(0);
            c.with(|x| Job::dynamic(x.queue().first_fitting(from, units(room, x).min(x.cluster().capacity())), x))
        })
        // Lists cost an operation per element (the budget's rule for what a call hands over).
        .register_fn("waiting", |at: At, c: &mut Ctx| -> Reply<Array> {
            script::budget::charge(&at, c.with(|x| x.queue().len() as u64)?)?;
            c.with(|x| x.queue().iter().map(|j| Dynamic::from(Job::of(j, x))).collect())
        })
        .register_fn("arrivals", |at: At, c: &mut Ctx| -> Reply<Array> {
            script::budget::charge(&at, c.with(|x| x.arrivals().len() as u64)?)?;
            c.with(|x| x.arrivals().iter().map(|j| Dynamic::from(Job::of(*j, x))).collect())
        })
        .register_fn("departed", |at: At, c: &mut Ctx| -> Reply<Array> {
            script::budget::charge(&at, c.with(|x| x.departed().len() as u64)?)?;
            c.with(|x| x.departed().iter().map(|s| Dynamic::from(*s as i64)).collect())
        })
        .register_fn("start", |at: At, c: &mut Ctx, j: Job, server: i64| start(&at, c, j.id, server))
        .register_fn("start", |at: At, c: &mut Ctx, id: i64, server: i64| start(&at, c, job_id(&at, id)?, server))
        .register_fn("random", |c: &mut Ctx| c.with(|x| sample::open_unit(x.rng())))
        .register_fn("random_int", |at: At, c: &mut Ctx, lo: i64, hi: i64| -> Reply<i64> {
            if lo > hi {
                return Err(invalid(&at, format!("random_int({lo}, {hi}): lo must not exceed hi")));
            }
            // Drawn as an offset from lo, so negative bounds work on the unsigned sampler.
            let span = hi.abs_diff(lo);
            c.with(|x| lo.wrapping_add(sample::uniform_int(x.rng(), 0, span) as i64))
        })
        .register_fn("note", |at: At, c: &mut Ctx, label: &str, value: Dynamic| -> Reply<()> {
            let kept = c.with(|x| x.keeps_notes())?;
            if let Some((label, value)) = script::note(&at, label, &value, kept)? {
                c.with(|x| x.note(label, value))?;
            }
            Ok(())
        });
}

fn start(at: &At, c: &mut Ctx, job: u64, server: i64) -> Reply<()> {
    let server = server_id(at, server)?;
    c.with(|x| x.apply(PgrrDecision::Start { job, server, rule: SCRIPTED }).map(drop))?.map_err(|e| refuse(at, e))
}
