//! The engine behind `json_validate` and the `schema_*` checks: Harn schemas run on the
//! `jsonschema` crate, the validator tool I/O uses, with Harn's semantics and the
//! reference's messages layered on top.
//!
//! Three layers:
//! - **Schema translation.** A Harn schema (JSON Schema keywords or their Harn spellings:
//!   `min`, `max_length`, `union`, `nullable`, …) becomes a JSON Schema document. Type
//!   checks go to the custom keyword `x-harn-type`, which knows Harn's types (an `int`
//!   is never a float, `bytes`/`set`/`duration`/`closure` exist). The reference checks
//!   in a fixed order and stops at the first failing gate (`$ref`, `nullable`, `const`,
//!   `allOf`, a union, `not`, `type`); each gate becomes an `if`/`then`/`else`, so the
//!   crate reports exactly what the reference would. `$ref`s are resolved against the
//!   Harn schema and translated into `$defs`, once each.
//! - **Instance conversion.** Values become JSON: ints stay integers, floats stay
//!   floats, structs are objects, and values with no JSON form (bytes, sets, durations,
//!   closures, …) are tagged objects that only `x-harn-type` looks inside.
//! - **Messages.** Each error kind is written as the reference writes it (`at items[0]:
//!   expected type 'int', got 'string'`), reading the original value where the message
//!   shows it.
//!
//! **A schema whose `$ref`/`allOf`/union/`not` links form a cycle that never moves into
//! the value is refused before validation**: the crate would recurse without end.

use std::collections::HashMap;
use std::rc::Rc;

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::value::{Dict, Value};
use jsonschema::error::ValidationErrorKind;
use jsonschema::paths::{Location, LocationSegment};
use jsonschema::{Keyword, PatternOptions, ValidationError};
use serde_json::{Map, Value as Json, json};

use crate::json_pointer::pointer;
use crate::util::type_err;

/// Deepest schema nesting translated (`at root: schema nesting … too deep` beyond).
const MAX_DEPTH: usize = 128;

/// The key of a tagged object standing for a value with no JSON form.
const TAG: &str = "\u{1}harn";

fn too_deep() -> VmError {
    VmError::thrown_str("at root: schema nesting or $ref chain too deep")
}

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

// ----- instances ----------------------------------------------------------------------

fn tagged(kind: &str) -> Json {
    let mut m = Map::new();
    m.insert(TAG.into(), Json::String(kind.into()));
    Json::Object(m)
}

/// A value as the instance the crate validates.
fn instance(v: &Value) -> Json {
    match v {
        Value::Nil => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(n) => Json::from(*n),
        Value::Float(x) => serde_json::Number::from_f64(*x)
            .map(Json::Number)
            .unwrap_or_else(|| tagged("float")),
        Value::Str(s) => Json::String(s.to_string()),
        Value::List(items) => Json::Array(items.iter().map(instance).collect()),
        Value::Dict(d) => object(d),
        Value::Struct(s) => object(&s.fields),
        Value::Closure(_) | Value::Builtin(_) => tagged("closure"),
        other => tagged(other.type_name()),
    }
}

fn object(d: &Dict) -> Json {
    Json::Object(
        d.iter()
            .map(|(k, v)| (k.to_string(), instance(v)))
            .collect(),
    )
}

/// The Harn type of an instance, for `x-harn-type`.
fn instance_type(j: &Json) -> &str {
    match j {
        Json::Null => "nil",
        Json::Bool(_) => "bool",
        Json::Number(n) if n.is_i64() || n.is_u64() => "int",
        Json::Number(_) => "float",
        Json::String(_) => "string",
        Json::Array(_) => "list",
        Json::Object(m) => match m.get(TAG) {
            Some(Json::String(t)) => t.as_str(),
            _ => "dict",
        },
    }
}

fn type_matches(t: &str, j: &Json) -> bool {
    let got = instance_type(j);
    match harn_type(t) {
        "float" => got == "int" || got == "float",
        "dict" => got == "dict",
        "closure" => got == "closure",
        want @ ("string" | "int" | "bool" | "list" | "set" | "nil" | "bytes" | "duration") => {
            got == want
        }
        // `any` and names we do not know accept everything.
        _ => true,
    }
}

