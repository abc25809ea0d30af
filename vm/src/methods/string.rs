//! String methods. Lengths and indices count characters (Unicode scalar values), not
//! bytes.

use std::rc::Rc;

use super::{as_i64, charge, check_size, clamp_len, int_arg, list, text_arg};
use crate::error::VmError;
use crate::native::Host;
use crate::search;
use crate::value::Value;

pub(super) fn call(
    host: &mut dyn Host,
    s: Rc<String>,
    name: &str,
    args: &[Value],
) -> Result<Option<Value>, VmError> {
    // Nearly every method scans the string: one unit of fuel per 64 bytes, charged up
    // front, so a loop over a long string pays for what it reads.
    if name != "empty" {
        charge(host, s.len() / 64)?;
    }
    let v = match name {
        "count" | "len" => Value::Int(as_i64(crate::chars::count(&s))),
        "empty" => Value::Bool(s.is_empty()),
        "contains" => Value::Bool(search::contains(&s, &text_arg(args, 0)?)),
        "replace" if args.len() >= 2 => {
            let from = text_arg(args, 0)?;
            let to = text_arg(args, 1)?;
            charge(host, s.len() / 16 + 1)?;
            if !from.is_empty() && !search::contains(&s, &from) {
                Value::Str(s)
            } else {
                let grow = s
                    .len()
                    .saturating_add(s.len().saturating_add(1).saturating_mul(to.len()));
                check_size(host, grow, "replace")?;
                search::replace(&s, &from, &to).map_or(Value::Str(s), Value::str)
            }
        }
        "split" => {
            let sep = if args.is_empty() {
                ",".into()
            } else {
                text_arg(args, 0)?
            };
            split(host, &s, &sep)?
        }
        "trim" => trimmed(&s, s.trim()),
        "trim_start" => trimmed(&s, s.trim_start()),
        "trim_end" => trimmed(&s, s.trim_end()),
        "starts_with" => Value::Bool(s.starts_with(&*text_arg(args, 0)?)),
        "ends_with" => Value::Bool(s.ends_with(&*text_arg(args, 0)?)),
        "lowercase" | "lower" | "to_lower" => Value::str(s.to_lowercase()),
        "uppercase" | "upper" | "to_upper" => Value::str(s.to_uppercase()),
        "substring" => Value::str(char_range(
            &s,
            int_arg(args, 0).unwrap_or(0),
            int_arg(args, 1),
        )),
        "index_of" => {
            let needle = text_arg(args, 0)?;
            Value::Int(search::find(&s, &needle).map_or(-1, |b| char_index(&s, b)))
        }
        "last_index_of" => {
            let needle = text_arg(args, 0)?;
            Value::Int(search::rfind(&s, &needle).map_or(-1, |b| char_index(&s, b)))
        }
        "chars" | "to_list" => {
            let n = s.chars().count();
            super::check_len(host, n, "chars")?;
            charge(host, n)?;
            list(s.chars().map(crate::chars::char_value_of).collect())
        }
        "repeat" => {
            let n = int_arg(args, 0).unwrap_or(1);
            let n = usize::try_from(n.max(0)).unwrap_or(usize::MAX);
            let total = s.len().saturating_mul(n);
            check_size(host, total, "repeat")?;
            charge(host, total / 16 + 1)?;
            Value::str(s.repeat(n))
        }
        "reverse" => Value::str(s.chars().rev().collect::<String>()),
        "pad_left" | "pad_right" => pad(host, s, name == "pad_left", args)?,
        "lines" => {
            let parts: Vec<Value> = s.lines().map(Value::str).collect();
            charge(host, parts.len())?;
            list(parts)
        }
        "char_at" => match int_arg(args, 0).and_then(|i| usize::try_from(i).ok()) {
            Some(i) => crate::chars::char_value(&s, i).unwrap_or_default(),
            None => Value::Nil,
        },
        // Lazy iterators are not implemented yet: `iter` hands back the string itself.
        "iter" => Value::Str(s),
        _ => return Ok(None),
    };
    Ok(Some(v))
}

/// Keeps the original allocation when trimming removed nothing.
fn trimmed(orig: &Rc<String>, t: &str) -> Value {
    if t.len() == orig.len() {
        Value::Str(Rc::clone(orig))
    } else {
        Value::str(t)
    }
}

/// `s.split(sep)`, exactly as Rust splits (an empty separator yields `""`, each
/// character, `""`).
pub(crate) fn split(host: &mut dyn Host, s: &str, sep: &str) -> Result<Value, VmError> {
    // A one-byte separator (`" "`, `","`, `"\n"`: nearly every split) is searched for as
    // a byte, with `memchr`, where a string separator runs the general substring search:
    // the same pieces, a fifth of the time.
    match *sep.as_bytes() {
        [b] if b.is_ascii() => split_by(host, s, |s| s.split(char::from(b))),
        _ => split_by(host, s, |s| s.split(sep)),
    }
}

