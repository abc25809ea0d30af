//! Property access, subscripts, slices and their assignments (`language.md` 7.5, 7.7).

use std::rc::Rc;

use crate::display::display;
use crate::error::VmError;
use crate::value::Value;

/// `obj.name` / `obj?.name`.
pub fn get_field(obj: &Value, name: &str, optional: bool) -> Result<Value, VmError> {
    Ok(match obj {
        Value::Dict(d) => d.get(name).cloned().unwrap_or_default(),
        Value::Struct(s) => s.fields.get(name).cloned().unwrap_or_default(),
        Value::List(items) => match name {
            "count" => Value::Int(items.len() as i64),
            "empty" => Value::Bool(items.is_empty()),
            "first" => items.first().cloned().unwrap_or_default(),
            "last" => items.last().cloned().unwrap_or_default(),
            _ => Value::Nil,
        },
        Value::Str(s) => match name {
            "count" => Value::Int(s.chars().count() as i64),
            "empty" => Value::Bool(s.is_empty()),
            _ => Value::Nil,
        },
        Value::Enum(e) => match name {
            "variant" => Value::str(e.variant.to_string()),
            "fields" => Value::list(e.fields.clone()),
            _ => Value::Nil,
        },
        Value::Pair(p) => match name {
            "first" => p.0.clone(),
            "second" => p.1.clone(),
            _ if optional => Value::Nil,
            _ => {
                return Err(VmError::type_error(format!(
                    "cannot access property `{name}` on pair (expected `first` or `second`)"
                )));
            }
        },
        _ if optional => Value::Nil,
        other => {
            return Err(VmError::type_error(format!(
                "cannot access property `{name}` on {}",
                other.type_name()
            )));
        }
    })
}

/// `obj.name = value` on a dict or struct held in `slot` (updated in place when unique).
pub fn set_field(slot: &mut Value, name: &str, value: Value) -> Result<(), VmError> {
    match slot {
        Value::Dict(d) => {
            Rc::make_mut(d).insert(name.to_string(), value);
            Ok(())
        }
        Value::Struct(s) => {
            Rc::make_mut(s).fields.insert(name.to_string(), value);
            Ok(())
        }
        other => Err(VmError::type_error(format!(
            "cannot assign property `{name}` on {}",
            other.type_name()
        ))),
    }
}

pub(crate) fn list_index(i: i64, len: usize) -> Option<usize> {
    let len = len as i64;
    let i = if i < 0 { i + len } else { i };
    (0..len).contains(&i).then_some(i as usize)
}

/// `obj[index]` / `obj?[index]`.
pub fn get_index(obj: &Value, index: &Value, optional: bool) -> Result<Value, VmError> {
    Ok(match (obj, index) {
        (Value::Nil, _) if optional => Value::Nil,
        (Value::List(items), Value::Int(i)) => list_index(*i, items.len())
            .and_then(|i| items.get(i).cloned())
            .unwrap_or_default(),
        // A string key is its own display: looked up as it is, with no copy made (the
        // display's one unit of walk fuel is still charged).
        (Value::Dict(d), Value::Str(k)) => {
            crate::walk::step()?;
            d.get(k.as_str()).cloned().unwrap_or_default()
        }
        (Value::Dict(d), key) => d.get(&display(key)?).cloned().unwrap_or_default(),
        (Value::Struct(s), Value::Str(k)) => s.fields.get(k.as_str()).cloned().unwrap_or_default(),
        (Value::Str(s), Value::Int(i)) => {
            let count = s.chars().count();
            list_index(*i, count)
                .and_then(|i| s.chars().nth(i))
                .map_or(Value::Nil, |c| Value::str(c.to_string()))
        }
        (Value::Range(r), Value::Int(i)) => match r.get(*i) {
            Some(n) => Value::Int(n),
            None => {
                return Err(VmError::runtime(format!(
                    "range index out of range: index {i} for range of length {}",
                    r.len()
                )));
            }
        },
        (o, i) => {
            return Err(VmError::type_error(format!(
                "cannot index into {} with {}",
                o.type_name(),
                i.type_name()
            )));
        }
    })
}

/// `obj[index] = value` on the list or dict held in `slot`.
pub fn set_index(slot: &mut Value, index: &Value, value: Value) -> Result<(), VmError> {
    match (slot, index) {
        (Value::List(items), Value::Int(i)) => {
            let len = items.len();
            match list_index(*i, len) {
                Some(at) => {
                    Rc::make_mut(items)[at] = value;
                    Ok(())
                }
                None => Err(VmError::runtime(format!(
                    "Index {i} out of bounds for list of length {len}"
                ))),
            }
        }
        // A string key is its own display, copied only when it is new.
        (Value::Dict(d), Value::Str(k)) => {
            crate::walk::step()?;
            Rc::make_mut(d).set(k.as_str(), value);
            Ok(())
        }
        (Value::Dict(d), key) => {
            let key = display(key)?;
            Rc::make_mut(d).insert(key, value);
            Ok(())
        }
        (Value::Struct(s), Value::Str(k)) => {
            Rc::make_mut(s).fields.insert(k.as_str().to_owned(), value);
            Ok(())
        }
        (o, _) => Err(VmError::type_error(format!(
            "cannot assign by index into {}",
            o.type_name()
        ))),
    }
}

/// Resolves slice bounds: negative from the end, clamped, empty when start ≥ end.
fn bounds(start: &Value, end: &Value, len: usize) -> Result<(usize, usize), VmError> {
    let len_i = len as i64;
    let fix = |v: &Value, default: i64| -> Result<i64, VmError> {
        match v {
            Value::Nil => Ok(default),
            Value::Int(i) => Ok(if *i < 0 {
                (i + len_i).max(0)
            } else {
                (*i).min(len_i)
            }),
            other => Err(VmError::type_error(format!(
                "slice bound must be an int, got {}",
                other.type_name()
            ))),
        }
    };
    let s = fix(start, 0)?;
    let e = fix(end, len_i)?;
    if s >= e {
        Ok((0, 0))
    } else {
        Ok((s as usize, e as usize))
    }
}

/// `obj[start:end]` on lists and strings (by character).
pub fn slice(obj: &Value, start: &Value, end: &Value) -> Result<Value, VmError> {
    match obj {
        Value::List(items) => {
            let (s, e) = bounds(start, end, items.len())?;
            Ok(Value::list(items[s..e].to_vec()))
        }
        Value::Str(text) => {
            let chars: Vec<char> = text.chars().collect();
            let (s, e) = bounds(start, end, chars.len())?;
            Ok(Value::str(chars[s..e].iter().collect::<String>()))
        }
        other => Err(VmError::type_error(format!(
            "cannot slice {}",
            other.type_name()
        ))),
    }
}
