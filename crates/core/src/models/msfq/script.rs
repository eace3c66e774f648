//! What a script sees of the multiserver-job model: the `ctx` its `fn schedule(ctx)` gets
//! after every arrival and every completion (the admission routine, RES-55), and the starting
//! points shipped as scripts.
//!
#![doc = include_str!("scripts/context.md")]

use rhai::{Dynamic, Engine, EvalAltResult, NativeCallContext as At};

use super::policy::{MsfqContext, MsfqDecision};
use super::state::MsfqJob;
use crate::script::lease::{Family, Lease};
use crate::script::{self, Scripting, Starter, invalid, refuse};
use crate::workload::sample;

type Reply<T> = Result<T, Box<EvalAltResult>>;

/// The model's starting points; the first runs when `script` is given no source.
pub const STARTERS: &[Starter] = &[
    Starter { policy: "msf", source: include_str!("scripts/msf.rhai") },
    Starter { policy: "fcfs", source: include_str!("scripts/fcfs.rhai") },
];

/// What the page's editor shows an MSFQ script writer.
pub const SCRIPTING: Scripting = Scripting { context: include_str!("scripts/context.md"), starters: STARTERS };

/// `MsfqContext<'a>` for every `'a`.
pub struct Contexts;
impl Family for Contexts {
    type Of<'a> = MsfqContext<'a>;
}

/// The `ctx` a script gets: a handle to the admission routine's context, valid during the call.
#[derive(Clone)]
pub struct Ctx(pub Lease<Contexts>);

impl Ctx {
    fn with<R>(&self, use_it: impl for<'x> FnOnce(&mut MsfqContext<'x>) -> R) -> Reply<R> {
        self.0.with(use_it).map_err(|_| "ctx is used outside the call it was given to".into())
    }
}

/// A waiting job as a script sees it.
#[derive(Debug, Clone, Copy)]
pub struct Job {
    id: u64,
    arrival: f64,
    now: f64,
}

fn class_of(at: &At, class: i64, ctx: &MsfqContext<'_>) -> Reply<usize> {
    usize::try_from(class)
        .ok()
        .filter(|&c| c < ctx.state().classes())
        .ok_or_else(|| invalid(at, format!("class {class} does not exist")))
}

/// Registers `ctx`'s type and functions on a script's engine.
pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<Ctx>("Context");
    engine.register_type_with_name::<Job>("Job");
    engine
        .register_get("id", |j: &mut Job| j.id as i64)
        .register_get("arrival", |j: &mut Job| j.arrival)
        .register_get("wait", |j: &mut Job| j.now - j.arrival)
        .register_fn("to_string", |j: &mut Job| format!("job {}", j.id));
    engine
        .register_get("now", |c: &mut Ctx| c.with(|x| x.now()))
        .register_get("cores", |c: &mut Ctx| c.with(|x| x.state().cores() as i64))
        .register_get("free", |c: &mut Ctx| c.with(|x| x.state().free() as i64))
        .register_get("busy", |c: &mut Ctx| c.with(|x| x.state().busy() as i64))
        .register_get("classes", |c: &mut Ctx| c.with(|x| x.state().classes() as i64))
        .register_get("waiting_total", |c: &mut Ctx| c.with(|x| x.state().waiting_total() as i64))
        .register_get("explaining", |c: &mut Ctx| c.with(|x| x.explaining()))
        .register_fn("need", |at: At, c: &mut Ctx, class: i64| -> Reply<i64> {
            c.with(|x| class_of(&at, class, x).map(|k| x.state().need(k) as i64))?
        })
        .register_fn("waiting", |at: At, c: &mut Ctx, class: i64| -> Reply<i64> {
            c.with(|x| class_of(&at, class, x).map(|k| x.state().waiting(k) as i64))?
        })
        .register_fn("in_service", |at: At, c: &mut Ctx, class: i64| -> Reply<i64> {
            c.with(|x| class_of(&at, class, x).map(|k| x.state().in_service(k) as i64))?
        })
        .register_fn("head", |at: At, c: &mut Ctx, class: i64| -> Reply<Dynamic> {
            c.with(|x| {
                let k = class_of(&at, class, x)?;
                let now = x.now();
                Ok(x.state()
                    .head(k)
                    .map_or(Dynamic::UNIT, |j: &MsfqJob| Dynamic::from(Job { id: j.id, arrival: j.arrival, now })))
            })?
        })
        .register_fn("oldest", |c: &mut Ctx| {
            c.with(|x| x.state().oldest_where(|_| true).map_or(Dynamic::UNIT, |k| Dynamic::from(k as i64)))
        })
        .register_fn("start", |at: At, c: &mut Ctx, class: i64| -> Reply<()> {
            c.with(|x| {
                let class = class_of(&at, class, x)?;
                x.apply(MsfqDecision::Start { class, why: "the script's choice" }).map_err(|e| refuse(&at, e))
            })?
        })
        .register_fn("random", |c: &mut Ctx| c.with(|x| sample::open_unit(x.rng())))
        .register_fn("random_int", |at: At, c: &mut Ctx, lo: i64, hi: i64| -> Reply<i64> {
            if lo > hi {
                return Err(invalid(&at, format!("random_int({lo}, {hi}): lo must not exceed hi")));
            }
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
