//! String helpers not in the core set (`language.md` 9.2, 9.4): `format`, padding,
//! repetition, characters and code points, trimming, `lower`/`upper` aliases. Case
//! conversions live in `case.rs`, path helpers in `paths.rs`. As in the core, string
//! arguments are coerced with display unless a stricter type is needed.

use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;
use harn_vm::{VmError, display::display};

use crate::util::{arg, as_i64, charge, check_size, int_arg, items_arg, text, type_err};

// ----- format -----------------------------------------------------------------------

/// `format(template, dict)` replaces each `{key}` with the display of `dict[key]`
/// (unknown keys stay as written); otherwise each `{}` takes the display of the next
/// argument (`{}` stays when the arguments run out). As in the reference there is no
/// escape for braces.
fn format(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let template = text(args, 0)?;
    charge(host, template.len() / 16 + 1)?;
    let mut out = String::with_capacity(template.len());
    let mut rest = template.as_str();
    if let Some(Value::Dict(d)) = args.get(1) {
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let Some(close) = rest[open..].find('}') else {
                rest = &rest[open..];
                break;
            };
            let key = &rest[open + 1..open + close];
            match d.get(key) {
                Some(v) => out.push_str(&display(v)?),
                None => out.push_str(&rest[open..=open + close]),
            }
            check_size(host, out.len(), "format")?;
            rest = &rest[open + close + 1..];
        }
    } else {
        let mut next = args.iter().skip(1);
        while let Some(pos) = rest.find("{}") {
            out.push_str(&rest[..pos]);
            match next.next() {
                Some(v) => out.push_str(&display(v)?),
                None => out.push_str("{}"),
            }
            check_size(host, out.len(), "format")?;
            rest = &rest[pos + 2..];
        }
    }
    out.push_str(rest);
    Ok(Value::str(out))
}

// ----- padding, repetition, characters ----------------------------------------------

fn pad(host: &dyn Host, args: &[Value], name: &str, left: bool) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let width = int_arg(name, args, 1)?;
    let fill = match arg(args, 2) {
        Value::Nil => " ".to_owned(),
        _ => text(args, 2)?,
    };
    let len = as_i64(s.chars().count());
    let width = usize::try_from(width).unwrap_or(0);
    check_size(host, width.saturating_mul(4), name)?;
    if fill.is_empty() || len >= as_i64(width) {
        return Ok(Value::str(s));
    }
    let need = width - usize::try_from(len).unwrap_or(0);
    let padding: String = fill.chars().cycle().take(need).collect();
    Ok(Value::str(if left { padding + &s } else { s + &padding }))
}

fn pad_left(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    pad(host, args, "pad_left", true)
}

fn pad_right(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    pad(host, args, "pad_right", false)
}

fn repeat(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let n = usize::try_from(int_arg("repeat", args, 1)?).unwrap_or(0);
    check_size(host, s.len().saturating_mul(n), "repeat")?;
    Ok(Value::str(s.repeat(n)))
}

fn chars(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    crate::util::check_len(host, s.chars().count(), "chars")?;
    charge(host, s.len())?;
    Ok(Value::list(
        s.chars().map(harn_vm::chars::char_value_of).collect(),
    ))
}

fn code_points(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    charge(host, s.len())?;
    Ok(Value::list(
        s.chars()
            .map(|c| Value::Int(i64::from(u32::from(c))))
            .collect(),
    ))
}

fn ord(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    Ok(s.chars()
        .next()
        .map_or(Value::Nil, |c| Value::Int(i64::from(u32::from(c)))))
}

fn char_of(name: &str, v: &Value) -> Result<char, VmError> {
    match v {
        Value::Int(n) => u32::try_from(*n)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| VmError::thrown_str(format!("{name}: invalid code point {n}"))),
        other => Err(type_err(name, "int", other)),
    }
}

fn chr(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(char_of("chr", arg(args, 0))?.to_string()))
}

