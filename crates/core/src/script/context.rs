//! One declaration per model of what a decision routine's `ctx` offers, from which both the
//! rhai registration ([`register`]) and the view a host program's policy gets ([`View`], the
//! Python package's `ctx`) are built, so the two cannot drift apart.
//!
//! A model declares its handle type ([`Handle`]: the `ctx` value, a lease on the engine's
//! context), the routine's name, the members of `ctx` ([`Member`]: getters and methods, their
//! parameter types, a doc line and the function that answers) and the fields of a job
//! ([`JobType`]). Values cross as [`Value`]; a member's refusal ([`Stop`]) stops the run with
//! the model's reason, in rhai at the script's line.

use std::any::{Any, TypeId};
use std::rc::Rc;

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, NativeCallContext};

use super::budget;

/// A value a member takes or gives; `J` is the model's job type.
#[derive(Debug, Clone, PartialEq)]
pub enum Value<J> {
    /// Nothing: no such job, no server fits (rhai's `()`, Python's `None`).
    Unit,
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
    /// A value passed to be shown (a note's): its text, and what it costs the budget (its size).
    Shown {
        text: String,
        cost: u64,
    },
    List(Vec<Value<J>>),
    Job(J),
}

impl<J> Value<J> {
    /// The same value with its jobs mapped by `f`.
    pub fn map_jobs<K>(self, f: &impl Fn(J) -> K) -> Value<K> {
        match self {
            Value::Unit => Value::Unit,
            Value::Bool(b) => Value::Bool(b),
            Value::Int(i) => Value::Int(i),
            Value::Float(x) => Value::Float(x),
            Value::Text(t) => Value::Text(t),
            Value::Shown { text, cost } => Value::Shown { text, cost },
            Value::List(list) => Value::List(list.into_iter().map(|v| v.map_jobs(f)).collect()),
            Value::Job(j) => Value::Job(f(j)),
        }
    }

    /// The integer, the float, the text or the job of an argument of that declared type
    /// (the caller checked the type; anything else is a host's bug, answered with defaults).
    pub fn int(&self) -> i64 {
        if let Value::Int(i) = self { *i } else { 0 }
    }

    pub fn float(&self) -> f64 {
        match self {
            Value::Float(x) => *x,
            Value::Int(i) => *i as f64,
            _ => f64::NAN,
        }
    }

    pub fn text(&self) -> &str {
        match self {
            Value::Text(t) | Value::Shown { text: t, .. } => t,
            _ => "",
        }
    }

    pub fn shown_cost(&self) -> u64 {
        if let Value::Shown { cost, .. } = self { *cost } else { 0 }
    }

    pub fn job(&self) -> Option<&J> {
        if let Value::Job(j) = self { Some(j) } else { None }
    }
}

/// A parameter's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    Int,
    Float,
    Text,
    Job,
    /// A list of integers (an element that is not one arrives as [`Value::Unit`]).
    Ints,
    /// Anything, taken as its text ([`Value::Shown`]).
    Any,
}

impl Ty {
    /// How a signature names it (the editor's and Python's help).
    pub fn name(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Float => "float",
            Ty::Text => "text",
            Ty::Job => "job",
            Ty::Ints => "list of int",
            Ty::Any => "any",
        }
    }

    fn rhai_type<J: 'static>(self) -> TypeId {
        match self {
            Ty::Int => TypeId::of::<i64>(),
            Ty::Float => TypeId::of::<f64>(),
            Ty::Text => TypeId::of::<ImmutableString>(),
            Ty::Job => TypeId::of::<J>(),
            Ty::Ints => TypeId::of::<Array>(),
            Ty::Any => TypeId::of::<Dynamic>(),
        }
    }
}

/// Why a member did not answer.
#[derive(Debug)]
pub enum Stop {
    /// The model refused a decision or an argument: the run stops with this reason.
    Refused(String),
    /// A misuse the routine may recover from in rhai (`ctx` kept past its call).
    Error(String),
    /// The host's own stop (rhai's budget spent), passed back as it is.
    Host(Box<EvalAltResult>),
}

impl Stop {
    /// A refusal of a value the model cannot use (a server that does not exist).
    pub fn invalid(why: impl std::fmt::Display) -> Self {
        Stop::Refused(format!("policy bug: {why}"))
    }

