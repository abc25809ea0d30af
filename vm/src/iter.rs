//! Lazy iterators (`language.md` 9.3, "iter"): `iter(x)` and the combinators on it.
//!
//! An iterator is a shared, mutable cursor: adaptors (`map`, `filter`, `take`, ...) wrap
//! their source and pull from it one element at a time, so `iter(0 to 1000000000)
//! .take(3)` touches three elements. Sinks (`to_list`, `sum`, ...) drain it.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use crate::error::VmError;
use crate::native::Host;
use crate::value::{Dict, RangeValue, Value, compare, equals};

/// Shared iterator state (the `Value::Iter` payload).
pub type IterRef = Rc<RefCell<Iter>>;

#[derive(Debug)]
pub enum Iter {
    Items {
        items: Rc<Vec<Value>>,
        pos: usize,
    },
    /// `for entry in dict`: the dict the loop started with (a copy-on-write share, so a
    /// body that changes the dict changes its own copy) and the next entry's place in key
    /// order, each entry handed out as an `{key, value}` dict only when the loop reaches it.
    Entries {
        dict: Rc<Dict>,
        pos: usize,
    },
    Range {
        range: RangeValue,
        pos: i64,
    },
    Map {
        inner: IterRef,
        f: Value,
    },
    Filter {
        inner: IterRef,
        f: Value,
    },
    Take {
        inner: IterRef,
        left: usize,
    },
    Skip {
        inner: IterRef,
        skip: usize,
    },
    TakeWhile {
        inner: IterRef,
        f: Value,
        done: bool,
    },
    SkipWhile {
        inner: IterRef,
        f: Value,
        skipping: bool,
    },
    Zip {
        a: IterRef,
        b: IterRef,
    },
    Enumerate {
        inner: IterRef,
        index: i64,
    },
    Chain {
        a: IterRef,
        b: IterRef,
    },
    FlatMap {
        inner: IterRef,
        f: Value,
        current: VecDeque<Value>,
    },
    Chunks {
        inner: IterRef,
        size: usize,
    },
    Windows {
        inner: IterRef,
        size: usize,
        buf: VecDeque<Value>,
    },
    /// A generator function's body, run one `yield` at a time.
    Generator(Box<dyn Resume>),
    /// `rng_seed(n)`: an endless, reproducible stream of floats in [0, 1) (SplitMix64);
    /// the random builtins draw from it when given it as their first argument.
    Seeded {
        state: u64,
    },
    /// `atomic(v)`: a cell every copy of the value shares; it yields nothing.
    Cell {
        value: Value,
    },
    Exhausted,
}

/// A new atomic cell holding `value`.
pub fn cell(value: Value) -> Value {
    new_iter(Iter::Cell { value })
}

/// Whether `it` is an atomic cell.
pub fn is_cell(it: &IterRef) -> bool {
    matches!(&*it.borrow(), Iter::Cell { .. })
}

/// The value in a cell (nil for any other iterator).
pub fn cell_get(it: &IterRef) -> Value {
    match &*it.borrow() {
        Iter::Cell { value } => value.clone(),
        _ => Value::Nil,
    }
}

/// Puts `value` in a cell and returns what it held.
pub fn cell_replace(it: &IterRef, value: Value) -> Value {
    match &mut *it.borrow_mut() {
        Iter::Cell { value: held } => std::mem::replace(held, value),
        _ => Value::Nil,
    }
}

/// A seeded random stream (`rng_seed`).
pub fn seeded(seed: u64) -> Value {
    new_iter(Iter::Seeded { state: seed })
}

