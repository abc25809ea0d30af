//! Collection helpers as free functions: set algebra (`set_union`, ...), list helpers
//! (`flat_map`, `group_by`, `dedup_by`, `sort_by`, ...) and `hash_value`.
//!
//! Set helpers accept sets or lists (a list is read as a set) and return sets in
//! insertion order. List helpers take the list first and the callback second.

use std::collections::HashMap;
use std::rc::Rc;

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::methods::EqualIndex;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value, compare, equals};

use crate::hash::hash_of;
use crate::util::{arg, charge, fn_arg, int_arg, items_arg, make_set, type_err, zip_args};

// ----- sets -------------------------------------------------------------------------

fn set_items(name: &str, args: &[Value], i: usize) -> Result<Rc<Vec<Value>>, VmError> {
    match arg(args, i) {
        Value::Set(s) | Value::List(s) => Ok(Rc::clone(s)),
        other => Err(type_err(name, "set", other)),
    }
}

fn has(items: &[Value], v: &Value) -> Result<bool, VmError> {
    harn_vm::value::contains(items, v)
}

fn set_add(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let a = set_items("set_add", args, 0)?;
    make_set(
        host,
        a.iter()
            .cloned()
            .chain(std::iter::once(arg(args, 1).clone())),
    )
}

fn set_remove(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let a = set_items("set_remove", args, 0)?;
    let x = arg(args, 1);
    let mut keep = Vec::new();
    for v in a.iter() {
        if !equals(v, x)? {
            keep.push(v.clone());
        }
    }
    make_set(host, keep)
}

fn set_contains(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let a = set_items("set_contains", args, 0)?;
    charge(host, a.len())?;
    Ok(Value::Bool(has(&a, arg(args, 1))?))
}

fn set_union(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let a = set_items("set_union", args, 0)?;
    let b = set_items("set_union", args, 1)?;
    make_set(host, a.iter().chain(b.iter()).cloned())
}

fn filter_by(
    host: &mut dyn Host,
    a: &[Value],
    b: &[Value],
    keep_if_in_b: bool,
) -> Result<Vec<Value>, VmError> {
    let in_b = EqualIndex::new(host, b)?;
    charge(host, a.len())?;
    let mut out = Vec::new();
    for v in a {
        if in_b.contains(v)? == keep_if_in_b {
            out.push(v.clone());
        }
    }
    Ok(out)
}

fn set_intersect(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let a = set_items("set_intersect", args, 0)?;
    let b = set_items("set_intersect", args, 1)?;
    let out = filter_by(host, &a, &b, true)?;
    make_set(host, out)
}

fn set_difference(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let a = set_items("set_difference", args, 0)?;
    let b = set_items("set_difference", args, 1)?;
    let out = filter_by(host, &a, &b, false)?;
    make_set(host, out)
}

fn set_symmetric_difference(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let a = set_items("set_symmetric_difference", args, 0)?;
    let b = set_items("set_symmetric_difference", args, 1)?;
    let mut out = filter_by(host, &a, &b, false)?;
    out.extend(filter_by(host, &b, &a, false)?);
    make_set(host, out)
}

fn set_is_subset(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let a = set_items("set_is_subset", args, 0)?;
    let b = set_items("set_is_subset", args, 1)?;
    Ok(Value::Bool(filter_by(host, &a, &b, false)?.is_empty()))
}

fn set_is_superset(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let a = set_items("set_is_superset", args, 0)?;
    let b = set_items("set_is_superset", args, 1)?;
    Ok(Value::Bool(filter_by(host, &b, &a, false)?.is_empty()))
}

fn set_is_disjoint(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let a = set_items("set_is_disjoint", args, 0)?;
    let b = set_items("set_is_disjoint", args, 1)?;
    Ok(Value::Bool(filter_by(host, &a, &b, true)?.is_empty()))
}

fn set_to_list(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::list(set_items("set_to_list", args, 0)?.to_vec()))
}

// ----- lists ------------------------------------------------------------------------

fn flat_map(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let xs = items_arg("flat_map", args, 0)?;
    let f = fn_arg("flat_map", args, 1)?;
    let mut out = Vec::new();
    for x in xs.iter() {
        let mapped = host.call(f, std::slice::from_ref(x))?;
        match &mapped {
            Value::List(items) | Value::Set(items) => out.extend(items.iter().cloned()),
            _ => out.push(mapped),
        }
    }
    Ok(Value::list(out))
}

/// Groups items by key, keeping first-seen order of keys; returns (key, items) pairs.
fn keyed(host: &mut dyn Host, name: &str, args: &[Value]) -> Result<Vec<(Value, Value)>, VmError> {
    let xs = items_arg(name, args, 0)?;
    let f = fn_arg(name, args, 1)?;
    let mut out = Vec::with_capacity(xs.len());
    // One call window for the whole loop (`Host::call_each`; one unit of fuel per item,
    // as the list methods charge): a call per item set up a frame each time.
    host.call_each(f, &xs, &mut |i, key| {
        out.push((std::mem::take(key), xs[i].clone()));
        Ok(true)
    })?;
    Ok(out)
}

