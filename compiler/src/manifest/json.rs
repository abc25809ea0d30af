//! Manifest JSON: full (1.10), compact (1.11), and reading it back (1.12).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::annotations::{annotations_from_value, annotations_to_value};
use super::build::{StateGrant, sort_bindings};
use super::level::Level;
use super::{Binding, Disposition, Manifest, ManifestError, PolicyStatus};

fn opt_str(s: &Option<String>) -> Value {
    s.as_ref().map_or(Value::Null, |s| Value::String(s.clone()))
}

fn policy_to_value(p: &PolicyStatus) -> Value {
    json!({"disposition": p.disposition.as_str(), "reason": opt_str(&p.reason)})
}

fn state_to_value(g: &StateGrant) -> Value {
    json!({
        "schema_version": g.schema_version,
        "max_value_bytes": g.max_value_bytes,
        "max_total_bytes": g.max_total_bytes,
        "max_keys": g.max_keys,
    })
}

fn binding_to_value(b: &Binding) -> Value {
    json!({
        "name": b.name,
        "binding": b.binding,
        "namespace": opt_str(&b.namespace),
        "description": opt_str(&b.description),
        "input_schema": b.input_schema,
        "output_schema": b.output_schema.clone().unwrap_or(Value::Null),
        "annotations": annotations_to_value(&b.annotations),
        "side_effect_level": b.side_effect_level.as_str(),
        "capabilities": b.capabilities,
        "path_args": b.path_args,
        "examples": b.examples,
        "source": b.source,
        "deferred": b.deferred,
        "policy": policy_to_value(&b.policy),
        "metadata": b.metadata,
    })
}

fn compact_binding(b: &Binding) -> Value {
    json!({
        "name": b.name,
        "binding": b.binding,
        "namespace": opt_str(&b.namespace),
        "description": opt_str(&b.description),
        "side_effect_level": b.side_effect_level.as_str(),
        "policy": policy_to_value(&b.policy),
        "source": b.source,
        "deferred": b.deferred,
        "examples": b.examples,
    })
}

pub(crate) fn manifest_to_value(m: &Manifest) -> Value {
    let mut obj = Map::new();
    obj.insert("schema_version".into(), json!(m.schema_version));
    obj.insert(
        "side_effect_ceiling".into(),
        json!(m.side_effect_ceiling.as_str()),
    );
    obj.insert("metadata".into(), Value::Object(m.metadata.clone()));
    obj.insert(
        "bindings".into(),
        Value::Array(m.bindings.iter().map(binding_to_value).collect()),
    );
    if let Some(g) = &m.state {
        obj.insert("state".into(), state_to_value(g));
    }
    Value::Object(obj)
}

pub(crate) fn manifest_to_compact_value(m: &Manifest) -> Value {
    let mut obj = Map::new();
    obj.insert("schema_version".into(), json!(m.schema_version));
    obj.insert(
        "side_effect_ceiling".into(),
        json!(m.side_effect_ceiling.as_str()),
    );
    obj.insert(
        "bindings".into(),
        Value::Array(m.bindings.iter().map(compact_binding).collect()),
    );
    if let Some(g) = &m.state {
        obj.insert("state".into(), state_to_value(g));
    }
    Value::Object(obj)
}

fn invalid(message: String) -> ManifestError {
    ManifestError::Invalid(message)
}

fn opt_string(
    obj: &Map<String, Value>,
    key: &str,
    ctx: &str,
) -> Result<Option<String>, ManifestError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(invalid(format!(
            "{ctx}.{key} must be a string, got {other}"
        ))),
    }
}

fn string_list(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn level_field(
    obj: &Map<String, Value>,
    key: &str,
    default: Level,
) -> Result<Level, ManifestError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::String(s)) => Level::parse_strict(s),
        Some(other) => Err(ManifestError::InvalidLevel(other.to_string())),
    }
}

fn binding_from_value(index: usize, v: &Value) -> Result<Binding, ManifestError> {
    let ctx = format!("bindings[{index}]");
    let obj = v
        .as_object()
        .ok_or_else(|| invalid(format!("{ctx} must be an object")))?;
    let name = opt_string(obj, "name", &ctx)?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| invalid(format!("{ctx}.name is required")))?;
    let binding = match opt_string(obj, "binding", &ctx)? {
        Some(b) => b,
        None => super::names::normalize(&name),
    };
    let mut annotations = annotations_from_value(obj.get("annotations")).map_err(invalid)?;
    let side_effect_level = level_field(obj, "side_effect_level", Level::None)?;
    annotations.side_effect_level = side_effect_level;
    let policy = match obj.get("policy") {
        None | Some(Value::Null) => PolicyStatus::allowed(),
        Some(Value::Object(p)) => {
            let disposition = match p.get("disposition") {
                None | Some(Value::Null) => Disposition::Allowed,
                Some(d) => d.as_str().and_then(Disposition::parse).ok_or_else(|| {
                    invalid(format!("{ctx}.policy.disposition: invalid value {d}"))
                })?,
            };
            PolicyStatus {
                disposition,
                reason: opt_string(p, "reason", &format!("{ctx}.policy"))?,
            }
        }
        Some(other) => {
            return Err(invalid(format!(
                "{ctx}.policy must be an object, got {other}"
            )));
        }
    };
    let capabilities: BTreeMap<String, Vec<String>> = obj
        .get("capabilities")
        .and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), string_list(Some(v))))
                .collect()
        })
        .unwrap_or_default();
    Ok(Binding {
        namespace: opt_string(obj, "namespace", &ctx)?,
        description: opt_string(obj, "description", &ctx)?,
        input_schema: obj
            .get("input_schema")
            .filter(|v| !v.is_null())
            .cloned()
            .unwrap_or_else(|| json!({"type": "object"})),
        output_schema: obj.get("output_schema").filter(|v| !v.is_null()).cloned(),
        annotations,
        side_effect_level,
        capabilities,
        path_args: string_list(obj.get("path_args")),
        examples: obj
            .get("examples")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default(),
        source: opt_string(obj, "source", &ctx)?.unwrap_or_else(|| "harn".into()),
        deferred: obj
            .get("deferred")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        policy,
        metadata: obj
            .get("metadata")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
        name,
        binding,
    })
}

/// Reads a manifest back (1.12): every field optional, unknown keys dropped, invalid
/// enum strings are errors.
pub fn manifest_from_value(v: &Value) -> Result<Manifest, ManifestError> {
    let obj = v
        .as_object()
        .ok_or_else(|| invalid("a manifest must be an object".into()))?;
    let schema_version = match obj.get("schema_version") {
        None | Some(Value::Null) => 1,
        Some(n) => n
            .as_u64()
            .ok_or_else(|| invalid(format!("schema_version must be an integer, got {n}")))?,
    };
    let side_effect_ceiling = level_field(obj, "side_effect_ceiling", Level::ReadOnly)?;
    let metadata = obj
        .get("metadata")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut bindings = match obj.get("bindings") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, b)| binding_from_value(i, b))
            .collect::<Result<Vec<_>, _>>()?,
        Some(other) => return Err(invalid(format!("bindings must be a list, got {other}"))),
    };
    sort_bindings(&mut bindings);
    let state = match obj.get("state") {
        None | Some(Value::Null) => None,
        Some(s) => Some(StateGrant::from_value(s).map_err(invalid)?),
    };
    Ok(Manifest {
        schema_version,
        side_effect_ceiling,
        metadata,
        bindings,
        state,
    })
}
