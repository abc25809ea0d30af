//! Tool annotations (1.4).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::level::{Declared, Hints, Level};

/// The `kind` of a tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Kind {
    Read,
    Edit,
    Delete,
    Move,
    Search,
    Execute,
    Think,
    Fetch,
    #[default]
    Other,
}

impl Kind {
    pub const ALL: [Kind; 9] = [
        Kind::Read,
        Kind::Edit,
        Kind::Delete,
        Kind::Move,
        Kind::Search,
        Kind::Execute,
        Kind::Think,
        Kind::Fetch,
        Kind::Other,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Read => "read",
            Kind::Edit => "edit",
            Kind::Delete => "delete",
            Kind::Move => "move",
            Kind::Search => "search",
            Kind::Execute => "execute",
            Kind::Think => "think",
            Kind::Fetch => "fetch",
            Kind::Other => "other",
        }
    }

    pub fn parse(text: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == text)
    }

    /// `read`, `search`, `think`, `fetch` (used by retries).
    pub fn is_read_only(self) -> bool {
        matches!(self, Kind::Read | Kind::Search | Kind::Think | Kind::Fetch)
    }
}

/// `{start, end}` of `dependency_range_params`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeParam {
    pub start: String,
    pub end: String,
}

/// `annotations.arg_schema`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ArgSchema {
    pub path_params: Vec<String>,
    pub dependency_key_params: Vec<String>,
    pub dependency_range_params: Vec<RangeParam>,
    pub arg_aliases: BTreeMap<String, String>,
    pub required: Vec<String>,
}

/// Parsed annotations; `side_effect_level` is the effective level once built.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Annotations {
    pub kind: Kind,
    pub side_effect_level: Level,
    pub completion_evidence_role: Option<String>,
    pub arg_schema: ArgSchema,
    pub capabilities: BTreeMap<String, Vec<String>>,
    pub emits_artifacts: bool,
    pub inline_result: bool,
    pub result_readers: Vec<String>,
    pub hints: Hints,
}

/// What reading an entry's annotations produced.
pub(crate) struct ReadAnnotations {
    pub annotations: Annotations,
    pub declared: Declared,
    pub diagnostics: Vec<String>,
}

fn strings(v: Option<&Value>) -> Vec<String> {
    v.and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn bool_of(v: Option<&Value>) -> Option<bool> {
    v.and_then(Value::as_bool)
}

pub(crate) fn capabilities_of(v: Option<&Value>) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    if let Some(obj) = v.and_then(Value::as_object) {
        for (domain, ops) in obj {
            if ops.is_array() {
                out.insert(domain.clone(), strings(Some(ops)));
            }
        }
    }
    out
}

fn arg_schema_of(src: &Map<String, Value>) -> ArgSchema {
    let ranges = src
        .get("dependency_range_params")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|r| {
                    let start = r.get("start")?.as_str()?.to_string();
                    let end = r.get("end")?.as_str()?.to_string();
                    Some(RangeParam { start, end })
                })
                .collect()
        })
        .unwrap_or_default();
    let aliases = src
        .get("arg_aliases")
        .and_then(Value::as_object)
        .map(|o| {
            o.iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default();
    ArgSchema {
        path_params: strings(src.get("path_params")),
        dependency_key_params: strings(src.get("dependency_key_params")),
        dependency_range_params: ranges,
        arg_aliases: aliases,
        required: strings(src.get("required")),
    }
}

fn declared_of(v: Option<&Value>) -> Declared {
    match v {
        None | Some(Value::Null) => Declared::Absent,
        Some(Value::String(s)) => match Level::parse(s) {
            Some(l) => Declared::Valid(l),
            None => Declared::Invalid(s.clone()),
        },
        Some(other) => Declared::Invalid(other.to_string()),
    }
}

fn role_of(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str)
        .filter(|s| matches!(*s, "observation" | "mutation" | "verification"))
        .map(str::to_string)
}

