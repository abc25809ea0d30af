//! Run set-up shared by every front end (`harnc run`/`check`, the MCP server): reading
//! a manifest file or tool surface with its `executor` host settings, and merging those
//! settings with a caller's overrides into builder options and executor options.
//!
//! Precedence, lowest first: the executor's defaults, the host settings' `limits`, the
//! caller's overrides.

use harn_compiler::manifest::{
    BuildOptions, Manifest, build_manifest, document_manifest, is_binding_manifest,
};
use serde_json::{Map, Value as Json, json};

use crate::{FixturesHost, Options};

/// Why a run could not be set up. Front ends report it as a usage error, or in a report
/// as `schema_validation`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<SetupError> for String {
    fn from(e: SetupError) -> Self {
        e.0
    }
}

/// The `executor` object of a manifest file or a server configuration: host settings
/// (`side_effect_ceiling`, `allowed_tools`, `limits` with any option of 4.1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostSettings(pub Map<String, Json>);

impl HostSettings {
    /// The `executor` member of `document`, if any.
    pub fn of(document: &Json) -> HostSettings {
        HostSettings(
            document
                .get("executor")
                .and_then(Json::as_object)
                .cloned()
                .unwrap_or_default(),
        )
    }

    fn get(&self, key: &str) -> Option<&Json> {
        self.0.get(key)
    }
}

/// What a caller (command-line flags, a client's request) sets on top of the host
/// settings. Every field left unset keeps the host's value or the default.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// Highest side-effect level a tool may have when a manifest is built.
    pub ceiling: Option<String>,
    /// Ambient allow-list (canonical names or bindings).
    pub allow_tools: Option<Vec<String>>,
    /// Tools that are always denied.
    pub deny_tools: Option<Vec<String>>,
    /// Tools that need approval.
    pub gate_tools: Option<Vec<String>>,
    /// Numeric limits of 4.1 by option name (`max_operations`, `timeout_ms`, ...).
    pub limits: Vec<(&'static str, u64)>,
    /// `retry.max_attempts`.
    pub max_attempts: Option<u64>,
    /// Trust the servers' read-only / idempotent hints for retries.
    pub trust_annotations: bool,
    /// The report's run id.
    pub run_id: Option<String>,
}

/// A manifest ready to run against, with the host settings that came with it and the
/// builder's warnings (unknown fields, dropped tools, ...).
#[derive(Debug)]
pub struct Loaded {
    pub manifest: Manifest,
    pub host: HostSettings,
    pub warnings: Vec<String>,
}

impl Overrides {
    fn allowed(&self, host: &HostSettings) -> Option<Json> {
        self.allow_tools
            .as_ref()
            .map(|a| json!(a))
            .or_else(|| host.get("allowed_tools").cloned())
    }

    /// Builder options for a tool surface: known but denied tools are included, so
    /// calling one produces a denial receipt instead of an unknown-name error.
    pub fn build_options(&self, host: &HostSettings) -> Result<BuildOptions, SetupError> {
        let mut o = json!({"include_denied": true});
        if let Some(c) = self
            .ceiling
            .as_deref()
            .map(Json::from)
            .or_else(|| host.get("side_effect_ceiling").cloned())
        {
            o["side_effect_ceiling"] = c;
        }
        if let Some(a) = self.allowed(host) {
            o["allowed_tools"] = a;
        }
        if let Some(d) = &self.deny_tools {
            o["denied_tools"] = json!(d);
        }
        if let Some(g) = &self.gate_tools {
            o["gated_tools"] = json!(g);
        }
        BuildOptions::from_value(&o).map_err(|e| SetupError(e.to_string()))
    }

    /// Executor options: the host's `limits`, then the overrides.
    pub fn options(&self, host: &HostSettings) -> Result<Options, SetupError> {
        let mut o = host
            .get("limits")
            .and_then(Json::as_object)
            .cloned()
            .unwrap_or_default();
        for &(key, value) in &self.limits {
            o.insert(key.into(), json!(value));
        }
        if let Some(n) = self.max_attempts {
            let mut retry = o.get("retry").cloned().unwrap_or_else(|| json!({}));
            retry["max_attempts"] = json!(n);
            o.insert("retry".into(), retry);
        }
        if let Some(a) = self.allowed(host) {
            o.insert("allowed_tools".into(), a);
        }
        if self.trust_annotations {
            o.insert("trust_annotations".into(), json!(true));
        }
        if let Some(id) = &self.run_id {
            o.insert("run_id".into(), json!(id));
        }
        Options::from_json(&Json::Object(o)).map_err(SetupError)
    }

    /// Fails closed on a tool list entry that names no tool of `manifest` (a typo in a
    /// deny list must not let the tool run): `unknown tool 'x' in deny-tools (did you
    /// mean y?)`. Entries may be canonical names or binding identifiers.
    pub fn check_tool_lists(
        &self,
        host: &HostSettings,
        manifest: &Manifest,
    ) -> Result<(), SetupError> {
        let allowed: Option<Vec<String>> = self.allow_tools.clone().or_else(|| {
            host.get("allowed_tools").and_then(Json::as_array).map(|a| {
                a.iter()
                    .filter_map(Json::as_str)
                    .map(str::to_string)
                    .collect()
            })
        });
        let lists = [
            ("allow-tools", allowed.as_ref()),
            ("deny-tools", self.deny_tools.as_ref()),
            ("gate-tools", self.gate_tools.as_ref()),
        ];
        for (list, names) in lists {
            for name in names.into_iter().flatten() {
                if let Some(hint) = manifest.unknown_tool_hint(name) {
                    return Err(SetupError(format!("unknown tool '{name}' in {list}{hint}")));
                }
            }
        }
        Ok(())
    }

    /// The manifest of a tool surface (MCP `tools/list` result, tool list, ...).
    pub fn surface_manifest(
        &self,
        surface: &Json,
        host: &HostSettings,
    ) -> Result<(Manifest, Vec<String>), SetupError> {
        let built = build_manifest(surface, &self.build_options(host)?);
        self.check_tool_lists(host, &built.manifest)?;
        let warnings = built
            .diagnostics
            .iter()
            .map(|d| d.message.clone())
            .collect();
        Ok((built.manifest, warnings))
    }

    /// A manifest file's text: a binding manifest as given (it has `schema_version` and
    /// `bindings`), else a tool surface built into one; plus its `executor` settings.
    pub fn load_manifest(&self, text: &str) -> Result<Loaded, SetupError> {
        let value: Json = serde_json::from_str(text)
            .map_err(|e| SetupError(format!("manifest is not JSON: {e}")))?;
        let host = HostSettings::of(&value);
        let options = if is_binding_manifest(&value) {
            BuildOptions::default()
        } else {
            self.build_options(&host)?
        };
        let built = document_manifest(&value, &options)
            .map_err(|e| SetupError(format!("invalid manifest: {e}")))?;
        self.check_tool_lists(&host, &built.manifest)?;
        Ok(Loaded {
            manifest: built.manifest,
            host,
            warnings: built.diagnostics.into_iter().map(|d| d.message).collect(),
        })
    }
}

/// A fixtures host from the text of a fixtures file named `path` (for messages).
pub fn fixtures_host(text: &str, path: &str) -> Result<FixturesHost, SetupError> {
    let value: Json = serde_json::from_str(text)
        .map_err(|e| SetupError(format!("fixtures file {path} is not JSON: {e}")))?;
    FixturesHost::from_json(&value).map_err(|e| SetupError(format!("{path}: {e}")))
}
