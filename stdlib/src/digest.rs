//! Digests, MACs and identifiers on the RustCrypto crates (`sha1`, `sha2`, `sha3`, `md-5`,
//! `hmac`) and `uuid`: `sha*`/`md5` as lowercase hex, `hmac_*` as hex (and
//! `hmac_sha256_base64`), `constant_time_eq`, and the `uuid_*` family. MD5 and SHA-1 are
//! for checksums and compatibility, not security.
//!
//! Inputs are bytes as themselves, anything else as its display. The random and
//! time-ordered UUIDs carry the `random`/`clock` tags; the derived ones are pure.

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Digest;

use crate::bytes::raw;
use crate::encodings::{b64_encode, hex_of};
use crate::util::{arg, charge, text};

/// The digest of the first argument, charged by its length.
fn digest_of<D: Digest>(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = raw(args, 0)?;
    charge(host, data.len() / 64 + 1)?;
    Ok(Value::str(hex_of(&D::digest(&data))))
}

macro_rules! digests {
    ($($name:ident => $ty:ty),* $(,)?) => {
        $(fn $name(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
            digest_of::<$ty>(host, args)
        })*
    };
}

digests! {
    md5 => md5::Md5,
    sha1 => sha1::Sha1,
    sha224 => sha2::Sha224,
    sha256 => sha2::Sha256,
    sha384 => sha2::Sha384,
    sha512 => sha2::Sha512,
    sha512_256 => sha2::Sha512_256,
    sha3_256 => sha3::Sha3_256,
    sha3_512 => sha3::Sha3_512,
}

/// HMAC of (key, message), both as bytes or display.
fn mac_of<M: Mac + KeyInit>(host: &mut dyn Host, args: &[Value]) -> Result<Vec<u8>, VmError> {
    let key = raw(args, 0)?;
    let msg = raw(args, 1)?;
    charge(host, (key.len() + msg.len()) / 64 + 1)?;
    let mut mac = <M as KeyInit>::new_from_slice(&key)
        .map_err(|e| VmError::thrown_str(format!("hmac: {e}")))?;
    mac.update(&msg);
    Ok(mac.finalize().into_bytes().to_vec())
}

/// HMAC-SHA256 of `data` under `key`, raw: shared with the signing helpers.
pub fn hmac_sha256_raw(key: &[u8], data: &[u8]) -> Vec<u8> {
    match <Hmac<sha2::Sha256> as KeyInit>::new_from_slice(key) {
        Ok(mut mac) => {
            mac.update(data);
            mac.finalize().into_bytes().to_vec()
        }
        // HMAC takes a key of any length; this arm is unreachable in practice.
        Err(_) => Vec::new(),
    }
}

macro_rules! hmacs {
    ($($name:ident => $ty:ty),* $(,)?) => {
        $(fn $name(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
            Ok(Value::str(hex_of(&mac_of::<Hmac<$ty>>(host, args)?)))
        })*
    };
}

hmacs! {
    hmac_sha1 => sha1::Sha1,
    hmac_sha256 => sha2::Sha256,
    hmac_sha384 => sha2::Sha384,
    hmac_sha512 => sha2::Sha512,
}

fn hmac_sha256_base64(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(b64_encode(&mac_of::<Hmac<sha2::Sha256>>(
        host, args,
    )?)))
}

/// Equality of two strings (or bytes) in time that depends only on their lengths.
fn constant_time_eq(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let a = raw(args, 0)?;
    let b = raw(args, 1)?;
    charge(host, (a.len() + b.len()) / 64 + 1)?;
    let same_len = a.len() == b.len();
    let diff = a
        .iter()
        .zip(b.iter().chain(std::iter::repeat(&0)))
        .fold(0u8, |acc, (x, y)| acc | (x ^ y));
    Ok(Value::Bool(same_len && diff == 0))
}

fn uuid_text(u: uuid::Uuid) -> Value {
    Value::str(u.hyphenated().to_string())
}

/// A random (version 4) UUID.
pub fn uuid_v4(_: &mut dyn Host, _: &[Value]) -> Result<Value, VmError> {
    let bytes = fastrand::u128(..).to_le_bytes();
    Ok(uuid_text(
        uuid::Builder::from_random_bytes(bytes).into_uuid(),
    ))
}

