//! Run-time values (`language.md` 8) and their core operations: truthiness, equality,
//! ordering, `type_of` names.
//!
//! Collections are values with copy-on-write sharing: a list, dict or string held by one
//! owner is mutated in place (`Rc::make_mut`), so building a collection step by step is
//! amortised O(1) per step. Every value is 16 bytes.

use std::cmp::Ordering;
use std::rc::Rc;

use crate::error::VmError;
use crate::function::Closure;

/// Maximum nesting for recursive operations on values (display, equality, JSON).
pub const MAX_VALUE_DEPTH: usize = 512;

pub use crate::dict::{Dict, Key};

/// A runtime value: 16 bytes, a tag and one word of payload.
///
/// **`repr(u64)`: every payload starts at byte 8.** With the default layout `Bool` sat at
/// byte 1 and `Builtin` at byte 4, so the compiler copied a value whose variant it did not
/// know as bytes 1 to 15 in pieces (8, 4, 2 and 1 bytes at odd offsets). A copy read back
/// that way right after being written (a field read, a list element, a dict entry) could
/// not be forwarded from the pending stores and stalled the CPU on every read. With the
/// payload at byte 8 such a copy is two aligned words. The tag's unused values still give
/// `Option<Value>` its niche: it stays 16 bytes.
#[derive(Clone, Debug)]
#[repr(u64)]
pub enum Value {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// Milliseconds.
    Duration(i64),
    Str(Rc<String>),
    List(Rc<Vec<Value>>),
    Dict(Rc<Dict>),
    /// Insertion-ordered, de-duplicated by structural equality.
    Set(Rc<Vec<Value>>),
    Range(Rc<RangeValue>),
    Closure(Rc<Closure>),
    /// A builtin used as a value: its id in the registry.
    Builtin(u32),
    Enum(Rc<EnumValue>),
    Struct(Rc<StructValue>),
    Pair(Rc<(Value, Value)>),
    Bytes(Rc<Vec<u8>>),
    /// A lazy iterator (shared cursor).
    Iter(crate::iter::IterRef),
}

// Two 8-byte words, tag and payload: the interpreter's stores rely on it
// (`interp::exec::store_words`).
const _: () = assert!(std::mem::size_of::<Value>() == 16 && std::mem::align_of::<Value>() == 8);

