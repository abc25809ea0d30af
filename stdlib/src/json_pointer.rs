//! RFC 6901 JSON pointers over values: `json_pointer` reads, `json_pointer_set` and
//! `json_pointer_delete` return an updated copy (the argument is a value, so it is never
//! changed in place). A path that does not exist reads as nil and leaves a write
//! unchanged: nothing is created on the way.

use std::rc::Rc;

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{MAX_VALUE_DEPTH, Value};

use crate::util::{arg, charge, text};

/// The decoded reference tokens of a pointer (`""` is the whole document).
fn tokens(ptr: &str, name: &str) -> Result<Vec<String>, VmError> {
    if ptr.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = ptr.strip_prefix('/') else {
        return Err(VmError::thrown_str(format!(
            "{name}: pointer must be empty or start with '/'"
        )));
    };
    rest.split('/')
        .map(|raw| {
            let mut out = String::with_capacity(raw.len());
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c != '~' {
                    out.push(c);
                    continue;
                }
                match chars.next() {
                    Some('0') => out.push('~'),
                    Some('1') => out.push('/'),
                    Some(other) => {
                        return Err(VmError::thrown_str(format!(
                            "{name}: invalid escape '~{other}' in pointer"
                        )));
                    }
                    None => {
                        return Err(VmError::thrown_str(format!(
                            "{name}: dangling '~' in pointer"
                        )));
                    }
                }
            }
            Ok(out)
        })
        .collect()
}

/// A list index token: canonical decimal (no sign, no leading zero).
fn index(token: &str) -> Option<usize> {
    let canonical = !token.is_empty()
        && token.bytes().all(|c| c.is_ascii_digit())
        && (token == "0" || !token.starts_with('0'));
    if canonical { token.parse().ok() } else { None }
}

fn child(v: &Value, token: &str) -> Option<Value> {
    match v {
        Value::Dict(d) => d.get(token).cloned(),
        Value::Struct(s) => s.fields.get(token).cloned(),
        Value::List(items) => index(token).and_then(|i| items.get(i).cloned()),
        _ => None,
    }
}

/// RFC 6901 lookup; `None` when absent.
pub fn pointer(v: &Value, ptr: &str) -> Result<Option<Value>, VmError> {
    let mut cur = v.clone();
    for token in tokens(ptr, "json_pointer")? {
        match child(&cur, &token) {
            Some(n) => cur = n,
            None => return Ok(None),
        }
    }
    Ok(Some(cur))
}

/// What a write does at the pointer's last token.
#[derive(Clone, Copy)]
enum Edit<'a> {
    Set(&'a Value),
    Delete,
}

/// `v` with the edit applied at `path`; `None` when the path does not exist.
fn edited(v: &Value, path: &[String], edit: Edit<'_>, depth: usize) -> Option<Value> {
    if depth > MAX_VALUE_DEPTH {
        return None;
    }
    let (token, rest) = path.split_first()?;
    match v {
        Value::Dict(d) => {
            let mut d = Rc::clone(d);
            if rest.is_empty() {
                let m = Rc::make_mut(&mut d);
                match edit {
                    Edit::Set(new) => {
                        m.insert(token.clone(), new.clone());
                    }
                    Edit::Delete => {
                        m.remove(token)?;
                    }
                }
            } else {
                let inner = edited(d.get(token)?, rest, edit, depth + 1)?;
                Rc::make_mut(&mut d).insert(token.clone(), inner);
            }
            Some(Value::Dict(d))
        }
        Value::Struct(st) => {
            // A struct keeps its fields: deleting one, or adding a new one, is no edit.
            if matches!(edit, Edit::Delete) && rest.is_empty() || !st.fields.contains_key(token) {
                return None;
            }
            let inner = match rest.is_empty() {
                true => match edit {
                    Edit::Set(new) => new.clone(),
                    Edit::Delete => return None,
                },
                false => edited(st.fields.get(token)?, rest, edit, depth + 1)?,
            };
            let mut st = Rc::clone(st);
            Rc::make_mut(&mut st).fields.insert(token.clone(), inner);
            Some(Value::Struct(st))
        }
        Value::List(items) => {
            let mut items = Rc::clone(items);
            let len = items.len();
            let at = if token == "-" {
                Some(len)
            } else {
                index(token)
            };
            let at = at.filter(|i| *i <= len)?;
            if rest.is_empty() {
                let m = Rc::make_mut(&mut items);
                match edit {
                    Edit::Set(new) if at == len => m.push(new.clone()),
                    Edit::Set(new) => m[at] = new.clone(),
                    Edit::Delete if at < len => {
                        m.remove(at);
                    }
                    Edit::Delete => return None,
                }
            } else {
                let inner = edited(items.get(at)?, rest, edit, depth + 1)?;
                Rc::make_mut(&mut items)[at] = inner;
            }
            Some(Value::List(items))
        }
        _ => None,
    }
}

