//! The three tools of the server profile (`code-mode.md` 9): their names, input
//! schemas and descriptions, and the checking of a call's arguments. A bad argument is
//! a JSON-RPC `-32602` with a message that names it.

use serde_json::{Map, Value as Json, json};

use super::catalog::Catalog;
use harn_codegen::emit_prompt;

/// How the tools are named: `harn.code.execute_composition` (valid MCP), or
/// `harn_code_execute_composition` for clients that accept only `[A-Za-z0-9_-]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ToolNames {
    #[default]
    Dotted,
    Underscore,
}

/// One of the three tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    SearchExamples,
    GenerateApi,
    Execute,
}

impl Tool {
    pub const ALL: [Tool; 3] = [Tool::SearchExamples, Tool::GenerateApi, Tool::Execute];

    fn stem(self) -> &'static str {
        match self {
            Tool::SearchExamples => "search_examples",
            Tool::GenerateApi => "generate_harn_api",
            Tool::Execute => "execute_composition",
        }
    }

    pub fn name(self, names: ToolNames) -> String {
        match names {
            ToolNames::Dotted => format!("harn.code.{}", self.stem()),
            ToolNames::Underscore => format!("harn_code_{}", self.stem()),
        }
    }

    pub fn find(name: &str, names: ToolNames) -> Option<Tool> {
        Tool::ALL.into_iter().find(|t| t.name(names) == name)
    }

    /// The parameters the tool accepts.
    fn parameters(self) -> &'static [&'static str] {
        match self {
            Tool::SearchExamples => &["query", "limit"],
            Tool::GenerateApi => &["query", "limit", "format"],
            Tool::Execute => &[
                "snippet",
                "bindings",
                "manifest",
                "run_id",
                "max_operations",
                "timeout_ms",
                "max_output_bytes",
                "max_concurrent",
                "max_concurrent_per_server",
                "include_report",
            ],
        }
    }

    fn input_schema(self) -> Json {
        let count = |doc: &str| json!({"type": "integer", "minimum": 1, "description": doc});
        let (properties, required) = match self {
            Tool::SearchExamples => (
                json!({
                    "query": {"type": "string", "description": "Words to look for (any case); blank lists everything."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50, "default": 10},
                }),
                json!([]),
            ),
            Tool::GenerateApi => (
                json!({
                    "query": {"type": "string", "description": "Keep only the tools that best match these words (BM25 over names and descriptions)."},
                    "limit": {"type": "integer", "minimum": 1, "default": 20},
                    "format": {"type": "string", "enum": ["harn", "typescript", "compact"], "default": "harn"},
                }),
                json!([]),
            ),
            Tool::Execute => (
                json!({
                    "snippet": {"type": "string", "description": "The Harn program to run; its `return` value is the result."},
                    "bindings": {"type": "array", "items": {"type": "string"}, "description": "Run with only these tools (names from the API)."},
                    "manifest": {"type": "object", "description": "A manifest whose `bindings` select registered tools (by `binding` and `name`)."},
                    "run_id": {"type": "string"},
                    "max_operations": count("Tool-call attempts (at most the server's limit)."),
                    "timeout_ms": count("Wall-clock budget in milliseconds (at most the server's limit)."),
                    "max_output_bytes": count("Output budget in bytes (at most the server's limit)."),
                    "max_concurrent": count("In-flight tool calls (at most the server's limit)."),
                    "max_concurrent_per_server": count("In-flight calls per upstream server (at most the server's limit)."),
                    "include_report": {"type": "boolean", "default": false, "description": "Return the full run report instead of the reduced envelope."},
                }),
                json!(["snippet"]),
            ),
        };
        json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
    }

    fn description(self, catalog: &Catalog) -> String {
        match self {
            Tool::SearchExamples => "Find example Harn snippets: curated composition patterns \
                (read-then-summarise, search-then-read, fan-out, aggregation) and the examples the \
                available tools carry. Filters by a case-insensitive substring."
                .into(),
            Tool::GenerateApi => "The typed API of the tools a snippet can call, as Harn \
                declarations, TypeScript or a compact list; `query` keeps the best matches. Also \
                reports each upstream server's status."
                .into(),
            Tool::Execute => format!(
                "Run a Harn snippet that calls the tools below as functions and returns one \
                 value. Prefer one snippet over many separate tool calls: intermediate results \
                 stay in the run and only the returned value comes back (as \
                 {{ok, result, error, failure_category, run_id, child_call_count}}). Read-only: \
                 tools that change anything are refused.\n\n{}\n{}",
                emit_prompt(&catalog.visible),
                PRIMER
            ),
        }
    }

    /// The tool's definition for `tools/list`.
    pub fn definition(self, names: ToolNames, catalog: &Catalog) -> Json {
        json!({
            "name": self.name(names),
            "title": match self {
                Tool::SearchExamples => "Search Harn examples",
                Tool::GenerateApi => "Generate the Harn API",
                Tool::Execute => "Execute a Harn composition",
            },
            "description": self.description(catalog),
            "inputSchema": self.input_schema(),
            "annotations": {
                "readOnlyHint": true, "destructiveHint": false,
                "idempotentHint": true, "openWorldHint": false,
            },
        })
    }

    /// Checks the arguments against the parameters: a client may not configure tools
    /// or trust, and every other unknown parameter is named.
    pub fn arguments(self, args: Option<Map<String, Json>>) -> Result<Arguments, String> {
        let args = args.unwrap_or_default();
        for key in args.keys() {
            if self.parameters().contains(&key.as_str()) {
                continue;
            }
            if self == Tool::Execute
                && let Some(refusal) = server_only(key)
            {
                return Err(refusal.into());
            }
            return Err(format!(
                "unknown parameter '{key}' (expected {})",
                self.parameters().join(", ")
            ));
        }
        Ok(Arguments(args))
    }
}

