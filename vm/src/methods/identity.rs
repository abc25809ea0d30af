//! Structural identity and equality keys: what sets, `unique` and the set algebra
//! hash values by, and the identity comparison (`same_value`) sets search with.

use std::fmt::Write as _;
use std::rc::Rc;

use super::as_i64;
use crate::error::VmError;
use crate::native::Host;
use crate::value::{Dict, Value};

/// A value's identity key as text (what [`HashKey::identity`] keys composite values by).
#[cfg(test)]
pub(crate) fn value_key(v: &Value) -> Result<String, VmError> {
    let mut out = String::new();
    write_key(&mut out, v, 0, KeyMode::Identity)?;
    Ok(out)
}

/// How [`write_key`] treats numbers.
#[derive(Clone, Copy, PartialEq)]
enum KeyMode {
    /// Ints and floats never share a key ([`HashKey::identity`]).
    Identity,
    /// Every number is keyed by its float value, so values that `==` calls equal
    /// (`1` and `1.0`, `0.0` and `-0.0`) share a key; the key only buckets, `==` decides.
    Equality,
}

fn write_key(out: &mut String, v: &Value, depth: usize, mode: KeyMode) -> Result<(), VmError> {
    crate::walk::with_room(depth, || write_key_frame(out, v, depth, mode))
}

/// Appends `f`, a float's bits in lowercase hex without leading zeros, and `;`: the same
/// text as `write!(out, "f{:x};", bits)`, without the formatting machinery, which was
/// most of the cost of keying a number (`unique` over a list of ints).
fn push_bits(out: &mut String, bits: u64) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut buf = [0u8; 18];
    let mut at = buf.len() - 1;
    buf[at] = b';';
    let mut rest = bits;
    loop {
        at -= 1;
        buf[at] = DIGITS[(rest & 0xf) as usize];
        rest >>= 4;
        if rest == 0 {
            break;
        }
    }
    at -= 1;
    buf[at] = b'f';
    // Every byte written is ASCII.
    out.push_str(std::str::from_utf8(&buf[at..]).unwrap_or_default());
}

/// Appends `tag`, `n` in decimal and `end`: `write!(out, "{tag}{n}{end}")` without the
/// formatting machinery.
fn push_number(out: &mut String, tag: char, n: i64, end: char) {
    out.push(tag);
    out.push_str(itoa::Buffer::new().format(n));
    out.push(end);
}

fn write_key_frame(
    out: &mut String,
    v: &Value,
    depth: usize,
    mode: KeyMode,
) -> Result<(), VmError> {
    crate::walk::visit(depth)?;
    let d = depth + 1;
    match v {
        Value::Nil => out.push('n'),
        Value::Bool(b) => out.push_str(if *b { "T" } else { "F" }),
        Value::Int(n) if mode == KeyMode::Equality => push_bits(out, (*n as f64).to_bits()),
        Value::Float(x) if mode == KeyMode::Equality => {
            let x = if *x == 0.0 { 0.0f64 } else { *x };
            push_bits(out, x.to_bits());
        }
        Value::Int(n) => push_number(out, 'i', *n, ';'),
        Value::Float(x) => push_bits(out, x.to_bits()),
        Value::Duration(ms) => push_number(out, 'd', *ms, ';'),
        Value::Str(s) => {
            push_number(out, 's', as_i64(s.len()), ':');
            out.push_str(s);
        }
        Value::Bytes(b) => {
            let _ = write!(out, "y{}:", b.len());
            crate::display::push_hex(out, b);
        }
        Value::List(items) => {
            let _ = write!(out, "l{}[", items.len());
            for item in items.iter() {
                write_key(out, item, d, mode)?;
            }
            out.push(']');
        }
        Value::Dict(map) => write_dict_key(out, 'm', map, d, mode)?,
        Value::Set(items) => {
            let mut keys = Vec::with_capacity(items.len());
            for item in items.iter() {
                let mut k = String::new();
                write_key(&mut k, item, d, mode)?;
                keys.push(k);
            }
            keys.sort();
            let _ = write!(out, "t{}[", keys.len());
            for k in keys {
                out.push_str(&k);
            }
            out.push(']');
        }
        Value::Range(r) => {
            let _ = write!(out, "r{},{},{};", r.start, r.end, r.inclusive);
        }
        Value::Closure(c) => {
            let _ = write!(out, "c{:p};", Rc::as_ptr(c));
        }
        Value::Builtin(id) => {
            let _ = write!(out, "B{id};");
        }
        Value::Iter(it) => {
            let _ = write!(out, "I{:p};", Rc::as_ptr(it));
        }
        Value::Enum(e) => {
            let _ = write!(
                out,
                "e{}:{}{}:{}{}[",
                e.enum_name.len(),
                e.enum_name,
                e.variant.len(),
                e.variant,
                e.fields.len()
            );
            for f in &e.fields {
                write_key(out, f, d, mode)?;
            }
            out.push(']');
        }
        Value::Struct(s) => {
            let _ = write!(out, "S{}:{}", s.name.len(), s.name);
            write_dict_key(out, 'm', &s.fields, d, mode)?;
        }
        Value::Pair(p) => {
            out.push('p');
            write_key(out, &p.0, d, mode)?;
            write_key(out, &p.1, d, mode)?;
        }
    }
    Ok(())
}

