//! Result and error helpers beyond the core `Ok`/`Err`/`is_ok`/`is_err`/`unwrap*`:
//! combinators (`map_ok`, `map_err`, `and_then`, `unwrap_or_else`, `ok_or`, `expect`)
//! and inspectors for error values thrown by `throw_error` (`{category, message}` dicts):
//! `error_category`, `error_message`, `is_timeout`, `is_rate_limited`, `error_is`,
//! `error_is_transient`. A string error (a runtime error's text) is classified by the HTTP
//! status or phrase it contains, as the reference does.

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use crate::util::{arg, fn_arg, type_err};

fn payload(v: &Value) -> Value {
    match v {
        Value::Enum(e) => e.fields.first().cloned().unwrap_or_default(),
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

/// The error categories the reference knows; `throw_error` and `error_is` use them.
const CATEGORIES: &[&str] = &[
    "timeout",
    "auth",
    "rate_limit",
    "overloaded",
    "server_error",
    "transient_network",
    "resource_busy",
    "schema_validation",
    "schema_stream_aborted",
    "tool_error",
    "tool_rejected",
    "egress_blocked",
    "cancelled",
    "channel_closed",
    "not_found",
    "circuit_open",
    "budget_exceeded",
    "internal",
    "generic",
];

/// Categories worth a retry.
const TRANSIENT: &[&str] = &[
    "timeout",
    "rate_limit",
    "overloaded",
    "server_error",
    "transient_network",
    "resource_busy",
];

/// A category name as given, folded onto a known one (`rate_limited` → `rate_limit`);
/// anything else is `generic`.
fn normalise(name: &str) -> &'static str {
    let n = name.trim().to_ascii_lowercase();
    let n = match n.as_str() {
        "rate_limited" | "ratelimit" => "rate_limit",
        "canceled" => "cancelled",
        other => other,
    };
    CATEGORIES
        .iter()
        .find(|c| **c == n)
        .copied()
        .unwrap_or("generic")
}

/// The category an error message implies: the first HTTP status that maps to one, then
/// well-known phrases; `generic` when nothing matches.
fn classify(text: &str) -> &'static str {
    // A standalone number: `500ms` or `v404` is not a status.
    let status = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() == 3 && w.bytes().all(|b| b.is_ascii_digit()))
        .filter_map(|w| w.parse::<u16>().ok())
        .find_map(|code| match code {
            401 | 403 => Some("auth"),
            404 | 410 => Some("not_found"),
            408 | 504 | 522 | 524 => Some("timeout"),
            429 => Some("rate_limit"),
            503 | 529 => Some("overloaded"),
            500 | 502 => Some("server_error"),
            _ => None,
        });
    if let Some(c) = status {
        return c;
    }
    let lower = text.to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    if text.contains("Undefined builtin") {
        "internal"
    } else if has(&["cancelled", "canceled"]) {
        "cancelled"
    } else if has(&["channelclosed", "channel closed"]) {
        "channel_closed"
    } else if has(&["deadline exceeded"]) {
        "timeout"
    } else if has(&["overloaded_error"]) {
        "overloaded"
    } else if has(&["api_error"]) {
        "server_error"
    } else if has(&["insufficient_quota", "billing_hard_limit_reached"]) {
        "rate_limit"
    } else if has(&["invalid_api_key", "authentication_error"]) {
        "auth"
    } else if has(&[
        "not_found_error",
        "model_not_found",
        "is not a valid model id",
        "invalid model id",
    ]) {
        "not_found"
    } else if has(&["circuit_open"]) {
        "circuit_open"
    } else if has(&[
        "connection reset",
        "connection refused",
        "connection closed",
        "broken pipe",
        "dns error",
        "stream error",
        "unexpected eof",
    ]) {
        "transient_network"
    } else {
        "generic"
    }
}

/// The category of an error value: a dict's `category` (as given), a string's
/// classification, else `generic`.
fn category_of(v: &Value, normalised: bool) -> Result<String, VmError> {
    Ok(match &error_of(v) {
        Value::Dict(d) => match d.get("category") {
            Some(Value::Str(c)) if normalised => normalise(c).to_owned(),
            Some(Value::Str(c)) => c.as_str().to_owned(),
            Some(Value::Nil) | None => "generic".to_owned(),
            Some(other) if normalised => normalise(&display(other)?).to_owned(),
            Some(other) => display(other)?,
        },
        Value::Str(s) => classify(s).to_owned(),
        _ => "generic".to_owned(),
    })
}

fn error_category(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(category_of(arg(args, 0), false)?))
}

fn error_message(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(match field(arg(args, 0), "message") {
        Some(m) => m,
        None => Value::str(display(&error_of(arg(args, 0)))?),
    })
}

fn category_is(args: &[Value], names: &[&str]) -> Result<Value, VmError> {
    let c = category_of(arg(args, 0), true)?;
    Ok(Value::Bool(names.contains(&c.as_str())))
}

fn is_timeout(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    category_is(args, &["timeout"])
}

fn is_rate_limited(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    category_is(args, &["rate_limit"])
}

/// Whether the error is of the named category (which must be a known one).
fn error_is(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let wanted = match arg(args, 1) {
        Value::Str(s) => s.as_str().to_owned(),
        other => return Err(type_err("error_is", "a category name", other)),
    };
    if !CATEGORIES.contains(&wanted.as_str()) {
        return Err(VmError::thrown_str(format!(
            "error_is: unknown error category \"{wanted}\" (one of {})",
            CATEGORIES.join(", ")
        )));
    }
    category_is(args, &[wanted.as_str()])
}

fn error_is_transient(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    category_is(args, TRANSIENT)
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
        ("error_is", error_is),
        ("error_is_transient", error_is_transient),
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
        d.insert("category", s("timeout"));
        d.insert("message", s("too slow"));
        let e = Value::dict(d);
        assert_eq!(call(error_category, &[e.clone()]), "timeout");
        assert_eq!(call(is_timeout, &[Value::err(e.clone())]), "true");
        assert_eq!(call(is_rate_limited, &[e.clone()]), "false");
        assert_eq!(call(error_message, &[e]), "too slow");
        assert_eq!(call(error_message, &[s("plain")]), "plain");
    }
}