/// The next 64 random bits of a seeded stream; `None` when `v` is not one.
pub fn draw(v: &Value) -> Option<u64> {
    let Value::Iter(it) = v else {
        return None;
    };
    let mut it = it.borrow_mut();
    let Iter::Seeded { state } = &mut *it else {
        return None;
    };
    Some(splitmix64(state))
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a small generator with good statistical
/// quality for a seed stream; not for secrets.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// 64 random bits as a float in [0, 1).
pub fn unit_float(bits: u64) -> f64 {
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

/// A paused generator body (`language.md` 7.12). The interpreter implements it (it owns
/// the VM the body runs in); iterators only resume it, so this module does not reach up
/// into the interpreter.
pub trait Resume: std::fmt::Debug {
    /// Runs the body to its next `yield` (the value) or its end (`None`).
    fn resume(&mut self, host: &mut dyn Host) -> Result<Option<Value>, VmError>;
}

pub fn new_iter(it: Iter) -> Value {
    Value::Iter(Rc::new(RefCell::new(it)))
}

/// `iter(x)`: lists, sets, ranges, dicts (yielding `(key, value)` pairs), strings
/// (characters) and iterators (themselves). Anything else yields nothing.
pub fn iter_of(v: &Value) -> Value {
    match v {
        Value::Iter(_) => v.clone(),
        Value::List(items) | Value::Set(items) => new_iter(Iter::Items {
            items: items.clone(),
            pos: 0,
        }),
        Value::Range(r) => new_iter(Iter::Range {
            range: (**r).clone(),
            pos: 0,
        }),
        Value::Dict(d) => new_iter(Iter::Items {
            items: Rc::new(
                d.iter()
                    .map(|(k, v)| Value::Pair(Rc::new((Value::str(k.as_str()), v.clone()))))
                    .collect(),
            ),
            pos: 0,
        }),
        Value::Str(s) => new_iter(Iter::Items {
            items: Rc::new(s.chars().map(crate::chars::char_value_of).collect()),
            pos: 0,
        }),
        _ => new_iter(Iter::Exhausted),
    }
}

/// What `for entry in dict` walks: `{key, value}` dicts made one at a time from the dict
/// itself, so a big dict is neither copied into as many small dicts nor into a list of
/// its keys and values before the loop starts.
pub(crate) fn dict_entries(d: &Rc<Dict>) -> Value {
    new_iter(Iter::Entries {
        dict: d.clone(),
        pos: 0,
    })
}

/// The key and value of entry `pos` of an `Iter::Entries`, moving on past it.
fn next_pair<'d>(dict: &'d Dict, pos: &mut usize) -> Option<(&'d str, &'d Value)> {
    let (k, v) = dict.entry_at(*pos)?;
    *pos += 1;
    Some((k.as_str(), v))
}

/// One step of an `Iter::Entries`: the next `{key, value}` dict, or the end.
fn next_entry(dict: &Dict, pos: &mut usize) -> Option<Value> {
    next_pair(dict, pos)
        .map(|(k, v)| crate::methods::entry("key", Value::str(k), "value", v.clone()))
}

/// The next entry of a `for` loop over a dict, written into `slot` (the loop variable):
/// `Some(true)` when written, `Some(false)` at the end, `None` when `it` is another kind
/// of iterator. When the previous entry in `slot` is held by nothing else (the body did
/// not keep it), its dict is refilled in place, and its key's string too when the body
/// did not keep that: a loop over a big dict then allocates nothing per entry. No fuel:
/// the loop's back edge pays for the step, as it did when the entries were a list.
pub(crate) fn next_dict_entry_into(it: &IterRef, slot: &mut Value) -> Option<bool> {
    let mut state = it.borrow_mut();
    let Iter::Entries { dict, pos } = &mut *state else {
        return None;
    };
    let Some((key, value)) = next_pair(dict, pos) else {
        *state = Iter::Exhausted;
        return Some(false);
    };
    if let Value::Dict(d) = slot
        && let Some(d) = Rc::get_mut(d)
        && let Some((k, v)) = d.values_of_two("key", "value")
    {
        if let Value::Str(s) = k
            && let Some(s) = Rc::get_mut(s)
        {
            s.clear();
            s.push_str(key);
        } else {
            *k = Value::str(key);
        }
        *v = value.clone();
        return Some(true);
    }
    *slot = crate::methods::entry("key", Value::str(key), "value", value.clone());
    Some(true)
}

fn pull(it: &IterRef, host: &mut dyn Host) -> Result<Option<Value>, VmError> {
    next(it, host)
}

/// Adaptors stacked deeper than this (`it = it.map(f)` in a loop) are refused when
/// pulled from, instead of recursing without end.
pub const MAX_ITER_DEPTH: usize = 10_000;

thread_local! {
    static PULL_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The next element, or `None` when the iterator is exhausted.
pub fn next(it: &IterRef, host: &mut dyn Host) -> Result<Option<Value>, VmError> {
    // A source that runs no code (a range, a list's items) steps in place: nothing can
    // re-enter it, so it needs neither the depth count, the stack check nor the state
    // moved out and back (the general path's cost on every pull of a pipeline).
    if let Ok(mut state) = it.try_borrow_mut()
        && matches!(
            *state,
            Iter::Range { .. } | Iter::Items { .. } | Iter::Exhausted
        )
    {
        host.charge(1)?;
        return Ok(step_source(&mut state));
    }
    let depth = PULL_DEPTH.with(|d| {
        d.set(d.get() + 1);
        d.get()
    });
    let result = if depth > MAX_ITER_DEPTH {
        Err(VmError::limit(crate::error::Limit::Memory(format!(
            "iterator nesting of {MAX_ITER_DEPTH} levels"
        ))))
    } else {
        harn_compiler::stack::maybe_grow(64 * 1024, 1024 * 1024, || next_here(it, host))
    };
    PULL_DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    result
}

fn next_here(it: &IterRef, host: &mut dyn Host) -> Result<Option<Value>, VmError> {
    host.charge(1)?;
    // Take the state out while working on it, so that re-entrant use (a callback that
    // touches the same iterator) sees it exhausted instead of a double borrow.
    let mut state = std::mem::replace(&mut *it.borrow_mut(), Iter::Exhausted);
    let result = step(&mut state, host);
    // A finished iterator stays finished; a cell stays a cell.
    if !matches!(result, Ok(None)) || matches!(state, Iter::Cell { .. }) {
        *it.borrow_mut() = state;
    }
    result
}

/// Most `map` and `filter` stages [`fusible`] takes in one chain.
const MAX_FUSED: usize = 16;

/// A chain of `map` and `filter` stages over an iterator, which a host may run with one
/// call window per stage (`interp/fused.rs`) instead of a call per element and stage.
/// `stages` go innermost first. The source is pulled with [`next`], as the innermost
/// stage would pull it.
pub(crate) struct Fusible {
    pub(crate) stages: Vec<FusedStage>,
    pub(crate) source: IterRef,
}

/// One stage of a [`Fusible`] chain.
pub(crate) struct FusedStage {
    /// `filter` (else `map`).
    pub(crate) filter: bool,
    pub(crate) f: Value,
    /// The stage's own iterator, when something besides the stage above it holds it
    /// (`let evens = xs.filter(f)`, then `evens.map(g)`): a callback may reach it, so
    /// the host takes its state out while it steps, as [`next`] does.
    pub(crate) held: Option<IterRef>,
}

/// The `map` or `filter` stage `state` is, with its inner iterator, when its function is
/// a closure.
fn stage_of(state: &Iter) -> Option<((bool, Value), &IterRef)> {
    match state {
        Iter::Map { inner, f } if matches!(f, Value::Closure(_)) => {
            Some(((false, f.clone()), inner))
        }
        Iter::Filter { inner, f } if matches!(f, Value::Closure(_)) => {
            Some(((true, f.clone()), inner))
        }
        _ => None,
    }
}

/// Whether `state` is a `map` or `filter` stage of a closure.
pub(crate) fn is_stage(state: &Iter) -> bool {
    matches!(
        state,
        Iter::Map {
            f: Value::Closure(_),
            ..
        } | Iter::Filter {
            f: Value::Closure(_),
            ..
        }
    )
}

/// `it` as a [`Fusible`] chain: `it` itself and each stage below it down to the first
/// iterator that is not a stage of a closure (the source). `None` when `it` is no such
/// stage. A stage that something else holds is marked ([`FusedStage::held`]): the host
/// steps it as [`next`] would, its state taken out meanwhile, so running the chain
/// stage by stage leaves every iterator as pulling it would.
pub(crate) fn fusible(it: &IterRef) -> Option<Fusible> {
    let mut stages = Vec::new();
    let mut current = Rc::clone(it);
    // The outermost stage is taken out by the host for the whole pull.
    let mut held = None;
    loop {
        let inner = {
            let state = current.try_borrow().ok()?;
            let ((filter, f), inner) = stage_of(&state)?;
            stages.push(FusedStage {
                filter,
                f,
                held: held.take(),
            });
            Rc::clone(inner)
        };
        let sole = Rc::strong_count(&inner) == 2 && Rc::weak_count(&inner) == 0;
        let inner_is_stage = inner
            .try_borrow()
            .ok()
            .is_some_and(|state| stage_of(&state).is_some());
        if !inner_is_stage || stages.len() == MAX_FUSED {
            stages.reverse();
            return Some(Fusible {
                stages,
                source: inner,
            });
        }
        held = (!sole).then(|| Rc::clone(&inner));
        current = inner;
    }
}

/// One step of a source that calls no code: a range, a list's items, or an exhausted
/// iterator (anything else is left as it is and gives `None`).
#[inline]
fn step_source(state: &mut Iter) -> Option<Value> {
    let v = match state {
        Iter::Range { range, pos } => range.get(*pos).map(|n| {
            *pos += 1;
            Value::Int(n)
        }),
        Iter::Items { items, pos } => {
            let v = items.get(*pos).cloned();
            *pos += 1;
            v
        }
        _ => return None,
    };
    if v.is_none() {
        *state = Iter::Exhausted;
    }
    v
}

fn step(state: &mut Iter, host: &mut dyn Host) -> Result<Option<Value>, VmError> {
    Ok(match state {
        Iter::Exhausted => None,
        Iter::Generator(g) => g.resume(host)?,
        Iter::Seeded { state } => Some(Value::Float(unit_float(splitmix64(state)))),
        Iter::Cell { .. } => None,
        Iter::Entries { dict, pos } => {
            let v = next_entry(dict, pos);
            if v.is_none() {
                *state = Iter::Exhausted;
            }
            v
        }
        Iter::Items { .. } | Iter::Range { .. } => step_source(state),
        Iter::Map { inner, f } => match pull(inner, host)? {
            Some(v) => Some(host.call(f, &[v])?),
            None => None,
        },
        Iter::Filter { inner, f } => loop {
            match pull(inner, host)? {
                Some(v) => {
                    if host.call(f, std::slice::from_ref(&v))?.truthy() {
                        break Some(v);
                    }
                }
                None => break None,
            }
        },
        Iter::Take { inner, left } => {
            if *left == 0 {
                None
            } else {
                *left -= 1;
                pull(inner, host)?
            }
        }
        Iter::Skip { inner, skip } => {
            while *skip > 0 {
                *skip -= 1;
                if pull(inner, host)?.is_none() {
                    return Ok(None);
                }
            }
            pull(inner, host)?
        }
        Iter::TakeWhile { inner, f, done } => {
            if *done {
                None
            } else {
                match pull(inner, host)? {
                    Some(v) if host.call(f, std::slice::from_ref(&v))?.truthy() => Some(v),
                    _ => {
                        *done = true;
                        None
                    }
                }
            }
        }
        Iter::SkipWhile { inner, f, skipping } => loop {
            match pull(inner, host)? {
                Some(v) => {
                    if *skipping && host.call(f, std::slice::from_ref(&v))?.truthy() {
                        continue;
                    }
                    *skipping = false;
                    break Some(v);
                }
                None => break None,
            }
        },
        Iter::Zip { a, b } => match (pull(a, host)?, pull(b, host)?) {
            (Some(x), Some(y)) => Some(Value::Pair(Rc::new((x, y)))),
            _ => None,
        },
        Iter::Enumerate { inner, index } => match pull(inner, host)? {
            Some(v) => {
                let i = *index;
                *index += 1;
                Some(Value::Pair(Rc::new((Value::Int(i), v))))
            }
            None => None,
        },
        Iter::Chain { a, b } => match pull(a, host)? {
            Some(v) => Some(v),
            None => pull(b, host)?,
        },
        Iter::FlatMap { inner, f, current } => loop {
            if let Some(v) = current.pop_front() {
                break Some(v);
            }
            match pull(inner, host)? {
                Some(v) => {
                    let mapped = host.call(f, &[v])?;
                    match &mapped {
                        Value::List(items) => current.extend(items.iter().cloned()),
                        Value::Iter(it) => {
                            while let Some(x) = next(it, host)? {
                                current.push_back(x);
                            }
                        }
                        _ => current.push_back(mapped),
                    }
                }
                None => break None,
            }
        },
        Iter::Chunks { inner, size } => {
            let mut chunk = Vec::new();
            while chunk.len() < *size {
                match pull(inner, host)? {
                    Some(v) => chunk.push(v),
                    None => break,
                }
            }
            if chunk.is_empty() {
                None
            } else {
                Some(Value::list(chunk))
            }
        }
        Iter::Windows { inner, size, buf } => {
            while buf.len() < *size {
                match pull(inner, host)? {
                    Some(v) => buf.push_back(v),
                    None => return Ok(None),
                }
            }
            let window: Vec<Value> = buf.iter().cloned().collect();
            buf.pop_front();
            Some(Value::list(window))
        }
    })
}

/// Whether the iterator is a generator that has not finished (`type_of` → `generator`).
pub fn is_generator(it: &IterRef) -> bool {
    it.try_borrow()
        .is_ok_and(|i| matches!(*i, Iter::Generator(_)))
}

pub fn is_exhausted(it: &IterRef) -> bool {
    matches!(*it.borrow(), Iter::Exhausted)
}

fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).cloned().unwrap_or_default()
}

