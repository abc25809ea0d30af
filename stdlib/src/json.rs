//! JSON: `json_parse`, `json_stringify` (compact, sorted keys, integral floats without a
//! fraction; `pretty` option) and `json_extract` (`code-mode.md` 4.5). Pointers are in
//! `json_pointer.rs`.
//!
//! Mapping: objects ↔ dicts, arrays ↔ lists (sets and pairs are written as arrays),
//! integers that fit i64 ↔ ints, other numbers ↔ floats (non-finite floats are written as
//! `null`). Structs are written as objects of their fields; other values (durations,
//! ranges, enums, closures, bytes, ...) as the JSON string of their display.

use std::fmt::Write as _;

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Key, Value};

use crate::util::{MAX_BUILD, arg, charge, text, type_err};

// ----- parsing ----------------------------------------------------------------------

/// Parses JSON text into a Harn value (serde_json's error text on failure), building
/// the values as the parser reads them: no intermediate `serde_json::Value` tree.
pub fn parse_text(s: &str) -> Result<Value, String> {
    serde_json::from_str::<Parsed>(s)
        .map(|p| p.0)
        .map_err(|e| e.to_string())
}

/// A Harn value read straight from JSON.
struct Parsed(Value);

impl<'de> serde::Deserialize<'de> for Parsed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Parsed, D::Error> {
        d.deserialize_any(ValueVisitor).map(Parsed)
    }
}

/// An object's key read straight into a dict key: read as a `String` first, it would be
/// copied a second time into the key.
struct ParsedKey(Key);

impl<'de> serde::Deserialize<'de> for ParsedKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ParsedKey, D::Error> {
        d.deserialize_str(KeyVisitor).map(ParsedKey)
    }
}

struct KeyVisitor;

impl<'de> serde::de::Visitor<'de> for KeyVisitor {
    type Value = Key;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object key")
    }

    fn visit_str<E>(self, s: &str) -> Result<Key, E> {
        Ok(Key::from(s))
    }
}

struct ValueVisitor;

impl<'de> serde::de::Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Int(n))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        // Past i64: a float, as `from_json` reads it.
        Ok(i64::try_from(n).map_or(Value::Float(n as f64), Value::Int))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Value::Float(x))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::str(s))
    }

    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::str(s))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(Parsed(v)) = seq.next_element::<Parsed>()? {
            items.push(v);
        }
        Ok(Value::list(items))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut d = Dict::new();
        while let Some((ParsedKey(k), Parsed(v))) = map.next_entry::<ParsedKey, Parsed>()? {
            d.insert(k, v);
        }
        Ok(Value::dict(d))
    }
}

fn json_parse(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    charge(host, s.len() / 16 + 1)?;
    parse_text(&s).map_err(|e| VmError::thrown_str(format!("json_parse: {e}")))
}

// ----- writing ----------------------------------------------------------------------

/// Writes a number the way `json_stringify` does.
fn write_float(out: &mut String, x: f64) {
    if !x.is_finite() {
        out.push_str("null");
    } else if x == x.trunc() && x.abs() < 1e17 {
        let _ = write!(out, "{}", x as i64);
    } else {
        let _ = write!(out, "{x}");
    }
}

/// `s` as a JSON string literal, escaped as `serde_json` escapes (short forms for
/// `\b \t \n \f \r`, `\u00xx` for the other control characters, `\"` and `\\`,
/// nothing else), written straight into `out`: unescaped runs are copied whole.
fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let short = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            0x09 => "\\t",
            0x0a => "\\n",
            0x0c => "\\f",
            0x0d => "\\r",
            0x00..=0x1f => "",
            _ => continue,
        };
        // `i` is an ASCII byte, so both ends of the run are character boundaries.
        out.push_str(s.get(start..i).unwrap_or(""));
        if short.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(short);
        }
        start = i + 1;
    }
    out.push_str(s.get(start..).unwrap_or(""));
    out.push('"');
}

fn newline(out: &mut String, indent: Option<usize>, level: usize) {
    if let Some(w) = indent {
        out.push('\n');
        out.extend(std::iter::repeat_n(' ', w * level));
    }
}

fn write_seq(
    out: &mut String,
    items: &[Value],
    indent: Option<usize>,
    level: usize,
    cap: usize,
) -> Result<(), VmError> {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        newline(out, indent, level + 1);
        write_json(out, item, indent, level + 1, cap)?;
    }
    if !items.is_empty() {
        newline(out, indent, level);
    }
    out.push(']');
    Ok(())
}

