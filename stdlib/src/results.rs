//! Result and error helpers beyond the core `Ok`/`Err`/`is_ok`/`is_err`/`unwrap*`:
//! combinators (`map_ok`, `map_err`, `and_then`, `unwrap_or_else`, `ok_or`, `expect`)
//! and inspectors for error values thrown by `throw_error` (`{category, message}` dicts):
//! `error_category`, `error_message`, `is_timeout`, `is_rate_limited`.

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use crate::util::{arg, fn_arg, type_err};

fn payload(v: &Value) -> Value {
    match v {
        Value::Enum(e) => e.fields.first().cloned().unwrap_or(Value::Nil),
        _ => Value::Nil,
    }
}

/// `Some(true)` for Ok, `Some(false)` for Err; a type error for anything else.
fn result_arg(name: &str, v: &Value) -> Result<bool, VmError> {
    v.result_is_ok().ok_or_else(|| type_err(name, "Result", v))
}

fn map_ok(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let r = arg(args, 0);
    let f = fn_arg("map_ok", args, 1)?;
    if result_arg("map_ok", r)? {
        Ok(Value::ok(host.call(f, &[payload(r)])?))
    } else {
        Ok(r.clone())
    }
}

fn map_err(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let r = arg(args, 0);
    let f = fn_arg("map_err", args, 1)?;
    if result_arg("map_err", r)? {
        Ok(r.clone())
    } else {
        Ok(Value::err(host.call(f, &[payload(r)])?))
    }
}

fn and_then(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let r = arg(args, 0);
    let f = fn_arg("and_then", args, 1)?;
    if result_arg("and_then", r)? {
        host.call(f, &[payload(r)])
    } else {
        Ok(r.clone())
    }
}

fn unwrap_or_else(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let r = arg(args, 0);
    let f = fn_arg("unwrap_or_else", args, 1)?;
    if result_arg("unwrap_or_else", r)? {
        Ok(payload(r))
    } else {
        host.call(f, &[payload(r)])
    }
}

/// `ok_or(value, error)`: `Err(error)` for nil, else `Ok(value)`.
fn ok_or(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(match arg(args, 0) {
        Value::Nil => Value::err(arg(args, 1).clone()),
        v => Value::ok(v.clone()),
    })
}

/// `expect(result, msg)`: the Ok payload, or throws `msg: <error>`.
fn expect(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let r = arg(args, 0);
    if result_arg("expect", r)? {
        Ok(payload(r))
    } else {
        Err(VmError::thrown_str(format!(
            "{}: {}",
            display(arg(args, 1))?,
            display(&payload(r))?
        )))
    }
}

/// The error payload: an `Err`'s value, or the value itself.
fn error_of(v: &Value) -> Value {
    match v.result_is_ok() {
        Some(false) => payload(v),
        _ => v.clone(),
    }
}

fn field(v: &Value, key: &str) -> Option<Value> {
    match &error_of(v) {
        Value::Dict(d) => d.get(key).cloned(),
        _ => None,
    }
}

fn error_category(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(field(arg(args, 0), "category").unwrap_or(Value::Nil))
}

fn error_message(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(match field(arg(args, 0), "message") {
        Some(m) => m,
        None => Value::str(display(&error_of(arg(args, 0)))?),
    })
}

fn category_is(args: &[Value], names: &[&str]) -> Value {
    Value::Bool(
        field(arg(args, 0), "category")
            .and_then(|c| c.as_str().map(|s| names.contains(&s)))
            .unwrap_or(false),
    )
}

fn is_timeout(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(category_is(args, &["timeout"]))
}

fn is_rate_limited(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(category_is(args, &["rate_limit", "rate_limited"]))
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("map_ok", map_ok),
        ("map_err", map_err),
        ("and_then", and_then),
        ("unwrap_or_else", unwrap_or_else),
        ("ok_or", ok_or),
        ("expect", expect),
        ("error_category", error_category),
        ("error_message", error_message),
        ("is_timeout", is_timeout),
        ("is_rate_limited", is_rate_limited),
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
    use crate::test_host::{TestHost, call, call_err, i, s, show};
    use harn_vm::value::Dict;

    #[test]
    fn combinators() {
        let mut h = TestHost::new();
        let inc = h.func(|a| {
            Ok(Value::Int(match &a[0] {
                Value::Int(n) => n + 1,
                _ => 0,
            }))
        });
        assert_eq!(
            show(&map_ok(&mut h, &[Value::ok(i(1)), inc.clone()]).unwrap()),
            "Result.Ok(2)"
        );
        assert_eq!(
            show(&map_ok(&mut h, &[Value::err(s("x")), inc.clone()]).unwrap()),
            "Result.Err(x)"
        );
        assert_eq!(
            show(&map_err(&mut h, &[Value::err(i(1)), inc.clone()]).unwrap()),
            "Result.Err(2)"
        );
        assert_eq!(
            show(&unwrap_or_else(&mut h, &[Value::err(i(4)), inc.clone()]).unwrap()),
            "5"
        );
        assert_eq!(call(ok_or, &[Value::Nil, s("none")]), "Result.Err(none)");
        assert_eq!(
            call_err(expect, &[Value::err(s("boom")), s("loading")]),
            "Thrown: loading: boom"
        );
        assert_eq!(
            call_err(map_ok, &[i(1), inc]),
            "Type error: map_ok: expected Result, got int"
        );
    }

    #[test]
    fn errors() {
        let mut d = Dict::new();
        d.insert("category".into(), s("timeout"));
        d.insert("message".into(), s("too slow"));
        let e = Value::dict(d);
        assert_eq!(call(error_category, &[e.clone()]), "timeout");
        assert_eq!(call(is_timeout, &[Value::err(e.clone())]), "true");
        assert_eq!(call(is_rate_limited, &[e.clone()]), "false");
        assert_eq!(call(error_message, &[e]), "too slow");
        assert_eq!(call(error_message, &[s("plain")]), "plain");
    }
}
