//! rhai's engine as a script gets it: the limits, the budget's meter wired in, and the
//! built-ins whose work the operation count does not see replaced by ones that pay for it.
//!
//! What is taken away: `eval`, `this` (a method's object read by value is a copy the budget
//! cannot weigh; no context function needs it), `sleep` (the only blocking or clock function
//! left with the `no_time` feature), `print` and `debug` (discarded), and the optimiser (it
//! folds a list written in the source into one constant that every evaluation copies whole;
//! unfolded, each element is an operation).
//!
//! What is paid for (see [`super::budget`]): reading a variable, by the size of its value,
//! which is checked against the size limits at the same time (rhai checks a map only when it
//! is assigned whole, so `m[key] = v` grew past its limit); and the built-ins below, which
//! are rhai's own (their code follows rhai 1.27's `array_basic.rs`, `map_basic.rs` and
//! `string_more.rs`) with the cost of the elements they touch charged first. The sorts are
//! a merge sort of packlab's own: the standard library's sort may panic on a comparator that
//! is not a total order (a float list holding NaN, a comparator drawing random numbers), and
//! a panic in the page is the end of the page.

use std::any::TypeId;
use std::cmp::Ordering;
use std::rc::Rc;

use rhai::{
    Array, Blob, Dynamic, Engine, EvalAltResult, FnPtr, INT, ImmutableString, Map, NativeCallContext as At, OP_EQUALS,
    OptimizationLevel, Position,
};

use super::budget::{BYTES_PER_OPERATION, Exceeded, Meter, charge};
use super::{
    MAX_ARRAY_LEN, MAX_CALL_LEVELS, MAX_EXPR_DEPTH, MAX_FUNCTIONS, MAX_MAP_LEN, MAX_NESTING, MAX_STRING_BYTES,
    MAX_VARIABLES,
};

type Reply<T> = Result<T, Box<EvalAltResult>>;

/// Operations charged per element a built-in compares with `==`: each comparison is a call
/// through rhai's function lookup, as much work as 6 plain operations between integers and 18
/// between an integer and a float.
const EQUALS_COST: u64 = 8;
/// Operations charged per string a built-in makes (two allocations each).
const PIECE_COST: u64 = 2;

/// An engine with packlab's limits and sandbox, metered by `meter`, and no model's context yet.
pub(super) fn engine(meter: &Rc<Meter>) -> Engine {
    let mut engine = Engine::new();
    engine
        // The meter counts operations (rhai's own count restarts in every closure a built-in
        // calls, so it cannot be the budget).
        .set_max_operations(0)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(MAX_EXPR_DEPTH, MAX_EXPR_DEPTH)
        .set_max_string_size(MAX_STRING_BYTES)
        .set_max_array_size(MAX_ARRAY_LEN)
        .set_max_map_size(MAX_MAP_LEN)
        .set_max_functions(MAX_FUNCTIONS)
        .set_max_variables(MAX_VARIABLES)
        .set_optimization_level(OptimizationLevel::None);
    engine.disable_symbol("eval");
    engine.disable_symbol("this");
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    engine.set_default_tag(Dynamic::from(Rc::clone(meter)));
    let ticks = Rc::clone(meter);
    engine.on_progress(move |_| ticks.charge(1).err().map(Dynamic::from));
    let reads = Rc::clone(meter);
    #[allow(deprecated)] // rhai marks `on_var` volatile, not deprecated
    engine.on_var(move |name, _, context| {
        if let Some(value) = context.scope().get(name) {
            let weight = Weight::of(value);
            weight.check()?;
            reads.charge(weight.cost()).map_err(Exceeded::error)?;
        }
        Ok(None)
    });
    no_clock(&mut engine);
    lists(&mut engine);
    sorts(&mut engine);
    strings(&mut engine);
    engine
}

/// What a value holds, counted as rhai's size limits count it, plus what the budget weighs.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Weight {
    /// Elements of lists (and bytes of blobs) at every level.
    elements: u64,
    /// Entries of maps at every level.
    entries: u64,
    /// Bytes of strings at every level (keys not counted, as in rhai's limit).
    bytes: u64,
    /// Bytes of map keys.
    keys: u64,
    /// Lists and maps nested inside one another.
    depth: u64,
}