// ----- custom keywords ----------------------------------------------------------------

/// `x-harn-type`: one Harn type name, or a list (any of them).
struct HarnType(Vec<String>);

impl<'i> Keyword<'i> for HarnType {
    fn validate(&self, instance: &'i Json) -> Result<(), ValidationError<'i>> {
        if self.is_valid(instance) {
            return Ok(());
        }
        // The message is finished in `describe`, which sees the original value.
        Err(ValidationError::custom(match self.0.as_slice() {
            [one] => format!("type:{}", harn_type(one)),
            _ => "union".to_owned(),
        }))
    }

    fn is_valid(&self, instance: &'i Json) -> bool {
        self.0.iter().any(|t| type_matches(t, instance))
    }
}

/// `x-harn-fail`: always fails with its message (an unresolvable `$ref`, a bad pattern).
struct HarnFail(String);

impl<'i> Keyword<'i> for HarnFail {
    fn validate(&self, _: &'i Json) -> Result<(), ValidationError<'i>> {
        Err(ValidationError::custom(format!("fail:{}", self.0)))
    }

    fn is_valid(&self, _: &'i Json) -> bool {
        false
    }
}

// ----- schema translation -------------------------------------------------------------

struct Translator<'a> {
    root: &'a Value,
    /// `$defs` entries made for `$ref` targets, by the target's pointer.
    defs: Map<String, Json>,
    names: HashMap<String, String>,
}

/// The first of several spellings present in the schema.
fn get<'a>(s: &'a Dict, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().find_map(|k| s.get(k))
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

/// `if gate then rest else gate`: `rest` is checked only when `gate` holds, and a
/// failing gate is the only error.
fn gated(gate: Json, rest: Json) -> Json {
    json!({"if": gate.clone(), "then": rest, "else": gate})
}

/// Every schema in `parts` (the crate refuses an empty `allOf`).
fn all(mut parts: Vec<Json>) -> Json {
    match parts.len() {
        0 => Json::Bool(true),
        1 => parts.pop().unwrap_or(Json::Bool(true)),
        _ => json!({"allOf": parts}),
    }
}

fn harn_type_of(t: &str) -> Json {
    json!({"x-harn-type": t})
}

impl Translator<'_> {
    fn schema(&mut self, s: &Value, depth: usize) -> Result<Json, VmError> {
        if depth > MAX_DEPTH {
            return Err(too_deep());
        }
        match s {
            Value::Bool(b) => Ok(Json::Bool(*b)),
            Value::Nil => Ok(Json::Bool(true)),
            Value::Dict(d) => self.dict(d, depth),
            other => Err(type_err("schema", "a schema dict", other)),
        }
    }

    fn branches(&mut self, v: &Value, depth: usize) -> Result<Vec<Json>, VmError> {
        match v {
            Value::List(items) => items.iter().map(|b| self.schema(b, depth + 1)).collect(),
            _ => Ok(Vec::new()),
        }
    }

    fn reference(&mut self, r: &str, depth: usize) -> Result<Json, VmError> {
        if let Some(name) = self.names.get(r) {
            return Ok(json!({"$ref": format!("#/$defs/{name}")}));
        }
        let target = r
            .strip_prefix('#')
            .and_then(|p| pointer(self.root, p).ok().flatten());
        let Some(target) = target else {
            return Ok(json!({"x-harn-fail": format!("unresolved schema reference '{r}'")}));
        };
        let name = format!("r{}", self.names.len());
        self.names.insert(r.to_owned(), name.clone());
        let translated = self.schema(&target, depth + 1)?;
        self.defs.insert(name.clone(), translated);
        Ok(json!({"$ref": format!("#/$defs/{name}")}))
    }

    fn dict(&mut self, s: &Rc<Dict>, depth: usize) -> Result<Json, VmError> {
        if let Some(Value::Str(r)) = s.get("$ref") {
            return self.reference(r, depth);
        }
        let mut body = self.gates(s, depth)?;
        if matches!(s.get("nullable"), Some(Value::Bool(true))) {
            body = json!({"if": harn_type_of("nil"), "then": true, "else": body});
        }
        Ok(body)
    }

