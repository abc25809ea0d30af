//! List methods that take a callback. A callback that is not callable gives `nil`, or the
//! neutral answer (`any` → `false`, `all` → `true`, `none` → whether the list is empty,
//! `find_index` → `-1`).

use std::cmp::Ordering;
use std::rc::Rc;

use super::{arg, as_i64, callback, list, permute, sorted_order};
use crate::display::display;
use crate::error::VmError;
use crate::native::Host;
use crate::value::{Dict, Value, compare};

pub(super) fn call(
    host: &mut dyn Host,
    items: &Rc<Vec<Value>>,
    name: &str,
    args: &[Value],
) -> Result<Option<Value>, VmError> {
    let f = callback(args, 0);
    let v = match (name, f) {
        ("map", Some(f)) => list(map_all(host, f, items)?),
        ("filter", Some(f)) => list(filter_all(host, f, items)?),
        ("reduce", _) => match callback(args, 1) {
            Some(f) => host.fold(f, arg(args, 0).clone(), items)?,
            None => Value::Nil,
        },
        ("find", Some(f)) => match position(host, f, items)? {
            Some(i) => items[i].clone(),
            None => Value::Nil,
        },
        ("find_index", Some(f)) => Value::Int(position(host, f, items)?.map_or(-1, as_i64)),
        ("find_index", None) => Value::Int(-1),
        ("any", Some(f)) => Value::Bool(any_of(host, f, items)?),
        ("any", None) => Value::Bool(false),
        ("all" | "every", Some(f)) => Value::Bool(all_of(host, f, items)?),
        ("all" | "every", None) => Value::Bool(true),
        ("none", Some(f)) => Value::Bool(!any_of(host, f, items)?),
        ("none", None) => Value::Bool(items.is_empty()),
        ("flat_map", Some(f)) => {
            let mut out = Vec::with_capacity(items.len());
            for item in items.iter() {
                host.charge(1)?;
                let mapped = host.call(f, std::slice::from_ref(item))?;
                match &mapped {
                    Value::List(inner) => {
                        super::charge(host, inner.len())?;
                        out.extend(inner.iter().cloned());
                    }
                    _ => out.push(mapped),
                }
            }
            list(out)
        }
        ("sort_by" | "sorted_by", Some(f)) => {
            let keys = map_all(host, f, items)?;
            super::charge(host, items.len())?;
            list(permute(items, &sorted_order(&keys)))
        }
        ("min_by", Some(f)) => best_by(host, f, items, Ordering::Less)?,
        ("max_by", Some(f)) => best_by(host, f, items, Ordering::Greater)?,
        ("partition", Some(f)) => {
            let (mut yes, mut no) = (Vec::new(), Vec::new());
            host.call_each(f, items, &mut |i, v| {
                let side = if v.truthy() { &mut yes } else { &mut no };
                side.push(items[i].clone());
                Ok(true)
            })?;
            list(vec![list(yes), list(no)])
        }
        ("group_by", Some(f)) => {
            let mut groups: std::collections::BTreeMap<String, Vec<Value>> = Default::default();
            host.call_each(f, items, &mut |i, key| {
                groups
                    .entry(display(key)?)
                    .or_default()
                    .push(items[i].clone());
                Ok(true)
            })?;
            let d: Dict = groups.into_iter().map(|(k, v)| (k, list(v))).collect();
            Value::dict(d)
        }
        (
            "map" | "filter" | "find" | "flat_map" | "sort_by" | "sorted_by" | "min_by" | "max_by"
            | "partition" | "group_by",
            None,
        ) => Value::Nil,
        _ => return Ok(None),
    };
    Ok(Some(v))
}

/// `f(x)` for every element.
pub(crate) fn map_all(
    host: &mut dyn Host,
    f: &Value,
    items: &[Value],
) -> Result<Vec<Value>, VmError> {
    let mut out = Vec::with_capacity(items.len());
    host.call_each(f, items, &mut |_, v| {
        crate::value::push_fresh(&mut out, v);
        Ok(true)
    })?;
    Ok(out)
}

/// The elements for which `f(x)` is truthy.
pub(crate) fn filter_all(
    host: &mut dyn Host,
    f: &Value,
    items: &[Value],
) -> Result<Vec<Value>, VmError> {
    let mut out = Vec::new();
    host.call_each(f, items, &mut |i, v| {
        if v.truthy() {
            out.push(items[i].clone());
        }
        Ok(true)
    })?;
    Ok(out)
}

/// The index of the first element for which `f(x)` is truthy.
fn position(host: &mut dyn Host, f: &Value, items: &[Value]) -> Result<Option<usize>, VmError> {
    let mut found = None;
    host.call_each(f, items, &mut |i, v| {
        if v.truthy() {
            found = Some(i);
        }
        Ok(found.is_none())
    })?;
    Ok(found)
}

pub(crate) fn any_of(host: &mut dyn Host, f: &Value, items: &[Value]) -> Result<bool, VmError> {
    Ok(position(host, f, items)?.is_some())
}

pub(crate) fn all_of(host: &mut dyn Host, f: &Value, items: &[Value]) -> Result<bool, VmError> {
    let mut all = true;
    host.call_each(f, items, &mut |_, v| {
        all = v.truthy();
        Ok(all)
    })?;
    Ok(all)
}