/// Nil. `Option::unwrap_or_default` reads a missing value as nil without building a
/// default that must then be dropped: `unwrap_or(Value::Nil)` and `map_or(Value::Nil, ..)`
/// left an out-of-line drop call on the found path of hot reads.
impl Default for Value {
    fn default() -> Self {
        Value::Nil
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeValue {
    pub start: i64,
    pub end: i64,
    pub inclusive: bool,
}

impl RangeValue {
    /// Number of integers in the range (0 when empty).
    pub fn len(&self) -> i64 {
        let last = if self.inclusive {
            self.end
        } else {
            self.end.saturating_sub(1)
        };
        if last < self.start {
            0
        } else {
            last.saturating_sub(self.start).saturating_add(1)
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: i64) -> Option<i64> {
        (0..self.len()).contains(&i).then(|| self.start + i)
    }

    pub fn contains(&self, n: i64) -> bool {
        n >= self.start
            && if self.inclusive {
                n <= self.end
            } else {
                n < self.end
            }
    }
}

#[derive(Clone, Debug)]
pub struct EnumValue {
    pub enum_name: Rc<str>,
    pub variant: Rc<str>,
    pub fields: Vec<Value>,
}

#[derive(Clone, Debug)]
pub struct StructValue {
    pub name: Rc<str>,
    pub fields: Dict,
}

impl Value {
    pub fn str(s: impl Into<String>) -> Value {
        Value::Str(Rc::new(s.into()))
    }

    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(items))
    }

    pub fn dict(d: Dict) -> Value {
        Value::Dict(Rc::new(d))
    }

    pub fn ok(v: Value) -> Value {
        Value::Enum(Rc::new(EnumValue {
            enum_name: "Result".into(),
            variant: "Ok".into(),
            fields: vec![v],
        }))
    }

    pub fn err(v: Value) -> Value {
        Value::Enum(Rc::new(EnumValue {
            enum_name: "Result".into(),
            variant: "Err".into(),
            fields: vec![v],
        }))
    }

    /// `Some(true)` for `Result.Ok`, `Some(false)` for `Result.Err`, `None` otherwise.
    pub fn result_is_ok(&self) -> Option<bool> {
        match self {
            Value::Enum(e) if &*e.enum_name == "Result" => match &*e.variant {
                "Ok" => Some(true),
                "Err" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// The `type_of` name.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Duration(_) => "duration",
            Value::Str(_) => "string",
            Value::List(_) => "list",
            Value::Dict(_) => "dict",
            Value::Set(_) => "set",
            Value::Range(_) => "range",
            Value::Closure(_) => "closure",
            Value::Builtin(_) => "builtin",
            Value::Enum(_) => "enum",
            Value::Struct(_) => "struct",
            Value::Pair(_) => "pair",
            Value::Bytes(_) => "bytes",
            Value::Iter(it) if crate::iter::is_generator(it) => "generator",
            Value::Iter(_) => "iter",
        }
    }

    /// Truthiness (`language.md` 8.2).
    pub fn truthy(&self) -> bool {
        match self {
            Value::Nil => false,
            Value::Bool(b) => *b,
            Value::Int(n) => *n != 0,
            Value::Float(x) => *x != 0.0,
            Value::Duration(ms) => *ms != 0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.is_empty(),
            Value::Dict(d) => !d.is_empty(),
            Value::Set(s) => !s.is_empty(),
            Value::Bytes(b) => !b.is_empty(),
            Value::Range(_)
            | Value::Closure(_)
            | Value::Builtin(_)
            | Value::Enum(_)
            | Value::Struct(_)
            | Value::Pair(_)
            | Value::Iter(_) => true,
        }
    }

    /// A number as `f64` (ints widen), for mixed arithmetic and comparison.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(n) => Some(*n as f64),
            Value::Float(x) => Some(*x),
            _ => None,
        }
    }
}

/// A value nested past [`MAX_VALUE_DEPTH`]: a limit (`stack_limit` in code mode), so no
/// `try` inside the run swallows it.
/// Moves `v` (leaving nil) onto the end of `out`, an int by its payload. The VM has just
/// written `v` field by field (a tag byte, then the payload), and a whole 16-byte copy of
/// it waits for those stores to retire. `Vec::push` builds its argument in a stack
/// temporary (it must survive the call that grows the vector) and copies that whole, so
/// the int is written straight into reserved room instead.
#[inline(always)]
pub fn push_fresh(out: &mut Vec<Value>, v: &mut Value) {
    if let Value::Int(n) = *v {
        out.reserve(1);
        let len = out.len();
        // SAFETY: `reserve` left room for one element at `len`; it is written before the
        // length covers it.
        unsafe {
            out.as_mut_ptr().add(len).write(Value::Int(n));
            out.set_len(len + 1);
        }
    } else {
        out.push(std::mem::replace(v, Value::Nil));
    }
}

pub fn too_deep_error() -> VmError {
    VmError::limit(crate::error::Limit::ValueDepth(MAX_VALUE_DEPTH))
}

/// Structural equality (`language.md` 8.3).
pub fn equals(a: &Value, b: &Value) -> Result<bool, VmError> {
    equals_at(a, b, 0)
}

fn equals_at(a: &Value, b: &Value, depth: usize) -> Result<bool, VmError> {
    crate::walk::with_room(depth, || equals_at_frame(a, b, depth))
}