fn from_code_points(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let items = items_arg("from_code_points", args, 0)?;
    charge(host, items.len())?;
    let mut out = String::new();
    for v in items.iter() {
        out.push(char_of("from_code_points", v)?);
    }
    Ok(Value::str(out))
}

fn char_at(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let i = int_arg("char_at", args, 1)?;
    let count = as_i64(s.chars().count());
    let i = if i < 0 { i + count } else { i };
    Ok(usize::try_from(i)
        .ok()
        .and_then(|i| s.chars().nth(i))
        .map_or(Value::Nil, harn_vm::chars::char_value_of))
}

fn reverse_str(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(text(args, 0)?.chars().rev().collect::<String>()))
}

fn lines(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    charge(host, s.len() / 16 + 1)?;
    Ok(Value::list(s.lines().map(Value::str).collect()))
}

fn words(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    charge(host, s.len() / 16 + 1)?;
    Ok(Value::list(s.split_whitespace().map(Value::str).collect()))
}

fn trim_start(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(text(args, 0)?.trim_start()))
}

fn trim_end(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(text(args, 0)?.trim_end()))
}

fn lower(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(text(args, 0)?.to_lowercase()))
}

fn upper(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(text(args, 0)?.to_uppercase()))
}

/// `truncate(s, n, suffix = "...")`: at most `n` characters, the suffix included.
fn truncate(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let n = usize::try_from(int_arg("truncate", args, 1)?).unwrap_or(0);
    let suffix = match arg(args, 2) {
        Value::Nil => "...".to_owned(),
        _ => text(args, 2)?,
    };
    if s.chars().count() <= n {
        return Ok(Value::str(s));
    }
    let keep = n.saturating_sub(suffix.chars().count());
    let mut out: String = s.chars().take(keep).collect();
    out.push_str(&suffix);
    Ok(Value::str(out))
}

fn index_of(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let needle = text(args, 1)?;
    Ok(Value::Int(
        s.find(needle.as_str())
            .map_or(-1, |b| as_i64(s[..b].chars().count())),
    ))
}

fn count_occurrences(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    let needle = text(args, 1)?;
    if needle.is_empty() {
        return Ok(Value::Int(0));
    }
    Ok(Value::Int(as_i64(s.matches(needle.as_str()).count())))
}

/// `indent(text, prefix = "  ")`: prefixes every non-blank line.
fn indent(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let t = text(args, 0)?;
    let prefix = match arg(args, 1) {
        Value::Nil => "  ".to_owned(),
        _ => text(args, 1)?,
    };
    let mut out = String::with_capacity(t.len());
    for line in t.split_inclusive('\n') {
        if !line.trim_end_matches('\n').is_empty() {
            out.push_str(&prefix);
        }
        out.push_str(line);
        check_size(host, out.len(), "indent")?;
    }
    Ok(Value::str(out))
}

