//! `hash_value`: a 64-bit FNV-1a hash, as an int, of a canonical text form of a value,
//! equal for equal values (`language.md` 8.3, `code-mode.md` 4.5).

use std::fmt::Write as _;

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};

use crate::util::{arg, charge};

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(FNV_OFFSET, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(FNV_PRIME)
    })
}

/// The canonical text form: equal values (`language.md` 8.3) give equal text. Numbers
/// are written by value (so `3` and `3.0` agree), strings length-prefixed, dicts in key
/// order, sets as their sorted element hashes.
fn canon(out: &mut String, v: &Value, depth: usize) -> Result<(), VmError> {
    harn_vm::walk::visit(depth)?;
    let d = depth + 1;
    match v {
        Value::Nil => out.push('z'),
        Value::Bool(b) => out.push(if *b { 'T' } else { 'F' }),
        Value::Int(n) => {
            let _ = write!(out, "n{n};");
        }
        Value::Float(x) => {
            if x.is_finite() && *x == x.trunc() && x.abs() < 9.2e18 {
                let _ = write!(out, "n{};", *x as i64);
            } else {
                let _ = write!(out, "f{:x};", x.to_bits());
            }
        }
        Value::Str(s) => {
            let _ = write!(out, "s{}:{s}", s.len());
        }
        Value::Bytes(b) => {
            let _ = write!(out, "b{}:", b.len());
            harn_vm::display::push_hex(out, b);
        }
        Value::List(items) => {
            let _ = write!(out, "l{}[", items.len());
            for item in items.iter() {
                canon(out, item, d)?;
            }
            out.push(']');
        }
        Value::Dict(map) => canon_fields(out, 'd', "", map, d)?,
        Value::Struct(s) => canon_fields(out, 'S', &s.name, &s.fields, d)?,
        Value::Set(items) => {
            let mut hashes = Vec::with_capacity(items.len());
            for item in items.iter() {
                let mut t = String::new();
                canon(&mut t, item, d)?;
                hashes.push(fnv1a(t.as_bytes()));
            }
            hashes.sort_unstable();
            hashes.dedup();
            let _ = write!(out, "e{}[", hashes.len());
            for h in hashes {
                let _ = write!(out, "{h:x},");
            }
            out.push(']');
        }
        Value::Enum(e) => {
            let _ = write!(
                out,
                "E{}:{}.{}:{}(",
                e.enum_name.len(),
                e.enum_name,
                e.variant,
                e.fields.len()
            );
            for f in &e.fields {
                canon(out, f, d)?;
            }
            out.push(')');
        }
        Value::Pair(p) => {
            out.push('p');
            canon(out, &p.0, d)?;
            canon(out, &p.1, d)?;
        }
        Value::Range(r) => {
            let _ = write!(out, "r{}:{}:{}", r.start, r.end, r.inclusive);
        }
        Value::Duration(ms) => {
            let _ = write!(out, "D{ms};");
        }
        other => {
            out.push('o');
            out.push_str(&display(other)?);
        }
    }
    Ok(())
}

fn canon_fields(
    out: &mut String,
    tag: char,
    name: &str,
    map: &Dict,
    d: usize,
) -> Result<(), VmError> {
    let _ = write!(out, "{tag}{}:{name}{}{{", name.len(), map.len());
    for (k, v) in map.iter() {
        let _ = write!(out, "{}:{k}", k.len());
        canon(out, v, d)?;
    }
    out.push('}');
    Ok(())
}

/// FNV-1a 64 of the canonical text form.
pub fn hash_of(v: &Value) -> Result<u64, VmError> {
    let mut t = String::new();
    canon(&mut t, v, 0)?;
    Ok(fnv1a(t.as_bytes()))
}

fn hash_value(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let h = hash_of(arg(args, 0))?;
    charge(host, 1)?;
    Ok(Value::Int(h as i64))
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("hash_value", hash_value);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, i, l, s};
    use std::rc::Rc;

    fn set(items: Vec<Value>) -> Value {
        Value::Set(Rc::new(items))
    }

    #[test]
    fn hashing() {
        let h = |v: Value| hash_of(&v).unwrap();
        assert_eq!(h(i(3)), h(Value::Float(3.0)));
        assert_ne!(h(i(3)), h(s("3")));
        assert_eq!(h(set(vec![i(1), i(2)])), h(set(vec![i(2), i(1)])));
        assert_ne!(h(l(vec![i(1), i(2)])), h(l(vec![i(2), i(1)])));
        assert_ne!(h(l(vec![s("ab"), s("c")])), h(l(vec![s("a"), s("bc")])));
        assert_eq!(
            call(hash_value, &[s("")]),
            (fnv1a(b"s0:") as i64).to_string()
        );
    }
}
