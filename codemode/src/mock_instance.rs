//! The mock host's answer for a tool with an `outputSchema` and no `mock_output`: the
//! smallest instance the schema describes, derived deterministically (required keys
//! only, the first `enum` or `const` value, a `default` where one is given, empty arrays
//! unless `minItems` asks for more, zero or the lower bound for numbers, `""` padded to
//! `minLength`), so a snippet can be tried against a real tool surface offline and
//! every call passes output validation.

use serde_json::{Map, Value as Json, json};

/// Schemas nested deeper than this yield `null` (a cyclic `$ref` ends here).
const MAX_DEPTH: usize = 32;

/// An instance of `schema` (resolving `$ref`s against `schema` itself).
pub fn instance_of(schema: &Json) -> Json {
    Instance { root: schema }.of(schema, 0)
}

struct Instance<'a> {
    root: &'a Json,
}

impl Instance<'_> {
    fn resolve(&self, reference: &str) -> Option<&Json> {
        let pointer = reference.strip_prefix('#')?;
        self.root.pointer(pointer)
    }

    fn of(&self, schema: &Json, depth: usize) -> Json {
        if depth > MAX_DEPTH {
            return Json::Null;
        }
        let Some(obj) = schema.as_object() else {
            // `true` or an unreadable schema: anything goes.
            return Json::Null;
        };
        if let Some(target) = obj
            .get("$ref")
            .and_then(Json::as_str)
            .and_then(|r| self.resolve(r))
        {
            return self.of(target, depth + 1);
        }
        if let Some(v) = obj.get("const") {
            return v.clone();
        }
        if let Some(first) = obj
            .get("enum")
            .and_then(Json::as_array)
            .and_then(|e| e.first())
        {
            return first.clone();
        }
        if let Some(v) = obj.get("default") {
            return v.clone();
        }
        for key in ["anyOf", "oneOf", "allOf"] {
            if let Some(first) = obj
                .get(key)
                .and_then(Json::as_array)
                .and_then(|a| a.first())
            {
                return self.of(first, depth + 1);
            }
        }
        let ty = match obj.get("type") {
            Some(Json::String(t)) => t.as_str(),
            // `["string", "null"]`: the first type that is not `null`.
            Some(Json::Array(types)) => types
                .iter()
                .filter_map(Json::as_str)
                .find(|t| *t != "null")
                .unwrap_or("null"),
            _ if obj.contains_key("properties") => "object",
            _ if obj.contains_key("items") => "array",
            _ => return Json::Null,
        };
        match ty {
            "object" => self.object(obj, depth),
            "array" => {
                let n = obj
                    .get("minItems")
                    .and_then(Json::as_u64)
                    .unwrap_or(0)
                    .min(16);
                let item = obj.get("items").cloned().unwrap_or(Json::Bool(true));
                Json::Array((0..n).map(|_| self.of(&item, depth + 1)).collect())
            }
            "string" => {
                let n = obj
                    .get("minLength")
                    .and_then(Json::as_u64)
                    .unwrap_or(0)
                    .min(64);
                Json::String("a".repeat(usize::try_from(n).unwrap_or(0)))
            }
            // Bounds are small numbers in practice; the cast saturates otherwise.
            "integer" => json!(number(obj).ceil() as i64),
            "number" => json!(number(obj)),
            "boolean" => Json::Bool(false),
            _ => Json::Null,
        }
    }

    fn object(&self, obj: &Map<String, Json>, depth: usize) -> Json {
        let props = obj.get("properties").and_then(Json::as_object);
        let required = obj
            .get("required")
            .and_then(Json::as_array)
            .map(|r| r.iter().filter_map(Json::as_str).collect::<Vec<_>>())
            .unwrap_or_default();
        let mut out = Map::new();
        for key in required {
            let sub = props
                .and_then(|p| p.get(key))
                .cloned()
                .unwrap_or(Json::Bool(true));
            out.insert(key.to_string(), self.of(&sub, depth + 1));
        }
        Json::Object(out)
    }
}

/// The number closest to zero that a schema's bounds allow.
fn number(obj: &Map<String, Json>) -> f64 {
    let mut n: f64 = 0.0;
    if let Some(m) = obj.get("minimum").and_then(Json::as_f64) {
        n = n.max(m);
    }
    if let Some(m) = obj.get("exclusiveMinimum").and_then(Json::as_f64)
        && n <= m
    {
        n = m + 1.0;
    }
    if let Some(m) = obj.get("maximum").and_then(Json::as_f64) {
        n = n.min(m);
    }
    if let Some(m) = obj.get("exclusiveMaximum").and_then(Json::as_f64)
        && n >= m
    {
        n = m - 1.0;
    }
    n
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::schema::Schema;

    #[test]
    fn instances_satisfy_their_schemas() {
        let schemas = [
            json!({"type": "object", "properties": {"content": {"type": "string"}},
                   "required": ["content"], "additionalProperties": false}),
            json!({"type": "object", "required": ["items", "mode", "n", "when"],
                   "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/e"}, "minItems": 1},
                                  "mode": {"enum": ["fast", "full"]}, "n": {"type": "integer", "minimum": 3},
                                  "when": {"type": ["string", "null"], "minLength": 2},
                                  "skip": {"type": "boolean"}},
                   "$defs": {"e": {"type": "object", "required": ["id"], "properties": {"id": {"const": 7}}}}}),
            json!({"anyOf": [{"type": "number", "exclusiveMinimum": 0.5}, {"type": "null"}]}),
        ];
        for schema in schemas {
            let value = instance_of(&schema);
            let validator = Schema::compile(&schema).unwrap();
            assert!(validator.issues(&value).is_empty(), "{schema} -> {value}");
        }
        assert_eq!(
            instance_of(&schemas_first()),
            json!({"items": [{"id": 7}], "mode": "fast", "n": 3, "when": "aa"})
        );
    }

    fn schemas_first() -> Json {
        json!({"type": "object", "required": ["items", "mode", "n", "when"],
               "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/e"}, "minItems": 1},
                              "mode": {"enum": ["fast", "full"]}, "n": {"type": "integer", "minimum": 3},
                              "when": {"type": ["string", "null"], "minLength": 2}},
               "$defs": {"e": {"type": "object", "required": ["id"], "properties": {"id": {"const": 7}}}}})
    }
}
