//! JSON Schema validation of tool inputs and outputs (`code-mode.md` 4.6), on the
//! `jsonschema` crate with the linear-time `regex` engine for `pattern`. Issues read
//! `at <JSON pointer or "root">: <problem>`. (The stdlib's `json_validate` family runs on
//! the same crate, through a translation of Harn's schema dialect: `schema_engine.rs`.)

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{PatternOptions, ValidationError, Validator};
use serde_json::{Map, Value as Json};

/// A compiled schema.
pub struct Schema {
    validator: Validator,
}

/// Rewrites OpenAPI's `nullable: true` into a `"null"` member of `type`, everywhere in
/// the schema, so the validator (which ignores unknown keywords) honours it.
fn normalise(schema: &Json) -> Json {
    match schema {
        Json::Object(map) => {
            let mut out: Map<String, Json> =
                map.iter().map(|(k, v)| (k.clone(), normalise(v))).collect();
            if out.get("nullable") == Some(&Json::Bool(true)) {
                match out.get_mut("type") {
                    Some(Json::String(t)) => {
                        let t = std::mem::take(t);
                        out.insert("type".into(), serde_json::json!([t, "null"]));
                    }
                    Some(Json::Array(ts)) if !ts.iter().any(|t| t == "null") => {
                        ts.push(Json::String("null".into()));
                    }
                    _ => {}
                }
            }
            Json::Object(out)
        }
        Json::Array(items) => Json::Array(items.iter().map(normalise).collect()),
        other => other.clone(),
    }
}

fn json_type(v: &Json) -> &'static str {
    match v {
        Json::Null => "null",
        Json::Bool(_) => "boolean",
        Json::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Json::Number(_) => "number",
        Json::String(_) => "string",
        Json::Array(_) => "array",
        Json::Object(_) => "object",
    }
}

fn describe(error: &ValidationError<'_>) -> String {
    let path = error.instance_path().as_str();
    let at = if path.is_empty() { "root" } else { path };
    let problem = match error.kind() {
        ValidationErrorKind::Required { property } => match property.as_str() {
            Some(p) => format!("missing required key '{p}'"),
            None => format!("missing required key {property}"),
        },
        ValidationErrorKind::Type { kind } => {
            let expected = match kind {
                TypeKind::Single(t) => format!("'{t}'"),
                TypeKind::Multiple(set) => set
                    .iter()
                    .map(|t| format!("'{t}'"))
                    .collect::<Vec<_>>()
                    .join(" or "),
            };
            format!(
                "expected type {expected}, got '{}'",
                json_type(error.instance())
            )
        }
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            let keys: Vec<String> = unexpected.iter().map(|k| format!("'{k}'")).collect();
            format!("unexpected key {}", keys.join(", "))
        }
        _ => error.to_string(),
    };
    format!("at {at}: {problem}")
}

impl Schema {
    /// Compiles `schema`; an invalid schema is an error naming the problem.
    pub fn compile(schema: &Json) -> Result<Schema, String> {
        let validator = jsonschema::options()
            .with_pattern_options(PatternOptions::regex())
            .build(&normalise(schema))
            .map_err(|e| format!("invalid schema: {e}"))?;
        Ok(Schema { validator })
    }

    /// Every problem with `instance`, in the validator's order.
    pub fn issues(&self, instance: &Json) -> Vec<String> {
        self.validator
            .iter_errors(instance)
            .map(|e| describe(&e))
            .collect()
    }

    /// `Ok` when `instance` is valid, else the issues joined with `; `.
    pub fn check(&self, instance: &Json) -> Result<(), String> {
        // The yes-or-no answer first: it builds no error values, and almost every
        // argument and result is valid.
        if self.validator.is_valid(instance) {
            return Ok(());
        }
        let issues = self.issues(instance);
        if issues.is_empty() {
            Ok(())
        } else {
            Err(issues.join("; "))
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::Schema;
    use serde_json::json;

    fn issues(schema: serde_json::Value, v: serde_json::Value) -> String {
        Schema::compile(&schema)
            .unwrap()
            .check(&v)
            .err()
            .unwrap_or_default()
    }

    #[test]
    fn issues_name_the_pointer_and_the_problem() {
        let s = json!({"type": "object", "required": ["path"],
                       "properties": {"limit": {"type": "integer"}}});
        assert_eq!(
            issues(s.clone(), json!({"limit": "x"})),
            "at root: missing required key 'path'; at /limit: expected type 'integer', got 'string'"
        );
        assert_eq!(issues(s, json!({"path": "a", "limit": 3})), "");
    }

    #[test]
    fn nullable_and_patterns_work() {
        let s = json!({"type": "string", "nullable": true, "pattern": "^a+$"});
        assert_eq!(issues(s.clone(), json!(null)), "");
        assert!(issues(s, json!("b")).starts_with("at root: "));
    }

    #[test]
    fn invalid_schemas_are_errors_not_panics() {
        assert!(Schema::compile(&json!({"type": 5})).is_err());
        assert!(Schema::compile(&json!({"pattern": "("})).is_err());
    }
}