fn equals_at_frame(a: &Value, b: &Value, depth: usize) -> Result<bool, VmError> {
    crate::walk::visit(depth)?;
    let d = depth + 1;
    Ok(match (a, b) {
        (Value::Nil, Value::Nil) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            a.as_f64() == b.as_f64()
        }
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::List(x), Value::List(y)) => {
            if Rc::ptr_eq(x, y) {
                return Ok(true);
            }
            if x.len() != y.len() {
                return Ok(false);
            }
            for (p, q) in x.iter().zip(y.iter()) {
                if !equals_at(p, q, d)? {
                    return Ok(false);
                }
            }
            true
        }
        (Value::Dict(x), Value::Dict(y)) => dicts_equal(x, y, d)?,
        (Value::Set(x), Value::Set(y)) => {
            if x.len() != y.len() {
                return Ok(false);
            }
            for p in x.iter() {
                if !contains_at(y, p, d)? {
                    return Ok(false);
                }
            }
            true
        }
        (Value::Range(x), Value::Range(y)) => x == y,
        (Value::Builtin(x), Value::Builtin(y)) => x == y,
        (Value::Enum(x), Value::Enum(y)) => {
            x.enum_name == y.enum_name
                && x.variant == y.variant
                && x.fields.len() == y.fields.len()
                && {
                    let mut same = true;
                    for (p, q) in x.fields.iter().zip(y.fields.iter()) {
                        if !equals_at(p, q, d)? {
                            same = false;
                            break;
                        }
                    }
                    same
                }
        }
        (Value::Struct(x), Value::Struct(y)) => {
            x.name == y.name && dicts_equal(&x.fields, &y.fields, d)?
        }
        (Value::Pair(x), Value::Pair(y)) => equals_at(&x.0, &y.0, d)? && equals_at(&x.1, &y.1, d)?,
        (Value::Iter(x), Value::Iter(y)) => Rc::ptr_eq(x, y),
        // Closures are never equal; durations are never equal, even to themselves.
        _ => false,
    })
}

