//! Cookies (RFC 6265) and signed sessions: `cookie_parse`, `cookie_serialize`,
//! `cookie_delete`, `cookie_sign`/`cookie_verify`, `session_sign`/`session_verify`,
//! `session_cookie`, `session_from_cookies` and `cookie_round_trip`.
//!
//! Names, values and secrets are coerced with display. Errors are thrown strings
//! prefixed `cookie: `. A signed cookie is `value.<sig>`; a session token is
//! `v1.<base64url(json)>.<sig>`, the signature covering the encoded payload.

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};

use super::{dict_of, opt_text, same_bytes, sign_b64url};
use crate::util::{arg, charge, check_size, text};

/// `cookie_sign` refuses a secret shorter than this.
const MIN_SECRET_BYTES: usize = 32;

fn err(msg: impl std::fmt::Display) -> VmError {
    VmError::thrown_str(format!("cookie: {msg}"))
}

fn need(args: &[Value], n: usize, name: &str) -> Result<(), VmError> {
    if args.len() < n {
        let noun = if n == 1 { "argument" } else { "arguments" };
        return Err(err(format!("{name} requires {n} {noun}")));
    }
    Ok(())
}

/// The options dict at `i` (nil or absent: none).
fn options<'a>(args: &'a [Value], i: usize, name: &str) -> Result<Option<&'a Dict>, VmError> {
    match arg(args, i) {
        Value::Dict(d) => Ok(Some(d)),
        Value::Nil => Ok(None),
        other => Err(err(format!(
            "{name}: options must be a dict, got {}",
            other.type_name()
        ))),
    }
}

/// The first of `keys` present in the options.
fn option<'a>(opts: Option<&'a Dict>, keys: &[&str]) -> Option<&'a Value> {
    let d = opts?;
    keys.iter().find_map(|k| d.get(k))
}

fn option_text(opts: Option<&Dict>, keys: &[&str]) -> Result<Option<String>, VmError> {
    match option(opts, keys) {
        None | Some(Value::Nil) => Ok(None),
        Some(Value::Str(s)) => Ok(Some(s.as_str().to_owned())),
        Some(v) => harn_vm::display::display(v).map(Some),
    }
}

/// An RFC 6265 cookie name: a non-empty HTTP token.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c))
}

/// A value `cookie_serialize` writes as is: no control, space, quote, comma,
/// semicolon or backslash.
fn valid_value(value: &str) -> bool {
    !value
        .bytes()
        .any(|c| c.is_ascii_control() || b" \",;\\".contains(&c))
}

fn has_control_or_semicolon(s: &str) -> bool {
    s.bytes().any(|c| c.is_ascii_control() || c == b';')
}

/// Attribute defaults: none for `cookie_serialize`, the session and deletion sets.
#[derive(Clone, Copy)]
struct Defaults {
    path: Option<&'static str>,
    max_age: Option<i64>,
    expires: Option<&'static str>,
    http_only: bool,
    secure: bool,
    same_site: Option<&'static str>,
}

const PLAIN: Defaults = Defaults {
    path: None,
    max_age: None,
    expires: None,
    http_only: false,
    secure: false,
    same_site: None,
};

const SESSION: Defaults = Defaults {
    path: Some("/"),
    http_only: true,
    secure: true,
    same_site: Some("Lax"),
    ..PLAIN
};

const DELETE: Defaults = Defaults {
    max_age: Some(0),
    expires: Some("Thu, 01 Jan 1970 00:00:00 GMT"),
    ..SESSION
};

