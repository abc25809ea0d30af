//! HMAC-signed URLs: `signed_url` adds claims, an expiry (and a key id) to a URL's query
//! and signs it; `verify_signed_url` checks the signature, the expiry and the key.
//!
//! The signature is unpadded base64url HMAC-SHA256 over
//! `harn-signed-url-v1\n{resource}\n{canonical query}`: the resource is the origin and
//! path (or a normalised absolute path), the canonical query every pair but the
//! signature, each side percent-encoded (RFC 3986 unreserved kept) and sorted. The output
//! URL's query is the canonical one with the signature added. Argument errors are thrown
//! strings prefixed with the builtin's name; verification failures are a `reason`.

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use url::{Url, form_urlencoded};

use super::{dict_of, opt_text, same_bytes, sign_b64url};
use crate::util::{charge, check_size};

const SIGN: &str = "signed_url";
const VERIFY: &str = "verify_signed_url";

/// RFC 3986's unreserved characters stay; every other byte is `%XX`.
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

fn err(name: &str, msg: impl std::fmt::Display) -> VmError {
    VmError::thrown_str(format!("{name}: {msg}"))
}

/// Parameter names and the clock skew allowed.
struct Opts {
    sig: String,
    exp: String,
    kid_param: String,
    kid: Option<String>,
    skew: i64,
}

impl Opts {
    fn of(name: &str, v: Option<&Value>) -> Result<Opts, VmError> {
        let mut o = Opts {
            sig: "sig".into(),
            exp: "exp".into(),
            kid_param: "kid".into(),
            kid: None,
            skew: 0,
        };
        let d = match v {
            None | Some(Value::Nil) => return Ok(o),
            Some(Value::Dict(d)) => d,
            Some(other) => {
                return Err(err(
                    name,
                    format!("options must be a dict, got {}", other.type_name()),
                ));
            }
        };
        let string = |key: &str| -> Result<Option<String>, VmError> {
            match d.get(key) {
                None | Some(Value::Nil) => Ok(None),
                Some(Value::Str(s)) => Ok(Some(s.as_str().to_owned())),
                Some(other) => Err(err(
                    name,
                    format!("option `{key}` must be a string, got {}", other.type_name()),
                )),
            }
        };
        for (key, slot) in [
            ("signature_param", &mut o.sig),
            ("expires_param", &mut o.exp),
            ("kid_param", &mut o.kid_param),
        ] {
            if let Some(s) = string(key)? {
                if s.is_empty() {
                    return Err(err(name, format!("option `{key}` cannot be empty")));
                }
                *slot = s;
            }
        }
        o.kid = string("kid")?;
        o.skew = match d.get("skew_seconds") {
            None | Some(Value::Nil) => 0,
            Some(Value::Int(n)) => *n,
            Some(other) => {
                return Err(err(
                    name,
                    format!(
                        "option `skew_seconds` must be an int, got {}",
                        other.type_name()
                    ),
                ));
            }
        };
        if o.sig == o.exp || o.sig == o.kid_param || o.exp == o.kid_param {
            return Err(err(
                name,
                "signature_param, expires_param, and kid_param must be distinct",
            ));
        }
        if o.skew < 0 {
            return Err(err(name, "skew_seconds must be greater than or equal to 0"));
        }
        Ok(o)
    }

    fn reserved(&self, key: &str) -> bool {
        key == self.sig || key == self.exp || key == self.kid_param
    }
}

/// A URL split for signing: what is signed as the resource, what the output starts
/// with, and the existing query pairs (form-decoded).
struct Target {
    resource: String,
    prefix: String,
    pairs: Vec<(String, String)>,
}

