//! Builder options (1.8), policy dispositions (1.9) and the builder itself.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::annotations::read_annotations;
use super::input::{extract_entries, read_fields};
use super::level::{Declared, Level, effective_level};
use super::names::NameAllocator;
use super::stages::StagePolicy;
use super::{Binding, BuildDiagnostic, Built, Disposition, Manifest, ManifestError, PolicyStatus};

/// `form`: full (1.10) or compact (1.11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Form {
    #[default]
    Full,
    Compact,
}

/// The state grant (1.14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateGrant {
    pub schema_version: u64,
    pub max_value_bytes: u64,
    pub max_total_bytes: u64,
    pub max_keys: u64,
}

impl Default for StateGrant {
    fn default() -> Self {
        StateGrant {
            schema_version: 1,
            max_value_bytes: 16384,
            max_total_bytes: 65536,
            max_keys: 64,
        }
    }
}

impl StateGrant {
    /// Strict reading of a grant object.
    pub fn from_value(v: &Value) -> Result<StateGrant, String> {
        let obj = v.as_object().ok_or("state must be an object")?;
        let mut g = StateGrant::default();
        for (key, val) in obj {
            let n = val
                .as_u64()
                .ok_or_else(|| format!("state.{key} must be a non-negative integer"))?;
            match key.as_str() {
                "schema_version" => g.schema_version = n,
                "max_value_bytes" => g.max_value_bytes = n,
                "max_total_bytes" => g.max_total_bytes = n,
                "max_keys" => g.max_keys = n,
                _ => return Err(format!("unknown state key '{key}'")),
            }
        }
        if g.schema_version != 1 {
            return Err(format!(
                "unsupported state schema_version {}",
                g.schema_version
            ));
        }
        if g.max_value_bytes == 0 || g.max_total_bytes == 0 || g.max_keys == 0 {
            return Err("state limits must be positive".into());
        }
        if g.max_value_bytes > g.max_total_bytes {
            return Err("state max_value_bytes exceeds max_total_bytes".into());
        }
        Ok(g)
    }
}

/// Options of `composition_binding_manifest` / `harnc manifest` (1.8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    pub side_effect_ceiling: Level,
    pub include_denied: bool,
    pub allowed_tools: Option<Vec<String>>,
    pub denied_tools: Vec<String>,
    pub gated_tools: Vec<String>,
    pub side_effect_overrides: BTreeMap<String, Level>,
    pub scope: Vec<StagePolicy>,
    pub state: Option<StateGrant>,
    pub form: Form,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            side_effect_ceiling: Level::ReadOnly,
            include_denied: false,
            allowed_tools: None,
            denied_tools: Vec::new(),
            gated_tools: Vec::new(),
            side_effect_overrides: BTreeMap::new(),
            scope: Vec::new(),
            state: None,
            form: Form::Full,
        }
    }
}

fn opt_err(message: String) -> ManifestError {
    ManifestError::Option(message)
}

fn string_list(key: &str, v: &Value) -> Result<Vec<String>, ManifestError> {
    let err = || opt_err(format!("option '{key}' must be a list of strings"));
    v.as_array()
        .ok_or_else(err)?
        .iter()
        .map(|s| s.as_str().map(str::to_string).ok_or_else(err))
        .collect()
}

fn level_option(key: &str, v: &Value) -> Result<Level, ManifestError> {
    let s = v
        .as_str()
        .ok_or_else(|| opt_err(format!("option '{key}' must be a string")))?;
    Level::parse(s).ok_or_else(|| opt_err(format!("unknown {key} '{s}'")))
}

impl BuildOptions {
    /// Reads an options object; unknown keys and wrong types are errors (1.8).
    pub fn from_value(v: &Value) -> Result<BuildOptions, ManifestError> {
        let mut o = BuildOptions::default();
        let obj = match v {
            Value::Null => return Ok(o),
            Value::Object(obj) => obj,
            _ => return Err(opt_err("options must be a dict".into())),
        };
        for (key, val) in obj {
            match key.as_str() {
                "side_effect_ceiling" => o.side_effect_ceiling = level_option(key, val)?,
                "include_denied" => {
                    o.include_denied = match val {
                        Value::Bool(b) => *b,
                        Value::Null => false,
                        _ => return Err(opt_err(format!("option '{key}' must be a bool"))),
                    }
                }
                "allowed_tools" => {
                    o.allowed_tools = match val {
                        Value::Null => None,
                        _ => Some(string_list(key, val)?),
                    }
                }
                "denied_tools" => o.denied_tools = string_list(key, val)?,
                "gated_tools" => o.gated_tools = string_list(key, val)?,
                "side_effect_overrides" => {
                    let map = val.as_object().ok_or_else(|| {
                        opt_err(format!("option '{key}' must be a dict of levels"))
                    })?;
                    for (name, level) in map {
                        o.side_effect_overrides
                            .insert(name.clone(), level_option("side_effect_override", level)?);
                    }
                }
                "scope" => o.scope = StagePolicy::list_from_value(val).map_err(opt_err)?,
                "state" => {
                    o.state = match val {
                        Value::Null | Value::Bool(false) => None,
                        Value::Bool(true) => Some(StateGrant::default()),
                        _ => Some(StateGrant::from_value(val).map_err(opt_err)?),
                    }
                }
                "form" => {
                    o.form = match val.as_str() {
                        Some("full") => Form::Full,
                        Some("compact") => Form::Compact,
                        _ => {
                            return Err(opt_err(format!(
                                "option 'form' must be \"full\" or \"compact\", got {val}"
                            )));
                        }
                    }
                }
                _ => return Err(opt_err(format!("unknown option '{key}'"))),
            }
        }
        Ok(o)
    }

