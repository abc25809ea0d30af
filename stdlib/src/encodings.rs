//! Text encodings: base64 (standard and URL-safe), base32 and hex on the `data-encoding`
//! crate; percent-encoding (`url_encode`/`url_decode`) and form-urlencoded query strings
//! (`query_parse`/`query_stringify`) on `percent-encoding` and `form_urlencoded`.
//!
//! Encoders take bytes as themselves and anything else as its display. Decoders return a
//! string (invalid UTF-8 replaced by U+FFFD, as the reference does); the `bytes_*` family
//! in `bytes.rs` returns raw bytes instead. A malformed input throws a string naming the
//! builtin.

use std::borrow::Cow;

use data_encoding::{BASE32, BASE64, BASE64_NOPAD, BASE64URL_NOPAD, Encoding, HEXLOWER_PERMISSIVE};
use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, percent_encode};
use url::form_urlencoded;

use crate::bytes::raw;
use crate::util::{arg, charge, check_size, text};

/// RFC 3986's unreserved characters stay; every other byte is `%XX`.
const URL_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

/// Base64 of `data`, standard alphabet with padding.
pub fn b64_encode(data: &[u8]) -> String {
    BASE64.encode(data)
}

/// Decodes standard or URL-safe base64; padding optional, ASCII whitespace ignored.
pub fn b64_decode(s: &str) -> Option<Vec<u8>> {
    let compact: String = s.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    let body = compact.trim_end_matches('=');
    if compact.len() - body.len() > 2 {
        return None;
    }
    let engine = if body.contains(['-', '_']) {
        &BASE64URL_NOPAD
    } else {
        &BASE64_NOPAD
    };
    engine.decode(body.as_bytes()).ok()
}

/// Lowercase hex of `data`.
pub fn hex_of(data: &[u8]) -> String {
    data_encoding::HEXLOWER.encode(data)
}

/// Hex digits (either case, optional `0x` prefix, surrounding space ignored) as bytes.
pub fn unhex(s: &str) -> Option<Vec<u8>> {
    let s = s.trim();
    let s = s.strip_prefix("0x").unwrap_or(s);
    HEXLOWER_PERMISSIVE.decode(s.as_bytes()).ok()
}

/// The input of an encoder, charged by size, with the output's size checked before it is
/// built (`grow` output bytes per input byte, rounded up).
fn encoder_input(
    host: &mut dyn Host,
    args: &[Value],
    name: &str,
    grow: f64,
) -> Result<Vec<u8>, VmError> {
    let data = raw(args, 0)?;
    charge(host, data.len() / 64 + 1)?;
    check_size(host, (data.len() as f64 * grow).ceil() as usize + 4, name)?;
    Ok(data)
}

fn decoder_input(host: &mut dyn Host, args: &[Value]) -> Result<String, VmError> {
    let s = String::from_utf8_lossy(&raw(args, 0)?).into_owned();
    charge(host, s.len() / 64 + 1)?;
    Ok(s)
}

fn lossy(data: &[u8]) -> Value {
    Value::str(String::from_utf8_lossy(data).into_owned())
}

fn invalid(name: &str, what: &str) -> VmError {
    VmError::thrown_str(format!("{name}: invalid {what} input"))
}

fn base64_encode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = encoder_input(host, args, "base64_encode", 4.0 / 3.0)?;
    Ok(Value::str(b64_encode(&data)))
}

fn base64_decode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = decoder_input(host, args)?;
    let data = b64_decode(&s).ok_or_else(|| invalid("base64_decode", "base64"))?;
    Ok(lossy(&data))
}

fn base64url_encode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = encoder_input(host, args, "base64url_encode", 4.0 / 3.0)?;
    Ok(Value::str(BASE64URL_NOPAD.encode(&data)))
}

/// URL-safe alphabet only: `+`, `/` or `=` in the input is an error, as the reference has it.
fn base64url_decode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    decode_with(
        host,
        args,
        &BASE64URL_NOPAD,
        "base64url_decode",
        "base64url",
    )
}

fn base32_encode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = encoder_input(host, args, "base32_encode", 8.0 / 5.0)?;
    Ok(Value::str(BASE32.encode(&data)))
}

fn base32_decode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    decode_with(host, args, &BASE32, "base32_decode", "base32")
}

/// The first argument decoded by `engine` (surrounding space ignored); a bad input is
/// an error naming the builtin, the encoding and what the decoder found.
fn decode_with(
    host: &mut dyn Host,
    args: &[Value],
    engine: &Encoding,
    name: &str,
    what: &str,
) -> Result<Value, VmError> {
    let s = decoder_input(host, args)?;
    let data = engine
        .decode(s.trim().as_bytes())
        .map_err(|e| VmError::thrown_str(format!("{name}: invalid {what} input ({e})")))?;
    Ok(lossy(&data))
}

fn hex_encode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = encoder_input(host, args, "hex_encode", 2.0)?;
    Ok(Value::str(hex_of(&data)))
}