fn query_pairs(q: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(q.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

/// Unreserved characters and `/` as they are, `%xx` escapes uppercased, anything else
/// escaped.
fn normalise_path(path: &str) -> String {
    let b = path.as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let escape = b
            .get(i + 1..i + 3)
            .filter(|h| c == b'%' && h.iter().all(u8::is_ascii_hexdigit));
        if let Some(hex) = escape {
            out.push('%');
            out.extend(hex.iter().map(|h| char::from(h.to_ascii_uppercase())));
            i += 3;
            continue;
        }
        if c.is_ascii_alphanumeric() || b"-_.~/".contains(&c) {
            out.push(char::from(c));
        } else {
            out.push_str(&format!("%{c:02X}"));
        }
        i += 1;
    }
    out
}

fn target(name: &str, raw: &str) -> Result<Target, VmError> {
    if let Ok(mut url) = Url::parse(raw) {
        if url.cannot_be_a_base() || url.host_str().is_none() {
            return Err(err(
                name,
                "expected an absolute URL with a host or an absolute path starting with `/`",
            ));
        }
        url.set_fragment(None);
        let pairs = url.query().map(query_pairs).unwrap_or_default();
        url.set_query(None);
        return Ok(Target {
            resource: format!("{}{}", url.origin().ascii_serialization(), url.path()),
            prefix: url.to_string(),
            pairs,
        });
    }
    let raw = raw.split_once('#').map_or(raw, |(head, _)| head);
    let (path, query) = raw.split_once('?').unwrap_or((raw, ""));
    let path = if path.is_empty() { "/" } else { path };
    if !path.starts_with('/') {
        return Err(err(
            name,
            "expected an absolute URL or an absolute path starting with `/`",
        ));
    }
    let path = normalise_path(path);
    Ok(Target {
        resource: path.clone(),
        prefix: path,
        pairs: query_pairs(query),
    })
}

/// Pairs percent-encoded, sorted (by key, then value) and joined as `k=v&...`.
fn canonical(pairs: &[(String, String)]) -> String {
    let mut encoded: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| {
            (
                utf8_percent_encode(k, UNRESERVED).to_string(),
                utf8_percent_encode(v, UNRESERVED).to_string(),
            )
        })
        .collect();
    encoded.sort();
    encoded
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("&")
}

fn signature(secret: &[u8], t: &Target, pairs: &[(String, String)]) -> String {
    let payload = format!("harn-signed-url-v1\n{}\n{}", t.resource, canonical(pairs));
    sign_b64url(secret, payload.as_bytes())
}

fn str_param<'a>(name: &str, args: &'a [Value], i: usize, label: &str) -> Result<&'a str, VmError> {
    match args.get(i) {
        Some(Value::Str(s)) => Ok(s.as_str()),
        Some(other) => Err(err(
            name,
            format!("{label} must be a string, got {}", other.type_name()),
        )),
        None => Err(err(name, format!("{label} is required"))),
    }
}

fn int_param(name: &str, args: &[Value], i: usize, label: &str) -> Result<i64, VmError> {
    match args.get(i) {
        Some(Value::Int(n)) => Ok(*n),
        Some(other) => Err(err(
            name,
            format!("{label} must be an int, got {}", other.type_name()),
        )),
        None => Err(err(name, format!("{label} is required"))),
    }
}

/// `signed_url(base, claims, secret, expires_at, options?)`.
fn signed_url(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    if !(4..=5).contains(&args.len()) {
        return Err(err(
            SIGN,
            "requires 4 or 5 arguments: base, claims, secret, expires_at, options?",
        ));
    }
    let o = Opts::of(SIGN, args.get(4))?;
    let base = str_param(SIGN, args, 0, "base")?;
    let claims: &Dict = match &args[1] {
        Value::Dict(d) => d,
        other => {
            return Err(err(
                SIGN,
                format!("claims must be a dict, got {}", other.type_name()),
            ));
        }
    };
    if let Some(k) = [&o.sig, &o.exp, &o.kid_param]
        .into_iter()
        .find(|k| claims.contains_key(k.as_str()))
    {
        return Err(err(
            SIGN,
            format!("claims cannot contain reserved parameter `{k}`"),
        ));
    }
    let secret = str_param(SIGN, args, 2, "secret")?;
    let expires_at = int_param(SIGN, args, 3, "expires_at")?;
    let mut t = target(SIGN, base)?;
    t.pairs.retain(|(k, _)| !o.reserved(k));
    for (k, v) in claims.iter() {
        t.pairs.push((k.to_string(), display(v)?));
    }
    let size: usize = base.len()
        + t.pairs
            .iter()
            .map(|(k, v)| k.len() + v.len())
            .sum::<usize>();
    charge(host, size / 64 + 1)?;
    // Percent-encoding at most triples each byte.
    check_size(host, size * 3 + 128, SIGN)?;
    t.pairs.push((o.exp.clone(), expires_at.to_string()));
    if let Some(kid) = &o.kid {
        t.pairs.push((o.kid_param.clone(), kid.clone()));
    }
    let sig = signature(secret.as_bytes(), &t, &t.pairs);
    t.pairs.push((o.sig, sig));
    Ok(Value::str(format!("{}?{}", t.prefix, canonical(&t.pairs))))
}

struct Verdict {
    valid: bool,
    reason: &'static str,
    signature_valid: bool,
    expired: bool,
    expires_at: Option<i64>,
    kid: Option<String>,
    claims: Dict,
}

impl Verdict {
    fn fail(reason: &'static str) -> Verdict {
        Verdict {
            valid: false,
            reason,
            signature_valid: false,
            expired: false,
            expires_at: None,
            kid: None,
            claims: Dict::new(),
        }
    }