/// The snippet-language primer every `execute_composition` description carries.
pub const PRIMER: &str = include_str!("primer.md");

pub const TOOLS_BY_SERVER: &str = "composition_mcp: tools are configured by the server";
pub const TRUST_BY_SERVER: &str = "composition_mcp: trust is configured by the server";

/// The refusal for a parameter only the server configures.
pub fn server_only(key: &str) -> Option<&'static str> {
    match key {
        "tools" | "tool_surface" | "mcp_servers" | "mcpServers" => Some(TOOLS_BY_SERVER),
        "trust" | "trusted_servers" | "trust_annotations" | "secrets" | "secret_policy"
        | "stages" | "stage" | "scope" | "dispatcher" | "allowed_tools" | "executor" => {
            Some(TRUST_BY_SERVER)
        }
        _ => None,
    }
}

/// A call's checked arguments, read with typed getters.
pub struct Arguments(Map<String, Json>);

impl Arguments {
    pub fn string(&self, key: &str) -> Result<Option<&str>, String> {
        match self.0.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::String(s)) => Ok(Some(s)),
            Some(_) => Err(format!("parameter '{key}' must be a string")),
        }
    }

    pub fn count(&self, key: &str, max: u64) -> Result<Option<u64>, String> {
        match self.0.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .filter(|n| (1..=max).contains(n))
                .map(Some)
                .ok_or_else(|| format!("parameter '{key}' must be an integer from 1 to {max}")),
        }
    }

    pub fn flag(&self, key: &str) -> Result<bool, String> {
        match self.0.get(key) {
            None | Some(Json::Null) => Ok(false),
            Some(Json::Bool(b)) => Ok(*b),
            Some(_) => Err(format!("parameter '{key}' must be true or false")),
        }
    }

    pub fn strings(&self, key: &str) -> Result<Option<Vec<String>>, String> {
        match self.0.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::Array(items)) => items
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .map(Some)
                .ok_or_else(|| format!("parameter '{key}' must be a list of strings")),
            Some(_) => Err(format!("parameter '{key}' must be a list of strings")),
        }
    }

    /// An object parameter; keys only the server configures are refused.
    pub fn object(&self, key: &str) -> Result<Option<&Json>, String> {
        match self.0.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(v @ Json::Object(map)) => {
                if let Some(refusal) = map.keys().find_map(|k| server_only(k)) {
                    return Err(refusal.into());
                }
                Ok(Some(v))
            }
            Some(_) => Err(format!("parameter '{key}' must be an object")),
        }
    }
}
