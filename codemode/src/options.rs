//! Executor options and their validation (`code-mode.md` 4.1).

use serde_json::{Map, Value as Json};

use harn_compiler::manifest::{Level, StagePolicy};

#[derive(Clone, Debug)]
pub struct Options {
    pub run_id: Option<String>,
    /// Names the session in events (4.15).
    pub session_id: Option<String>,
    pub language: String,
    pub requested_ceiling: Level,
    pub max_operations: u64,
    pub timeout_ms: u64,
    pub max_output_bytes: usize,
    pub max_concurrent: u64,
    pub max_instructions: u64,
    pub max_call_depth: usize,
    pub max_concurrent_per_server: u64,
    /// Per-attempt timeout; 0 = the run deadline only.
    pub call_timeout_ms: u64,
    pub retry: RetryOptions,
    pub trusted_servers: Vec<String>,
    pub trust_annotations: bool,
    /// Ambient allow-list (host-only): canonical names or binding identifiers.
    pub allowed_tools: Option<Vec<String>>,
    /// Declared stages and the active one (section 2).
    pub stages: Vec<StagePolicy>,
    pub stage: Option<String>,
    /// Policies pushed for this run only, outermost first.
    pub scope: Vec<StagePolicy>,
    /// Registered secret strings (host-only, at least 6 characters each).
    pub secrets: Vec<String>,
    /// `redact` (default) or `fail`.
    pub secret_policy: SecretPolicy,
    pub max_log_entries: u64,
    pub max_log_entry_bytes: usize,
    pub max_memory_bytes: u64,
    pub max_string_bytes: usize,
    pub max_collection_len: usize,
    pub metadata: Map<String, Json>,
}

/// What a registered secret in a tool's output does (4.13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecretPolicy {
    Redact,
    Fail,
}

fn strings(key: &str, v: &Json) -> Result<Vec<String>, String> {
    v.as_array()
        .and_then(|a| a.iter().map(|s| s.as_str().map(str::to_string)).collect())
        .ok_or_else(|| format!("invalid option '{key}': expected a list of strings"))
}

/// Retry settings for child calls (`code-mode.md` 6.3).
#[derive(Clone, Debug, PartialEq)]
pub struct RetryOptions {
    pub max_attempts: u64,
    pub base_delay_ms: u64,
    pub max_delay_ms: u64,
    pub honor_retry_after: bool,
}

impl Default for RetryOptions {
    fn default() -> Self {
        RetryOptions {
            max_attempts: 3,
            base_delay_ms: 100,
            max_delay_ms: 2000,
            honor_retry_after: true,
        }
    }
}

impl RetryOptions {
    fn from_json(v: &Json) -> Result<RetryOptions, String> {
        let mut r = RetryOptions::default();
        let map = v
            .as_object()
            .ok_or("invalid option 'retry': expected an object")?;
        for (key, value) in map {
            let name = format!("retry.{key}");
            match key.as_str() {
                "max_attempts" => r.max_attempts = count(&name, value)?,
                "base_delay_ms" => r.base_delay_ms = count(&name, value)?,
                "max_delay_ms" => r.max_delay_ms = count(&name, value)?,
                "honor_retry_after" => {
                    r.honor_retry_after = value
                        .as_bool()
                        .ok_or("invalid option 'retry.honor_retry_after': expected a bool")?
                }
                _ => {}
            }
        }
        Ok(r)
    }
}

impl Default for Options {
    fn default() -> Self {
        Options {
            run_id: None,
            session_id: None,
            language: "harn".into(),
            requested_ceiling: Level::ReadOnly,
            max_operations: 64,
            timeout_ms: 10_000,
            max_output_bytes: 65_536,
            max_concurrent: 16,
            max_instructions: 10_000_000,
            max_call_depth: 256,
            max_concurrent_per_server: 4,
            call_timeout_ms: 30_000,
            retry: RetryOptions::default(),
            trusted_servers: Vec::new(),
            trust_annotations: false,
            allowed_tools: None,
            stages: Vec::new(),
            stage: None,
            scope: Vec::new(),
            secrets: Vec::new(),
            secret_policy: SecretPolicy::Redact,
            max_log_entries: 1_000,
            max_log_entry_bytes: 4_096,
            max_memory_bytes: 134_217_728,
            max_string_bytes: 16 * 1024 * 1024,
            max_collection_len: 1_000_000,
            metadata: Map::new(),
        }
    }
}

fn count(key: &str, v: &Json) -> Result<u64, String> {
    v.as_u64()
        .ok_or_else(|| format!("invalid option '{key}': expected a non-negative integer, got {v}"))
}

