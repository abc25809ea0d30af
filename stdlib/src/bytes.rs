//! The `bytes_*` family (`Value::Bytes`). Text encodings are in `encodings.rs`, digests in
//! `digest.rs`.
//!
//! Text inputs are coerced with display; a bytes value is used as its raw bytes.
//! Decoding failures throw strings such as `base64_decode: invalid base64 input`.

use std::rc::Rc;

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use crate::encodings::{b64_decode, b64_encode, hex_of, unhex};
use crate::util::{arg, as_i64, check_size, type_err};

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

fn utf8(name: &str, data: Vec<u8>) -> Result<Value, VmError> {
    String::from_utf8(data)
        .map(Value::str)
        .map_err(|_| VmError::thrown_str(format!("{name}: decoded data is not valid UTF-8")))
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