fn write_dict_key(
    out: &mut String,
    tag: char,
    map: &Dict,
    depth: usize,
    mode: KeyMode,
) -> Result<(), VmError> {
    let _ = write!(out, "{tag}{}{{", map.len());
    for (k, v) in map {
        let _ = write!(out, "{}:", k.len());
        out.push_str(k);
        write_key(out, v, depth, mode)?;
    }
    out.push('}');
    Ok(())
}

/// Whether `a` and `b` are the same value in the sense of [`HashKey::identity`], without
/// allocating.
pub(crate) fn same_value(a: &Value, b: &Value) -> Result<bool, VmError> {
    same_at(a, b, 0)
}

fn same_at(a: &Value, b: &Value, depth: usize) -> Result<bool, VmError> {
    crate::walk::with_room(depth, || same_at_frame(a, b, depth))
}

fn same_at_frame(a: &Value, b: &Value, depth: usize) -> Result<bool, VmError> {
    crate::walk::visit(depth)?;
    let d = depth + 1;
    let all = |xs: &[Value], ys: &[Value]| -> Result<bool, VmError> {
        if xs.len() != ys.len() {
            return Ok(false);
        }
        for (x, y) in xs.iter().zip(ys) {
            if !same_at(x, y, d)? {
                return Ok(false);
            }
        }
        Ok(true)
    };
    let dicts = |x: &Dict, y: &Dict| -> Result<bool, VmError> {
        if x.len() != y.len() {
            return Ok(false);
        }
        for ((k1, v1), (k2, v2)) in x.iter().zip(y) {
            if k1 != k2 || !same_at(v1, v2, d)? {
                return Ok(false);
            }
        }
        Ok(true)
    };
    Ok(match (a, b) {
        (Value::Nil, Value::Nil) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) | (Value::Duration(x), Value::Duration(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Bytes(x), Value::Bytes(y)) => x == y,
        (Value::List(x), Value::List(y)) => Rc::ptr_eq(x, y) || all(x, y)?,
        (Value::Dict(x), Value::Dict(y)) => Rc::ptr_eq(x, y) || dicts(x, y)?,
        (Value::Set(x), Value::Set(y)) => {
            if x.len() != y.len() {
                return Ok(false);
            }
            for p in x.iter() {
                let mut found = false;
                for q in y.iter() {
                    if same_at(p, q, d)? {
                        found = true;
                        break;
                    }
                }
                if !found {
                    return Ok(false);
                }
            }
            true
        }
        (Value::Range(x), Value::Range(y)) => x == y,
        (Value::Closure(x), Value::Closure(y)) => Rc::ptr_eq(x, y),
        (Value::Builtin(x), Value::Builtin(y)) => x == y,
        (Value::Enum(x), Value::Enum(y)) => {
            x.enum_name == y.enum_name && x.variant == y.variant && all(&x.fields, &y.fields)?
        }
        (Value::Struct(x), Value::Struct(y)) => x.name == y.name && dicts(&x.fields, &y.fields)?,
        (Value::Pair(x), Value::Pair(y)) => same_at(&x.0, &y.0, d)? && same_at(&x.1, &y.1, d)?,
        _ => false,
    })
}