fn group_by(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let pairs = keyed(host, "group_by", args)?;
    let mut groups: Dict = Dict::new();
    for (k, x) in pairs {
        let key = display(&k)?;
        match groups.get_mut(&key) {
            Some(Value::List(items)) => Rc::make_mut(items).push(x),
            _ => {
                groups.insert(key, Value::list(vec![x]));
            }
        }
    }
    Ok(Value::dict(groups))
}

fn count_by(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let pairs = keyed(host, "count_by", args)?;
    let mut counts: Dict = Dict::new();
    for (k, _) in pairs {
        let key = display(&k)?;
        let n = match counts.get(&key) {
            Some(Value::Int(n)) => *n,
            _ => 0,
        };
        counts.insert(key, Value::Int(n + 1));
    }
    Ok(Value::dict(counts))
}

fn index_by(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let pairs = keyed(host, "index_by", args)?;
    let mut out: Dict = Dict::new();
    for (k, x) in pairs {
        out.insert(display(&k)?, x);
    }
    Ok(Value::dict(out))
}

/// Keeps the first item per key (structural equality of keys).
fn dedup_by(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let pairs = keyed(host, "dedup_by", args)?;
    let mut seen: HashMap<u64, Vec<Value>> = HashMap::new();
    let mut out = Vec::new();
    for (k, x) in pairs {
        let bucket = seen.entry(hash_of(&k)?).or_default();
        if !has(bucket, &k)? {
            bucket.push(k);
            out.push(x);
        }
    }
    Ok(Value::list(out))
}

fn unique(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let xs = items_arg("unique", args, 0)?;
    let mut seen: HashMap<u64, Vec<Value>> = HashMap::new();
    let mut out = Vec::new();
    charge(host, xs.len())?;
    for x in xs.iter() {
        let bucket = seen.entry(hash_of(x)?).or_default();
        if !has(bucket, x)? {
            bucket.push(x.clone());
            out.push(x.clone());
        }
    }
    Ok(Value::list(out))
}

/// A stable merge sort driven by a strict "less" test: terminates and never panics,
/// whatever the comparator does.
fn merge_sort(n: usize, less: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    let mut buf = idx.clone();
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j, mut k) = (start, mid, start);
            while i < mid && j < end {
                if less(idx[j], idx[i]) {
                    buf[k] = idx[j];
                    j += 1;
                } else {
                    buf[k] = idx[i];
                    i += 1;
                }
                k += 1;
            }
            buf[k..k + (mid - i)].copy_from_slice(&idx[i..mid]);
            k += mid - i;
            buf[k..k + (end - j)].copy_from_slice(&idx[j..end]);
            start = end;
        }
        std::mem::swap(&mut idx, &mut buf);
        width *= 2;
    }
    idx
}

fn sort_by(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let pairs = keyed(host, "sort_by", args)?;
    let order = merge_sort(pairs.len(), &mut |a, b| {
        compare(&pairs[a].0, &pairs[b].0) == std::cmp::Ordering::Less
    });
    charge(host, pairs.len())?;
    Ok(Value::list(
        order.into_iter().map(|i| pairs[i].1.clone()).collect(),
    ))
}

fn partition(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let pairs = keyed(host, "partition", args)?;
    let (yes, no): (Vec<_>, Vec<_>) = pairs.into_iter().partition(|(k, _)| k.truthy());
    // The builtin answers a dict, as the reference's does; the `.partition` method keeps
    // the `[[truthy], [falsy]]` pair of `language.md` 9.3.
    let mut d = harn_vm::value::Dict::new();
    d.insert("match", Value::list(yes.into_iter().map(|p| p.1).collect()));
    d.insert(
        "no_match",
        Value::list(no.into_iter().map(|p| p.1).collect()),
    );
    Ok(Value::dict(d))
}

fn chunk(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let xs = items_arg("chunk", args, 0)?;
    let n = usize::try_from(int_arg("chunk", args, 1)?.max(1)).unwrap_or(1);
    Ok(Value::list(
        xs.chunks(n).map(|c| Value::list(c.to_vec())).collect(),
    ))
}

fn flatten(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let xs = items_arg("flatten", args, 0)?;
    let mut out = Vec::new();
    for x in xs.iter() {
        match x {
            Value::List(items) => out.extend(items.iter().cloned()),
            other => out.push(other.clone()),
        }
    }
    Ok(Value::list(out))
}

fn zip(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    zip_args("zip", args, |x, y| Value::list(vec![x, y]))
}

