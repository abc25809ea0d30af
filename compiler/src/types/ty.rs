//! [`Ty`]: the type language of `language.md` 10.2, printed back in Harn syntax.

use crate::ast::Name;
use std::fmt;

/// A type. Bare `list`, `dict` are `List(Any)`, `Dict(Any, Any)` and print bare; a
/// function type without `-> R` returns `any`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// `any`: disables checking both ways.
    Any,
    /// `unknown`: must be narrowed before use.
    Unknown,
    /// `never`: the bottom type (no value).
    Never,
    Nil,
    Bool,
    Int,
    Float,
    String,
    Bytes,
    Duration,
    Range,
    Set,
    /// `closure`: any callable.
    Closure,
    /// `list<T>` or `[T]`.
    List(Box<Ty>),
    /// `dict<K, V>`.
    Dict(Box<Ty>, Box<Ty>),
    /// `{a: int, b?: string}`: a structural dict type (width subtyping). The flag is
    /// set for a JSON Schema object with `additionalProperties: false`: no key but the
    /// named ones can be present, so reading another is certainly a mistake.
    Shape(Vec<Field>, bool),
    /// `A | B | ...`: at least two members, none of them a union.
    Union(Vec<Ty>),
    /// `"pass"`: a string literal type.
    StrLit(Name),
    /// `0`, `-1`: an int literal type.
    IntLit(i64),
    /// `fn(int, string) -> bool`.
    Fn {
        params: Vec<Ty>,
        ret: Box<Ty>,
    },
    /// Any other name, with its type arguments: the builtin generics (`Result<T, E>`,
    /// `Schema<T>`, `iter<T>`, `Generator<T>`, `Stream<T>`, ...), structs, enums,
    /// interfaces, aliases and type parameters.
    Named {
        name: Name,
        args: Vec<Ty>,
    },
}

/// A field of a [`Ty::Shape`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    pub name: Name,
    pub ty: Ty,
    /// `name?: T`: the key may be absent.
    pub optional: bool,
}

impl Ty {
    /// The type a primitive name denotes (`int`, `list`, `any`, ...), if it is one.
    pub fn primitive(name: &str) -> Option<Ty> {
        Some(match name {
            "any" => Ty::Any,
            "unknown" => Ty::Unknown,
            "never" => Ty::Never,
            "nil" => Ty::Nil,
            "bool" => Ty::Bool,
            "int" => Ty::Int,
            "float" => Ty::Float,
            "string" => Ty::String,
            "bytes" => Ty::Bytes,
            "duration" => Ty::Duration,
            "range" => Ty::Range,
            "set" => Ty::Set,
            "closure" => Ty::Closure,
            "list" => Ty::List(Box::new(Ty::Any)),
            "dict" => Ty::Dict(Box::new(Ty::Any), Box::new(Ty::Any)),
            _ => return None,
        })
    }

    /// A union of `members`, flattened; a single member is returned as is.
    pub fn union(members: Vec<Ty>) -> Ty {
        let mut flat = Vec::with_capacity(members.len());
        for m in members {
            match m {
                Ty::Union(inner) => flat.extend(inner),
                other => flat.push(other),
            }
        }
        if flat.len() == 1 {
            flat.pop().unwrap_or(Ty::Never)
        } else {
            Ty::Union(flat)
        }
    }

    /// Calls `f` on this type and every type inside it, outermost first.
    pub fn walk(&self, f: &mut impl FnMut(&Ty)) {
        f(self);
        match self {
            Ty::List(t) => t.walk(f),
            Ty::Dict(k, v) => {
                k.walk(f);
                v.walk(f);
            }
            Ty::Shape(fields, _) => fields.iter().for_each(|x| x.ty.walk(f)),
            Ty::Union(ts) | Ty::Named { args: ts, .. } => ts.iter().for_each(|t| t.walk(f)),
            Ty::Fn { params, ret } => {
                params.iter().for_each(|t| t.walk(f));
                ret.walk(f);
            }
            _ => {}
        }
    }
}

fn list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, t) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{t}")?;
    }
    Ok(())
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Any => f.write_str("any"),
            Ty::Unknown => f.write_str("unknown"),
            Ty::Never => f.write_str("never"),
            Ty::Nil => f.write_str("nil"),
            Ty::Bool => f.write_str("bool"),
            Ty::Int => f.write_str("int"),
            Ty::Float => f.write_str("float"),
            Ty::String => f.write_str("string"),
            Ty::Bytes => f.write_str("bytes"),
            Ty::Duration => f.write_str("duration"),
            Ty::Range => f.write_str("range"),
            Ty::Set => f.write_str("set"),
            Ty::Closure => f.write_str("closure"),
            Ty::List(t) if **t == Ty::Any => f.write_str("list"),
            Ty::List(t) => write!(f, "list<{t}>"),
            Ty::Dict(k, v) if **k == Ty::Any && **v == Ty::Any => f.write_str("dict"),
            Ty::Dict(k, v) => write!(f, "dict<{k}, {v}>"),
            Ty::Shape(fields, _) => {
                f.write_str("{")?;
                for (i, x) in fields.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    let q = if x.optional { "?" } else { "" };
                    write!(f, "{}{q}: {}", x.name, x.ty)?;
                }
                f.write_str("}")
            }
            Ty::Union(ts) => {
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" | ")?;
                    }
                    // A function type's return would swallow the members after it.
                    if matches!(t, Ty::Fn { .. }) && i + 1 < ts.len() {
                        write!(f, "({t})")?;
                    } else {
                        write!(f, "{t}")?;
                    }
                }
                Ok(())
            }
            Ty::StrLit(s) => {
                f.write_str("\"")?;
                for c in s.chars() {
                    match c {
                        '"' => f.write_str("\\\"")?,
                        '\\' => f.write_str("\\\\")?,
                        '\n' => f.write_str("\\n")?,
                        '\t' => f.write_str("\\t")?,
                        '\r' => f.write_str("\\r")?,
                        '$' => f.write_str("\\$")?,
                        c => write!(f, "{c}")?,
                    }
                }
                f.write_str("\"")
            }
            Ty::IntLit(n) => write!(f, "{n}"),
            Ty::Fn { params, ret } => {
                f.write_str("fn(")?;
                list(f, params)?;
                write!(f, ") -> {ret}")
            }
            Ty::Named { name, args } => {
                f.write_str(name)?;
                if !args.is_empty() {
                    f.write_str("<")?;
                    list(f, args)?;
                    f.write_str(">")?;
                }
                Ok(())
            }
        }
    }
}