fn json_pointer(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let ptr = text(args, 1)?;
    charge(host, ptr.len() / 8 + 1)?;
    Ok(pointer(arg(args, 0), &ptr)?.unwrap_or_default())
}

fn json_pointer_set(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let ptr = text(args, 1)?;
    charge(host, ptr.len() / 8 + 1)?;
    let path = tokens(&ptr, "json_pointer_set")?;
    let doc = arg(args, 0);
    if path.is_empty() {
        return Ok(arg(args, 2).clone());
    }
    Ok(edited(doc, &path, Edit::Set(arg(args, 2)), 0).unwrap_or_else(|| doc.clone()))
}

fn json_pointer_delete(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let ptr = text(args, 1)?;
    charge(host, ptr.len() / 8 + 1)?;
    let path = tokens(&ptr, "json_pointer_delete")?;
    let doc = arg(args, 0);
    if path.is_empty() {
        return Ok(Value::Nil);
    }
    Ok(edited(doc, &path, Edit::Delete, 0).unwrap_or_else(|| doc.clone()))
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("json_pointer", json_pointer);
    b.sync("json_pointer_set", json_pointer_set);
    b.sync("json_pointer_delete", json_pointer_delete);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::json::parse_text;
    use crate::test_host::{call, call_err, i, s};

    #[test]
    fn reads() {
        let v = parse_text(r#"{"a":{"b":[10,20]},"x/y":1,"m~n":2}"#).unwrap();
        assert_eq!(call(json_pointer, &[v.clone(), s("/a/b/1")]), "20");
        assert_eq!(call(json_pointer, &[v.clone(), s("/x~1y")]), "1");
        assert_eq!(call(json_pointer, &[v.clone(), s("/m~0n")]), "2");
        assert_eq!(call(json_pointer, &[v.clone(), s("/a/b/01")]), "nil");
        assert_eq!(call(json_pointer, &[v.clone(), s("/zz")]), "nil");
        assert_eq!(call(json_pointer, &[i(3), s("")]), "3");
        assert!(call_err(json_pointer, &[v.clone(), s("a")]).contains("must be empty or start"));
        assert!(call_err(json_pointer, &[v, s("/a~2")]).contains("invalid escape '~2'"));
    }

    #[test]
    fn writes_return_copies() {
        let v = parse_text(r#"{"a":{"b":[10,20]}}"#).unwrap();
        assert_eq!(
            call(json_pointer_set, &[v.clone(), s("/a/b/-"), i(30)]),
            "{a: {b: [10, 20, 30]}}"
        );
        assert_eq!(
            call(json_pointer_set, &[v.clone(), s("/a/c"), i(1)]),
            "{a: {b: [10, 20], c: 1}}"
        );
        assert_eq!(
            call(json_pointer_set, &[v.clone(), s("/q/r"), i(1)]),
            "{a: {b: [10, 20]}}"
        );
        assert_eq!(
            call(json_pointer_delete, &[v.clone(), s("/a/b/0")]),
            "{a: {b: [20]}}"
        );
        assert_eq!(call(json_pointer_delete, &[v.clone(), s("")]), "nil");
        assert_eq!(
            call(json_pointer_delete, &[v.clone(), s("/a/zz")]),
            "{a: {b: [10, 20]}}"
        );
        assert_eq!(call(json_pointer, &[v, s("/a/b/1")]), "20");
    }
}
