//! A script's state: `ctx.state`, a value of the lane's own that persists from one decision to
//! the next (the papers' stateful rules: VQS's configuration between renewals, Static
//! Quickswap's phase). It starts as an empty map (`#{}`); `ctx.state.phase = 1` and
//! `let s = ctx.state; …; ctx.state = s;` both keep what they write.
//!
//! It lives with the lane's decider ([`super::decider::Rhai`]), so the timeline's checkpoints
//! clone it with the lane and going back is exact; the compiled script, shared by those clones,
//! only holds it during a call ([`Slot`]). For a clone to be a copy, the state keeps plain data
//! only: numbers, booleans, characters, strings, arrays and maps of them (not a job of `ctx`,
//! a function pointer, or a value a closure captured). It is bounded as any value of a script
//! is (the `MAX_*` limits of arrays, maps, strings and nesting) and to [`MAX_STATE_BYTES`]
//! besides, and reading or writing it
//! costs what reading a variable of its size costs. What breaks a rule stops the run with the
//! line, naming `ctx.state`.

use std::any::TypeId;
use std::cell::RefCell;
use std::rc::Rc;

use rhai::{Array, Blob, Dynamic, Engine, EvalAltResult, FLOAT, INT, ImmutableString, Map, NativeCallContext};

use super::budget::charge;
use super::context::Handle;
use super::sandbox::Weight;

type Reply<T> = Result<T, Box<EvalAltResult>>;

/// The most a lane's state may keep, in the bytes the budget weighs values by (16 a number or
/// list element, 64 a map entry, a string's length; [`Weight`]): far more than a phase and a
/// configuration, and small enough that the timeline's checkpoints copy it cheaply.
pub const MAX_STATE_BYTES: u64 = 16_384;

/// Where the compiled script finds the calling lane's state during a call.
pub(super) type Slot = Rc<RefCell<Dynamic>>;

/// A lane's state before its first decision: an empty map.
pub fn initial() -> Dynamic {
    Dynamic::from_map(Map::new())
}

/// Registers `ctx.state` (read and write) on the model's handle `H`, reaching the state
/// through `slot`.
pub(super) fn register<H: Handle>(engine: &mut Engine, slot: &Slot) {
    let read = Rc::clone(slot);
    engine.register_fn("get$state", move |at: NativeCallContext, _: &mut H| -> Reply<Dynamic> {
        let state = read.borrow().clone();
        charge(&at, Weight::of(&state).cost())?;
        Ok(state)
    });
    let write = Rc::clone(slot);
    engine.register_fn("set$state", move |at: NativeCallContext, _: &mut H, value: Dynamic| -> Reply<()> {
        if let Some(what) = not_plain(&value, 0) {
            return Err(super::refuse(
                &at,
                format!("ctx.state keeps numbers, strings, arrays and maps only, not {what}"),
            ));
        }
        let weight = Weight::of(&value);
        weight.check().map_err(|e| super::refuse(&at, format!("ctx.state: {e}")))?;
        if weight.bytes() > MAX_STATE_BYTES {
            return Err(super::refuse(
                &at,
                format!(
                    "ctx.state would keep {} bytes, more than the {MAX_STATE_BYTES} a lane's state may \
                     (16 a number or list element, 64 a map entry, a string its length)",
                    weight.bytes()
                ),
            ));
        }
        charge(&at, weight.cost())?;
        *write.borrow_mut() = value;
        Ok(())
    });
}

/// What in `value` is not plain data (see the module's doc), if anything.
fn not_plain(value: &Dynamic, depth: usize) -> Option<String> {
    if value.is_shared() {
        return Some("a variable a closure captured".into());
    }
    // Deeper than the limit is refused by the size check; going on would only recurse further.
    if depth > super::MAX_NESTING {
        return None;
    }
    let kind = value.type_id();
    if kind == TypeId::of::<Array>() {
        value.as_array_ref().ok()?.iter().find_map(|v| not_plain(v, depth + 1))
    } else if kind == TypeId::of::<Map>() {
        value.as_map_ref().ok()?.values().find_map(|v| not_plain(v, depth + 1))
    } else if value.is_unit()
        || [TypeId::of::<INT>(), TypeId::of::<FLOAT>(), TypeId::of::<bool>(), TypeId::of::<char>()].contains(&kind)
        || [TypeId::of::<ImmutableString>(), TypeId::of::<Blob>()].contains(&kind)
    {
        None
    } else {
        Some(format!("a value of type {}", value.type_name()))
    }
}