impl Weight {
    pub(super) fn of(value: &Dynamic) -> Self {
        let mut weight = Self::default();
        weight.add(value, 1);
        weight
    }

    fn of_list(list: &[Dynamic]) -> Self {
        let mut weight = Self { depth: 1, ..Self::default() };
        weight.add_list(list, 1);
        weight
    }

    fn add_list(&mut self, list: &[Dynamic], depth: u64) {
        self.depth = self.depth.max(depth);
        self.elements += list.len() as u64;
        list.iter().for_each(|v| self.add(v, depth + 1));
    }

    fn add(&mut self, value: &Dynamic, depth: u64) {
        // Deeper than the limit is refused anyway; going on would only recurse further.
        if depth > MAX_NESTING as u64 + 1 {
            return;
        }
        // A shared value (captured by a closure) is weighed through its lock: asking a shared
        // value its type panics while it is borrowed for writing.
        if value.is_shared() {
            if let Some(inner) = value.read_lock::<Dynamic>() {
                self.add(&inner, depth);
            }
            return;
        }
        // One type test per element: most elements are numbers, and this runs at every read.
        let kind = value.type_id();
        if kind == TypeId::of::<Array>() {
            if let Ok(list) = value.as_array_ref() {
                self.add_list(&list, depth);
            }
        } else if kind == TypeId::of::<Map>() {
            if let Ok(map) = value.as_map_ref() {
                self.depth = self.depth.max(depth);
                self.entries += map.len() as u64;
                for (key, v) in map.iter() {
                    self.keys += key.len() as u64;
                    self.add(v, depth + 1);
                }
            }
        } else if kind == TypeId::of::<ImmutableString>() {
            if let Ok(text) = value.as_immutable_string_ref() {
                self.bytes += text.len() as u64;
            }
        } else if kind == TypeId::of::<Blob>() {
            if let Ok(blob) = value.as_blob_ref() {
                self.elements += blob.len() as u64;
            }
        } else if kind == TypeId::of::<FnPtr>()
            && let Some(f) = value.read_lock::<FnPtr>()
        {
            // A function pointer carries its curried values; rhai's limits do not see them.
            f.iter_curry().for_each(|v| self.add(v, depth + 1));
        }
    }

    /// The bytes the budget counts: 16 per element, 64 per map entry, a string's (and a map
    /// key's) own: about what a copy of the value holds.
    pub(super) fn bytes(&self) -> u64 {
        self.cost_bytes()
    }

    fn cost_bytes(&self) -> u64 {
        (16 * self.elements).saturating_add(64 * self.entries).saturating_add(self.bytes).saturating_add(self.keys)
    }

    /// Operations a read of the value costs.
    pub(super) fn cost(&self) -> u64 {
        self.cost_bytes() / BYTES_PER_OPERATION
    }

    /// The size limit the value exceeds, as rhai says it.
    pub(super) fn check(&self) -> Reply<()> {
        let too_large = |what: &str| Err(Box::new(EvalAltResult::ErrorDataTooLarge(what.into(), Position::NONE)));
        if self.elements > MAX_ARRAY_LEN as u64 {
            return too_large("Size of array/BLOB");
        }
        if self.entries > MAX_MAP_LEN as u64 {
            return too_large("Size of object map");
        }
        if self.bytes > MAX_STRING_BYTES as u64 {
            return too_large("Length of string");
        }
        if self.depth > MAX_NESTING as u64 {
            return too_large("Nesting of arrays and maps");
        }
        Ok(())
    }
}

/// Spends `units` per element of `len`.
fn per_element(at: &At, len: usize, units: u64) -> Reply<()> {
    charge(at, (len as u64).saturating_mul(units))
}

/// `sleep` blocks the thread; a script has no clock.
fn no_clock(engine: &mut Engine) {
    let refuse = |at: At| -> Reply<()> {
        Err(super::refuse(&at, "sleep is not available: a script has no clock, and waits for nothing"))
    };
    engine.register_fn("sleep", move |at: At, _: INT| refuse(at));
    engine.register_fn("sleep", move |at: At, _: rhai::FLOAT| refuse(at));
}

