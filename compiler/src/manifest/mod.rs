//! The binding manifest of code mode (`code-mode.md` section 1): reading tool surfaces,
//! side-effect levels, binding names, policy dispositions, the manifest JSON (full and
//! compact), reading it back, and the canonical hashes.

pub(crate) mod annotations;
mod build;
mod hash;
mod input;
mod json;
mod level;
pub mod lower;
mod names;
mod stages;
pub mod type_names;

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value};

pub use annotations::{Annotations, ArgSchema, Kind, RangeParam};
pub use build::{BuildOptions, Form, StateGrant, build_manifest};
pub use hash::{canonical_json, manifest_hash, manifest_value_hash, snippet_hash, sorted_value};
pub use input::{Entry, extract_entries, tag_mcp_server};
pub use json::manifest_from_value;
pub use level::{Declared, Effective, Hints, Level, effective_level};
pub use names::{
    HARN_EXTRA_RESERVED, JS_RESERVED, NameAllocator, RESERVED_NON_BUILTINS, is_reserved, normalize,
    sandbox_builtins,
};
pub use stages::{OnExit, StagePolicy, validate_stages};

/// Errors of the manifest layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ManifestError {
    /// An unknown side-effect level string.
    InvalidLevel(String),
    /// A builder option problem (the full message, prefixed).
    Option(String),
    /// A manifest read back with a bad field.
    Invalid(String),
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManifestError::InvalidLevel(v) => write!(f, "invalid side_effect_level '{v}'"),
            ManifestError::Option(m) => write!(f, "composition_binding_manifest: {m}"),
            ManifestError::Invalid(m) => write!(f, "invalid binding manifest: {m}"),
        }
    }
}

impl std::error::Error for ManifestError {}

/// A policy disposition (1.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Disposition {
    Allowed,
    Gated,
    Denied,
}

impl Disposition {
    pub fn as_str(self) -> &'static str {
        match self {
            Disposition::Allowed => "allowed",
            Disposition::Gated => "gated",
            Disposition::Denied => "denied",
        }
    }

    pub fn parse(text: &str) -> Option<Disposition> {
        match text {
            "allowed" => Some(Disposition::Allowed),
            "gated" => Some(Disposition::Gated),
            "denied" => Some(Disposition::Denied),
            _ => None,
        }
    }
}

/// `{"disposition": …, "reason": …}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyStatus {
    pub disposition: Disposition,
    pub reason: Option<String>,
}

impl PolicyStatus {
    pub fn allowed() -> Self {
        PolicyStatus {
            disposition: Disposition::Allowed,
            reason: None,
        }
    }
}

/// One binding of the manifest (1.10).
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    /// The canonical tool name.
    pub name: String,
    /// The identifier a snippet calls.
    pub binding: String,
    pub namespace: Option<String>,
    pub description: Option<String>,
    pub input_schema: Value,
    /// `None` serialises as `null`.
    pub output_schema: Option<Value>,
    pub annotations: Annotations,
    pub side_effect_level: Level,
    pub capabilities: BTreeMap<String, Vec<String>>,
    pub path_args: Vec<String>,
    pub examples: Vec<Value>,
    pub source: String,
    pub deferred: bool,
    pub policy: PolicyStatus,
    pub metadata: Map<String, Value>,
}

impl Binding {
    /// The MCP server of the binding: `metadata._mcp_server` → `metadata.mcp_server` →
    /// `metadata.server.name` (first non-empty string).
    pub fn mcp_server(&self) -> Option<&str> {
        fn nonempty(v: Option<&Value>) -> Option<&str> {
            v.and_then(Value::as_str).filter(|s| !s.is_empty())
        }
        nonempty(self.metadata.get("_mcp_server"))
            .or_else(|| nonempty(self.metadata.get("mcp_server")))
            .or_else(|| nonempty(self.metadata.get("server").and_then(|s| s.get("name"))))
    }

    /// The tool name on its MCP server: `metadata._mcp_tool_name`, else the canonical name.
    pub fn mcp_tool_name(&self) -> &str {
        self.metadata
            .get("_mcp_tool_name")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .unwrap_or(&self.name)
    }
}

/// A binding manifest (`schema_version` 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Manifest {
    pub schema_version: u64,
    pub side_effect_ceiling: Level,
    pub metadata: Map<String, Value>,
    pub bindings: Vec<Binding>,
    pub state: Option<StateGrant>,
}

impl Default for Manifest {
    fn default() -> Self {
        Manifest {
            schema_version: 1,
            side_effect_ceiling: Level::ReadOnly,
            metadata: Map::new(),
            bindings: Vec::new(),
            state: None,
        }
    }
}

impl Manifest {
    /// The full JSON (1.10); keys come out sorted.
    pub fn to_value(&self) -> Value {
        sorted_value(&json::manifest_to_value(self))
    }

    /// The compact JSON (1.11).
    pub fn to_compact_value(&self) -> Value {
        sorted_value(&json::manifest_to_compact_value(self))
    }

    /// `sha256:…` over the full manifest (1.13).
    pub fn hash(&self) -> String {
        manifest_hash(self)
    }

    /// Every name a tool list may use: each binding's canonical name and identifier.
    pub fn tool_names(&self) -> impl Iterator<Item = &str> {
        self.bindings
            .iter()
            .flat_map(|b| [b.name.as_str(), b.binding.as_str()])
    }

    /// `None` when `name` names a tool of the manifest; else the suggestion to append
    /// to an "unknown tool" message: ` (did you mean y?)`, or empty when nothing is close.
    pub fn unknown_tool_hint(&self, name: &str) -> Option<String> {
        if self.tool_names().any(|n| n == name) {
            return None;
        }
        Some(
            crate::suggest::suggest(name, self.tool_names())
                .map(|s| format!(" (did you mean {s}?)"))
                .unwrap_or_default(),
        )
    }

    /// The binding with this canonical name, else this identifier.
    pub fn lookup(&self, name: &str) -> Option<&Binding> {
        self.lookup_index(name).and_then(|i| self.bindings.get(i))
    }

    /// Where [`Manifest::lookup`] finds `name` in `bindings`.
    pub fn lookup_index(&self, name: &str) -> Option<usize> {
        self.bindings
            .iter()
            .position(|b| b.name == name)
            .or_else(|| self.bindings.iter().position(|b| b.binding == name))
    }
}

/// Whether a JSON document is a binding manifest (it has `schema_version` and
/// `bindings`) rather than a tool surface to build one from.
pub fn is_binding_manifest(document: &Value) -> bool {
    document.get("schema_version").is_some() && document.get("bindings").is_some()
}

/// The manifest a JSON document stands for: a binding manifest as given, else the tool
/// surface (any input form of 1.1) built with `options`.
pub fn document_manifest(document: &Value, options: &BuildOptions) -> Result<Built, ManifestError> {
    if is_binding_manifest(document) {
        return Ok(Built {
            manifest: manifest_from_value(document)?,
            diagnostics: Vec::new(),
        });
    }
    Ok(build_manifest(document, options))
}

/// A builder diagnostic (skipped entries, invalid annotation values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildDiagnostic {
    pub message: String,
}

/// A built manifest and the diagnostics collected on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Built {
    pub manifest: Manifest,
    pub diagnostics: Vec<BuildDiagnostic>,
}

#[cfg(test)]
mod tests;