/// `name=value; Path; Domain; Max-Age; Expires; HttpOnly; Secure; SameSite`.
fn set_cookie(
    host: &mut dyn Host,
    name: &str,
    value: &str,
    opts: Option<&Dict>,
    defaults: Defaults,
) -> Result<String, VmError> {
    if !valid_name(name) {
        return Err(err("cookie name is empty or contains invalid characters"));
    }
    if !valid_value(value) {
        return Err(err(
            "cookie value contains spaces, quotes, separators, or control characters; encode it first",
        ));
    }
    let attr = |label: &str, v: String| -> Result<String, VmError> {
        if v.is_empty() || has_control_or_semicolon(&v) {
            return Err(err(format!(
                "{label} contains an invalid cookie attribute value"
            )));
        }
        Ok(format!("; {label}={v}"))
    };
    // The attributes' values are bounded by the options themselves.
    check_size(host, name.len() + value.len() + 256, "cookie_serialize")?;
    let mut out = format!("{name}={value}");
    let path = option_text(opts, &["path", "Path"])?.or(defaults.path.map(str::to_owned));
    if let Some(p) = path {
        out.push_str(&attr("Path", p)?);
    }
    if let Some(d) = option_text(opts, &["domain", "Domain"])? {
        out.push_str(&attr("Domain", d)?);
    }
    let max_age = match option(opts, &["max_age", "Max-Age", "maxAge"]) {
        None | Some(Value::Nil) => defaults.max_age,
        Some(Value::Int(n)) => Some(*n),
        Some(other) => {
            return Err(err(format!(
                "option max_age must be an int, got {}",
                other.type_name()
            )));
        }
    };
    if let Some(n) = max_age {
        out.push_str(&format!("; Max-Age={n}"));
    }
    let expires =
        option_text(opts, &["expires", "Expires"])?.or(defaults.expires.map(str::to_owned));
    if let Some(e) = expires {
        out.push_str(&attr("Expires", e)?);
    }
    let flag = |keys: &[&str], default: bool| option(opts, keys).map_or(default, Value::truthy);
    let http_only = flag(&["http_only", "HttpOnly", "httponly"], defaults.http_only);
    let mut secure = flag(&["secure", "Secure"], defaults.secure);
    let same_site = match option_text(opts, &["same_site", "SameSite", "sameSite"])?
        .or(defaults.same_site.map(str::to_owned))
    {
        None => None,
        Some(s) => Some(match s.to_ascii_lowercase().as_str() {
            "lax" => "Lax",
            "strict" => "Strict",
            "none" => "None",
            _ => return Err(err("same_site must be one of Lax, Strict, or None")),
        }),
    };
    // Browsers reject `SameSite=None` without `Secure`, so it implies `Secure`.
    if same_site == Some("None") {
        secure = true;
    }
    if http_only {
        out.push_str("; HttpOnly");
    }
    if secure {
        out.push_str("; Secure");
    }
    if let Some(s) = same_site {
        out.push_str("; SameSite=");
        out.push_str(s);
    }
    Ok(out)
}

/// The Cookie header texts in a string, a list of strings, a dict of headers (keys
/// equal to `cookie` in any case) or nil.
fn header_texts(v: &Value, key: &str, what: &str) -> Result<Vec<String>, VmError> {
    let strings = |items: &[Value]| -> Result<Vec<String>, VmError> {
        items
            .iter()
            .map(|item| match item {
                Value::Str(s) => Ok(s.as_str().to_owned()),
                other => Err(err(format!(
                    "{what} header list entries must be strings, got {}",
                    other.type_name()
                ))),
            })
            .collect()
    };
    match v {
        Value::Nil => Ok(Vec::new()),
        Value::Str(s) => Ok(vec![s.as_str().to_owned()]),
        Value::List(items) => strings(items),
        Value::Dict(d) => {
            let mut out = Vec::new();
            for (k, v) in d.iter().filter(|(k, _)| k.eq_ignore_ascii_case(key)) {
                match v {
                    Value::Str(s) => out.push(s.as_str().to_owned()),
                    Value::List(items) => out.extend(strings(items)?),
                    other => {
                        return Err(err(format!(
                            "{k} header must be a string or list, got {}",
                            other.type_name()
                        )));
                    }
                }
            }
            Ok(out)
        }
        other => Err(err(format!(
            "{what} headers must be a string, list, dict, or nil; got {}",
            other.type_name()
        ))),
    }
}