/// `a == b` as rhai's lists compare elements: a missing `==` between different types is
/// `false`, between equal types an error.
fn equal(at: &At, a: &mut Dynamic, b: &mut Dynamic) -> Reply<bool> {
    let same_type = a.type_id() == b.type_id();
    at.call_native_fn_raw(OP_EQUALS, true, &mut [a, b])
        .or_else(|e| match *e {
            EvalAltResult::ErrorFunctionNotFound(ref sig, ..) if sig.starts_with(OP_EQUALS) && !same_type => {
                Ok(Dynamic::FALSE)
            }
            _ => Err(e),
        })
        .map(|v| v.as_bool().unwrap_or(false))
}

/// The first index from `start` holding `value`, or -1.
fn index_from(at: &At, list: &mut Array, value: &Dynamic, start: usize) -> Reply<INT> {
    per_element(at, list.len().saturating_sub(start), EQUALS_COST)?;
    for (i, item) in list.iter_mut().enumerate().skip(start) {
        if equal(at, item, &mut value.clone())? {
            return Ok(INT::try_from(i).unwrap_or(INT::MAX));
        }
    }
    Ok(-1)
}

/// Where `start` points in a list of `len` (negative counts from the end), as rhai's
/// `calc_offset_len`.
fn offset(len: usize, start: INT) -> usize {
    if start < 0 {
        usize::try_from(start.unsigned_abs()).map_or(0, |x| len - x.min(len))
    } else {
        usize::try_from(start).map_or(len, |x| x.min(len))
    }
}

/// Calls `f` on `item`, as rhai's list functions call their callbacks: as a method of it, else
/// with it as the argument, else with its index `i` as a second one.
fn call_on(at: &At, f: &FnPtr, item: &mut Dynamic, i: usize) -> Reply<Dynamic> {
    let not_found =
        |e: &EvalAltResult| matches!(e, EvalAltResult::ErrorFunctionNotFound(sig, ..) if sig.starts_with(f.fn_name()));
    f.call_raw(at, Some(&mut item.clone()), [])
        .or_else(|e| if not_found(&e) { f.call_raw(at, None, [item.clone()]) } else { Err(e) })
        .or_else(|e| if not_found(&e) { f.call_raw(at, None, [item.clone(), Dynamic::from(i as INT)]) } else { Err(e) })
}

/// Splits `list` into what `f` keeps and what it does not, calling it once per element in
/// order (rhai's `retain` and `drain` remove as they go, which is quadratic). The list is left
/// as it was if `f` fails.
fn partition(at: &At, list: &mut Array, f: &FnPtr) -> Reply<(Array, Array)> {
    let mut keep = Vec::with_capacity(list.len());
    for (i, item) in list.iter_mut().enumerate() {
        charge(at, 1)?;
        keep.push(call_on(at, f, item, i)?.as_bool().unwrap_or(false));
    }
    let (mut kept, mut out) = (Array::new(), Array::new());
    for (item, keep) in std::mem::take(list).into_iter().zip(keep) {
        if keep { kept.push(item) } else { out.push(item) }
    }
    Ok((kept, out))
}

