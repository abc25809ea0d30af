//! Methods on builtin types (`language.md` 9.3), dispatched on the receiver's type.
//!
//! Every method returns a new value: collections are immutable values. The receiver is
//! passed by value, so a collection nobody else holds is updated in place
//! (`Rc::make_mut`), which keeps `xs = xs.push(v)` in a loop amortised O(1).
//!
//! Callbacks go through [`Host::call`]; a callback that is neither a closure nor a
//! builtin makes most callback methods return `nil` (or the neutral answer: `any` →
//! `false`, `all` → `true`, `find_index` → `-1`). Work proportional to the input is
//! charged as fuel, one unit per element.

mod dict;
mod enum_pair;
mod identity;
mod list;
mod list_fn;
mod range;
mod set;
mod string;

pub(crate) use dict::{entries as dict_entries, keys as dict_keys, values as dict_values};
pub(crate) use string::{char_range, split as split_str};

use std::rc::Rc;

use crate::display::display;
use crate::error::VmError;
use crate::native::Host;
use crate::value::{Dict, Owned, Value};

pub use identity::{EqualIndex, dedupe_equal};
pub(crate) use identity::{HashKey, dedupe, find_same, position_where};

pub(crate) use crate::native::{charge, check_len, check_size};

/// Calls method `name` on `receiver`. `Ok(None)` means the type has no such method
/// (the caller turns that into `nil`, as the language requires).
pub fn call_method(
    host: &mut dyn Host,
    receiver: Value,
    name: &str,
    args: &[Value],
) -> Result<Option<Value>, VmError> {
    if name == "iter" {
        return Ok(Some(crate::iter::iter_of(&receiver)));
    }
    match &receiver {
        Value::Iter(it) => crate::iter::call_method(host, it, name, args),
        Value::Range(_) if !RANGE_OWN.contains(&name) => {
            // The lazy combinators on ranges (`(1 to 5).map(f)`) are iterator methods.
            match &crate::iter::iter_of(&receiver) {
                Value::Iter(it) => crate::iter::call_method(host, it, name, args),
                _ => Ok(None),
            }
        }
        Value::Str(_) | Value::List(_) | Value::Dict(_) | Value::Set(_) | Value::Range(_) => {
            // Hand the receiver's `Rc` over without a second reference, so a uniquely
            // held list is pushed to in place.
            match receiver.into_owned() {
                Owned::Str(s) => string::call(host, s, name, args),
                Owned::List(items) => list::call(host, items, name, args),
                Owned::Dict(d) => dict::call(host, d, name, args),
                Owned::Set(items) => set::call(host, items, name, args),
                Owned::Range(r) => range::call(host, r, name, args),
                Owned::Other(_) => Ok(None),
            }
        }
        Value::Enum(_) | Value::Pair(_) => enum_pair::call(host, &receiver, name, args),
        // Numbers, durations, bytes, structs (handled by the interpreter), closures,
        // builtins, bools and nil have no builtin methods.
        _ => Ok(None),
    }
}

/// `set.contains(x)` or `set.add(x)` (`name`), called by the interpreter straight from its
/// registers: a set of seen values tested and grown once per loop iteration. Straight to
/// the method, past `set::call`'s comparison of the name with each method's.
pub(crate) fn set_member_call(
    host: &mut dyn Host,
    items: Rc<Vec<Value>>,
    name: &str,
    arg: &Value,
) -> Result<Option<Value>, VmError> {
    match name {
        "contains" => set::contains(host, &items, arg).map(Some),
        "add" => set::add(host, items, arg).map(Some),
        _ => set::call(host, items, name, std::slice::from_ref(arg)),
    }
}

/// Range methods that do not go through an iterator.
const RANGE_OWN: &[&str] = &[
    "len",
    "count",
    "empty",
    "first",
    "last",
    "contains",
    "to_list",
    "to_string",
    "sum",
];

// ----- argument helpers -------------------------------------------------------------

/// The `i`-th argument, `nil` when absent.
pub(crate) fn arg(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(crate::value::nil())
}