    /// The reason, as the run's error says it.
    pub fn message(&self) -> String {
        match self {
            Stop::Refused(m) | Stop::Error(m) => m.clone(),
            Stop::Host(e) => e.to_string(),
        }
    }

    fn into_rhai(self, at: &NativeCallContext) -> Box<EvalAltResult> {
        match self {
            Stop::Refused(m) => super::refuse(at, m),
            Stop::Error(m) => m.into(),
            Stop::Host(e) => e,
        }
    }
}

/// What the routine's calls spend: rhai meters them against the script's budget; a host
/// program's own code is not metered.
pub trait Meter {
    fn charge(&mut self, operations: u64) -> Result<(), Stop>;
}

struct RhaiMeter<'a, 'b>(&'a NativeCallContext<'b>);

impl Meter for RhaiMeter<'_, '_> {
    fn charge(&mut self, operations: u64) -> Result<(), Stop> {
        budget::charge(self.0, operations).map_err(Stop::Host)
    }
}

/// A host program's calls, not metered.
pub struct Unmetered;

impl Meter for Unmetered {
    fn charge(&mut self, _: u64) -> Result<(), Stop> {
        Ok(())
    }
}

/// What a member answers with: a value, or why not.
pub type Answer<J> = Result<Value<J>, Stop>;

/// What answers a member: `(ctx, meter, arguments)`.
pub type Call<H> = fn(&mut H, &mut dyn Meter, &[Value<<H as Handle>::Job>]) -> Answer<<H as Handle>::Job>;

/// A member of `ctx`: a getter (`ctx.slot`) or a method (`ctx.best_fit(job)`); methods of one
/// name with different parameter types are overloads.
pub struct Member<H: Handle> {
    pub name: &'static str,
    pub getter: bool,
    pub params: &'static [Ty],
    pub doc: &'static str,
    pub call: Call<H>,
}

impl<H: Handle> Clone for Member<H> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<H: Handle> Copy for Member<H> {}

impl<H: Handle> Member<H> {
    pub const fn get(name: &'static str, doc: &'static str, call: Call<H>) -> Self {
        Self { name, getter: true, params: &[], doc, call }
    }

    pub const fn method(name: &'static str, params: &'static [Ty], doc: &'static str, call: Call<H>) -> Self {
        Self { name, getter: false, params, doc, call }
    }
}

/// A field of a job as a routine sees it.
pub struct Field<J> {
    pub name: &'static str,
    pub doc: &'static str,
    pub get: fn(&J) -> Value<J>,
}

/// A model's job as a routine sees it.
pub trait JobType: Clone + std::fmt::Debug + 'static {
    const FIELDS: &'static [Field<Self>];
    /// How it prints (`job 3 (size 0.25)`).
    fn text(&self) -> String;
}

/// The job type of a model whose routine is given no jobs (GH-RA's routing: the arriving
/// job is `ctx`'s).
#[derive(Debug, Clone, Copy)]
pub enum NoJob {}

impl JobType for NoJob {
    const FIELDS: &'static [Field<Self>] = &[];

    fn text(&self) -> String {
        match *self {}
    }
}

/// A model's `ctx`: a handle to the decision's context (a lease, valid during the call).
pub trait Handle: Clone + 'static {
    type Job: JobType;
    /// The decision routine: what a host program's policy object defines (`schedule`).
    const ROUTINE: &'static str;
    const MEMBERS: &'static [Member<Self>];
}

/// A value as rhai holds it.
fn to_dynamic<J: Clone + 'static>(value: Value<J>) -> Dynamic {
    match value {
        Value::Unit => Dynamic::UNIT,
        Value::Bool(b) => Dynamic::from(b),
        Value::Int(i) => Dynamic::from(i),
        Value::Float(x) => Dynamic::from(x),
        Value::Text(t) | Value::Shown { text: t, .. } => Dynamic::from(t),
        Value::List(list) => Dynamic::from(list.into_iter().map(to_dynamic).collect::<Array>()),
        Value::Job(j) => Dynamic::from(j),
    }
}

