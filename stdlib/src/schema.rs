//! Schema validation: `json_validate`, `schema_is`, `schema_check`, `schema_parse`,
//! `schema_errors`, `schema_of`, `schema_to_json_schema`.
//!
//! Validation runs on the `jsonschema` crate, the one tool I/O uses, through
//! `schema_engine.rs`, which translates Harn's dialect, converts values and writes the
//! reference's messages (`at root: missing required key 'age'`).
//!
//! Both dialects are accepted: JSON Schema keywords (`type` with JSON or Harn names or a
//! list of them, `properties`, `required`, `additionalProperties`, `items`, `enum`,
//! `const`, `anyOf`/`oneOf` (first matching branch), `allOf`, `not`, `minimum`,
//! `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minLength`, `maxLength`,
//! `minItems`, `maxItems`, `uniqueItems`, `pattern`, local `$ref`, `default`) and their
//! Harn spellings (`min`, `max`, `min_length`, `max_length`, `min_items`, `max_items`,
//! `additional_properties`, `union`, `all_of`, `nullable`).
//!
//! Messages follow the reference: `at <path>: <reason>` where the path is `root`, a key
//! (`name`), `name.inner` or `items[0]`; type names are Harn names (`expected type
//! 'int', got 'string'`). `json_validate` throws every error joined with `; `;
//! `schema_check` / `schema_parse` return `Ok(value)` or `Err({message, errors, value})`
//! (`schema_parse` fills in `default`s first).

use std::rc::Rc;

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};

use crate::util::{arg, type_err};

const MAX_DEPTH: usize = 128;

pub(crate) use crate::schema_engine::{harn_type, validate};

/// Fills missing properties that have a `default`, recursively through properties and
/// items.
pub fn with_defaults(v: &Value, schema: &Value, depth: usize) -> Value {
    let Value::Dict(s) = schema else {
        return v.clone();
    };
    if depth > MAX_DEPTH {
        return v.clone();
    }
    match v {
        Value::Struct(st) => {
            // A struct keeps its name; missing fields with a default are filled in.
            let filled = with_defaults(&Value::dict(st.fields.clone()), schema, depth);
            match &filled {
                Value::Dict(fields) => Value::Struct(Rc::new(harn_vm::value::StructValue {
                    name: Rc::clone(&st.name),
                    fields: (**fields).clone(),
                })),
                _ => v.clone(),
            }
        }
        Value::Dict(d) => {
            let mut out = (**d).clone();
            if let Some(Value::Dict(props)) = s.get("properties") {
                for (k, ps) in props.iter() {
                    match out.get(k) {
                        Some(cur) => {
                            let next = with_defaults(cur, ps, depth + 1);
                            out.insert(k.clone(), next);
                        }
                        None => {
                            if let Value::Dict(p) = ps
                                && let Some(dv) = p.get("default")
                            {
                                out.insert(k.clone(), dv.clone());
                            }
                        }
                    }
                }
            }
            Value::dict(out)
        }
        Value::List(items) => match s.get("items") {
            Some(is) => Value::list(
                items
                    .iter()
                    .map(|x| with_defaults(x, is, depth + 1))
                    .collect(),
            ),
            None => v.clone(),
        },
        _ => v.clone(),
    }
}

fn two_args(name: &str, args: &[Value]) -> Result<(), VmError> {
    if args.len() < 2 {
        return Err(VmError::thrown_str(format!(
            "{name} requires 2 arguments: data and schema"
        )));
    }
    Ok(())
}

/// `json_validate(value, schema)`: true, or throws every error joined with `; `.
fn json_validate(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    two_args("json_validate", args)?;
    let errors = validate(arg(args, 0), arg(args, 1))?;
    if errors.is_empty() {
        Ok(Value::Bool(true))
    } else {
        Err(VmError::thrown_str(errors.join("; ")))
    }
}

fn schema_is(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    two_args("schema_is", args)?;
    Ok(Value::Bool(
        validate(arg(args, 0), arg(args, 1))?.is_empty(),
    ))
}

fn result_of(v: Value, schema: &Value) -> Result<Value, VmError> {
    let errors = validate(&v, schema)?;
    if errors.is_empty() {
        return Ok(Value::ok(v));
    }
    let mut d = Dict::new();
    d.insert("message", Value::str(errors[0].clone()));
    d.insert(
        "errors",
        Value::list(errors.into_iter().map(Value::str).collect()),
    );
    d.insert("value", v);
    Ok(Value::err(Value::dict(d)))
}

