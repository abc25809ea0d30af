//! The type rules the checker applies: when a value of one type may stand where another
//! is declared, and what an operator does to operand types. Both are gradual: `any`, a
//! type parameter or anything else the checker cannot judge is accepted, so a rule
//! only fails when the program is certainly wrong.

use crate::ast::BinOp;
use crate::types::{Field, Ty};

/// Which named types are the program's structs and enums: a value of one is of that
/// type and no other (other names are type parameters or aliases, not judged).
pub type Nominal<'a> = &'a dyn Fn(&str) -> bool;

/// Whether a value of type `actual` may be stored where `declared` is expected. A union
/// value fits when any member fits (flow narrowing may leave only that member).
pub fn fits(actual: &Ty, declared: &Ty, nominal: Nominal<'_>) -> bool {
    // `unknown` must be narrowed before it can stand for anything but `any`/`unknown`
    // (10.2); the walk releases a variable to `any` once a condition inspects it.
    if matches!(actual, Ty::Unknown) && !matches!(declared, Ty::Any | Ty::Unknown) {
        return false;
    }
    if loose(actual, nominal) || loose(declared, nominal) {
        return true;
    }
    match (actual, declared) {
        (Ty::Union(members), _) => members.iter().any(|m| fits(m, declared, nominal)),
        (_, Ty::Union(members)) => members.iter().any(|m| fits(actual, m, nominal)),
        (Ty::Named { name: a, .. }, Ty::Named { name: b, .. }) => a == b,
        // A dict may stand for a struct (fields are checked at run time).
        (Ty::Shape(..) | Ty::Dict(..), Ty::Named { .. }) => true,
        (Ty::Never, _) => true,
        (Ty::IntLit(_), Ty::Int | Ty::Float) | (Ty::Int, Ty::Float) => true,
        (Ty::StrLit(_), Ty::String) => true,
        (Ty::IntLit(a), Ty::IntLit(b)) => a == b,
        (Ty::StrLit(a), Ty::StrLit(b)) => a == b,
        // A literal type declared, a plain value given: it may hold the literal.
        (Ty::Int, Ty::IntLit(_)) | (Ty::String, Ty::StrLit(_)) => true,
        (Ty::List(a), Ty::List(b)) => same(a, b, nominal),
        (Ty::Dict(ka, va), Ty::Dict(kb, vb)) => same(ka, kb, nominal) && same(va, vb, nominal),
        (Ty::Shape(fields, _), Ty::Dict(k, v)) => {
            fits(&Ty::String, k, nominal) && fields.iter().all(|f| fits(&f.ty, v, nominal))
        }
        (Ty::Dict(..), Ty::Shape(..)) => true,
        (Ty::Shape(have, _), Ty::Shape(want, _)) => missing_field(have, want, nominal).is_none(),
        (Ty::Closure | Ty::Fn { .. }, Ty::Closure | Ty::Fn { .. }) => true,
        (a, b) => a == b,
    }
}

/// The first declared field a shape does not provide, or provides with a type that
/// cannot fit, as the reason of an annotation error.
pub fn missing_field(have: &[Field], want: &[Field], nominal: Nominal<'_>) -> Option<String> {
    for w in want {
        match have.iter().find(|h| h.name == w.name) {
            None if !w.optional => {
                return Some(format!("missing field '{}' ({})", w.name, w.ty));
            }
            Some(h) if !fits(&h.ty, &w.ty, nominal) => {
                return Some(format!(
                    "field '{}' has type {}, expected {}",
                    w.name, h.ty, w.ty
                ));
            }
            _ => {}
        }
    }
    None
}

/// Lists and dicts are invariant in their elements (`list<int>` is not a
/// `list<float>`), except where either side is not known.
fn same(a: &Ty, b: &Ty, nominal: Nominal<'_>) -> bool {
    if loose(a, nominal) || loose(b, nominal) {
        return true;
    }
    match (a, b) {
        (Ty::Union(_), _) | (_, Ty::Union(_)) => fits(a, b, nominal) && fits(b, a, nominal),
        (Ty::List(x), Ty::List(y)) => same(x, y, nominal),
        (Ty::Dict(kx, vx), Ty::Dict(ky, vy)) => same(kx, ky, nominal) && same(vx, vy, nominal),
        _ => {
            fits(a, b, nominal)
                && fits(b, a, nominal)
                && !matches!((a, b), (Ty::Int, Ty::Float) | (Ty::Float, Ty::Int))
        }
    }
}

