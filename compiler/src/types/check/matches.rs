//! Exhaustiveness of `match` (`language.md` 7.3, 10.3): checked only in the narrow
//! cases where a missing case is certain before the run.

use super::Checker;
use crate::ast::*;
use crate::diagnostic::codes;
use crate::types::Ty;

impl Checker<'_> {
    /// A `match` on a value of the program's enum whose arms are all unit-form variant
    /// patterns `E.V` (or `_`) must name every variant (`language.md` 7.3): only in
    /// that narrow case is a missing variant certain before the run. A top-level
    /// variable is not typed for this purpose.
    pub(crate) fn exhaustive(&mut self, scrutinee: &Expr, t: &Ty, arms: &[MatchArm], span: Span) {
        let root = match &scrutinee.kind {
            ExprKind::Member { object, .. } => object,
            _ => scrutinee,
        };
        if let ExprKind::Ident(v) = &root.kind
            && self.is_top_level(v)
        {
            return;
        }
        if arms.iter().any(|a| a.guard.is_some()) {
            return;
        }
        match t {
            Ty::Named { name, .. } if self.variants.contains_key(name) => {
                let name = name.clone();
                self.enum_match(&name, arms, span);
            }
            Ty::Union(members) if members.iter().all(is_literal) => {
                let members = members.clone();
                self.literal_match(&members, arms, span, "literal union", "");
            }
            _ => {
                if let Some((enum_name, names)) = self.variant_names(scrutinee) {
                    let what = format!("enum {enum_name}");
                    self.literal_match(&names, arms, span, &what, "variants ");
                } else if let Some(tags) = self.discriminants(scrutinee) {
                    self.literal_match(&tags, arms, span, "tagged shape union", "variants ");
                }
            }
        }
    }

    /// `x.variant` where `x` is a value of the program's enum: its variant names as
    /// string literals (arms compare them as strings).
    fn variant_names(&self, scrutinee: &Expr) -> Option<(Name, Vec<Ty>)> {
        let ExprKind::Member { object, name, .. } = &scrutinee.kind else {
            return None;
        };
        let ExprKind::Ident(v) = &object.kind else {
            return None;
        };
        if name.name != "variant" {
            return None;
        }
        let Ty::Named {
            name: enum_name, ..
        } = &self.lookup(v)?.ty
        else {
            return None;
        };
        let variants = self.variants.get(enum_name)?;
        let names = variants.iter().map(|n| Ty::StrLit(n.clone())).collect();
        Some((enum_name.clone(), names))
    }

    /// The values of a tagged shape union's discriminant, when `scrutinee` is
    /// `x.kind` and `x` is a union of shapes whose `kind` fields are string literals.
    fn discriminants(&self, scrutinee: &Expr) -> Option<Vec<Ty>> {
        let ExprKind::Member { object, name, .. } = &scrutinee.kind else {
            return None;
        };
        let ExprKind::Ident(v) = &object.kind else {
            return None;
        };
        let Ty::Union(members) = &self.lookup(v)?.ty else {
            return None;
        };
        members
            .iter()
            .map(|m| match m {
                Ty::Shape(fields, _) => fields
                    .iter()
                    .find(|f| f.name == name.name && !f.optional)
                    .and_then(|f| matches!(f.ty, Ty::StrLit(_)).then(|| f.ty.clone())),
                _ => None,
            })
            .collect()
    }

    /// Arms that are all literals (or `_`) over a finite set of literal values.
    fn literal_match(
        &mut self,
        values: &[Ty],
        arms: &[MatchArm],
        span: Span,
        what: &str,
        word: &str,
    ) {
        let mut covered = Vec::new();
        for p in arms.iter().flat_map(|a| &a.patterns) {
            let lit = match &p.kind {
                ExprKind::Ident(n) if n == "_" => return,
                ExprKind::Str(s) => Ty::StrLit(crate::ast::name_of(s.as_str())),
                ExprKind::Int(n) => Ty::IntLit(*n),
                ExprKind::Unary {
                    op: UnaryOp::Neg,
                    operand,
                } => match operand.kind {
                    ExprKind::Int(n) => Ty::IntLit(n.wrapping_neg()),
                    _ => return,
                },
                _ => return,
            };
            covered.push(lit);
        }
        let missing: Vec<String> = values
            .iter()
            .filter(|v| !covered.contains(v))
            .map(|v| v.to_string())
            .collect();
        if !missing.is_empty() {
            self.error(
                codes::NON_EXHAUSTIVE,
                format!(
                    "Non-exhaustive match on {what}: missing {word}{}",
                    missing.join(", ")
                ),
                span,
                "not every case is matched",
            );
        }
    }

    fn enum_match(&mut self, enum_name: &str, arms: &[MatchArm], span: Span) {
        let Some(variants) = self.variants.get(enum_name) else {
            return;
        };
        let mut covered: Vec<&str> = Vec::new();
        for arm in arms {
            for p in &arm.patterns {
                match &p.kind {
                    ExprKind::Ident(n) if n == "_" => return,
                    ExprKind::Member { object, name, .. } if matches!(&object.kind, ExprKind::Ident(e) if e == enum_name) =>
                    {
                        covered.push(&name.name);
                    }
                    _ => return,
                }
            }
        }
        let missing: Vec<String> = variants
            .iter()
            .filter(|v| !covered.contains(&v.as_str()))
            .map(|v| format!("\"{v}\""))
            .collect();
        if !missing.is_empty() {
            self.error(
                codes::NON_EXHAUSTIVE,
                format!(
                    "Non-exhaustive match on enum {enum_name}: missing variants {}",
                    missing.join(", ")
                ),
                span,
                "not every variant is matched",
            );
        }
    }
}

fn is_literal(t: &Ty) -> bool {
    matches!(t, Ty::StrLit(_) | Ty::IntLit(_))
}
