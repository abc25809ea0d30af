//! Schema validation: `json_validate`, `schema_is`, `schema_check`, `schema_parse`,
//! `schema_errors`, `schema_of`, `schema_to_json_schema`.
//!
//! A small built-in validator, not the `jsonschema` crate: the reference's messages
//! (`at root: missing required key 'age'`) and its Harn-flavoured schema dialect
//! (`min`, `max_length`, `union`, `nullable`, ...) would have to be rebuilt around that
//! crate anyway, and it would pull a large dependency tree into every VM.
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
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value, equals};

use crate::json_pointer::pointer;
use crate::util::{arg, as_i64, type_err};

const MAX_DEPTH: usize = 128;

/// The Harn name of a type keyword.
pub(crate) fn harn_type(t: &str) -> &str {
    match t {
        "object" => "dict",
        "array" => "list",
        "integer" => "int",
        "number" => "float",
        "boolean" => "bool",
        "null" => "nil",
        "str" => "string",
        other => other,
    }
}

fn type_matches(t: &str, v: &Value) -> bool {
    match harn_type(t) {
        "string" => matches!(v, Value::Str(_)),
        "int" => matches!(v, Value::Int(_)),
        "float" => matches!(v, Value::Int(_) | Value::Float(_)),
        "bool" => matches!(v, Value::Bool(_)),
        "dict" => matches!(v, Value::Dict(_) | Value::Struct(_)),
        "list" => matches!(v, Value::List(_)),
        "set" => matches!(v, Value::Set(_)),
        "nil" => matches!(v, Value::Nil),
        "bytes" => matches!(v, Value::Bytes(_)),
        "duration" => matches!(v, Value::Duration(_)),
        "closure" => matches!(v, Value::Closure(_) | Value::Builtin(_)),
        // `any` and names we do not know accept everything.
        _ => true,
    }
}

fn label(path: &str) -> &str {
    if path.is_empty() { "root" } else { path }
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

/// The first of several spellings present in the schema.
fn get<'a>(s: &'a Dict, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().find_map(|k| s.get(*k))
}

fn num(s: &Dict, keys: &[&str]) -> Option<f64> {
    get(s, keys).and_then(Value::as_f64)
}

fn int(s: &Dict, keys: &[&str]) -> Option<i64> {
    match get(s, keys) {
        Some(Value::Int(n)) => Some(*n),
        _ => None,
    }
}

fn shown(vals: &[Value]) -> Result<String, VmError> {
    Ok(vals
        .iter()
        .map(display)
        .collect::<Result<Vec<_>, _>>()?
        .join(", "))
}

struct Checker<'a> {
    root: &'a Value,
    errors: Vec<String>,
}