/// The index of the first element identical to `needle` (see [`same_value`]).
pub(crate) fn find_same(
    host: &mut dyn Host,
    items: &[Value],
    needle: &Value,
) -> Result<Option<usize>, VmError> {
    position_where(host, items, |item| same_value(item, needle))
}

/// The index of the first element `matches` accepts, one unit of fuel per element tried.
pub(crate) fn position_where(
    host: &mut dyn Host,
    items: &[Value],
    mut matches: impl FnMut(&Value) -> Result<bool, VmError>,
) -> Result<Option<usize>, VmError> {
    for (i, item) in items.iter().enumerate() {
        host.charge(1)?;
        if matches(item)? {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// A value as a hash key for [`dedupe`], [`dedupe_equal`] and the set algebra: the
/// common scalars are keyed as they are (hashing an int is a few instructions; writing
/// its text key first, then hashing the text, was most of `unique` over a list of ints),
/// anything else by its text key ([`write_key`]). Two values get the same key exactly
/// when their text keys are the same.
#[derive(PartialEq, Eq)]
pub(crate) enum HashKey {
    Nil,
    Bool(bool),
    /// An int, in identity keys.
    Int(i64),
    /// A float's bits; in equality keys, any number's value as a float (`-0.0` as `0.0`).
    Num(u64),
    Str(Rc<String>),
    /// Any other value, by its text key.
    Text(String),
}

/// Each variant hashes its payload alone (the derived hash also hashed the variant's tag,
/// a second round of the hasher for every int): keys of different variants that hash
/// alike are told apart by `==`.
impl std::hash::Hash for HashKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        match self {
            HashKey::Nil => state.write_u8(0),
            HashKey::Bool(b) => state.write_u8(1 + u8::from(*b)),
            HashKey::Int(n) => state.write_i64(*n),
            HashKey::Num(bits) => state.write_u64(*bits),
            HashKey::Str(s) => s.as_str().hash(state),
            HashKey::Text(text) => text.as_str().hash(state),
        }
    }
}

impl HashKey {
    #[inline]
    fn of(v: &Value, mode: KeyMode) -> Result<HashKey, VmError> {
        let scalar = match (v, mode) {
            (Value::Nil, _) => HashKey::Nil,
            (Value::Bool(b), _) => HashKey::Bool(*b),
            (Value::Int(n), KeyMode::Identity) => HashKey::Int(*n),
            (Value::Int(n), KeyMode::Equality) => HashKey::Num((*n as f64).to_bits()),
            (Value::Float(x), KeyMode::Identity) => HashKey::Num(x.to_bits()),
            (Value::Float(x), KeyMode::Equality) => {
                HashKey::Num(if *x == 0.0 { 0.0f64 } else { *x }.to_bits())
            }
            (Value::Str(s), _) => HashKey::Str(Rc::clone(s)),
            _ => {
                let mut text = String::new();
                write_key(&mut text, v, 0, mode)?;
                return Ok(HashKey::Text(text));
            }
        };
        // Charged as keying the value by its text is (one step per value visited).
        crate::walk::step()?;
        Ok(scalar)
    }

    /// The identity key: two values get the same key exactly when they are the same
    /// value of the same type. Unlike `==`, an int and a float never share a key
    /// (`set(1, 1.0)` keeps both), and durations equal themselves. Closures are keyed by
    /// identity.
    #[inline]
    pub(crate) fn identity(v: &Value) -> Result<HashKey, VmError> {
        HashKey::of(v, KeyMode::Identity)
    }
}

/// The room to make for the distinct values of `items` before the first is seen: all of
/// them for a short input, at most a few thousand for a long one. Deduplicating a long
/// list usually keeps far fewer values than it reads, and room for every one (a table
/// of 64-byte slots) was megabytes mapped and faulted in for each call.
fn first_capacity(items: &impl Iterator) -> usize {
    items.size_hint().0.min(4096)
}

/// Keeps the first of each group of identical values (by [`HashKey::identity`]), in
/// order.
pub(crate) fn dedupe(
    host: &mut dyn Host,
    items: impl IntoIterator<Item = Value>,
) -> Result<Vec<Value>, VmError> {
    let items = items.into_iter();
    let mut seen = hashbrown::HashSet::with_capacity(first_capacity(&items));
    let mut out = Vec::with_capacity(first_capacity(&items));
    for item in items {
        host.charge(1)?;
        if seen.insert(HashKey::identity(&item)?) {
            out.push(item);
        }
    }
    Ok(out)
}

/// Keeps the first of each group of values `==` calls equal, in order: `1` and `1.0`
/// are one value, each `NaN` is its own (list `unique`, which agrees with `contains`).
pub fn dedupe_equal(
    host: &mut dyn Host,
    items: impl IntoIterator<Item = Value>,
) -> Result<Vec<Value>, VmError> {
    let items = items.into_iter();
    // Each key's first value (by its index in `out`), and any later ones the key shares
    // but `==` tells apart (`NaN`s, ints too large for a float to tell apart): nearly
    // every key has just the one, which needs no vector of its own. The keys come from
    // the snippet's data, so the hash is seeded per process, as dicts' tables are.
    let mut buckets: hashbrown::HashMap<HashKey, (usize, Vec<usize>)> =
        hashbrown::HashMap::with_capacity(first_capacity(&items));
    let mut out: Vec<Value> = Vec::with_capacity(first_capacity(&items));
    for item in items {
        host.charge(1)?;
        let next = out.len();
        match buckets.entry(HashKey::of(&item, KeyMode::Equality)?) {
            hashbrown::hash_map::Entry::Vacant(slot) => {
                slot.insert((next, Vec::new()));
                out.push(item);
            }
            hashbrown::hash_map::Entry::Occupied(mut slot) => {
                // Values that share one of these keys are `==` already: only numbers
                // (NaN, ints past a float's precision) and composite values are compared.
                if matches!(
                    slot.key(),
                    HashKey::Nil | HashKey::Bool(_) | HashKey::Int(_) | HashKey::Str(_)
                ) {
                    continue;
                }
                let (first, more) = slot.get_mut();
                let mut seen = false;
                for &j in std::iter::once(&*first).chain(more.iter()) {
                    if crate::value::equals(&out[j], &item)? {
                        seen = true;
                        break;
                    }
                }
                if !seen {
                    more.push(next);
                    out.push(item);
                }
            }
        }
    }
    Ok(out)
}

/// Values hashed by their equality keys, to ask whether one of them is `==` to a value
/// without scanning them all (the standard library's set helpers: `set_intersect`,
/// `set_difference`, ...).
pub struct EqualIndex<'a> {
    items: &'a [Value],
    /// Each key's first value (by its index in `items`) and any later ones (see
    /// [`dedupe_equal`]).
    buckets: hashbrown::HashMap<HashKey, (usize, Vec<usize>)>,
}