fn trim_ows(s: &str) -> &str {
    s.trim_matches([' ', '\t'])
}

/// What `cookie_parse` found, in wire order.
#[derive(Default)]
struct Parsed {
    pairs: Vec<(String, String)>,
    invalid: Vec<(String, &'static str)>,
}

impl Parsed {
    fn read(&mut self, header: &str) {
        for segment in header.split(';').map(trim_ows).filter(|s| !s.is_empty()) {
            let Some((name, value)) = segment.split_once('=') else {
                self.invalid.push((segment.to_owned(), "missing '='"));
                continue;
            };
            let name = trim_ows(name);
            if !valid_name(name) {
                self.invalid.push((segment.to_owned(), "invalid name"));
                continue;
            }
            let value = trim_ows(value);
            let value = value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .unwrap_or(value);
            if has_control_or_semicolon(value) {
                self.invalid.push((segment.to_owned(), "invalid value"));
                continue;
            }
            self.pairs.push((name.to_owned(), value.to_owned()));
        }
    }

    fn of(host: &mut dyn Host, headers: &Value) -> Result<Parsed, VmError> {
        let texts = header_texts(headers, "cookie", "cookie")?;
        charge(host, texts.iter().map(String::len).sum::<usize>() / 64 + 1)?;
        let mut p = Parsed::default();
        for t in &texts {
            p.read(t);
        }
        Ok(p)
    }

