//! Schema transformations: `schema_from_json_schema` (JSON Schema or OpenAPI into Harn's
//! schema dialect), `schema_pick`, `schema_omit`, `schema_extend`, `schema_partial` and
//! `schema_expect`. Validation itself is in `schema.rs`.
//!
//! The canonical dialect uses Harn type names (`int`, `float`, `dict`, `list`, `bool`,
//! `nil`) and snake_case keywords (`min`, `max_length`, `additional_properties`,
//! `union`, `all_of`); a keyword it does not know is dropped.

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};

use crate::util::{arg, charge};

const MAX_DEPTH: usize = 128;

fn thrown(msg: impl Into<String>) -> VmError {
    VmError::thrown_str(msg)
}

fn type_value(v: &Value) -> Value {
    match v {
        Value::Str(s) => Value::str(crate::schema::harn_type(s)),
        other => other.clone(),
    }
}

/// Keywords kept as they are.
const KEPT: &[&str] = &[
    "required",
    "default",
    "const",
    "enum",
    "pattern",
    "title",
    "description",
    "format",
    "deprecated",
    "readOnly",
    "writeOnly",
    "example",
    "examples",
    "$ref",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
];

/// Keywords renamed to the Harn spelling; the values are kept.
const RENAMED: &[(&str, &str)] = &[
    ("minimum", "min"),
    ("maximum", "max"),
    ("min", "min"),
    ("max", "max"),
    ("minLength", "min_length"),
    ("maxLength", "max_length"),
    ("min_length", "min_length"),
    ("max_length", "max_length"),
    ("minItems", "min_items"),
    ("maxItems", "max_items"),
    ("min_items", "min_items"),
    ("max_items", "max_items"),
];

/// `schema` in the canonical dialect.
pub fn canonical(schema: &Value, depth: usize, name: &str) -> Result<Value, VmError> {
    canonical_dict(schema, depth, name).map(Value::dict)
}

fn canonical_dict(schema: &Value, depth: usize, name: &str) -> Result<Dict, VmError> {
    if depth > MAX_DEPTH {
        return Err(thrown(format!("{name}: schema nested too deeply")));
    }
    let Value::Dict(s) = schema else {
        return Err(thrown(format!("{name}: schema must be a dict")));
    };
    let sub = |v: &Value| canonical(v, depth + 1, name);
    let mut out = Dict::new();
    for (k, v) in s.iter() {
        let key = k.as_str();
        if KEPT.contains(&key) {
            out.insert(k.clone(), v.clone());
        } else if let Some((_, to)) = RENAMED.iter().find(|(from, _)| *from == key) {
            out.insert((*to).to_owned(), v.clone());
        } else {
            match key {
                "type" => match v {
                    Value::List(ts) => {
                        let branches = ts
                            .iter()
                            .map(|t| {
                                let mut d = Dict::new();
                                d.insert("type", type_value(t));
                                Value::dict(d)
                            })
                            .collect();
                        out.insert("union", Value::list(branches));
                    }
                    _ => {
                        out.insert("type", type_value(v));
                    }
                },
                "x-harn-type" if matches!(v, Value::Str(t) if t.as_str() == "set") => {
                    out.insert("type", Value::str("set"));
                }
                "uniqueItems" | "unique_items" if v.truthy() => {
                    out.insert("unique_items", Value::Bool(true));
                }
                "nullable" if v.truthy() => {
                    out.insert("nullable", Value::Bool(true));
                }
                "additionalProperties" | "additional_properties" => match v {
                    Value::Bool(_) => {
                        out.insert("additional_properties", v.clone());
                    }
                    Value::Dict(_) => {
                        out.insert("additional_properties", sub(v)?);
                    }
                    _ => {}
                },
                "properties" | "definitions" | "$defs" => {
                    if let Value::Dict(props) = v {
                        let mut p = Dict::new();
                        for (name, ps) in props.iter() {
                            p.insert(name.clone(), sub(ps)?);
                        }
                        out.insert(k.clone(), Value::dict(p));
                    }
                }
                "items" | "not" => {
                    out.insert(k.clone(), sub(v)?);
                }
                "oneOf" | "anyOf" | "union" | "allOf" | "all_of" => {
                    let Value::List(branches) = v else {
                        return Err(thrown(format!(
                            "{name}: schema union/all_of must be a list"
                        )));
                    };
                    let canonical_key = if matches!(key, "allOf" | "all_of") {
                        "all_of"
                    } else {
                        "union"
                    };
                    out.insert(
                        canonical_key,
                        Value::list(branches.iter().map(sub).collect::<Result<_, _>>()?),
                    );
                }
                _ => {}
            }
        }
    }
    Ok(out)
}