impl Checker<'_> {
    fn fail(&mut self, path: &str, msg: String) {
        self.errors.push(format!("at {}: {msg}", label(path)));
    }

    fn matches(&self, v: &Value, schema: &Value, depth: usize) -> Result<bool, VmError> {
        let mut sub = Checker {
            root: self.root,
            errors: Vec::new(),
        };
        sub.check(v, schema, "", depth)?;
        Ok(sub.errors.is_empty())
    }

    fn check(
        &mut self,
        v: &Value,
        schema: &Value,
        path: &str,
        depth: usize,
    ) -> Result<(), VmError> {
        if depth > MAX_DEPTH {
            return Err(VmError::thrown_str(format!(
                "at {}: schema nesting or $ref chain too deep",
                label(path)
            )));
        }
        let s: Rc<Dict> = match schema {
            Value::Bool(true) | Value::Nil => return Ok(()),
            Value::Bool(false) => {
                self.fail(path, "no value is allowed here".into());
                return Ok(());
            }
            Value::Dict(d) => Rc::clone(d),
            other => return Err(type_err("schema", "a schema dict", other)),
        };
        if let Some(Value::Str(r)) = s.get("$ref") {
            let target = r
                .strip_prefix('#')
                .and_then(|p| pointer(self.root, p).ok().flatten());
            match target {
                Some(t) => return self.check(v, &t, path, depth + 1),
                None => {
                    self.fail(path, format!("unresolved schema reference '{r}'"));
                    return Ok(());
                }
            }
        }
        if matches!(v, Value::Nil)
            && s.get("nullable")
                .is_some_and(|n| matches!(n, Value::Bool(true)))
        {
            return Ok(());
        }
        if let Some(c) = s.get("const")
            && !equals(c, v)?
        {
            self.fail(
                path,
                format!("expected constant {}, got {}", display(c)?, display(v)?),
            );
            return Ok(());
        }
        if let Some(Value::List(all)) = get(&s, &["all_of", "allOf"]) {
            for sub in all.iter() {
                self.check(v, sub, path, depth + 1)?;
            }
            return Ok(());
        }
        if let Some(Value::List(branches)) = get(&s, &["union", "anyOf", "oneOf"]) {
            for b in branches.iter() {
                if self.matches(v, b, depth + 1)? {
                    return Ok(());
                }
            }
            self.fail(path, "value did not match any union branch".into());
            return Ok(());
        }
        if let Some(not) = s.get("not")
            && self.matches(v, not, depth + 1)?
        {
            self.fail(path, "value must not match the schema in 'not'".into());
            return Ok(());
        }
        match s.get("type") {
            Some(Value::Str(t)) if !type_matches(t, v) => {
                self.fail(
                    path,
                    format!("expected type '{}', got '{}'", harn_type(t), v.type_name()),
                );
                return Ok(());
            }
            Some(Value::List(ts)) => {
                let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
                if !names.is_empty() && !names.iter().any(|t| type_matches(t, v)) {
                    self.fail(path, "value did not match any union branch".into());
                    return Ok(());
                }
            }
            _ => {}
        }
        match v {
            Value::Dict(d) => self.check_dict(d, &s, path, depth)?,
            Value::Struct(st) => self.check_dict(&st.fields, &s, path, depth)?,
            Value::List(items) | Value::Set(items) => self.check_list(items, &s, path, depth)?,
            Value::Str(text) => self.check_string(text, &s, path)?,
            Value::Int(_) | Value::Float(_) => self.check_number(v, &s, path),
            _ => {}
        }
        if !matches!(
            v,
            Value::Dict(_) | Value::Struct(_) | Value::List(_) | Value::Set(_)
        ) && let Some(Value::List(options)) = s.get("enum")
        {
            let mut found = false;
            for o in options.iter() {
                if equals(o, v)? {
                    found = true;
                    break;
                }
            }
            if !found {
                self.fail(path, format!("value must be one of [{}]", shown(options)?));
            }
        }
        Ok(())
    }

    fn check_number(&mut self, v: &Value, s: &Dict, path: &str) {
        let x = v.as_f64().unwrap_or(f64::NAN);
        if let Some(m) = num(s, &["min", "minimum"])
            && x < m
        {
            self.fail(path, format!("expected value >= {m}, got {x}"));
        }
        if let Some(m) = num(s, &["max", "maximum"])
            && x > m
        {
            self.fail(path, format!("expected value <= {m}, got {x}"));
        }
        if let Some(m) = num(s, &["exclusiveMinimum", "exclusive_min"])
            && x <= m
        {
            self.fail(path, format!("expected value > {m}, got {x}"));
        }
        if let Some(m) = num(s, &["exclusiveMaximum", "exclusive_max"])
            && x >= m
        {
            self.fail(path, format!("expected value < {m}, got {x}"));
        }
    }

    fn check_string(&mut self, text: &str, s: &Dict, path: &str) -> Result<(), VmError> {
        let n = as_i64(text.chars().count());
        if let Some(m) = int(s, &["min_length", "minLength"])
            && n < m
        {
            self.fail(path, format!("expected length >= {m}, got {n}"));
        }
        if let Some(m) = int(s, &["max_length", "maxLength"])
            && n > m
        {
            self.fail(path, format!("expected length <= {m}, got {n}"));
        }
        if let Some(Value::Str(p)) = s.get("pattern") {
            match crate::regex::compile("schema", p) {
                Ok(re) if !re.is_match(text) => {
                    self.fail(path, format!("value does not match pattern '{p}'"));
                }
                Ok(_) => {}
                Err(_) => self.fail(path, format!("invalid regex pattern '{p}'")),
            }
        }
        Ok(())
    }

    fn check_list(
        &mut self,
        items: &[Value],
        s: &Dict,
        path: &str,
        depth: usize,
    ) -> Result<(), VmError> {
        let n = items.len();
        if let Some(m) = int(s, &["min_items", "minItems"])
            && as_i64(n) < m
        {
            self.fail(path, format!("expected at least {m} items, got {n}"));
        }
        if let Some(m) = int(s, &["max_items", "maxItems"])
            && as_i64(n) > m
        {
            self.fail(path, format!("expected at most {m} items, got {n}"));
        }
        if get(s, &["uniqueItems", "unique_items"]).is_some_and(Value::truthy) {
            'outer: for (i, a) in items.iter().enumerate() {
                for b in &items[..i] {
                    if equals(a, b)? {
                        self.fail(
                            path,
                            format!("expected unique items, {} repeats", display(a)?),
                        );
                        break 'outer;
                    }
                }
            }
        }
        if let Some(item_schema @ (Value::Dict(_) | Value::Bool(_))) = s.get("items") {
            for (i, item) in items.iter().enumerate() {
                self.check(item, item_schema, &index(path, i), depth + 1)?;
            }
        }
        Ok(())
    }

    fn check_dict(&mut self, d: &Dict, s: &Dict, path: &str, depth: usize) -> Result<(), VmError> {
        if let Some(Value::List(req)) = s.get("required") {
            for k in req.iter() {
                let k = display(k)?;
                if !d.contains_key(&k) {
                    self.fail(path, format!("missing required key '{k}'"));
                }
            }
        }
        let props = match s.get("properties") {
            Some(Value::Dict(p)) => Some(Rc::clone(p)),
            _ => None,
        };
        if let Some(props) = &props {
            for (k, ps) in props.iter() {
                if let Some(v) = d.get(k) {
                    self.check(v, ps, &child(path, k), depth + 1)?;
                }
            }
        }
        let known = |k: &str| props.as_ref().is_some_and(|p| p.contains_key(k));
        match get(s, &["additional_properties", "additionalProperties"]) {
            Some(Value::Bool(false)) => {
                for k in d.keys().filter(|k| !known(k)) {
                    self.fail(path, format!("unexpected key '{k}'"));
                }
            }
            Some(extra @ Value::Dict(_)) => {
                for (k, v) in d.iter().filter(|(k, _)| !known(k)) {
                    self.check(v, extra, &child(path, k), depth + 1)?;
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// Every validation error of `v` against `schema`.
pub fn validate(v: &Value, schema: &Value) -> Result<Vec<String>, VmError> {
    let mut c = Checker {
        root: schema,
        errors: Vec::new(),
    };
    c.check(v, schema, "", 0)?;
    Ok(c.errors)
}

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
    d.insert("message".into(), Value::str(errors[0].clone()));
    d.insert(
        "errors".into(),
        Value::list(errors.into_iter().map(Value::str).collect()),
    );
    d.insert("value".into(), v);
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
        d.insert("type".into(), Value::str(name));
        d
    };
    match v {
        Value::Dict(_) => v.clone(),
        Value::List(items) => {
            let mut d = t("list");
            if let Some(first) = items.first() {
                d.insert("items".into(), infer(first));
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
                "required".into(),
                Value::list(s.fields.keys().map(|k| Value::str(k.as_str())).collect()),
            );
            d.insert("properties".into(), Value::dict(props));
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
                        out.insert("uniqueItems".into(), Value::Bool(true));
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
