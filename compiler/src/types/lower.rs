//! Annotation syntax ([`TypeExpr`]) to [`Ty`].

use std::fmt;

use super::ty::{Field, Ty};
use crate::ast::{Span, TypeExpr, TypeKind, name_of};

/// Why an annotation does not denote a type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LowerError {
    /// The parser recovered from a broken annotation here.
    Broken(Span),
    /// A primitive applied to the wrong number of type arguments (`int<string>`,
    /// `dict<string>`).
    Arity {
        name: String,
        expected: &'static str,
        got: usize,
        span: Span,
    },
}

impl LowerError {
    pub fn span(&self) -> Span {
        match self {
            LowerError::Broken(span) | LowerError::Arity { span, .. } => *span,
        }
    }
}

impl fmt::Display for LowerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LowerError::Broken(_) => f.write_str("broken type annotation"),
            LowerError::Arity {
                name,
                expected,
                got,
                ..
            } => write!(f, "`{name}` takes {expected}, got {got}"),
        }
    }
}

/// Lowers an annotation. Names that are not primitives become [`Ty::Named`]; unions are
/// flattened; `true` / `false` were already read as `bool` by the parser.
pub fn lower(t: &TypeExpr) -> Result<Ty, LowerError> {
    Ok(match &t.kind {
        TypeKind::Named { name, args } => {
            let lowered = args.iter().map(lower).collect::<Result<Vec<_>, _>>()?;
            named(&name.name, lowered, t.span)?
        }
        TypeKind::List(inner) => Ty::List(Box::new(lower(inner)?)),
        TypeKind::Shape(fields) => Ty::Shape(
            fields
                .iter()
                .map(|f| {
                    Ok(Field {
                        name: name_of(f.name.as_str()),
                        ty: lower(&f.ty)?,
                        optional: f.optional,
                    })
                })
                .collect::<Result<_, LowerError>>()?,
            false,
        ),
        TypeKind::Union(parts) => Ty::union(parts.iter().map(lower).collect::<Result<_, _>>()?),
        TypeKind::StrLit(s) => Ty::StrLit(name_of(s.as_str())),
        TypeKind::IntLit(n) => Ty::IntLit(*n),
        TypeKind::Fn { params, ret } => Ty::Fn {
            params: params.iter().map(lower).collect::<Result<_, _>>()?,
            ret: Box::new(match ret {
                Some(r) => lower(r)?,
                None => Ty::Any,
            }),
        },
        TypeKind::Error => return Err(LowerError::Broken(t.span)),
    })
}

fn named(name: &str, mut args: Vec<Ty>, span: Span) -> Result<Ty, LowerError> {
    let arity = |expected: &'static str, got: usize| LowerError::Arity {
        name: name.to_string(),
        expected,
        got,
        span,
    };
    match (name, args.len()) {
        ("list", 1) => Ok(Ty::List(Box::new(args.remove(0)))),
        ("list", n) if n > 0 => Err(arity("one type argument", n)),
        ("dict", 2) => {
            let v = args.remove(1);
            let k = args.remove(0);
            Ok(Ty::Dict(Box::new(k), Box::new(v)))
        }
        ("dict", n) if n > 0 => Err(arity("two type arguments", n)),
        _ => match Ty::primitive(name) {
            Some(p) if args.is_empty() => Ok(p),
            Some(_) => Err(arity("no type arguments", args.len())),
            None => Ok(Ty::Named {
                name: name_of(name),
                args,
            }),
        },
    }
}
