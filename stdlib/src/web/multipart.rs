//! `multipart/form-data` (RFC 7578): `multipart_form_data` builds a body from a list of
//! field dicts, `multipart_parse` reads one back (bounded by size and count limits),
//! `multipart_field_bytes`/`multipart_field_text` read a parsed field's content.
//!
//! The default boundary is derived from the fields (`----harn-boundary-` and 16 hex
//! digits of a SHA-256 over their displays), so the same fields give the same body.
//! Errors are thrown strings prefixed with the builtin's name.

use std::collections::BTreeMap;
use std::rc::Rc;

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};
use sha2::Digest;

use super::{dict_of, opt_text};
use crate::encodings::hex_of;
use crate::util::{arg, as_i64, charge, check_len, check_size};

const BUILD: &str = "multipart_form_data";
const PARSE: &str = "multipart_parse";
const DEFAULT_MAX_BYTES: usize = 8 * 1024 * 1024;
const DEFAULT_MAX_FIELDS: usize = 128;

fn err(name: &str, msg: impl std::fmt::Display) -> VmError {
    VmError::thrown_str(format!("{name}: {msg}"))
}

fn single_line(s: &str) -> bool {
    !s.contains(['\r', '\n'])
}

/// 1 to 70 characters from RFC 2046's boundary alphabet (without the space).
fn check_boundary(name: &str, b: &str) -> Result<(), VmError> {
    if b.is_empty() {
        return Err(err(name, "boundary must not be empty"));
    }
    if b.len() > 70 {
        return Err(err(name, "boundary must be at most 70 bytes"));
    }
    if !b
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || b"'()+_,-./:=?".contains(&c))
    {
        return Err(err(
            name,
            "boundary contains a character that is not valid in multipart/form-data",
        ));
    }
    Ok(())
}

fn options<'a>(args: &'a [Value], i: usize, name: &str) -> Result<Option<&'a Dict>, VmError> {
    match arg(args, i) {
        Value::Dict(d) => Ok(Some(d)),
        Value::Nil => Ok(None),
        other => Err(err(
            name,
            format!(
                "expected options dict at argument {}, got {}",
                i + 1,
                other.type_name()
            ),
        )),
    }
}

/// One validated field, ready to write.
struct Part<'a> {
    name: &'a str,
    filename: Option<&'a str>,
    content_type: Option<&'a str>,
    headers: Vec<(&'a str, &'a str)>,
    content: &'a [u8],
}

/// The string at `key`: required (non-empty) or optional (nil or absent is None).
fn field_str<'a>(f: &'a Dict, key: &str, required: bool) -> Result<Option<&'a str>, VmError> {
    match f.get(key) {
        Some(Value::Str(s)) if !s.is_empty() || !required => {
            if !single_line(s) {
                return Err(err(BUILD, format!("{key} must be single-line")));
            }
            Ok(Some(s.as_str()))
        }
        Some(Value::Str(_)) => Err(err(BUILD, format!("{key} must not be empty"))),
        None | Some(Value::Nil) if required => Err(err(BUILD, format!("field is missing {key}"))),
        None | Some(Value::Nil) => Ok(None),
        Some(other) => Err(err(
            BUILD,
            format!("{key} must be a string, got {}", other.type_name()),
        )),
    }
}

/// The `content` (or `value`) of a field dict.
fn field_content(f: &Dict) -> Option<&Value> {
    f.get("content").or_else(|| f.get("value"))
}

