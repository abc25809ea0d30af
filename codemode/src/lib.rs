//! harn-codemode: governed code mode (`code-mode.md` 4). The executor runs one snippet
//! against a binding manifest in a fresh code-mode VM whose only egress is the
//! manifest's tools, and returns the report; it never fails: every problem becomes a
//! report with a typed failure category. Also here: the tool hosts that need no
//! transport (mock, fixtures), the report and its events, and run set-up (options and
//! manifest loading) shared by every front end (`harnc run`, `composition_execute`, the
//! MCP server).
//!
//! **Must not depend on** the standard library, codegen, the language server or any MCP
//! transport: a host that talks to a real server implements [`ToolHost`] elsewhere
//! (`harn-mcp`).
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod closure_host;
mod egress;
mod fixtures;
mod host;
mod mock_instance;
mod options;
mod prepared;
pub mod record;
mod recording;
mod report;
mod retry;
mod schema;
mod scope;
mod secrets;
pub mod setup;
mod state_store;

use std::rc::Rc;
use std::time::Instant;

use harn_compiler::diagnostic::StaticCategory;
use harn_compiler::manifest::{Level, Manifest, validate_stages};
use harn_compiler::pipeline;
use serde_json::Value as Json;

pub use closure_host::ClosureHost;
pub use fixtures::FixturesHost;
pub use harn_vm::convert::{Mode, from_json, to_json};
pub use host::{MockHost, ToolError, ToolFuture, ToolHost};
pub use options::{Options, RetryOptions, SecretPolicy};
pub use prepared::PreparedManifest;
pub use record::{CallRecord, ChildCategory, Report, ResultRecord};
pub use recording::RecordingHost;
pub use report::Category;

use egress::{ExecEgress, RunState};
use harn_vm::global;
use harn_vm::interp::{Limits, Vm};
use harn_vm::registry::Profile;
use report::Outcome;

pub use harn_compiler::pipeline::MAX_SNIPPET_BYTES;

/// Receives each event of a run as it happens (`code-mode.md` 4.15).
pub type EventSink = Rc<dyn Fn(&Json)>;

/// Runs `snippet` against `manifest` and returns the report JSON.
pub async fn execute(
    snippet: &str,
    manifest: &Manifest,
    options: &Options,
    host: Rc<dyn ToolHost>,
) -> Report {
    execute_with_events(snippet, manifest, options, host, None).await
}

/// [`execute`] against a manifest prepared once ([`PreparedManifest::new`]): a host that
/// runs many snippets against one tool surface pays for its hash, binding JSON and
/// compiled schemas once instead of on every run.
pub async fn execute_prepared(
    snippet: &str,
    prepared: &Rc<PreparedManifest>,
    options: &Options,
    host: Rc<dyn ToolHost>,
    sink: Option<EventSink>,
) -> Report {
    let started = Instant::now();
    let run_id = options.run_id.clone().unwrap_or_else(fresh_run_id);
    let state = Rc::new(RunState::new(
        run_id,
        Rc::clone(prepared),
        options.clone(),
        host,
        started + std::time::Duration::from_millis(options.timeout_ms),
        sink,
    ));
    state.emit("composition_start", "run", || {
        record::to_json(&report::envelope(snippet, options, &state))
    });
    let outcome = run(snippet, options, &state, started).await;
    let report = report::build(snippet, options, &state, outcome, started);
    let last = if report.ok {
        "composition_finish"
    } else {
        "composition_error"
    };
    state.emit(last, "run", || record::to_json(&report.run));
    report
}

/// [`execute`], sending events live to `sink`: start, each child call and result as
/// they are recorded, then finish or error with the full `run`.
pub async fn execute_with_events(
    snippet: &str,
    manifest: &Manifest,
    options: &Options,
    host: Rc<dyn ToolHost>,
    sink: Option<EventSink>,
) -> Report {
    let prepared = PreparedManifest::new(manifest.clone());
    execute_prepared(snippet, &prepared, options, host, sink).await
}

/// The report of a run whose options were invalid (`schema_validation`, no child
/// calls): what `composition_execute` returns instead of throwing.
pub fn invalid_options_report(snippet: &str, manifest: &Manifest, problem: &str) -> Report {
    failure_report(snippet, manifest, Category::SchemaValidation, problem)
}