    /// `const`, then `allOf`, a union or `not`, then `type`, then the rest.
    fn gates(&mut self, s: &Rc<Dict>, depth: usize) -> Result<Json, VmError> {
        let inner = if let Some(Value::List(_)) = get(s, &["all_of", "allOf"]) {
            let every = get(s, &["all_of", "allOf"]).cloned().unwrap_or_default();
            all(self.branches(&every, depth)?)
        } else if let Some(union @ Value::List(_)) = get(s, &["union", "anyOf", "oneOf"]) {
            // Harn unions take the first branch that matches: more than one is fine.
            // No branch at all matches nothing.
            let branches = self.branches(&union.clone(), depth)?;
            if branches.is_empty() {
                json!({"x-harn-type": []})
            } else {
                json!({"anyOf": branches})
            }
        } else {
            let typed = self.typed(s, depth)?;
            match s.get("not") {
                Some(not) => {
                    let not = json!({"not": self.schema(not, depth + 1)?});
                    gated(not, typed)
                }
                None => typed,
            }
        };
        Ok(match s.get("const") {
            Some(c) => gated(json!({"const": instance(c)}), inner),
            None => inner,
        })
    }

    /// The `type` gate, then every type-specific check in the reference's order.
    fn typed(&mut self, s: &Rc<Dict>, depth: usize) -> Result<Json, VmError> {
        let mut checks: Vec<Json> = Vec::new();
        self.dict_checks(s, depth, &mut checks)?;
        list_checks(s, &mut checks);
        self.item_checks(s, depth, &mut checks)?;
        string_checks(s, &mut checks);
        number_checks(s, &mut checks);
        if let Some(Value::List(options)) = s.get("enum") {
            let options: Vec<Json> = options.iter().map(instance).collect();
            let check = if options.is_empty() {
                json!({"x-harn-fail": "value must be one of []"})
            } else {
                json!({"enum": options})
            };
            // Containers are never compared with the options.
            checks.push(json!({
                "if": {"x-harn-type": ["dict", "list", "set"]},
                "then": true,
                "else": check,
            }));
        }
        let rest = all(checks);
        Ok(match s.get("type") {
            Some(Value::Str(t)) => gated(harn_type_of(t), rest),
            Some(Value::List(ts)) => {
                let names: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
                if names.is_empty() {
                    rest
                } else {
                    gated(json!({"x-harn-type": names}), rest)
                }
            }
            _ => rest,
        })
    }

    fn dict_checks(
        &mut self,
        s: &Rc<Dict>,
        depth: usize,
        checks: &mut Vec<Json>,
    ) -> Result<(), VmError> {
        let mut parts: Vec<Json> = Vec::new();
        if let Some(Value::List(req)) = s.get("required") {
            let keys = req.iter().map(display).collect::<Result<Vec<_>, _>>()?;
            parts.push(json!({"required": keys}));
        }
        let mut known = Map::new();
        if let Some(Value::Dict(props)) = s.get("properties") {
            let mut translated = Map::new();
            for (k, ps) in props.iter() {
                translated.insert(k.to_string(), self.schema(ps, depth + 1)?);
                known.insert(k.to_string(), Json::Bool(true));
            }
            parts.push(json!({"properties": translated}));
        }
        match get(s, &["additional_properties", "additionalProperties"]) {
            Some(Value::Bool(false)) => {
                parts.push(json!({"properties": known, "additionalProperties": false}));
            }
            Some(extra @ Value::Dict(_)) => {
                let extra = self.schema(&extra.clone(), depth + 1)?;
                parts.push(json!({"properties": known, "additionalProperties": extra}));
            }
            _ => {}
        }
        if !parts.is_empty() {
            // Only dicts and structs (never a tagged value) get the dict checks.
            checks.push(json!({"if": harn_type_of("dict"), "then": all(parts)}));
        }
        Ok(())
    }

    fn item_checks(
        &mut self,
        s: &Rc<Dict>,
        depth: usize,
        checks: &mut Vec<Json>,
    ) -> Result<(), VmError> {
        if let Some(items @ (Value::Dict(_) | Value::Bool(_))) = s.get("items") {
            checks.push(json!({"items": self.schema(&items.clone(), depth + 1)?}));
        }
        Ok(())
    }
}

