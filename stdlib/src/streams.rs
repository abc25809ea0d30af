//! The `stream.*` namespaced builtins (`language.md` 6: a builtin name with a dot is
//! called as `stream.map(xs, f)`) and the `atomic*` cells.
//!
//! A run has no asynchronous sources, so a stream here is a finished sequence: a list,
//! set or range, processed eagerly into a list. The timing operators keep their meaning
//! for a sequence whose items all arrive at once: `throttle` passes the first item of a
//! window (all of them when the window is 0), `debounce` only the last, `race` the first
//! source that has an item. `stream.collect` with `max` (or `{max}`) refuses a longer
//! stream, as the reference's bounded collect does.
//!
//! An atomic is a cell shared by every copy of it (`harn_vm::iter::Iter::Cell`), so a
//! callback can count into it: `atomic(0)`, `atomic_add(a, 1)`, `atomic_get(a)`,
//! `atomic_set(a, v)`.

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use crate::util::{arg, charge, check_len, fn_arg, int_arg, items_arg, zip_args};

fn each_result(
    host: &mut dyn Host,
    name: &str,
    args: &[Value],
    mut keep: impl FnMut(&Value, Value) -> Result<Option<Value>, VmError>,
) -> Result<Value, VmError> {
    let xs = items_arg(name, args, 0)?;
    let f = fn_arg(name, args, 1)?;
    let mut out = Vec::with_capacity(xs.len());
    for x in xs.iter() {
        let r = host.call(f, std::slice::from_ref(x))?;
        if let Some(v) = keep(x, r)? {
            out.push(v);
        }
    }
    Ok(Value::list(out))
}

fn map(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    each_result(host, "stream.map", args, |_, r| Ok(Some(r)))
}

fn filter(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    each_result(host, "stream.filter", args, |x, r| {
        Ok(r.truthy().then(|| x.clone()))
    })
}

fn tap(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    each_result(host, "stream.tap", args, |x, _| Ok(Some(x.clone())))
}

/// `scan(xs, init, f)`: every running accumulation; `fold` only the last.
fn accumulate(
    host: &mut dyn Host,
    name: &str,
    args: &[Value],
) -> Result<(Value, Vec<Value>), VmError> {
    let xs = items_arg(name, args, 0)?;
    let f = fn_arg(name, args, 2)?;
    let mut acc = arg(args, 1).clone();
    let mut steps = Vec::with_capacity(xs.len());
    for x in xs.iter() {
        acc = host.call(f, &[acc, x.clone()])?;
        steps.push(acc.clone());
    }
    Ok((acc, steps))
}

fn scan(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::list(accumulate(host, "stream.scan", args)?.1))
}

fn fold(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(accumulate(host, "stream.fold", args)?.0)
}

fn collect(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let xs = items_arg("stream.collect", args, 0)?;
    let max = match arg(args, 1) {
        Value::Int(n) => Some(*n),
        Value::Dict(d) => match d.get("max") {
            Some(Value::Int(n)) => Some(*n),
            _ => None,
        },
        _ => None,
    };
    if let Some(max) = max
        && i64::try_from(xs.len()).unwrap_or(i64::MAX) > max
    {
        return Err(VmError::thrown_str(format!(
            "stream.collect: the stream is longer than its limit of {max}"
        )));
    }
    charge(host, xs.len())?;
    Ok(Value::List(xs))
}

fn first(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let xs = items_arg("stream.first", args, 0)?;
    Ok(xs.first().cloned().unwrap_or_default())
}

fn take(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let xs = items_arg("stream.take", args, 0)?;
    let n = usize::try_from(int_arg("stream.take", args, 1)?.max(0)).unwrap_or(0);
    Ok(Value::list(xs.iter().take(n).cloned().collect()))
}

fn take_until(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let xs = items_arg("stream.take_until", args, 0)?;
    let f = fn_arg("stream.take_until", args, 1)?;
    let mut out = Vec::new();
    for x in xs.iter() {
        if host.call(f, std::slice::from_ref(x))?.truthy() {
            break;
        }
        out.push(x.clone());
    }
    Ok(Value::list(out))
}