/// Reads `annotations`, or the `policy` fallback, of one entry (1.4).
pub(crate) fn read_annotations(entry: &Map<String, Value>) -> ReadAnnotations {
    let mut diagnostics = Vec::new();
    let (src, hint_src): (Map<String, Value>, Vec<&Map<String, Value>>) =
        match entry.get("annotations").and_then(Value::as_object) {
            Some(a) => (a.clone(), vec![a]),
            None => {
                let policy = entry
                    .get("policy")
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default();
                (policy, Vec::new())
            }
        };
    let from_policy = hint_src.is_empty();
    let kind = match src.get("kind") {
        None | Some(Value::Null) => Kind::Other,
        Some(v) => match v.as_str().and_then(Kind::parse) {
            Some(k) => k,
            None => {
                diagnostics.push(format!("invalid annotation kind {v}; using 'other'"));
                Kind::Other
            }
        },
    };
    let arg_schema = match src.get("arg_schema").and_then(Value::as_object) {
        Some(a) => arg_schema_of(a),
        None if from_policy => arg_schema_of(&src),
        None => ArgSchema::default(),
    };
    let result_readers = match src.get("result_readers") {
        Some(v) => strings(Some(v)),
        None if from_policy => strings(src.get("readable_result_routes")),
        None => Vec::new(),
    };
    let hint = |key: &str| -> Option<bool> {
        if from_policy {
            bool_of(entry.get(key)).or_else(|| bool_of(src.get(key)))
        } else {
            bool_of(src.get(key))
        }
    };
    let hints = Hints {
        read_only: hint("readOnlyHint"),
        destructive: hint("destructiveHint"),
        idempotent: hint("idempotentHint"),
        open_world: hint("openWorldHint"),
    };
    let annotations = Annotations {
        kind,
        side_effect_level: Level::None,
        completion_evidence_role: role_of(src.get("completion_evidence_role")),
        arg_schema,
        capabilities: capabilities_of(src.get("capabilities")),
        emits_artifacts: bool_of(src.get("emits_artifacts")).unwrap_or(false),
        inline_result: bool_of(src.get("inline_result")).unwrap_or(false),
        result_readers,
        hints,
    };
    ReadAnnotations {
        annotations,
        declared: declared_of(src.get("side_effect_level")),
        diagnostics,
    }
}

/// The serialised annotations (1.4).
pub(crate) fn annotations_to_value(a: &Annotations) -> Value {
    let ranges: Vec<Value> = a
        .arg_schema
        .dependency_range_params
        .iter()
        .map(|r| json!({"start": r.start, "end": r.end}))
        .collect();
    let mut obj = Map::new();
    obj.insert(
        "arg_schema".into(),
        json!({
            "arg_aliases": a.arg_schema.arg_aliases,
            "dependency_key_params": a.arg_schema.dependency_key_params,
            "dependency_range_params": ranges,
            "path_params": a.arg_schema.path_params,
            "required": a.arg_schema.required,
        }),
    );
    obj.insert("capabilities".into(), json!(a.capabilities));
    obj.insert("emits_artifacts".into(), json!(a.emits_artifacts));
    obj.insert("inline_result".into(), json!(a.inline_result));
    obj.insert("kind".into(), json!(a.kind.as_str()));
    obj.insert("result_readers".into(), json!(a.result_readers));
    obj.insert(
        "side_effect_level".into(),
        json!(a.side_effect_level.as_str()),
    );
    if let Some(role) = &a.completion_evidence_role {
        obj.insert("completion_evidence_role".into(), json!(role));
    }
    for (key, v) in [
        ("readOnlyHint", a.hints.read_only),
        ("destructiveHint", a.hints.destructive),
        ("idempotentHint", a.hints.idempotent),
        ("openWorldHint", a.hints.open_world),
    ] {
        if let Some(b) = v {
            obj.insert(key.into(), json!(b));
        }
    }
    Value::Object(obj)
}

/// Reads serialised annotations back (1.12): strict enums.
pub(crate) fn annotations_from_value(v: Option<&Value>) -> Result<Annotations, String> {
    let Some(obj) = v.and_then(Value::as_object) else {
        return Ok(Annotations::default());
    };
    let read = read_annotations(&Map::from_iter([(
        "annotations".to_string(),
        Value::Object(obj.clone()),
    )]));
    let mut a = read.annotations;
    if let Some(k) = obj.get("kind").filter(|v| !v.is_null()) {
        a.kind = k
            .as_str()
            .and_then(Kind::parse)
            .ok_or_else(|| format!("invalid annotation kind {k}"))?;
    }
    a.side_effect_level = match read.declared {
        Declared::Absent => Level::None,
        Declared::Valid(l) => l,
        Declared::Invalid(s) => return Err(format!("invalid side_effect_level '{s}'")),
    };
    Ok(a)
}
