//! The typed records of a run (`code-mode.md` 4.7, 4.14): child error categories, call
//! and result records, the run record and the report. They are plain data, serialised
//! to JSON only at the edge ([`Report::to_json`]); nothing reads a report back by key.

use serde::Serialize;
use serde_json::{Map, Value as Json};

use crate::report::Category;

/// A child error category: the wire values of 4.7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChildCategory {
    SchemaValidation,
    ToolError,
    McpServerError,
    HostBridgeError,
    PermissionDenied,
    RejectedLoop,
    ParseAborted,
    Timeout,
    Network,
    ResourceBusy,
    Cancelled,
    AbandonedAtLoopExit,
    Environment,
    Unknown,
}

impl ChildCategory {
    /// Every category, in the order of 4.7.
    pub const ALL: [ChildCategory; 14] = [
        ChildCategory::SchemaValidation,
        ChildCategory::ToolError,
        ChildCategory::McpServerError,
        ChildCategory::HostBridgeError,
        ChildCategory::PermissionDenied,
        ChildCategory::RejectedLoop,
        ChildCategory::ParseAborted,
        ChildCategory::Timeout,
        ChildCategory::Network,
        ChildCategory::ResourceBusy,
        ChildCategory::Cancelled,
        ChildCategory::AbandonedAtLoopExit,
        ChildCategory::Environment,
        ChildCategory::Unknown,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ChildCategory::SchemaValidation => "schema_validation",
            ChildCategory::ToolError => "tool_error",
            ChildCategory::McpServerError => "mcp_server_error",
            ChildCategory::HostBridgeError => "host_bridge_error",
            ChildCategory::PermissionDenied => "permission_denied",
            ChildCategory::RejectedLoop => "rejected_loop",
            ChildCategory::ParseAborted => "parse_aborted",
            ChildCategory::Timeout => "timeout",
            ChildCategory::Network => "network",
            ChildCategory::ResourceBusy => "resource_busy",
            ChildCategory::Cancelled => "cancelled",
            ChildCategory::AbandonedAtLoopExit => "abandoned_at_loop_exit",
            ChildCategory::Environment => "environment",
            ChildCategory::Unknown => "unknown",
        }
    }

    /// The category a wire value names, if any.
    pub fn parse(s: &str) -> Option<ChildCategory> {
        ChildCategory::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// A host's own name for a failure: a wire value as itself, anything else
    /// `tool_error` (a report only ever carries wire values).
    pub fn from_host(s: &str) -> ChildCategory {
        ChildCategory::parse(s).unwrap_or(ChildCategory::ToolError)
    }
}

/// `policy_context` of a call record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PolicyContext {
    pub disposition: &'static str,
    pub reason: Option<String>,
    pub ceiling: &'static str,
    /// The active stage's scope, when a stage or scope applies (2.3).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<Json>,
}

/// One child call as the snippet made it, before any gate (4.6 step 3).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallRecord {
    pub run_id: String,
    pub tool_call_id: String,
    pub tool_name: String,
    pub operation_index: usize,
    pub annotations: Json,
    pub requested_side_effect_level: &'static str,
    pub policy_context: PolicyContext,
    pub raw_input: Json,
}

/// How a child call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallStatus {
    Completed,
    Failed,
}

/// The result of one child call: its output or its error, and its attempts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultRecord {
    pub run_id: String,
    pub tool_call_id: String,
    pub tool_name: String,
    pub operation_index: usize,
    pub status: CallStatus,
    pub raw_output: Json,
    pub error: Option<String>,
    pub error_category: Option<ChildCategory>,
    pub executor: Json,
    pub duration_ms: u64,
    pub execution_duration_ms: u64,
    pub attempt: u32,
    pub retry_attempts: u32,
    pub retry_errors: Vec<String>,
    pub retry_delays_ms: Vec<u64>,
    #[serde(skip_serializing_if = "is_zero")]
    pub redactions: u64,
    /// A denial receipt's details (2.5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_details: Option<Json>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// `usage` of the run record.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Usage {
    pub operations: u64,
    pub instructions: u64,
    pub output_bytes: usize,
    pub max_call_depth: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_memory_bytes: Option<u64>,
    #[serde(skip_serializing_if = "is_zero")]
    pub log_entries: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub log_entries_dropped: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub log_entries_truncated: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub redactions: u64,
}

/// What identifies a run: the start event's payload, and the first fields of the
/// run record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Envelope {
    pub run_id: String,
    pub language: String,
    pub snippet_hash: String,
    pub binding_manifest_hash: String,
    pub requested_side_effect_ceiling: &'static str,
    pub artifacts: Vec<Json>,
    pub metadata: Map<String, Json>,
}

/// A checker warning of the snippet, at its place (`run.diagnostics`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiagnosticRecord {
    pub code: &'static str,
    pub severity: &'static str,
    pub message: String,
    pub line: usize,
    pub column: usize,
}

/// The report's `run`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRecord {
    #[serde(flatten)]
    pub envelope: Envelope,
    pub stdout: Option<String>,
    pub stderr: Option<String>,
    pub result: Json,
    pub failure_category: Option<Category>,
    pub error: Option<String>,
    pub duration_ms: u64,
    pub usage: Usage,
    /// The checker's warnings (omitted when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diagnostics: Vec<DiagnosticRecord>,
}

/// The report of one run (4.14, `schema_version` 1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub schema_version: u32,
    pub ok: bool,
    pub run: RunRecord,
    pub child_calls: Vec<CallRecord>,
    pub child_results: Vec<ResultRecord>,
    pub summary: String,
}

/// Serialises a record (keys sorted, as every JSON object harnc writes).
pub fn to_json<T: Serialize>(record: &T) -> Json {
    serde_json::to_value(record).unwrap_or(Json::Null)
}

impl Report {
    /// The report as JSON.
    pub fn to_json(&self) -> Json {
        to_json(self)
    }

    /// The run's failure category (`None` when it succeeded).
    pub fn failure_category(&self) -> Option<Category> {
        self.run.failure_category
    }

    /// The event sequence of a finished run (4.15): start, each call followed by its
    /// result, then finish or error. Each event is `{"type", "session_id", "run_id",
    /// ...}`.
    pub fn events(&self, session_id: Option<&str>) -> Vec<Json> {
        let session = session_id.map_or(Json::Null, |s| Json::String(s.into()));
        let event = |kind: &str, key: &str, payload: Json| {
            let mut e = Map::new();
            e.insert("type".into(), Json::String(kind.into()));
            e.insert("session_id".into(), session.clone());
            e.insert(
                "run_id".into(),
                Json::String(self.run.envelope.run_id.clone()),
            );
            e.insert(key.into(), payload);
            Json::Object(e)
        };
        let mut out = vec![event(
            "composition_start",
            "run",
            to_json(&self.run.envelope),
        )];
        for call in &self.child_calls {
            out.push(event("composition_child_call", "call", to_json(call)));
            for result in self
                .child_results
                .iter()
                .filter(|r| r.tool_call_id == call.tool_call_id)
            {
                out.push(event("composition_child_result", "result", to_json(result)));
            }
        }
        let last = if self.ok {
            "composition_finish"
        } else {
            "composition_error"
        };
        out.push(event(last, "run", to_json(&self.run)));
        out
    }
}
