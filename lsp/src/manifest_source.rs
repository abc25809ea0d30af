//! Where the server's manifest comes from, first found wins (issue order):
//! `initializationOptions.manifest` (inline), `initializationOptions.manifestPath`
//! (relative to the workspace root), `harn.manifest.json` at the workspace root, and the
//! `harn.manifest` configuration section (a path or an inline value). Every input form
//! of `code-mode.md` 1.1 is read: a binding manifest, a tool list, a raw `tools/list`
//! result (extra keys and all), a `{tools: [...]}` wrapper.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use harn_compiler::manifest::{BuildOptions, Manifest, document_manifest, is_binding_manifest};
use serde_json::{Value, json};

/// The file name looked for at the workspace root.
pub const WORKSPACE_MANIFEST: &str = "harn.manifest.json";

/// What the client told us, kept so a change re-resolves from the same sources.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    pub inline: Option<Value>,
    pub path: Option<String>,
    pub root: Option<PathBuf>,
    /// The `harn` configuration section's `manifest` value.
    pub configured: Option<Value>,
}

/// A manifest that could not be used, and where: a file (a diagnostic goes on it) or
/// an inline value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub message: String,
    pub file: Option<PathBuf>,
    /// Zero-based line and column of a JSON syntax error.
    pub at: Option<(u32, u32)>,
}

/// The outcome of resolving the sources.
#[derive(Clone, Debug, Default)]
pub struct Resolved {
    pub manifest: Option<Arc<Manifest>>,
    /// A human description of the source used (`manifestPath ./m.json`, ...).
    pub origin: Option<String>,
    pub problem: Option<Problem>,
    /// The builder's warnings (dropped tools, unknown fields).
    pub warnings: Vec<String>,
    /// Files whose change must re-resolve.
    pub watched: Vec<PathBuf>,
}

/// Builder options for a tool surface: the document's own `executor` section (ceiling,
/// allowed tools), denied tools kept so calling one reads as a denial, not a typo.
fn options_for(document: &Value) -> Result<BuildOptions, String> {
    let mut o = json!({"include_denied": true});
    if let Some(executor) = document.get("executor").and_then(Value::as_object) {
        for key in ["side_effect_ceiling", "allowed_tools"] {
            if let Some(v) = executor.get(key) {
                o[key] = v.clone();
            }
        }
    }
    BuildOptions::from_value(&o).map_err(|e| e.to_string())
}

/// A manifest from a JSON value in any accepted form.
pub fn from_value(document: &Value) -> Result<(Manifest, Vec<String>), String> {
    let options = if is_binding_manifest(document) {
        BuildOptions::default()
    } else {
        options_for(document)?
    };
    if !is_binding_manifest(document)
        && !matches!(document, Value::Array(_))
        && document.get("tools").is_none()
    {
        return Err("expected a binding manifest, a tool list, or an object with `tools`".into());
    }
    let built = document_manifest(document, &options).map_err(|e| e.to_string())?;
    let warnings = built.diagnostics.into_iter().map(|d| d.message).collect();
    Ok((built.manifest, warnings))
}

fn from_file(path: &Path) -> Result<(Manifest, Vec<String>), Problem> {
    let problem = |message: String, at| Problem {
        message,
        file: Some(path.to_path_buf()),
        at,
    };
    let text = std::fs::read_to_string(path).map_err(|e| {
        problem(
            format!("cannot read manifest {}: {e}", path.display()),
            None,
        )
    })?;
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        let at = (
            u32::try_from(e.line().saturating_sub(1)).unwrap_or(0),
            u32::try_from(e.column().saturating_sub(1)).unwrap_or(0),
        );
        problem(
            format!("manifest {} is not JSON: {e}", path.display()),
            Some(at),
        )
    })?;
    from_value(&value).map_err(|m| problem(format!("manifest {}: {m}", path.display()), None))
}

fn relative(root: Option<&Path>, path: &str) -> PathBuf {
    let p = PathBuf::from(path);
    match root {
        Some(r) if p.is_relative() => r.join(p),
        _ => p,
    }
}

fn finish(
    origin: String,
    result: Result<(Manifest, Vec<String>), Problem>,
    watched: Vec<PathBuf>,
) -> Resolved {
    match result {
        Ok((m, warnings)) => Resolved {
            manifest: Some(Arc::new(m)),
            origin: Some(origin),
            problem: None,
            warnings,
            watched,
        },
        Err(problem) => Resolved {
            manifest: None,
            origin: Some(origin),
            problem: Some(problem),
            warnings: Vec::new(),
            watched,
        },
    }
}

fn inline(origin: &str, v: &Value) -> Resolved {
    let result = from_value(v).map_err(|message| Problem {
        message: format!("{origin}: {message}"),
        file: None,
        at: None,
    });
    finish(origin.to_string(), result, Vec::new())
}

/// Resolves the sources, first found wins.
pub fn resolve(s: &Sources) -> Resolved {
    let root = s.root.as_deref();
    let workspace_file = root.map(|r| r.join(WORKSPACE_MANIFEST));
    let mut watched: Vec<PathBuf> = workspace_file.iter().cloned().collect();
    if let Some(v) = &s.inline {
        return inline("initializationOptions.manifest", v);
    }
    if let Some(p) = &s.path {
        let path = relative(root, p);
        watched.push(path.clone());
        return finish(
            format!("manifestPath {}", path.display()),
            from_file(&path),
            watched,
        );
    }
    if let Some(path) = workspace_file.filter(|p| p.exists()) {
        return finish(path.display().to_string(), from_file(&path), watched);
    }
    match &s.configured {
        Some(Value::String(p)) => {
            let path = relative(root, p);
            watched.push(path.clone());
            finish(
                format!("harn.manifest {}", path.display()),
                from_file(&path),
                watched,
            )
        }
        Some(Value::Null) | None => Resolved {
            watched,
            ..Resolved::default()
        },
        Some(v) => {
            let mut r = inline("harn.manifest", v);
            r.watched = watched;
            r
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn tool(name: &str) -> Value {
        json!({"name": name, "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}})
    }

    #[test]
    fn every_input_form_is_read() {
        for v in [
            json!([tool("a")]),
            json!({"tools": [tool("a")], "nextCursor": null, "_meta": {}}),
        ] {
            let (m, _) = from_value(&v).unwrap();
            assert_eq!(m.bindings.len(), 1, "{v}");
        }
        assert!(from_value(&json!({"x": 1})).is_err());
    }

    #[test]
    fn first_source_wins_and_invalid_is_a_problem() {
        let s = Sources {
            inline: Some(json!([tool("a")])),
            configured: Some(json!([tool("b"), tool("c")])),
            ..Sources::default()
        };
        assert_eq!(resolve(&s).manifest.unwrap().bindings.len(), 1);
        let s = Sources {
            configured: Some(json!([tool("b"), tool("c")])),
            ..Sources::default()
        };
        assert_eq!(resolve(&s).manifest.unwrap().bindings.len(), 2);
        let s = Sources {
            path: Some("/nonexistent/m.json".into()),
            ..Sources::default()
        };
        let r = resolve(&s);
        assert!(r.manifest.is_none());
        assert!(r.problem.unwrap().message.contains("cannot read manifest"));
    }
}
