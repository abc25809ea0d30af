//! Property access, subscripts, slices and their assignments (`language.md` 7.5, 7.7).

use std::cell::OnceCell;
use std::rc::Rc;

use crate::dict::Key as DictKey;
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
            "count" => Value::Int(crate::chars::count(s) as i64),
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
    set_field_keyed(slot, name, None, value)
}

/// [`set_field`] for an instruction whose key, when the field is new, comes from `key`
/// (made there the first time): the key of a record literal, shared by every record the
/// literal builds.
pub(crate) fn set_field_keyed(
    slot: &mut Value,
    name: &str,
    key: Option<&OnceCell<DictKey>>,
    value: Value,
) -> Result<(), VmError> {
    let fields = match slot {
        Value::Dict(d) => Rc::make_mut(d),
        Value::Struct(s) => &mut Rc::make_mut(s).fields,
        other => {
            return Err(VmError::type_error(format!(
                "cannot assign property `{name}` on {}",
                other.type_name()
            )));
        }
    };
    match key {
        Some(cell) => fields.set_with(name, value, || {
            cell.get_or_init(|| DictKey::from(name)).clone()
        }),
        None => fields.set(name, value),
    }
    Ok(())
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
        // An int key's display is written on the stack, not allocated (memo tables).
        (Value::Dict(d), Value::Int(n)) => {
            crate::walk::step()?;
            d.get(itoa::Buffer::new().format(*n))
                .cloned()
                .unwrap_or_default()
        }
        (Value::Dict(d), key) => d.get(&display(key)?).cloned().unwrap_or_default(),
        (Value::Struct(s), Value::Str(k)) => s.fields.get(k.as_str()).cloned().unwrap_or_default(),
        (Value::Str(s), Value::Int(i)) => list_index(*i, crate::chars::count(s))
            .and_then(|i| crate::chars::char_value(s, i))
            .unwrap_or_default(),
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
        (Value::Dict(d), Value::Int(n)) => {
            crate::walk::step()?;
            Rc::make_mut(d).set(itoa::Buffer::new().format(*n), value);
            Ok(())
        }
        (Value::Dict(d), key) => {
            let key = display(key)?;
            Rc::make_mut(d).insert(key, value);
            Ok(())
        }
        (Value::Struct(s), Value::Str(k)) => {
            Rc::make_mut(s).fields.set(k.as_str(), value);
            Ok(())
        }
        (o, _) => Err(VmError::type_error(format!(
            "cannot assign by index into {}",
            o.type_name()
        ))),
    }
}