fn hex_decode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = decoder_input(host, args)?;
    let data = unhex(&s).ok_or_else(|| invalid("hex_decode", "hex"))?;
    Ok(lossy(&data))
}

/// Percent-encodes every byte outside RFC 3986's unreserved set (`%20` for a space).
fn url_encode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = encoder_input(host, args, "url_encode", 3.0)?;
    Ok(Value::str(percent_encode(&data, URL_COMPONENT).to_string()))
}

/// Decodes `%XX` escapes and `+` as a space; a malformed escape stays as written.
fn url_decode(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = decoder_input(host, args)?;
    let spaced = s.replace('+', " ");
    let decoded: Cow<'_, [u8]> = percent_decode_str(&spaced).into();
    Ok(lossy(&decoded))
}

/// `a=1&b=x+y` as `[{key, value}]` in order, duplicates kept; one leading `?` ignored.
fn query_parse(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    charge(host, s.len() / 64 + 1)?;
    let q = s.strip_prefix('?').unwrap_or(&s);
    let pairs = form_urlencoded::parse(q.as_bytes())
        .map(|(k, v)| {
            let mut d = Dict::new();
            d.insert("key", Value::str(k.into_owned()));
            d.insert("value", Value::str(v.into_owned()));
            Value::dict(d)
        })
        .collect();
    Ok(Value::list(pairs))
}

/// `[{key, value}]` (or a dict, in key order) as a form-urlencoded query string.
fn query_stringify(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let shape = || VmError::thrown_str("query_stringify: expected a list of {key, value} dicts");
    let pairs: Vec<(String, String)> = match arg(args, 0) {
        Value::List(items) => items
            .iter()
            .map(|item| match item {
                Value::Dict(d) => Ok((field_text(d.get("key"))?, field_text(d.get("value"))?)),
                _ => Err(VmError::thrown_str(
                    "query_stringify: each item must be a {key, value} dict",
                )),
            })
            .collect::<Result<_, _>>()?,
        Value::Dict(d) => d
            .iter()
            .map(|(k, v)| Ok((k.to_string(), field_text(Some(v))?)))
            .collect::<Result<_, VmError>>()?,
        _ => return Err(shape()),
    };
    let size: usize = pairs.iter().map(|(k, v)| k.len() + v.len() + 2).sum();
    charge(host, size / 64 + 1)?;
    check_size(host, size * 3, "query_stringify")?;
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (k, v) in &pairs {
        out.append_pair(k, v);
    }
    Ok(Value::str(out.finish()))
}

fn field_text(v: Option<&Value>) -> Result<String, VmError> {
    match v {
        None | Some(Value::Nil) => Ok(String::new()),
        Some(Value::Str(s)) => Ok(s.as_str().to_owned()),
        Some(other) => harn_vm::display::display(other),
    }
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("base64_encode", base64_encode),
        ("base64_decode", base64_decode),
        ("base64url_encode", base64url_encode),
        ("base64url_decode", base64url_decode),
        ("base32_encode", base32_encode),
        ("base32_decode", base32_decode),
        ("hex_encode", hex_encode),
        ("hex_decode", hex_decode),
        ("url_encode", url_encode),
        ("url_decode", url_decode),
        ("query_parse", query_parse),
        ("query_stringify", query_stringify),
    ];
    b.sync_table(table);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, s};

    #[test]
    fn base64_and_hex() {
        assert_eq!(call(base64_encode, &[s("hello")]), "aGVsbG8=");
        assert_eq!(call(base64_encode, &[s("")]), "");
        assert_eq!(call(base64_decode, &[s("aGVsbG8=")]), "hello");
        assert_eq!(call(base64_decode, &[s("aGVsbG8")]), "hello");
        assert_eq!(call(base64url_encode, &[s(">>>???///")]), "Pj4-Pz8_Ly8v");
        assert_eq!(call(base64url_encode, &[s("f")]), "Zg");
        assert_eq!(call(base64url_decode, &[s("Pj4-Pz8_Ly8v")]), ">>>???///");
        assert!(call_err(base64url_decode, &[s("Zg==")]).contains("base64url_decode"));
        assert_eq!(call(base32_encode, &[s("foobar")]), "MZXW6YTBOI======");
        assert_eq!(call(base32_decode, &[s("MZXW6YTBOI======")]), "foobar");
        assert_eq!(call(hex_encode, &[s("hello")]), "68656c6c6f");
        assert_eq!(call(hex_decode, &[s("68656C6C6F")]), "hello");
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
    fn urls_and_queries() {
        assert_eq!(call(url_encode, &[s("a=1&b=2")]), "a%3D1%26b%3D2");
        assert_eq!(call(url_encode, &[s("a b~é")]), "a%20b~%C3%A9");
        assert_eq!(call(url_decode, &[s("a%20b+c%zz%C3%A9")]), "a b c%zzé");
        assert_eq!(
            call(query_parse, &[s("?a=1&b=x+y&a=%26")]),
            "[{key: a, value: 1}, {key: b, value: x y}, {key: a, value: &}]"
        );
        assert_eq!(call(query_parse, &[s("")]), "[]");
    }
}
