//! HTTP-shaped pure helpers, one file per family: cookies and signed sessions
//! (`cookies.rs`), `multipart/form-data` bodies (`multipart.rs`), HMAC-signed URLs
//! (`signed_url.rs`) and JUnit XML reports on `quick-xml` (`junit.rs`).
//!
//! Signatures are HMAC-SHA256 written as unpadded base64url and compared in constant
//! time. Bad input throws a string prefixed with the family's or the builtin's name;
//! verification failures are results (`{ok: false, error}`), not errors. Only
//! `cookie_round_trip` reads the clock (an `Expires` in the past deletes a cookie).

use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};

mod cookies;
mod junit;
mod multipart;
mod signed_url;

pub fn register(b: &mut RegistryBuilder) {
    cookies::register(b);
    multipart::register(b);
    signed_url::register(b);
    junit::register(b);
}

/// A dict value from `(key, value)` pairs.
fn dict_of<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    Value::dict(
        pairs
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v))
            .collect::<Dict>(),
    )
}

/// A string value, or nil.
fn opt_text(s: Option<String>) -> Value {
    s.map_or(Value::Nil, Value::str)
}

/// HMAC-SHA256 of `message` under `key`, as unpadded base64url.
fn sign_b64url(key: &[u8], message: &[u8]) -> String {
    data_encoding::BASE64URL_NOPAD.encode(&crate::digest::hmac_sha256_raw(key, message))
}

/// Equality of two byte strings in time that depends only on their lengths.
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let diff = a
        .iter()
        .zip(b.iter().chain(std::iter::repeat(&0)))
        .fold(0u8, |acc, (x, y)| acc | (x ^ y));
    a.len() == b.len() && diff == 0
}