    /// The first value of each name.
    fn first_values(&self) -> std::collections::BTreeMap<String, String> {
        let mut out = std::collections::BTreeMap::new();
        for (n, v) in &self.pairs {
            out.entry(n.clone()).or_insert_with(|| v.clone());
        }
        out
    }
}

/// `{cookies, pairs, duplicates, invalid}` of Cookie request headers.
fn cookie_parse(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    need(args, 1, "cookie_parse")?;
    let p = Parsed::of(host, arg(args, 0))?;
    let cookies: Dict = p
        .first_values()
        .into_iter()
        .map(|(n, v)| (n, Value::str(v)))
        .collect();
    let mut all: std::collections::BTreeMap<&str, Vec<Value>> = Default::default();
    for (n, v) in &p.pairs {
        all.entry(n).or_default().push(Value::str(v.as_str()));
    }
    let duplicates: Dict = all
        .into_iter()
        .filter(|(_, vs)| vs.len() > 1)
        .map(|(n, vs)| (n.to_owned(), Value::list(vs)))
        .collect();
    let pairs = p
        .pairs
        .iter()
        .map(|(n, v)| {
            dict_of([
                ("name", Value::str(n.as_str())),
                ("value", Value::str(v.as_str())),
            ])
        })
        .collect();
    let invalid = p
        .invalid
        .iter()
        .map(|(s, r)| {
            dict_of([
                ("segment", Value::str(s.as_str())),
                ("reason", Value::str(*r)),
            ])
        })
        .collect();
    Ok(dict_of([
        ("cookies", Value::dict(cookies)),
        ("pairs", Value::list(pairs)),
        ("duplicates", Value::dict(duplicates)),
        ("invalid", Value::list(invalid)),
    ]))
}

fn cookie_serialize(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    need(args, 2, "cookie_serialize")?;
    let (name, value) = (text(args, 0)?, text(args, 1)?);
    charge(host, (name.len() + value.len()) / 64 + 1)?;
    let opts = options(args, 2, "cookie_serialize")?;
    Ok(Value::str(set_cookie(host, &name, &value, opts, PLAIN)?))
}

fn cookie_delete(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    need(args, 1, "cookie_delete")?;
    let name = text(args, 0)?;
    charge(host, name.len() / 64 + 1)?;
    let opts = options(args, 1, "cookie_delete")?;
    Ok(Value::str(set_cookie(host, &name, "", opts, DELETE)?))
}

fn cookie_sign(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    need(args, 2, "cookie_sign")?;
    let (value, secret) = (text(args, 0)?, text(args, 1)?);
    charge(host, (value.len() + secret.len()) / 64 + 1)?;
    if has_control_or_semicolon(&value) {
        return Err(err(
            "cookie_sign value must not contain separators or control characters",
        ));
    }
    if secret.len() < MIN_SECRET_BYTES {
        return Err(err(format!(
            "cookie_sign secret must be at least {MIN_SECRET_BYTES} bytes"
        )));
    }
    let sig = sign_b64url(secret.as_bytes(), value.as_bytes());
    check_size(host, value.len() + sig.len() + 1, "cookie_sign")?;
    Ok(Value::str(format!("{value}.{sig}")))
}

fn cookie_verify(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    need(args, 2, "cookie_verify")?;
    let (signed, secret) = (text(args, 0)?, text(args, 1)?);
    charge(host, (signed.len() + secret.len()) / 64 + 1)?;
    let result = |value: Option<&str>, error: Option<&str>| {
        dict_of([
            ("ok", Value::Bool(error.is_none())),
            ("value", opt_text(value.map(str::to_owned))),
            ("error", opt_text(error.map(str::to_owned))),
        ])
    };
    let Some((value, sig)) = signed.rsplit_once('.') else {
        return Ok(result(None, Some("malformed")));
    };
    let expected = sign_b64url(secret.as_bytes(), value.as_bytes());
    Ok(if same_bytes(sig.as_bytes(), expected.as_bytes()) {
        result(Some(value), None)
    } else {
        result(None, Some("invalid_signature"))
    })
}

/// `v1.<base64url(json)>.<sig>`.
fn session_token(host: &mut dyn Host, payload: &Value, secret: &str) -> Result<String, VmError> {
    let json = crate::json::to_json_text(payload)?;
    charge(host, (json.len() + secret.len()) / 64 + 1)?;
    check_size(host, json.len() / 3 * 4 + 64, "session_sign")?;
    let encoded = data_encoding::BASE64URL_NOPAD.encode(json.as_bytes());
    let sig = sign_b64url(secret.as_bytes(), encoded.as_bytes());
    Ok(format!("v1.{encoded}.{sig}"))
}

fn session_result(payload: Value, error: Option<&str>) -> Value {
    dict_of([
        ("ok", Value::Bool(error.is_none())),
        ("payload", payload),
        ("error", opt_text(error.map(str::to_owned))),
    ])
}

/// The `session_verify` result of a token.
fn verify_session(host: &mut dyn Host, token: &str, secret: &str) -> Result<Value, VmError> {
    charge(host, (token.len() + secret.len()) / 64 + 1)?;
    let parts: Vec<&str> = token.split('.').collect();
    let [version, encoded, sig] = parts[..] else {
        return Ok(session_result(Value::Nil, Some("malformed")));
    };
    if version != "v1" {
        return Ok(session_result(Value::Nil, Some("malformed")));
    }
    let expected = sign_b64url(secret.as_bytes(), encoded.as_bytes());
    if !same_bytes(sig.as_bytes(), expected.as_bytes()) {
        return Ok(session_result(Value::Nil, Some("invalid_signature")));
    }
    let payload = data_encoding::BASE64URL_NOPAD
        .decode(encoded.as_bytes())
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .and_then(|json| crate::json::parse_text(&json).ok());
    Ok(match payload {
        Some(p) => session_result(p, None),
        None => session_result(Value::Nil, Some("malformed_payload")),
    })
}

fn session_sign(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    need(args, 2, "session_sign")?;
    let secret = text(args, 1)?;
    Ok(Value::str(session_token(host, arg(args, 0), &secret)?))
}

fn session_verify(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    need(args, 2, "session_verify")?;
    let (token, secret) = (text(args, 0)?, text(args, 1)?);
    verify_session(host, &token, &secret)
}

fn session_cookie(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    need(args, 3, "session_cookie")?;
    let (name, secret) = (text(args, 0)?, text(args, 2)?);
    let opts = options(args, 3, "session_cookie")?;
    let token = session_token(host, arg(args, 1), &secret)?;
    Ok(Value::str(set_cookie(host, &name, &token, opts, SESSION)?))
}

fn session_from_cookies(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    need(args, 3, "session_from_cookies")?;
    let parsed = Parsed::of(host, arg(args, 0))?;
    let (name, secret) = (text(args, 1)?, text(args, 2)?);
    match parsed.pairs.iter().find(|(n, _)| *n == name) {
        Some((_, token)) => verify_session(host, token, &secret),
        None => Ok(session_result(Value::Nil, Some("missing_cookie"))),
    }
}

/// An HTTP date (IMF-fixdate, RFC 850 or asctime) as a timestamp.
fn http_date(s: &str) -> Option<jiff::Timestamp> {
    if let Ok(t) = jiff::fmt::rfc2822::DateTimeParser::new().parse_timestamp(s) {
        return Some(t);
    }
    ["%A, %d-%b-%y %H:%M:%S GMT", "%a %b %e %H:%M:%S %Y"]
        .iter()
        .find_map(|f| jiff::civil::DateTime::strptime(f, s).ok())
        .and_then(|dt| dt.to_zoned(jiff::tz::TimeZone::UTC).ok())
        .map(|z| z.timestamp())
}

/// The name and value a Set-Cookie header sets, and whether it deletes the cookie
/// (`Max-Age` <= 0 or an `Expires` not after `now`); None when it is malformed.
fn read_set_cookie(header: &str, now: jiff::Timestamp) -> Option<(String, String, bool)> {
    let mut segments = header.split(';');
    let (name, value) = trim_ows(segments.next()?).split_once('=')?;
    let name = trim_ows(name);
    if !valid_name(name) {
        return None;
    }
    let mut delete = false;
    for attr in segments.map(trim_ows) {
        let (key, val) = attr.split_once('=').unwrap_or((attr, ""));
        let val = val.trim();
        if key.trim().eq_ignore_ascii_case("max-age") {
            delete |= val.parse::<i64>().is_ok_and(|n| n <= 0);
        } else if key.trim().eq_ignore_ascii_case("expires") {
            delete |= http_date(val).is_some_and(|t| t <= now);
        }
    }
    Some((name.to_owned(), trim_ows(value).to_owned(), delete))
}

/// The cookies a client holds after sending `request_cookie` and receiving the
/// Set-Cookie headers: `{cookie_header, cookies}`.
fn cookie_round_trip(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let (request, set) = match args {
        [set] => (&Value::Nil, set),
        [request, set, ..] => (request, set),
        [] => return Err(err("cookie_round_trip requires 1 argument")),
    };
    let mut jar = Parsed::of(host, request)?.first_values();
    let headers = header_texts(set, "set-cookie", "Set-Cookie")?;
    charge(
        host,
        headers.iter().map(String::len).sum::<usize>() / 64 + 1,
    )?;
    let now = jiff::Timestamp::now();
    for h in &headers {
        if let Some((name, value, delete)) = read_set_cookie(h, now) {
            if delete {
                jar.remove(&name);
            } else {
                jar.insert(name, value);
            }
        }
    }
    let header = jar
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join("; ");
    let cookies: Dict = jar.into_iter().map(|(n, v)| (n, Value::str(v))).collect();
    Ok(dict_of([
        ("cookie_header", Value::str(header)),
        ("cookies", Value::dict(cookies)),
    ]))
}

pub(super) fn register(b: &mut RegistryBuilder) {
    b.sync_table(&[
        ("cookie_parse", cookie_parse),
        ("cookie_serialize", cookie_serialize),
        ("cookie_delete", cookie_delete),
        ("cookie_sign", cookie_sign),
        ("cookie_verify", cookie_verify),
        ("session_sign", session_sign),
        ("session_verify", session_verify),
        ("session_cookie", session_cookie),
        ("session_from_cookies", session_from_cookies),
        ("cookie_round_trip", cookie_round_trip),
    ]);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, d, i, s, thrown};

