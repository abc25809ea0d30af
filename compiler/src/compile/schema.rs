//! Type aliases as schema values (`language.md` 6.5): `schema_is(x, User)` and
//! `schema_of(User)` see the alias lowered, at compile time, to the schema dict the
//! stdlib validator reads (`{type: "dict", properties: {…}, required: […]}`), written as
//! a dict-literal expression and compiled like one.

use rustc_hash::FxHashMap as HashMap;

use crate::ast::{
    Arg, DictEntry, DictKey, Expr, ExprKind, Span, Stmt, StmtKind, TypeExpr, TypeKind,
};

/// Nesting past this lowers to `{}` (accept anything) instead of recursing further.
const MAX_DEPTH: usize = 64;

/// The schema literal for `ty`; other aliases are expanded, a cycle back to an alias
/// being expanded accepts anything.
pub(crate) fn schema_literal(ty: &TypeExpr, aliases: &HashMap<String, TypeExpr>) -> Expr {
    let mut expanding = Vec::new();
    lower(ty, aliases, &mut expanding, 0)
}

fn lower(
    ty: &TypeExpr,
    aliases: &HashMap<String, TypeExpr>,
    expanding: &mut Vec<String>,
    depth: usize,
) -> Expr {
    if depth > MAX_DEPTH {
        return dict(Vec::new());
    }
    let mut sub = |t: &TypeExpr| lower(t, aliases, expanding, depth + 1);
    match &ty.kind {
        TypeKind::Named { name, args } => match (name.name.as_str(), args.as_slice()) {
            ("any", _) => dict(Vec::new()),
            ("list", [item]) => typed("list", vec![("items", sub(item))]),
            ("dict", [_, value]) => typed("dict", vec![("additional_properties", sub(value))]),
            ("Option", [inner]) => nullable(sub(inner)),
            (
                simple @ ("int" | "float" | "string" | "bool" | "nil" | "list" | "dict" | "set"
                | "bytes" | "duration"),
                _,
            ) => typed(simple, Vec::new()),
            (other, _) => match aliases.get(other) {
                Some(target) if !expanding.iter().any(|n| n == other) => {
                    expanding.push(other.to_string());
                    let out = lower(target, aliases, expanding, depth + 1);
                    expanding.pop();
                    out
                }
                _ => dict(Vec::new()),
            },
        },
        TypeKind::List(item) => typed("list", vec![("items", sub(item))]),
        TypeKind::Shape(fields) => {
            let properties = fields
                .iter()
                .map(|f| (f.name.as_str(), sub(&f.ty)))
                .collect();
            let required = fields
                .iter()
                .filter(|f| !f.optional)
                .map(|f| string(&f.name))
                .collect();
            typed(
                "dict",
                vec![
                    ("properties", dict(properties)),
                    ("required", list(required)),
                ],
            )
        }
        TypeKind::Union(members) => {
            let literals: Option<Vec<Expr>> = members
                .iter()
                .map(|m| match &m.kind {
                    TypeKind::StrLit(s) => Some(string(s)),
                    TypeKind::IntLit(n) => Some(expr(ExprKind::Int(*n))),
                    _ => None,
                })
                .collect();
            if let Some(values) = literals {
                return dict(vec![("enum", list(values))]);
            }
            let is_nil = |m: &TypeExpr| matches!(&m.kind, TypeKind::Named { name, .. } if name.name == "nil");
            let others: Vec<&TypeExpr> = members.iter().filter(|m| !is_nil(m)).collect();
            match others.as_slice() {
                [only] if others.len() < members.len() => nullable(sub(only)),
                _ => dict(vec![("union", list(members.iter().map(sub).collect()))]),
            }
        }
        TypeKind::StrLit(s) => dict(vec![("const", string(s))]),
        TypeKind::IntLit(n) => dict(vec![("const", expr(ExprKind::Int(*n)))]),
        TypeKind::Fn { .. } => typed("closure", Vec::new()),
        TypeKind::Error => dict(Vec::new()),
    }
}

fn expr(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}

fn string(s: &str) -> Expr {
    expr(ExprKind::Str(crate::ast::name_of(s)))
}

fn list(items: Vec<Expr>) -> Expr {
    expr(ExprKind::List(
        items.into_iter().map(Arg::Positional).collect(),
    ))
}

fn dict(entries: Vec<(&str, Expr)>) -> Expr {
    expr(ExprKind::Dict(
        entries
            .into_iter()
            .map(|(k, value)| DictEntry::Pair {
                key: DictKey::Name(k.into(), Span::default()),
                value,
            })
            .collect(),
    ))
}

/// `{type: name, …rest}`.
fn typed(name: &str, rest: Vec<(&str, Expr)>) -> Expr {
    let mut entries = vec![("type", string(name))];
    entries.extend(rest);
    dict(entries)
}

/// The schema with `nullable: true` added (a dict literal always, by construction).
fn nullable(mut schema: Expr) -> Expr {
    if let ExprKind::Dict(entries) = &mut schema.kind {
        entries.push(DictEntry::Pair {
            key: DictKey::Name("nullable".into(), Span::default()),
            value: expr(ExprKind::Bool(true)),
        });
    }
    schema
}

/// Every `type` alias of the program (top level and inside `fn`, `pipeline` and `impl`
/// bodies), lowered to its schema literal.
pub(crate) fn alias_schemas(items: &[Stmt]) -> HashMap<String, Expr> {
    let mut aliases = HashMap::default();
    collect(items, &mut aliases);
    aliases
        .iter()
        .map(|(name, ty)| (name.clone(), schema_literal(ty, &aliases)))
        .collect()
}

fn collect(stmts: &[Stmt], out: &mut HashMap<String, TypeExpr>) {
    for s in stmts {
        match &s.kind {
            StmtKind::TypeAlias(d) => {
                out.insert(d.name.name.to_string(), d.ty.clone());
            }
            StmtKind::Fn(f) | StmtKind::Override(f) => collect(&f.body.stmts, out),
            StmtKind::Pipeline(p) => collect(&p.body.stmts, out),
            StmtKind::Impl(i) => {
                for m in &i.methods {
                    collect(&m.body.stmts, out);
                }
            }
            _ => {}
        }
    }
}
