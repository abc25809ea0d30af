//! Parameter type checks at call time (`fn f(x: int)`): a union of simple types is a
//! mask of value kinds, precomputed per parameter when a function is loaded
//! (`Function::check_masks`), so a checked call tests one bit per argument; the full
//! check (lists, shapes, literal unions) and every error's wording stay here.

use harn_compiler::bytecode::{ParamCheck, ParamLiteral};

use crate::display::display;
use crate::error::VmError;
use crate::value::Value;

/// Whether `v` matches a simple type name (int and float accept each other).
fn matches_simple(v: &Value, ty: &str) -> bool {
    simple_mask(ty) & kind_bit(v) != 0
}

/// The kinds of value a simple type name accepts (an unknown name: every kind).
fn simple_mask(ty: &str) -> u32 {
    match ty {
        "int" | "float" => kind::INT | kind::FLOAT,
        "string" => kind::STR,
        "bool" => kind::BOOL,
        "nil" => kind::NIL,
        "list" => kind::LIST,
        "dict" => kind::DICT | kind::STRUCT,
        "set" => kind::SET,
        "closure" => kind::CLOSURE | kind::BUILTIN,
        "duration" => kind::DURATION,
        "bytes" => kind::BYTES,
        _ => kind::ANY,
    }
}

/// The kinds of value, as bits: [`kind_bit`] and the masks of [`check_mask`].
mod kind {
    pub const NIL: u32 = 1;
    pub const BOOL: u32 = 1 << 1;
    pub const INT: u32 = 1 << 2;
    pub const FLOAT: u32 = 1 << 3;
    pub const DURATION: u32 = 1 << 4;
    pub const STR: u32 = 1 << 5;
    pub const LIST: u32 = 1 << 6;
    pub const DICT: u32 = 1 << 7;
    pub const SET: u32 = 1 << 8;
    pub const RANGE: u32 = 1 << 9;
    pub const CLOSURE: u32 = 1 << 10;
    pub const BUILTIN: u32 = 1 << 11;
    pub const ENUM: u32 = 1 << 12;
    pub const STRUCT: u32 = 1 << 13;
    pub const PAIR: u32 = 1 << 14;
    pub const BYTES: u32 = 1 << 15;
    pub const ITER: u32 = 1 << 16;
    pub const ANY: u32 = (1 << 17) - 1;
}

pub(super) fn kind_bit(v: &Value) -> u32 {
    match v {
        Value::Nil => kind::NIL,
        Value::Bool(_) => kind::BOOL,
        Value::Int(_) => kind::INT,
        Value::Float(_) => kind::FLOAT,
        Value::Duration(_) => kind::DURATION,
        Value::Str(_) => kind::STR,
        Value::List(_) => kind::LIST,
        Value::Dict(_) => kind::DICT,
        Value::Set(_) => kind::SET,
        Value::Range(_) => kind::RANGE,
        Value::Closure(_) => kind::CLOSURE,
        Value::Builtin(_) => kind::BUILTIN,
        Value::Enum(_) => kind::ENUM,
        Value::Struct(_) => kind::STRUCT,
        Value::Pair(_) => kind::PAIR,
        Value::Bytes(_) => kind::BYTES,
        Value::Iter(_) => kind::ITER,
    }
}

/// The kinds [`check_param`] accepts for `check`: those of its types for a union of
/// simple types, every kind for no check, and `0` ("run the full check") for any other
/// check.
pub(crate) fn check_mask(check: &ParamCheck) -> u32 {
    match check {
        ParamCheck::None => kind::ANY,
        ParamCheck::Simple(types) => types.iter().fold(0, |mask, ty| mask | simple_mask(ty)),
        _ => 0,
    }
}

pub(super) fn check_param(name: &str, check: &ParamCheck, v: &Value) -> Result<(), VmError> {
    match check {
        ParamCheck::None => Ok(()),
        ParamCheck::Simple(types) => {
            if types.iter().any(|t| matches_simple(v, t)) {
                Ok(())
            } else {
                Err(VmError::runtime(format!(
                    "TypeError: parameter '{name}' expected {}, got {} ({})",
                    types.join("|"),
                    v.type_name(),
                    display(v)?
                )))
            }
        }
        ParamCheck::Literals(lits) => {
            let hit = lits.iter().any(|l| match (l, v) {
                (ParamLiteral::Str(a), Value::Str(b)) => a == b.as_str(),
                (ParamLiteral::Int(a), Value::Int(b)) => a == b,
                _ => false,
            });
            if hit {
                return Ok(());
            }
            let allowed: Vec<String> = lits
                .iter()
                .map(|l| match l {
                    ParamLiteral::Str(s) => format!("{s:?}"),
                    ParamLiteral::Int(n) => n.to_string(),
                })
                .collect();
            let got = match v {
                Value::Str(s) => format!("{:?}", s.as_str()),
                other => display(other)?,
            };
            Err(VmError::type_error(format!(
                "parameter '{name}' expected {}, got {got}",
                allowed.join(" | ")
            )))
        }
        ParamCheck::ListOf(elem) => match v {
            Value::List(items) => {
                for (i, item) in items.iter().enumerate() {
                    if !matches_simple(item, elem) {
                        return Err(VmError::runtime(format!(
                            "TypeError: parameter '{name}': at root[{i}]: expected type '{elem}', got '{}'",
                            item.type_name()
                        )));
                    }
                }
                Ok(())
            }
            other => Err(VmError::runtime(format!(
                "TypeError: parameter '{name}' expected list, got {} ({})",
                other.type_name(),
                display(other)?
            ))),
        },
        ParamCheck::Shape(fields) => {
            let lookup = |k: &str| match v {
                Value::Dict(d) => d.get(k).cloned(),
                Value::Struct(s) => s.fields.get(k).cloned(),
                _ => None,
            };
            if !matches!(v, Value::Dict(_) | Value::Struct(_)) {
                return Err(VmError::runtime(format!(
                    "TypeError: parameter '{name}' expected dict, got {} ({})",
                    v.type_name(),
                    display(v)?
                )));
            }
            for (field, optional, ty) in fields {
                match lookup(field) {
                    None if *optional => {}
                    None => {
                        return Err(VmError::type_error(format!(
                            "parameter '{name}': missing field '{field}' ({ty})"
                        )));
                    }
                    Some(fv) if !matches_simple(&fv, ty) => {
                        return Err(VmError::type_error(format!(
                            "parameter '{name}': field '{field}' expected {ty}, got {}",
                            fv.type_name()
                        )));
                    }
                    Some(_) => {}
                }
            }
            Ok(())
        }
    }
}