fn part_of(f: &Dict) -> Result<Part<'_>, VmError> {
    let name = field_str(f, "name", true)?.unwrap_or_default();
    let filename = field_str(f, "filename", false)?;
    let content_type = field_str(f, "content_type", false)?;
    let content: &[u8] = match field_content(f) {
        Some(Value::Bytes(b)) => b,
        Some(Value::Str(s)) => s.as_bytes(),
        None | Some(Value::Nil) => return Err(err(BUILD, "field is missing content")),
        Some(other) => {
            return Err(err(
                BUILD,
                format!("content must be bytes or string, got {}", other.type_name()),
            ));
        }
    };
    let mut headers = Vec::new();
    match f.get("headers") {
        None | Some(Value::Nil) => {}
        Some(Value::Dict(h)) => {
            for (k, v) in h.iter() {
                if !single_line(k) || k.trim().is_empty() || k.contains(':') {
                    return Err(err(BUILD, "header names must be single-line"));
                }
                let lower = k.to_ascii_lowercase();
                if lower == "content-disposition" || lower == "content-type" {
                    return Err(err(BUILD, format!("{k} is managed by multipart_form_data")));
                }
                let Value::Str(v) = v else {
                    return Err(err(
                        BUILD,
                        format!("header {k} must be a string, got {}", v.type_name()),
                    ));
                };
                if !single_line(v) {
                    return Err(err(BUILD, "header values must be single-line"));
                }
                headers.push((k.as_str(), v.as_str()));
            }
        }
        Some(other) => {
            return Err(err(
                BUILD,
                format!("headers must be a dict, got {}", other.type_name()),
            ));
        }
    }
    Ok(Part {
        name,
        filename,
        content_type,
        headers,
        content,
    })
}

/// A header parameter as a quoted string (backslash and quote escaped).
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn part_head(boundary: &str, p: &Part) -> String {
    let mut head = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name={}",
        quoted(p.name)
    );
    if let Some(f) = p.filename {
        head.push_str("; filename=");
        head.push_str(&quoted(f));
    }
    head.push_str("\r\n");
    if let Some(ct) = p.content_type {
        head.push_str(&format!("Content-Type: {ct}\r\n"));
    }
    for (k, v) in &p.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    head
}

fn contains_bytes(haystack: &[u8], needle: &[u8]) -> bool {
    find(haystack, needle).is_some()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The boundary derived from the fields, with `-N` appended while some field's
/// content contains it.
fn default_boundary(fields: &[Value]) -> Result<String, VmError> {
    let mut h = sha2::Sha256::new();
    for f in fields {
        h.update(display(f)?.as_bytes());
        h.update([0u8]);
    }
    let base = format!("----harn-boundary-{}", hex_of(&h.finalize()[..8]));
    let contents: Vec<&[u8]> = fields
        .iter()
        .filter_map(|f| match f {
            Value::Dict(d) => match field_content(d) {
                Some(Value::Bytes(b)) => Some(b.as_slice()),
                Some(Value::Str(s)) => Some(s.as_bytes()),
                _ => None,
            },
            _ => None,
        })
        .collect();
    avoiding(&base, &contents)
}

/// `base`, or `base-N` for the first N in 1..100 such that no content contains it.
fn avoiding(base: &str, contents: &[&[u8]]) -> Result<String, VmError> {
    for n in 0..100 {
        let candidate = if n == 0 {
            base.to_owned()
        } else {
            format!("{base}-{n}")
        };
        if !contents
            .iter()
            .any(|c| contains_bytes(c, candidate.as_bytes()))
        {
            return Ok(candidate);
        }
    }
    Err(err(
        BUILD,
        "could not generate a boundary absent from field content",
    ))
}

/// `{boundary, content_type, body}` of a list of field dicts.
fn multipart_form_data(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let fields = match arg(args, 0) {
        Value::List(l) => Rc::clone(l),
        other => {
            return Err(err(
                BUILD,
                format!("fields must be a list, got {}", other.type_name()),
            ));
        }
    };
    let opts = options(args, 1, BUILD)?;
    let mut parts = Vec::with_capacity(fields.len());
    for (n, f) in fields.iter().enumerate() {
        match f {
            Value::Dict(d) => parts.push(part_of(d)?),
            other => {
                return Err(err(
                    BUILD,
                    format!("field {} must be a dict, got {}", n + 1, other.type_name()),
                ));
            }
        }
    }
    let content_bytes: usize = parts.iter().map(|p| p.content.len()).sum();
    charge(host, content_bytes / 64 + fields.len() + 1)?;
    let boundary = match opts.and_then(|o| o.get("boundary")) {
        None | Some(Value::Nil) => default_boundary(&fields)?,
        Some(Value::Str(b)) => b.as_str().to_owned(),
        Some(other) => {
            return Err(err(
                BUILD,
                format!("boundary must be a string, got {}", other.type_name()),
            ));
        }
    };
    check_boundary(BUILD, &boundary)?;
    let heads: Vec<String> = parts.iter().map(|p| part_head(&boundary, p)).collect();
    let total = heads.iter().map(String::len).sum::<usize>()
        + content_bytes
        + 2 * parts.len()
        + boundary.len()
        + 6;
    check_size(host, total, BUILD)?;
    let mut body = Vec::with_capacity(total);
    for (head, p) in heads.iter().zip(&parts) {
        body.extend_from_slice(head.as_bytes());
        body.extend_from_slice(p.content);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    Ok(dict_of([
        (
            "content_type",
            Value::str(format!("multipart/form-data; boundary={boundary}")),
        ),
        ("boundary", Value::str(boundary)),
        ("body", Value::Bytes(Rc::new(body))),
    ]))
}

/// Splits a header value at `;` outside quoted strings.
fn split_params(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            ';' if !quoted => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out
}

fn unquote(v: &str) -> String {
    let v = v.trim();
    let Some(inner) = v.strip_prefix('"').and_then(|x| x.strip_suffix('"')) else {
        return v.to_owned();
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next().unwrap_or('\\')),
            c => out.push(c),
        }
    }
    out
}

