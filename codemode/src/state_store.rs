//! The optional state grant (`code-mode.md` 1.14): a small key-value store a snippet
//! reaches as `state.get(key)`, `state.put(key, value)`, `state.list()` and
//! `state.delete(key)`, kept for the life of the process and scoped to (session id,
//! manifest hash), so runs of one session against one manifest see each other's values.
//! Sizes are compact JSON lengths; a key counts its length toward the total.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};

use harn_compiler::manifest::{Level, StateGrant};
use serde_json::{Value as Json, json};

/// The side-effect level of an operation: reads are `read_only`, writes
/// `workspace_write` (state is granted by the host, so the ceiling does not apply).
pub fn level(op: &str) -> Level {
    match op {
        "get" | "list" => Level::ReadOnly,
        _ => Level::WorkspaceWrite,
    }
}

/// A refused operation: `error_details` of the child result.
#[derive(Clone, Debug, PartialEq)]
pub struct StateError {
    pub code: &'static str,
    pub operation: String,
    pub message: String,
    pub key: Option<String>,
    pub limit: Option<u64>,
    pub actual: Option<u64>,
}

impl StateError {
    fn new(code: &'static str, op: &str, message: String) -> StateError {
        StateError {
            code,
            operation: format!("state.{op}"),
            message,
            key: None,
            limit: None,
            actual: None,
        }
    }

    fn key(mut self, key: &str) -> StateError {
        self.key = Some(key.to_string());
        self
    }

    fn sizes(mut self, limit: u64, actual: u64) -> StateError {
        self.limit = Some(limit);
        self.actual = Some(actual);
        self
    }

    pub fn details(&self) -> Json {
        let mut d =
            json!({"code": self.code, "operation": self.operation, "message": self.message});
        if let Some(k) = &self.key {
            d["key"] = json!(k);
        }
        if let Some(l) = self.limit {
            d["limit"] = json!(l);
        }
        if let Some(a) = self.actual {
            d["actual"] = json!(a);
        }
        d
    }
}

type Scope = (String, String);
type Entries = BTreeMap<String, (Json, u64)>;

fn store() -> &'static Mutex<HashMap<Scope, Entries>> {
    static STORE: OnceLock<Mutex<HashMap<Scope, Entries>>> = OnceLock::new();
    STORE.get_or_init(|| Mutex::new(HashMap::new()))
}

fn key_of(op: &str, input: &Json) -> Result<String, StateError> {
    match input.get("key") {
        Some(Json::String(k)) if !k.is_empty() => Ok(k.clone()),
        _ => Err(StateError::new(
            "invalid_key",
            op,
            format!("state.{op} needs a non-empty string key"),
        )),
    }
}

/// Runs one operation. `input` is `{key?, value?}` as the snippet gave it (`None`
/// when the value has no JSON form).
pub fn operate(
    grant: &StateGrant,
    session: Option<&str>,
    manifest_hash: &str,
    op: &str,
    input: Option<&Json>,
) -> Result<Json, StateError> {
    let Some(session) = session.filter(|s| !s.is_empty()) else {
        return Err(StateError::new(
            "session_required",
            op,
            "state needs a session id (the executor option session_id)".into(),
        ));
    };
    let scope = (session.to_string(), manifest_hash.to_string());
    let mut all = store().lock().unwrap_or_else(|p| p.into_inner());
    let entries = all.entry(scope).or_default();
    let Some(input) = input else {
        return Err(StateError::new(
            "non_json_value",
            op,
            format!("state.{op}: the value has no JSON form"),
        ));
    };
    match op {
        "list" => Ok(json!(entries.keys().collect::<Vec<_>>())),
        "get" => {
            let key = key_of(op, input)?;
            Ok(entries.get(&key).map_or(Json::Null, |(v, _)| v.clone()))
        }
        "delete" => {
            let key = key_of(op, input)?;
            Ok(json!(entries.remove(&key).is_some()))
        }
        "put" => {
            let key = key_of(op, input)?;
            let value = input.get("value").cloned().unwrap_or(Json::Null);
            let size = value.to_string().len() as u64;
            if size > grant.max_value_bytes {
                return Err(StateError::new(
                    "value_too_large",
                    op,
                    format!(
                        "state value exceeds max_value_bytes={}",
                        grant.max_value_bytes
                    ),
                )
                .key(&key)
                .sizes(grant.max_value_bytes, size));
            }
            let replacing = entries.get(&key).map(|(_, s)| *s + key.len() as u64);
            if replacing.is_none() && entries.len() as u64 >= grant.max_keys {
                return Err(StateError::new(
                    "too_many_keys",
                    op,
                    format!("state exceeds max_keys={}", grant.max_keys),
                )
                .key(&key)
                .sizes(grant.max_keys, entries.len() as u64 + 1));
            }
            let total: u64 = entries.iter().map(|(k, (_, s))| k.len() as u64 + s).sum();
            let after = total - replacing.unwrap_or(0) + key.len() as u64 + size;
            if after > grant.max_total_bytes {
                return Err(StateError::new(
                    "total_too_large",
                    op,
                    format!("state exceeds max_total_bytes={}", grant.max_total_bytes),
                )
                .key(&key)
                .sizes(grant.max_total_bytes, after));
            }
            entries.insert(key, (value, size));
            Ok(Json::Null)
        }
        other => Err(StateError::new(
            "invalid_key",
            other,
            format!("state has no operation `{other}`"),
        )),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn grant() -> StateGrant {
        StateGrant {
            schema_version: 1,
            max_value_bytes: 10,
            max_total_bytes: 12,
            max_keys: 2,
        }
    }

    fn op(session: &str, op: &str, input: Json) -> Result<Json, StateError> {
        operate(&grant(), Some(session), "sha256:m", op, Some(&input))
    }

    #[test]
    fn values_round_trip_within_their_scope() {
        assert_eq!(
            op("t1", "put", json!({"key": "a", "value": [1]})),
            Ok(Json::Null)
        );
        assert_eq!(op("t1", "get", json!({"key": "a"})), Ok(json!([1])));
        assert_eq!(op("t1-other", "get", json!({"key": "a"})), Ok(Json::Null));
        assert_eq!(op("t1", "list", json!({})), Ok(json!(["a"])));
        assert_eq!(op("t1", "delete", json!({"key": "a"})), Ok(json!(true)));
        assert_eq!(op("t1", "delete", json!({"key": "a"})), Ok(json!(false)));
    }

    #[test]
    fn every_limit_is_a_typed_refusal() {
        let code = |r: Result<Json, StateError>| r.unwrap_err().code;
        assert_eq!(
            code(op("t2", "put", json!({"key": "a", "value": "0123456789"}))),
            "value_too_large"
        );
        assert_eq!(code(op("t2", "get", json!({"key": ""}))), "invalid_key");
        op("t2", "put", json!({"key": "a", "value": 1})).unwrap();
        op("t2", "put", json!({"key": "b", "value": 2})).unwrap();
        assert_eq!(
            code(op("t2", "put", json!({"key": "c", "value": 3}))),
            "too_many_keys"
        );
        assert_eq!(
            code(op("t2", "put", json!({"key": "b", "value": "12345678"}))),
            "total_too_large"
        );
        let e = operate(&grant(), None, "h", "get", Some(&json!({"key": "a"}))).unwrap_err();
        assert_eq!(e.code, "session_required");
        let e = operate(&grant(), Some("t2"), "h", "put", None).unwrap_err();
        assert_eq!(e.code, "non_json_value");
    }
}