impl<'a> EqualIndex<'a> {
    /// Indexes `items`, charging one instruction for each.
    pub fn new(host: &mut dyn Host, items: &'a [Value]) -> Result<Self, VmError> {
        let mut buckets: hashbrown::HashMap<HashKey, (usize, Vec<usize>)> =
            hashbrown::HashMap::with_capacity(items.len().min(4096));
        for (at, item) in items.iter().enumerate() {
            host.charge(1)?;
            match buckets.entry(HashKey::of(item, KeyMode::Equality)?) {
                hashbrown::hash_map::Entry::Vacant(slot) => {
                    slot.insert((at, Vec::new()));
                }
                hashbrown::hash_map::Entry::Occupied(mut slot) => slot.get_mut().1.push(at),
            }
        }
        Ok(EqualIndex { items, buckets })
    }

    /// Whether some indexed value is `==` to `v`.
    pub fn contains(&self, v: &Value) -> Result<bool, VmError> {
        let Some((first, more)) = self.buckets.get(&HashKey::of(v, KeyMode::Equality)?) else {
            return Ok(false);
        };
        for &at in std::iter::once(first).chain(more.iter()) {
            if crate::value::equals(&self.items[at], v)? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_support::{TestHost, i, ints, l, s};

    /// The number keys are the text the formatting machinery wrote before them, so keys
    /// (and the elements `unique` and sets keep) are unchanged.
    #[test]
    fn number_keys_are_the_formatted_text() {
        let floats = [0.0, -0.0, 1.0, -1.5, 1e300, f64::NAN, f64::INFINITY, 5e-324];
        let mut bits: Vec<u64> = floats.iter().map(|x| x.to_bits()).collect();
        bits.extend([0, 1, 0xf, 0x10, u64::MAX, 1 << 63]);
        for b in bits {
            let mut out = String::from("x");
            push_bits(&mut out, b);
            assert_eq!(out, format!("xf{b:x};"));
        }
        for n in [0, 1, -1, 9, 10, -10, i64::MAX, i64::MIN, 123_456_789] {
            let mut out = String::new();
            push_number(&mut out, 'i', n, ';');
            assert_eq!(out, format!("i{n};"));
        }
    }

    #[test]
    fn identity_keys_distinguish_types() {
        let one = value_key(&i(1)).unwrap();
        assert_ne!(one, value_key(&Value::Float(1.0)).unwrap());
        assert_ne!(value_key(&s("1")).unwrap(), one);
        assert_eq!(
            value_key(&ints(&[1, 2])).unwrap(),
            value_key(&ints(&[1, 2])).unwrap()
        );
        let a = Value::Set(Rc::new(vec![i(1), i(2)]));
        let b = Value::Set(Rc::new(vec![i(2), i(1)]));
        assert_eq!(value_key(&a).unwrap(), value_key(&b).unwrap());
        assert!(same_value(&a, &b).unwrap());
        assert!(same_value(&Value::Duration(5), &Value::Duration(5)).unwrap());
        assert!(!same_value(&i(1), &Value::Float(1.0)).unwrap());
        assert!(same_value(&l(vec![s("a"), Value::Nil]), &l(vec![s("a"), Value::Nil])).unwrap());
        // "ab" + "c" must not collide with "a" + "bc".
        let x = l(vec![s("ab"), s("c")]);
        let y = l(vec![s("a"), s("bc")]);
        assert_ne!(value_key(&x).unwrap(), value_key(&y).unwrap());
    }

    /// Two values share a hash key exactly when they share a text key, in both modes:
    /// keying scalars directly changes no answer of `unique`, `to_set` or the set algebra.
    #[test]
    fn hash_keys_agree_with_text_keys() {
        let values = vec![
            Value::Nil,
            Value::Bool(true),
            Value::Bool(false),
            i(0),
            i(1),
            i(-1),
            i(i64::MAX),
            i(i64::MAX - 1),
            Value::Float(0.0),
            Value::Float(-0.0),
            Value::Float(1.0),
            Value::Float(f64::NAN),
            Value::Float(9.223_372_036_854_776e18),
            Value::Duration(1),
            Value::Duration(0),
            s(""),
            s("1"),
            s("i1;"),
            s("a"),
            ints(&[1]),
            l(vec![Value::Float(1.0)]),
            l(vec![s("a"), Value::Nil]),
            Value::Set(Rc::new(vec![i(1), i(2)])),
            Value::Set(Rc::new(vec![i(2), i(1)])),
        ];
        for mode in [KeyMode::Identity, KeyMode::Equality] {
            for a in &values {
                for b in &values {
                    let mut ta = String::new();
                    let mut tb = String::new();
                    write_key(&mut ta, a, 0, mode).unwrap();
                    write_key(&mut tb, b, 0, mode).unwrap();
                    let same_hash = HashKey::of(a, mode).unwrap() == HashKey::of(b, mode).unwrap();
                    assert_eq!(same_hash, ta == tb, "{a:?} and {b:?}");
                }
            }
        }
    }

    #[test]
    fn dedupe_keeps_first_occurrences() {
        let mut h = TestHost::new();
        let out = dedupe(&mut h, vec![i(3), i(1), i(3), Value::Float(3.0)]).unwrap();
        assert_eq!(out.len(), 3);
        assert_eq!(h.fuel, 4);
    }
}