fn list_checks(s: &Dict, checks: &mut Vec<Json>) {
    if let Some(m) = int(s, &["min_items", "minItems"]) {
        checks.push(json!({"minItems": m.max(0)}));
    }
    if let Some(m) = int(s, &["max_items", "maxItems"]) {
        checks.push(json!({"maxItems": m.max(0)}));
    }
    if get(s, &["uniqueItems", "unique_items"]).is_some_and(Value::truthy) {
        checks.push(json!({"uniqueItems": true}));
    }
}

fn string_checks(s: &Dict, checks: &mut Vec<Json>) {
    if let Some(m) = int(s, &["min_length", "minLength"]) {
        checks.push(json!({"minLength": m.max(0)}));
    }
    if let Some(m) = int(s, &["max_length", "maxLength"]) {
        checks.push(json!({"maxLength": m.max(0)}));
    }
    if let Some(Value::Str(p)) = s.get("pattern") {
        let check = if crate::regex::compile("schema", p).is_ok() {
            json!({"pattern": p.to_string()})
        } else {
            json!({"x-harn-fail": format!("invalid regex pattern '{p}'")})
        };
        checks.push(json!({"if": harn_type_of("string"), "then": check}));
    }
}

fn number_checks(s: &Dict, checks: &mut Vec<Json>) {
    for (keys, keyword) in [
        (&["min", "minimum"][..], "minimum"),
        (&["max", "maximum"][..], "maximum"),
        (
            &["exclusiveMinimum", "exclusive_min"][..],
            "exclusiveMinimum",
        ),
        (
            &["exclusiveMaximum", "exclusive_max"][..],
            "exclusiveMaximum",
        ),
    ] {
        if let Some(limit) = num(s, keys).and_then(serde_json::Number::from_f64) {
            let mut m = Map::new();
            m.insert(keyword.into(), Json::Number(limit));
            checks.push(Json::Object(m));
        }
    }
}

// ----- cycles -------------------------------------------------------------------------

/// Whether `$defs` entries reach themselves through links that stay on the same value
/// (`$ref`, `allOf`, `anyOf`, `not`, `if`/`then`/`else`), which would never end.
fn has_same_value_cycle(defs: &Map<String, Json>) -> bool {
    fn refs_on_same_value(j: &Json, out: &mut Vec<String>) {
        let Json::Object(m) = j else { return };
        for (k, v) in m {
            match (k.as_str(), v) {
                ("$ref", Json::String(r)) => {
                    if let Some(name) = r.strip_prefix("#/$defs/") {
                        out.push(name.to_owned());
                    }
                }
                ("allOf" | "anyOf" | "oneOf", Json::Array(items)) => {
                    for i in items {
                        refs_on_same_value(i, out);
                    }
                }
                ("not" | "if" | "then" | "else", sub) => refs_on_same_value(sub, out),
                _ => {}
            }
        }
    }
    let edges: HashMap<&str, Vec<String>> = defs
        .iter()
        .map(|(name, body)| {
            let mut out = Vec::new();
            refs_on_same_value(body, &mut out);
            (name.as_str(), out)
        })
        .collect();
    // Iterative depth-first search: 1 = on the current path, 2 = done.
    let mut state: HashMap<&str, u8> = HashMap::new();
    for start in edges.keys() {
        if state.contains_key(start) {
            continue;
        }
        let mut stack: Vec<(&str, usize)> = vec![(start, 0)];
        state.insert(start, 1);
        while let Some((node, next)) = stack.pop() {
            let out = edges.get(node).map(Vec::as_slice).unwrap_or_default();
            if let Some(child) = out.get(next) {
                stack.push((node, next + 1));
                let Some((child, _)) = edges.get_key_value(child.as_str()) else {
                    continue;
                };
                match state.get(child) {
                    Some(1) => return true,
                    Some(_) => {}
                    None => {
                        state.insert(child, 1);
                        stack.push((child, 0));
                    }
                }
            } else {
                state.insert(node, 2);
            }
        }
    }
    false
}

// ----- messages -----------------------------------------------------------------------