fn schema_check(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    two_args("schema_check", args)?;
    result_of(arg(args, 0).clone(), arg(args, 1))
}

fn schema_parse(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    two_args("schema_parse", args)?;
    result_of(with_defaults(arg(args, 0), arg(args, 1), 0), arg(args, 1))
}

fn schema_errors(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    two_args("schema_errors", args)?;
    Ok(Value::list(
        validate(arg(args, 0), arg(args, 1))?
            .into_iter()
            .map(Value::str)
            .collect(),
    ))
}

/// A schema describing a value's shape (a dict is taken to be a schema already).
pub fn infer(v: &Value) -> Value {
    let t = |name: &str| {
        let mut d = Dict::new();
        d.insert("type", Value::str(name));
        d
    };
    match v {
        Value::Dict(_) => v.clone(),
        Value::List(items) => {
            let mut d = t("list");
            if let Some(first) = items.first() {
                d.insert("items", infer(first));
            }
            Value::dict(d)
        }
        Value::Struct(s) => {
            let mut d = t("dict");
            let props: Dict = s
                .fields
                .iter()
                .map(|(k, v)| (k.clone(), infer(v)))
                .collect();
            d.insert(
                "required",
                Value::list(s.fields.keys().map(|k| Value::str(k.as_str())).collect()),
            );
            d.insert("properties", Value::dict(props));
            Value::dict(d)
        }
        other => Value::dict(t(other.type_name())),
    }
}

fn schema_of(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(infer(arg(args, 0)))
}

fn json_type(t: &str) -> &str {
    match t {
        "int" => "integer",
        "float" => "number",
        "bool" => "boolean",
        "list" | "set" => "array",
        "dict" => "object",
        "nil" => "null",
        other => other,
    }
}

/// Harn-flavoured schema → standard JSON Schema.
pub fn to_json_schema(schema: &Value, depth: usize) -> Value {
    let Value::Dict(s) = schema else {
        return schema.clone();
    };
    if depth > MAX_DEPTH {
        return schema.clone();
    }
    let mut out = Dict::new();
    let nullable = matches!(s.get("nullable"), Some(Value::Bool(true)));
    for (k, v) in s.iter() {
        let (key, val) = match k.as_str() {
            "type" => match v {
                Value::Str(t) => {
                    if t.as_str() == "set" {
                        out.insert("uniqueItems", Value::Bool(true));
                    }
                    let jt = Value::str(json_type(t));
                    (
                        "type",
                        if nullable {
                            Value::list(vec![jt, Value::str("null")])
                        } else {
                            jt
                        },
                    )
                }
                other => ("type", other.clone()),
            },
            "nullable" => continue,
            "min" => ("minimum", v.clone()),
            "max" => ("maximum", v.clone()),
            "min_length" => ("minLength", v.clone()),
            "max_length" => ("maxLength", v.clone()),
            "min_items" => ("minItems", v.clone()),
            "max_items" => ("maxItems", v.clone()),
            "additional_properties" | "additionalProperties" => {
                ("additionalProperties", to_json_schema(v, depth + 1))
            }
            "items" | "not" => (k.as_str(), to_json_schema(v, depth + 1)),
            "union" | "oneOf" | "anyOf" | "all_of" | "allOf" => {
                let key = match k.as_str() {
                    "union" => "oneOf",
                    "all_of" => "allOf",
                    other => other,
                };
                let branches = match v {
                    Value::List(items) => {
                        Value::list(items.iter().map(|b| to_json_schema(b, depth + 1)).collect())
                    }
                    other => other.clone(),
                };
                (key, branches)
            }
            "properties" | "definitions" | "$defs" => {
                let mapped = match v {
                    Value::Dict(props) => Value::dict(
                        props
                            .iter()
                            .map(|(n, c)| (n.clone(), to_json_schema(c, depth + 1)))
                            .collect(),
                    ),
                    other => other.clone(),
                };
                (k.as_str(), mapped)
            }
            other => (other, v.clone()),
        };
        out.insert(key.to_owned(), val);
    }
    Value::dict(out)
}

