//! Output, conversion, assertion, Result and the frequently used pure builtins
//! (`language.md` 9.1, 9.2).
//!
//! Conventions follow the reference: string helpers coerce their arguments with display,
//! numeric helpers return `nil` for non-numbers, failed assertions throw strings.

use std::io::Write as _;
use std::rc::Rc;

use crate::display::display;
use crate::error::VmError;
use crate::methods::{self, text_arg};
use crate::native::Host;
use crate::registry::RegistryBuilder;
use crate::value::{Dict, RangeValue, Value, equals};

mod pure;
#[cfg(test)]
mod tests;

fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).cloned().unwrap_or_default()
}

// ----- output -----------------------------------------------------------------------

fn log(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let mut line = String::from("[harn] ");
    if let Some(v) = args.first() {
        line.push_str(&display(v)?);
    }
    line.push('\n');
    host.write_out(&line)?;
    Ok(Value::Nil)
}

fn println(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let mut line = match args.first() {
        Some(v) => display(v)?,
        None => String::new(),
    };
    line.push('\n');
    host.write_out(&line)?;
    Ok(Value::Nil)
}

fn print(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    if let Some(v) = args.first() {
        host.write_out(&display(v)?)?;
    }
    Ok(Value::Nil)
}

/// Writes to the real stderr; failures to write are ignored (stderr is never compared).
fn to_stderr(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

fn eprint(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    if let Some(v) = args.first() {
        to_stderr(&display(v)?);
    }
    Ok(Value::Nil)
}

fn eprintln(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let mut line = match args.first() {
        Some(v) => display(v)?,
        None => String::new(),
    };
    line.push('\n');
    to_stderr(&line);
    Ok(Value::Nil)
}

// ----- types and conversions --------------------------------------------------------

fn type_of(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(arg(args, 0).type_name()))
}

fn to_string(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    match args.first() {
        Some(Value::Str(s)) => Ok(Value::Str(Rc::clone(s))),
        Some(v) => Ok(Value::str(display(v)?)),
        None => Ok(Value::str("nil")),
    }
}

fn to_int(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(match args.first() {
        Some(Value::Int(n)) => Value::Int(*n),
        // Truncation toward zero; saturates at the i64 bounds, NaN gives 0.
        Some(Value::Float(x)) => Value::Int(*x as i64),
        Some(Value::Str(s)) => s.parse::<i64>().map_or(Value::Nil, Value::Int),
        _ => Value::Nil,
    })
}

fn to_float(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(match args.first() {
        Some(Value::Int(n)) => Value::Float(*n as f64),
        Some(Value::Float(x)) => Value::Float(*x),
        Some(Value::Str(s)) => s.parse::<f64>().map_or(Value::Nil, Value::Float),
        _ => Value::Nil,
    })
}

fn len(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Int(args.first().map_or(Ok(0), len_of)?))
}

/// `len(v)`: what the builtin answers, and what the `Len` instruction runs.
pub(crate) fn len_of(v: &Value) -> Result<i64, VmError> {
    Ok(match v {
        Value::Str(s) => methods::as_i64(crate::chars::count(s)),
        Value::Bytes(b) => methods::as_i64(b.len()),
        Value::List(l) => methods::as_i64(l.len()),
        Value::Dict(d) => methods::as_i64(d.len()),
        Value::Set(s) => methods::as_i64(s.len()),
        Value::Range(r) => r.len(),
        // harnc fixes this: the reference answers 0 for a lazy iterator, silently
        // wrong; its length is only known by consuming it.
        Value::Iter(_) => {
            return Err(VmError::type_error(
                "len() of a lazy iterator is unknown until it is consumed: use .count() (consumes it) or .to_list() first",
            ));
        }
        _ => 0,
    })
}

// ----- assertions -------------------------------------------------------------------

/// The custom message argument if given (its display), else `default()`.
fn message(
    args: &[Value],
    i: usize,
    default: impl FnOnce() -> Result<String, VmError>,
) -> Result<String, VmError> {
    match args.get(i) {
        Some(m) => display(m),
        None => default(),
    }
}

fn assert(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    if arg(args, 0).truthy() {
        return Ok(Value::Nil);
    }
    Err(VmError::thrown_str(message(args, 1, || {
        Ok("Assertion failed".into())
    })?))
}

fn assert_eq(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let [a, b, ..] = args else {
        return Err(VmError::thrown_str(
            "assert_eq requires at least 2 arguments",
        ));
    };
    if equals(a, b)? {
        return Ok(Value::Nil);
    }
    let msg = message(args, 2, || {
        Ok(format!(
            "Assertion failed: expected {}, got {}",
            display(b)?,
            display(a)?
        ))
    })?;
    Err(VmError::thrown_str(msg))
}