/// The report of a run that could not start (`category`, no child calls): invalid
/// options or manifest, a snippet that is not text.
pub fn failure_report(
    snippet: &str,
    manifest: &Manifest,
    category: Category,
    problem: &str,
) -> Report {
    let started = Instant::now();
    let options = Options::default();
    let state = RunState::new(
        fresh_run_id(),
        PreparedManifest::new(manifest.clone()),
        options.clone(),
        Rc::new(MockHost),
        started,
        None,
    );
    let outcome = Outcome::failure(category, problem.to_string());
    report::build(snippet, &options, &state, outcome, started)
}

/// A new run id: a fresh UUIDv7 (`code-mode.md` 4.1).
pub fn fresh_run_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// The checker's warnings as report records, with 1-based line and column.
fn diagnostic_records(
    snippet: &str,
    warnings: &[harn_compiler::Diagnostic],
) -> Vec<record::DiagnosticRecord> {
    if warnings.is_empty() {
        // Most runs: no line table to build (it copies the snippet).
        return Vec::new();
    }
    let index = harn_compiler::LineIndex::new(snippet);
    warnings
        .iter()
        .map(|d| {
            let (line, column) = index.line_col(d.primary.span.start as usize);
            record::DiagnosticRecord {
                code: d.code,
                severity: d.severity.as_str(),
                message: d.message.clone(),
                line,
                column,
            }
        })
        .collect()
}

/// The report category of a static refusal.
pub fn static_category(c: StaticCategory) -> Category {
    match c {
        StaticCategory::CompileError => Category::CompileError,
        StaticCategory::DeniedBuiltin => Category::DeniedBuiltin,
        StaticCategory::PolicyDenied => Category::PolicyDenied,
    }
}

async fn run(snippet: &str, options: &Options, state: &Rc<RunState>, started: Instant) -> Outcome {
    if options.language != "harn" {
        return Outcome::failure(
            Category::CompileError,
            format!("unsupported composition language '{}'", options.language),
        );
    }
    if options.requested_ceiling.rank() > Level::ReadOnly.rank() {
        return Outcome::failure(
            Category::PolicyDenied,
            "read-only composition executor refuses side-effect ceilings above read_only".into(),
        );
    }
    let stages = validate_stages(&options.stages, options.stage.as_deref(), &state.manifest)
        .and_then(|()| validate_stages(&options.scope, None, &state.manifest));
    if let Err(problem) = stages {
        return Outcome::failure(Category::SchemaValidation, problem);
    }
    // The ambient allow-list fails closed too: an entry that names no tool is a typo.
    for tool in options.allowed_tools.iter().flatten() {
        if let Some(hint) = state.manifest.unknown_tool_hint(tool) {
            return Outcome::failure(
                Category::SchemaValidation,
                format!("invalid option 'allowed_tools': unknown tool '{tool}'{hint}"),
            );
        }
    }
    let checked =
        pipeline::check_snippet_with(snippet, &state.manifest, &state.prepared.binding_names);
    let (proto, warnings) = match checked {
        Ok(accepted) => (Rc::new(accepted.proto), accepted.warnings),
        Err(refusal) => {
            return Outcome::failure(static_category(refusal.category), refusal.message);
        }
    };
    let mut vm = Vm::new(global(), Profile::CodeMode);
    vm.load(proto);
    vm.set_limits(Limits {
        max_instructions: Some(options.max_instructions),
        deadline: Some((
            started + std::time::Duration::from_millis(options.timeout_ms),
            options.timeout_ms,
        )),
        max_output_bytes: Some(options.max_output_bytes),
        max_call_depth: Some(options.max_call_depth),
        max_concurrent: Some(options.max_concurrent),
        max_log_entries: Some(options.max_log_entries),
        max_log_entry_bytes: Some(options.max_log_entry_bytes),
        max_memory_bytes: Some(options.max_memory_bytes),
        max_string_bytes: Some(options.max_string_bytes),
        max_collection_len: Some(options.max_collection_len),
    });
    vm.set_egress(Rc::new(ExecEgress {
        state: state.clone(),
    }));
    let result = vm.run().await;
    let stdout = vm.take_output();
    let instructions = vm.instructions_used();
    let mut outcome = match result {
        Ok(value) => Outcome::success(value, stdout, instructions),
        Err(e) => Outcome::from_error(&e, stdout, instructions),
    };
    outcome.log = vm.log_stats();
    outcome.peak_memory_bytes = vm.peak_memory_bytes();
    outcome.max_call_depth = vm.max_depth_used();
    outcome.diagnostics = diagnostic_records(snippet, &warnings);
    outcome
}
