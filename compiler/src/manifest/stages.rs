//! Stage policies (code-mode.md section 2): parsing (2.1) and validation (2.4).

use std::collections::BTreeSet;

use serde_json::Value;

use super::Manifest;
use super::level::Level;

/// `on_exit`: stage names recorded in receipts.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct OnExit {
    pub on_complete: Option<String>,
    pub on_failure: Option<String>,
}

/// A stage policy (2.1).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct StagePolicy {
    pub name: String,
    /// Absent → inherit; empty → deny every tool.
    pub allowed_tools: Option<Vec<String>>,
    /// Tightens the ceiling.
    pub side_effect_level: Option<Level>,
    pub max_iterations: Option<u32>,
    pub on_exit: Option<OnExit>,
}

fn level_list() -> String {
    Level::ALL.map(Level::as_str).join(", ")
}

fn opt_name(v: Option<&Value>, what: &str, stage: &str) -> Result<Option<String>, String> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!(
            "stage '{stage}': {what} must be a string, got {other}"
        )),
    }
}

impl StagePolicy {
    /// Reads stage `index` of a list (2.1, 2.4).
    pub fn from_value(index: usize, v: &Value) -> Result<StagePolicy, String> {
        let obj = v
            .as_object()
            .ok_or_else(|| format!("stage #{index}: a stage policy must be an object"))?;
        let name = match obj.get("name") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            _ => return Err(format!("stage #{index}: name is required")),
        };
        let allowed_tools = match obj.get("allowed_tools") {
            None | Some(Value::Null) => None,
            Some(Value::Array(items)) => Some(
                items
                    .iter()
                    .map(|t| {
                        t.as_str().map(str::to_string).ok_or_else(|| {
                            format!("stage '{name}': allowed_tools must be a list of strings")
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            Some(_) => {
                return Err(format!(
                    "stage '{name}': allowed_tools must be a list of strings"
                ));
            }
        };
        let side_effect_level = match obj.get("side_effect_level") {
            None | Some(Value::Null) => None,
            Some(v) => {
                let text = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                Some(Level::parse(&text).ok_or_else(|| {
                    format!(
                        "stage '{name}': invalid side_effect_level '{text}' (expected one of {})",
                        level_list()
                    )
                })?)
            }
        };
        let max_iterations =
            match obj.get("max_iterations") {
                None | Some(Value::Null) => None,
                Some(v) => Some(v.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(
                    || format!("stage '{name}': max_iterations must be a non-negative integer"),
                )?),
            };
        let on_exit = match obj.get("on_exit") {
            None | Some(Value::Null) => None,
            Some(Value::Object(o)) => Some(OnExit {
                on_complete: opt_name(o.get("on_complete"), "on_exit.on_complete", &name)?,
                on_failure: opt_name(o.get("on_failure"), "on_exit.on_failure", &name)?,
            }),
            Some(_) => return Err(format!("stage '{name}': on_exit must be an object")),
        };
        Ok(StagePolicy {
            name,
            allowed_tools,
            side_effect_level,
            max_iterations,
            on_exit,
        })
    }

    /// Reads one policy or a list of them.
    pub fn list_from_value(v: &Value) -> Result<Vec<StagePolicy>, String> {
        match v {
            Value::Null => Ok(Vec::new()),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, s)| StagePolicy::from_value(i, s))
                .collect(),
            other => Ok(vec![StagePolicy::from_value(0, other)?]),
        }
    }
}

/// Validates declared stages against a manifest (2.4): unique names, known tools (a
/// canonical name or binding of the manifest, any disposition), `on_exit` targets, and
/// the active stage.
pub fn validate_stages(
    stages: &[StagePolicy],
    active: Option<&str>,
    manifest: &Manifest,
) -> Result<(), String> {
    // Nothing to check, and every run asks: skip the set of tool names.
    if stages.is_empty() && active.is_none() {
        return Ok(());
    }
    let known: BTreeSet<&str> = manifest.tool_names().collect();
    let mut names = BTreeSet::new();
    for (index, stage) in stages.iter().enumerate() {
        if stage.name.is_empty() {
            return Err(format!("stage #{index}: name is required"));
        }
        if !names.insert(stage.name.as_str()) {
            return Err(format!("duplicate stage name '{}'", stage.name));
        }
        for tool in stage.allowed_tools.iter().flatten() {
            if !known.contains(tool.as_str()) {
                return Err(format!(
                    "stage '{}': unknown tool '{tool}' in allowed_tools",
                    stage.name
                ));
            }
        }
    }
    for stage in stages {
        if let Some(exit) = &stage.on_exit {
            for (field, target) in [
                ("on_complete", &exit.on_complete),
                ("on_failure", &exit.on_failure),
            ] {
                if let Some(t) = target
                    && !names.contains(t.as_str())
                {
                    return Err(format!(
                        "stage '{}': on_exit.{field} references unknown stage '{t}'",
                        stage.name
                    ));
                }
            }
        }
    }
    if let Some(a) = active
        && !names.contains(a)
    {
        return Err(format!("unknown active stage '{a}'"));
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::manifest::{BuildOptions, build_manifest};

    fn manifest() -> Manifest {
        let tools = json!([{"name": "docs__read_file", "annotations": {"side_effect_level": "none"}},
                           {"name": "web", "annotations": {"side_effect_level": "network"}}]);
        let o = BuildOptions {
            include_denied: true,
            ..BuildOptions::default()
        };
        build_manifest(&tools, &o).manifest
    }

    fn check(stages: Value, active: Option<&str>) -> Result<(), String> {
        let list = StagePolicy::list_from_value(&stages)?;
        validate_stages(&list, active, &manifest())
    }

    #[test]
    fn validation_messages() {
        let ok = json!([{"name": "investigate", "allowed_tools": ["docs_read_file", "web"],
            "side_effect_level": "read_only", "max_iterations": 20,
            "on_exit": {"on_complete": "plan", "on_failure": "investigate"}}, {"name": "plan"}]);
        assert_eq!(check(ok, Some("plan")), Ok(()));
        assert_eq!(
            check(json!([{"name": ""}]), None),
            Err("stage #0: name is required".into())
        );
        assert_eq!(
            check(json!([{"name": "a"}, {"name": "a"}]), None),
            Err("duplicate stage name 'a'".into())
        );
        assert_eq!(
            check(json!([{"name": "a", "allowed_tools": ["nope"]}]), None),
            Err("stage 'a': unknown tool 'nope' in allowed_tools".into())
        );
        assert_eq!(
            check(json!([{"name": "a", "side_effect_level": "readonly"}]), None),
            Err("stage 'a': invalid side_effect_level 'readonly' (expected one of none, read_only, workspace_write, process_exec, network_read, network, desktop_control)".into())
        );
        assert_eq!(
            check(json!([{"name": "a", "on_exit": {"on_failure": "b"}}]), None),
            Err("stage 'a': on_exit.on_failure references unknown stage 'b'".into())
        );
        assert_eq!(
            check(json!([{"name": "a"}]), Some("b")),
            Err("unknown active stage 'b'".into())
        );
    }

    #[test]
    fn stages_narrow_the_manifest() {
        let tools = json!([{"name": "a", "annotations": {"side_effect_level": "read_only"}},
                           {"name": "b", "annotations": {"side_effect_level": "none"}}]);
        let o = BuildOptions::from_value(&json!({"include_denied": true,
            "side_effect_ceiling": "network",
            "scope": [{"name": "outer", "allowed_tools": ["a", "b"]},
                      {"name": "inner", "side_effect_level": "none"}]}))
        .unwrap();
        let m = build_manifest(&tools, &o).manifest;
        assert_eq!(m.side_effect_ceiling, Level::None);
        assert_eq!(
            m.bindings[0].policy.reason.as_deref(),
            Some("requires side-effect level 'read_only' above composition ceiling 'none'")
        );
        assert_eq!(m.bindings[1].policy.reason, None);
        // A stage cannot raise the ceiling.
        let o = BuildOptions::from_value(&json!({"include_denied": true,
            "scope": {"name": "wide", "side_effect_level": "network"}}))
        .unwrap();
        assert_eq!(o.effective_ceiling(), Level::ReadOnly);
    }
}
