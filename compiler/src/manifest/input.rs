//! Accepted input shapes (1.1) and field reading (1.2, 1.3).

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

/// One usable element of the tool surface: its canonical name and its object.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub name: String,
    pub object: Map<String, Value>,
}

fn is_tool_object(obj: &Map<String, Value>) -> bool {
    obj.get("name").is_some_and(Value::is_string)
        || (obj.get("type").and_then(Value::as_str) == Some("function")
            && obj.get("function").is_some_and(Value::is_object))
}

/// The elements of the input (the table of 1.1), or `None` for an unusable shape.
fn elements(tools: &Value) -> Option<Vec<&Value>> {
    match tools {
        Value::Array(items) => Some(items.iter().collect()),
        Value::Object(obj) => {
            if let Some(Value::Array(items)) = obj.get("tools") {
                return Some(items.iter().collect());
            }
            if let Some(Value::Array(items)) = obj.get("result").and_then(|r| r.get("tools")) {
                return Some(items.iter().collect());
            }
            if is_tool_object(obj) {
                return Some(vec![tools]);
            }
            None
        }
        _ => None,
    }
}

fn nonempty_str(v: Option<&Value>) -> Option<&str> {
    v.and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// The usable entries of a tool surface, in input order, plus a diagnostic per skipped
/// element (1.1).
pub fn extract_entries(tools: &Value) -> (Vec<Entry>, Vec<String>) {
    let mut diagnostics = Vec::new();
    let Some(items) = elements(tools) else {
        diagnostics.push(
            "tools must be an array, an object with a `tools` array, a JSON-RPC response \
             with `result.tools`, or one tool object; no tools read"
                .to_string(),
        );
        return (Vec::new(), diagnostics);
    };
    let mut seen = BTreeSet::new();
    let mut entries = Vec::new();
    for (index, item) in items.into_iter().enumerate() {
        let Some(obj) = item.as_object() else {
            diagnostics.push(format!("tool #{index} ignored: not an object"));
            continue;
        };
        let name = nonempty_str(obj.get("name"))
            .or_else(|| nonempty_str(obj.get("function").and_then(|f| f.get("name"))));
        let Some(name) = name else {
            diagnostics.push(format!("tool #{index} ignored: no usable name"));
            continue;
        };
        if name.chars().count() > 256 {
            diagnostics.push(format!(
                "tool #{index} ignored: name longer than 256 characters"
            ));
            continue;
        }
        if name.chars().any(|c| c < '\u{20}' || c == '\u{7f}') {
            diagnostics.push(format!(
                "tool #{index} ignored: name {} contains a control character",
                Value::String(name.to_string())
            ));
            continue;
        }
        if !seen.insert(name.to_string()) {
            diagnostics.push(format!("duplicate tool name '{name}' ignored"));
            continue;
        }
        entries.push(Entry {
            name: name.to_string(),
            object: obj.clone(),
        });
    }
    (entries, diagnostics)
}

/// The fields of 1.2 that need no policy context.
pub(crate) struct Fields {
    pub description: Option<String>,
    pub namespace: Option<String>,
    pub input_schema: Value,
    pub output_schema: Option<Value>,
    pub examples: Vec<Value>,
    pub source: String,
    pub deferred: bool,
    pub metadata: Map<String, Value>,
}

fn present<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    obj.get(key).filter(|v| !v.is_null())
}

/// `source` (1.3).
fn source_of(obj: &Map<String, Value>) -> String {
    if let Some(executor) = obj.get("executor").and_then(Value::as_str) {
        return executor.to_string();
    }
    if present(obj, "_mcp_server").is_some() || present(obj, "mcp_server").is_some() {
        return "mcp_server".into();
    }
    if obj.get("function").is_some_and(Value::is_object) {
        return "provider_native".into();
    }
    if obj.get("defer_loading").and_then(Value::as_bool) == Some(true) {
        return "deferred".into();
    }
    "harn".into()
}

pub(crate) fn read_fields(obj: &Map<String, Value>) -> Fields {
    let function = obj.get("function").and_then(Value::as_object);
    let from_fn = |key: &str| function.and_then(|f| present(f, key));
    let description = nonempty_str(obj.get("description"))
        .or_else(|| nonempty_str(from_fn("description")))
        .map(str::to_string);
    let input_schema = ["inputSchema", "input_schema", "parameters"]
        .iter()
        .find_map(|k| present(obj, k))
        .or_else(|| from_fn("parameters"))
        .cloned()
        .unwrap_or_else(|| json!({"type": "object"}));
    let output_schema = [
        "outputSchema",
        "output_schema",
        "returns",
        "x-harn-output-schema",
    ]
    .iter()
    .find_map(|k| present(obj, k))
    .or_else(|| from_fn("x-harn-output-schema"))
    .cloned();
    let examples = obj
        .get("examples")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let source = source_of(obj);
    let deferred = obj
        .get("defer_loading")
        .and_then(Value::as_bool)
        .or_else(|| from_fn("defer_loading").and_then(Value::as_bool))
        .unwrap_or(source == "deferred");
    let mut metadata = obj
        .get("metadata")
        .and_then(Value::as_object)
        .or_else(|| obj.get("_meta").and_then(Value::as_object))
        .cloned()
        .unwrap_or_default();
    for key in ["_mcp_server", "mcp_server", "_mcp_tool_name"] {
        if let Some(v) = obj.get(key)
            && !metadata.contains_key(key)
        {
            metadata.insert(key.to_string(), v.clone());
        }
    }
    Fields {
        description,
        namespace: obj
            .get("namespace")
            .and_then(Value::as_str)
            .map(str::to_string),
        input_schema,
        output_schema,
        examples,
        source,
        deferred,
        metadata,
    }
}

/// Marks every tool of a surface as coming from the MCP server `server` (what harnc does
/// when it lists a live server, 1.1): adds `_mcp_server` and `_mcp_tool_name` to each
/// object element that has neither. The shape of the input is kept.
pub fn tag_mcp_server(tools: &Value, server: &str) -> Value {
    let tag = |item: &Value| -> Value {
        let mut item = item.clone();
        if let Some(obj) = item.as_object_mut()
            && !obj.contains_key("_mcp_server")
            && let Some(name) = nonempty_str(obj.get("name")).map(str::to_string)
        {
            obj.insert("_mcp_server".into(), Value::String(server.to_string()));
            obj.entry("_mcp_tool_name").or_insert(Value::String(name));
        }
        item
    };
    let mut out = tools.clone();
    match &mut out {
        Value::Array(items) => *items = items.iter().map(tag).collect(),
        Value::Object(obj) => {
            if let Some(Value::Array(items)) = obj.get_mut("tools") {
                *items = items.iter().map(tag).collect();
            } else if let Some(Value::Array(items)) =
                obj.get_mut("result").and_then(|r| r.get_mut("tools"))
            {
                *items = items.iter().map(tag).collect();
            } else {
                return tag(tools);
            }
        }
        _ => {}
    }
    out
}
