//! Dict methods. Keys are strings; a non-string key argument is converted with display.
//! An unknown name returns `None`, so the interpreter can call a closure stored under
//! that key.

use std::rc::Rc;

use super::{arg, as_i64, callback, charge, entry, list, text_arg};
use crate::error::VmError;
use crate::native::Host;
use crate::value::{Dict, Value};

pub(super) fn call(
    host: &mut dyn Host,
    d: Rc<Dict>,
    name: &str,
    args: &[Value],
) -> Result<Option<Value>, VmError> {
    let v = match name {
        "keys" => keys(host, &d)?,
        "values" => values(host, &d)?,
        "entries" => entries(host, &d)?,
        "count" => Value::Int(as_i64(d.len())),
        "has" => Value::Bool(d.contains_key(&text_arg(args, 0)?)),
        "get" => match d.get(&text_arg(args, 0)?) {
            Some(v) => v.clone(),
            None => arg(args, 1).clone(),
        },
        "merge" => match args.first() {
            Some(Value::Dict(other)) => {
                if d.is_empty() {
                    Value::Dict(Rc::clone(other))
                } else {
                    charge(host, other.len())?;
                    let mut d = d;
                    let m = Rc::make_mut(&mut d);
                    for (k, v) in other.iter() {
                        m.insert(k.clone(), v.clone());
                    }
                    Value::Dict(d)
                }
            }
            _ => Value::Dict(d),
        },
        // The callbacks run through `Host::call_each` (one call window for the whole
        // loop, one unit of fuel per entry, as a call per entry charged): a call per
        // entry set up and tore down a frame each time, most of the method's cost.
        "map_values" => match callback(args, 0) {
            Some(f) => {
                let values: Vec<Value> = d.values().cloned().collect();
                // The same keys in the same order: the dict is copied (only when shared)
                // and its values replaced, with no key hashed or inserted again.
                let mut out = Rc::unwrap_or_clone(d);
                let mut slots = out.values_mut();
                let done = host.call_each(f, &values, &mut |_, v| {
                    if let Some(slot) = slots.next() {
                        *slot = std::mem::take(v);
                    }
                    Ok(true)
                });
                drop(slots);
                done?;
                Value::dict(out)
            }
            None => Value::Nil,
        },
        "rekey" | "map_keys" => match callback(args, 0) {
            Some(f) => {
                let keys: Vec<Value> = d.keys().map(|k| Value::str(k.as_str())).collect();
                let mut new_keys = Vec::with_capacity(keys.len());
                host.call_each(f, &keys, &mut |_, key| {
                    new_keys.push(text_arg(std::slice::from_ref(key), 0)?.into_owned());
                    Ok(true)
                })?;
                let mut out = Dict::new();
                for (key, v) in new_keys.into_iter().zip(d.values()) {
                    out.insert(key, v.clone());
                }
                Value::dict(out)
            }
            None => Value::Nil,
        },
        "filter" => match callback(args, 0) {
            Some(f) => {
                let values: Vec<Value> = d.values().cloned().collect();
                let mut keep = Vec::with_capacity(values.len());
                host.call_each(f, &values, &mut |_, v| {
                    keep.push(v.truthy());
                    Ok(true)
                })?;
                let mut out = Dict::new();
                for ((k, v), _) in d.iter().zip(keep).filter(|(_, keep)| *keep) {
                    out.insert(k.clone(), v.clone());
                }
                Value::dict(out)
            }
            None => Value::Nil,
        },
        "remove" => {
            let key = text_arg(args, 0)?;
            if d.contains_key(&key) {
                let mut d = d;
                Rc::make_mut(&mut d).remove(&key);
                Value::Dict(d)
            } else {
                Value::Dict(d)
            }
        }
        // Lazy iterators are not implemented yet: `iter` hands back the dict itself.
        "iter" => Value::Dict(d),
        // What `d.iter().to_list()` yields: `(key, value)` pairs in key order.
        "to_list" => {
            charge(host, d.len())?;
            list(
                d.iter()
                    .map(|(k, v)| Value::Pair(Rc::new((Value::str(k.as_str()), v.clone()))))
                    .collect(),
            )
        }
        _ => return Ok(None),
    };
    Ok(Some(v))
}

/// The keys in sorted (byte-wise) order.
pub(crate) fn keys(host: &mut dyn Host, d: &Dict) -> Result<Value, VmError> {
    charge(host, d.len())?;
    Ok(list(d.keys().map(|k| Value::str(k.as_str())).collect()))
}

