//! The frequently used pure builtins of `language.md` 9.2: numeric helpers, dict views
//! and string helpers. String helpers coerce their arguments with display; numeric
//! helpers return `nil` for non-numbers.

use std::rc::Rc;

use crate::error::VmError;
use crate::methods::{self, charge, check_size, int_arg, text_arg};
use crate::native::Host;
use crate::registry::RegistryBuilder;
use crate::value::{Dict, Value};

use super::arg;

// ----- numbers ----------------------------------------------------------------------

/// `min`/`max`: at least two numbers, a float if any is a float; anything else is nil.
pub(super) fn extreme(args: &[Value], want_max: bool) -> Value {
    if args.len() < 2
        || !args
            .iter()
            .all(|v| matches!(v, Value::Int(_) | Value::Float(_)))
    {
        return Value::Nil;
    }
    if args.iter().all(|v| matches!(v, Value::Int(_))) {
        let ints = args.iter().filter_map(|v| {
            if let Value::Int(n) = v {
                Some(*n)
            } else {
                None
            }
        });
        let best = if want_max { ints.max() } else { ints.min() };
        return best.map_or(Value::Nil, Value::Int);
    }
    let mut floats = args.iter().filter_map(Value::as_f64);
    let Some(first) = floats.next() else {
        return Value::Nil;
    };
    Value::Float(floats.fold(
        first,
        |acc, x| if want_max { acc.max(x) } else { acc.min(x) },
    ))
}

pub(super) fn min(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(extreme(args, false))
}

pub(super) fn max(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(extreme(args, true))
}

pub(super) fn abs(x: &Value) -> Result<Value, VmError> {
    Ok(match x {
        Value::Int(n) => Value::Int(n.wrapping_abs()),
        Value::Float(x) => Value::Float(x.abs()),
        _ => Value::Nil,
    })
}

/// `floor`/`ceil`/`round`: an int result (saturating; NaN gives 0).
pub(super) fn to_whole(x: &Value, f: fn(f64) -> f64) -> Value {
    match x {
        Value::Int(n) => Value::Int(*n),
        Value::Float(x) => Value::Int(f(*x) as i64),
        _ => Value::Nil,
    }
}

pub(super) fn floor(x: &Value) -> Result<Value, VmError> {
    Ok(to_whole(x, f64::floor))
}

pub(super) fn ceil(x: &Value) -> Result<Value, VmError> {
    Ok(to_whole(x, f64::ceil))
}

/// `round(x)`: the nearest int, halves away from zero. `round(x, digits)`: a float
/// rounded at that many decimal digits (negative: tens, hundreds, ...); an int stays an
/// int, rounded to a power of ten when `digits` is negative.
pub(super) fn round(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let digits = match args.get(1) {
        None | Some(Value::Nil) => {
            return Ok(to_whole(args.first().unwrap_or(&Value::Nil), f64::round));
        }
        Some(Value::Int(d)) => (*d).clamp(-18, 18) as i32,
        Some(other) => {
            return Err(VmError::type_error(format!(
                "round(value, digits): digits must be an integer, got {}",
                other.type_name()
            )));
        }
    };
    Ok(match args.first() {
        Some(Value::Int(n)) if digits >= 0 => Value::Int(*n),
        Some(Value::Int(n)) => {
            let unit = 10i64.pow(digits.unsigned_abs());
            let q = n / unit;
            let r = n % unit;
            let q = if r.abs() * 2 >= unit {
                q + n.signum()
            } else {
                q
            };
            Value::Int(q.saturating_mul(unit))
        }
        Some(Value::Float(x)) => {
            let scale = 10f64.powi(digits);
            let scaled = x * scale;
            // Round the decimal the user sees (1.25 → 1.3), not its binary neighbour.
            let nudged = format!("{scaled:.9}").parse::<f64>().unwrap_or(scaled);
            Value::Float(nudged.round() / scale)
        }
        _ => Value::Nil,
    })
}

pub(super) fn sqrt(x: &Value) -> Result<Value, VmError> {
    Ok(match x {
        Value::Int(_) | Value::Float(_) => Value::Float(x.as_f64().unwrap_or(0.0).sqrt()),
        _ => Value::Nil,
    })
}

pub(super) fn pow(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(match args {
        [Value::Int(b), Value::Int(e), ..] => match u32::try_from(*e) {
            Ok(e) => Value::Int(b.wrapping_pow(e)),
            Err(_) => Value::Float((*b as f64).powf(*e as f64)),
        },
        [Value::Float(b), Value::Int(e), ..] => match i32::try_from(*e) {
            Ok(e) => Value::Float(b.powi(e)),
            Err(_) => Value::Float(b.powf(*e as f64)),
        },
        [b @ (Value::Int(_) | Value::Float(_)), Value::Float(e), ..] => {
            Value::Float(b.as_f64().unwrap_or(0.0).powf(*e))
        }
        _ => Value::Nil,
    })
}

