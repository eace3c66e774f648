//! Policies written in Python: an object with the model's decision method (`schedule`, `admit`
//! or `route`), raced as the core's scripted policy with this object as its decider
//! ([`packlab_core::script::decider::Host`]). The object gets `ctx`, a view of the members the
//! model declares once for rhai and Python alike
//! ([`packlab_core::script::context::Handle::MEMBERS`]); its decisions go through `ctx` and the
//! model's own checks. It keeps what state it likes on itself between calls.
//!
//! Its budget, as a script's ([`packlab_core::script::MAX_CALL_COST`] operations a call):
//! [`MAX_LINES`] lines of Python a decision, counted by a trace function (`PyEval_SetTrace`'s
//! line events, one per line run and one per jump back in a loop, so `while True: pass` is
//! counted too) set for the call only. A count, not a clock, so where a policy stops is the same
//! on every machine. What runs inside a builtin (`sum(range(10**12))`) runs no Python lines
//! and is not counted.

use std::cell::{Cell, RefCell};
use std::ffi::c_int;
use std::rc::Rc;

use packlab_core::script::context::{HostValue, MemberInfo, Record, Stop, Ty, Value, View};
use packlab_core::script::decider::{self, Host};
use pyo3::exceptions::{PyAttributeError, PyRuntimeError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyList, PyString, PyTuple};

/// The most lines of Python a policy runs in one decision (its own and whatever it calls).
/// Like a script's [`packlab_core::script::MAX_CALL_COST`] operations: a million, far beyond
/// a best fit over a queue of thousands, reached by an endless loop in well under a second.
pub const MAX_LINES: u64 = 1_000_000;

thread_local! {
    /// Lines the running decision may still run, and whether it ran out.
    static LINES: Cell<(u64, bool)> = const { Cell::new((0, false)) };
}

/// The trace function counting a decision's lines: at the budget's end, each further line
/// raises (so a policy that catches the error cannot go on).
unsafe extern "C" fn count_lines(
    _: *mut ffi::PyObject,
    _: *mut ffi::PyFrameObject,
    what: c_int,
    _: *mut ffi::PyObject,
) -> c_int {
    if what != ffi::PyTrace_LINE {
        return 0;
    }
    LINES.with(|lines| match lines.get() {
        (0, _) => {
            lines.set((0, true));
            // SAFETY: the interpreter calls a trace function holding the GIL.
            unsafe {
                ffi::PyErr_SetString(ffi::PyExc_RuntimeError, c"the decision's Python line budget is spent".as_ptr())
            };
            -1
        }
        (left, ran_out) => {
            lines.set((left - 1, ran_out));
            0
        }
    })
}

/// Calls `call` with [`count_lines`] as the thread's trace function, then puts back the one
/// before (a debugger's, coverage's); `true` when the call ran out of lines.
fn counting_lines<T>(py: Python<'_>, call: impl FnOnce() -> T) -> PyResult<(T, bool)> {
    let before = py.import("sys")?.call_method0("gettrace")?;
    LINES.with(|lines| lines.set((MAX_LINES, false)));
    // SAFETY: the GIL is held (`py`); the function takes no object.
    unsafe { ffi::PyEval_SetTrace(Some(count_lines), std::ptr::null_mut()) };
    let result = call();
    if before.is_none() {
        // SAFETY: as above.
        unsafe { ffi::PyEval_SetTrace(None, std::ptr::null_mut()) };
    } else {
        py.import("sys")?.call_method1("settrace", (before,))?;
    }
    Ok((result, LINES.with(|lines| lines.get().1)))
}

/// The error a refused call raises in Python: the run stops with the model's reason even if
/// the policy catches it (the host remembers it).
fn stop_error(stop: &Stop) -> PyErr {
    PyRuntimeError::new_err(stop.message())
}

/// A Python object as a host policy; `refused` keeps the first refusal of its current call.
struct PyHost {
    object: Py<PyAny>,
    name: String,
    refused: Rc<RefCell<Option<String>>>,
}

impl Host for PyHost {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn check(&self, routine: &str) -> Result<(), String> {
        Python::attach(|py| {
            let method = self.object.bind(py).getattr(routine).ok();
            if method.is_some_and(|m| m.is_callable()) {
                Ok(())
            } else {
                Err(format!(
                    "the Python policy {} has no method `{routine}(ctx)`, this model's decision routine",
                    self.name
                ))
            }
        })
    }