/// Types the checker does not judge: unknown, a type parameter, an alias, a generic it
/// does not model (any name but a struct's or an enum's).
fn loose(t: &Ty, nominal: Nominal<'_>) -> bool {
    match t {
        Ty::Any | Ty::Unknown => true,
        Ty::Named { name, .. } => !nominal(name),
        _ => false,
    }
}

/// Whether the checker knows exactly which run-time type a value of `t` has, so an
/// operator on it can be judged (`language.md` 8.5).
fn definite(t: &Ty) -> Option<&'static str> {
    Some(match t {
        Ty::Int | Ty::IntLit(_) => "int",
        Ty::Float => "float",
        Ty::String | Ty::StrLit(_) => "string",
        Ty::Bool => "bool",
        Ty::Nil => "nil",
        Ty::List(_) => "list",
        Ty::Dict(..) | Ty::Shape(..) => "dict",
        _ => return None,
    })
}

/// Two operand types whose values can never be equal (different run-time types, not
/// both numbers), as `type_of` names.
pub fn never_equal(a: &Ty, b: &Ty) -> Option<(&'static str, &'static str)> {
    let (x, y) = (definite(a)?, definite(b)?);
    (x != y && !(numeric(x) && numeric(y))).then_some((x, y))
}

fn numeric(name: &str) -> bool {
    matches!(name, "int" | "float")
}

/// The result type of `lhs op rhs`, or the error when the operand types make it fail
/// for certain.
pub fn binary(op: BinOp, lhs: &Ty, rhs: &Ty) -> Result<Ty, String> {
    match op {
        BinOp::Eq
        | BinOp::Ne
        | BinOp::Lt
        | BinOp::Gt
        | BinOp::Le
        | BinOp::Ge
        | BinOp::In
        | BinOp::NotIn
        | BinOp::And
        | BinOp::Or => return Ok(Ty::Bool),
        BinOp::Coalesce => {
            return Ok(match lhs {
                Ty::Nil => rhs.clone(),
                Ty::Any | Ty::Unknown => Ty::Any,
                Ty::Union(members) if members.contains(&Ty::Nil) => {
                    let mut rest: Vec<Ty> =
                        members.iter().filter(|m| **m != Ty::Nil).cloned().collect();
                    rest.push(rhs.clone());
                    Ty::union(rest)
                }
                other => other.clone(),
            });
        }
        _ => {}
    }
    let (Some(a), Some(b)) = (definite(lhs), definite(rhs)) else {
        return Ok(Ty::Any);
    };
    let number = |a: &str, b: &str| {
        if a == "int" && b == "int" {
            Ty::Int
        } else {
            Ty::Float
        }
    };
    match op {
        BinOp::Add => match (a, b) {
            _ if numeric(a) && numeric(b) => Ok(number(a, b)),
            ("string", "string") => Ok(Ty::String),
            ("list", "list") => Ok(Ty::List(Box::new(Ty::Any))),
            ("dict", "dict") => Ok(Ty::Dict(Box::new(Ty::Any), Box::new(Ty::Any))),
            _ => Err(format!("can't add {a} and {b}")),
        },
        BinOp::Mul => match (a, b) {
            _ if numeric(a) && numeric(b) => Ok(number(a, b)),
            ("string", "int") | ("int", "string") => Ok(Ty::String),
            _ if matches!(a, "int" | "string") || matches!(b, "int" | "string") => {
                Err(format!("can't multiply {a} and {b} (try string * int)"))
            }
            _ => Err(format!("can't multiply {a} and {b}")),
        },
        _ if numeric(a) && numeric(b) => Ok(match op {
            // `int ** negative int` is a float (8.5): only the sign decides.
            BinOp::Pow if a == "int" && b == "int" => Ty::Any,
            BinOp::Div | BinOp::Mod | BinOp::Sub | BinOp::Pow => number(a, b),
            _ => Ty::Any,
        }),
        _ => Err(format!(
            "can't use '{}' on {a} and {b} (needs numeric operands)",
            op.as_str()
        )),
    }
}
