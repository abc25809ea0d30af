//! The code-mode type check (`code-mode.md` 4.2 step 8): calls of manifest bindings are
//! checked against the binding's `inputSchema`, and only what is certain blocks a run:
//! a literal whose JSON type the schema rules out. Anything else is `any`; extra keys
//! are fine (width subtyping) and missing required keys are left to the argument gate at
//! call time (acceptance 24: `docs_read_file({})` is a refused call, not a type error).

use serde_json::Value;

use crate::ast::{Arg, DictEntry, DictKey, Expr, ExprKind};
use crate::manifest::Binding;

/// The JSON type of a literal expression; `None` when it is not a literal.
fn literal_type(e: &Expr) -> Option<&'static str> {
    Some(match &e.kind {
        ExprKind::Nil => "null",
        ExprKind::Bool(_) => "boolean",
        ExprKind::Int(_) => "integer",
        ExprKind::Float(_) => "number",
        ExprKind::Str(_) | ExprKind::InterpStr(_) => "string",
        ExprKind::List(_) => "array",
        ExprKind::Dict(_) => "object",
        _ => return None,
    })
}

/// The types a schema allows, when it says (`type` as a string or list, plus
/// `nullable`). `None` when the schema does not restrict the type.
fn allowed_types(schema: &Value) -> Option<Vec<&str>> {
    let mut types: Vec<&str> = match schema.get("type")? {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    if schema.get("nullable") == Some(&Value::Bool(true)) {
        types.push("null");
    }
    Some(types)
}

/// `a string literal`, `an array literal`.
fn a_literal(t: &str) -> String {
    let article = if t.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {t} literal")
}

fn fits(literal: &str, allowed: &[&str]) -> bool {
    allowed.iter().any(|t| {
        *t == literal
            || (*t == "number" && literal == "integer")
            // A float literal may still be integral (`2.0`): not certain.
            || (*t == "integer" && literal == "number")
    })
}

/// The first certain problem with a call of `binding` with `args`, if any.
pub fn check_binding_call(binding: &Binding, args: &[Arg]) -> Option<String> {
    let name = &binding.binding;
    let schema = &binding.input_schema;
    let entries: &[DictEntry] = match args.first() {
        None => &[],
        Some(Arg::Positional(e)) => match &e.kind {
            ExprKind::Dict(entries) => entries,
            _ => {
                let got = literal_type(e)?;
                return (got != "object").then(|| {
                    format!(
                        "binding `{name}` takes a dict of arguments, got {}",
                        a_literal(got)
                    )
                });
            }
        },
        Some(Arg::Spread(_)) => return None,
    };
    check_entries(name, None, schema, entries, 0)
}

/// Nested argument objects deeper than this are not checked.
const MAX_DEPTH: usize = 16;

/// The keys leading to an argument (`options.mode`), as links to the enclosing keys:
/// written out only for a message, since most calls have no problem to report.
struct KeyPath<'p> {
    parent: Option<&'p KeyPath<'p>>,
    key: &'p str,
}

impl KeyPath<'_> {
    fn dotted(&self) -> String {
        match self.parent {
            Some(parent) => format!("{}.{}", parent.dotted(), self.key),
            None => self.key.to_string(),
        }
    }
}

/// The first certain problem among `entries` against the object schema `schema`;
/// `parent` names the enclosing keys.
fn check_entries(
    name: &str,
    parent: Option<&KeyPath<'_>>,
    schema: &Value,
    entries: &[DictEntry],
    depth: usize,
) -> Option<String> {
    let properties = schema.get("properties").and_then(Value::as_object);
    for entry in entries {
        let DictEntry::Pair {
            key: DictKey::Name(key, _),
            value,
        } = entry
        else {
            continue;
        };
        let Some(prop) = properties.and_then(|p| p.get(key.as_str())) else {
            continue;
        };
        let path = KeyPath { parent, key };
        if let (Some(got), Some(allowed)) = (literal_type(value), allowed_types(prop))
            && !fits(got, &allowed)
        {
            return Some(format!(
                "binding `{name}` argument `{}` expects {}, got {}",
                path.dotted(),
                allowed.join(" or "),
                a_literal(got)
            ));
        }
        // The schema's `enum` first: most properties have none, and the literal's JSON
        // is a copy of its text.
        if let Some(choices) = prop.get("enum").and_then(Value::as_array)
            && let Some(literal) = literal_json(value)
            && !choices.contains(&literal)
        {
            let listed: Vec<String> = choices.iter().map(Value::to_string).collect();
            return Some(format!(
                "binding `{name}` argument `{}` expects one of {}, got {literal}",
                path.dotted(),
                listed.join(", ")
            ));
        }
        if let ExprKind::Dict(inner) = &value.kind
            && depth < MAX_DEPTH
            && let Some(problem) = check_entries(name, Some(&path), prop, inner, depth + 1)
        {
            return Some(problem);
        }
    }
    None
}

/// A scalar literal's JSON value (for `enum` membership).
fn literal_json(e: &Expr) -> Option<Value> {
    Some(match &e.kind {
        ExprKind::Str(s) => Value::String(s.to_string()),
        ExprKind::Int(n) => Value::from(*n),
        ExprKind::Bool(b) => Value::Bool(*b),
        ExprKind::Nil => Value::Null,
        _ => return None,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use serde_json::json;

    use super::check_binding_call;
    use crate::ast::{ExprKind, StmtKind};
    use crate::manifest::{BuildOptions, build_manifest};

    fn check(src: &str) -> Option<String> {
        let tools = json!([{"name": "search", "annotations": {"kind": "search", "side_effect_level": "read_only"},
            "inputSchema": {"type": "object", "required": ["query"], "properties": {
                "query": {"type": "string"}, "limit": {"type": "integer"},
                "ratio": {"type": "number"}, "tag": {"type": ["string", "null"]},
                "note": {"type": "string", "nullable": true}}}}]);
        let m = build_manifest(&tools, &BuildOptions::default()).manifest;
        let parsed = crate::parse(src);
        let StmtKind::Expr(e) = &parsed.program.items[0].kind else {
            panic!()
        };
        let ExprKind::Call { args, .. } = &e.kind else {
            panic!()
        };
        check_binding_call(&m.bindings[0], args)
    }

    #[test]
    fn only_certain_literal_mismatches_are_errors() {
        assert_eq!(check("search({query: \"x\", limit: 5})"), None);
        assert_eq!(check("search({query: \"x\", limit: n})"), None);
        assert_eq!(check("search({query: \"x\", ratio: 3})"), None);
        assert_eq!(check("search({query: \"x\", limit: 2.0})"), None);
        assert_eq!(
            check("search({query: \"x\", tag: nil, note: nil, extra: 1})"),
            None
        );
        assert_eq!(
            check("search({})"),
            None,
            "missing keys are left to the gate"
        );
        assert_eq!(check("search({...base, limit: 5})"), None);
        assert_eq!(
            check("search({query: \"x\", limit: \"5\"})").as_deref(),
            Some("binding `search` argument `limit` expects integer, got a string literal")
        );
        assert_eq!(
            check("search({query: [1]})").as_deref(),
            Some("binding `search` argument `query` expects string, got an array literal")
        );
        assert_eq!(
            check("search(\"x\")").as_deref(),
            Some("binding `search` takes a dict of arguments, got a string literal")
        );
    }
}