/// A key of a nested assignment: a subscript or a field name.
#[derive(Clone, Copy)]
pub enum Key<'k> {
    Index(&'k Value),
    Field(&'k str),
}

fn get_key(obj: &Value, key: Key<'_>) -> Result<Value, VmError> {
    match key {
        Key::Index(index) => get_index(obj, index, false),
        Key::Field(name) => get_field(obj, name, false),
    }
}

fn set_key(slot: &mut Value, key: Key<'_>, value: Value) -> Result<(), VmError> {
    match key {
        Key::Index(index) => set_index(slot, index, value),
        Key::Field(name) => set_field(slot, name, value),
    }
}

/// `root[outer][inner] = value` (either key may be a field), the nested container
/// updated where it lies in `root`. Read out and written back, as the general sequence
/// below does, it is shared with `root` while it is changed and so copied whole: a
/// `grid[i][j] = v` copied the row each time.
///
/// The direct path is taken only where the general one would find an existing element
/// of a list, dict or struct, and it leaves everything as that one would, with the same
/// errors (an error in the inner assignment changes nothing) and the same walk fuel.
pub fn set_nested(
    root: &mut Value,
    outer: Key<'_>,
    inner: Key<'_>,
    value: Value,
) -> Result<(), VmError> {
    // A list's element by position (`bs[i].vx = v`, the common case): found by one bounds
    // check, without the kind-and-key dispatch of `has_child` and again of `child_mut`.
    if let (Value::List(items), Key::Index(Value::Int(i))) = (&mut *root, outer)
        && let Some(at) = list_index(*i, items.len())
        && let Some(child) = Rc::make_mut(items).get_mut(at)
    {
        return set_key(child, inner, value);
    }
    if has_child(root, outer) {
        if matches!(
            (&*root, outer),
            (Value::Dict(_), Key::Index(Value::Str(_) | Value::Int(_)))
        ) {
            // The general path reads the element and stores it back: one step each.
            crate::walk::step()?;
            crate::walk::step()?;
        }
        if let Some(child) = child_mut(root, outer) {
            return set_key(child, inner, value);
        }
    }
    let mut child = get_key(root, outer)?;
    set_key(&mut child, inner, value)?;
    set_key(root, outer, child)
}

/// `root[key]` (or `root.key`) for a call that consumes it, as in
/// `groups[k] = groups[k].push(v)`: an existing element is moved out and nil left in
/// its place until the statement stores the call's result there, so the call holds it
/// once and may change it in place instead of copying it. Anything else reads as
/// `get_key` does, with the same errors and the same walk fuel.
pub fn take_child(root: &mut Value, key: Key<'_>) -> Result<Value, VmError> {
    if has_child(root, key) {
        if matches!(
            (&*root, key),
            (Value::Dict(_), Key::Index(Value::Str(_) | Value::Int(_)))
        ) {
            crate::walk::step()?;
        }
        if let Some(child) = child_mut(root, key) {
            return Ok(std::mem::take(child));
        }
    }
    get_key(root, key)
}

/// Whether `root[key]` is an existing element that [`child_mut`] reaches.
fn has_child(root: &Value, key: Key<'_>) -> bool {
    match (root, key) {
        (Value::List(items), Key::Index(Value::Int(i))) => list_index(*i, items.len()).is_some(),
        (Value::Dict(d), Key::Index(Value::Str(k))) => d.contains_key(k),
        (Value::Dict(d), Key::Index(Value::Int(n))) => {
            d.contains_key(itoa::Buffer::new().format(*n))
        }
        (Value::Dict(d), Key::Field(name)) => d.contains_key(name),
        (Value::Struct(s), Key::Index(Value::Str(k))) => s.fields.contains_key(k),
        (Value::Struct(s), Key::Field(name)) => s.fields.contains_key(name),
        _ => false,
    }
}

/// The element `root[key]`, in place: `root` is made unique first (copied if shared, as
/// storing the element back would have done).
fn child_mut<'r>(root: &'r mut Value, key: Key<'_>) -> Option<&'r mut Value> {
    match (root, key) {
        (Value::List(items), Key::Index(Value::Int(i))) => {
            let at = list_index(*i, items.len())?;
            Rc::make_mut(items).get_mut(at)
        }
        (Value::Dict(d), Key::Index(Value::Str(k))) => Rc::make_mut(d).get_mut(k),
        (Value::Dict(d), Key::Index(Value::Int(n))) => {
            Rc::make_mut(d).get_mut(itoa::Buffer::new().format(*n))
        }
        (Value::Dict(d), Key::Field(name)) => Rc::make_mut(d).get_mut(name),
        (Value::Struct(s), Key::Index(Value::Str(k))) => Rc::make_mut(s).fields.get_mut(k),
        (Value::Struct(s), Key::Field(name)) => Rc::make_mut(s).fields.get_mut(name),
        _ => None,
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

/// `x = x[start:end]`, a slice written back over the value it is cut from: a list
/// nothing else holds is cut in place, its kept elements moved down instead of cloned
/// into a new list. Bounds are checked first, so on an error `slot` still holds the list.
pub fn slice_over(slot: &mut Value, start: &Value, end: &Value) -> Result<(), VmError> {
    if let Value::List(items) = slot
        && let Some(own) = Rc::get_mut(items)
    {
        let (s, e) = bounds(start, end, own.len())?;
        own.truncate(e);
        own.drain(..s);
        return Ok(());
    }
    *slot = slice(slot, start, end)?;
    Ok(())
}

/// `obj[start:end]` on lists and strings (by character).
pub fn slice(obj: &Value, start: &Value, end: &Value) -> Result<Value, VmError> {
    match obj {
        Value::List(items) => {
            let (s, e) = bounds(start, end, items.len())?;
            Ok(Value::list(items[s..e].to_vec()))
        }
        Value::Str(text) => {
            let (s, e) = bounds(start, end, crate::chars::count(text))?;
            Ok(Value::str(
                crate::chars::char_range(text, s, e).unwrap_or_default(),
            ))
        }
        other => Err(VmError::type_error(format!(
            "cannot slice {}",
            other.type_name()
        ))),
    }
}
