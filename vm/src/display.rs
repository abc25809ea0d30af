//! The value-to-text conversion used by `log`, `println`, `print`, `to_string` and string
//! interpolation (`language.md` 2.2).

use std::fmt::Write as _;

use crate::builtin_names::name as builtin_name;
use crate::error::VmError;
use crate::value::Value;

/// `display(value)`.
pub fn display(v: &Value) -> Result<String, VmError> {
    let mut out = String::new();
    write_display(&mut out, v)?;
    Ok(out)
}

/// Appends `display(value)` to `out`.
///
/// A string or an int (nearly every part of an interpolation) is written here, with its
/// one walk step, rather than through the depth-checked walk below: that walk cost over
/// a hundred instructions a part.
#[inline]
pub fn write_display(out: &mut String, v: &Value) -> Result<(), VmError> {
    match v {
        Value::Str(s) => {
            crate::walk::step()?;
            out.push_str(s);
            Ok(())
        }
        Value::Int(n) => {
            crate::walk::step()?;
            out.push_str(itoa::Buffer::new().format(*n));
            Ok(())
        }
        _ => write_at(out, v, 0),
    }
}

/// Whether `v` holds no other value, so that [`write_scalar`] writes it.
#[inline]
pub(crate) fn is_scalar(v: &Value) -> bool {
    matches!(
        v,
        Value::Nil
            | Value::Bool(_)
            | Value::Int(_)
            | Value::Float(_)
            | Value::Duration(_)
            | Value::Str(_)
    )
}

/// Appends the text of a value that holds no other value (see [`is_scalar`]) and
/// answers true; anything else is left to the walk (false). Writing cannot fail, and the
/// walk step is the caller's to count.
#[inline]
pub(crate) fn write_scalar(out: &mut String, v: &Value) -> bool {
    match v {
        Value::Nil => out.push_str("nil"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // `itoa`, not `write!`: interpolating ints is the common case of string building.
        Value::Int(n) => out.push_str(itoa::Buffer::new().format(*n)),
        Value::Float(x) => out.push_str(&format_float(*x)),
        Value::Duration(ms) => out.push_str(&format_duration(*ms)),
        Value::Str(s) => out.push_str(s),
        _ => return false,
    }
    true
}

/// A float as the reference prints it: one decimal place for integral values below
/// 10^15, otherwise the shortest round-trip digits, never with an exponent.
/// Appends `bytes` as lowercase hex, two digits a byte: the one spelling of bytes in
/// display, set keys and canonical hash text.
pub fn push_hex(out: &mut String, bytes: &[u8]) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    out.reserve(bytes.len() * 2);
    for &byte in bytes {
        out.push(char::from(DIGITS[usize::from(byte >> 4)]));
        out.push(char::from(DIGITS[usize::from(byte & 15)]));
    }
}

pub fn format_float(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == (x as i64) as f64 && x.abs() < 1e15 {
        format!("{x:.1}")
    } else {
        format!("{x}")
    }
}

/// A duration in the largest unit among h, m, s that divides it exactly, else ms.
pub fn format_duration(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let abs = ms.unsigned_abs();
    let (n, unit) = if abs >= 3_600_000 && abs.is_multiple_of(3_600_000) {
        (abs / 3_600_000, "h")
    } else if abs >= 60_000 && abs.is_multiple_of(60_000) {
        (abs / 60_000, "m")
    } else if abs >= 1_000 && abs.is_multiple_of(1_000) {
        (abs / 1_000, "s")
    } else {
        (abs, "ms")
    };
    format!("{sign}{n}{unit}")
}

fn write_list(out: &mut String, items: &[Value], depth: usize) -> Result<(), VmError> {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_at(out, item, depth + 1)?;
    }
    Ok(())
}

fn write_at(out: &mut String, v: &Value, depth: usize) -> Result<(), VmError> {
    crate::walk::with_room(depth, || write_at_frame(out, v, depth))
}

fn write_at_frame(out: &mut String, v: &Value, depth: usize) -> Result<(), VmError> {
    crate::walk::visit(depth)?;
    if write_scalar(out, v) {
        return Ok(());
    }
    match v {
        Value::Nil
        | Value::Bool(_)
        | Value::Int(_)
        | Value::Float(_)
        | Value::Duration(_)
        | Value::Str(_) => {}
        Value::List(items) => {
            out.push('[');
            write_list(out, items, depth)?;
            out.push(']');
        }
        Value::Dict(d) => {
            out.push('{');
            for (i, (k, v)) in d.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(k);
                out.push_str(": ");
                write_at(out, v, depth + 1)?;
            }
            out.push('}');
        }
        Value::Set(items) => {
            out.push_str("set(");
            write_list(out, items, depth)?;
            out.push(')');
        }
        Value::Range(r) => {
            let _ = write!(out, "{} to {}", r.start, r.end);
            if !r.inclusive {
                out.push_str(" exclusive");
            }
        }
        Value::Closure(c) => {
            out.push_str("<fn(");
            out.push_str(&c.function.proto.param_names.join(", "));
            out.push_str(")>");
        }
        Value::Builtin(id) => {
            let _ = write!(out, "<builtin {}>", builtin_name(*id));
        }
        Value::Enum(e) => {
            out.push_str(&e.enum_name);
            out.push('.');
            out.push_str(&e.variant);
            if !e.fields.is_empty() {
                out.push('(');
                write_list(out, &e.fields, depth)?;
                out.push(')');
            }
        }
        Value::Struct(s) => {
            out.push_str(&s.name);
            out.push_str(" {");
            for (i, (k, v)) in s.fields.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(k);
                out.push_str(": ");
                write_at(out, v, depth + 1)?;
            }
            out.push('}');
        }
        Value::Pair(p) => {
            out.push('(');
            write_at(out, &p.0, depth + 1)?;
            out.push_str(", ");
            write_at(out, &p.1, depth + 1)?;
            out.push(')');
        }
        Value::Iter(it) => out.push_str(if crate::iter::is_generator(it) {
            "<generator>"
        } else if crate::iter::is_exhausted(it) {
            "<iter (exhausted)>"
        } else {
            "<iter>"
        }),
        Value::Bytes(b) => {
            out.push_str("b\"");
            push_hex(out, &b[..b.len().min(32)]);
            if b.len() > 32 {
                let _ = write!(out, "...+{}", b.len() - 32);
            }
            out.push('"');
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::push_hex;
    use std::fmt::Write as _;

    /// `push_hex` spells every byte as `{:02x}` does, after what the text already holds.
    #[test]
    fn hex_is_two_lowercase_digits_a_byte() {
        let bytes: Vec<u8> = (0..=255).collect();
        let mut expected = String::from("x:");
        for byte in &bytes {
            write!(expected, "{byte:02x}").unwrap();
        }
        let mut out = String::from("x:");
        push_hex(&mut out, &bytes);
        assert_eq!(out, expected);
    }
}