/// The reference's path form: `root`, `name`, `name.inner`, `items[0]`.
fn harn_path(at: &Location) -> String {
    let mut out = String::new();
    for segment in at.iter() {
        match segment {
            LocationSegment::Index(i) => out.push_str(&format!("[{i}]")),
            LocationSegment::Property(p) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&p);
            }
        }
    }
    out
}

/// The original value at an instance location.
fn value_at<'v>(v: &'v Value, at: &Location) -> Option<&'v Value> {
    let mut cur = v;
    for segment in at.iter() {
        cur = match (cur, segment) {
            (Value::List(items), LocationSegment::Index(i)) => items.get(i)?,
            (Value::Dict(d), LocationSegment::Property(p)) => d.get(p.as_ref())?,
            (Value::Struct(s), LocationSegment::Property(p)) => s.fields.get(p.as_ref())?,
            _ => return None,
        };
    }
    Some(cur)
}

fn shown(v: Option<&Value>) -> Result<String, VmError> {
    v.map(display).transpose().map(Option::unwrap_or_default)
}

/// A JSON value from the translated schema (a `const` or `enum` option) as the Harn
/// value it came from; a tagged value shows as `<type>`.
fn from_json(j: &Json) -> Value {
    match j {
        Json::Object(m) if m.contains_key(TAG) => {
            let t = m.get(TAG).and_then(Json::as_str).unwrap_or_default();
            Value::str(format!("<{t}>"))
        }
        other => harn_vm::convert::from_json(other),
    }
}

fn json_shown(j: &Json) -> Result<String, VmError> {
    display(&from_json(j))
}

fn limit(j: &Json) -> String {
    j.as_f64()
        .map(|x| format!("{x}"))
        .unwrap_or_else(|| j.to_string())
}

/// The reference's messages for one error (an `additionalProperties` error names each
/// unexpected key in a message of its own).
fn describe(error: &ValidationError<'_>, value: &Value) -> Result<Vec<String>, VmError> {
    let at = error.instance_path();
    let path = harn_path(at);
    let label = if path.is_empty() {
        "root"
    } else {
        path.as_str()
    };
    let here = value_at(value, at);
    let x = || {
        here.and_then(Value::as_f64)
            .map(|x| format!("{x}"))
            .unwrap_or_default()
    };
    let chars = || match here {
        Some(Value::Str(s)) => s.chars().count(),
        _ => 0,
    };
    let count = || match here {
        Some(Value::List(items)) => items.len(),
        _ => 0,
    };
    let problem = match error.kind() {
        ValidationErrorKind::Custom { message, .. } => {
            if let Some(t) = message.strip_prefix("type:") {
                let got = here.map(Value::type_name).unwrap_or("nil");
                format!("expected type '{t}', got '{got}'")
            } else if message == "union" {
                "value did not match any union branch".to_owned()
            } else {
                message.strip_prefix("fail:").unwrap_or(message).to_owned()
            }
        }
        ValidationErrorKind::AnyOf { .. }
        | ValidationErrorKind::OneOfNotValid { .. }
        | ValidationErrorKind::OneOfMultipleValid { .. } => {
            "value did not match any union branch".to_owned()
        }
        ValidationErrorKind::Not { .. } => "value must not match the schema in 'not'".to_owned(),
        ValidationErrorKind::FalseSchema => "no value is allowed here".to_owned(),
        ValidationErrorKind::Constant { expected_value } => format!(
            "expected constant {}, got {}",
            json_shown(expected_value)?,
            shown(here)?
        ),
        ValidationErrorKind::Enum { options } => {
            let shown: Vec<String> = match options.as_ref() {
                Json::Array(items) => items.iter().map(json_shown).collect::<Result<_, _>>()?,
                other => vec![json_shown(other)?],
            };
            format!("value must be one of [{}]", shown.join(", "))
        }
        ValidationErrorKind::Required { property } => match property.as_str() {
            Some(p) => format!("missing required key '{p}'"),
            None => format!("missing required key '{property}'"),
        },
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            return Ok(unexpected
                .iter()
                .map(|k| format!("at {label}: unexpected key '{k}'"))
                .collect());
        }
        ValidationErrorKind::Minimum { limit: m } => {
            format!("expected value >= {}, got {}", limit(m), x())
        }
        ValidationErrorKind::Maximum { limit: m } => {
            format!("expected value <= {}, got {}", limit(m), x())
        }
        ValidationErrorKind::ExclusiveMinimum { limit: m } => {
            format!("expected value > {}, got {}", limit(m), x())
        }
        ValidationErrorKind::ExclusiveMaximum { limit: m } => {
            format!("expected value < {}, got {}", limit(m), x())
        }
        ValidationErrorKind::MinLength { limit: m } => {
            format!("expected length >= {m}, got {}", chars())
        }
        ValidationErrorKind::MaxLength { limit: m } => {
            format!("expected length <= {m}, got {}", chars())
        }
        ValidationErrorKind::Pattern { pattern } => {
            format!("value does not match pattern '{pattern}'")
        }
        ValidationErrorKind::MinItems { limit: m } => {
            format!("expected at least {m} items, got {}", count())
        }
        ValidationErrorKind::MaxItems { limit: m } => {
            format!("expected at most {m} items, got {}", count())
        }
        ValidationErrorKind::UniqueItems => {
            let repeated = match here {
                Some(Value::List(items)) => first_repeat(items)?,
                _ => None,
            };
            format!("expected unique items, {} repeats", shown(repeated)?)
        }
        _ => error.to_string(),
    };
    Ok(vec![format!("at {label}: {problem}")])
}