fn write_obj(
    out: &mut String,
    d: &Dict,
    indent: Option<usize>,
    level: usize,
    cap: usize,
) -> Result<(), VmError> {
    out.push('{');
    for (i, (k, v)) in d.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        newline(out, indent, level + 1);
        write_str(out, k);
        out.push(':');
        if indent.is_some() {
            out.push(' ');
        }
        write_json(out, v, indent, level + 1, cap)?;
    }
    if !d.is_empty() {
        newline(out, indent, level);
    }
    out.push('}');
    Ok(())
}

/// Appends the JSON text of a value (`indent` = spaces per level for pretty output),
/// refusing to grow `out` past `cap` bytes (the run's string cap: see [`string_cap`]).
pub fn write_json(
    out: &mut String,
    v: &Value,
    indent: Option<usize>,
    level: usize,
    cap: usize,
) -> Result<(), VmError> {
    harn_vm::walk::visit(level)?;
    if out.len() > cap {
        return Err(over_cap(cap, out.len()));
    }
    match v {
        Value::Nil => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(n) => out.push_str(itoa::Buffer::new().format(*n)),
        Value::Float(x) => write_float(out, *x),
        Value::Str(s) => write_str(out, s),
        Value::List(items) | Value::Set(items) => write_seq(out, items, indent, level, cap)?,
        Value::Pair(p) => write_seq(out, &[p.0.clone(), p.1.clone()], indent, level, cap)?,
        Value::Dict(d) => write_obj(out, d, indent, level, cap)?,
        Value::Struct(s) => write_obj(out, &s.fields, indent, level, cap)?,
        other => write_str(out, &display(other)?),
    }
    Ok(())
}

/// The largest string a builtin may build in this run: the run's `max_string_bytes`,
/// at most [`MAX_BUILD`].
pub fn string_cap(host: &dyn Host) -> usize {
    host.value_caps().0.unwrap_or(MAX_BUILD).min(MAX_BUILD)
}

/// The memory-limit error for text that grew past `cap` (checked while writing, so the
/// text never grows much beyond it).
fn over_cap(cap: usize, len: usize) -> VmError {
    if cap < MAX_BUILD {
        VmError::limit(harn_vm::error::Limit::Memory(format!(
            "max_string_bytes={cap}"
        )))
    } else {
        harn_vm::native::too_large("json_stringify", len as u128)
    }
}

/// Compact JSON text of a value.
pub fn to_json_text(v: &Value) -> Result<String, VmError> {
    let mut out = String::new();
    write_json(&mut out, v, None, 0, MAX_BUILD)?;
    Ok(out)
}

/// `json_stringify(value, pretty?)`: `pretty` is `true` (2 spaces), an int indent, or
/// a dict `{pretty: bool, indent: int}`.
fn json_stringify(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let indent = match arg(args, 1) {
        Value::Nil | Value::Bool(false) => None,
        Value::Bool(true) => Some(2),
        Value::Int(n) => Some(usize::try_from(*n).unwrap_or(0).min(16)),
        Value::Dict(d) => {
            let on = d.get("pretty").is_some_and(Value::truthy) || d.contains_key("indent");
            let width = match d.get("indent") {
                Some(Value::Int(n)) => usize::try_from(*n).unwrap_or(0).min(16),
                _ => 2,
            };
            on.then_some(width)
        }
        other => {
            return Err(type_err(
                "json_stringify",
                "bool, int or dict options",
                other,
            ));
        }
    };
    let mut out = String::new();
    write_json(&mut out, arg(args, 0), indent, 0, string_cap(host))?;
    charge(host, out.len() / 64 + 1)?;
    Ok(Value::str(out))
}

// ----- extraction -------------------------------------------------------------------

/// The body of the first fenced code block (```` ``` ```` with an optional info string).
fn fenced_block(s: &str) -> Option<&str> {
    let start = s.find("```")?;
    let after = &s[start + 3..];
    let body_start = after.find('\n')? + 1;
    let body = &after[body_start..];
    let end = body.find("```")?;
    Some(body[..end].trim())
}

