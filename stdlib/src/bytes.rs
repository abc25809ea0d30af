//! Encodings and bytes: `base64_*`, `hex_*` (on strings) and the `bytes_*` family
//! (`Value::Bytes`). Digests are in `digest.rs`.
//!
//! Text inputs are coerced with display; a bytes value is used as its raw bytes.
//! Decoding failures throw strings such as `base64_decode: invalid base64 input`.

use std::rc::Rc;

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use crate::util::{arg, as_i64, charge, check_size, type_err};

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// The raw bytes of an argument: bytes as themselves, anything else as its display.
pub fn raw(args: &[Value], i: usize) -> Result<Vec<u8>, VmError> {
    match arg(args, i) {
        Value::Bytes(b) => Ok(b.to_vec()),
        Value::Str(s) => Ok(s.as_bytes().to_vec()),
        Value::Nil if args.len() <= i => Ok(Vec::new()),
        other => Ok(display(other)?.into_bytes()),
    }
}

fn bytes_arg(name: &str, args: &[Value], i: usize) -> Result<Rc<Vec<u8>>, VmError> {
    match arg(args, i) {
        Value::Bytes(b) => Ok(Rc::clone(b)),
        other => Err(type_err(name, "bytes", other)),
    }
}

pub fn b64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(B64[((n >> (18 - 6 * k)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Decodes standard or URL-safe base64; padding optional, ASCII whitespace ignored.
pub fn b64_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc: u32 = 0;
    let mut bits = 0;
    let mut padding = false;
    for c in s.bytes() {
        if c.is_ascii_whitespace() {
            continue;
        }
        if c == b'=' {
            padding = true;
            continue;
        }
        if padding {
            return None;
        }
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    (bits < 6).then_some(out)
}

pub fn hex_of(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len() * 2);
    for b in data {
        out.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
        out.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
    }
    out
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    let s = s.strip_prefix("0x").unwrap_or(s);
    if !s.len().is_multiple_of(2) {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    s.as_bytes()
        .chunks(2)
        .map(|p| Some(digit(p[0])? << 4 | digit(p[1])?))
        .collect()
}

fn utf8(name: &str, data: Vec<u8>) -> Result<Value, VmError> {
    String::from_utf8(data)
        .map(Value::str)
        .map_err(|_| VmError::thrown_str(format!("{name}: decoded data is not valid UTF-8")))
}

fn base64_encode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = raw(args, 0)?;
    charge(host, data.len() / 64 + 1)?;
    check_size(host, data.len() * 2, "base64_encode")?;
    Ok(Value::str(b64_encode(&data)))
}

fn base64_decode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = String::from_utf8_lossy(&raw(args, 0)?).into_owned();
    charge(host, s.len() / 64 + 1)?;
    let data =
        b64_decode(&s).ok_or_else(|| VmError::thrown_str("base64_decode: invalid base64 input"))?;
    utf8("base64_decode", data)
}

fn hex_encode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = raw(args, 0)?;
    charge(host, data.len() / 64 + 1)?;
    check_size(host, data.len() * 2, "hex_encode")?;
    Ok(Value::str(hex_of(&data)))
}

fn hex_decode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = String::from_utf8_lossy(&raw(args, 0)?).into_owned();
    charge(host, s.len() / 64 + 1)?;
    let data = unhex(&s).ok_or_else(|| VmError::thrown_str("hex_decode: invalid hex input"))?;
    utf8("hex_decode", data)
}

fn bytes_from_string(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Bytes(Rc::new(raw(args, 0)?)))
}

fn bytes_to_string(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let b = bytes_arg("bytes_to_string", args, 0)?;
    utf8("bytes_to_string", b.to_vec())
}

fn bytes_from_hex(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = String::from_utf8_lossy(&raw(args, 0)?).into_owned();
    let data = unhex(&s).ok_or_else(|| VmError::thrown_str("bytes_from_hex: invalid hex input"))?;
    Ok(Value::Bytes(Rc::new(data)))
}

fn bytes_to_hex(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(hex_of(&bytes_arg("bytes_to_hex", args, 0)?)))
}