/// `dedent(text)`: removes the longest common leading whitespace of non-blank lines.
fn dedent(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let t = text(args, 0)?;
    let mut prefix: Option<&str> = None;
    for line in t.lines().filter(|l| !l.trim().is_empty()) {
        let lead = &line[..line.len() - line.trim_start().len()];
        prefix = Some(match prefix {
            None => lead,
            Some(p) => {
                let n = p
                    .bytes()
                    .zip(lead.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                &p[..n]
            }
        });
    }
    let prefix = prefix.unwrap_or("");
    if prefix.is_empty() {
        return Ok(Value::str(t));
    }
    let out: String = t
        .split_inclusive('\n')
        .map(|line| line.strip_prefix(prefix).unwrap_or(line))
        .collect();
    Ok(Value::str(out))
}

/// `word_wrap(text, width = 80)`: greedy wrapping at whitespace; existing newlines kept;
/// a word longer than the width gets its own line.
fn word_wrap(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let t = text(args, 0)?;
    let width = match arg(args, 1) {
        Value::Nil => 80,
        _ => usize::try_from(int_arg("word_wrap", args, 1)?.max(1)).unwrap_or(1),
    };
    let mut out = String::with_capacity(t.len());
    for (i, line) in t.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut col = 0usize;
        for (j, word) in line.split_whitespace().enumerate() {
            // Terminal columns: a CJK glyph or an emoji is two, a combining mark none.
            let n = unicode_width::UnicodeWidthStr::width(word);
            if j == 0 {
                col = n;
            } else if col + 1 + n > width {
                out.push('\n');
                col = n;
            } else {
                out.push(' ');
                col += 1 + n;
            }
            out.push_str(word);
        }
    }
    Ok(Value::str(out))
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("format", format),
        ("pad_left", pad_left),
        ("pad_right", pad_right),
        ("repeat", repeat),
        ("chars", chars),
        ("code_points", code_points),
        ("from_code_points", from_code_points),
        ("ord", ord),
        ("chr", chr),
        ("char_at", char_at),
        ("reverse_string", reverse_str),
        ("lines", lines),
        ("words", words),
        ("trim_start", trim_start),
        ("trim_end", trim_end),
        ("lower", lower),
        ("upper", upper),
        ("truncate", truncate),
        ("index_of", index_of),
        ("count_occurrences", count_occurrences),
        ("indent", indent),
        ("dedent", dedent),
        ("word_wrap", word_wrap),
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
    use crate::test_host::{call, call_err, i, l, s};

    #[test]
    fn format_named_and_positional() {
        let mut d = harn_vm::value::Dict::new();
        d.insert("name", s("Ada"));
        d.insert("n", i(3));
        assert_eq!(
            call(format, &[s("hi {name}, {n} {x} {{n}} {"), Value::dict(d)]),
            "hi Ada, 3 {x} {{n}} {"
        );
        assert_eq!(
            call(format, &[s("{} + {} = {} {}"), i(1), i(2), i(3)]),
            "1 + 2 = 3 {}"
        );
    }

    #[test]
    fn padding_and_repeat() {
        assert_eq!(call(pad_left, &[s("7"), i(3), s("0")]), "007");
        assert_eq!(call(pad_right, &[s("ab"), i(4)]), "ab  ");
        assert_eq!(call(pad_left, &[s("long"), i(2)]), "long");
        assert_eq!(call(repeat, &[s("ab"), i(3)]), "ababab");
        assert_eq!(call(repeat, &[s("ab"), i(-1)]), "");
        assert_eq!(call(truncate, &[s("hello world"), i(8)]), "hello...");
        assert!(call_err(repeat, &[s("ab"), s("x")]).contains("repeat: expected int, got string"));
        assert!(call_err(chr, &[s("x")]).contains("chr: expected int"));
    }

    #[test]
    fn chars_and_points() {
        assert_eq!(call(chars, &[s("héy")]), "[h, é, y]");
        assert_eq!(call(code_points, &[s("AB")]), "[65, 66]");
        assert_eq!(call(from_code_points, &[l(vec![i(104), i(105)])]), "hi");
        assert_eq!(call(ord, &[s("a")]), "97");
        assert_eq!(call(chr, &[i(97)]), "a");
        assert_eq!(call(char_at, &[s("abc"), i(-1)]), "c");
        assert_eq!(call(char_at, &[s("abc"), i(5)]), "nil");
        assert_eq!(call(indent, &[s("a\n\nb")]), "  a\n\n  b");
        assert_eq!(call(dedent, &[s("    one\n      two\n")]), "one\n  two\n");
        assert_eq!(
            call(
                word_wrap,
                &[s("the quick brown fox jumps over the lazy dog"), i(15)]
            ),
            "the quick brown\nfox jumps over\nthe lazy dog"
        );
        assert!(call_err(word_wrap, &[s("x"), s("y")]).contains("word_wrap: expected int"));
    }
}