/// The `i`-th argument if it is an int.
pub(crate) fn int_arg(args: &[Value], i: usize) -> Option<i64> {
    match args.get(i) {
        Some(Value::Int(n)) => Some(*n),
        _ => None,
    }
}

/// The display of the `i`-th argument, `""` when absent: a string as it is (borrowed,
/// not copied: `w.starts_with("x")` in a loop allocated a copy of `"x"` per call).
pub(crate) fn text_arg(args: &[Value], i: usize) -> Result<std::borrow::Cow<'_, str>, VmError> {
    Ok(match args.get(i) {
        Some(Value::Str(s)) => std::borrow::Cow::Borrowed(s.as_str()),
        Some(v) => std::borrow::Cow::Owned(display(v)?),
        None => std::borrow::Cow::Borrowed(""),
    })
}

/// Whether a value can be called (a closure or a builtin used as a value).
pub(crate) fn is_callable(v: &Value) -> bool {
    matches!(v, Value::Closure(_) | Value::Builtin(_))
}

/// The `i`-th argument if it is callable.
pub(crate) fn callback(args: &[Value], i: usize) -> Option<&Value> {
    args.get(i).filter(|v| is_callable(v))
}

pub(crate) fn list(items: Vec<Value>) -> Value {
    Value::List(Rc::new(items))
}

pub(crate) fn set_value(items: Vec<Value>) -> Value {
    Value::Set(Rc::new(items))
}

/// `{index: i, value: v}` style two-key dict.
pub(crate) fn entry(k1: &str, v1: Value, k2: &str, v2: Value) -> Value {
    Value::dict(Dict::two(k1, v1, k2, v2))
}

/// A list index as `i64` (lists never exceed `i64::MAX` elements).
pub(crate) fn as_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Clamps a possibly negative count or index to `0..=len`.
pub(crate) fn clamp_len(n: i64, len: usize) -> usize {
    usize::try_from(n.max(0)).map_or(len, |n| n.min(len))
}

/// A slice bound: negative counts from the end; the result is clamped to `0..=len`.
pub(crate) fn slice_bound(n: i64, len: usize) -> usize {
    if n < 0 {
        clamp_len(as_i64(len).saturating_add(n), len)
    } else {
        clamp_len(n, len)
    }
}

// ----- sorting ----------------------------------------------------------------------

/// Runs shorter than this are insertion-sorted, as the reference's sort does for short
/// lists (so a list whose comparisons are all "equal" comes back unchanged).
const INSERTION_RUN: usize = 20;

/// The order of `0..n` after a stable sort by `less`. `less` may be inconsistent (mixed
/// types, NaN): the result is then some permutation, and the sort still terminates and
/// never panics.
pub(crate) fn sorted_indices(n: usize, mut less: impl FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    let mut start = 0;
    while start < n {
        let end = (start + INSERTION_RUN).min(n);
        for i in start + 1..end {
            let mut j = i;
            while j > start && less(idx[j], idx[j - 1]) {
                idx.swap(j, j - 1);
                j -= 1;
            }
        }
        start = end;
    }
    let mut width = INSERTION_RUN;
    let mut buf = Vec::with_capacity(n);
    while width < n {
        buf.clear();
        let mut lo = 0;
        while lo < n {
            let mid = (lo + width).min(n);
            let hi = (lo + 2 * width).min(n);
            let (mut i, mut j) = (lo, mid);
            while i < mid && j < hi {
                if less(idx[j], idx[i]) {
                    buf.push(idx[j]);
                    j += 1;
                } else {
                    buf.push(idx[i]);
                    i += 1;
                }
            }
            buf.extend_from_slice(&idx[i..mid]);
            buf.extend_from_slice(&idx[j..hi]);
            lo = hi;
        }
        std::mem::swap(&mut idx, &mut buf);
        width = width.saturating_mul(2);
    }
    idx
}

