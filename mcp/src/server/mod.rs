//! `harnc serve-mcp` (`code-mode.md` 9): an MCP server whose three tools let an agent
//! find examples, read the typed API of the configured upstream servers' tools, and run
//! one snippet that composes them, read-only. Served over stdio or, on `--listen`,
//! the streamable HTTP transport.
//!
//! **API boundary**: [`CodeModeServer::start`] (configuration in, a running server
//! out), [`CodeModeServer::serve_stdio`], [`CodeModeServer::serve_http`]. A host
//! program can embed the server through these alone.

mod catalog;
mod compose;
pub mod config;
mod examples;
mod http;
mod rank;
mod tools;
mod upstream;

use std::sync::{Arc, Mutex, OnceLock, RwLock, Weak};
use std::time::Duration;

use harn_codemode::Options;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ErrorCode, ErrorData,
    InitializeResult, ListToolsResult, PaginatedRequestParams,
};
use rmcp::service::{NotificationContext, Peer, RequestContext};
use rmcp::{RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value as Json, json};

use crate::ConnectOptions;
use catalog::{Catalog, api_answer, select_bindings, select_by_query};
use compose::ClientLimits;
pub use compose::EventLog;
pub use config::{ConfigError, ServerConfig};
pub use tools::{PRIMER, Tool, ToolNames};
use upstream::Upstreams;

/// How the server runs (besides its configuration file).
#[derive(Clone, Default)]
pub struct ServeOptions {
    pub tool_names: ToolNames,
    /// Every run's events are appended here as JSON lines.
    pub events: Option<EventLog>,
    /// How long an upstream may take to start (default 10 s).
    pub connect_timeout: Option<Duration>,
    /// Let the upstreams' stderr through.
    pub show_stderr: bool,
}

/// Why the server could not start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartError(pub String);

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

struct State {
    config: ServerConfig,
    /// The server's executor options: every run starts from these.
    options: Options,
    serve: ServeOptions,
    upstreams: OnceLock<Arc<Upstreams>>,
    catalog: RwLock<Arc<Catalog>>,
    /// Connected clients, told when the tools change.
    clients: Mutex<Vec<Peer<RoleServer>>>,
}

/// The running server; cheap to clone (every HTTP session gets a clone).
#[derive(Clone)]
pub struct CodeModeServer {
    state: Arc<State>,
}

fn invalid(message: impl Into<String>) -> ErrorData {
    ErrorData::invalid_params(message.into(), None)
}

impl CodeModeServer {
    /// Checks the executor settings, starts every upstream (at once) and builds the
    /// manifest. An upstream that fails to start does not stop the server (it is
    /// reported in the manifest's diagnostics); settings that cannot work do.
    pub async fn start(
        config: ServerConfig,
        serve: ServeOptions,
    ) -> Result<CodeModeServer, StartError> {
        let options = config
            .policy
            .options(&config.host)
            .map_err(|e| StartError(format!("invalid executor settings: {e}")))?;
        let per_server = options.max_concurrent_per_server;
        let state = Arc::new(State {
            config,
            options,
            serve,
            upstreams: OnceLock::new(),
            catalog: RwLock::new(Arc::new(Catalog::default())),
            clients: Mutex::new(Vec::new()),
        });
        let weak = Arc::downgrade(&state);
        let changed: crate::ToolsChanged = Arc::new(move || rebuild(&weak));
        let connect = ConnectOptions {
            timeout: state
                .serve
                .connect_timeout
                .unwrap_or(crate::DEFAULT_CONNECT_TIMEOUT),
            show_stderr: state.serve.show_stderr,
            on_tools_changed: None,
        };
        let upstreams =
            Upstreams::start(&state.config.upstreams, connect, per_server, changed).await;
        let _ = state.upstreams.set(upstreams);
        rebuild(&Arc::downgrade(&state));
        let server = CodeModeServer { state };
        let catalog = server.catalog();
        let all_ready = catalog
            .servers
            .as_array()
            .is_some_and(|s| s.iter().all(|s| s["status"] == "ready"));
        if all_ready
            && let Some(lists) = catalog
                .diagnostics
                .iter()
                .find(|d| d.starts_with("no tools are served"))
        {
            server.shutdown().await;
            return Err(StartError(lists.clone()));
        }
        Ok(server)
    }