fn zip(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    zip_args("stream.zip", args, |x, y| {
        Value::Pair(std::rc::Rc::new((x, y)))
    })
}

/// One item from each source in turn until all are drained (`merge`, `interleave`).
fn round_robin(host: &mut dyn Host, name: &str, args: &[Value]) -> Result<Value, VmError> {
    let sources = (0..args.len())
        .map(|i| items_arg(name, args, i))
        .collect::<Result<Vec<_>, _>>()?;
    let total: usize = sources.iter().map(|s| s.len()).sum();
    check_len(host, total, name)?;
    let mut out = Vec::with_capacity(total);
    let longest = sources.iter().map(|s| s.len()).max().unwrap_or(0);
    for i in 0..longest {
        out.extend(sources.iter().filter_map(|s| s.get(i).cloned()));
    }
    Ok(Value::list(out))
}

fn merge(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    round_robin(host, "stream.merge", args)
}

fn interleave(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    round_robin(host, "stream.interleave", args)
}

fn race(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    for i in 0..args.len() {
        let xs = items_arg("stream.race", args, i)?;
        if !xs.is_empty() {
            return Ok(Value::List(xs));
        }
    }
    Ok(Value::list(Vec::new()))
}

fn broadcast(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let xs = items_arg("stream.broadcast", args, 0)?;
    let n = usize::try_from(int_arg("stream.broadcast", args, 1)?.max(0)).unwrap_or(0);
    check_len(host, n.saturating_mul(xs.len().max(1)), "stream.broadcast")?;
    Ok(Value::list(
        (0..n).map(|_| Value::List(xs.clone())).collect(),
    ))
}

fn throttle(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let xs = items_arg("stream.throttle", args, 0)?;
    let window = int_arg("stream.throttle", args, 1).unwrap_or(0);
    if window <= 0 {
        return Ok(Value::List(xs));
    }
    Ok(Value::list(xs.first().cloned().into_iter().collect()))
}

fn debounce(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let xs = items_arg("stream.debounce", args, 0)?;
    Ok(Value::list(xs.last().cloned().into_iter().collect()))
}

// ----- atomics ------------------------------------------------------------------------

fn cell_arg(name: &str, args: &[Value]) -> Result<harn_vm::iter::IterRef, VmError> {
    match arg(args, 0) {
        Value::Iter(it) if harn_vm::iter::is_cell(it) => Ok(it.clone()),
        other => Err(crate::util::type_err(name, "an atomic", other)),
    }
}

fn atomic(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(harn_vm::iter::cell(arg(args, 0).clone()))
}

fn atomic_get(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let it = cell_arg("atomic_get", args)?;
    Ok(harn_vm::iter::cell_get(&it))
}

fn atomic_set(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let it = cell_arg("atomic_set", args)?;
    Ok(harn_vm::iter::cell_replace(&it, arg(args, 1).clone()))
}

fn atomic_add(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let it = cell_arg("atomic_add", args)?;
    let delta = match arg(args, 1) {
        Value::Nil => Value::Int(1),
        other => other.clone(),
    };
    let sum = harn_vm::ops::add(harn_vm::iter::cell_get(&it), &delta)?;
    harn_vm::iter::cell_replace(&it, sum.clone());
    Ok(sum)
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("stream.map", map),
        ("stream.filter", filter),
        ("stream.tap", tap),
        ("stream.scan", scan),
        ("stream.fold", fold),
        ("stream.collect", collect),
        ("stream.first", first),
        ("stream.take", take),
        ("stream.take_until", take_until),
        ("stream.zip", zip),
        ("stream.merge", merge),
        ("stream.interleave", interleave),
        ("stream.race", race),
        ("stream.broadcast", broadcast),
        ("stream.throttle", throttle),
        ("stream.debounce", debounce),
        ("atomic", atomic),
        ("atomic_get", atomic_get),
        ("atomic_set", atomic_set),
        ("atomic_add", atomic_add),
    ];
    b.sync_table(table);
}