fn bytes_from_base64(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = String::from_utf8_lossy(&raw(args, 0)?).into_owned();
    let data = b64_decode(&s)
        .ok_or_else(|| VmError::thrown_str("bytes_from_base64: invalid base64 input"))?;
    Ok(Value::Bytes(Rc::new(data)))
}

fn bytes_to_base64(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(b64_encode(&bytes_arg(
        "bytes_to_base64",
        args,
        0,
    )?)))
}

fn bytes_len(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Int(as_i64(bytes_arg("bytes_len", args, 0)?.len())))
}

fn bytes_concat(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let mut out = bytes_arg("bytes_concat", args, 0)?.to_vec();
    out.extend_from_slice(&bytes_arg("bytes_concat", args, 1)?);
    check_size(host, out.len(), "bytes_concat")?;
    Ok(Value::Bytes(Rc::new(out)))
}

fn bytes_slice(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let b = bytes_arg("bytes_slice", args, 0)?;
    let len = b.len();
    let bound = |v: &Value, default: usize| -> Result<usize, VmError> {
        match v {
            Value::Nil => Ok(default),
            Value::Int(n) if *n < 0 => {
                Ok(len.saturating_sub(usize::try_from(n.unsigned_abs()).unwrap_or(len)))
            }
            Value::Int(n) => Ok(usize::try_from(*n).unwrap_or(len).min(len)),
            other => Err(type_err("bytes_slice", "int", other)),
        }
    };
    let start = bound(arg(args, 1), 0)?;
    let end = bound(arg(args, 2), len)?.max(start);
    Ok(Value::Bytes(Rc::new(b[start..end].to_vec())))
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("base64_encode", base64_encode),
        ("base64_decode", base64_decode),
        ("hex_encode", hex_encode),
        ("hex_decode", hex_decode),
        ("bytes_from_string", bytes_from_string),
        ("bytes_to_string", bytes_to_string),
        ("bytes_from_hex", bytes_from_hex),
        ("bytes_to_hex", bytes_to_hex),
        ("bytes_from_base64", bytes_from_base64),
        ("bytes_to_base64", bytes_to_base64),
        ("bytes_len", bytes_len),
        ("bytes_concat", bytes_concat),
        ("bytes_slice", bytes_slice),
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
    use crate::test_host::{call, call_err, i, s};

    #[test]
    fn encodings() {
        assert_eq!(call(base64_encode, &[s("hello")]), "aGVsbG8=");
        assert_eq!(call(base64_encode, &[s("")]), "");
        assert_eq!(call(base64_encode, &[s("ab")]), "YWI=");
        assert_eq!(call(base64_decode, &[s("aGVsbG8=")]), "hello");
        assert_eq!(call(base64_decode, &[s("aGVsbG8")]), "hello");
        assert_eq!(call(hex_encode, &[s("hi")]), "6869");
        assert_eq!(call(hex_decode, &[s("6869")]), "hi");
        assert_eq!(
            call_err(hex_decode, &[s("6")]),
            "Thrown: hex_decode: invalid hex input"
        );
        assert_eq!(
            call_err(base64_decode, &[s("a$")]),
            "Thrown: base64_decode: invalid base64 input"
        );
    }

    #[test]
    fn bytes_values() {
        let b = call(bytes_from_string, &[s("hello")]);
        assert_eq!(b, "b\"68656c6c6f\"");
        let v = bytes_from_hex(&mut crate::test_host::TestHost::new(), &[s("68690a")]).unwrap();
        assert_eq!(call(bytes_len, &[v.clone()]), "3");
        assert_eq!(call(bytes_to_string, &[v.clone()]), "hi\n");
        assert_eq!(call(bytes_to_hex, &[v.clone()]), "68690a");
        assert_eq!(call(bytes_slice, &[v.clone(), i(-2)]), "b\"690a\"");
        assert_eq!(
            call_err(bytes_len, &[s("x")]),
            "Type error: bytes_len: expected bytes, got string"
        );
        let bad = bytes_from_hex(&mut crate::test_host::TestHost::new(), &[s("ff")]).unwrap();
        assert!(call_err(bytes_to_string, &[bad]).contains("not valid UTF-8"));
    }
}