fn size_arg(args: &[Value]) -> usize {
    match args.first() {
        Some(Value::Int(n)) if *n > 0 => *n as usize,
        _ => 1,
    }
}

fn count_arg(args: &[Value]) -> usize {
    match args.first() {
        Some(Value::Int(n)) if *n > 0 => *n as usize,
        _ => 0,
    }
}

fn drain(it: &IterRef, host: &mut dyn Host) -> Result<Vec<Value>, VmError> {
    if let Some(fused) = host.drain_fused(it) {
        return fused;
    }
    let mut out = Vec::new();
    while let Some(v) = next(it, host)? {
        out.push(v);
    }
    Ok(out)
}

/// Calls `f` on each element `it` yields until `each` says stop: in one reused call
/// window where the host has one, else one call at a time.
fn each_pulled(
    host: &mut dyn Host,
    f: &Value,
    it: &IterRef,
    each: &mut dyn FnMut(Value, &mut Value) -> Result<bool, VmError>,
) -> Result<(), VmError> {
    if let Some(done) = host.call_each_pulled(f, it, each) {
        return done;
    }
    while let Some(v) = next(it, host)? {
        let mut result = host.call(f, std::slice::from_ref(&v))?;
        if !each(v, &mut result)? {
            break;
        }
    }
    Ok(())
}

