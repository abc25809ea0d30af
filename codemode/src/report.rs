//! The run report (`code-mode.md` 4.9, 4.14). The failure category is decided from
//! the kind of the error that ended the run, never from message text.

use std::time::Instant;

use harn_compiler::manifest::snippet_hash;
use serde_json::Value as Json;

use crate::egress::RunState;
use crate::options::Options;
use crate::record::{DiagnosticRecord, Envelope, Report, RunRecord, Usage};
use harn_vm::convert::{Mode, to_json};
use harn_vm::error::{EgressKind, ErrorKind, Limit, VmError};
use harn_vm::interp::LogStats;
use harn_vm::value::Value;

/// The run's outcome category (`ok` for success).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
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
    /// The static stage's warnings.
    pub diagnostics: Vec<DiagnosticRecord>,
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
    /// An outcome with no run statistics yet (the caller fills what it measured).
    fn new(
        category: Category,
        value: Option<Value>,
        error: Option<String>,
        stdout: String,
        instructions: u64,
    ) -> Outcome {
        Outcome {
            category,
            value,
            error,
            stdout,
            instructions,
            log: LogStats::default(),
            peak_memory_bytes: None,
            max_call_depth: 0,
            diagnostics: Vec::new(),
        }
    }

    pub fn failure(category: Category, error: String) -> Outcome {
        Outcome::new(category, None, Some(error), String::new(), 0)
    }

    pub fn success(value: Value, stdout: String, instructions: u64) -> Outcome {
        Outcome::new(Category::Ok, Some(value), None, stdout, instructions)
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
        Outcome::new(category, None, Some(e.report()), stdout, instructions)
    }
}

/// The run's report. It takes the state's call and result records (the state is done
/// with once the run has ended).
/// The length of `j` serialised compactly, as `to_string` writes it, counted without
/// building the text (that text was built on every run only to be measured).
fn compact_len(j: &Json) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    // Counting cannot fail, and a JSON value's keys are strings, so serialising cannot
    // either.
    let _ = serde_json::to_writer(&mut counter, j);
    counter.0
}

pub fn build(
    snippet: &str,
    options: &Options,
    state: &RunState,
    mut outcome: Outcome,
    started: Instant,
) -> Report {
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
        let output_limit = || {
            format!(
                "composition output exceeded max_output_bytes={}",
                options.max_output_bytes
            )
        };
        match converted {
            Ok(j) => {
                let bytes = outcome.stdout.len() + compact_len(&j);
                if bytes > options.max_output_bytes {
                    outcome.category = Category::OutputLimit;
                    outcome.error = Some(output_limit());
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
                outcome.error = Some(output_limit());
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
    // The report is the records' last reader: they move into it rather than being copied.
    let results = state.results.take();
    // A secret typed into a snippet's arguments is scanned out of the call records too.
    let mut calls = state.calls.take();
    for call in &mut calls {
        redactions += state.redactor.call(call);
    }
    let summary = match &error {
        Some(e) if !ok => e.clone(),
        _ => format!(
            "composition completed with {} child operation(s)",
            results.len()
        ),
    };
    let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let log = &outcome.log;
    let usage = Usage {
        operations: state.ops.get(),
        instructions: outcome.instructions,
        output_bytes,
        max_call_depth: outcome.max_call_depth,
        peak_memory_bytes: outcome.peak_memory_bytes,
        log_entries: log.entries,
        log_entries_dropped: log.dropped,
        log_entries_truncated: log.truncated,
        redactions,
    };
    Report {
        schema_version: 1,
        ok,
        run: RunRecord {
            envelope: envelope(snippet, options, state),
            stdout: (!stdout.is_empty()).then_some(stdout),
            stderr: None,
            result: if ok { result } else { Json::Null },
            failure_category: (!ok).then_some(outcome.category),
            error: if ok { None } else { error },
            duration_ms,
            usage,
            diagnostics: std::mem::take(&mut outcome.diagnostics),
        },
        child_calls: calls,
        child_results: results,
        summary,
    }
}

/// The run's identity: the start event's payload and the head of the run record.
pub fn envelope(snippet: &str, options: &Options, state: &RunState) -> Envelope {
    Envelope {
        run_id: state.run_id.clone(),
        language: options.language.clone(),
        snippet_hash: snippet_hash(&options.language, snippet),
        binding_manifest_hash: state.prepared.hash.clone(),
        requested_side_effect_ceiling: options.requested_ceiling.as_str(),
        artifacts: Vec::new(),
        metadata: options.metadata.clone(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::compact_len;
    use serde_json::json;

    #[test]
    fn compact_len_is_the_length_of_the_compact_text() {
        for value in [
            json!(null),
            json!(-12.5),
            json!("tab\t, quote \", é, 😀, \u{1}"),
            json!({"b": [1, 2, {"c": null}], "a": "x"}),
            json!([[], {}, true, 1e300]),
        ] {
            assert_eq!(compact_len(&value), value.to_string().len(), "{value}");
        }
    }
}
