//! What a script sees of GH-RA: the `ctx` its `fn schedule(ctx)` gets at every arrival, to
//! route the arriving job to a server's own queue (Algorithm 2's architecture, GH-RA §3.2.2),
//! and the starting points shipped as scripts.
//!
//! Routing is the decision a script owns because it is the one GH-RA's distributed policies
//! differ in (JSQ, power of two; §3.2.2 and Remark 1) and the engine already checks it (the
//! server exists and could hold the job when empty). The starts stay Algorithm 2's: each
//! queue's Poisson clock and its dummy jobs are what the paper's stability proof rests on,
//! and a script that started jobs itself would no longer be that algorithm.
//!
#![doc = include_str!("scripts/context.md")]

use rhai::{Array, Dynamic, Engine, EvalAltResult, NativeCallContext as At};

use super::policies::Router;
use super::{GhraContext, QueueRef};
use crate::script::lease::{Family, Lease};
use crate::script::{self, Scripting, Starter, invalid, refuse};
use crate::workload::sample;

type Reply<T> = Result<T, Box<EvalAltResult>>;

/// GH-RA's starting points; the first runs when `script` is given no source.
pub const STARTERS: &[Starter] = &[
    Starter { policy: "alg2-jsq", source: include_str!("scripts/jsq.rhai") },
    Starter { policy: "alg2-po2", source: include_str!("scripts/po2.rhai") },
    Starter { policy: "alg2-jsq:ties=lowest", source: include_str!("scripts/jsq_lowest.rhai") },
];

/// What the page's editor shows a GH-RA script writer.
pub const SCRIPTING: Scripting = Scripting { context: include_str!("scripts/context.md"), starters: STARTERS };

/// `GhraContext<'a>` for every `'a`.
pub struct Contexts;
impl Family for Contexts {
    type Of<'a> = GhraContext<'a>;
}

/// The arrival being routed: its type, the router's queue lengths, and the script's choice.
pub struct Arrival<'a> {
    pub router: &'a Router,
    pub job_type: usize,
    pub chosen: Option<u32>,
}

/// `Arrival<'a>` for every `'a`.
pub struct Arrivals;
impl Family for Arrivals {
    type Of<'a> = Arrival<'a>;
}

/// The `ctx` a script gets: handles to the engine's context and to the arrival, valid during
/// the call.
#[derive(Clone)]
pub struct Ctx {
    pub engine: Lease<Contexts>,
    pub arrival: Lease<Arrivals>,
}

const OUTSIDE: &str = "ctx is used outside the call it was given to";

impl Ctx {
    fn with<R>(&self, use_it: impl for<'x> FnOnce(&mut GhraContext<'x>) -> R) -> Reply<R> {
        self.engine.with(use_it).map_err(|_| OUTSIDE.into())
    }

    fn arrival<R>(&self, use_it: impl for<'x> FnOnce(&mut Arrival<'x>) -> R) -> Reply<R> {
        self.arrival.with(use_it).map_err(|_| OUTSIDE.into())
    }

    fn job_type(&self) -> Reply<usize> {
        self.arrival(|a| a.job_type)
    }
}

/// A server number from a script, refused when there is no such server.
fn server_of(at: &At, server: i64, ctx: &GhraContext<'_>) -> Reply<usize> {
    usize::try_from(server)
        .ok()
        .filter(|&s| s < ctx.state().servers())
        .ok_or_else(|| invalid(at, format!("server {server} does not exist")))
}

fn type_of(at: &At, job_type: i64, ctx: &GhraContext<'_>) -> Reply<usize> {
    usize::try_from(job_type)
        .ok()
        .filter(|&j| j < ctx.state().types())
        .ok_or_else(|| invalid(at, format!("type {job_type} does not exist")))
}

fn resource_of(at: &At, resource: i64, ctx: &GhraContext<'_>) -> Reply<usize> {
    usize::try_from(resource)
        .ok()
        .filter(|&r| r < ctx.state().demand(0).dims())
        .ok_or_else(|| invalid(at, format!("resource {resource} does not exist")))
}

fn int(n: impl TryInto<i64>) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}

/// Registers a query about server `s` (and a type): `f(state, server, type)`, the type being
/// the arriving job's unless given.
fn per_server<T: Clone + Send + Sync + 'static>(
    engine: &mut Engine,
    name: &str,
    f: fn(&super::GhraState, usize, usize) -> T,
) {
    engine.register_fn(name, move |at: At, c: &mut Ctx, s: i64| -> Reply<T> {
        let j = c.job_type()?;
        c.with(|x| server_of(&at, s, x).map(|s| f(x.state(), s, j)))?
    });
    engine.register_fn(name, move |at: At, c: &mut Ctx, s: i64, j: i64| -> Reply<T> {
        c.with(|x| {
            let s = server_of(&at, s, x)?;
            type_of(&at, j, x).map(|j| f(x.state(), s, j))
        })?
    });
}