    fn value(self) -> Value {
        dict_of([
            ("valid", Value::Bool(self.valid)),
            ("reason", Value::str(self.reason)),
            ("signature_valid", Value::Bool(self.signature_valid)),
            ("expired", Value::Bool(self.expired)),
            ("expires_at", self.expires_at.map_or(Value::Nil, Value::Int)),
            ("kid", opt_text(self.kid)),
            ("claims", Value::dict(self.claims)),
        ])
    }
}

/// `verify_signed_url(url, secret_or_keys, now, options?)`.
fn verify_signed_url(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    if !(3..=4).contains(&args.len()) {
        return Err(err(
            VERIFY,
            "requires 3 or 4 arguments: url, secret_or_keys, now, options?",
        ));
    }
    let o = Opts::of(VERIFY, args.get(3))?;
    let raw = str_param(VERIFY, args, 0, "url")?;
    let now = int_param(VERIFY, args, 2, "now")?;
    let keys = &args[1];
    if !matches!(keys, Value::Str(_) | Value::Dict(_)) {
        return Err(err(
            VERIFY,
            format!(
                "secret_or_keys must be a string or dict, got {}",
                keys.type_name()
            ),
        ));
    }
    charge(host, raw.len() / 64 + 1)?;
    let mut t = target(VERIFY, raw)?;
    let values = |key: &str| -> Vec<String> {
        t.pairs
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .collect()
    };
    let [sig] = &values(&o.sig)[..] else {
        return Ok(Verdict::fail("missing_signature").value());
    };
    let sig = sig.clone();
    let [exp] = &values(&o.exp)[..] else {
        return Ok(Verdict::fail("missing_expiry").value());
    };
    let Ok(expires_at) = exp.parse::<i64>() else {
        return Ok(Verdict::fail("invalid_expiry").value());
    };
    let kids = values(&o.kid_param);
    if kids.len() > 1 {
        return Ok(Verdict {
            expires_at: Some(expires_at),
            ..Verdict::fail("duplicate_kid")
        }
        .value());
    }
    let kid = kids.into_iter().next();
    let claims: Dict = t
        .pairs
        .iter()
        .filter(|(k, _)| !o.reserved(k))
        .map(|(k, v)| (k.clone(), Value::str(v.as_str())))
        .collect();
    let secret = match keys {
        Value::Str(s) => Some(s.as_str().to_owned()),
        Value::Dict(d) => match kid.as_deref().and_then(|k| d.get(k)) {
            Some(v) => Some(display(v)?),
            None => None,
        },
        _ => None,
    };
    let Some(secret) = secret else {
        return Ok(Verdict {
            expires_at: Some(expires_at),
            kid,
            claims,
            ..Verdict::fail("unknown_key")
        }
        .value());
    };
    t.pairs.retain(|(k, _)| *k != o.sig);
    let expected = signature(secret.as_bytes(), &t, &t.pairs);
    let signature_valid = same_bytes(sig.as_bytes(), expected.as_bytes());
    let expired = now > expires_at.saturating_add(o.skew);
    let reason = match (signature_valid, expired) {
        (false, _) => "bad_signature",
        (true, true) => "expired",
        (true, false) => "ok",
    };
    Ok(Verdict {
        valid: signature_valid && !expired,
        reason,
        signature_valid,
        expired,
        expires_at: Some(expires_at),
        kid,
        claims,
    }
    .value())
}