/// The list functions whose work grows with the list.
fn lists(engine: &mut Engine) {
    engine
        .register_fn("contains", |at: At, list: &mut Array, value: Dynamic| -> Reply<bool> {
            Ok(index_from(&at, list, &value, 0)? >= 0)
        })
        .register_fn("index_of", |at: At, list: &mut Array, value: Dynamic| index_from(&at, list, &value, 0))
        .register_fn("index_of", |at: At, list: &mut Array, value: Dynamic, start: INT| {
            let start = offset(list.len(), start);
            index_from(&at, list, &value, start)
        })
        .register_fn("==", |at: At, a: &mut Array, mut b: Array| lists_equal(&at, a, &mut b))
        .register_fn("!=", |at: At, a: &mut Array, mut b: Array| lists_equal(&at, a, &mut b).map(|e| !e))
        .register_fn("==", |at: At, a: &mut Map, mut b: Map| maps_equal(&at, a, &mut b))
        .register_fn("!=", |at: At, a: &mut Map, mut b: Map| maps_equal(&at, a, &mut b).map(|e| !e))
        .register_fn("dedup", |at: At, list: &mut Array| -> Reply<()> {
            per_element(&at, list.len(), EQUALS_COST)?;
            let mut failure = None;
            list.dedup_by(|x, y| {
                failure.is_none()
                    && equal(&at, y, x).unwrap_or_else(|e| {
                        // Rhai's dedup reads a failed `==` as "different"; the budget still stops.
                        if !e.is_catchable() {
                            failure = Some(e);
                        }
                        false
                    })
            });
            failure.map_or(Ok(()), Err)
        })
        .register_fn("pad", |at: At, list: &mut Array, len: INT, item: Dynamic| -> Reply<()> {
            let Ok(len) = usize::try_from(len) else { return Ok(()) };
            if len <= list.len() {
                return Ok(());
            }
            let added = (len - list.len()) as u64;
            let (mut total, each) = (Weight::of_list(list), Weight::of(&item));
            total.elements = total.elements.saturating_add(added.saturating_mul(1 + each.elements));
            total.entries = total.entries.saturating_add(added.saturating_mul(each.entries));
            total.bytes = total.bytes.saturating_add(added.saturating_mul(each.bytes));
            total.depth = total.depth.max(each.depth + 1);
            total.check()?;
            let mut one = each;
            one.elements += 1;
            charge(&at, one.cost_bytes().saturating_mul(added) / BYTES_PER_OPERATION)?;
            list.resize(len, item);
            Ok(())
        });
    for name in ["retain", "drain"] {
        let keep_matching = name == "retain";
        let by_pointer = move |at: At, list: &mut Array, f: FnPtr| -> Reply<Array> {
            let (matching, other) = partition(&at, list, &f)?;
            let (kept, removed) = if keep_matching { (matching, other) } else { (other, matching) };
            *list = kept;
            Ok(removed)
        };
        engine.register_fn(name, by_pointer);
        engine.register_fn(name, move |at: At, list: &mut Array, f: &str| by_pointer(at, list, FnPtr::new(f)?));
    }
}

