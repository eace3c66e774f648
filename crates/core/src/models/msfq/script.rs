//! What a script sees of the multiserver-job model: the `ctx` its `fn schedule(ctx)` gets
//! after every arrival and every completion (the admission routine, RES-55), and the starting
//! points shipped as scripts.
//!
#![doc = include_str!("scripts/context.md")]

use super::policy::{MsfqContext, MsfqDecision};
use super::state::MsfqJob;
use crate::script::context::{self, Answer, Field, Handle, JobType, Member, Stop, Ty, Value};
use crate::script::lease::{Family, Lease};
use crate::script::{self, Scripting, Starter};
use crate::workload::sample;

/// The model's starting points; the first runs when `script` is given no source.
pub const STARTERS: &[Starter] = &[
    Starter { policy: "msf", source: include_str!("scripts/msf.rhai") },
    Starter { policy: "fcfs", source: include_str!("scripts/fcfs.rhai") },
    Starter { policy: "static-qs", source: include_str!("scripts/static_qs.rhai") },
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
    fn with<R>(&self, use_it: impl for<'x> FnOnce(&mut MsfqContext<'x>) -> R) -> Result<R, Stop> {
        self.0.with(use_it).map_err(|_| Stop::Error("ctx is used outside the call it was given to".into()))
    }
}

/// A waiting job as a script sees it.
#[derive(Debug, Clone, Copy)]
pub struct Job {
    id: u64,
    arrival: f64,
    now: f64,
}

impl JobType for Job {
    const FIELDS: &'static [Field<Self>] = &[
        Field { name: "id", doc: "its number, in order of arrival", get: |j| Value::Int(j.id as i64) },
        Field { name: "arrival", doc: "when it arrived", get: |j| Value::Float(j.arrival) },
        Field { name: "wait", doc: "how long it has waited", get: |j| Value::Float(j.now - j.arrival) },
    ];

    fn text(&self) -> String {
        format!("job {}", self.id)
    }
}

fn class_of(class: i64, ctx: &MsfqContext<'_>) -> Result<usize, Stop> {
    usize::try_from(class)
        .ok()
        .filter(|&c| c < ctx.state().classes())
        .ok_or_else(|| Stop::invalid(format!("class {class} does not exist")))
}

/// `f(ctx)` as a getter's answer.
macro_rules! get {
    ($name:literal, $doc:literal, $f:expr) => {
        Member::get($name, $doc, |c, _, _| c.with($f))
    };
}

/// `f(ctx, class)` as a method of a class's answer.
macro_rules! per_class {
    ($name:literal, $doc:literal, $f:expr) => {
        Member::method($name, &[Ty::Int], $doc, |c, _, a| c.with(|x| class_of(a[0].int(), x).map(|k| $f(x, k)))?)
    };
}

/// MSFQ's `ctx`, declared once: rhai's registration and the Python package's view are built
/// from it.
impl Handle for Ctx {
    type Job = Job;
    const ROUTINE: &'static str = "admit";
    const MEMBERS: &'static [Member<Self>] = &[
        get!("now", "the current time", |x| Value::Float(x.now())),
        get!("cores", "the number of cores", |x| Value::Int(x.state().cores() as i64)),
        get!("free", "cores free", |x| Value::Int(x.state().free() as i64)),
        get!("busy", "cores busy", |x| Value::Int(x.state().busy() as i64)),
        get!("classes", "the number of job classes", |x| Value::Int(x.state().classes() as i64)),
        get!("waiting_total", "jobs waiting, of every class", |x| Value::Int(x.state().waiting_total() as i64)),
        get!("explaining", "whether notes are kept (the inspector is open)", |x| Value::Bool(x.explaining())),
        per_class!("need", "the cores a job of the class needs", |x: &mut MsfqContext<'_>, k| {
            Value::Int(x.state().need(k) as i64)
        }),
        per_class!("waiting", "jobs of the class waiting", |x: &mut MsfqContext<'_>, k| {
            Value::Int(x.state().waiting(k) as i64)
        }),
        per_class!("in_service", "jobs of the class in service", |x: &mut MsfqContext<'_>, k| {
            Value::Int(x.state().in_service(k) as i64)
        }),
        per_class!("head", "the class's oldest waiting job, or None", |x: &mut MsfqContext<'_>, k| {
            let now = x.now();
            x.state().head(k).map_or(Value::Unit, |j: &MsfqJob| Value::Job(Job { id: j.id, arrival: j.arrival, now }))
        }),
        Member::method("oldest", &[], "the class of the oldest waiting job, or None", |c, _, _| {
            c.with(|x| x.state().oldest_where(|_| true).map_or(Value::Unit, |k| Value::Int(k as i64)))
        }),
        Member::method("start", &[Ty::Int], "starts the class's oldest job (checked by the engine)", |c, _, a| {
            c.with(|x| {
                let class = class_of(a[0].int(), x)?;
                x.apply(MsfqDecision::Start { class, why: "the script's choice" })
                    .map(|_| Value::Unit)
                    .map_err(|e| Stop::Refused(e.to_string()))
            })?
        }),
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
                let span = hi.abs_diff(lo);
                c.with(|x| Value::Int(lo.wrapping_add(sample::uniform_int(x.rng(), 0, span) as i64)))
            },
        ),
        Member::method("note", &[Ty::Text, Ty::Any], "a note for the inspector: a label and a value", note),
    ];
}

fn note(c: &mut Ctx, meter: &mut dyn context::Meter, a: &[Value<Job>]) -> Answer<Job> {
    let kept = c.with(|x| x.keeps_notes())?;
    if let Some((label, value)) = script::note_text(meter, a[0].text(), &a[1], kept)? {
        c.with(|x| x.note(label, value))?;
    }
    Ok(Value::Unit)
}

/// Registers `ctx`'s type and functions on a script's engine, from the declaration.
pub fn register(engine: &mut rhai::Engine) {
    context::register::<Ctx>(engine);
}