/// The balanced span starting at the first `open` (`{` or `[`): brackets inside strings
/// are skipped, and so are escaped characters.
fn balanced_span(s: &str, open: u8) -> Option<&str> {
    let start = s.bytes().position(|c| c == open)?;
    let close = if open == b'{' { b'}' } else { b']' };
    let mut depth = 0usize;
    let mut in_str = false;
    let mut escaped = false;
    for (i, c) in s.bytes().enumerate().skip(start) {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            _ if c == open => depth += 1,
            _ if c == close => {
                depth -= 1;
                if depth == 0 {
                    return Some(&s[start..=i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The JSON found in free text: the trimmed text, else the first fenced code block,
/// else the balanced object from the first `{`, else the balanced array from the first
/// `[` (an object is preferred, as the reference does, wherever it starts).
pub fn extract(s: &str) -> Result<Value, String> {
    let trimmed = s.trim();
    let first_err = match parse_text(trimmed) {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    if let Some(block) = fenced_block(trimmed)
        && let Ok(v) = parse_text(block)
    {
        return Ok(v);
    }
    for open in [b'{', b'['] {
        if let Some(span) = balanced_span(trimmed, open)
            && let Ok(v) = parse_text(span)
        {
            return Ok(v);
        }
    }
    Err(first_err)
}

fn json_extract(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    charge(host, s.len() / 16 + 1)?;
    let v = extract(&s)
        .map_err(|e| VmError::thrown_str(format!("json_extract: failed to parse JSON: {e}")))?;
    match arg(args, 1) {
        Value::Nil => Ok(v),
        key => {
            let key = display(key)?;
            match &v {
                Value::Dict(d) if d.contains_key(&key) => {
                    Ok(d.get(&key).cloned().unwrap_or_default())
                }
                _ => Err(VmError::thrown_str(format!(
                    "json_extract: key '{key}' not found"
                ))),
            }
        }
    }
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("json_parse", json_parse);
    b.sync("json_stringify", json_stringify);
    b.sync("json_extract", json_extract);
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
    use crate::test_host::{call, call_err, i, l, s};

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        let mut samples: Vec<String> = (0u8..128).map(|b| format!("a{}b", char::from(b))).collect();
        samples.extend(
            [
                "",
                "plain",
                "é ☃ 𝄞",
                "\u{2028}\u{7f}",
                "\"\\/\n\t",
                "\u{1f}\u{0}end",
            ]
            .map(String::from),
        );
        for text in samples {
            let mut ours = String::new();
            write_str(&mut ours, &text);
            let theirs = serde_json::to_string(&text).unwrap();
            assert_eq!(ours, theirs, "{text:?}");
        }
    }

    #[test]
    fn stringify() {
        let v =
            parse_text(r#"{"name":"Ada","age":37,"tags":["x"],"f":2.0,"g":0.5,"n":null}"#).unwrap();
        assert_eq!(
            call(json_stringify, &[v.clone()]),
            r#"{"age":37,"f":2,"g":0.5,"n":null,"name":"Ada","tags":["x"]}"#
        );
        assert_eq!(call(json_stringify, &[Value::Float(2.0)]), "2");
        assert_eq!(call(json_stringify, &[s("a\"b\n")]), r#""a\"b\n""#);
        assert_eq!(
            call(
                json_stringify,
                &[l(vec![i(1), l(vec![])]), Value::Bool(true)]
            ),
            "[\n  1,\n  []\n]"
        );
        assert!(call_err(json_stringify, &[i(1), s("x")]).contains("json_stringify: expected"));
    }

    #[test]
    fn parse_and_errors() {
        assert_eq!(
            call(json_parse, &[s("[1, 2.5, \"x\", true, null]")]),
            "[1, 2.5, x, true, nil]"
        );
        assert!(call_err(json_parse, &[s("{")]).starts_with("Thrown: json_parse: "));
    }

    #[test]
    fn extract_forms() {
        assert_eq!(call(json_extract, &[s("  {\"a\": 1} ")]), "{a: 1}");
        assert_eq!(
            call(json_extract, &[s("Here:\n```json\n{\"a\": [1]}\n```\nbye")]),
            "{a: [1]}"
        );
        assert_eq!(
            call(json_extract, &[s("result: {\"a\": 2} ok"), s("a")]),
            "2"
        );
        assert_eq!(
            call(
                json_extract,
                &[s("first {\"a\": \"}\"} then {\"b\": 2} and [3]")]
            ),
            "{a: }}"
        );
        assert_eq!(
            call_err(json_extract, &[s("{\"a\": 2}"), s("b")]),
            "Thrown: json_extract: key 'b' not found"
        );
        assert!(
            call_err(json_extract, &[s("nothing")])
                .starts_with("Thrown: json_extract: failed to parse JSON: ")
        );
    }
}