    fn declared(&self, key: &str) -> Option<String> {
        // `small jobs` is the attribute `small_jobs`, a string.
        Python::attach(|py| {
            let value = self.object.bind(py).getattr(key.replace(' ', "_")).ok()?;
            value.extract::<String>().ok()
        })
    }

    fn decide(&mut self, routine: &str, ctx: Box<dyn View>) -> Result<(), String> {
        Python::attach(|py| {
            self.refused.borrow_mut().take();
            let members = ctx.members();
            let context = Py::new(py, Context { view: Some(ctx), members, refused: Rc::clone(&self.refused) })
                .map_err(|e| last_line(py, &e))?;
            let (result, ran_out) =
                counting_lines(py, || self.object.bind(py).call_method1(routine, (context.clone_ref(py),)))
                    .map_err(|e| last_line(py, &e))?;
            // The view reaches nothing after the call (its lease is over); dropping it says so
            // to a policy that kept `ctx`.
            context.borrow_mut(py).view = None;
            if ran_out {
                return Err(format!(
                    "{}.{routine} ran more than {MAX_LINES} lines of Python in one decision (an endless loop?)",
                    self.name
                ));
            }
            if let Some(refusal) = self.refused.borrow_mut().take() {
                return Err(format!("{}.{routine} decided what the model refuses: {refusal}", self.name));
            }
            result.map(drop).map_err(|e| format!("{}.{routine} raised {}", self.name, last_line(py, &e)))
        })
    }
}

/// The last line of the exception's traceback: `ZeroDivisionError: division by zero`.
fn last_line(py: Python<'_>, error: &PyErr) -> String {
    let text = py
        .import("traceback")
        .and_then(|t| t.call_method1("format_exception_only", (error.get_type(py), error.value(py))))
        .and_then(|lines| lines.extract::<Vec<String>>());
    match text {
        Ok(lines) => {
            lines.iter().rev().flat_map(|l| l.lines()).find(|l| !l.trim().is_empty()).unwrap_or("").trim().to_string()
        }
        Err(_) => error.to_string(),
    }
}

/// A Python policy registered with the core for as long as its race lives.
pub struct Registered(pub u64);

impl Drop for Registered {
    fn drop(&mut self) {
        decider::release(self.0);
    }
}

/// Registers `object` as a host policy: its spec text (`script:host=N`) and the registration.
pub fn register(object: &Bound<'_, PyAny>) -> PyResult<(String, Registered)> {
    let name = object.get_type().name()?.to_string();
    let host = PyHost { object: object.clone().unbind(), name, refused: Rc::default() };
    let id = decider::host(Rc::new(RefCell::new(host)));
    Ok((format!("{}:host={id}", packlab_core::script::NAME), Registered(id)))
}

/// The `ctx` a Python policy gets: the model's declared members as attributes (getters) and
/// methods, valid during the call.
#[pyclass(module = "packlab", unsendable)]
pub struct Context {
    view: Option<Box<dyn View>>,
    members: Vec<MemberInfo>,
    refused: Rc<RefCell<Option<String>>>,
}