/// A header value's lowercased first item and its parameters (names lowercased).
fn header_params(value: &str) -> (String, BTreeMap<String, String>) {
    let mut items = split_params(value).into_iter();
    let base = items.next().unwrap_or_default().to_ascii_lowercase();
    let params = items
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), unquote(v)))
        .filter(|(k, _)| !k.is_empty())
        .collect();
    (base, params)
}

fn limit(opts: Option<&Dict>, key: &str, default: usize) -> Result<usize, VmError> {
    match opts.and_then(|o| o.get(key)) {
        None | Some(Value::Nil) => Ok(default),
        Some(Value::Int(n)) => usize::try_from(*n)
            .map_err(|_| err(PARSE, format!("{key} must be non-negative, got {n}"))),
        Some(other) => Err(err(
            PARSE,
            format!("{key} must be an int, got {}", other.type_name()),
        )),
    }
}

/// The headers of one part (names lowercased).
fn part_headers(raw: &[u8]) -> Result<BTreeMap<String, String>, VmError> {
    let text = std::str::from_utf8(raw).map_err(|_| err(PARSE, "part headers are not UTF-8"))?;
    let mut out = BTreeMap::new();
    for line in text.split("\r\n").filter(|l| !l.is_empty()) {
        let Some((k, v)) = line.split_once(':') else {
            return Err(err(PARSE, format!("malformed part header line `{line}`")));
        };
        let k = k.trim().to_ascii_lowercase();
        if k.is_empty() {
            return Err(err(PARSE, "part header name must not be empty"));
        }
        out.insert(k, v.trim().to_owned());
    }
    Ok(out)
}

struct Limits {
    total: usize,
    field: usize,
    fields: usize,
}