/// Methods on iterators; `Ok(None)` for an unknown name.
pub fn call_method(
    host: &mut dyn Host,
    it: &IterRef,
    name: &str,
    args: &[Value],
) -> Result<Option<Value>, VmError> {
    let inner = it.clone();
    let adapt = |i: Iter| Ok(Some(new_iter(i)));
    match name {
        "next" => {
            let mut d = Dict::new();
            match next(it, host)? {
                Some(v) => {
                    d.insert("value", v);
                    d.insert("done", Value::Bool(false));
                }
                None => {
                    d.insert("value", Value::Nil);
                    d.insert("done", Value::Bool(true));
                }
            }
            Ok(Some(Value::dict(d)))
        }
        "iter" => Ok(Some(Value::Iter(inner))),
        "map" => adapt(Iter::Map {
            inner,
            f: arg(args, 0),
        }),
        "filter" => adapt(Iter::Filter {
            inner,
            f: arg(args, 0),
        }),
        "take" => adapt(Iter::Take {
            inner,
            left: count_arg(args),
        }),
        "skip" => adapt(Iter::Skip {
            inner,
            skip: count_arg(args),
        }),
        "take_while" => adapt(Iter::TakeWhile {
            inner,
            f: arg(args, 0),
            done: false,
        }),
        "skip_while" => adapt(Iter::SkipWhile {
            inner,
            f: arg(args, 0),
            skipping: true,
        }),
        "zip" => {
            let other = iter_of(&arg(args, 0));
            let Value::Iter(b) = &other else {
                return Ok(None);
            };
            let b = b.clone();
            adapt(Iter::Zip { a: inner, b })
        }
        "enumerate" => adapt(Iter::Enumerate { inner, index: 0 }),
        "chain" => {
            let other = iter_of(&arg(args, 0));
            let Value::Iter(b) = &other else {
                return Ok(None);
            };
            let b = b.clone();
            adapt(Iter::Chain { a: inner, b })
        }
        "flat_map" => adapt(Iter::FlatMap {
            inner,
            f: arg(args, 0),
            current: VecDeque::new(),
        }),
        "chunks" => adapt(Iter::Chunks {
            inner,
            size: size_arg(args),
        }),
        "windows" => adapt(Iter::Windows {
            inner,
            size: size_arg(args),
            buf: VecDeque::new(),
        }),
        "to_list" => Ok(Some(Value::list(drain(it, host)?))),
        // The same elements as the list's `to_set`: identical values collapse (an int
        // and an equal float stay two), found by hashing rather than by a scan of the
        // set so far, which made a set of n elements cost n² comparisons.
        "to_set" => {
            let items = drain(it, host)?;
            Ok(Some(Value::Set(Rc::new(crate::methods::dedupe(
                host, items,
            )?))))
        }
        "to_dict" => {
            let mut d = Dict::new();
            for v in drain(it, host)? {
                let (k, val) = match &v {
                    Value::Pair(p) => (p.0.clone(), p.1.clone()),
                    Value::List(l) if l.len() == 2 => (l[0].clone(), l[1].clone()),
                    _ => continue,
                };
                d.insert(crate::display::display(&k)?, val);
            }
            Ok(Some(Value::dict(d)))
        }
        "count" => Ok(Some(Value::Int(drain(it, host)?.len() as i64))),
        "sum" => {
            let mut int_sum: i64 = 0;
            let mut float_sum = 0.0;
            let mut is_float = false;
            for v in drain(it, host)? {
                match v {
                    Value::Int(n) => int_sum = int_sum.wrapping_add(n),
                    Value::Float(x) => {
                        is_float = true;
                        float_sum += x;
                    }
                    _ => {}
                }
            }
            Ok(Some(if is_float {
                Value::Float(float_sum + int_sum as f64)
            } else {
                Value::Int(int_sum)
            }))
        }
        "min" | "max" => {
            let want_max = name == "max";
            let mut best: Option<Value> = None;
            for v in drain(it, host)? {
                best = Some(match best {
                    None => v,
                    Some(b) => {
                        let ord = compare(&v, &b);
                        if (want_max && ord.is_gt()) || (!want_max && ord.is_lt()) {
                            v
                        } else {
                            b
                        }
                    }
                });
            }
            Ok(Some(best.unwrap_or_default()))
        }
        "reduce" => {
            let mut acc = arg(args, 0);
            let f = arg(args, 1);
            if let Some(done) = host.fold_pulled(&f, &mut acc, it) {
                done?;
                return Ok(Some(acc));
            }
            while let Some(v) = next(it, host)? {
                acc = host.call(&f, &[acc, v])?;
            }
            Ok(Some(acc))
        }
        "first" => Ok(Some(next(it, host)?.unwrap_or_default())),
        "last" => Ok(Some(drain(it, host)?.pop().unwrap_or_default())),
        "any" | "all" | "find" => {
            // The element that settles the answer: the first hit of `any` and `find`,
            // the first miss of `all`.
            let settle_on = name != "all";
            let mut settled = None;
            each_pulled(host, &arg(args, 0), it, &mut |v, hit| {
                if hit.truthy() == settle_on {
                    settled = Some(v);
                    return Ok(false);
                }
                Ok(true)
            })?;
            Ok(Some(match (name, settled) {
                ("find", found) => found.unwrap_or_default(),
                (_, settled) => Value::Bool(settled.is_some() == settle_on),
            }))
        }
        "for_each" => {
            each_pulled(host, &arg(args, 0), it, &mut |_, _| Ok(true))?;
            Ok(Some(Value::Nil))
        }
        "contains" => {
            let needle = arg(args, 0);
            while let Some(v) = next(it, host)? {
                if equals(&v, &needle)? {
                    return Ok(Some(Value::Bool(true)));
                }
            }
            Ok(Some(Value::Bool(false)))
        }
        _ => Ok(None),
    }
}