impl Context {
    fn call(&mut self, py: Python<'_>, name: &str, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        let Some(view) = self.view.as_mut() else {
            return Err(PyRuntimeError::new_err("ctx is used outside the call it was given to"));
        };
        let mut found = false;
        for (index, member) in self.members.iter().enumerate().filter(|(_, m)| m.name == name && !m.getter) {
            found = true;
            if let Some(values) = arguments(member.params, args, false).or_else(|| arguments(member.params, args, true))
            {
                return answer(py, view.call(index, values), &self.refused);
            }
        }
        if !found {
            return Err(PyAttributeError::new_err(format!("ctx has no method '{name}'")));
        }
        let signatures: Vec<String> = self
            .members
            .iter()
            .filter(|m| m.name == name)
            .map(|m| format!("{name}({})", m.params.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")))
            .collect();
        Err(PyTypeError::new_err(format!("ctx.{name} takes {}", signatures.join(" or "))))
    }
}

/// `args` as the values of parameters `params`, or `None` when they do not match; `lenient`
/// takes an int where a float is asked (after no overload took it exactly).
fn arguments(params: &[Ty], args: &Bound<'_, PyTuple>, lenient: bool) -> Option<Vec<HostValue>> {
    if params.len() != args.len() {
        return None;
    }
    params
        .iter()
        .zip(args.iter())
        .map(|(ty, arg)| {
            let is_int = arg.is_instance_of::<PyInt>() && !arg.is_instance_of::<PyBool>();
            match ty {
                Ty::Int if is_int => arg.extract::<i64>().ok().map(Value::Int),
                Ty::Float if arg.is_instance_of::<PyFloat>() || (lenient && is_int) => {
                    arg.extract::<f64>().ok().map(Value::Float)
                }
                Ty::Text => {
                    arg.cast::<PyString>().ok().and_then(|s| s.to_str().ok()).map(|s| Value::Text(s.to_string()))
                }
                Ty::Job => arg.cast::<Job>().ok().map(|j| Value::Job(Rc::clone(&j.borrow().record))),
                Ty::Ints => {
                    arg.extract::<Vec<i64>>().ok().map(|list| Value::List(list.into_iter().map(Value::Int).collect()))
                }
                Ty::Any => arg.str().ok().map(|s| {
                    let text = s.to_string();
                    let cost = text.len() as u64 / 128;
                    Value::Shown { text, cost }
                }),
                _ => None,
            }
        })
        .collect()
}

/// A member's answer as a Python value; a refusal is remembered (the run stops with it) and
/// raised.
fn answer(py: Python<'_>, answer: Result<HostValue, Stop>, refused: &RefCell<Option<String>>) -> PyResult<Py<PyAny>> {
    match answer {
        Ok(value) => to_python(py, value),
        Err(stop) => {
            if let Stop::Refused(message) = &stop {
                refused.borrow_mut().get_or_insert_with(|| message.clone());
            }
            Err(stop_error(&stop))
        }
    }
}

fn to_python(py: Python<'_>, value: HostValue) -> PyResult<Py<PyAny>> {
    Ok(match value {
        Value::Unit => py.None(),
        Value::Bool(b) => PyBool::new(py, b).to_owned().into_any().unbind(),
        Value::Int(i) => i.into_pyobject(py)?.into_any().unbind(),
        Value::Float(x) => x.into_pyobject(py)?.into_any().unbind(),
        Value::Text(t) | Value::Shown { text: t, .. } => t.into_pyobject(py)?.into_any().unbind(),
        Value::List(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_python(py, item)?)?;
            }
            list.into_any().unbind()
        }
        Value::Job(record) => Py::new(py, Job { record })?.into_any(),
    })
}

#[pymethods]
impl Context {
    fn __getattr__(slf: Bound<'_, Self>, name: &str) -> PyResult<Py<PyAny>> {
        let py = slf.py();
        let getter = slf.borrow().members.iter().position(|m| m.name == name && m.getter);
        if let Some(index) = getter {
            let mut this = slf.borrow_mut();
            let this = &mut *this;
            let Some(view) = this.view.as_mut() else {
                return Err(PyRuntimeError::new_err("ctx is used outside the call it was given to"));
            };
            return answer(py, view.call(index, Vec::new()), &this.refused);
        }
        if slf.borrow().members.iter().any(|m| m.name == name) {
            return Ok(Py::new(py, Method { ctx: slf.clone().unbind(), name: name.to_string() })?.into_any());
        }
        Err(PyAttributeError::new_err(format!("ctx has no member '{name}'")))
    }

    /// The members: getters, then methods with their signatures.
    fn __dir__(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = self.members.iter().map(|m| m.name).collect();
        names.dedup();
        names
    }

    /// Every member's signature and doc line, as the model declares them.
    fn help(&self) -> Vec<(String, &'static str)> {
        self.members
            .iter()
            .map(|m| {
                let params = m.params.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ");
                (if m.getter { m.name.to_string() } else { format!("{}({params})", m.name) }, m.doc)
            })
            .collect()
    }
}

/// A method of `ctx`, bound.
#[pyclass(module = "packlab", unsendable)]
pub struct Method {
    ctx: Py<Context>,
    name: String,
}

#[pymethods]
impl Method {
    #[pyo3(signature = (*args))]
    fn __call__(&self, py: Python<'_>, args: &Bound<'_, PyTuple>) -> PyResult<Py<PyAny>> {
        self.ctx.borrow_mut(py).call(py, &self.name, args)
    }
}

/// A job as a Python policy sees it: the fields the model declares, as attributes.
#[pyclass(module = "packlab", unsendable)]
pub struct Job {
    record: Rc<dyn Record>,
}

#[pymethods]
impl Job {
    fn __getattr__(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        match self.record.field(name) {
            Some(value) => to_python(py, value),
            None => Err(PyAttributeError::new_err(format!("a job has no field '{name}'"))),
        }
    }

    fn __dir__(&self) -> Vec<&'static str> {
        self.record.fields().into_iter().map(|(name, _)| name).collect()
    }

    fn __repr__(&self) -> String {
        self.record.text()
    }
}