// ----- dicts ------------------------------------------------------------------------

/// The dict argument of `keys`/`values`/`entries` (`nil` counts as empty).
pub(super) fn dict_arg(name: &str, args: &[Value]) -> Result<Rc<Dict>, VmError> {
    match args.first() {
        Some(Value::Dict(d)) => Ok(Rc::clone(d)),
        None | Some(Value::Nil) => Ok(Rc::new(Dict::new())),
        Some(other) => Err(VmError::type_error(format!(
            "{name}: expected dict, got {}",
            other.type_name()
        ))),
    }
}

pub(super) fn keys(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    methods::dict_keys(host, &*dict_arg("keys", args)?)
}

pub(super) fn values(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    methods::dict_values(host, &*dict_arg("values", args)?)
}

pub(super) fn entries(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    methods::dict_entries(host, &*dict_arg("entries", args)?)
}

// ----- strings ----------------------------------------------------------------------

pub(super) fn contains(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let needle = arg(args, 1);
    Ok(Value::Bool(match args.first() {
        Some(Value::Str(s)) => {
            charge(host, s.len() / 64)?;
            crate::search::contains(s, &text_arg(args, 1)?)
        }
        Some(Value::List(items) | Value::Set(items)) => {
            charge(host, items.len())?;
            crate::value::contains(items, &needle)?
        }
        _ => false,
    }))
}

pub(super) fn split(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text_arg(args, 0)?;
    charge(host, s.len() / 64)?;
    let sep = if args.len() > 1 {
        text_arg(args, 1)?
    } else {
        " ".into()
    };
    methods::split_str(host, &s, &sep)
}

pub(super) fn join(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let Some(Value::List(items)) = args.first() else {
        return Ok(Value::str(""));
    };
    charge(host, items.len())?;
    let sep = text_arg(args, 1)?;
    let mut out = String::new();
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(&sep);
        }
        crate::display::write_display(&mut out, item)?;
        check_size(host, out.len(), "join")?;
    }
    Ok(Value::str(out))
}

pub(super) fn replace(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text_arg(args, 0)?;
    let from = text_arg(args, 1)?;
    let to = text_arg(args, 2)?;
    charge(host, s.len() / 16 + 1)?;
    let bound = s
        .len()
        .saturating_add(s.len().saturating_add(1).saturating_mul(to.len()));
    if from.is_empty() || crate::search::contains(&s, &from) {
        check_size(host, bound, "replace")?;
    }
    Ok(match crate::search::replace(&s, &from, &to) {
        Some(replaced) => Value::str(replaced),
        None => match args.first() {
            // Nothing to replace: the argument itself, not a copy of it.
            Some(original @ Value::Str(_)) => original.clone(),
            _ => Value::str(s),
        },
    })
}

pub(super) fn trim(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(text_arg(args, 0)?.trim()))
}

pub(super) fn lowercase(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(text_arg(args, 0)?.to_lowercase()))
}

pub(super) fn uppercase(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(text_arg(args, 0)?.to_uppercase()))
}

pub(super) fn starts_with(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Bool(
        text_arg(args, 0)?.starts_with(&*text_arg(args, 1)?),
    ))
}

pub(super) fn ends_with(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Bool(
        text_arg(args, 0)?.ends_with(&*text_arg(args, 1)?),
    ))
}

/// `substring(s, start, length?)`: as in the reference, the third argument is a
/// **length** (not an end index); a negative start counts as 0; both are clamped.
pub(super) fn substring(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    // The string itself, not a copy: its character positions are remembered by identity.
    let s = match args.first() {
        Some(Value::Str(s)) => Rc::clone(s),
        _ => Rc::new(text_arg(args, 0)?.into_owned()),
    };
    let start = int_arg(args, 1).unwrap_or(0);
    let end = int_arg(args, 2).map(|n| start.max(0).saturating_add(n.max(0)));
    Ok(Value::str(methods::char_range(&s, start, end)))
}

pub(super) fn register(b: &mut RegistryBuilder) {
    b.sync("min", min);
    b.sync("max", max);
    b.number("abs", abs);
    b.number("floor", floor);
    b.number("ceil", ceil);
    b.sync("round", round);
    b.number("sqrt", sqrt);
    b.sync("pow", pow);
    b.sync("keys", keys);
    b.sync("values", values);
    b.sync("entries", entries);
    b.sync("contains", contains);
    b.sync("split", split);
    b.sync("join", join);
    b.sync("replace", replace);
    b.sync("trim", trim);
    b.sync("lowercase", lowercase);
    b.sync("uppercase", uppercase);
    b.sync("starts_with", starts_with);
    b.sync("ends_with", ends_with);
    b.sync("substring", substring);
}
