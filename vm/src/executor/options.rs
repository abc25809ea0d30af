//! Executor options and their validation (`code-mode.md` 4.1).

use serde_json::{Map, Value as Json};

use harn_compiler::manifest::Level;

#[derive(Clone, Debug)]
pub struct Options {
    pub run_id: Option<String>,
    pub language: String,
    pub requested_ceiling: Level,
    pub max_operations: u64,
    pub timeout_ms: u64,
    pub max_output_bytes: usize,
    pub max_concurrent: u64,
    pub max_instructions: u64,
    pub max_call_depth: usize,
    pub metadata: Map<String, Json>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            run_id: None,
            language: "harn".into(),
            requested_ceiling: Level::ReadOnly,
            max_operations: 64,
            timeout_ms: 10_000,
            max_output_bytes: 65_536,
            max_concurrent: 16,
            max_instructions: 10_000_000,
            max_call_depth: 256,
            metadata: Map::new(),
        }
    }
}

fn count(key: &str, v: &Json) -> Result<u64, String> {
    v.as_u64()
        .ok_or_else(|| format!("invalid option '{key}': expected a non-negative integer, got {v}"))
}

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
                "metadata" => {
                    o.metadata = value
                        .as_object()
                        .cloned()
                        .ok_or("invalid option 'metadata': expected an object")?
                }
                _ => {}
            }
        }
        Ok(o)
    }
}