/// The stable order of `keys` by `value::compare` (`sort_by`'s, and `sort()`'s for a
/// list of strings). Keys that are all ints or all strings are totally ordered by it, and
/// a stable sort of a total order has one result: paired with their index (which breaks
/// every tie as stability would), they go through the standard library's sort, which
/// finds runs (a sorted list costs one pass). Any other keys, where `compare` may be
/// inconsistent (NaN, mixed kinds), go through [`sorted_indices`], which never panics.
pub(crate) fn sorted_order(keys: &[Value]) -> Vec<usize> {
    let ints: Option<Vec<(i64, usize)>> = keys
        .iter()
        .enumerate()
        .map(|(i, v)| match v {
            Value::Int(n) => Some((*n, i)),
            _ => None,
        })
        .collect();
    if let Some(mut ints) = ints {
        ints.sort_unstable();
        return ints.into_iter().map(|(_, i)| i).collect();
    }
    let texts: Option<Vec<(&[u8], usize)>> = keys
        .iter()
        .enumerate()
        .map(|(i, v)| match v {
            Value::Str(s) => Some((s.as_bytes(), i)),
            _ => None,
        })
        .collect();
    if let Some(mut texts) = texts {
        // Byte-wise, as `compare` orders strings.
        texts.sort_unstable();
        return texts.into_iter().map(|(_, i)| i).collect();
    }
    sorted_indices(keys.len(), |a, b| {
        crate::value::compare(&keys[a], &keys[b]) == std::cmp::Ordering::Less
    })
}

/// `sort()`'s result: `items` in [`sorted_order`]. Equal ints cannot be told apart, so a
/// list of ints is sorted as plain numbers.
pub(crate) fn sorted_values(items: &[Value]) -> Vec<Value> {
    let ints: Option<Vec<i64>> = items
        .iter()
        .map(|v| match v {
            Value::Int(n) => Some(*n),
            _ => None,
        })
        .collect();
    if let Some(mut ints) = ints {
        ints.sort_unstable();
        return ints.into_iter().map(Value::Int).collect();
    }
    permute(items, &sorted_order(items))
}