/// The values in key order.
pub(crate) fn values(host: &mut dyn Host, d: &Dict) -> Result<Value, VmError> {
    charge(host, d.len())?;
    Ok(list(d.values().cloned().collect()))
}

/// `[{key, value}, …]` in key order.
pub(crate) fn entries(host: &mut dyn Host, d: &Dict) -> Result<Value, VmError> {
    charge(host, d.len())?;
    Ok(list(
        d.iter()
            .map(|(k, v)| entry("key", Value::str(k.as_str()), "value", v.clone()))
            .collect(),
    ))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use crate::test_support::{TestHost, i, m, s};
    use crate::value::{Dict, Value};

    fn dict(pairs: &[(&str, Value)]) -> Value {
        let mut d = Dict::new();
        for (k, v) in pairs {
            d.insert((*k).to_owned(), v.clone());
        }
        Value::dict(d)
    }

    fn num(v: &Value) -> i64 {
        match v {
            Value::Int(n) => *n,
            _ => 0,
        }
    }

    #[test]
    fn count_is_a_method() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, dict(&[("a", i(1))]), "count", &[]), "1");
    }

    #[test]
    fn views() {
        let mut h = TestHost::new();
        let d = || dict(&[("b", i(2)), ("a", s("x"))]);
        assert_eq!(m(&mut h, d(), "keys", &[]), "[a, b]");
        assert_eq!(m(&mut h, d(), "values", &[]), "[x, 2]");
        assert_eq!(
            m(&mut h, d(), "entries", &[]),
            "[{key: a, value: x}, {key: b, value: 2}]"
        );
        assert_eq!(m(&mut h, d(), "to_list", &[]), "[(a, x), (b, 2)]");
    }

    #[test]
    fn lookups() {
        let mut h = TestHost::new();
        let d = || dict(&[("a", i(1)), ("1", s("one"))]);
        assert_eq!(m(&mut h, d(), "has", &[s("a")]), "true");
        assert_eq!(m(&mut h, d(), "has", &[i(1)]), "true");
        assert_eq!(m(&mut h, d(), "has", &[s("z")]), "false");
        assert_eq!(m(&mut h, d(), "get", &[s("a")]), "1");
        assert_eq!(m(&mut h, d(), "get", &[s("z")]), "nil");
        assert_eq!(m(&mut h, d(), "get", &[s("z"), i(0)]), "0");
    }

    #[test]
    fn updates() {
        let mut h = TestHost::new();
        let d = || dict(&[("a", i(1)), ("b", i(2))]);
        assert_eq!(
            m(&mut h, d(), "merge", &[dict(&[("b", i(9)), ("c", i(3))])]),
            "{a: 1, b: 9, c: 3}"
        );
        assert_eq!(m(&mut h, d(), "merge", &[i(1)]), "{a: 1, b: 2}");
        assert_eq!(m(&mut h, d(), "remove", &[s("a")]), "{b: 2}");
        assert_eq!(m(&mut h, d(), "remove", &[s("zz")]), "{a: 1, b: 2}");
        let keep = d();
        let copy = keep.clone();
        assert_eq!(m(&mut h, copy, "remove", &[s("a")]), "{b: 2}");
        assert_eq!(crate::test_support::show(&keep), "{a: 1, b: 2}");
    }

    #[test]
    fn callbacks() {
        let mut h = TestHost::new();
        let d = || dict(&[("a", i(1)), ("b", i(2))]);
        let inc = h.func(|a| Ok(Value::Int(num(&a[0]) + 1)));
        let big = h.func(|a| Ok(Value::Bool(num(&a[0]) > 1)));
        let up = h.func(|a| Ok(Value::str(a[0].as_str().unwrap_or("").to_uppercase())));
        assert_eq!(m(&mut h, d(), "map_values", &[inc]), "{a: 2, b: 3}");
        assert_eq!(m(&mut h, d(), "filter", &[big]), "{b: 2}");
        assert_eq!(
            m(&mut h, d(), "rekey", std::slice::from_ref(&up)),
            "{A: 1, B: 2}"
        );
        assert_eq!(m(&mut h, d(), "map_keys", &[up]), "{A: 1, B: 2}");
        assert_eq!(m(&mut h, d(), "filter", &[i(3)]), "nil");
        assert_eq!(m(&mut h, d(), "map_values", &[]), "nil");
    }

    #[test]
    fn unknown_names_fall_through() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, dict(&[]), "handler", &[]), "<none>");
        assert_eq!(m(&mut h, dict(&[]), "len", &[]), "<none>");
    }
}