fn first_repeat(items: &[Value]) -> Result<Option<&Value>, VmError> {
    for (i, a) in items.iter().enumerate() {
        for b in &items[..i] {
            if harn_vm::value::equals(a, b)? {
                return Ok(Some(a));
            }
        }
    }
    Ok(None)
}

// ----- entry point --------------------------------------------------------------------

/// Compiled validators by translated schema: a program checks many values against a few
/// schemas, and compiling costs far more than translating.
const CACHE_SIZE: usize = 64;

thread_local! {
    static COMPILED: std::cell::RefCell<HashMap<String, Rc<jsonschema::Validator>>> =
        std::cell::RefCell::new(HashMap::new());
}

fn compiled(doc: &Json) -> Result<Rc<jsonschema::Validator>, VmError> {
    let key = doc.to_string();
    if let Some(v) = COMPILED.with(|c| c.borrow().get(&key).cloned()) {
        return Ok(v);
    }
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .with_pattern_options(PatternOptions::regex())
        .with_keyword("x-harn-type", |_, value, _| {
            let names = match value {
                Json::String(t) => vec![t.clone()],
                Json::Array(ts) => ts
                    .iter()
                    .filter_map(|t| t.as_str().map(str::to_owned))
                    .collect(),
                _ => Vec::new(),
            };
            Ok(Box::new(HarnType(names)))
        })
        .with_keyword("x-harn-fail", |_, value, _| {
            Ok(Box::new(HarnFail(
                value.as_str().unwrap_or_default().to_owned(),
            )))
        })
        .build(doc)
        .map_err(|e| VmError::thrown_str(format!("invalid schema: {e}")))?;
    let validator = Rc::new(validator);
    COMPILED.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_SIZE {
            c.clear();
        }
        c.insert(key, Rc::clone(&validator));
    });
    Ok(validator)
}