/// Registers `ctx`'s type and functions on a script's engine.
pub fn register(engine: &mut Engine) {
    engine.register_type_with_name::<Ctx>("Context");
    engine
        .register_get("now", |c: &mut Ctx| c.with(|x| x.now()))
        .register_get("servers", |c: &mut Ctx| c.with(|x| x.state().servers() as i64))
        .register_get("types", |c: &mut Ctx| c.with(|x| x.state().types() as i64))
        .register_get("resources", |c: &mut Ctx| c.with(|x| x.state().demand(0).dims() as i64))
        .register_get("job_type", |c: &mut Ctx| c.job_type().map(|j| j as i64))
        .register_get("waiting_total", |c: &mut Ctx| c.with(|x| int(x.state().waiting_total())))
        .register_get("explaining", |c: &mut Ctx| c.with(|x| x.explaining()))
        // Lists cost an operation per element (the budget's rule for what a call hands over).
        .register_fn("eligible", |at: At, c: &mut Ctx| -> Reply<Array> {
            let list: Array =
                c.arrival(|a| a.router.eligible(a.job_type).iter().map(|&s| Dynamic::from(s as i64)).collect())?;
            script::budget::charge(&at, list.len() as u64)?;
            Ok(list)
        })
        .register_fn("shortest", |at: At, c: &mut Ctx| -> Reply<Array> {
            let list: Array =
                c.arrival(|a| a.router.shortest(a.job_type).map(|s| Dynamic::from(s as i64)).collect())?;
            script::budget::charge(&at, list.len() as u64)?;
            Ok(list)
        })
        .register_fn("waiting_of_type", |at: At, c: &mut Ctx, j: i64| -> Reply<i64> {
            c.with(|x| type_of(&at, j, x).map(|j| int(x.state().waiting_of_type(j))))?
        })
        .register_fn("waiting_at", |at: At, c: &mut Ctx, s: i64| -> Reply<i64> {
            c.with(|x| server_of(&at, s, x).map(|s| int(x.state().waiting_at(s))))?
        })
        .register_fn("jobs_on", |at: At, c: &mut Ctx, s: i64| -> Reply<i64> {
            c.with(|x| server_of(&at, s, x).map(|s| i64::from(x.state().jobs_on(s))))?
        })
        .register_fn("capacity", |at: At, c: &mut Ctx, s: i64, r: i64| -> Reply<i64> {
            c.with(|x| {
                let s = server_of(&at, s, x)?;
                resource_of(&at, r, x).map(|r| int(x.state().capacity(s).as_slice()[r]))
            })?
        })
        .register_fn("used", |at: At, c: &mut Ctx, s: i64, r: i64| -> Reply<i64> {
            c.with(|x| {
                let s = server_of(&at, s, x)?;
                resource_of(&at, r, x).map(|r| int(x.state().used[s].as_slice()[r]))
            })?
        })
        .register_fn("demand", |at: At, c: &mut Ctx, j: i64, r: i64| -> Reply<i64> {
            c.with(|x| {
                let j = type_of(&at, j, x)?;
                resource_of(&at, r, x).map(|r| int(x.state().demand(j).as_slice()[r]))
            })?
        })
        .register_fn("route", route)
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
    per_server(engine, "queue", |st, s, j| int(st.queue_len(QueueRef::Local { server: s as u32, job_type: j as u16 })));
    per_server(engine, "running", |st, s, j| i64::from(st.running(s, j)));
    per_server(engine, "fits", |st, s, j| st.fits(j, s));
}

/// `ctx.route(s)`: the arriving job joins server s's queue of its type. Checked here, as the
/// engine would, so the refusal names the script's line: once per arrival, to a server that
/// could hold the job when empty.
fn route(at: At, c: &mut Ctx, server: i64) -> Reply<()> {
    let server = c.with(|x| server_of(&at, server, x))?? as u32;
    c.arrival(|a| {
        if let Some(earlier) = a.chosen {
            return Err(refuse(&at, format!("policy bug: this job is already routed to server {earlier}")));
        }
        if !a.router.is_eligible(a.job_type, server as usize) {
            let j = a.job_type;
            return Err(refuse(&at, format!("policy bug: server {server} can never hold a type-{j} job (too small)")));
        }
        a.chosen = Some(server);
        Ok(())
    })?
}