    const SECRET: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn parse_keeps_first_values_and_reports_duplicates_and_invalid() {
        assert_eq!(
            call(
                cookie_parse,
                &[s("sid=abc; theme=\"light\"; sid=old; bad; x y=1;;")]
            ),
            "{cookies: {sid: abc, theme: light}, duplicates: {sid: [abc, old]}, \
             invalid: [{reason: missing '=', segment: bad}, {reason: invalid name, segment: x y=1}], \
             pairs: [{name: sid, value: abc}, {name: theme, value: light}, {name: sid, value: old}]}"
        );
        let headers = d(&[("Cookie", Value::list(vec![s("a=1"), s("b=2")]))]);
        assert_eq!(
            call(cookie_parse, &[headers]),
            "{cookies: {a: 1, b: 2}, duplicates: {}, invalid: [], pairs: [{name: a, value: 1}, {name: b, value: 2}]}"
        );
        assert_eq!(
            thrown(cookie_parse, &[i(3)]),
            "cookie: cookie headers must be a string, list, dict, or nil; got int"
        );
        assert_eq!(
            thrown(cookie_parse, &[]),
            "cookie: cookie_parse requires 1 argument"
        );
    }

    #[test]
    fn serialize_orders_attributes_and_validates() {
        let o = d(&[
            ("same_site", s("strict")),
            ("secure", Value::Bool(true)),
            ("http_only", Value::Bool(true)),
            ("max_age", i(60)),
            ("path", s("/")),
            ("Domain", s("example.com")),
        ]);
        assert_eq!(
            call(cookie_serialize, &[s("theme"), s("dark"), o]),
            "theme=dark; Path=/; Domain=example.com; Max-Age=60; HttpOnly; Secure; SameSite=Strict"
        );
        assert_eq!(
            call(
                cookie_serialize,
                &[s("sid"), s("v"), d(&[("sameSite", s("None"))])]
            ),
            "sid=v; Secure; SameSite=None"
        );
        assert_eq!(
            thrown(cookie_serialize, &[s("bad name"), s("v")]),
            "cookie: cookie name is empty or contains invalid characters"
        );
        assert!(thrown(cookie_serialize, &[s("a"), s("b c")]).contains("encode it first"));
        assert_eq!(
            thrown(
                cookie_serialize,
                &[s("a"), s("b"), d(&[("path", s("/;x"))])]
            ),
            "cookie: Path contains an invalid cookie attribute value"
        );
        assert_eq!(
            thrown(
                cookie_serialize,
                &[s("a"), s("b"), d(&[("maxAge", s("1"))])]
            ),
            "cookie: option max_age must be an int, got string"
        );
        assert_eq!(
            thrown(
                cookie_serialize,
                &[s("a"), s("b"), d(&[("same_site", s("x"))])]
            ),
            "cookie: same_site must be one of Lax, Strict, or None"
        );
        assert_eq!(
            thrown(cookie_serialize, &[s("a"), s("b"), i(1)]),
            "cookie: cookie_serialize: options must be a dict, got int"
        );
    }