fn dicts_equal(x: &Dict, y: &Dict, depth: usize) -> Result<bool, VmError> {
    if x.len() != y.len() {
        return Ok(false);
    }
    for ((k1, v1), (k2, v2)) in x.iter().zip(y.iter()) {
        if k1 != k2 || !equals_at(v1, v2, depth)? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn contains_at(items: &[Value], needle: &Value, depth: usize) -> Result<bool, VmError> {
    for item in items {
        if equals_at(item, needle, depth)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether `items` holds a value equal to `needle`.
pub fn contains(items: &[Value], needle: &Value) -> Result<bool, VmError> {
    contains_at(items, needle, 0)
}

/// Ordering (`language.md` 8.4): numbers, strings (byte-wise) and pairs; every other
/// combination (and any comparison with NaN) is "equal".
pub fn compare(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => {
            match (a.as_f64(), b.as_f64()) {
                (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
                _ => Ordering::Equal,
            }
        }
        (Value::Str(x), Value::Str(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Pair(x), Value::Pair(y)) => compare(&x.0, &y.0).then_with(|| compare(&x.1, &y.1)),
        _ => Ordering::Equal,
    }
}

/// An owned value split into its payload, for receivers that want the `Rc` itself
/// (`Value` has a destructor, so its fields cannot be moved out by a `match`).
pub enum Owned {
    Str(Rc<String>),
    List(Rc<Vec<Value>>),
    Dict(Rc<Dict>),
    Set(Rc<Vec<Value>>),
    Range(Rc<RangeValue>),
    Other(Value),
}

impl Value {
    /// Moves the payload out without touching its reference count, so a uniquely held
    /// list, dict or string can still be updated in place.
    pub fn into_owned(self) -> Owned {
        if !matches!(
            self,
            Value::Str(_) | Value::List(_) | Value::Dict(_) | Value::Set(_) | Value::Range(_)
        ) {
            return Owned::Other(self);
        }
        let this = std::mem::ManuallyDrop::new(self);
        // SAFETY: `this` is never used or dropped after this point, and each arm reads
        // the single field of its variant exactly once, so ownership of that `Rc` moves
        // into the result: no double drop and no leak.
        unsafe {
            match &*this {
                Value::Str(x) => Owned::Str(std::ptr::read(x)),
                Value::List(x) => Owned::List(std::ptr::read(x)),
                Value::Dict(x) => Owned::Dict(std::ptr::read(x)),
                Value::Set(x) => Owned::Set(std::ptr::read(x)),
                Value::Range(x) => Owned::Range(std::ptr::read(x)),
                _ => Owned::Other(std::mem::ManuallyDrop::into_inner(this)),
            }
        }
    }
}

/// A shared `nil` to lend where an argument is absent (`Value` has a destructor, so
/// `&Value::Nil` is not promoted to a constant).
struct SharedNil(Value);

// SAFETY: the wrapped value is `Value::Nil`, which holds no `Rc` and is never mutated
// (only `&` references are handed out), so sharing it between threads is sound.
unsafe impl Sync for SharedNil {}

static NIL: SharedNil = SharedNil(Value::Nil);

/// A `'static` reference to `nil`.
pub fn nil() -> &'static Value {
    &NIL.0
}

pub(crate) fn is_container(v: &Value) -> bool {
    matches!(
        v,
        Value::List(_)
            | Value::Set(_)
            | Value::Dict(_)
            | Value::Enum(_)
            | Value::Struct(_)
            | Value::Pair(_)
            | Value::Closure(_)
            | Value::Iter(_)
    )
}

/// Moves the container children of a uniquely owned container into `out`, so the
/// container can be freed without recursing into them (scalar and string children are
/// freed on the spot).
fn take_children(v: &mut Value, out: &mut Vec<Value>) {
    fn keep(child: Value, out: &mut Vec<Value>) {
        if is_container(&child) {
            out.push(child);
        }
    }
    fn keep_all(children: impl IntoIterator<Item = Value>, out: &mut Vec<Value>) {
        for child in children {
            keep(child, out);
        }
    }
    match v {
        Value::List(rc) | Value::Set(rc) => {
            if let Some(items) = Rc::get_mut(rc) {
                keep_all(items.drain(..), out);
            }
        }
        Value::Dict(rc) => {
            if let Some(map) = Rc::get_mut(rc) {
                keep_all(std::mem::take(map).into_values_unordered(), out);
            }
        }
        Value::Enum(rc) => {
            if let Some(e) = Rc::get_mut(rc) {
                keep_all(e.fields.drain(..), out);
            }
        }
        Value::Struct(rc) => {
            if let Some(s) = Rc::get_mut(rc) {
                keep_all(std::mem::take(&mut s.fields).into_values_unordered(), out);
            }
        }
        Value::Pair(rc) => {
            if let Some(p) = Rc::get_mut(rc) {
                keep(std::mem::replace(&mut p.0, Value::Nil), out);
                keep(std::mem::replace(&mut p.1, Value::Nil), out);
            }
        }
        // A closure capturing a closure capturing … (built in a loop).
        Value::Closure(rc) => {
            if let Some(c) = Rc::get_mut(rc) {
                keep_all(std::mem::take(&mut c.captures).into_vec(), out);
            }
        }
        // An iterator adapting an iterator adapting … (`it = it.map(f)` in a loop).
        Value::Iter(rc) => {
            if let Some(cell) = Rc::get_mut(rc) {
                let state = std::mem::replace(cell.get_mut(), crate::iter::Iter::Exhausted);
                crate::iter::into_parts(state, &mut |child| keep(child, out));
            }
        }
        _ => {}
    }
}

/// Frees a uniquely owned container's descendants with a work list.
#[cold]
#[inline(never)]
fn drop_nested(v: &mut Value) {
    let mut pending = Vec::new();
    take_children(v, &mut pending);
    while let Some(mut child) = pending.pop() {
        take_children(&mut child, &mut pending);
    }
}

/// Dropping a value never recurses: arbitrarily deep nesting (a list in a list in a
/// list, 10^6 levels) is freed with an explicit work list instead of the call stack.
impl Drop for Value {
    #[inline(always)]
    fn drop(&mut self) {
        // Only the last reference to a container has anything to flatten.
        let unique = match self {
            Value::List(rc) | Value::Set(rc) => Rc::strong_count(rc) == 1 && !rc.is_empty(),
            // A record of scalars frees its entries in its own drop, without the work
            // list's moving each entry out first (about 570 instructions for seven
            // fields before).
            Value::Dict(rc) => Rc::strong_count(rc) == 1 && !rc.is_flat(),
            Value::Enum(rc) => Rc::strong_count(rc) == 1 && !rc.fields.is_empty(),
            Value::Struct(rc) => Rc::strong_count(rc) == 1 && !rc.fields.is_flat(),
            Value::Pair(rc) => Rc::strong_count(rc) == 1,
            Value::Closure(rc) => Rc::strong_count(rc) == 1 && !rc.captures.is_empty(),
            Value::Iter(rc) => Rc::strong_count(rc) == 1,
            _ => false,
        };
        if unique {
            drop_nested(self);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::{EnumValue, RangeValue, StructValue, Value};
    use crate::dict::Dict;

    /// The shared allocation a value is a handle to; `None` for a value held inline.
    /// Exhaustive on purpose: a new variant must say which it is.
    fn handle(v: &Value) -> Option<*const ()> {
        match v {
            Value::Nil
            | Value::Bool(_)
            | Value::Int(_)
            | Value::Float(_)
            | Value::Duration(_)
            | Value::Builtin(_) => None,
            Value::Str(r) => Some(Rc::as_ptr(r).cast()),
            Value::List(r) | Value::Set(r) => Some(Rc::as_ptr(r).cast()),
            Value::Dict(r) => Some(Rc::as_ptr(r).cast()),
            Value::Range(r) => Some(Rc::as_ptr(r).cast()),
            Value::Closure(r) => Some(Rc::as_ptr(r).cast()),
            Value::Enum(r) => Some(Rc::as_ptr(r).cast()),
            Value::Struct(r) => Some(Rc::as_ptr(r).cast()),
            Value::Pair(r) => Some(Rc::as_ptr(r).cast()),
            Value::Bytes(r) => Some(Rc::as_ptr(r).cast()),
            Value::Iter(r) => Some(Rc::as_ptr(r).cast()),
        }
    }

    /// `interp::exec::copy_of` relies on this: cloning a value that is a handle copies
    /// its 16 bytes unchanged (and counts one more reference).
    #[test]
    fn clone_is_a_bit_copy() {
        let items = Rc::new(vec![Value::Int(1)]);
        let samples = [
            Value::str("text"),
            Value::List(items.clone()),
            Value::Set(items.clone()),
            Value::Dict(Rc::new(Dict::new())),
            Value::Range(Rc::new(RangeValue {
                start: 0,
                end: 3,
                inclusive: false,
            })),
            Value::Enum(Rc::new(EnumValue {
                enum_name: "E".into(),
                variant: "V".into(),
                fields: vec![],
            })),
            Value::Struct(Rc::new(StructValue {
                name: "S".into(),
                fields: Dict::new(),
            })),
            Value::Pair(Rc::new((Value::Int(1), Value::Nil))),
            Value::Bytes(Rc::new(vec![1, 2])),
            Value::Iter(Rc::new(RefCell::new(crate::iter::Iter::Items {
                items,
                pos: 0,
            }))),
        ];
        for v in &samples {
            let copy = v.clone();
            assert!(handle(v).is_some());
            assert_eq!(handle(&copy), handle(v));
            // SAFETY: a handle's tag and pointer initialise all 16 bytes.
            let bits =
                |x: &Value| unsafe { std::ptr::read((x as *const Value).cast::<[u64; 2]>()) };
            assert_eq!(bits(&copy), bits(v));
        }
    }

    /// A chain of large dicts (each past the small size, holding the next) is freed
    /// without recursing, and without putting each dict's keys in order first.
    #[test]
    fn a_deep_chain_of_large_dicts_drops() {
        let mut v = Value::Nil;
        for _ in 0..20_000 {
            let mut d = Dict::new();
            for k in 0..20 {
                d.set(&format!("f{k}"), Value::Int(k));
            }
            d.set("next", v);
            v = Value::Dict(Rc::new(d));
        }
        drop(v);
    }
}