fn schema_to_json_schema(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    match arg(args, 0) {
        v @ Value::Dict(_) => Ok(to_json_schema(v, 0)),
        other => Err(type_err("schema_to_json_schema", "a schema dict", other)),
    }
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("json_validate", json_validate),
        ("schema_is", schema_is),
        ("schema_check", schema_check),
        ("schema_parse", schema_parse),
        ("schema_errors", schema_errors),
        ("schema_of", schema_of),
        ("schema_to_json_schema", schema_to_json_schema),
    ];
    b.sync_table(table);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, i, j, s};

    #[test]
    fn messages() {
        let schema = j(
            r#"{"type":"object","required":["name","age"],"properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0}}}"#,
        );
        assert_eq!(
            call_err(json_validate, &[j(r#"{"name":"x"}"#), schema.clone()]),
            "Thrown: at root: missing required key 'age'"
        );
        assert_eq!(
            call_err(json_validate, &[j(r#"{"name":1,"age":3}"#), schema.clone()]),
            "Thrown: at name: expected type 'string', got 'int'"
        );
        assert_eq!(
            call_err(json_validate, &[j(r#"{"name":1}"#), schema.clone()]),
            "Thrown: at root: missing required key 'age'; at name: expected type 'string', got 'int'"
        );
        assert_eq!(
            call(
                json_validate,
                &[j(r#"{"name":"a","age":3}"#), schema.clone()]
            ),
            "true"
        );
        assert_eq!(
            call(
                schema_errors,
                &[j(r#"{"name":"a","age":-1}"#), schema.clone()]
            ),
            "[at age: expected value >= 0, got -1]"
        );
        assert_eq!(
            call_err(json_validate, &[i(1), j(r#"{"type":"string"}"#)]),
            "Thrown: at root: expected type 'string', got 'int'"
        );
        assert!(call_err(json_validate, &[i(1), s("nope")]).contains("expected a schema dict"));
        assert_eq!(
            call_err(json_validate, &[i(1)]),
            "Thrown: json_validate requires 2 arguments: data and schema"
        );
    }

    #[test]
    fn keywords() {
        let schema = j(r#"{"type":"array","items":{"enum":["a","b"]},"maxItems":2}"#);
        assert_eq!(
            call(schema_errors, &[j(r#"["a","c","b"]"#), schema]),
            "[at root: expected at most 2 items, got 3, at [1]: value must be one of [a, b]]"
        );
        let any = j(r#"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#);
        assert_eq!(call(schema_is, &[i(3), any.clone()]), "true");
        assert_eq!(
            call(schema_errors, &[Value::Bool(true), any]),
            "[at root: value did not match any union branch]"
        );
        let pat = j(r#"{"type":"string","pattern":"^[a-z]+$","min_length":3}"#);
        assert_eq!(call(schema_is, &[s("abc"), pat.clone()]), "true");
        assert_eq!(
            call(schema_errors, &[s("a1"), pat]),
            "[at root: expected length >= 3, got 2, at root: value does not match pattern '^[a-z]+$']"
        );
        let r = j(
            r##"{"$defs":{"n":{"type":"integer"}},"type":"object","properties":{"x":{"$ref":"#/$defs/n"}}}"##,
        );
        assert_eq!(call(schema_is, &[j(r#"{"x":1}"#), r.clone()]), "true");
        assert_eq!(call(schema_is, &[j(r#"{"x":"1"}"#), r]), "false");
        assert_eq!(
            call(
                schema_is,
                &[Value::Nil, j(r#"{"type":"string","nullable":true}"#)]
            ),
            "true"
        );
        assert_eq!(call(schema_of, &[i(3)]), "{type: int}");
        let closed = j(r#"{"type":"dict","properties":{"a":{}},"additional_properties":false}"#);
        assert_eq!(
            call(schema_errors, &[j(r#"{"a":1,"b":2}"#), closed]),
            "[at root: unexpected key 'b']"
        );
    }

    #[test]
    fn results_and_defaults() {
        let schema = j(
            r#"{"type":"object","required":["n"],"properties":{"n":{"type":"int","default":5}}}"#,
        );
        assert_eq!(
            call(schema_parse, &[j("{}"), schema.clone()]),
            "Result.Ok({n: 5})"
        );
        assert_eq!(
            call(schema_check, &[j("{}"), schema.clone()]),
            "Result.Err({errors: [at root: missing required key 'n'], message: at root: missing required key 'n', value: {}})"
        );
        let harn = j(r#"{"type":"int","min":1,"nullable":true}"#);
        assert_eq!(
            call(schema_to_json_schema, &[harn]),
            "{minimum: 1, type: [integer, null]}"
        );
    }
}