fn sum_by(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let pairs = keyed(host, "sum_by", args)?;
    let mut acc = Value::Int(0);
    for (k, _) in pairs {
        if matches!(k, Value::Int(_) | Value::Float(_)) {
            acc = harn_vm::ops::add(acc, &k)?;
        }
    }
    Ok(acc)
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("set_add", set_add),
        ("set_remove", set_remove),
        ("set_contains", set_contains),
        ("set_union", set_union),
        ("set_intersect", set_intersect),
        ("set_intersection", set_intersect),
        ("set_difference", set_difference),
        ("set_symmetric_difference", set_symmetric_difference),
        ("set_is_subset", set_is_subset),
        ("set_is_superset", set_is_superset),
        ("set_is_disjoint", set_is_disjoint),
        ("set_to_list", set_to_list),
        ("flat_map", flat_map),
        ("group_by", group_by),
        ("count_by", count_by),
        ("index_by", index_by),
        ("dedup_by", dedup_by),
        ("unique", unique),
        ("sort_by", sort_by),
        ("partition", partition),
        ("chunk", chunk),
        ("flatten", flatten),
        ("zip", zip),
        ("sum_by", sum_by),
    ];
    b.sync_table(table);
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cloned_ref_to_slice_refs
)]
mod tests {
    use super::*;
    use crate::test_host::{TestHost, call, call_err, i, l, show};

    fn set(items: Vec<Value>) -> Value {
        Value::Set(Rc::new(items))
    }

    #[test]
    fn sets() {
        let a = set(vec![i(1), i(2), i(3)]);
        let b = set(vec![i(2), i(3), i(4)]);
        assert_eq!(call(set_union, &[a.clone(), b.clone()]), "set(1, 2, 3, 4)");
        assert_eq!(call(set_intersect, &[a.clone(), b.clone()]), "set(2, 3)");
        assert_eq!(call(set_difference, &[a.clone(), b.clone()]), "set(1)");
        assert_eq!(
            call(set_symmetric_difference, &[a.clone(), b.clone()]),
            "set(1, 4)"
        );
        assert_eq!(call(set_is_subset, &[set(vec![i(2)]), a.clone()]), "true");
        assert_eq!(call(set_contains, &[a.clone(), Value::Float(2.0)]), "true");
        assert_eq!(call(set_add, &[a.clone(), i(1)]), "set(1, 2, 3)");
        assert_eq!(call(set_remove, &[a, i(1)]), "set(2, 3)");
        assert_eq!(
            call_err(set_union, &[i(1), b]),
            "Type error: set_union: expected set, got int"
        );
    }

    #[test]
    fn list_helpers() {
        let mut host = TestHost::new();
        let parity = host.func(|a| {
            Ok(Value::Int(match &a[0] {
                Value::Int(n) => n % 2,
                _ => -1,
            }))
        });
        let dup = host.func(|a| Ok(l(vec![a[0].clone(), a[0].clone()])));
        let neg = host.func(|a| {
            Ok(Value::Int(match &a[0] {
                Value::Int(n) => -n,
                _ => 0,
            }))
        });
        let xs = l(vec![i(3), i(1), i(4), i(1), i(5)]);
        assert_eq!(
            show(&group_by(&mut host, &[xs.clone(), parity.clone()]).unwrap()),
            "{0: [4], 1: [3, 1, 1, 5]}"
        );
        assert_eq!(
            show(&dedup_by(&mut host, &[xs.clone(), parity.clone()]).unwrap()),
            "[3, 4]"
        );
        assert_eq!(
            show(&flat_map(&mut host, &[l(vec![i(1), i(2)]), dup]).unwrap()),
            "[1, 1, 2, 2]"
        );
        assert_eq!(
            show(&sort_by(&mut host, &[xs.clone(), neg]).unwrap()),
            "[5, 4, 3, 1, 1]"
        );
        assert_eq!(
            show(&count_by(&mut host, &[xs.clone(), parity.clone()]).unwrap()),
            "{0: 1, 1: 4}"
        );
        assert_eq!(
            show(&partition(&mut host, &[xs.clone(), parity]).unwrap()),
            "{match: [3, 1, 1, 5], no_match: [4]}"
        );
        assert_eq!(call(unique, &[xs.clone()]), "[3, 1, 4, 5]");
        assert_eq!(
            call(chunk, &[xs.clone(), i(0)]),
            "[[3], [1], [4], [1], [5]]"
        );
        assert_eq!(
            call(flatten, &[l(vec![i(1), l(vec![i(2), l(vec![i(3)])])])]),
            "[1, 2, [3]]"
        );
        assert_eq!(
            call_err(flat_map, &[xs, i(1)]),
            "Type error: flat_map: expected a function, got int"
        );
        assert_eq!(
            call_err(group_by, &[i(1)]),
            "Type error: group_by: expected list, got int"
        );
    }
}
