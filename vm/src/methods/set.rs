//! Set methods. A set keeps insertion order and holds no two identical values (identity
//! by [`super::HashKey::identity`]: an int and an equal float are different elements).
//! A set operand that is not a set gives the neutral answer rather than an error.

use std::rc::Rc;

use super::list_fn::{all_of, any_of, filter_all, map_all};
use super::{HashKey, as_i64, callback, charge, dedupe, find_same, set_value};
use crate::error::VmError;
use crate::native::Host;
use crate::set_index;
use crate::value::Value;

pub(super) fn call(
    host: &mut dyn Host,
    items: Rc<Vec<Value>>,
    name: &str,
    args: &[Value],
) -> Result<Option<Value>, VmError> {
    let other = match args.first() {
        Some(Value::Set(o)) => Some(Rc::clone(o)),
        _ => None,
    };
    let v = match name {
        "count" | "len" => Value::Int(as_i64(items.len())),
        "empty" => Value::Bool(items.is_empty()),
        "contains" => contains(host, &items, super::arg(args, 0))?,
        "add" | "adding" => add(host, items, super::arg(args, 0))?,
        "remove" | "delete" => match find(host, &items, super::arg(args, 0))? {
            Some(i) => {
                let mut items = items;
                // Positions after `i` move: the index is dropped, not updated.
                drop(set_index::detach(&items));
                Rc::make_mut(&mut items).remove(i);
                Value::Set(items)
            }
            None => Value::Set(items),
        },
        "union" => match other {
            Some(o) => set_value(dedupe(host, items.iter().chain(o.iter()).cloned())?),
            None => Value::Set(items),
        },
        "intersect" | "intersection" => match other {
            Some(o) => {
                let theirs = keys(host, &o)?;
                set_value(keep(host, &items, |k| theirs.contains(k))?)
            }
            None => set_value(Vec::new()),
        },
        "difference" => match other {
            Some(o) => {
                let theirs = keys(host, &o)?;
                set_value(keep(host, &items, |k| !theirs.contains(k))?)
            }
            None => Value::Set(items),
        },
        "symmetric_difference" => match other {
            Some(o) => {
                let mine = keys(host, &items)?;
                let theirs = keys(host, &o)?;
                let mut out = keep(host, &items, |k| !theirs.contains(k))?;
                out.extend(keep(host, &o, |k| !mine.contains(k))?);
                set_value(out)
            }
            None => Value::Set(items),
        },
        "is_subset" => match other {
            Some(o) => Value::Bool(subset(host, &items, &o)?),
            None => Value::Bool(false),
        },
        "is_superset" => match other {
            Some(o) => Value::Bool(subset(host, &o, &items)?),
            None => Value::Bool(false),
        },
        "is_disjoint" => match other {
            Some(o) => {
                let theirs = keys(host, &o)?;
                Value::Bool(keep(host, &items, |k| theirs.contains(k))?.is_empty())
            }
            None => Value::Bool(true),
        },
        "to_list" => Value::List(items),
        "to_set" | "iter" => Value::Set(items),
        "map" => match callback(args, 0) {
            Some(f) => {
                let mapped = map_all(host, f, &items)?;
                set_value(dedupe(host, mapped)?)
            }
            None => Value::Nil,
        },
        "filter" => match callback(args, 0) {
            Some(f) => set_value(filter_all(host, f, &items)?),
            None => Value::Nil,
        },
        "any" => match callback(args, 0) {
            Some(f) => Value::Bool(any_of(host, f, &items)?),
            None => Value::Bool(false),
        },
        "all" | "every" => match callback(args, 0) {
            Some(f) => Value::Bool(all_of(host, f, &items)?),
            None => Value::Bool(true),
        },
        _ => return Ok(None),
    };
    Ok(Some(v))
}

/// `set.contains(v)`.
pub(super) fn contains(
    host: &mut dyn Host,
    items: &Rc<Vec<Value>>,
    v: &Value,
) -> Result<Value, VmError> {
    Ok(Value::Bool(find(host, items, v)?.is_some()))
}

/// `set.add(v)`: the set itself when it holds `v` already, else with `v` last.
pub(super) fn add(host: &mut dyn Host, items: Rc<Vec<Value>>, v: &Value) -> Result<Value, VmError> {
    let mut items = items;
    if set_index::insert(host, &mut items, v)?.is_some() {
        return Ok(Value::Set(items));
    }
    if find(host, &items, v)?.is_none() {
        let index = set_index::detach(&items);
        Rc::make_mut(&mut items).push(v.clone());
        set_index::attach(index, &items);
    }
    Ok(Value::Set(items))
}

/// The position of the element identical to `needle`: through the set's index when it
/// has one ([`set_index`]), else by a scan.
fn find(
    host: &mut dyn Host,
    items: &Rc<Vec<Value>>,
    needle: &Value,
) -> Result<Option<usize>, VmError> {
    match set_index::find(host, items, needle)? {
        set_index::Found::Answer(at) => Ok(at),
        set_index::Found::Scan => find_same(host, items, needle),
    }
}

