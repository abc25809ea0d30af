//! gzip on `flate2`: `gzip_encode` (deterministic: no name, mtime 0) and `gzip_decode`,
//! which streams and stops at the smallest of the run's string cap, the largest value
//! size and the caller's `max_decompressed_bytes`, so a small bomb never becomes a large
//! allocation.

use std::io::{Read, Write};
use std::rc::Rc;

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use harn_vm::VmError;
use harn_vm::native::{Host, MAX_BUILD};
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use crate::bytes::raw;
use crate::util::{arg, charge, check_size};

/// The reference's default ceiling on a decompressed body.
const DEFAULT_MAX_DECOMPRESSED: usize = 100 * 1024 * 1024;

fn thrown(name: &str, msg: impl std::fmt::Display) -> VmError {
    VmError::thrown_str(format!("{name}: {msg}"))
}

fn gzip_encode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = match arg(args, 0) {
        Value::Bytes(_) | Value::Str(_) => raw(args, 0)?,
        Value::Nil if args.is_empty() => return Err(thrown("gzip_encode", "missing argument 1")),
        other => {
            return Err(thrown(
                "gzip_encode",
                format!(
                    "expected bytes or string at argument 1, got {}",
                    other.type_name()
                ),
            ));
        }
    };
    let level = match arg(args, 1) {
        Value::Nil => 6,
        Value::Int(n) if (0..=9).contains(n) => u32::try_from(*n).unwrap_or(6),
        Value::Int(n) => {
            return Err(thrown(
                "gzip_encode",
                format!("level must be between 0 and 9, got {n}"),
            ));
        }
        other => {
            return Err(thrown(
                "gzip_encode",
                format!("level must be an int, got {}", other.type_name()),
            ));
        }
    };
    charge(host, data.len() / 16 + 1)?;
    // Stored blocks (level 0, incompressible data) add a few bytes per 64 KiB.
    check_size(host, data.len() + data.len() / 1024 + 64, "gzip_encode")?;
    let mut enc = GzEncoder::new(Vec::new(), Compression::new(level));
    enc.write_all(&data)
        .and_then(|()| enc.finish())
        .map(|out| Value::Bytes(Rc::new(out)))
        .map_err(|e| thrown("gzip_encode", e))
}

/// `max_decompressed_bytes` (or `maxDecompressedBytes`) from the options dict.
fn max_decompressed(v: &Value) -> Result<usize, VmError> {
    let d = match v {
        Value::Nil => return Ok(DEFAULT_MAX_DECOMPRESSED),
        Value::Dict(d) => d,
        other => {
            return Err(thrown(
                "gzip_decode",
                format!("options must be a dict, got {}", other.type_name()),
            ));
        }
    };
    match d
        .get("max_decompressed_bytes")
        .or_else(|| d.get("maxDecompressedBytes"))
    {
        None | Some(Value::Nil) => Ok(DEFAULT_MAX_DECOMPRESSED),
        Some(Value::Int(n)) if *n > 0 => Ok(usize::try_from(*n).unwrap_or(usize::MAX)),
        Some(_) => Err(thrown(
            "gzip_decode",
            "max_decompressed_bytes must be a positive integer",
        )),
    }
}

fn gzip_decode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = match arg(args, 0) {
        Value::Bytes(b) => Rc::clone(b),
        Value::Nil if args.is_empty() => return Err(thrown("gzip_decode", "missing argument 1")),
        other => {
            return Err(thrown(
                "gzip_decode",
                format!("expected bytes at argument 1, got {}", other.type_name()),
            ));
        }
    };
    let asked = max_decompressed(arg(args, 1))?;
    let run_cap = host.value_caps().0.unwrap_or(MAX_BUILD).min(MAX_BUILD);
    let mut out = Vec::new();
    let mut dec = MultiGzDecoder::new(&data[..]);
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = dec.read(&mut chunk).map_err(|e| thrown("gzip_decode", e))?;
        if n == 0 {
            break;
        }
        let total = out.len() + n;
        charge(host, n / 64 + 1)?;
        if total > asked {
            return Err(thrown(
                "gzip_decode",
                format!(
                    "decompressed output exceeded max_decompressed_bytes ({asked}); refusing to allocate further"
                ),
            ));
        }
        if total > run_cap {
            // The run's own cap: a memory limit, which the snippet cannot catch.
            check_size(host, total, "gzip_decode")?;
        }
        out.extend_from_slice(&chunk[..n]);
    }
    Ok(Value::Bytes(Rc::new(out)))
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("gzip_encode", gzip_encode);
    b.sync("gzip_decode", gzip_decode);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{TestHost, call_err, s};

    #[test]
    fn round_trip_and_limits() {
        let mut h = TestHost::new();
        let packed = gzip_encode(&mut h, &[s("hello hello hello")]).unwrap();
        let Value::Bytes(b) = &packed else { panic!() };
        assert_eq!(&b[..3], &[0x1f, 0x8b, 8]);
        let back = gzip_decode(&mut h, std::slice::from_ref(&packed)).unwrap();
        let Value::Bytes(ref back) = back else {
            panic!()
        };
        assert_eq!(&back[..], b"hello hello hello");
        assert!(call_err(gzip_decode, &[s("x")]).contains("expected bytes"));
        let bomb = gzip_encode(&mut h, &[Value::str("\0".repeat(1 << 20))]).unwrap();
        let mut opts = harn_vm::value::Dict::new();
        opts.insert("max_decompressed_bytes", Value::Int(1000));
        let err = call_err(gzip_decode, &[bomb, Value::dict(opts)]);
        assert!(
            err.contains("exceeded max_decompressed_bytes (1000)"),
            "{err}"
        );
        assert!(
            call_err(gzip_decode, &[Value::Bytes(Rc::new(vec![1, 2, 3]))]).contains("gzip_decode:")
        );
    }
}