    fn catalog(&self) -> Arc<Catalog> {
        Arc::clone(&self.state.catalog.read().unwrap_or_else(|p| p.into_inner()))
    }

    fn upstreams(&self) -> Option<&Arc<Upstreams>> {
        self.state.upstreams.get()
    }

    /// The servers' status and the manifest's diagnostics (for start-up messages).
    pub fn status(&self) -> Json {
        let catalog = self.catalog();
        json!({"servers": catalog.servers, "tool_count": catalog.visible.bindings.len(),
               "diagnostics": catalog.diagnostics})
    }

    /// Serves one client on stdin/stdout until it disconnects, then stops the
    /// upstreams.
    pub async fn serve_stdio(self) -> Result<(), String> {
        let transport = (tokio::io::stdin(), tokio::io::stdout());
        let running = self
            .clone()
            .serve(transport)
            .await
            .map_err(|e| format!("MCP session failed to start: {e}"))?;
        let ended = running.waiting().await;
        self.shutdown().await;
        ended
            .map(|_| ())
            .map_err(|e| format!("MCP session ended with an error: {e}"))
    }

    /// Serves the streamable HTTP transport on `addr` until the process ends.
    pub async fn serve_http(self, addr: std::net::SocketAddr) -> Result<(), String> {
        http::serve(self, addr).await
    }

    /// Stops every upstream.
    pub async fn shutdown(&self) {
        if let Some(upstreams) = self.upstreams() {
            upstreams.shutdown().await;
        }
    }

    fn list(&self) -> Vec<Json> {
        let catalog = self.catalog();
        Tool::ALL
            .iter()
            .map(|t| t.definition(self.state.serve.tool_names, &catalog))
            .collect()
    }

    async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let names = self.state.serve.tool_names;
        let tool = Tool::find(&request.name, names).ok_or_else(|| {
            let known: Vec<String> = Tool::ALL.iter().map(|t| t.name(names)).collect();
            invalid(format!(
                "unknown tool '{}' (this server has {})",
                request.name,
                known.join(", ")
            ))
        })?;
        let args = tool.arguments(request.arguments).map_err(invalid)?;
        if let Some(upstreams) = self.upstreams() {
            upstreams.retry_failed();
        }
        let catalog = self.catalog();
        match tool {
            Tool::SearchExamples => {
                let query = args.string("query").map_err(invalid)?;
                let limit = args.count("limit", 50).map_err(invalid)?.unwrap_or(10);
                let found = examples::search(&catalog.visible, query, limit as usize);
                Ok(CallToolResult::structured(json!({"examples": found})))
            }
            Tool::GenerateApi => {
                let query = args.string("query").map_err(invalid)?;
                let limit = args
                    .count("limit", u64::from(u32::MAX))
                    .map_err(invalid)?
                    .unwrap_or(20);
                let format = args.string("format").map_err(invalid)?.unwrap_or("harn");
                if !["harn", "typescript", "compact"].contains(&format) {
                    return Err(invalid(format!(
                        "parameter 'format' must be \"harn\", \"typescript\" or \"compact\", not \"{format}\""
                    )));
                }
                let selected = select_by_query(&catalog.visible, query, limit as usize);
                Ok(CallToolResult::structured(api_answer(
                    &catalog, &selected, format,
                )))
            }
            Tool::Execute => self.execute(&catalog, &args, context).await,
        }
    }

    async fn execute(
        &self,
        catalog: &Catalog,
        args: &tools::Arguments,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let snippet = args
            .string("snippet")
            .map_err(invalid)?
            .ok_or_else(|| invalid("missing parameter 'snippet': the Harn program to run"))?
            .to_string();
        let names = args.strings("bindings").map_err(invalid)?;
        let manifest = args.object("manifest").map_err(invalid)?;
        let manifest = select_bindings(catalog, names.as_deref(), manifest).map_err(invalid)?;
        let max = u64::MAX;
        let limits = ClientLimits {
            max_operations: args.count("max_operations", max).map_err(invalid)?,
            timeout_ms: args.count("timeout_ms", max).map_err(invalid)?,
            max_output_bytes: args.count("max_output_bytes", max).map_err(invalid)?,
            max_concurrent: args.count("max_concurrent", max).map_err(invalid)?,
            max_concurrent_per_server: args
                .count("max_concurrent_per_server", max)
                .map_err(invalid)?,
        };
        let mut options = limits.apply(self.state.options.clone());
        if let Some(id) = args.string("run_id").map_err(invalid)? {
            options.run_id = Some(id.to_string());
        }
        let full = args.flag("include_report").map_err(invalid)?;
        let Some(upstreams) = self.upstreams().cloned() else {
            return Err(ErrorData::internal_error(
                "the upstream servers are not started",
                None,
            ));
        };
        let cancelled = context.ct.clone().cancelled_owned();
        let report = compose::run(
            snippet,
            manifest,
            options,
            upstreams,
            self.state.serve.events.clone(),
            cancelled,
        )
        .await
        .map_err(|e| ErrorData::internal_error(e, None))?;
        let Some(report) = report else {
            return Err(ErrorData::new(
                ErrorCode(-32800),
                "request cancelled by the client",
                None,
            ));
        };
        let body = if full {
            report.to_json()
        } else {
            compose::envelope(&report)
        };
        Ok(if report.ok {
            CallToolResult::structured(body)
        } else {
            CallToolResult::structured_error(body)
        })
    }
}

