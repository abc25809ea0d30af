//! Values crossing the boundary between a run and its tools (`code-mode.md` 4.11).

use std::rc::Rc;

use serde_json::{Map, Number, Value as Json};

use crate::display::display;
use crate::value::{Dict, Key, MAX_VALUE_DEPTH, Value};

/// JSON from a tool into a Harn value.
pub fn from_json(j: &Json) -> Value {
    match j {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Json::String(s) => Value::str(s.clone()),
        Json::Array(items) => Value::List(Rc::new(items.iter().map(from_json).collect())),
        Json::Object(map) => Value::dict(Dict::from_sorted(
            map.iter()
                .map(|(k, v)| (Key::from(k.as_str()), from_json(v)))
                .collect(),
        )),
    }
}

/// How values without a JSON form are treated.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Tool input: refused, naming the path.
    Input,
    /// The run's result: written as their display string.
    Result,
}

/// A Harn value as JSON. In `Input` mode a value with no JSON form is an error naming
/// its JSON pointer path.
pub fn to_json(v: &Value, mode: Mode) -> Result<Json, String> {
    to_json_at(v, mode, &Path::Root, 0)
}

/// Where a value sits inside the one being converted, kept as links to the enclosing
/// steps and written out as a JSON pointer only for an error message: most
/// conversions succeed, and building each element's pointer up front (a `format!` and
/// two escaping passes per dict key) was most of a tool argument's conversion.
enum Path<'a> {
    Root,
    Key(&'a Path<'a>, &'a str),
    Index(&'a Path<'a>, usize),
}

impl Path<'_> {
    /// The JSON pointer (`/items/0/name`), or `root`.
    fn pointer(&self) -> String {
        let mut steps = Vec::new();
        let mut at = self;
        loop {
            match at {
                Path::Root => break,
                Path::Key(up, key) => {
                    steps.push(key.replace('~', "~0").replace('/', "~1"));
                    at = up;
                }
                Path::Index(up, i) => {
                    steps.push(i.to_string());
                    at = up;
                }
            }
        }
        if steps.is_empty() {
            return "root".to_string();
        }
        steps.iter().rev().map(|s| format!("/{s}")).collect()
    }
}

/// What sizing a value before serialising it found.
#[derive(Debug, PartialEq, Eq)]
pub enum Size {
    Fits,
    /// Nested deeper than [`MAX_VALUE_DEPTH`].
    TooDeep,
    /// More elements than allowed (a shared part counts each time it appears, as
    /// serialising writes it).
    TooMany,
}

/// Sizes `v` against `max` elements, depth first, visiting at most `max + 1`.
pub fn size_of(v: &Value, max: usize) -> Size {
    let mut pending = vec![(v, 0usize)];
    let mut seen = 0usize;
    while let Some((v, depth)) = pending.pop() {
        if depth > MAX_VALUE_DEPTH {
            return Size::TooDeep;
        }
        seen += 1;
        if seen > max {
            return Size::TooMany;
        }
        let d = depth + 1;
        match v {
            Value::List(items) | Value::Set(items) => pending.extend(items.iter().map(|i| (i, d))),
            Value::Dict(m) => pending.extend(m.values().map(|i| (i, d))),
            Value::Struct(s) => pending.extend(s.fields.values().map(|i| (i, d))),
            Value::Enum(e) => pending.extend(e.fields.iter().map(|i| (i, d))),
            Value::Pair(p) => pending.extend([(&p.0, d), (&p.1, d)]),
            _ => {}
        }
    }
    Size::Fits
}

fn to_json_at(v: &Value, mode: Mode, path: &Path<'_>, depth: usize) -> Result<Json, String> {
    crate::walk::with_room(depth, || to_json_at_frame(v, mode, path, depth))
}

fn to_json_at_frame(v: &Value, mode: Mode, path: &Path<'_>, depth: usize) -> Result<Json, String> {
    // A tool argument is converted while the run goes on: its walk is fuel. (The result
    // is sized against `max_output_bytes` first instead: see [`size_of`].)
    if mode == Mode::Input
        && let Err(e) = crate::walk::step()
    {
        return Err(e.bare_message());
    }
    if depth > MAX_VALUE_DEPTH {
        return Err(format!("value nesting exceeds {MAX_VALUE_DEPTH} levels"));
    }
    let d = depth + 1;
    Ok(match v {
        Value::Nil => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(n) => Json::Number((*n).into()),
        Value::Float(x) => match Number::from_f64(*x) {
            Some(n) => Json::Number(n),
            None if mode == Mode::Input => {
                return Err(format!("at {}: non-finite number", path.pointer()));
            }
            None => Json::Null,
        },
        Value::Str(s) => Json::String(String::from(s.as_str())),
        Value::List(items) | Value::Set(items) => {
            let mut out = Vec::with_capacity(items.len());
            for (i, item) in items.iter().enumerate() {
                out.push(to_json_at(item, mode, &Path::Index(path, i), d)?);
            }
            Json::Array(out)
        }
        Value::Dict(map) => object(map, mode, path, d)?,
        Value::Struct(s) => object(&s.fields, mode, path, d)?,
        Value::Pair(p) => Json::Array(vec![
            to_json_at(&p.0, mode, &Path::Index(path, 0), d)?,
            to_json_at(&p.1, mode, &Path::Index(path, 1), d)?,
        ]),
        Value::Enum(e) if &*e.enum_name == "Result" => {
            let inner = e.fields.first().cloned().unwrap_or_default();
            let key = if &*e.variant == "Ok" { "ok" } else { "error" };
            let mut m = Map::new();
            m.insert(
                key.to_string(),
                to_json_at(&inner, mode, &Path::Key(path, key), d)?,
            );
            Json::Object(m)
        }
        other if mode == Mode::Input => {
            return Err(format!(
                "at {}: a {} value cannot be sent to a tool",
                path.pointer(),
                other.type_name()
            ));
        }
        other => Json::String(display(other).map_err(|e| e.bare_message())?),
    })
}

fn object(map: &Dict, mode: Mode, path: &Path<'_>, depth: usize) -> Result<Json, String> {
    let mut out = Map::new();
    for (k, v) in map {
        out.insert(
            String::from(k.as_str()),
            to_json_at(v, mode, &Path::Key(path, k), depth)?,
        );
    }
    Ok(Json::Object(out))
}

#[cfg(test)]
mod tests {
    use super::{Mode, to_json};
    use crate::dict::Dict;
    use crate::value::Value;

    fn dict(entries: Vec<(&str, Value)>) -> Value {
        Value::dict(
            entries
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect::<Dict>(),
        )
    }

    /// The pointer is written only on failure, and must still name every step, with
    /// `~` and `/` in keys escaped (RFC 6901).
    #[test]
    fn a_refused_input_names_its_json_pointer() {
        let inner = dict(vec![("ok", Value::Int(1)), ("c~d", Value::Float(f64::NAN))]);
        let value = dict(vec![("a/b", Value::list(vec![Value::Nil, inner]))]);
        assert_eq!(
            to_json(&value, Mode::Input),
            Err("at /a~1b/1/c~0d: non-finite number".to_string())
        );
        assert_eq!(
            to_json(&Value::Float(f64::NAN), Mode::Input),
            Err("at root: non-finite number".to_string())
        );
        assert!(to_json(&value, Mode::Result).is_ok());
    }
}