fn schema_from_json_schema(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    charge(host, 8)?;
    canonical(arg(args, 0), 0, "schema_from_json_schema")
}

/// OpenAPI 3.0's spelling of a JSON Schema: a `[t, "null"]` type becomes `t` with
/// `nullable: true`, everywhere.
fn openapi(schema: &Value, depth: usize) -> Value {
    let Value::Dict(d) = schema else {
        return schema.clone();
    };
    if depth > MAX_DEPTH {
        return schema.clone();
    }
    let mut out = Dict::new();
    for (k, v) in d.iter() {
        let v = match (k.as_str(), v) {
            ("type", Value::List(ts))
                if ts.len() == 2 && ts.iter().any(|t| t.as_str() == Some("null")) =>
            {
                out.insert("nullable", Value::Bool(true));
                ts.iter()
                    .find(|t| t.as_str() != Some("null"))
                    .cloned()
                    .unwrap_or_default()
            }
            (_, Value::Dict(_)) => openapi(v, depth + 1),
            (_, Value::List(items)) => {
                Value::list(items.iter().map(|i| openapi(i, depth + 1)).collect())
            }
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    Value::dict(out)
}

fn schema_to_openapi_schema(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    charge(host, 8)?;
    let schema = canonical(arg(args, 0), 0, "schema_to_openapi_schema")?;
    Ok(openapi(&crate::schema::to_json_schema(&schema, 0), 0))
}

fn schema_from_openapi_schema(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    charge(host, 8)?;
    canonical(arg(args, 0), 0, "schema_from_openapi_schema")
}

/// The names in a `keys` argument.
fn key_list(name: &str, v: &Value) -> Result<Vec<String>, VmError> {
    let Value::List(items) = v else {
        return Err(thrown(format!("{name}: keys must be a list")));
    };
    items
        .iter()
        .map(|k| match k {
            Value::Str(s) => Ok(s.as_str().to_owned()),
            other => display(other),
        })
        .collect()
}

/// The canonical schema with its top-level `properties` and `required` filtered.
fn filtered(args: &[Value], name: &str, keep_listed: bool) -> Result<Value, VmError> {
    let mut m = canonical_dict(arg(args, 0), 0, name)?;
    let keys = key_list(name, arg(args, 1))?;
    let keep = |k: &str| keys.iter().any(|x| x == k) == keep_listed;
    if let Some(Value::Dict(props)) = m.get("properties") {
        let p: Dict = props
            .iter()
            .filter(|(k, _)| keep(k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        m.insert("properties", Value::dict(p));
    }
    if let Some(Value::List(req)) = m.get("required") {
        let r: Vec<Value> = req
            .iter()
            .filter(|k| matches!(k, Value::Str(s) if keep(s)))
            .cloned()
            .collect();
        m.insert("required", Value::list(r));
    }
    Ok(Value::dict(m))
}

fn schema_pick(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    charge(host, 8)?;
    filtered(args, "schema_pick", true)
}

fn schema_omit(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    charge(host, 8)?;
    filtered(args, "schema_omit", false)
}

/// A shallow merge: each key of the overrides replaces the base's whole value.
fn schema_extend(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    charge(host, 8)?;
    let (Value::Dict(_), Value::Dict(_)) = (arg(args, 0), arg(args, 1)) else {
        return Err(thrown("schema_extend: schema must be a dict"));
    };
    let mut out = canonical_dict(arg(args, 0), 0, "schema_extend")?;
    out.extend(canonical_dict(arg(args, 1), 0, "schema_extend")?);
    Ok(Value::dict(out))
}

/// `schema` with `required` removed everywhere it can apply.
fn without_required(schema: &Value, depth: usize) -> Value {
    let Value::Dict(s) = schema else {
        return schema.clone();
    };
    if depth > MAX_DEPTH {
        return schema.clone();
    }
    let mut out = Dict::new();
    for (k, v) in s.iter() {
        let v = match (k.as_str(), v) {
            ("required", _) => continue,
            ("properties", Value::Dict(props)) => Value::dict(
                props
                    .iter()
                    .map(|(n, p)| (n.clone(), without_required(p, depth + 1)))
                    .collect(),
            ),
            ("union" | "all_of", Value::List(bs)) => {
                Value::list(bs.iter().map(|b| without_required(b, depth + 1)).collect())
            }
            ("items" | "additional_properties", Value::Dict(_)) => without_required(v, depth + 1),
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    Value::dict(out)
}

fn schema_partial(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    charge(host, 8)?;
    Ok(without_required(
        &canonical(arg(args, 0), 0, "schema_partial")?,
        0,
    ))
}

/// The value when it matches the schema (defaults applied when asked), else throws every
/// error joined with `; `.
fn schema_expect(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    charge(host, 8)?;
    let value = if arg(args, 2).truthy() {
        crate::schema::with_defaults(arg(args, 0), arg(args, 1), 0)
    } else {
        arg(args, 0).clone()
    };
    let errors = crate::schema::validate(&value, arg(args, 1))?;
    if errors.is_empty() {
        Ok(value)
    } else {
        Err(thrown(errors.join("; ")))
    }
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("schema_from_json_schema", schema_from_json_schema),
        ("schema_from_openapi_schema", schema_from_openapi_schema),
        ("schema_to_openapi_schema", schema_to_openapi_schema),
        ("schema_pick", schema_pick),
        ("schema_omit", schema_omit),
        ("schema_extend", schema_extend),
        ("schema_partial", schema_partial),
        ("schema_expect", schema_expect),
    ];
    b.sync_table(table);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, j};

    #[test]
    fn canonical_forms() {
        assert_eq!(
            call(
                schema_from_json_schema,
                &[j(
                    r#"{"type":"object","properties":{"n":{"type":["integer","null"],"minimum":1}},"required":["n"],"additionalProperties":false,"x-unknown":1}"#
                )]
            ),
            "{additional_properties: false, properties: {n: {min: 1, union: [{type: int}, {type: nil}]}}, required: [n], type: dict}"
        );
        assert!(
            call_err(schema_from_json_schema, &[Value::Int(1)])
                .contains("schema_from_json_schema: schema must be a dict")
        );
    }

    #[test]
    fn pick_omit_extend_partial() {
        let s = j(
            r#"{"type":"dict","properties":{"a":{"type":"int"},"b":{"type":"string"}},"required":["a","b"]}"#,
        );
        let keys = Value::list(vec![Value::str("a")]);
        assert_eq!(
            call(schema_pick, &[s.clone(), keys.clone()]),
            "{properties: {a: {type: int}}, required: [a], type: dict}"
        );
        assert_eq!(
            call(schema_omit, &[s.clone(), keys]),
            "{properties: {b: {type: string}}, required: [b], type: dict}"
        );
        assert_eq!(
            call(schema_partial, std::slice::from_ref(&s)),
            "{properties: {a: {type: int}, b: {type: string}}, type: dict}"
        );
        assert_eq!(
            call(schema_extend, &[s.clone(), j(r#"{"required":[]}"#)]),
            "{properties: {a: {type: int}, b: {type: string}}, required: [], type: dict}"
        );
        assert!(call_err(schema_pick, &[s, Value::Int(1)]).contains("keys must be a list"));
    }
}