/// Every option key [`Options::from_json`] reads (for suggestions on a typo).
const KNOWN: &[&str] = &[
    "run_id",
    "session_id",
    "language",
    "requested_side_effect_ceiling",
    "max_operations",
    "timeout_ms",
    "max_output_bytes",
    "max_concurrent",
    "max_concurrent_operations",
    "max_instructions",
    "fuel",
    "max_call_depth",
    "max_concurrent_per_server",
    "per_server_concurrency",
    "call_timeout_ms",
    "retry",
    "trusted_servers",
    "trusted_mcp_servers",
    "allowed_tools",
    "stages",
    "stage",
    "scope",
    "secrets",
    "secret_policy",
    "max_log_entries",
    "max_memory_bytes",
    "max_string_bytes",
    "max_collection_len",
    "max_log_entry_bytes",
    "trust_annotations",
    "trust_mcp_annotations",
    "metadata",
];

impl Options {
    /// Reads options from JSON; unknown numeric forms are errors, not ignored.
    pub fn from_json(v: &Json) -> Result<Options, String> {
        let mut o = Options::default();
        let Some(map) = v.as_object() else {
            return if v.is_null() {
                Ok(o)
            } else {
                Err("invalid option 'options': expected an object".into())
            };
        };
        for (key, value) in map {
            match key.as_str() {
                "run_id" => {
                    o.run_id = Some(
                        value
                            .as_str()
                            .ok_or("invalid option 'run_id': expected a string")?
                            .to_string(),
                    )
                }
                "session_id" => {
                    o.session_id = Some(
                        value
                            .as_str()
                            .ok_or("invalid option 'session_id': expected a string")?
                            .to_string(),
                    )
                }
                "language" => {
                    o.language = value
                        .as_str()
                        .ok_or("invalid option 'language': expected a string")?
                        .to_string()
                }
                "requested_side_effect_ceiling" => {
                    let text = value.as_str().unwrap_or_default();
                    o.requested_ceiling = Level::parse(text).ok_or_else(|| {
                        format!("invalid option '{key}': unknown side-effect level '{text}'")
                    })?;
                }
                "max_operations" => o.max_operations = count(key, value)?,
                "timeout_ms" => o.timeout_ms = count(key, value)?,
                "max_output_bytes" => o.max_output_bytes = count(key, value)? as usize,
                "max_concurrent" | "max_concurrent_operations" => {
                    o.max_concurrent = count(key, value)?.max(1)
                }
                "max_instructions" | "fuel" => o.max_instructions = count(key, value)?,
                "max_call_depth" => o.max_call_depth = count(key, value)? as usize,
                "max_concurrent_per_server" | "per_server_concurrency" => {
                    o.max_concurrent_per_server = count(key, value)?.max(1)
                }
                "call_timeout_ms" => o.call_timeout_ms = count(key, value)?,
                "retry" => o.retry = RetryOptions::from_json(value)?,
                "trusted_servers" | "trusted_mcp_servers" => {
                    o.trusted_servers = strings(key, value)?
                }
                "allowed_tools" => o.allowed_tools = Some(strings(key, value)?),
                "stages" => {
                    o.stages = StagePolicy::list_from_value(value)
                        .map_err(|e| format!("invalid option 'stages': {e}"))?
                }
                "stage" => {
                    o.stage = match value {
                        Json::Null => None,
                        Json::String(s) => Some(s.clone()),
                        _ => return Err("invalid option 'stage': expected a string".into()),
                    }
                }
                "scope" => {
                    o.scope = StagePolicy::list_from_value(value)
                        .map_err(|e| format!("invalid option 'scope': {e}"))?
                }
                "secrets" => {
                    o.secrets = strings(key, value)?;
                    if let Some(short) = o.secrets.iter().find(|s| s.chars().count() < 6) {
                        return Err(format!(
                            "invalid option 'secrets': a secret must have at least 6 characters (got {})",
                            short.chars().count()
                        ));
                    }
                }
                "secret_policy" => {
                    o.secret_policy = match value.as_str() {
                        Some("redact") => SecretPolicy::Redact,
                        Some("fail") => SecretPolicy::Fail,
                        _ => {
                            return Err(
                                "invalid option 'secret_policy': expected \"redact\" or \"fail\""
                                    .into(),
                            );
                        }
                    }
                }
                "max_log_entries" => o.max_log_entries = count(key, value)?,
                "max_memory_bytes" => o.max_memory_bytes = count(key, value)?,
                "max_string_bytes" => o.max_string_bytes = count(key, value)? as usize,
                "max_collection_len" => o.max_collection_len = count(key, value)? as usize,
                "max_log_entry_bytes" => o.max_log_entry_bytes = count(key, value)? as usize,
                "trust_annotations" | "trust_mcp_annotations" => {
                    o.trust_annotations = value
                        .as_bool()
                        .ok_or_else(|| format!("invalid option '{key}': expected a bool"))?
                }
                "metadata" => {
                    o.metadata = value
                        .as_object()
                        .cloned()
                        .ok_or("invalid option 'metadata': expected an object")?
                }
                _ => {
                    let hint = harn_compiler::suggest::suggest(key, KNOWN.iter().copied())
                        .map(|k| format!(" (did you mean '{k}'?)"))
                        .unwrap_or_default();
                    return Err(format!("invalid option '{key}': unknown option{hint}"));
                }
            }
        }
        Ok(o)
    }
}