    #[test]
    fn delete_uses_expiring_defaults() {
        assert_eq!(
            call(
                cookie_delete,
                &[s("sid"), d(&[("secure", Value::Bool(false))])]
            ),
            "sid=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax"
        );
    }

    #[test]
    fn sign_and_verify() {
        let signed = call(cookie_sign, &[s("plain-value"), s(SECRET)]);
        assert_eq!(
            signed,
            "plain-value.FlkOiOtXaIUygqfkNzWWqVaR2PEy7_ly179P_ricSpw"
        );
        assert_eq!(
            call(cookie_verify, &[s(&signed), s(SECRET)]),
            "{error: nil, ok: true, value: plain-value}"
        );
        assert_eq!(
            call(cookie_verify, &[s(&format!("{signed}x")), s(SECRET)]),
            "{error: invalid_signature, ok: false, value: nil}"
        );
        assert_eq!(
            call(cookie_verify, &[s("nodot"), s(SECRET)]),
            "{error: malformed, ok: false, value: nil}"
        );
        assert_eq!(
            thrown(cookie_sign, &[s("v"), s("secret")]),
            "cookie: cookie_sign secret must be at least 32 bytes"
        );
        assert_eq!(
            thrown(cookie_sign, &[s("a;b"), s(SECRET)]),
            "cookie: cookie_sign value must not contain separators or control characters"
        );
    }