/// Hands the values an iterator holds (callbacks, sources, buffered items) to `out`, so
/// a long chain of adaptors is freed with a work list instead of recursion.
pub(crate) fn into_parts(state: Iter, out: &mut dyn FnMut(Value)) {
    let mut source = |inner: IterRef| out(Value::Iter(inner));
    match state {
        Iter::Items { items, .. } => out(Value::List(items)),
        Iter::Entries { dict, .. } => out(Value::Dict(dict)),
        Iter::Map { inner, f }
        | Iter::Filter { inner, f }
        | Iter::TakeWhile { inner, f, .. }
        | Iter::SkipWhile { inner, f, .. } => {
            source(inner);
            out(f);
        }
        Iter::Take { inner, .. }
        | Iter::Skip { inner, .. }
        | Iter::Enumerate { inner, .. }
        | Iter::Chunks { inner, .. } => source(inner),
        Iter::Zip { a, b } | Iter::Chain { a, b } => {
            source(a);
            source(b);
        }
        Iter::FlatMap { inner, f, current } => {
            source(inner);
            out(f);
            current.into_iter().for_each(&mut *out);
        }
        Iter::Windows { inner, buf, .. } => {
            source(inner);
            buf.into_iter().for_each(&mut *out);
        }
        Iter::Cell { value } => out(value),
        Iter::Range { .. } | Iter::Generator(_) | Iter::Seeded { .. } | Iter::Exhausted => {}
    }
}
