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

use super::policies::Router;
use super::{GhraContext, GhraState, QueueRef};
use crate::script::context::{self, Answer, Handle, Member, NoJob, Stop, Ty, Value};
use crate::script::lease::{Family, Lease};
use crate::script::{self, Scripting, Starter};
use crate::workload::sample;

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
    fn with<R>(&self, use_it: impl for<'x> FnOnce(&mut GhraContext<'x>) -> R) -> Result<R, Stop> {
        self.engine.with(use_it).map_err(|_| Stop::Error(OUTSIDE.into()))
    }

    fn arrival<R>(&self, use_it: impl for<'x> FnOnce(&mut Arrival<'x>) -> R) -> Result<R, Stop> {
        self.arrival.with(use_it).map_err(|_| Stop::Error(OUTSIDE.into()))
    }

    fn job_type(&self) -> Result<usize, Stop> {
        self.arrival(|a| a.job_type)
    }
}

/// A server number from a script, refused when there is no such server.
fn server_of(server: i64, ctx: &GhraContext<'_>) -> Result<usize, Stop> {
    usize::try_from(server)
        .ok()
        .filter(|&s| s < ctx.state().active())
        .ok_or_else(|| Stop::invalid(format!("server {server} does not exist (or takes no job: it was removed)")))
}

fn type_of(job_type: i64, ctx: &GhraContext<'_>) -> Result<usize, Stop> {
    usize::try_from(job_type)
        .ok()
        .filter(|&j| j < ctx.state().types())
        .ok_or_else(|| Stop::invalid(format!("type {job_type} does not exist")))
}

fn resource_of(resource: i64, ctx: &GhraContext<'_>) -> Result<usize, Stop> {
    usize::try_from(resource)
        .ok()
        .filter(|&r| r < ctx.state().demand(0).dims())
        .ok_or_else(|| Stop::invalid(format!("resource {resource} does not exist")))
}

fn int(n: impl TryInto<i64>) -> i64 {
    n.try_into().unwrap_or(i64::MAX)
}

type V = Value<NoJob>;

/// `f(ctx)` as a getter's answer.
macro_rules! get {
    ($name:literal, $doc:literal, $f:expr) => {
        Member::get($name, $doc, |c, _, _| c.with($f))
    };
}

/// A query about server `s` and the arriving job's type (`f(state, s, type)`), and the same
/// about a type given.
macro_rules! per_server {
    ($name:literal, $doc:literal, $f:expr) => {
        [
            Member::method($name, &[Ty::Int], $doc, |c, _, a| {
                let j = c.job_type()?;
                c.with(|x| server_of(a[0].int(), x).map(|s| $f(x.state(), s, j)))?
            }),
            Member::method($name, &[Ty::Int, Ty::Int], concat!($doc, ", for a job type given"), |c, _, a| {
                c.with(|x| {
                    let s = server_of(a[0].int(), x)?;
                    type_of(a[1].int(), x).map(|j| $f(x.state(), s, j))
                })?
            }),
        ]
    };
}

/// `f(ctx, server, resource)` of a server's resource.
macro_rules! per_resource {
    ($name:literal, $doc:literal, $f:expr) => {
        Member::method($name, &[Ty::Int, Ty::Int], $doc, |c, _, a| {
            c.with(|x| {
                let s = server_of(a[0].int(), x)?;
                resource_of(a[1].int(), x).map(|r| Value::Int(int($f(x.state(), s, r))))
            })?
        })
    };
}

/// A list of servers, at an operation per element (the budget's rule for what a call hands
/// over).
fn servers(c: &mut Ctx, meter: &mut dyn context::Meter, of: fn(&Router, usize) -> Vec<V>) -> Answer<NoJob> {
    let list = c.arrival(|a| of(a.router, a.job_type))?;
    meter.charge(list.len() as u64)?;
    Ok(Value::List(list))
}

const QUEUE: [Member<Ctx>; 2] =
    per_server!("queue", "the length of server s's queue of the type", |st: &GhraState, s: usize, j: usize| {
        Value::Int(int(st.queue_len(QueueRef::Local { server: s as u32, job_type: j as u16 })))
    });
const RUNNING: [Member<Ctx>; 2] =
    per_server!("running", "jobs of the type running on server s", |st: &GhraState, s, j| {
        Value::Int(i64::from(st.running(s, j)))
    });
const FITS: [Member<Ctx>; 2] =
    per_server!("fits", "whether a job of the type fits on server s now", |st: &GhraState, s, j| {
        Value::Bool(st.fits(j, s))
    });

