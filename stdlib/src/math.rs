//! Math: trigonometry, logarithms (`ln`, `log_base`, `log2`, `log10`; `log` is the
//! print builtin), `sign`, `clamp`, NaN/infinity tests, the constants
//! `pi()` and `e()` (also plain values: `pi * 2`), `parse_int_or` / `parse_float_or`.
//! The random helpers are in `random.rs`.
//!
//! Unlike the core numeric helpers (which return nil), these throw a type error for a
//! non-number argument: `sin: expected a number, got string`.

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use crate::util::{arg, num_arg};

/// The number `x`, or the type error of builtin `name`.
fn num(name: &str, x: &Value) -> Result<f64, VmError> {
    num_arg(name, std::slice::from_ref(x), 0)
}

macro_rules! unary {
    ($($name:ident => $f:expr),* $(,)?) => {
        $(
            fn $name(x: &Value) -> Result<Value, VmError> {
                let f: fn(f64) -> f64 = $f;
                Ok(Value::Float(f(num(stringify!($name), x)?)))
            }
        )*
    };
}

unary! {
    sin => f64::sin,
    cos => f64::cos,
    tan => f64::tan,
    asin => f64::asin,
    acos => f64::acos,
    atan => f64::atan,
    sinh => f64::sinh,
    cosh => f64::cosh,
    tanh => f64::tanh,
    exp => f64::exp,
    log2 => f64::log2,
    log10 => f64::log10,
    cbrt => f64::cbrt,
}

/// `ln(x)`: the natural logarithm (`log` is the print builtin).
fn ln(x: &Value) -> Result<Value, VmError> {
    Ok(Value::Float(num("ln", x)?.ln()))
}

/// `log_base(x, base)`.
fn log_base(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let x = num_arg("log_base", args, 0)?;
    Ok(Value::Float(x.log(num_arg("log_base", args, 1)?)))
}

fn atan2(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let y = num_arg("atan2", args, 0)?;
    let x = num_arg("atan2", args, 1)?;
    Ok(Value::Float(y.atan2(x)))
}

fn hypot(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Float(
        num_arg("hypot", args, 0)?.hypot(num_arg("hypot", args, 1)?),
    ))
}

fn sign(x: &Value) -> Result<Value, VmError> {
    match x {
        Value::Int(n) => Ok(Value::Int(n.signum())),
        Value::Float(x) => Ok(Value::Float(if x.is_nan() || *x == 0.0 {
            *x
        } else {
            x.signum()
        })),
        _ => num("sign", x).map(|_| Value::Nil),
    }
}

fn trunc(x: &Value) -> Result<Value, VmError> {
    match x {
        Value::Int(n) => Ok(Value::Int(*n)),
        _ => Ok(Value::Int(num("trunc", x)?.trunc() as i64)),
    }
}

fn is_nan(x: &Value) -> Result<Value, VmError> {
    Ok(Value::Bool(num("is_nan", x)?.is_nan()))
}

fn is_infinite(x: &Value) -> Result<Value, VmError> {
    Ok(Value::Bool(num("is_infinite", x)?.is_infinite()))
}

fn is_finite(x: &Value) -> Result<Value, VmError> {
    Ok(Value::Bool(num("is_finite", x)?.is_finite()))
}

/// `clamp(x, lo, hi)`: an int when all three are ints, else a float.
fn clamp(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    if let [Value::Int(x), Value::Int(lo), Value::Int(hi), ..] = args {
        return Ok(Value::Int((*x).max(*lo).min(*hi)));
    }
    let x = num_arg("clamp", args, 0)?;
    let lo = num_arg("clamp", args, 1)?;
    let hi = num_arg("clamp", args, 2)?;
    Ok(Value::Float(x.max(lo).min(hi)))
}

fn pi(_: &mut dyn Host, _: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Float(std::f64::consts::PI))
}

fn e(_: &mut dyn Host, _: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Float(std::f64::consts::E))
}

/// `to_int(v) ?? default`.
fn parse_int_or(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let parsed = match arg(args, 0) {
        Value::Int(n) => Some(*n),
        Value::Float(x) => Some(*x as i64),
        Value::Str(s) => s.parse::<i64>().ok(),
        _ => None,
    };
    Ok(parsed.map_or_else(|| arg(args, 1).clone(), Value::Int))
}

/// `to_float(v) ?? default`.
fn parse_float_or(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let parsed = match arg(args, 0) {
        v @ (Value::Int(_) | Value::Float(_)) => v.as_f64(),
        Value::Str(s) => s.parse::<f64>().ok(),
        _ => None,
    };
    Ok(parsed.map_or_else(|| arg(args, 1).clone(), Value::Float))
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("atan2", atan2),
        ("log_base", log_base),
        ("hypot", hypot),
        ("clamp", clamp),
        ("pi", pi),
        ("e", e),
        ("parse_int_or", parse_int_or),
        ("parse_float_or", parse_float_or),
    ];
    b.sync_table(table);
    let numbers: &[(&'static str, harn_vm::native::NumberFn)] = &[
        ("sin", sin),
        ("cos", cos),
        ("tan", tan),
        ("asin", asin),
        ("acos", acos),
        ("atan", atan),
        ("sinh", sinh),
        ("cosh", cosh),
        ("tanh", tanh),
        ("exp", exp),
        ("ln", ln),
        ("log2", log2),
        ("log10", log10),
        ("cbrt", cbrt),
        ("sign", sign),
        ("trunc", trunc),
        ("is_nan", is_nan),
        ("is_infinite", is_infinite),
        ("is_finite", is_finite),
    ];
    for &(name, f) in numbers {
        b.number(name, f);
    }
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
    use crate::test_host::{call, call_number, call_number_err, i, s};

    #[test]
    fn basics() {
        assert_eq!(call(atan2, &[i(1), i(1)]), "0.7853981633974483");
        assert_eq!(call_number(sign, &i(-5)), "-1");
        assert_eq!(call_number(sign, &Value::Float(2.5)), "1.0");
        assert_eq!(call_number(is_nan, &Value::Float(f64::NAN)), "true");
        assert_eq!(call_number(is_infinite, &i(3)), "false");
        assert_eq!(call(clamp, &[i(15), i(0), i(10)]), "10");
        assert_eq!(call(clamp, &[Value::Float(-1.5), i(0), i(10)]), "0.0");
        assert_eq!(call(log_base, &[i(8), i(2)]), "3.0");
        assert_eq!(call_number(ln, &i(1)), "0.0");
        assert_eq!(call_number(exp, &i(0)), "1.0");
        assert_eq!(call(pi, &[]), "3.141592653589793");
        assert_eq!(call(parse_int_or, &[s("42"), i(0)]), "42");
        assert_eq!(call(parse_int_or, &[s("4.2"), i(-1)]), "-1");
        assert_eq!(call(parse_float_or, &[s("4.5"), i(0)]), "4.5");
        assert_eq!(call(parse_float_or, &[s("x"), Value::Nil]), "nil");
        assert_eq!(
            call_number_err(sin, &s("x")),
            "Type error: sin: expected a number, got string"
        );
    }
}