    /// The lowest of the ceiling and every scope level.
    pub fn effective_ceiling(&self) -> Level {
        self.scope
            .iter()
            .filter_map(|s| s.side_effect_level)
            .fold(self.side_effect_ceiling, Level::min)
    }
}

fn in_set(set: &[String], name: &str, binding: &str) -> bool {
    set.iter().any(|s| s == name || s == binding)
}

struct PolicyInput<'a> {
    name: &'a str,
    binding: &'a str,
    level: Level,
    assumed: bool,
    invalid: Option<&'a str>,
}

fn disposition(o: &BuildOptions, ceiling: Level, p: &PolicyInput<'_>) -> PolicyStatus {
    let deny = |reason: String| PolicyStatus {
        disposition: Disposition::Denied,
        reason: Some(reason),
    };
    if let Some(v) = p.invalid {
        return deny(format!("invalid side_effect_level '{v}'"));
    }
    if o.denied_tools.iter().any(|d| d == p.name) {
        return deny("denied by active tool policy".into());
    }
    if let Some(allowed) = &o.allowed_tools
        && !in_set(allowed, p.name, p.binding)
    {
        return deny("not in the allowed tool set".into());
    }
    for stage in &o.scope {
        if let Some(allowed) = &stage.allowed_tools
            && !in_set(allowed, p.name, p.binding)
        {
            return deny(format!("not allowed in stage '{}'", stage.name));
        }
    }
    if p.level > ceiling {
        return deny(if p.assumed {
            format!(
                "side-effect level not declared (assumed '{}') above composition ceiling '{}'",
                p.level, ceiling
            )
        } else {
            format!(
                "requires side-effect level '{}' above composition ceiling '{}'",
                p.level, ceiling
            )
        });
    }
    if o.gated_tools.iter().any(|g| g == p.name) {
        return PolicyStatus {
            disposition: Disposition::Gated,
            reason: Some("requires host approval before dispatch".into()),
        };
    }
    PolicyStatus::allowed()
}

/// Builds the binding manifest of a tool surface (1.1–1.9). The result is always the
/// full manifest; `options.form` only matters to whoever serialises it.
pub fn build_manifest(tools: &Value, options: &BuildOptions) -> Built {
    let (entries, messages) = extract_entries(tools);
    let mut diagnostics: Vec<BuildDiagnostic> = messages
        .into_iter()
        .map(|message| BuildDiagnostic { message })
        .collect();
    let ceiling = options.effective_ceiling();
    let mut names = NameAllocator::new();
    if options.state.is_some() {
        names.reserve("state");
    }
    let mut bindings = Vec::new();
    for entry in &entries {
        let binding = names.allocate(&entry.name);
        let fields = read_fields(&entry.object);
        let read = read_annotations(&entry.object);
        for d in read.diagnostics {
            diagnostics.push(BuildDiagnostic {
                message: format!("tool '{}': {d}", entry.name),
            });
        }
        let mut annotations = read.annotations;
        if let Declared::Invalid(v) = &read.declared {
            diagnostics.push(BuildDiagnostic {
                message: format!(
                    "tool '{}': invalid side_effect_level '{v}'; the binding is denied",
                    entry.name
                ),
            });
        }
        let eff = effective_level(
            &read.declared,
            &annotations.hints,
            fields.source == "mcp_server",
            options.side_effect_overrides.get(&entry.name).copied(),
        );
        annotations.side_effect_level = eff.level;
        let policy = disposition(
            options,
            ceiling,
            &PolicyInput {
                name: &entry.name,
                binding: &binding,
                level: eff.level,
                assumed: eff.assumed,
                // Fail closed: an invalid declaration denies even when overridden.
                invalid: match &read.declared {
                    Declared::Invalid(v) => Some(v.as_str()),
                    _ => None,
                },
            },
        );
        if policy.disposition == Disposition::Denied && !options.include_denied {
            continue;
        }
        bindings.push(Binding {
            name: entry.name.clone(),
            binding,
            namespace: fields.namespace,
            description: fields.description,
            input_schema: fields.input_schema,
            output_schema: fields.output_schema,
            capabilities: annotations.capabilities.clone(),
            path_args: annotations.arg_schema.path_params.clone(),
            annotations,
            side_effect_level: eff.level,
            examples: fields.examples,
            source: fields.source,
            deferred: fields.deferred,
            policy,
            metadata: fields.metadata,
        });
    }
    sort_bindings(&mut bindings);
    Built {
        manifest: Manifest {
            schema_version: 1,
            side_effect_ceiling: ceiling,
            metadata: Map::new(),
            bindings,
            state: options.state,
        },
        diagnostics,
    }
}

/// Manifest order: `(binding, name)`, byte-wise.
pub(crate) fn sort_bindings(bindings: &mut [Binding]) {
    bindings.sort_by(|a, b| {
        (a.binding.as_bytes(), a.name.as_bytes()).cmp(&(b.binding.as_bytes(), b.name.as_bytes()))
    });
}