/// Rebuilds the catalog from the upstreams' current tools; tells the clients when the
/// visible tools changed (the `execute_composition` description carries their API).
fn rebuild(state: &Weak<State>) {
    let Some(state) = state.upgrade() else { return };
    let Some(upstreams) = state.upstreams.get() else {
        return;
    };
    let fresh = Catalog::build(&upstreams.snapshot(), &state.config);
    let changed = {
        let mut current = state.catalog.write().unwrap_or_else(|p| p.into_inner());
        let changed = current.visible.hash() != fresh.visible.hash();
        *current = Arc::new(fresh);
        changed
    };
    if !changed {
        return;
    }
    let clients: Vec<Peer<RoleServer>> = state
        .clients
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .clone();
    if clients.is_empty() {
        return;
    }
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    let state = Arc::downgrade(&state);
    runtime.spawn(async move {
        let mut gone = Vec::new();
        for (i, peer) in clients.iter().enumerate() {
            if peer.notify_tool_list_changed().await.is_err() {
                gone.push(i);
            }
        }
        if let Some(state) = state.upgrade()
            && !gone.is_empty()
        {
            let mut list = state.clients.lock().unwrap_or_else(|p| p.into_inner());
            list.retain(|p| !p.is_transport_closed());
        }
    });
}

impl ServerHandler for CodeModeServer {
    fn get_info(&self) -> InitializeResult {
        let names = self.state.serve.tool_names;
        let info = json!({
            "protocolVersion": rmcp::model::ProtocolVersion::default(),
            "capabilities": {"tools": {"listChanged": true}},
            "serverInfo": {"name": "harnc", "title": "Harn code mode", "version": env!("CARGO_PKG_VERSION")},
            "instructions": format!(
                "Use {} to run one Harn snippet that calls several tools and returns only the \
                 value you need; {} gives the typed API and {} shows example snippets.",
                Tool::Execute.name(names),
                Tool::GenerateApi.name(names),
                Tool::SearchExamples.name(names)
            ),
        });
        serde_json::from_value(info).unwrap_or_else(|_| InitializeResult::new(Default::default()))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        serde_json::from_value(json!({"tools": self.list()}))
            .map_err(|e| ErrorData::internal_error(format!("tool list: {e}"), None))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(request, context)
            .await
            .map(CallToolResponse::from)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let mut clients = self.state.clients.lock().unwrap_or_else(|p| p.into_inner());
        clients.retain(|p| !p.is_transport_closed());
        clients.push(context.peer);
    }
}