fn assert_ne(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let [a, b, ..] = args else {
        return Err(VmError::thrown_str(
            "assert_ne requires at least 2 arguments",
        ));
    };
    if !equals(a, b)? {
        return Ok(Value::Nil);
    }
    let msg = message(args, 2, || {
        Ok(format!(
            "Assertion failed: values should not be equal: {}",
            display(a)?
        ))
    })?;
    Err(VmError::thrown_str(msg))
}

fn unreachable(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Err(VmError::runtime(match args.first() {
        Some(v) => format!("unreachable code was reached: {}", display(v)?),
        None => "unreachable code was reached".to_owned(),
    }))
}

// ----- Result -----------------------------------------------------------------------

fn ok(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::ok(arg(args, 0)))
}

fn err(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::err(arg(args, 0)))
}

fn is_ok(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Bool(arg(args, 0).result_is_ok() == Some(true)))
}

fn is_err(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Bool(arg(args, 0).result_is_ok() == Some(false)))
}

/// The payload of a `Result` variant.
fn payload(v: &Value) -> Value {
    match v {
        Value::Enum(e) => e.fields.first().cloned().unwrap_or_default(),
        _ => Value::Nil,
    }
}

fn unwrap(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let v = arg(args, 0);
    match v.result_is_ok() {
        Some(true) => Ok(payload(&v)),
        Some(false) => Err(VmError::runtime(format!(
            "unwrap called on Err: {}",
            display(&payload(&v))?
        ))),
        None => Ok(v),
    }
}

fn unwrap_or(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let v = arg(args, 0);
    Ok(match v.result_is_ok() {
        Some(true) => payload(&v),
        Some(false) => arg(args, 1),
        None => v,
    })
}

fn unwrap_err(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let v = arg(args, 0);
    match v.result_is_ok() {
        Some(false) => Ok(payload(&v)),
        _ => Err(VmError::runtime("unwrap_err called on non-Err")),
    }
}

fn throw_error(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let mut d = Dict::new();
    d.insert("message", Value::str(text_arg(args, 0)?));
    let category = match args.get(1) {
        Some(c) => text_arg(std::slice::from_ref(c), 0)?,
        None => "generic".into(),
    };
    d.insert("category", Value::str(category));
    Err(VmError::thrown(Value::dict(d)))
}

// ----- constructors -----------------------------------------------------------------

fn range(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let bound = |v: &Value| match v {
        Value::Int(n) => Ok(*n),
        other => Err(VmError::type_error(format!(
            "range: expected an int, got {}",
            other.type_name()
        ))),
    };
    let (start, end) = match args {
        [n] => (0, bound(n)?),
        [a, b, ..] => (bound(a)?, bound(b)?),
        [] => {
            return Err(VmError::type_error(
                "range: expected 1 or 2 int arguments, got 0",
            ));
        }
    };
    Ok(Value::Range(Rc::new(RangeValue {
        start,
        end,
        inclusive: false,
    })))
}

fn set(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let items = match args {
        [Value::List(items)] | [Value::Set(items)] => methods::dedupe(host, items.iter().cloned())?,
        _ => methods::dedupe(host, args.iter().cloned())?,
    };
    Ok(methods::set_value(items))
}

fn pair(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    match args {
        [a, b] => Ok(Value::Pair(Rc::new((a.clone(), b.clone())))),
        _ => Err(VmError::type_error(format!(
            "pair: expected 2 arguments, got {}",
            args.len()
        ))),
    }
}

// ----- registration -----------------------------------------------------------------

pub fn register(b: &mut RegistryBuilder) {
    b.sync("log", log);
    b.sync("println", println);
    b.sync("__io_println", println);
    b.sync("print", print);
    b.sync("eprint", eprint);
    b.sync("eprintln", eprintln);
    b.sync("type_of", type_of);
    b.sync("to_string", to_string);
    b.sync("to_int", to_int);
    b.sync("to_float", to_float);
    b.sync("len", len);
    b.sync("assert", assert);
    b.sync("assert_eq", assert_eq);
    b.sync("assert_ne", assert_ne);
    b.sync("unreachable", unreachable);
    b.sync("Ok", ok);
    b.sync("Err", err);
    b.sync("is_ok", is_ok);
    b.sync("is_err", is_err);
    b.sync("unwrap", unwrap);
    b.sync("unwrap_or", unwrap_or);
    b.sync("unwrap_err", unwrap_err);
    b.sync("throw_error", throw_error);
    b.sync("range", range);
    b.sync("set", set);
    b.sync("pair", pair);
    pure::register(b);
}