fn keys(host: &mut dyn Host, items: &[Value]) -> Result<hashbrown::HashSet<HashKey>, VmError> {
    charge(host, items.len())?;
    let mut keys = hashbrown::HashSet::with_capacity(items.len());
    for item in items {
        keys.insert(HashKey::identity(item)?);
    }
    Ok(keys)
}

/// The elements whose key satisfies `pred`, in order.
fn keep(
    host: &mut dyn Host,
    items: &[Value],
    pred: impl Fn(&HashKey) -> bool,
) -> Result<Vec<Value>, VmError> {
    charge(host, items.len())?;
    let mut out = Vec::new();
    for item in items {
        if pred(&HashKey::identity(item)?) {
            out.push(item.clone());
        }
    }
    Ok(out)
}

/// Whether every element of `a` is in `b`.
fn subset(host: &mut dyn Host, a: &[Value], b: &[Value]) -> Result<bool, VmError> {
    let theirs = keys(host, b)?;
    Ok(keep(host, a, |k| !theirs.contains(k))?.is_empty())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use crate::test_support::{TestHost, i, m, s};
    use crate::value::Value;

    fn set(ns: &[i64]) -> Value {
        Value::Set(std::rc::Rc::new(
            ns.iter().map(|n| Value::Int(*n)).collect(),
        ))
    }

    fn num(v: &Value) -> i64 {
        match v {
            Value::Int(n) => *n,
            _ => 0,
        }
    }

    #[test]
    fn membership_and_updates() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, set(&[1, 2]), "count", &[]), "2");
        assert_eq!(m(&mut h, set(&[1, 2]), "len", &[]), "2");
        assert_eq!(m(&mut h, set(&[]), "empty", &[]), "true");
        assert_eq!(m(&mut h, set(&[1, 2]), "contains", &[i(2)]), "true");
        assert_eq!(m(&mut h, set(&[1, 2]), "contains", &[s("2")]), "false");
        assert_eq!(m(&mut h, set(&[1, 2]), "add", &[i(2)]), "set(1, 2)");
        assert_eq!(
            m(&mut h, set(&[1, 2]), "add", &[Value::Float(2.0)]),
            "set(1, 2, 2.0)"
        );
        assert_eq!(m(&mut h, set(&[1, 2]), "remove", &[i(1)]), "set(2)");
        assert_eq!(m(&mut h, set(&[1, 2]), "delete", &[i(7)]), "set(1, 2)");
    }

    #[test]
    fn algebra() {
        let mut h = TestHost::new();
        assert_eq!(
            m(&mut h, set(&[1, 2]), "union", &[set(&[2, 3])]),
            "set(1, 2, 3)"
        );
        assert_eq!(
            m(&mut h, set(&[1, 2]), "intersect", &[set(&[2, 3])]),
            "set(2)"
        );
        assert_eq!(m(&mut h, set(&[1, 2]), "intersection", &[i(1)]), "set()");
        assert_eq!(
            m(&mut h, set(&[1, 2]), "difference", &[set(&[2, 3])]),
            "set(1)"
        );
        assert_eq!(
            m(
                &mut h,
                set(&[1, 2]),
                "symmetric_difference",
                &[set(&[2, 3])]
            ),
            "set(1, 3)"
        );
        assert_eq!(m(&mut h, set(&[1]), "is_subset", &[set(&[1, 2])]), "true");
        assert_eq!(
            m(&mut h, set(&[1, 3]), "is_subset", &[set(&[1, 2])]),
            "false"
        );
        assert_eq!(m(&mut h, set(&[1, 2]), "is_superset", &[set(&[1])]), "true");
        assert_eq!(m(&mut h, set(&[1]), "is_disjoint", &[set(&[2])]), "true");
        assert_eq!(m(&mut h, set(&[1]), "is_disjoint", &[i(2)]), "true");
        assert_eq!(m(&mut h, set(&[1, 2]), "to_list", &[]), "[1, 2]");
    }

    #[test]
    fn callbacks() {
        let mut h = TestHost::new();
        let half = h.func(|a| Ok(Value::Int(num(&a[0]) / 2)));
        let odd = h.func(|a| Ok(Value::Bool(num(&a[0]) % 2 == 1)));
        assert_eq!(m(&mut h, set(&[1, 2, 3]), "map", &[half]), "set(0, 1)");
        assert_eq!(
            m(
                &mut h,
                set(&[1, 2, 3]),
                "filter",
                std::slice::from_ref(&odd)
            ),
            "set(1, 3)"
        );
        assert_eq!(
            m(&mut h, set(&[1, 2]), "any", std::slice::from_ref(&odd)),
            "true"
        );
        assert_eq!(
            m(&mut h, set(&[1, 2]), "all", std::slice::from_ref(&odd)),
            "false"
        );
        assert_eq!(m(&mut h, set(&[1, 3]), "every", &[odd]), "true");
        assert_eq!(m(&mut h, set(&[1]), "map", &[i(0)]), "nil");
        assert_eq!(m(&mut h, set(&[1]), "nosuch", &[]), "<none>");
    }
}
