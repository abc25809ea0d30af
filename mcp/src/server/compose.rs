//! `harn.code.execute_composition`: one governed run per call, each on its own thread
//! with its own single-threaded runtime and a fresh VM (the executor is not `Send`),
//! calling the shared upstream connections. A client's cancellation drops the run,
//! which cancels its in-flight upstream calls.

use std::io::Write;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

use harn_codemode::{
    EventSink, Options, Report, ToolFuture, ToolHost, execute_with_events, fresh_run_id,
};
use harn_compiler::manifest::{Binding, Manifest};
use serde_json::{Value as Json, json};

use super::upstream::Upstreams;

/// Stack of a run's thread: deep snippets end in `stack_limit`, never in an overflow.
const RUN_STACK_BYTES: usize = 16 * 1024 * 1024;

/// Where every run's events go, one JSON line each (shared by all runs).
pub type EventLog = Arc<Mutex<std::io::LineWriter<std::fs::File>>>;

/// The limits a client may set; each is capped by the server's own.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClientLimits {
    pub max_operations: Option<u64>,
    pub timeout_ms: Option<u64>,
    pub max_output_bytes: Option<u64>,
    pub max_concurrent: Option<u64>,
    pub max_concurrent_per_server: Option<u64>,
}

impl ClientLimits {
    /// The server's options lowered (never raised) by the client's limits.
    pub fn apply(&self, mut o: Options) -> Options {
        let lower = |limit: &mut u64, asked: Option<u64>| {
            if let Some(n) = asked {
                *limit = (*limit).min(n);
            }
        };
        lower(&mut o.max_operations, self.max_operations);
        lower(&mut o.timeout_ms, self.timeout_ms);
        lower(&mut o.max_concurrent, self.max_concurrent);
        lower(
            &mut o.max_concurrent_per_server,
            self.max_concurrent_per_server,
        );
        if let Some(n) = self.max_output_bytes {
            o.max_output_bytes = o
                .max_output_bytes
                .min(usize::try_from(n).unwrap_or(usize::MAX));
        }
        o
    }
}

/// Calls go to the upstream whose tool it is.
struct RunHost {
    upstreams: Arc<Upstreams>,
}

impl ToolHost for RunHost {
    fn call(&self, binding: &Binding, input: Json) -> ToolFuture {
        let server = binding.mcp_server().unwrap_or_default().to_string();
        Box::pin(
            self.upstreams
                .call(&server, binding.mcp_tool_name().to_string(), input),
        )
    }

    fn executor_tag(&self, binding: &Binding) -> Json {
        match binding.mcp_server() {
            Some(server) => json!({"kind": "mcp_server", "server_name": server}),
            None => json!({"kind": "mcp_server"}),
        }
    }
}

/// Runs `snippet` on a thread of its own; `None` when `cancelled` finished first (the
/// run was dropped, its upstream calls cancelled).
pub async fn run(
    snippet: String,
    manifest: Manifest,
    mut options: Options,
    upstreams: Arc<Upstreams>,
    events: Option<EventLog>,
    cancelled: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<Option<Report>, String> {
    let run_id = options.run_id.clone().unwrap_or_else(fresh_run_id);
    options.run_id = Some(run_id.clone());
    let (done, report) = tokio::sync::oneshot::channel();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    std::thread::Builder::new()
        .name(format!("harn-run-{run_id}"))
        .stack_size(RUN_STACK_BYTES)
        .spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = done.send(Err(format!("cannot start a run: {e}")));
                    return;
                }
            };
            let sink = events.clone().map(event_sink);
            let host: Rc<dyn ToolHost> = Rc::new(RunHost { upstreams });
            let outcome = runtime.block_on(async {
                tokio::select! {
                    report = execute_with_events(&snippet, &manifest, &options, host, sink) => Some(report),
                    _ = stopped => None,
                }
            });
            if outcome.is_none()
                && let Some(log) = &events
            {
                write_event(log, &json!({"type": "composition_cancelled", "run_id": run_id}));
            }
            let _ = done.send(Ok(outcome));
        })
        .map_err(|e| format!("cannot start a run: {e}"))?;
    tokio::select! {
        finished = report => finished.unwrap_or_else(|_| Err("the run ended without a report".into())),
        () = cancelled => {
            let _ = stop.send(());
            Ok(None)
        }
    }
}

fn write_event(log: &EventLog, event: &Json) {
    let mut out = log.lock().unwrap_or_else(|p| p.into_inner());
    // A full disk must not fail the run: events are a record, not the result.
    let _ = writeln!(out, "{event}");
}

fn event_sink(log: EventLog) -> EventSink {
    Rc::new(move |event: &Json| write_event(&log, event))
}

/// The reduced envelope (`code-mode.md` 9): what the model sees by default.
pub fn envelope(report: &Report) -> Json {
    json!({
        "ok": report.ok,
        "result": report.run.result,
        "error": report.run.error,
        "failure_category": report.run.failure_category.map(|c| c.as_str()),
        "run_id": report.run.envelope.run_id,
        "child_call_count": report.child_calls.len(),
    })
}
