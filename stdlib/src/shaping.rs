//! Reshaping helpers: `to_list`, `window`, `clone`, `deep_clone`, `deep_merge`,
//! `dict_from_pairs` and `is_same`.
//!
//! Values are copy-on-write, so `clone` and `deep_clone` return the value itself: a later
//! change to either copy never shows in the other, which is all a copy promises.

use std::rc::Rc;

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, MAX_VALUE_DEPTH, Value, equals};

use crate::util::{arg, charge, check_len, items_arg};

/// A set's (or list's, or range's) items as a list; any other value as a one-item list.
fn to_list(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    match arg(args, 0) {
        Value::List(_) | Value::Set(_) | Value::Range(_) => {
            Ok(Value::List(items_arg("to_list", args, 0)?))
        }
        Value::Iter(_) => Err(VmError::type_error(
            "to_list: a lazy iterator is collected with its .to_list() method",
        )),
        other => Ok(Value::list(vec![other.clone()])),
    }
}

/// A size argument: an int clamped to at least 1, or `default` when absent.
fn size(args: &[Value], i: usize, default: usize) -> usize {
    match arg(args, i) {
        Value::Int(n) => usize::try_from((*n).max(1)).unwrap_or(1),
        _ => default,
    }
}

/// The full windows of `size` items, starting every `step` items.
fn window(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let xs = items_arg("window", args, 0)?;
    let n = size(args, 1, 2);
    let step = size(args, 2, 1);
    let count = if xs.len() < n {
        0
    } else {
        (xs.len() - n) / step + 1
    };
    check_len(host, count.saturating_mul(n), "window")?;
    charge(host, count.saturating_mul(n) / 8 + 1)?;
    Ok(Value::list(
        (0..count)
            .map(|k| Value::list(xs[k * step..k * step + n].to_vec()))
            .collect(),
    ))
}

fn clone(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(arg(args, 0).clone())
}

/// Dicts merged key by key at every depth; on any other pair the right side wins.
fn merged(left: &Value, right: &Value, depth: usize) -> Result<Value, VmError> {
    if depth > MAX_VALUE_DEPTH {
        return Err(harn_vm::value::too_deep_error());
    }
    match (left, right) {
        (Value::Dict(l), Value::Dict(r)) => {
            let mut out: Dict = (**l).clone();
            for (k, rv) in r.iter() {
                let v = match out.get(k) {
                    Some(lv) => merged(lv, rv, depth + 1)?,
                    None => rv.clone(),
                };
                out.insert(k.clone(), v);
            }
            Ok(Value::dict(out))
        }
        (_, r) => Ok(r.clone()),
    }
}

fn deep_merge(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let (l, r) = (arg(args, 0), arg(args, 1));
    for v in [l, r] {
        if !matches!(v, Value::Dict(_)) {
            return Err(VmError::type_error(format!(
                "deep_merge: expected two dicts, got {}",
                v.type_name()
            )));
        }
    }
    charge(host, 8)?;
    merged(l, r, 0)
}

/// `[[key, value], ...]` (or pairs, or `{key, value}` dicts) as a dict; a later entry
/// wins.
fn dict_from_pairs(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let items = items_arg("dict_from_pairs", args, 0)?;
    charge(host, items.len() / 8 + 1)?;
    let mut out = Dict::new();
    for item in items.iter() {
        let (k, v) = match item {
            Value::List(kv) if kv.len() == 2 => (kv[0].clone(), kv[1].clone()),
            Value::Pair(p) => (p.0.clone(), p.1.clone()),
            Value::Dict(d) if d.contains_key("key") => (
                d.get("key").cloned().unwrap_or_default(),
                d.get("value").cloned().unwrap_or_default(),
            ),
            other => {
                return Err(VmError::type_error(format!(
                    "dict_from_pairs: each entry must be a [key, value] pair, got {}",
                    other.type_name()
                )));
            }
        };
        let key = match &k {
            Value::Str(s) => s.as_str().to_owned(),
            other => display(other)?,
        };
        out.insert(key, v);
    }
    Ok(Value::dict(out))
}

/// Identity: the same allocation for collections and functions, equality for scalars.
fn is_same(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let (a, b) = (arg(args, 0), arg(args, 1));
    let same = match (a, b) {
        (Value::List(x), Value::List(y)) | (Value::Set(x), Value::Set(y)) => Rc::ptr_eq(x, y),
        (Value::Dict(x), Value::Dict(y)) => Rc::ptr_eq(x, y),
        (Value::Closure(x), Value::Closure(y)) => Rc::ptr_eq(x, y),
        (Value::Struct(x), Value::Struct(y)) => Rc::ptr_eq(x, y),
        (Value::Bytes(x), Value::Bytes(y)) => Rc::ptr_eq(x, y),
        (Value::Iter(x), Value::Iter(y)) => Rc::ptr_eq(x, y),
        _ => equals(a, b)?,
    };
    Ok(Value::Bool(same))
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("to_list", to_list),
        ("window", window),
        ("clone", clone),
        ("deep_clone", clone),
        ("deep_merge", deep_merge),
        ("dict_from_pairs", dict_from_pairs),
        ("is_same", is_same),
    ];
    b.sync_table(table);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, i, j, s};

    #[test]
    fn reshaping() {
        assert_eq!(
            call(window, &[j("[1,2,3,4,5]"), i(3), i(2)]),
            "[[1, 2, 3], [3, 4, 5]]"
        );
        assert_eq!(call(window, &[j("[1,2]"), i(3)]), "[]");
        assert_eq!(call(window, &[j("[1,2,3]")]), "[[1, 2], [2, 3]]");
        assert_eq!(call(to_list, &[i(3)]), "[3]");
        assert_eq!(
            call(
                deep_merge,
                &[j(r#"{"c":{"r":3,"b":1},"n":"d"}"#), j(r#"{"c":{"r":5}}"#)]
            ),
            "{c: {b: 1, r: 5}, n: d}"
        );
        assert!(call_err(deep_merge, &[i(1), j("{}")]).contains("expected two dicts"));
        assert_eq!(
            call(dict_from_pairs, &[j(r#"[["a",1],["b",2],["a",3]]"#)]),
            "{a: 3, b: 2}"
        );
        let l = j("[1]");
        assert_eq!(call(is_same, &[l.clone(), l]), "true");
        assert_eq!(call(is_same, &[j("[1]"), j("[1]")]), "false");
        assert_eq!(call(is_same, &[s("a"), s("a")]), "true");
    }
}
