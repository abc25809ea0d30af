//! Variance markers (`language.md` 10.2, 10.3): a generic parameter declared `in`
//! (contravariant) may only appear where values go in (parameters), one declared `out`
//! (covariant) only where they come out (results). A function type's parameters flip
//! the position.

use super::Checker;
use crate::ast::{GenericParam, TypeExpr, Variance};
use crate::diagnostic::codes;
use crate::types::Ty;

impl Checker<'_> {
    /// Checks the positions of `generics`' marked parameters in `ty`, which sits in a
    /// covariant position when `covariant`, in the declaration `kind` `owner`.
    pub(crate) fn variance(
        &mut self,
        generics: &[GenericParam],
        ty: &Option<TypeExpr>,
        covariant: bool,
        kind: &str,
        owner: &str,
    ) {
        let Some(expr) = ty else {
            return;
        };
        if generics.iter().all(|g| g.variance == Variance::Invariant) {
            return;
        }
        let Ok(t) = crate::types::lower(expr) else {
            return;
        };
        let mut found = None;
        walk(&t, covariant, &mut |name, positive| {
            let Some(g) = generics.iter().find(|g| g.name.name == name) else {
                return;
            };
            let wrong = match g.variance {
                Variance::In if positive => Some(("in", "contravariant", "covariant")),
                Variance::Out if !positive => Some(("out", "covariant", "contravariant")),
                _ => None,
            };
            if found.is_none()
                && let Some((marker, declared, position)) = wrong
            {
                found = Some(format!(
                    "type parameter '{name}' is declared '{marker}' ({declared}) but appears in a {position} position in {kind} '{owner}'"
                ));
            }
        });
        if let Some(message) = found {
            self.error(codes::VARIANCE, message, expr.span, "this position");
        }
    }
}

/// Calls `f` with each type name in `t` and whether it sits in a covariant position.
fn walk(t: &Ty, positive: bool, f: &mut impl FnMut(&str, bool)) {
    match t {
        Ty::Named { name, args } => {
            f(name, positive);
            args.iter().for_each(|a| walk(a, positive, f));
        }
        Ty::List(x) => walk(x, positive, f),
        Ty::Dict(k, v) => {
            walk(k, positive, f);
            walk(v, positive, f);
        }
        Ty::Shape(fields, _) => fields.iter().for_each(|x| walk(&x.ty, positive, f)),
        Ty::Union(ts) => ts.iter().for_each(|x| walk(x, positive, f)),
        Ty::Fn { params, ret } => {
            params.iter().for_each(|p| walk(p, !positive, f));
            walk(ret, positive, f);
        }
        _ => {}
    }
}