/// The fields of a body delimited by `boundary`.
fn parse_body(body: &[u8], boundary: &str, lim: &Limits) -> Result<Vec<Value>, VmError> {
    if body.len() > lim.total {
        return Err(err(
            PARSE,
            format!(
                "total body size {} exceeds max_total_bytes {}",
                body.len(),
                lim.total
            ),
        ));
    }
    let delim = format!("--{boundary}");
    let marker = format!("\r\n--{boundary}");
    let Some(mut rest) = body.strip_prefix(delim.as_bytes()) else {
        return Err(err(PARSE, "body does not start with multipart boundary"));
    };
    let mut fields = Vec::new();
    loop {
        if let Some(after) = rest.strip_prefix(b"--") {
            let after = after.strip_prefix(b"\r\n").unwrap_or(after);
            if !after.is_empty() {
                return Err(err(PARSE, "unexpected bytes after closing boundary"));
            }
            return Ok(fields);
        }
        rest = rest
            .strip_prefix(b"\r\n")
            .ok_or_else(|| err(PARSE, "malformed boundary delimiter line"))?;
        if fields.len() >= lim.fields {
            return Err(err(
                PARSE,
                format!("field count exceeds max_fields {}", lim.fields),
            ));
        }
        // A part with no headers starts with its blank line at once.
        let (head, after_head) = if let Some(r) = rest.strip_prefix(b"\r\n") {
            (&rest[..0], r)
        } else {
            let end = find(rest, b"\r\n\r\n")
                .ok_or_else(|| err(PARSE, "part is missing header terminator"))?;
            (&rest[..end], &rest[end + 4..])
        };
        let headers = part_headers(head)?;
        let end = find(after_head, marker.as_bytes())
            .ok_or_else(|| err(PARSE, "part is missing following boundary"))?;
        let content = &after_head[..end];
        if content.len() > lim.field {
            return Err(err(
                PARSE,
                format!(
                    "field size {} exceeds max_field_bytes {}",
                    content.len(),
                    lim.field
                ),
            ));
        }
        let disposition = headers
            .get("content-disposition")
            .ok_or_else(|| err(PARSE, "part is missing Content-Disposition header"))?;
        let (kind, params) = header_params(disposition);
        if kind != "form-data" {
            return Err(err(
                PARSE,
                format!("expected form-data disposition, got {kind}"),
            ));
        }
        let name = params
            .get("name")
            .filter(|n| !n.is_empty())
            .ok_or_else(|| err(PARSE, "part Content-Disposition is missing name"))?;
        let text = std::str::from_utf8(content).ok().map(str::to_owned);
        fields.push(dict_of([
            ("name", Value::str(name.as_str())),
            ("filename", opt_text(params.get("filename").cloned())),
            (
                "content_type",
                opt_text(headers.get("content-type").cloned()),
            ),
            (
                "headers",
                Value::dict(
                    headers
                        .iter()
                        .map(|(k, v)| (k.clone(), Value::str(v.as_str())))
                        .collect(),
                ),
            ),
            ("bytes", Value::Bytes(Rc::new(content.to_vec()))),
            ("text", opt_text(text)),
        ]));
        rest = &after_head[end + marker.len()..];
    }
}

/// `{boundary, fields, field_count, total_bytes}` of a multipart/form-data body.
fn multipart_parse(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let body: &[u8] = match arg(args, 0) {
        Value::Bytes(b) => b,
        Value::Str(s) => s.as_bytes(),
        other => {
            return Err(err(
                PARSE,
                format!(
                    "expected bytes or string at argument 1, got {}",
                    other.type_name()
                ),
            ));
        }
    };
    let content_type = match arg(args, 1) {
        Value::Str(s) => s.as_str(),
        other => {
            return Err(err(
                PARSE,
                format!("expected string at argument 2, got {}", other.type_name()),
            ));
        }
    };
    let opts = options(args, 2, PARSE)?;
    let lim = Limits {
        total: limit(opts, "max_total_bytes", DEFAULT_MAX_BYTES)?,
        field: limit(opts, "max_field_bytes", DEFAULT_MAX_BYTES)?,
        fields: limit(opts, "max_fields", DEFAULT_MAX_FIELDS)?,
    };
    let (media, params) = header_params(content_type);
    if media != "multipart/form-data" {
        return Err(err(
            PARSE,
            format!("expected multipart/form-data content type, got {media}"),
        ));
    }
    let boundary = params
        .get("boundary")
        .ok_or_else(|| err(PARSE, "content type is missing boundary"))?;
    check_boundary(PARSE, boundary)?;
    charge(host, body.len() / 64 + 1)?;
    let fields = parse_body(body, boundary, &lim)?;
    check_len(host, fields.len(), PARSE)?;
    Ok(dict_of([
        ("boundary", Value::str(boundary.as_str())),
        ("field_count", Value::Int(as_i64(fields.len()))),
        ("fields", Value::list(fields)),
        ("total_bytes", Value::Int(as_i64(body.len()))),
    ]))
}

/// The `bytes` of a parsed field.
fn field_bytes(name: &str, args: &[Value]) -> Result<Rc<Vec<u8>>, VmError> {
    let f = match arg(args, 0) {
        Value::Dict(d) => d,
        other => {
            return Err(err(
                name,
                format!("field must be a dict, got {}", other.type_name()),
            ));
        }
    };
    match f.get("bytes") {
        Some(Value::Bytes(b)) => Ok(Rc::clone(b)),
        Some(other) => Err(err(
            name,
            format!("field.bytes must be bytes, got {}", other.type_name()),
        )),
        None => Err(err(name, "field is missing bytes")),
    }
}

