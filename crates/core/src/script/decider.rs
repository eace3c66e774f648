//! What makes a scripted policy's decisions: a [`Decider`], called with the model's `ctx` where
//! the model would call its Rust policy. A rhai script is one ([`Rhai`]); a host program's
//! object (the Python package's policies) is another ([`Hosted`]), registered on the thread
//! that runs it ([`host`]) and named in the policy spec as `script:host=N`. Either way every
//! decision goes through `ctx`, so the model's own checks (`apply`) judge it; the core knows
//! nothing of the host's language.

use std::cell::RefCell;
use std::rc::Rc;

use super::context::{Handle, View, Viewed};
use super::{Program, RunBudget, ScriptError};

/// Makes one decision with `ctx`.
pub trait Decider<H>: dyn_clone::DynClone {
    fn decide(&mut self, ctx: H) -> Result<(), ScriptError>;
    /// The routine as errors name it (`` `fn schedule(ctx)` ``), and the line it starts on.
    fn entry(&self) -> (String, Option<usize>);
    /// What the policy declares of `key` before its first decision: a script's comment line
    /// `// key: value`, a host object's attribute (`key` with `_` for spaces).
    fn declared(&self, key: &str) -> Option<String>;
}

dyn_clone::clone_trait_object!(<H> Decider<H>);

/// A compiled rhai script, what this run has spent of its budget and the lane's state
/// ([`super::state`]); clones (the timeline's checkpoints) share the script and carry the
/// spending and a copy of the state.
#[derive(Debug, Clone)]
pub struct Rhai {
    pub program: Rc<Program>,
    pub run: RunBudget,
    pub state: rhai::Dynamic,
}

impl<H: Handle> Decider<H> for Rhai {
    fn decide(&mut self, ctx: H) -> Result<(), ScriptError> {
        self.program.call(rhai::Dynamic::from(ctx), &mut self.run, &mut self.state)
    }

    fn entry(&self) -> (String, Option<usize>) {
        (format!("`fn {}(ctx)`", super::ENTRY), self.program.entry_line())
    }

    fn declared(&self, key: &str) -> Option<String> {
        self.program.declared(key).map(str::to_string)
    }
}

/// A policy of a host program: it decides through a [`View`] of `ctx`, keeping what state it
/// likes on itself.
pub trait Host {
    /// What labels call it (the class's name).
    fn name(&self) -> String;
    /// Why it cannot make the decisions of a model whose routine is `routine` (no such method).
    fn check(&self, routine: &str) -> Result<(), String>;
    /// Calls its `routine` with `ctx`; the error says what stopped it.
    fn decide(&mut self, routine: &str, ctx: Box<dyn View>) -> Result<(), String>;
    /// What it declares of `key` ([`Decider::declared`]): none unless the host says.
    fn declared(&self, _key: &str) -> Option<String> {
        None
    }
}

/// A registered host policy as a [`Decider`]. Clones share the object (its state is the host's
/// and is not rewound with a checkpoint; hosts run lanes straight to where they are read).
#[derive(Clone)]
pub struct Hosted(pub Rc<RefCell<dyn Host>>);

impl<H: Handle> Decider<H> for Hosted {
    fn decide(&mut self, ctx: H) -> Result<(), ScriptError> {
        let mut host =
            self.0.try_borrow_mut().map_err(|_| ScriptError::new(None, "the policy was called re-entrantly"))?;
        host.decide(H::ROUTINE, Box::new(Viewed(ctx))).map_err(|m| ScriptError::new(None, m))
    }

    fn entry(&self) -> (String, Option<usize>) {
        (format!("`{}.{}(ctx)`", self.0.borrow().name(), H::ROUTINE), None)
    }

    fn declared(&self, key: &str) -> Option<String> {
        self.0.borrow().declared(key)
    }
}

type Registry = Vec<(u64, Rc<RefCell<dyn Host>>)>;

thread_local! {
    static HOSTS: RefCell<(u64, Registry)> = const { RefCell::new((0, Vec::new())) };
}

/// Registers `policy` on this thread; `script:host=N` with the number returned runs it, until
/// [`release`].
pub fn host(policy: Rc<RefCell<dyn Host>>) -> u64 {
    HOSTS.with(|h| {
        let (next, hosts) = &mut *h.borrow_mut();
        *next += 1;
        hosts.push((*next, policy));
        *next
    })
}

/// Forgets host policy `id`.
pub fn release(id: u64) {
    HOSTS.with(|h| h.borrow_mut().1.retain(|(n, _)| *n != id));
}

/// Host policy `id`, when registered on this thread.
pub fn hosted(id: u64) -> Option<Hosted> {
    HOSTS.with(|h| h.borrow().1.iter().find(|(n, _)| *n == id).map(|(_, p)| Hosted(Rc::clone(p))))
}

/// How a lane of host policy `text` is labelled: its name.
pub fn host_label(text: &str) -> Option<String> {
    let id = text.parse::<u64>().ok()?;
    hosted(id).map(|h| h.0.borrow().name())
}

/// The decider of a scripted policy's spec: its host policy (`host=N`, which must make `H`'s
/// decisions), else its rhai script (the spec's, or the model's first starting point).
pub fn of_spec<H: Handle>(
    spec: &crate::model::policy::PolicySpec,
    scripting: &super::Scripting,
    register: impl FnOnce(&mut rhai::Engine) + 'static,
) -> Result<Box<dyn Decider<H>>, crate::ConfigError> {
    if let Some(id) = spec.param("host") {
        let id = id.parse::<u64>().map_err(|_| spec.error(format!("host: '{id}' is not a host policy's number")))?;
        let hosted = hosted(id).ok_or_else(|| spec.error(super::no_host_policy(id)))?;
        hosted.0.borrow().check(H::ROUTINE).map_err(|m| spec.error(m))?;
        return Ok(Box::new(hosted));
    }
    let source = scripting.source_of(spec).map_err(|m| spec.error(m))?;
    let mut program = Program::compile(&source, register)?;
    program.keep_state::<H>();
    Ok(Box::new(Rhai { program: Rc::new(program), run: RunBudget::default(), state: super::state::initial() }))
}
