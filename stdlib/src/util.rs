//! Argument helpers shared by the builtin modules.

use std::rc::Rc;

use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::{Value, VmError};

pub use harn_vm::native::{MAX_BUILD, charge, check_len, check_size};

/// The `i`-th argument, `nil` when absent.
pub fn arg(args: &[Value], i: usize) -> &Value {
    args.get(i).unwrap_or(harn_vm::value::nil())
}

/// The display of the `i`-th argument (`""` when absent): the usual string coercion.
pub fn text(args: &[Value], i: usize) -> Result<String, VmError> {
    match args.get(i) {
        Some(Value::Str(s)) => Ok(s.as_str().to_owned()),
        Some(v) => display(v),
        None => Ok(String::new()),
    }
}

/// `name: expected <what>, got <type>` as a type error.
pub fn type_err(name: &str, what: &str, got: &Value) -> VmError {
    VmError::type_error(format!("{name}: expected {what}, got {}", got.type_name()))
}

/// The `i`-th argument, which must be a string.
pub fn str_arg<'a>(name: &str, args: &'a [Value], i: usize) -> Result<&'a str, VmError> {
    match arg(args, i) {
        Value::Str(s) => Ok(s.as_str()),
        other => Err(type_err(name, "string", other)),
    }
}

/// The `i`-th argument, which must be an int.
pub fn int_arg(name: &str, args: &[Value], i: usize) -> Result<i64, VmError> {
    match arg(args, i) {
        Value::Int(n) => Ok(*n),
        other => Err(type_err(name, "int", other)),
    }
}

/// The `i`-th argument as a number.
pub fn num_arg(name: &str, args: &[Value], i: usize) -> Result<f64, VmError> {
    match arg(args, i) {
        v @ (Value::Int(_) | Value::Float(_)) => Ok(v.as_f64().unwrap_or(0.0)),
        other => Err(type_err(name, "a number", other)),
    }
}

/// The elements of a list, set or range argument.
pub fn items_arg(name: &str, args: &[Value], i: usize) -> Result<Rc<Vec<Value>>, VmError> {
    match arg(args, i) {
        Value::List(l) | Value::Set(l) => Ok(Rc::clone(l)),
        Value::Range(r) => {
            let n = usize::try_from(r.len()).unwrap_or(0);
            if n > MAX_BUILD {
                return Err(harn_vm::native::too_large(
                    name,
                    u128::from(r.len().unsigned_abs()),
                ));
            }
            Ok(Rc::new(
                (0..r.len()).map(|k| Value::Int(r.start + k)).collect(),
            ))
        }
        other => Err(type_err(name, "list", other)),
    }
}

/// The lists in arguments 0 and 1 of builtin `name`, zipped to the shorter one, each
/// pair of items made into one value by `pair` (`zip` makes a list, `stream.zip` a pair).
pub fn zip_args(
    name: &str,
    args: &[Value],
    pair: fn(Value, Value) -> Value,
) -> Result<Value, VmError> {
    let a = items_arg(name, args, 0)?;
    let b = items_arg(name, args, 1)?;
    Ok(Value::list(
        a.iter()
            .zip(b.iter())
            .map(|(x, y)| pair(x.clone(), y.clone()))
            .collect(),
    ))
}

/// The `i`-th argument, which must be callable.
pub fn fn_arg<'a>(name: &str, args: &'a [Value], i: usize) -> Result<&'a Value, VmError> {
    match arg(args, i) {
        v @ (Value::Closure(_) | Value::Builtin(_)) => Ok(v),
        other => Err(type_err(name, "a function", other)),
    }
}

/// A usize as an i64 (saturating).
pub fn as_i64(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Builds a set value from items, dropping duplicates (structural equality: `1` and
/// `1.0` are one element), found by hashing: one unit of fuel per item.
pub fn make_set(
    host: &mut dyn Host,
    items: impl IntoIterator<Item = Value>,
) -> Result<Value, VmError> {
    Ok(Value::Set(Rc::new(harn_vm::methods::dedupe_equal(
        host, items,
    )?)))
}