fn multipart_field_bytes(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Bytes(field_bytes("multipart_field_bytes", args)?))
}

fn multipart_field_text(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let name = "multipart_field_text";
    let b = field_bytes(name, args)?;
    charge(host, b.len() / 64 + 1)?;
    let s = std::str::from_utf8(&b).map_err(|_| err(name, "field is not valid UTF-8"))?;
    Ok(Value::str(s))
}

pub(super) fn register(b: &mut RegistryBuilder) {
    b.sync_table(&[
        ("multipart_form_data", multipart_form_data),
        ("multipart_parse", multipart_parse),
        ("multipart_field_bytes", multipart_field_bytes),
        ("multipart_field_text", multipart_field_text),
    ]);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{TestHost, d, i, s, show, thrown};

    fn run(f: harn_vm::native::NativeFn, args: &[Value]) -> Value {
        f(&mut TestHost::new(), args).unwrap()
    }

    fn get(v: &Value, key: &str) -> Value {
        let Value::Dict(m) = v else {
            panic!("not a dict")
        };
        m.get(key).cloned().unwrap_or_default()
    }

    #[test]
    fn builds_and_parses_back() {
        let fields = Value::list(vec![
            d(&[("name", s("title")), ("content", s("Hello"))]),
            d(&[
                ("name", s("up\"load")),
                ("filename", s("a.bin")),
                ("content_type", s("application/octet-stream")),
                ("headers", d(&[("X-Extra", s("1"))])),
                ("value", Value::Bytes(Rc::new(vec![0, 1, 255]))),
            ]),
        ]);
        let built = run(multipart_form_data, &[fields, d(&[("boundary", s("XyZ"))])]);
        let body = get(&built, "body");
        let Value::Bytes(body) = &body else { panic!() };
        assert_eq!(
            String::from_utf8_lossy(body),
            "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHello\r\n\
             --XyZ\r\nContent-Disposition: form-data; name=\"up\\\"load\"; filename=\"a.bin\"\r\n\
             Content-Type: application/octet-stream\r\nX-Extra: 1\r\n\r\n\0\u{1}\u{FFFD}\r\n--XyZ--\r\n"
        );
        assert_eq!(
            show(&get(&built, "content_type")),
            "multipart/form-data; boundary=XyZ"
        );
        let parsed = run(
            multipart_parse,
            &[get(&built, "body"), get(&built, "content_type")],
        );
        assert_eq!(show(&get(&parsed, "field_count")), "2");
        let fs = get(&parsed, "fields");
        let Value::List(fs) = &fs else { panic!() };
        assert_eq!(
            show(&fs[0]),
            "{bytes: b\"48656c6c6f\", content_type: nil, filename: nil, headers: {content-disposition: form-data; name=\"title\"}, name: title, text: Hello}"
        );
        assert_eq!(show(&get(&fs[1], "name")), "up\"load");
        assert_eq!(show(&get(&fs[1], "text")), "nil");
        assert!(show(&get(&fs[1], "headers")).contains("x-extra: 1"));
        assert_eq!(
            show(&run(multipart_field_bytes, &[fs[1].clone()])),
            "b\"0001ff\""
        );
        assert_eq!(show(&run(multipart_field_text, &[fs[0].clone()])), "Hello");
        assert_eq!(
            thrown(multipart_field_text, &[fs[1].clone()]),
            "multipart_field_text: field is not valid UTF-8"
        );
    }

    #[test]
    fn default_boundary_is_stable_and_avoids_content() {
        let fields = Value::list(vec![d(&[("name", s("a")), ("content", s("1"))])]);
        let a = run(multipart_form_data, std::slice::from_ref(&fields));
        let b = run(multipart_form_data, &[fields]);
        let boundary = show(&get(&a, "boundary"));
        assert_eq!(boundary, show(&get(&b, "boundary")));
        assert!(boundary.starts_with("----harn-boundary-") && boundary.len() == 34);
        assert_eq!(avoiding("B", &[b"xxBxx", b"B-1"]).unwrap(), "B-2");
        assert_eq!(avoiding("B", &[b"b"]).unwrap(), "B");
    }

    #[test]
    fn build_errors() {
        assert_eq!(
            thrown(multipart_form_data, &[s("x")]),
            "multipart_form_data: fields must be a list, got string"
        );
        assert_eq!(
            thrown(multipart_form_data, &[Value::list(vec![i(1)])]),
            "multipart_form_data: field 1 must be a dict, got int"
        );
        let no_name = Value::list(vec![d(&[("content", s("x"))])]);
        assert_eq!(
            thrown(multipart_form_data, &[no_name]),
            "multipart_form_data: field is missing name"
        );
        let empty = Value::list(vec![d(&[("name", s("")), ("content", s("x"))])]);
        assert_eq!(
            thrown(multipart_form_data, &[empty]),
            "multipart_form_data: name must not be empty"
        );
        let no_content = Value::list(vec![d(&[("name", s("a"))])]);
        assert_eq!(
            thrown(multipart_form_data, &[no_content]),
            "multipart_form_data: field is missing content"
        );
        let managed = Value::list(vec![d(&[
            ("name", s("a")),
            ("content", s("x")),
            ("headers", d(&[("Content-Type", s("x"))])),
        ])]);
        assert_eq!(
            thrown(multipart_form_data, &[managed]),
            "multipart_form_data: Content-Type is managed by multipart_form_data"
        );
        let ok = Value::list(vec![]);
        assert_eq!(
            thrown(
                multipart_form_data,
                &[ok.clone(), d(&[("boundary", s(""))])]
            ),
            "multipart_form_data: boundary must not be empty"
        );
        assert_eq!(
            thrown(
                multipart_form_data,
                &[ok.clone(), d(&[("boundary", s(&"a".repeat(71)))])]
            ),
            "multipart_form_data: boundary must be at most 70 bytes"
        );
        assert_eq!(
            thrown(multipart_form_data, &[ok, d(&[("boundary", s("a b"))])]),
            "multipart_form_data: boundary contains a character that is not valid in multipart/form-data"
        );
    }

    #[test]
    fn parse_errors_and_limits() {
        let body = s("--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--x--\r\n");
        let ct = s("multipart/form-data; boundary=x");
        assert_eq!(
            thrown(multipart_parse, &[body.clone(), s("text/plain")]),
            "multipart_parse: expected multipart/form-data content type, got text/plain"
        );
        assert_eq!(
            thrown(multipart_parse, &[body.clone(), s("multipart/form-data")]),
            "multipart_parse: content type is missing boundary"
        );
        assert_eq!(
            thrown(
                multipart_parse,
                &[body.clone(), ct.clone(), d(&[("max_fields", i(0))])]
            ),
            "multipart_parse: field count exceeds max_fields 0"
        );
        assert_eq!(
            thrown(
                multipart_parse,
                &[body.clone(), ct.clone(), d(&[("max_total_bytes", i(10))])]
            ),
            "multipart_parse: total body size 59 exceeds max_total_bytes 10"
        );
        assert_eq!(
            thrown(
                multipart_parse,
                &[body.clone(), ct.clone(), d(&[("max_field_bytes", i(0))])]
            ),
            "multipart_parse: field size 1 exceeds max_field_bytes 0"
        );
        assert_eq!(
            thrown(multipart_parse, &[s("junk"), ct.clone()]),
            "multipart_parse: body does not start with multipart boundary"
        );
        assert_eq!(
            thrown(
                multipart_parse,
                &[s("--x\r\nX-A: 1\r\n\r\n1\r\n--x--"), ct.clone()]
            ),
            "multipart_parse: part is missing Content-Disposition header"
        );
        assert_eq!(
            thrown(multipart_parse, &[i(1), ct.clone()]),
            "multipart_parse: expected bytes or string at argument 1, got int"
        );
        let quoted = s("Multipart/Form-Data; charset=utf-8; boundary=\"x\"");
        let parsed = run(multipart_parse, &[body, quoted]);
        assert_eq!(show(&get(&parsed, "total_bytes")), "59");
        assert_eq!(
            thrown(multipart_field_bytes, &[d(&[])]),
            "multipart_field_bytes: field is missing bytes"
        );
    }
}