/// The pieces `pieces` cuts `s` into, counted before they are built, so an oversized
/// result is refused, not allocated.
fn split_by<'s, I: Iterator<Item = &'s str>>(
    host: &mut dyn Host,
    s: &'s str,
    pieces: impl Fn(&'s str) -> I,
) -> Result<Value, VmError> {
    let n = pieces(s).count();
    super::check_len(host, n, "split")?;
    charge(host, n)?;
    Ok(list(pieces(s).map(Value::str).collect()))
}

/// The character index of byte offset `b`.
fn char_index(s: &str, b: usize) -> i64 {
    as_i64(s.get(..b).map_or(0, |p| p.chars().count()))
}

/// Characters `start..end` (end defaults to the length), clamped to the string; a
/// negative bound counts as 0; empty when `start >= end`.
pub(crate) fn char_range(s: &Rc<String>, start: i64, end: Option<i64>) -> String {
    let len = crate::chars::count(s);
    let start = clamp_len(start, len);
    let end = end.map_or(len, |e| clamp_len(e, len));
    if start >= end {
        return String::new();
    }
    crate::chars::char_range(s, start, end)
        .unwrap_or_default()
        .to_owned()
}

fn pad(host: &mut dyn Host, s: Rc<String>, left: bool, args: &[Value]) -> Result<Value, VmError> {
    let width = usize::try_from(int_arg(args, 0).unwrap_or(0).max(0)).unwrap_or(usize::MAX);
    let fill = match args.get(1) {
        Some(v) => text_arg(std::slice::from_ref(v), 0)?
            .chars()
            .next()
            .unwrap_or(' '),
        None => ' ',
    };
    let len = s.chars().count();
    if len >= width {
        return Ok(Value::Str(s));
    }
    let missing = width - len;
    check_size(host, missing.saturating_mul(fill.len_utf8()), "pad")?;
    charge(host, missing / 16 + 1)?;
    let padding: String = std::iter::repeat_n(fill, missing).collect();
    if left {
        Ok(Value::str(padding + s.as_str()))
    } else {
        let mut s = s;
        Rc::make_mut(&mut s).push_str(&padding);
        Ok(Value::Str(s))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use crate::test_support::{TestHost, i, m, s};

    #[test]
    fn counts_characters_not_bytes() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, s("héllo"), "count", &[]), "5");
        assert_eq!(m(&mut h, s("héllo"), "len", &[]), "5");
        assert_eq!(m(&mut h, s(""), "empty", &[]), "true");
    }

    #[test]
    fn split_defaults_to_comma() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, s("a,b,,c"), "split", &[]), "[a, b, , c]");
        assert_eq!(m(&mut h, s("a b"), "split", &[s(" ")]), "[a, b]");
        assert_eq!(m(&mut h, s("ab"), "split", &[s("")]), "[, a, b, ]");
    }

    #[test]
    fn case_and_aliases() {
        let mut h = TestHost::new();
        for name in ["upper", "uppercase", "to_upper"] {
            assert_eq!(m(&mut h, s("aB"), name, &[]), "AB");
        }
        for name in ["lower", "lowercase", "to_lower"] {
            assert_eq!(m(&mut h, s("aB"), name, &[]), "ab");
        }
    }

    #[test]
    fn substring_clamps() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, s("hello"), "substring", &[i(1), i(3)]), "el");
        assert_eq!(m(&mut h, s("hello"), "substring", &[i(2)]), "llo");
        assert_eq!(m(&mut h, s("hello"), "substring", &[i(-4), i(99)]), "hello");
        assert_eq!(m(&mut h, s("hello"), "substring", &[i(4), i(2)]), "");
        assert_eq!(m(&mut h, s("héllo"), "substring", &[i(1), i(2)]), "é");
    }

    #[test]
    fn index_of_is_a_character_index() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, s("héllo"), "index_of", &[s("l")]), "2");
        assert_eq!(m(&mut h, s("héllo"), "last_index_of", &[s("l")]), "3");
        assert_eq!(m(&mut h, s("abc"), "index_of", &[s("z")]), "-1");
    }

    #[test]
    fn padding_and_char_at() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, s("7"), "pad_left", &[i(3), s("0")]), "007");
        assert_eq!(m(&mut h, s("7"), "pad_right", &[i(3)]), "7  ");
        assert_eq!(m(&mut h, s("long"), "pad_left", &[i(2)]), "long");
        assert_eq!(m(&mut h, s("héllo"), "char_at", &[i(1)]), "é");
        assert_eq!(m(&mut h, s("abc"), "char_at", &[i(3)]), "nil");
        assert_eq!(m(&mut h, s("abc"), "char_at", &[i(-1)]), "nil");
    }

    #[test]
    fn misc() {
        let mut h = TestHost::new();
        assert_eq!(m(&mut h, s("  x "), "trim", &[]), "x");
        assert_eq!(m(&mut h, s("  x "), "trim_start", &[]), "x ");
        assert_eq!(m(&mut h, s("ab"), "repeat", &[i(3)]), "ababab");
        assert_eq!(m(&mut h, s("ab"), "repeat", &[i(-1)]), "");
        assert_eq!(m(&mut h, s("abc"), "reverse", &[]), "cba");
        assert_eq!(m(&mut h, s("a\nb\r\nc\n"), "lines", &[]), "[a, b, c]");
        assert_eq!(m(&mut h, s("abc"), "chars", &[]), "[a, b, c]");
        assert_eq!(m(&mut h, s("a-b"), "replace", &[s("-"), s("+")]), "a+b");
        assert_eq!(m(&mut h, s("a-b"), "replace", &[s("-")]), "<none>");
        assert_eq!(m(&mut h, s("abc"), "contains", &[s("bc")]), "true");
        assert_eq!(m(&mut h, s("a1"), "contains", &[i(1)]), "true");
        assert_eq!(m(&mut h, s("abc"), "starts_with", &[s("ab")]), "true");
        assert_eq!(m(&mut h, s("abc"), "ends_with", &[s("ab")]), "false");
        assert_eq!(m(&mut h, s("abc"), "nosuch", &[]), "<none>");
    }

    #[test]
    fn huge_repeat_is_an_error_not_an_abort() {
        let mut h = TestHost::new();
        let r = super::super::call_method(&mut h, s("ab"), "repeat", &[i(i64::MAX)]);
        assert!(r.is_err());
        let r = super::super::call_method(&mut h, s("ab"), "pad_left", &[i(i64::MAX)]);
        assert!(r.is_err());
    }
}