pub(super) fn register(b: &mut RegistryBuilder) {
    b.sync_table(&[
        ("signed_url", signed_url),
        ("verify_signed_url", verify_signed_url),
    ]);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, d, i, s, thrown};

    #[test]
    fn signs_a_url_canonically() {
        let url = call(
            signed_url,
            &[
                s("https://Example.com/files/a b.txt?z=1&sig=old#frag"),
                d(&[("user", s("al ice")), ("n", i(7))]),
                s("k"),
                i(1000),
            ],
        );
        assert_eq!(
            url,
            "https://example.com/files/a%20b.txt?exp=1000&n=7&sig=SIG&user=al%20ice&z=1"
                .replace("SIG", &url_sig(&url))
        );
        let payload = "harn-signed-url-v1\nhttps://example.com/files/a%20b.txt\nexp=1000&n=7&user=al%20ice&z=1";
        assert_eq!(url_sig(&url), sign_b64url(b"k", payload.as_bytes()));
    }

    fn url_sig(url: &str) -> String {
        let q = url.split_once('?').unwrap().1;
        query_pairs(q)
            .into_iter()
            .find(|(k, _)| k == "sig")
            .unwrap()
            .1
    }

    #[test]
    fn paths_are_normalised() {
        assert_eq!(normalise_path("/a b/%2f/ü"), "/a%20b/%2F/%C3%BC");
        let url = call(signed_url, &[s("/dl?x=1"), d(&[]), s("k"), i(5)]);
        assert!(url.starts_with("/dl?exp=5&sig="), "{url}");
        assert_eq!(
            thrown(signed_url, &[s("dl"), d(&[]), s("k"), i(5)]),
            "signed_url: expected an absolute URL or an absolute path starting with `/`"
        );
        assert_eq!(
            thrown(signed_url, &[s("mailto:a@b"), d(&[]), s("k"), i(5)]),
            "signed_url: expected an absolute URL with a host or an absolute path starting with `/`"
        );
    }

    #[test]
    fn verifies() {
        let opts = d(&[("kid", s("k1"))]);
        let url = call(
            signed_url,
            &[
                s("https://x.test/p"),
                d(&[("a", s("1"))]),
                s("secret1"),
                i(100),
                opts,
            ],
        );
        let keys = d(&[("k1", s("secret1"))]);
        assert_eq!(
            call(
                verify_signed_url,
                &[s(&url), keys.clone(), i(105), d(&[("skew_seconds", i(10))])]
            ),
            "{claims: {a: 1}, expired: false, expires_at: 100, kid: k1, reason: ok, signature_valid: true, valid: true}"
        );
        assert_eq!(
            call(verify_signed_url, &[s(&url), keys.clone(), i(105)]),
            "{claims: {a: 1}, expired: true, expires_at: 100, kid: k1, reason: expired, signature_valid: true, valid: false}"
        );
        assert_eq!(
            call(
                verify_signed_url,
                &[s(&url.replace("a=1", "a=2")), keys.clone(), i(0)]
            ),
            "{claims: {a: 2}, expired: false, expires_at: 100, kid: k1, reason: bad_signature, signature_valid: false, valid: false}"
        );
        assert_eq!(
            call(verify_signed_url, &[s(&url), d(&[]), i(0)]),
            "{claims: {a: 1}, expired: false, expires_at: 100, kid: k1, reason: unknown_key, signature_valid: false, valid: false}"
        );
        assert!(
            call(verify_signed_url, &[s("/p?exp=1"), s("k"), i(0)]).contains("missing_signature")
        );
        assert!(call(verify_signed_url, &[s("/p?sig=a"), s("k"), i(0)]).contains("missing_expiry"));
        assert!(
            call(verify_signed_url, &[s("/p?sig=a&exp=x"), s("k"), i(0)])
                .contains("invalid_expiry")
        );
        assert!(
            call(
                verify_signed_url,
                &[s("/p?sig=a&exp=1&kid=a&kid=b"), s("k"), i(0)]
            )
            .contains("duplicate_kid")
        );
    }

    #[test]
    fn argument_errors() {
        assert_eq!(
            thrown(signed_url, &[s("/p")]),
            "signed_url: requires 4 or 5 arguments: base, claims, secret, expires_at, options?"
        );
        assert_eq!(
            thrown(signed_url, &[i(1), d(&[]), s("k"), i(1)]),
            "signed_url: base must be a string, got int"
        );
        assert_eq!(
            thrown(signed_url, &[s("/p"), s("x"), s("k"), i(1)]),
            "signed_url: claims must be a dict, got string"
        );
        assert_eq!(
            thrown(signed_url, &[s("/p"), d(&[("sig", s("x"))]), s("k"), i(1)]),
            "signed_url: claims cannot contain reserved parameter `sig`"
        );
        assert_eq!(
            thrown(signed_url, &[s("/p"), d(&[]), s("k"), s("1")]),
            "signed_url: expires_at must be an int, got string"
        );
        let same = d(&[("signature_param", s("exp"))]);
        assert_eq!(
            thrown(signed_url, &[s("/p"), d(&[]), s("k"), i(1), same]),
            "signed_url: signature_param, expires_param, and kid_param must be distinct"
        );
        assert_eq!(
            thrown(
                signed_url,
                &[s("/p"), d(&[]), s("k"), i(1), d(&[("kid_param", s(""))])]
            ),
            "signed_url: option `kid_param` cannot be empty"
        );
        assert_eq!(
            thrown(
                signed_url,
                &[s("/p"), d(&[]), s("k"), i(1), d(&[("skew_seconds", i(-1))])]
            ),
            "signed_url: skew_seconds must be greater than or equal to 0"
        );
        assert_eq!(
            thrown(verify_signed_url, &[s("/p"), i(1), i(0)]),
            "verify_signed_url: secret_or_keys must be a string or dict, got int"
        );
    }
}
