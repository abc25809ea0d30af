//! The run report (`code-mode.md` 4.9, 4.14). The failure category is decided from
//! the kind of the error that ended the run, never from message text.

use std::time::Instant;

use harn_compiler::manifest::{Manifest, snippet_hash};
use serde_json::{Value as Json, json};

use crate::egress::RunState;
use crate::options::Options;
use harn_vm::convert::{Mode, to_json};
use harn_vm::error::{EgressKind, ErrorKind, Limit, VmError};
use harn_vm::interp::LogStats;
use harn_vm::value::Value;

/// The run's outcome category (`ok` for success).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    Ok,
    CompileError,
    DeniedBuiltin,
    PolicyDenied,
    BudgetExceeded,
    Timeout,
    MemoryLimit,
    StackLimit,
    OutputLimit,
    RuntimeError,
    ToolError,
    SchemaValidation,
}

impl Category {
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Ok => "ok",
            Category::CompileError => "compile_error",
            Category::DeniedBuiltin => "denied_builtin",
            Category::PolicyDenied => "policy_denied",
            Category::BudgetExceeded => "budget_exceeded",
            Category::Timeout => "timeout",
            Category::MemoryLimit => "memory_limit",
            Category::StackLimit => "stack_limit",
            Category::OutputLimit => "output_limit",
            Category::RuntimeError => "runtime_error",
            Category::ToolError => "tool_error",
            Category::SchemaValidation => "schema_validation",
        }
    }
}

/// What a run ended with, before the report is assembled.
pub struct Outcome {
    pub category: Category,
    pub value: Option<Value>,
    pub error: Option<String>,
    pub stdout: String,
    pub instructions: u64,
    pub log: LogStats,
    pub peak_memory_bytes: Option<u64>,
    pub max_call_depth: usize,
}

/// Error texts in reports are cut to this many bytes.
const MAX_ERROR_BYTES: usize = 4096;