/// An argument of declared type `ty` from rhai (whose dispatch matched the type already).
fn from_dynamic<J: Clone + 'static>(ty: Ty, arg: &Dynamic) -> Value<J> {
    match ty {
        Ty::Int => Value::Int(arg.as_int().unwrap_or_default()),
        Ty::Float => Value::Float(arg.as_float().unwrap_or(f64::NAN)),
        Ty::Text => Value::Text(arg.to_string()),
        Ty::Job => arg.clone().try_cast::<J>().map_or(Value::Unit, Value::Job),
        Ty::Ints => Value::List(arg.as_array_ref().map_or_else(
            |_| Vec::new(),
            |list| list.iter().map(|v| v.as_int().map_or(Value::Unit, Value::Int)).collect(),
        )),
        Ty::Any => Value::Shown { text: arg.to_string(), cost: super::sandbox::Weight::of(arg).cost() },
    }
}

/// Registers `H`'s `ctx` and job on a script's engine, from the model's declaration.
pub fn register<H: Handle>(engine: &mut Engine) {
    engine.register_type_with_name::<H>("Context");
    engine.register_type_with_name::<H::Job>("Job");
    for field in H::Job::FIELDS {
        let get = field.get;
        engine.register_get(field.name, move |j: &mut H::Job| to_dynamic(get(j)));
    }
    engine.register_fn("to_string", |j: &mut H::Job| JobType::text(j));
    for member in H::MEMBERS {
        let mut types = vec![TypeId::of::<H>()];
        types.extend(member.params.iter().map(|t| t.rhai_type::<H::Job>()));
        let name = if member.getter { format!("get${}", member.name) } else { member.name.to_string() };
        let (call, params) = (member.call, member.params);
        engine.register_raw_fn(name, types, move |at: NativeCallContext, args: &mut [&mut Dynamic]| {
            let values: Vec<Value<H::Job>> =
                params.iter().zip(args[1..].iter()).map(|(&t, a)| from_dynamic(t, a)).collect();
            let mut handle = args[0].clone().cast::<H>();
            call(&mut handle, &mut RhaiMeter(&at), &values).map(to_dynamic).map_err(|stop| stop.into_rhai(&at))
        });
    }
}

/// A job as a host program holds it, whatever its model.
pub trait Record {
    /// The fields' names and docs, in declared order.
    fn fields(&self) -> Vec<(&'static str, &'static str)>;
    fn field(&self, name: &str) -> Option<HostValue>;
    fn text(&self) -> String;
    fn as_any(&self) -> &dyn Any;
}

impl<J: JobType> Record for J {
    fn fields(&self) -> Vec<(&'static str, &'static str)> {
        J::FIELDS.iter().map(|f| (f.name, f.doc)).collect()
    }

    fn field(&self, name: &str) -> Option<HostValue> {
        J::FIELDS.iter().find(|f| f.name == name).map(|f| erase((f.get)(self)))
    }

    fn text(&self) -> String {
        JobType::text(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A value as a host program sees it.
pub type HostValue = Value<Rc<dyn Record>>;

fn erase<J: JobType>(value: Value<J>) -> HostValue {
    value.map_jobs(&|j| Rc::new(j) as Rc<dyn Record>)
}

/// A member as a host program lists it.
#[derive(Debug, Clone, Copy)]
pub struct MemberInfo {
    pub name: &'static str,
    pub getter: bool,
    pub params: &'static [Ty],
    pub doc: &'static str,
}

/// `ctx` as a host program sees it: the model's members, by index.
pub trait View {
    fn members(&self) -> Vec<MemberInfo>;
    /// Calls member `index` with `args` (of its declared types).
    fn call(&mut self, index: usize, args: Vec<HostValue>) -> Result<HostValue, Stop>;
}

/// `H`'s handle as a [`View`].
pub struct Viewed<H: Handle>(pub H);

impl<H: Handle> View for Viewed<H> {
    fn members(&self) -> Vec<MemberInfo> {
        H::MEMBERS.iter().map(|m| MemberInfo { name: m.name, getter: m.getter, params: m.params, doc: m.doc }).collect()
    }

    fn call(&mut self, index: usize, args: Vec<HostValue>) -> Result<HostValue, Stop> {
        let member = H::MEMBERS.get(index).ok_or_else(|| Stop::Error(format!("ctx has no member {index}")))?;
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            values.push(match arg {
                Value::Job(record) => match record.as_any().downcast_ref::<H::Job>() {
                    Some(job) => Value::Job(job.clone()),
                    None => return Err(Stop::invalid(format!("{} was given a job of another model", member.name))),
                },
                other => other.map_jobs(&|_| unreachable!("jobs are matched above")),
            });
        }
        (member.call)(&mut self.0, &mut Unmetered, &values).map(erase)
    }
}