/// The first element whose key `f(x)` no later key beats in direction `want`.
fn best_by(
    host: &mut dyn Host,
    f: &Value,
    items: &[Value],
    want: Ordering,
) -> Result<Value, VmError> {
    let mut best: Option<(usize, Value)> = None;
    host.call_each(f, items, &mut |i, key| {
        let beats = best
            .as_ref()
            .is_none_or(|(_, best_key)| compare(key, best_key) == want);
        if beats {
            best = Some((i, std::mem::replace(key, Value::Nil)));
        }
        Ok(true)
    })?;
    Ok(best
        .and_then(|(i, _)| items.get(i))
        .cloned()
        .unwrap_or_default())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use crate::error::VmError;
    use crate::test_support::{TestHost, i, ints, l, m, s};
    use crate::value::Value;

    fn num(v: &Value) -> i64 {
        match v {
            Value::Int(n) => *n,
            _ => 0,
        }
    }

    #[test]
    fn map_filter_reduce() {
        let mut h = TestHost::new();
        let double = h.func(|a| Ok(Value::Int(num(&a[0]) * 2)));
        let even = h.func(|a| Ok(Value::Bool(num(&a[0]) % 2 == 0)));
        let add = h.func(|a| Ok(Value::Int(num(&a[0]) + num(&a[1]))));
        assert_eq!(
            m(
                &mut h,
                ints(&[1, 2, 3]),
                "map",
                std::slice::from_ref(&double)
            ),
            "[2, 4, 6]"
        );
        assert_eq!(
            m(
                &mut h,
                ints(&[1, 2, 3, 4]),
                "filter",
                std::slice::from_ref(&even)
            ),
            "[2, 4]"
        );
        assert_eq!(m(&mut h, ints(&[1, 2, 3]), "reduce", &[i(10), add]), "16");
        assert_eq!(
            m(
                &mut h,
                ints(&[1, 3, 4]),
                "find",
                std::slice::from_ref(&even)
            ),
            "4"
        );
        assert_eq!(
            m(&mut h, ints(&[1, 3]), "find", std::slice::from_ref(&even)),
            "nil"
        );
        assert_eq!(
            m(
                &mut h,
                ints(&[1, 3, 4]),
                "find_index",
                std::slice::from_ref(&even)
            ),
            "2"
        );
        assert_eq!(
            m(
                &mut h,
                ints(&[1, 3]),
                "find_index",
                std::slice::from_ref(&even)
            ),
            "-1"
        );
        assert_eq!(
            m(&mut h, ints(&[1, 2]), "any", std::slice::from_ref(&even)),
            "true"
        );
        assert_eq!(
            m(&mut h, ints(&[1, 2]), "all", std::slice::from_ref(&even)),
            "false"
        );
        assert_eq!(
            m(&mut h, ints(&[2, 4]), "every", std::slice::from_ref(&even)),
            "true"
        );
        assert_eq!(
            m(&mut h, ints(&[1, 3]), "none", std::slice::from_ref(&even)),
            "true"
        );
        assert_eq!(
            m(&mut h, ints(&[1, 2, 3]), "partition", &[even]),
            "[[2], [1, 3]]"
        );
        assert!(h.fuel > 0);
    }

    #[test]
    fn non_callable_callbacks_give_neutral_answers() {
        let mut h = TestHost::new();
        for name in [
            "map",
            "filter",
            "find",
            "flat_map",
            "sort_by",
            "min_by",
            "max_by",
            "partition",
            "group_by",
            "reduce",
        ] {
            assert_eq!(m(&mut h, ints(&[1]), name, &[i(5)]), "nil", "{name}");
        }
        assert_eq!(m(&mut h, ints(&[1]), "any", &[]), "false");
        assert_eq!(m(&mut h, ints(&[1]), "all", &[]), "true");
        assert_eq!(m(&mut h, ints(&[1]), "none", &[]), "false");
        assert_eq!(m(&mut h, ints(&[1]), "find_index", &[]), "-1");
    }

    #[test]
    fn callback_errors_propagate() {
        let mut h = TestHost::new();
        let boom = h.func(|_| Err(VmError::thrown_str("boom")));
        let r = super::super::call_method(&mut h, ints(&[1]), "map", &[boom]);
        assert!(matches!(r, Err(e) if e.bare_message() == "Thrown: boom"));
    }

    #[test]
    fn keyed_methods() {
        let mut h = TestHost::new();
        let neg = h.func(|a| Ok(Value::Int(-num(&a[0]))));
        let parity = h.func(|a| {
            Ok(if num(&a[0]) % 2 == 0 {
                s("even")
            } else {
                s("odd")
            })
        });
        let dup = h.func(|a| Ok(l(vec![a[0].clone(), a[0].clone()])));
        assert_eq!(
            m(
                &mut h,
                ints(&[1, 3, 2]),
                "sort_by",
                std::slice::from_ref(&neg)
            ),
            "[3, 2, 1]"
        );
        assert_eq!(
            m(
                &mut h,
                ints(&[1, 3, 2]),
                "min_by",
                std::slice::from_ref(&neg)
            ),
            "3"
        );
        assert_eq!(
            m(
                &mut h,
                ints(&[1, 3, 2]),
                "max_by",
                std::slice::from_ref(&neg)
            ),
            "1"
        );
        assert_eq!(m(&mut h, ints(&[]), "max_by", &[neg]), "nil");
        assert_eq!(
            m(&mut h, ints(&[1, 2, 3]), "group_by", &[parity]),
            "{even: [2], odd: [1, 3]}"
        );
        assert_eq!(m(&mut h, ints(&[1, 2]), "flat_map", &[dup]), "[1, 1, 2, 2]");
    }
}