fn cut(text: &str) -> String {
    if text.len() <= MAX_ERROR_BYTES {
        return text.to_string();
    }
    let mut end = MAX_ERROR_BYTES - '…'.len_utf8();
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

impl Outcome {
    pub fn failure(category: Category, error: String) -> Outcome {
        Outcome {
            category,
            value: None,
            error: Some(error),
            stdout: String::new(),
            instructions: 0,
            log: LogStats::default(),
            peak_memory_bytes: None,
            max_call_depth: 0,
        }
    }

    pub fn success(value: Value, stdout: String, instructions: u64) -> Outcome {
        Outcome {
            category: Category::Ok,
            value: Some(value),
            error: None,
            stdout,
            instructions,
            log: LogStats::default(),
            peak_memory_bytes: None,
            max_call_depth: 0,
        }
    }

    pub fn from_error(e: &VmError, stdout: String, instructions: u64) -> Outcome {
        let category = match &e.kind {
            ErrorKind::Limit(Limit::Instructions(_) | Limit::Operations(_)) => {
                Category::BudgetExceeded
            }
            ErrorKind::Limit(Limit::Timeout(_)) => Category::Timeout,
            ErrorKind::Limit(Limit::Memory(_)) => Category::MemoryLimit,
            ErrorKind::Limit(Limit::CallDepth(_) | Limit::ValueDepth(_))
            | ErrorKind::StackOverflow => Category::StackLimit,
            ErrorKind::Limit(Limit::Output(_)) => Category::OutputLimit,
            ErrorKind::Egress {
                kind: EgressKind::Policy,
                ..
            } => Category::PolicyDenied,
            ErrorKind::Egress {
                kind: EgressKind::Schema,
                ..
            } => Category::SchemaValidation,
            ErrorKind::Egress {
                kind: EgressKind::Tool,
                ..
            } => Category::ToolError,
            _ => Category::RuntimeError,
        };
        Outcome {
            category,
            value: None,
            error: Some(e.report()),
            stdout,
            instructions,
            log: LogStats::default(),
            peak_memory_bytes: None,
            max_call_depth: 0,
        }
    }
}

pub fn build(
    snippet: &str,
    manifest: &Manifest,
    options: &Options,
    state: &RunState,
    mut outcome: Outcome,
    started: Instant,
) -> Json {
    // The result is measured while serialising: past the output budget the run fails.
    let mut result = Json::Null;
    // stdout plus the compact JSON of the result, when it is delivered (4.14).
    let mut output_bytes = outcome.stdout.len();
    if let Some(v) = &outcome.value {
        // Every element writes at least one byte: a value with more elements than the
        // budget (a structure of shared parts, `x = [x, x]` forty times) cannot fit, and
        // is refused before it is serialised.
        use harn_vm::convert::{Size, size_of};
        let converted: Result<Json, Result<Size, String>> =
            match size_of(v, options.max_output_bytes) {
                Size::Fits => to_json(v, Mode::Result).map_err(Err),
                other => Err(Ok(other)),
            };
        let output_limit = format!(
            "composition output exceeded max_output_bytes={}",
            options.max_output_bytes
        );
        match converted {
            Ok(j) => {
                let bytes = outcome.stdout.len() + j.to_string().len();
                if bytes > options.max_output_bytes {
                    outcome.category = Category::OutputLimit;
                    outcome.error = Some(output_limit);
                } else {
                    output_bytes = bytes;
                    result = j;
                }
            }
            Err(Ok(Size::TooDeep)) => {
                outcome.category = Category::StackLimit;
                outcome.error = Some(format!(
                    "composition exceeded max_value_depth={}",
                    harn_vm::value::MAX_VALUE_DEPTH
                ));
            }
            Err(Ok(_)) => {
                outcome.category = Category::OutputLimit;
                outcome.error = Some(output_limit);
            }
            Err(Err(e)) => {
                outcome.category = Category::RuntimeError;
                outcome.error = Some(e);
            }
        }
    }
    let ok = outcome.category == Category::Ok;
    // Secrets never leave the run: the result, stdout and the error are scanned.
    let mut redactions = state.redactions.get() + state.redactor.json(&mut result);
    let (stdout, n) = state.redactor.text(&outcome.stdout);
    redactions += n;
    let error = outcome.error.as_deref().map(|e| {
        let (e, n) = state.redactor.text(e);
        redactions += n;
        cut(&e)
    });
    state.cancel_pending();
    let results = state.results.borrow().clone();
    // A secret typed into a snippet's arguments is scanned out of the call records too.
    let mut calls = Json::Array(state.calls.borrow().clone());
    redactions += state.redactor.json(&mut calls);
    let summary = match &error {
        Some(e) if !ok => e.clone(),
        _ => format!(
            "composition completed with {} child operation(s)",
            results.len()
        ),
    };
    let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let mut usage = json!({
        "operations": state.ops.get(),
        "instructions": outcome.instructions,
        "output_bytes": output_bytes,
        "max_call_depth": outcome.max_call_depth,
    });
    if let Some(peak) = outcome.peak_memory_bytes {
        usage["peak_memory_bytes"] = json!(peak);
    }
    let log = &outcome.log;
    for (key, n) in [
        ("log_entries", log.entries),
        ("log_entries_dropped", log.dropped),
        ("log_entries_truncated", log.truncated),
        ("redactions", redactions),
    ] {
        if n > 0 {
            usage[key] = json!(n);
        }
    }
    json!({
        "schema_version": 1,
        "ok": ok,
        "run": {
            "run_id": state.run_id,
            "language": options.language,
            "snippet_hash": snippet_hash(&options.language, snippet),
            "binding_manifest_hash": manifest.hash(),
            "requested_side_effect_ceiling": options.requested_ceiling.as_str(),
            "stdout": if stdout.is_empty() { Json::Null } else { Json::String(stdout.clone()) },
            "stderr": Json::Null,
            "artifacts": [],
            "result": if ok { result } else { Json::Null },
            "failure_category": if ok { Json::Null } else { Json::String(outcome.category.as_str().into()) },
            "error": if ok { Json::Null } else { error.clone().map_or(Json::Null, Json::String) },
            "duration_ms": duration_ms,
            "metadata": Json::Object(options.metadata.clone()),
            "usage": usage,
        },
        "child_calls": calls,
        "child_results": results,
        "summary": summary,
    })
}

/// The run envelope of the start event: the report's `run` without `stdout`, `stderr`,
/// `result`, `failure_category`, `error` and `duration_ms`.
pub fn start_envelope(
    snippet: &str,
    manifest: &Manifest,
    options: &Options,
    state: &RunState,
) -> Json {
    json!({
        "run_id": state.run_id,
        "language": options.language,
        "snippet_hash": snippet_hash(&options.language, snippet),
        "binding_manifest_hash": manifest.hash(),
        "requested_side_effect_ceiling": options.requested_ceiling.as_str(),
        "artifacts": [],
        "metadata": Json::Object(options.metadata.clone()),
    })
}

/// The event sequence of a finished report (`code-mode.md` 4.15): start, each call
/// followed by its result, then finish or error. Each event is
/// `{"type", "session_id", "run_id", ...}`.
pub fn events(report: &Json, session_id: Option<&str>) -> Vec<Json> {
    let run = &report["run"];
    let run_id = run["run_id"].clone();
    let session = session_id.map_or(Json::Null, |s| Json::String(s.into()));
    let event = |kind: &str, key: &str, payload: Json| json!({"type": kind, "session_id": session, "run_id": run_id, key: payload});
    let mut start = run.clone();
    if let Some(obj) = start.as_object_mut() {
        for key in [
            "stdout",
            "stderr",
            "result",
            "failure_category",
            "error",
            "duration_ms",
            "usage",
        ] {
            obj.remove(key);
        }
        obj.insert("artifacts".into(), json!([]));
    }
    let mut out = vec![event("composition_start", "run", start)];
    let empty = Vec::new();
    let results = report["child_results"].as_array().unwrap_or(&empty);
    for call in report["child_calls"].as_array().unwrap_or(&empty) {
        out.push(event("composition_child_call", "call", call.clone()));
        for result in results
            .iter()
            .filter(|r| r["tool_call_id"] == call["tool_call_id"])
        {
            out.push(event("composition_child_result", "result", result.clone()));
        }
    }
    let last = if report["ok"] == json!(true) {
        "composition_finish"
    } else {
        "composition_error"
    };
    out.push(event(last, "run", run.clone()));
    out
}