    #[test]
    fn sessions_round_trip() {
        let payload = d(&[("user", s("alice"))]);
        let token = call(session_sign, &[payload.clone(), s(SECRET)]);
        assert!(token.starts_with("v1.eyJ1c2VyIjoiYWxpY2UifQ."), "{token}");
        assert_eq!(
            call(session_verify, &[s(&token), s(SECRET)]),
            "{error: nil, ok: true, payload: {user: alice}}"
        );
        assert_eq!(
            call(session_verify, &[s(&format!("{token}x")), s(SECRET)]),
            "{error: invalid_signature, ok: false, payload: nil}"
        );
        assert_eq!(
            call(session_verify, &[s("v2.a.b"), s(SECRET)]),
            "{error: malformed, ok: false, payload: nil}"
        );
        let bad = format!(
            "v1.bm90IGpzb24.{}",
            sign_b64url(SECRET.as_bytes(), b"bm90IGpzb24")
        );
        assert_eq!(
            call(session_verify, &[s(&bad), s(SECRET)]),
            "{error: malformed_payload, ok: false, payload: nil}"
        );
        let set = call(session_cookie, &[s("sess"), payload, s(SECRET)]);
        assert_eq!(
            set,
            format!("sess={token}; Path=/; HttpOnly; Secure; SameSite=Lax")
        );
        let header = format!("a=1; sess={token}");
        assert_eq!(
            call(session_from_cookies, &[s(&header), s("sess"), s(SECRET)]),
            "{error: nil, ok: true, payload: {user: alice}}"
        );
        assert_eq!(
            call(session_from_cookies, &[s("a=1"), s("sess"), s(SECRET)]),
            "{error: missing_cookie, ok: false, payload: nil}"
        );
    }

    #[test]
    fn round_trip_applies_and_deletes() {
        let set = Value::list(vec![
            s("sid=; Max-Age=0"),
            s("new=1; Path=/"),
            s("old=x; Expires=Wed, 21 Oct 2015 07:28:00 GMT"),
            s("later=y; Expires=Fri, 01 Jan 2100 00:00:00 GMT"),
            s("bad name=z"),
        ]);
        assert_eq!(
            call(cookie_round_trip, &[s("sid=abc; theme=light; old=o"), set]),
            "{cookie_header: later=y; new=1; theme=light, cookies: {later: y, new: 1, theme: light}}"
        );
        assert_eq!(
            call(cookie_round_trip, &[s("a=1")]),
            "{cookie_header: a=1, cookies: {a: 1}}"
        );
        assert!(http_date("Sunday, 06-Nov-94 08:49:37 GMT").is_some());
        assert!(http_date("Sun Nov  6 08:49:37 1994").is_some());
        assert_eq!(
            thrown(cookie_round_trip, &[s(""), i(1)]),
            "cookie: Set-Cookie headers must be a string, list, dict, or nil; got int"
        );
    }
}