/// Every validation error of `v` against the Harn schema `schema`, in the reference's
/// order and words.
pub fn validate(v: &Value, schema: &Value) -> Result<Vec<String>, VmError> {
    let mut t = Translator {
        root: schema,
        defs: Map::new(),
        names: HashMap::new(),
    };
    let mut doc = t.schema(schema, 0)?;
    if has_same_value_cycle(&t.defs) {
        return Err(too_deep());
    }
    if !t.defs.is_empty() {
        // Wrap, so the root may be a boolean schema and `$defs` never meets its keywords.
        doc = json!({"$defs": t.defs, "allOf": [doc]});
    }
    let validator = compiled(&doc)?;
    let data = instance(v);
    let mut messages = Vec::new();
    // Deep values recurse in the crate: give it room on any thread.
    let errors: Vec<ValidationError<'_>> =
        harn_compiler::stack::maybe_grow(256 * 1024, 8 * 1024 * 1024, || {
            validator.iter_errors(&data).collect()
        });
    for e in &errors {
        messages.extend(describe(e, v)?);
    }
    Ok(messages)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::j;

    fn errors(v: &str, schema: &str) -> Vec<String> {
        validate(&j(v), &j(schema)).unwrap()
    }

    #[test]
    fn ints_and_floats_stay_apart() {
        assert_eq!(
            errors("1.0", r##"{"type": "int"}"##),
            ["at root: expected type 'int', got 'float'"]
        );
        assert!(errors("1", r##"{"type": "float"}"##).is_empty());
        assert!(errors("1", r##"{"type": "integer", "minimum": 1}"##).is_empty());
    }

    #[test]
    fn values_with_no_json_form_have_their_own_types() {
        let bytes = Value::Bytes(Rc::new(vec![1, 2]));
        assert!(
            validate(&bytes, &j(r##"{"type": "bytes"}"##))
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            validate(&bytes, &j(r##"{"type": "dict", "required": ["a"]}"##)).unwrap(),
            ["at root: expected type 'dict', got 'bytes'"]
        );
        // A tagged value never meets the dict checks, even without a type gate.
        assert!(
            validate(&bytes, &j(r##"{"required": ["a"]}"##))
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn gates_stop_at_the_first_failure_and_order_is_the_references() {
        let schema = r##"{"type": "dict", "required": ["a", "b"],
            "properties": {"c": {"type": "int", "min": 3}, "d": {"const": 1, "type": "int"}},
            "additional_properties": false}"##;
        assert_eq!(
            errors(r##"{"c": 1, "d": "x", "e": 0, "f": 0}"##, schema),
            [
                "at root: missing required key 'a'",
                "at root: missing required key 'b'",
                "at c: expected value >= 3, got 1",
                "at d: expected constant 1, got x",
                "at root: unexpected key 'e'",
                "at root: unexpected key 'f'",
            ]
        );
        assert_eq!(
            errors(
                r##"[1, "x"]"##,
                r##"{"items": {"type": "int"}, "min_items": 3}"##
            ),
            [
                "at root: expected at least 3 items, got 2",
                "at [1]: expected type 'int', got 'string'"
            ]
        );
    }

    #[test]
    fn unions_nullable_and_enums() {
        let union = r##"{"union": [{"type": "int"}, {"type": "string"}]}"##;
        assert!(errors("\"x\"", union).is_empty());
        assert_eq!(
            errors("true", union),
            ["at root: value did not match any union branch"]
        );
        assert!(errors("null", r##"{"type": "string", "nullable": true}"##).is_empty());
        assert_eq!(
            errors("\"c\"", r##"{"enum": ["a", 1]}"##),
            ["at root: value must be one of [a, 1]"]
        );
        assert_eq!(
            errors("1", r##"{"union": []}"##),
            ["at root: value did not match any union branch"]
        );
    }

    #[test]
    fn references_resolve_and_cycles_that_never_descend_are_refused() {
        let tree = r##"{"type": "dict", "properties": {"kids": {"type": "list", "items": {"$ref": "#"}}}}"##;
        assert!(errors(r##"{"kids": [{"kids": []}]}"##, tree).is_empty());
        assert_eq!(
            errors(r##"{"kids": [{"kids": 1}]}"##, tree),
            ["at kids[0].kids: expected type 'list', got 'int'"]
        );
        assert_eq!(
            errors("1", r##"{"$ref": "#/nope"}"##),
            ["at root: unresolved schema reference '#/nope'"]
        );
        for cyclic in [
            r##"{"$ref": "#"}"##,
            r##"{"allOf": [{"$ref": "#"}]}"##,
            r##"{"not": {"$ref": "#"}}"##,
        ] {
            let e = format!("{:?}", validate(&j("1"), &j(cyclic)).unwrap_err());
            assert!(e.contains("too deep"), "{cyclic}: {e}");
        }
    }

    #[test]
    fn deep_schemas_are_an_error_not_an_overflow() {
        let mut schema = Value::Bool(true);
        for _ in 0..200 {
            schema = Value::dict([("items".to_owned(), schema)].into_iter().collect());
        }
        let e = format!("{:?}", validate(&j("[]"), &schema).unwrap_err());
        assert!(e.contains("too deep"), "{e}");
    }
}