/// `items` permuted by `order`.
pub(crate) fn permute(items: &[Value], order: &[usize]) -> Vec<Value> {
    order
        .iter()
        .filter_map(|&i| items.get(i).cloned())
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_support::{TestHost, i, ints, s};

    /// Every method the compiler's table lists (what editors complete and hover) is
    /// one this dispatcher knows: a call may fail on its arguments, but never come
    /// back as "no such method".
    #[test]
    fn the_method_table_matches_the_dispatcher() {
        use harn_compiler::builtins::methods::{METHODS, Receiver};
        let mut h = TestHost::new();
        let f = h.func(|args| Ok(args.first().cloned().unwrap_or_default()));
        for row in METHODS {
            let receiver = match row.receiver {
                Receiver::String => s("a,b"),
                Receiver::List => ints(&[1, 2]),
                Receiver::Dict => {
                    let mut d = Dict::default();
                    d.insert("a", i(1));
                    Value::dict(d)
                }
                Receiver::Set => Value::Set(Rc::new(vec![i(1), i(2)])),
                Receiver::Range => Value::Range(Rc::new(crate::value::RangeValue {
                    start: 0,
                    end: 3,
                    inclusive: false,
                })),
                Receiver::Iter => crate::iter::iter_of(&ints(&[1, 2])),
            };
            // Arguments by the declared parameter types: callbacks get a function.
            let params = row.signature.split("->").next().unwrap_or("");
            let args: Vec<Value> = params
                .trim_start_matches("fn(")
                .trim_end_matches([')', ' '])
                .split(',')
                .filter(|p| !p.trim().is_empty() && !p.contains('?'))
                .map(|p| match p.split(':').nth(1).map(str::trim) {
                    Some("closure") => f.clone(),
                    Some("string") => s(","),
                    Some(t) if t.starts_with("list") => ints(&[1]),
                    Some("set") => Value::Set(Rc::new(vec![i(1)])),
                    Some("dict") => Value::dict(Dict::default()),
                    _ => i(1),
                })
                .collect();
            let known = !matches!(call_method(&mut h, receiver, row.name, &args), Ok(None));
            assert!(
                known,
                "{}.{} is listed but not dispatched",
                row.receiver.as_str(),
                row.name
            );
        }
    }

    /// The general merge, as `sort()` ran it before the homogeneous shortcut.
    fn merge_sorted(items: &[Value]) -> Vec<Value> {
        let order = sorted_indices(items.len(), |a, b| {
            crate::value::compare(&items[a], &items[b]) == std::cmp::Ordering::Less
        });
        permute(items, &order)
    }

    #[test]
    fn homogeneous_sorts_match_the_general_merge() {
        let mut rng = 0x9e37_79b9_u64;
        let mut next = move |m: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % m
        };
        for n in [0usize, 1, 2, 19, 20, 21, 64, 500, 3000] {
            let xs: Vec<Value> = (0..n).map(|_| i(next(50) as i64 - 25)).collect();
            let got = sorted_values(&xs);
            let want = merge_sorted(&xs);
            assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                assert!(matches!((g, w), (Value::Int(a), Value::Int(b)) if a == b));
            }
            // Duplicate texts, each its own allocation: equal ones keep their order.
            let ws: Vec<Value> = (0..n)
                .map(|_| s(["b", "a", "ab", "", "ba", "\u{e9}", "B"][next(7) as usize]))
                .collect();
            let got = sorted_values(&ws);
            let want = merge_sorted(&ws);
            assert_eq!(got.len(), want.len());
            for (g, w) in got.iter().zip(&want) {
                let (Value::Str(g), Value::Str(w)) = (g, w) else {
                    panic!()
                };
                assert!(Rc::ptr_eq(g, w), "same value at the same place");
            }
        }
        // `sort_by`'s order over int and string keys is the general merge's.
        for n in [0usize, 5, 21, 700] {
            let ks: Vec<Value> = (0..n).map(|_| i(next(9) as i64)).collect();
            let want = sorted_indices(n, |a, b| {
                crate::value::compare(&ks[a], &ks[b]) == std::cmp::Ordering::Less
            });
            assert_eq!(sorted_order(&ks), want);
            let ks: Vec<Value> = (0..n)
                .map(|_| s(["q", "p", "pq", ""][next(4) as usize]))
                .collect();
            let want = sorted_indices(n, |a, b| {
                crate::value::compare(&ks[a], &ks[b]) == std::cmp::Ordering::Less
            });
            assert_eq!(sorted_order(&ks), want);
        }
        // Mixed kinds take the general path, whatever `compare` makes of them.
        let mixed = vec![
            i(3),
            Value::Float(1.5),
            s("x"),
            i(1),
            Value::Float(f64::NAN),
        ];
        let got = sorted_values(&mixed);
        let want = merge_sorted(&mixed);
        assert_eq!(format!("{got:?}"), format!("{want:?}"));
    }

    #[test]
    fn sort_is_stable_and_total() {
        let keys: Vec<i64> = (0..100).map(|k| k % 7).collect();
        let order = sorted_indices(keys.len(), |a, b| keys[a] < keys[b]);
        for w in order.windows(2) {
            let (a, b) = (w[0], w[1]);
            assert!(keys[a] < keys[b] || (keys[a] == keys[b] && a < b));
        }
        // An inconsistent comparator still yields a permutation.
        let mut flip = false;
        let mut order = sorted_indices(57, |_, _| {
            flip = !flip;
            flip
        });
        order.sort_unstable();
        assert_eq!(order, (0..57).collect::<Vec<_>>());
    }

    #[test]
    fn unsupported_receivers_have_no_methods() {
        let mut h = TestHost::new();
        for v in [
            Value::Nil,
            Value::Bool(true),
            i(1),
            Value::Float(1.5),
            Value::Duration(5),
        ] {
            assert!(call_method(&mut h, v, "count", &[]).unwrap().is_none());
        }
    }
}