/// GH-RA's `ctx`, declared once: rhai's registration and the Python package's view are built
/// from it.
impl Handle for Ctx {
    type Job = NoJob;
    const ROUTINE: &'static str = "route";
    const MEMBERS: &'static [Member<Self>] = &[
        get!("now", "the current time", |x| Value::Float(x.now())),
        get!("servers", "the number of servers that take jobs", |x| Value::Int(x.state().active() as i64)),
        get!("types", "the number of job types", |x| Value::Int(x.state().types() as i64)),
        get!("resources", "the number of resources", |x| Value::Int(x.state().demand(0).dims() as i64)),
        Member::get("job_type", "the arriving job's type", |c, _, _| c.job_type().map(|j| Value::Int(j as i64))),
        get!("waiting_total", "jobs waiting, of every type", |x| Value::Int(int(x.state().waiting_total()))),
        get!("explaining", "whether notes are kept (the inspector is open)", |x| Value::Bool(x.explaining())),
        Member::method("eligible", &[], "the servers that could hold the arriving job when empty", |c, m, _| {
            servers(c, m, |r, j| r.eligible(j).iter().map(|&s| Value::Int(s as i64)).collect())
        }),
        Member::method("shortest", &[], "the eligible servers with the shortest queue of the type", |c, m, _| {
            servers(c, m, |r, j| r.shortest(j).map(|s| Value::Int(s as i64)).collect())
        }),
        Member::method("waiting_of_type", &[Ty::Int], "jobs of a type waiting", |c, _, a| {
            c.with(|x| type_of(a[0].int(), x).map(|j| Value::Int(int(x.state().waiting_of_type(j)))))?
        }),
        Member::method("waiting_at", &[Ty::Int], "jobs waiting at server s", |c, _, a| {
            c.with(|x| server_of(a[0].int(), x).map(|s| Value::Int(int(x.state().waiting_at(s)))))?
        }),
        Member::method("jobs_on", &[Ty::Int], "jobs running on server s", |c, _, a| {
            c.with(|x| server_of(a[0].int(), x).map(|s| Value::Int(i64::from(x.state().jobs_on(s)))))?
        }),
        per_resource!("capacity", "server s's capacity of resource r", |st: &GhraState, s: usize, r: usize| st
            .capacity(s)
            .as_slice()[r]),
        per_resource!("used", "server s's use of resource r", |st: &GhraState, s: usize, r: usize| st.used[s]
            .as_slice()[r]),
        Member::method("demand", &[Ty::Int, Ty::Int], "a job type's demand of resource r", |c, _, a| {
            c.with(|x| {
                let j = type_of(a[0].int(), x)?;
                resource_of(a[1].int(), x).map(|r| Value::Int(int(x.state().demand(j).as_slice()[r])))
            })?
        }),
        QUEUE[0],
        QUEUE[1],
        RUNNING[0],
        RUNNING[1],
        FITS[0],
        FITS[1],
        Member::method("route", &[Ty::Int], "the arriving job joins server s's queue of its type (once)", route),
        Member::method("random", &[], "a uniform number in (0, 1) from the policy's own stream", |c, _, _| {
            c.with(|x| Value::Float(sample::open_unit(x.rng())))
        }),
        Member::method(
            "random_int",
            &[Ty::Int, Ty::Int],
            "a uniform integer in lo..=hi from the policy's stream",
            |c, _, a| {
                let (lo, hi) = (a[0].int(), a[1].int());
                if lo > hi {
                    return Err(Stop::invalid(format!("random_int({lo}, {hi}): lo must not exceed hi")));
                }
                // Drawn as an offset from lo, so negative bounds work on the unsigned sampler.
                let span = hi.abs_diff(lo);
                c.with(|x| Value::Int(lo.wrapping_add(sample::uniform_int(x.rng(), 0, span) as i64)))
            },
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

/// Registers `ctx`'s type and functions on a script's engine, from the declaration.
pub fn register(engine: &mut rhai::Engine) {
    context::register::<Ctx>(engine);
}

/// `ctx.route(s)`: the arriving job joins server s's queue of its type. Checked here, as the
/// engine would, so the refusal names the script's line: once per arrival, to a server that
/// could hold the job when empty.
fn route(c: &mut Ctx, _: &mut dyn context::Meter, a: &[V]) -> Answer<NoJob> {
    let server = c.with(|x| server_of(a[0].int(), x))?? as u32;
    c.arrival(|a| {
        if let Some(earlier) = a.chosen {
            return Err(Stop::invalid(format!("this job is already routed to server {earlier}")));
        }
        if !a.router.is_eligible(a.job_type, server as usize) {
            let j = a.job_type;
            return Err(Stop::invalid(format!("server {server} can never hold a type-{j} job (too small)")));
        }
        a.chosen = Some(server);
        Ok(Value::Unit)
    })?
}