/// A time-ordered (version 7) UUID.
fn uuid_v7(_: &mut dyn Host, _: &[Value]) -> Result<Value, VmError> {
    Ok(uuid_text(uuid::Uuid::now_v7()))
}

/// A name-based (version 5, SHA-1) UUID in a namespace: a UUID or `dns`/`url`/`oid`/`x500`.
fn uuid_v5(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    if args.len() < 2 {
        return Err(VmError::thrown_str(
            "uuid_v5(namespace, name): requires namespace and name",
        ));
    }
    let ns_text = text(args, 0)?;
    let ns = match ns_text.to_ascii_lowercase().as_str() {
        "dns" => uuid::Uuid::NAMESPACE_DNS,
        "url" => uuid::Uuid::NAMESPACE_URL,
        "oid" => uuid::Uuid::NAMESPACE_OID,
        "x500" => uuid::Uuid::NAMESPACE_X500,
        other => uuid::Uuid::parse_str(other).map_err(|_| {
            VmError::thrown_str("uuid_v5: namespace must be a UUID or one of dns/url/oid/x500")
        })?,
    };
    let name = raw(args, 1)?;
    charge(host, name.len() / 64 + 1)?;
    Ok(uuid_text(uuid::Uuid::new_v5(&ns, &name)))
}

/// The canonical (lowercase, hyphenated) form of a UUID, or nil when it is not one.
fn uuid_parse(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(match arg(args, 0) {
        Value::Str(s) => uuid::Uuid::parse_str(s.trim()).map_or(Value::Nil, uuid_text),
        _ => Value::Nil,
    })
}

fn uuid_nil(_: &mut dyn Host, _: &[Value]) -> Result<Value, VmError> {
    Ok(uuid_text(uuid::Uuid::nil()))
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("md5", md5),
        ("sha1", sha1),
        ("sha224", sha224),
        ("sha256", sha256),
        ("sha256_hex", sha256),
        ("sha384", sha384),
        ("sha512", sha512),
        ("sha512_256", sha512_256),
        ("sha3_256", sha3_256),
        ("sha3_512", sha3_512),
        ("hmac_sha1", hmac_sha1),
        ("hmac_sha256", hmac_sha256),
        ("hmac_sha384", hmac_sha384),
        ("hmac_sha512", hmac_sha512),
        ("hmac_sha256_base64", hmac_sha256_base64),
        ("constant_time_eq", constant_time_eq),
        ("uuid_v4", uuid_v4),
        ("uuid_v7", uuid_v7),
        ("uuid_v5", uuid_v5),
        ("uuid_parse", uuid_parse),
        ("uuid_nil", uuid_nil),
    ];
    b.sync_table(table);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, s};

    #[test]
    fn digests() {
        assert_eq!(
            call(sha256, &[s("abc")]),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(call(md5, &[s("hello")]), "5d41402abc4b2a76b9719d911017c592");
        assert_eq!(call(md5, &[s("")]), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(
            call(sha3_256, &[s("")]),
            "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"
        );
        assert_eq!(
            call(sha1, &[s("abc")]),
            "a9993e364706816aba3e25717850c26c9cd0d89d"
        );
    }

    #[test]
    fn macs_and_ids() {
        // RFC 4231 test case 2.
        assert_eq!(
            call(hmac_sha256, &[s("Jefe"), s("what do ya want for nothing?")]),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(call(constant_time_eq, &[s("abc"), s("abc")]), "true");
        assert_eq!(call(constant_time_eq, &[s("abc"), s("abd")]), "false");
        assert_eq!(call(constant_time_eq, &[s("abc"), s("ab")]), "false");
        assert_eq!(
            call(uuid_v5, &[s("dns"), s("example.com")]),
            "cfbff0d1-9375-5685-968c-48ce8b15ae17"
        );
        assert_eq!(call(uuid_parse, &[s("NOT")]), "nil");
        assert_eq!(
            call(uuid_parse, &[s("CFBFF0D1-9375-5685-968C-48CE8B15AE17")]),
            "cfbff0d1-9375-5685-968c-48ce8b15ae17"
        );
    }
}
