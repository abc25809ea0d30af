//! Regular expressions through the `regex` crate (linear-time matching, no
//! backreferences or look-around). As in the reference, the **pattern comes first**;
//! an invalid pattern throws `Invalid regex: <reason>`.
//!
//! - `regex_match(pattern, text)` → list of every match, or nil when none
//! - `regex_test(pattern, text)` → bool
//! - `regex_find(pattern, text)` → first match or nil
//! - `regex_replace(pattern, replacement, text)` → all matches replaced (`$1`, `${name}`)
//! - `regex_captures(pattern, text)` → one dict per match: `{match, groups}` plus one
//!   key per named group that took part (unmatched groups are nil in `groups`)
//! - `regex_split(pattern, text)` → list of pieces
//!
//! Each takes an optional last `flags` argument: any of `i` (case-insensitive), `m`
//! (multi-line anchors), `s` (`.` matches a newline), `x` (verbose); inline `(?i)` works
//! too. `regex_replace_all` is `regex_replace` under the name that says it.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};
use regex::{Regex, RegexBuilder};

use crate::util::{charge, check_size, text};

const CACHE_MAX: usize = 64;

thread_local! {
    static CACHE: RefCell<HashMap<String, Rc<Regex>>> = RefCell::new(HashMap::new());
}

/// A compiled pattern (cached per thread).
pub fn compile(name: &str, pattern: &str) -> Result<Rc<Regex>, VmError> {
    if let Some(re) = CACHE.with(|c| c.borrow().get(pattern).cloned()) {
        return Ok(re);
    }
    let re = RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .dfa_size_limit(1 << 22)
        .build()
        .map_err(|e| {
            let _ = name;
            VmError::thrown_str(format!("Invalid regex: {e}"))
        })?;
    let re = Rc::new(re);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_MAX {
            c.clear();
        }
        c.insert(pattern.to_owned(), Rc::clone(&re));
    });
    Ok(re)
}

/// The pattern of argument 0 with the flags of argument `flags_at` (`i`, `m`, `s`, `x`)
/// applied as an inline group, compiled.
fn pattern_arg(name: &str, args: &[Value], flags_at: usize) -> Result<Rc<Regex>, VmError> {
    let pattern = text(args, 0)?;
    let flags = match args.get(flags_at) {
        None | Some(Value::Nil) => String::new(),
        Some(_) => text(args, flags_at)?,
    };
    if let Some(bad) = flags.chars().find(|c| !matches!(c, 'i' | 'm' | 's' | 'x')) {
        return Err(VmError::thrown_str(format!(
            "Invalid regex: unsupported regex flag '{bad}', expected one of i/m/s/x"
        )));
    }
    if flags.is_empty() {
        compile(name, &pattern)
    } else {
        compile(name, &format!("(?{flags}){pattern}"))
    }
}

fn setup(host: &mut dyn Host, name: &str, args: &[Value]) -> Result<(String, Rc<Regex>), VmError> {
    let re = pattern_arg(name, args, 2)?;
    let s = text(args, 1)?;
    charge(host, s.len() / 16 + 1)?;
    Ok((s, re))
}

fn regex_match(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let (s, re) = setup(host, "regex_match", args)?;
    let found: Vec<Value> = re.find_iter(&s).map(|m| Value::str(m.as_str())).collect();
    Ok(if found.is_empty() {
        Value::Nil
    } else {
        Value::list(found)
    })
}

fn regex_test(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let (s, re) = setup(host, "regex_test", args)?;
    Ok(Value::Bool(re.is_match(&s)))
}

fn regex_find(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let (s, re) = setup(host, "regex_find", args)?;
    Ok(re.find(&s).map_or(Value::Nil, |m| Value::str(m.as_str())))
}

fn regex_replace(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let re = pattern_arg("regex_replace", args, 3)?;
    let rep = text(args, 1)?;
    let s = text(args, 2)?;
    charge(host, s.len() / 16 + 1)?;
    let n = re.find_iter(&s).count();
    check_size(
        host,
        s.len()
            .saturating_add(n.saturating_mul(rep.len().saturating_mul(4))),
        "regex_replace",
    )?;
    Ok(Value::str(re.replace_all(&s, rep.as_str()).into_owned()))
}

fn regex_captures(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let (s, re) = setup(host, "regex_captures", args)?;
    let names: Vec<Option<&str>> = re.capture_names().collect();
    let mut out = Vec::new();
    for caps in re.captures_iter(&s) {
        let text_of = |i: usize| caps.get(i).map_or(Value::Nil, |m| Value::str(m.as_str()));
        let mut d = Dict::new();
        d.insert("match", text_of(0));
        d.insert(
            "groups",
            Value::list((1..caps.len()).map(text_of).collect()),
        );
        for (i, n) in names.iter().enumerate() {
            if let Some(n) = n
                && caps.get(i).is_some()
            {
                d.insert((*n).to_owned(), text_of(i));
            }
        }
        out.push(Value::dict(d));
    }
    Ok(Value::list(out))
}

fn regex_split(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let (s, re) = setup(host, "regex_split", args)?;
    Ok(Value::list(re.split(&s).map(Value::str).collect()))
}

fn regex_escape(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::str(regex::escape(&text(args, 0)?)))
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("regex_match", regex_match);
    b.sync("regex_test", regex_test);
    b.sync("regex_find", regex_find);
    b.sync("regex_replace", regex_replace);
    b.sync("regex_replace_all", regex_replace);
    b.sync("regex_captures", regex_captures);
    b.sync("regex_split", regex_split);
    b.sync("regex_escape", regex_escape);
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
    use crate::test_host::{call, call_err, s};

    #[test]
    fn matching() {
        assert_eq!(
            call(regex_match, &[s(r"\d+"), s("a1b22c333")]),
            "[1, 22, 333]"
        );
        assert_eq!(call(regex_match, &[s(r"\d+"), s("abc")]), "nil");
        assert_eq!(call(regex_test, &[s("b"), s("abc")]), "true");
        assert_eq!(call(regex_find, &[s("x"), s("abc")]), "nil");
        assert_eq!(call(regex_replace, &[s("-"), s("+"), s("a-b-c")]), "a+b+c");
        assert_eq!(
            call(
                regex_replace,
                &[s(r"(\w+) (\w+)"), s("$2 $1"), s("john smith")]
            ),
            "smith john"
        );
        assert_eq!(call(regex_split, &[s(r",\s*"), s("a, b,c")]), "[a, b, c]");
        assert_eq!(
            call(regex_captures, &[s(r"(?P<key>\w)=(\w)(z)?"), s("k=v x=y")]),
            "[{groups: [k, v, nil], key: k, match: k=v}, {groups: [x, y, nil], key: x, match: x=y}]"
        );
    }

    #[test]
    fn bad_pattern_throws() {
        assert!(call_err(regex_match, &[s("("), s("x")]).starts_with("Thrown: Invalid regex: "));
    }
}