fn lists_equal(at: &At, a: &mut Array, b: &mut Array) -> Reply<bool> {
    if a.len() != b.len() {
        return Ok(false);
    }
    per_element(at, a.len(), EQUALS_COST)?;
    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
        if !equal(at, x, y)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn maps_equal(at: &At, a: &mut Map, b: &mut Map) -> Reply<bool> {
    if a.len() != b.len() {
        return Ok(false);
    }
    per_element(at, a.len(), EQUALS_COST)?;
    for (key, x) in a.iter_mut() {
        let Some(y) = b.get_mut(key) else { return Ok(false) };
        if !at.call_native_fn_raw(OP_EQUALS, true, &mut [x, y])?.as_bool().unwrap_or(false) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A stable merge sort by `compare`, which may fail (the budget) and need not be a total
/// order: it never panics, and with a total order it sorts as the standard library's stable
/// sort does. Each comparison costs one operation.
fn merge_sort(at: &At, list: Array, compare: &mut dyn FnMut(&Dynamic, &Dynamic) -> Reply<Ordering>) -> Reply<Array> {
    if list.len() <= 1 {
        return Ok(list);
    }
    let mut right = list;
    let left: Array = right.drain(..right.len() / 2).collect();
    let (left, right) = (merge_sort(at, left, compare)?, merge_sort(at, right, compare)?);
    let mut out = Array::with_capacity(left.len() + right.len());
    let (mut left, mut right) = (left.into_iter().peekable(), right.into_iter().peekable());
    while let (Some(l), Some(r)) = (left.peek(), right.peek()) {
        charge(at, 1)?;
        // Ties take the left one first: stable.
        let next = if compare(r, l)? == Ordering::Less { right.next() } else { left.next() };
        out.extend(next);
    }
    out.extend(left);
    out.extend(right);
    Ok(out)
}

/// How rhai's built-in sort orders two elements of one type; `None` for a type it cannot sort.
fn builtin_order(a: &Dynamic, b: &Dynamic) -> Option<Ordering> {
    if let (Ok(a), Ok(b)) = (a.as_int(), b.as_int()) {
        return Some(a.cmp(&b));
    }
    if let (Ok(a), Ok(b)) = (a.as_char(), b.as_char()) {
        return Some(a.cmp(&b));
    }
    if let (Ok(a), Ok(b)) = (a.as_float(), b.as_float()) {
        return Some(a.partial_cmp(&b).unwrap_or(Ordering::Equal));
    }
    if let (Ok(a), Ok(b)) = (a.as_immutable_string_ref(), b.as_immutable_string_ref()) {
        return Some(a.as_str().cmp(b.as_str()));
    }
    if let (Ok(a), Ok(b)) = (a.as_bool(), b.as_bool()) {
        return Some(a.cmp(&b));
    }
    (a.is_unit() && b.is_unit()).then_some(Ordering::Equal)
}

/// Whether rhai's built-in sort can sort `list`: elements of one type it orders.
fn sortable(list: &Array) -> Reply<()> {
    let Some(first) = list.first() else { return Ok(()) };
    let sort_error = |what: String| Err(Box::new(EvalAltResult::ErrorFunctionNotFound(what, Position::NONE)));
    if list.len() > 1 && list.iter().any(|a| a.type_id() != first.type_id()) {
        return sort_error("elements of different types cannot be sorted".into());
    }
    if list.len() > 1 && builtin_order(first, first).is_none() {
        return sort_error(format!("elements of {} cannot be sorted", first.type_name()));
    }
    Ok(())
}

/// `list` sorted by rhai's built-in order, descending if `descending` (checked [`sortable`]).
fn sorted_builtin(at: &At, list: Array, descending: bool) -> Reply<Array> {
    let mut compare = |a: &Dynamic, b: &Dynamic| {
        let order = builtin_order(a, b).unwrap_or(Ordering::Equal);
        Ok(if descending { order.reverse() } else { order })
    };
    merge_sort(at, list, &mut compare)
}

/// `list` sorted by the script's comparator, which returns a number (negative: less) or a
/// boolean (`true`: not greater); what it cannot answer sorts by type, as in rhai.
fn sorted_by(at: &At, list: Array, comparer: &FnPtr) -> Reply<Array> {
    let mut compare = |x: &Dynamic, y: &Dynamic| -> Reply<Ordering> {
        let answer = match comparer.call_raw(at, None, [x.clone(), y.clone()]) {
            Ok(v) => v.as_int().ok().or_else(|| v.as_bool().ok().map(|le| if le { -1 } else { 1 })),
            // The budget stops the sort; other failures order by type, as rhai's sort does.
            Err(e) if !e.is_catchable() => return Err(e),
            Err(_) => None,
        };
        Ok(answer.map_or_else(|| x.type_id().cmp(&y.type_id()), |v| v.cmp(&0)))
    };
    merge_sort(at, list, &mut compare)
}

fn sorts(engine: &mut Engine) {
    for (name, descending) in [("sort", false), ("sort_desc", true)] {
        engine.register_fn(name, move |at: At, list: &mut Array| -> Reply<()> {
            sortable(list)?;
            *list = sorted_builtin(&at, std::mem::take(list), descending)?;
            Ok(())
        });
    }
    for (name, descending) in [("order", false), ("order_desc", true)] {
        engine.register_fn(name, move |at: At, list: &mut Array| {
            sortable(list)?;
            sorted_builtin(&at, list.clone(), descending)
        });
    }
    for name in ["sort", "sort_by"] {
        engine.register_fn(name, |at: At, list: &mut Array, f: FnPtr| -> Reply<()> {
            *list = sorted_by(&at, std::mem::take(list), &f)?;
            Ok(())
        });
    }
    engine.register_fn("sort", |at: At, list: &mut Array, f: &str| -> Reply<()> {
        *list = sorted_by(&at, std::mem::take(list), &FnPtr::new(f)?)?;
        Ok(())
    });
    for name in ["order", "order_by"] {
        engine.register_fn(name, |at: At, list: &mut Array, f: FnPtr| sorted_by(&at, list.clone(), &f));
    }
}

/// A list of pieces of a string, paid for by its size and its pieces.
fn pieces<'s>(at: &At, parts: impl Iterator<Item = &'s str>) -> Reply<Array> {
    let list: Array = parts.map(|p| Dynamic::from(ImmutableString::from(p))).collect();
    charge(at, Weight::of_list(&list).cost() + PIECE_COST * list.len() as u64)?;
    Ok(list)
}

/// The string functions that make lists or long strings, from rhai's, paid for.
fn strings(engine: &mut Engine) {
    let whole = |s: &ImmutableString| -> Array { vec![s.clone().into()] };
    let segments = |n: INT| usize::try_from(n).unwrap_or(usize::MAX);
    engine
        .register_fn(
            "split",
            move |at: At, s: &mut ImmutableString| {
                if s.is_empty() { Ok(whole(s)) } else { pieces(&at, s.split_whitespace()) }
            },
        )
        .register_fn("split", move |at: At, s: &mut ImmutableString, d: &str| {
            if s.is_empty() || (!d.is_empty() && !s.contains(d)) { Ok(whole(s)) } else { pieces(&at, s.split(d)) }
        })
        .register_fn("split", move |at: At, s: &mut ImmutableString, d: &str, n: INT| {
            if n <= 1 || s.is_empty() || (!d.is_empty() && !s.contains(d)) {
                Ok(whole(s))
            } else {
                pieces(&at, s.splitn(segments(n), d))
            }
        })
        .register_fn(
            "split",
            move |at: At, s: &mut ImmutableString, d: char| {
                if s.is_empty() || !s.contains(d) { Ok(whole(s)) } else { pieces(&at, s.split(d)) }
            },
        )
        .register_fn("split", move |at: At, s: &mut ImmutableString, d: char, n: INT| {
            if n <= 1 || s.is_empty() || !s.contains(d) { Ok(whole(s)) } else { pieces(&at, s.splitn(segments(n), d)) }
        })
        .register_fn("split_rev", move |at: At, s: &mut ImmutableString, d: &str| {
            if s.is_empty() || (!d.is_empty() && !s.contains(d)) { Ok(whole(s)) } else { pieces(&at, s.rsplit(d)) }
        })
        .register_fn("split_rev", move |at: At, s: &mut ImmutableString, d: &str, n: INT| {
            if n <= 1 || s.is_empty() || (!d.is_empty() && !s.contains(d)) {
                Ok(whole(s))
            } else {
                pieces(&at, s.rsplitn(segments(n), d))
            }
        })
        .register_fn(
            "split_rev",
            move |at: At, s: &mut ImmutableString, d: char| {
                if s.is_empty() || !s.contains(d) { Ok(whole(s)) } else { pieces(&at, s.rsplit(d)) }
            },
        )
        .register_fn("split_rev", move |at: At, s: &mut ImmutableString, d: char, n: INT| {
            if n <= 1 || s.is_empty() || !s.contains(d) { Ok(whole(s)) } else { pieces(&at, s.rsplitn(segments(n), d)) }
        })
        .register_fn("to_chars", |at: At, s: &str| -> Reply<Array> {
            let list: Array = s.chars().map(Dynamic::from).collect();
            charge(&at, Weight::of_list(&list).cost())?;
            Ok(list)
        })
        .register_fn("pad", |at: At, s: &mut ImmutableString, len: INT, c: char| {
            let mut buffer = [0u8; 4];
            pad_string(&at, s, len, c.encode_utf8(&mut buffer))
        })
        .register_fn("pad", |at: At, s: &mut ImmutableString, len: INT, padding: &str| {
            pad_string(&at, s, len, padding)
        });
}

/// `s` padded with `padding` to `len` characters, as rhai's `pad` (which loops for ever on an
/// empty padding: here that pads nothing).
fn pad_string(at: &At, s: &mut ImmutableString, len: INT, padding: &str) -> Reply<()> {
    let too_long = || Box::new(EvalAltResult::ErrorDataTooLarge("Length of string".into(), Position::NONE));
    if len <= 0 || padding.is_empty() {
        return Ok(());
    }
    let len = usize::try_from(len).map_err(|_| too_long())?;
    if len > MAX_STRING_BYTES {
        return Err(too_long());
    }
    let (mut chars, padding_chars) = (s.chars().count(), padding.chars().count());
    if len <= chars {
        return Ok(());
    }
    charge(at, ((len - chars) * padding.len() / padding_chars) as u64 / BYTES_PER_OPERATION)?;
    let text = s.make_mut();
    while chars < len {
        let take = padding_chars.min(len - chars);
        text.extend(padding.chars().take(take));
        chars += take;
    }
    if s.len() > MAX_STRING_BYTES {
        return Err(too_long());
    }
    Ok(())
}
