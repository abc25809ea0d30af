//! The client side: one upstream MCP server over stdio. [`McpHost`] spawns it, completes
//! the handshake within a deadline, lists its tools and performs child calls as
//! `tools/call`; [`ListWatch`] hears its `notifications/tools/list_changed`.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use harn_codemode::{ChildCategory, ToolError, ToolFuture, ToolHost};
use harn_compiler::manifest::{Binding, tag_mcp_server};
use rmcp::handler::client::ClientHandler;
use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock};
use rmcp::service::{NotificationContext, Peer, RunningService};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{RoleClient, ServiceError, ServiceExt};
use serde_json::{Value as Json, json};

use crate::command::split_command;
use crate::spawn::{self, ConnectError, StderrTail};

/// How long connecting (spawn, `initialize`, `tools/list`) may take by default.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Largest single message accepted from a server.
const MAX_MESSAGE_BYTES: usize = 256 * 1024 * 1024;

/// Called when a server says its tool list changed.
pub type ToolsChanged = Arc<dyn Fn() + Send + Sync>;

/// How to connect.
#[derive(Clone)]
pub struct ConnectOptions {
    /// Start-up (spawn, `initialize`, `tools/list`) must finish within this.
    pub timeout: Duration,
    /// Pass the server's stderr through (it is always kept for failure reports).
    pub show_stderr: bool,
    /// Told about `notifications/tools/list_changed`.
    pub on_tools_changed: Option<ToolsChanged>,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            timeout: DEFAULT_CONNECT_TIMEOUT,
            show_stderr: false,
            on_tools_changed: None,
        }
    }
}

/// How to start a server: a program, its arguments and extra environment (no shell).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerCommand {
    pub program: String,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
}

impl ServerCommand {
    /// A command line split into words (`node "my server.js" --root /tmp`).
    pub fn parse(command_line: &str) -> Result<ServerCommand, ConnectError> {
        let words = split_command(command_line).map_err(ConnectError::Usage)?;
        let Some((program, args)) = words.split_first() else {
            return Err(ConnectError::Usage("the --mcp command is empty".into()));
        };
        Ok(ServerCommand {
            program: program.clone(),
            args: args.to_vec(),
            env: Vec::new(),
        })
    }

    /// The command as one line, for messages.
    pub fn display(&self) -> String {
        std::iter::once(self.program.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The client handler: hears a server's tool-list changes (nothing else is asked of a
/// client here).
#[derive(Clone, Default)]
struct ListWatch {
    on_tools_changed: Option<ToolsChanged>,
}

impl ClientHandler for ListWatch {
    fn on_tool_list_changed(
        &self,
        _context: NotificationContext<RoleClient>,
    ) -> impl Future<Output = ()> + Send + '_ {
        if let Some(tell) = &self.on_tools_changed {
            tell();
        }
        std::future::ready(())
    }
}

/// A connected MCP server.
pub struct McpHost {
    service: RunningService<RoleClient, ListWatch>,
    server: String,
    command: String,
    child: tokio::process::Child,
    stderr: StderrTail,
    /// When start-up must be over (`tools/list` included).
    ready_by: Instant,
    timeout: Duration,
}

impl McpHost {
    /// Spawns `command_line` (program and arguments, no shell) and completes the MCP
    /// handshake within the default start-up time. The server's stderr is passed
    /// through when `show_stderr`.
    pub async fn connect(command_line: &str, show_stderr: bool) -> Result<McpHost, ConnectError> {
        let options = ConnectOptions {
            show_stderr,
            ..ConnectOptions::default()
        };
        McpHost::connect_with(command_line, &options).await
    }

    /// [`McpHost::connect`] with explicit options.
    pub async fn connect_with(
        command_line: &str,
        options: &ConnectOptions,
    ) -> Result<McpHost, ConnectError> {
        McpHost::start(&ServerCommand::parse(command_line)?, options).await
    }

    /// Starts `command` and completes the handshake within `options.timeout`.
    pub async fn start(
        command: &ServerCommand,
        options: &ConnectOptions,
    ) -> Result<McpHost, ConnectError> {
        let ready_by = Instant::now() + options.timeout;
        let command_line = command.display();
        let mut child = spawn::spawn(command)?;
        let (Some(stdout), Some(stdin), Some(stderr)) =
            (child.stdout.take(), child.stdin.take(), child.stderr.take())
        else {
            return Err(ConnectError::Server(format!(
                "MCP server '{}': no stdio pipes",
                command.program
            )));
        };
        let stderr = StderrTail::collect(stderr, options.show_stderr);
        let transport = AsyncRwTransport::<RoleClient, _, _>::new(stdout, stdin)
            .with_max_line_length(MAX_MESSAGE_BYTES);
        let ms = options.timeout.as_millis();
        let handler = ListWatch {
            on_tools_changed: options.on_tools_changed.clone(),
        };
        let service = match tokio::time::timeout_at(ready_by.into(), handler.serve(transport)).await
        {
            Ok(Ok(service)) => service,
            Ok(Err(e)) => {
                let how = match spawn::exit_status(&mut child).await {
                    Some(status) => format!("exited ({status}) before answering initialize"),
                    None => format!("failed to initialize: {e}"),
                };
                return Err(ConnectError::Server(format!(
                    "MCP server {command_line} {how}{}",
                    stderr.describe()
                )));
            }
            Err(_) => {
                return Err(ConnectError::Server(format!(
                    "MCP server {command_line} did not answer initialize within {ms} ms{}",
                    stderr.describe()
                )));
            }
        };
        let server = service
            .peer_info()
            .and_then(|info| info.server_info.as_ref().map(|i| i.name.clone()))
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| program_name(&command.program));
        Ok(McpHost {
            service,
            server,
            command: command_line,
            child,
            stderr,
            ready_by,
            timeout: options.timeout,
        })
    }

    /// Whether the connection is gone (the server exited or closed its output).
    pub fn is_closed(&self) -> bool {
        self.service.peer().is_transport_closed()
    }

    /// The command line and the last lines of the server's stderr, for messages.
    pub fn describe(&self) -> String {
        format!("{}{}", self.command, self.stderr.describe())
    }

    /// A handle that performs calls from any thread or runtime.
    pub fn caller(&self) -> Caller {
        Caller(self.service.peer().clone())
    }

    /// The tool list again (after `notifications/tools/list_changed`), within `timeout`.
    pub async fn relist(&self, timeout: Duration) -> Result<Json, ConnectError> {
        self.list_by(Instant::now() + timeout, timeout).await
    }

    /// The server's tools as a tool surface (`{"tools": [...]}`), each tagged with the
    /// server so bindings read `source: "mcp_server"`. Bounded by the start-up time.
    pub async fn tool_surface(&self) -> Result<Json, ConnectError> {
        self.list_by(self.ready_by, self.timeout).await
    }

    async fn list_by(&self, by: Instant, timeout: Duration) -> Result<Json, ConnectError> {
        let listed = tokio::time::timeout_at(by.into(), self.service.peer().list_all_tools()).await;
        let tools = match listed {
            Ok(Ok(tools)) => tools,
            Ok(Err(e)) => {
                return Err(ConnectError::Server(format!(
                    "MCP server {} failed tools/list: {e}{}",
                    self.command,
                    self.stderr.describe()
                )));
            }
            Err(_) => {
                return Err(ConnectError::Server(format!(
                    "MCP server {} did not answer tools/list within {} ms{}",
                    self.command,
                    timeout.as_millis(),
                    self.stderr.describe()
                )));
            }
        };
        let tools = serde_json::to_value(tools)
            .map_err(|e| ConnectError::Server(format!("MCP tools/list result: {e}")))?;
        Ok(tag_mcp_server(&json!({ "tools": tools }), &self.server))
    }

    /// The server's name: the one it gives in `initialize`, or its program's.
    pub fn name(&self) -> &str {
        &self.server
    }

    /// Names the server (`--mcp NAME=CMD`); its tools are tagged with this name.
    pub fn set_name(&mut self, name: &str) {
        self.server = name.to_string();
    }

    /// Stops the server: the connection (and so its stdin) closes, then it has a
    /// short grace to exit before it is killed.
    pub async fn shutdown(self) {
        let McpHost { service, child, .. } = self;
        let _ = tokio::time::timeout(Duration::from_millis(100), service.cancel()).await;
        spawn::stop(child).await;
    }
}

fn program_name(program: &str) -> String {
    std::path::Path::new(program)
        .file_name()
        .map_or_else(|| program.to_string(), |n| n.to_string_lossy().into_owned())
}

/// The value a successful `tools/call` gives the snippet: `structuredContent` if
/// present; else a single text item as a string; else the `content` array. Taken by
/// value, never copied: the message was parsed on the transport's thread, and a copy
/// made here would be charged to the run a second time.
fn success_value(mut result: CallToolResult) -> Json {
    if let Some(structured) = result.structured_content.take() {
        return structured;
    }
    if result.content.len() == 1
        && let Some(ContentBlock::Text(only)) = result.content.pop()
    {
        return Json::String(only.text);
    }
    serde_json::to_value(&result.content).unwrap_or(Json::Null)
}

/// The first text item of a result, for `isError` results.
fn first_text(result: &CallToolResult) -> String {
    serde_json::to_value(&result.content)
        .ok()
        .and_then(|c| {
            c.as_array()?
                .iter()
                .find_map(|i| i.get("text")?.as_str().map(str::to_string))
        })
        .unwrap_or_else(|| "the tool reported an error without text".into())
}

fn service_error(e: ServiceError) -> ToolError {
    match e {
        ServiceError::McpError(data) => {
            let mut message = format!("MCP server error: {}", data.message);
            if let Some(extra) = &data.data {
                message.push_str(&format!("; data={extra}"));
            }
            ToolError::new(ChildCategory::McpServerError, message)
        }
        ServiceError::Timeout { .. } => ToolError::new(ChildCategory::Timeout, e.to_string()),
        other => ToolError::new(
            ChildCategory::Network,
            format!("MCP transport failure: {other}"),
        ),
    }
}

/// Performs `tools/call` on one server; cheap to clone, usable from any thread.
#[derive(Clone)]
pub struct Caller(Peer<RoleClient>);

impl Caller {
    /// Calls `tool` with `input` (an object or null); the value a snippet sees, or a
    /// typed error. Dropping the future cancels the request on the server.
    pub fn call(
        &self,
        tool: String,
        input: Json,
    ) -> impl Future<Output = Result<Json, ToolError>> + Send + 'static {
        let peer = self.0.clone();
        async move {
            let mut params = CallToolRequestParams::new(tool);
            params.arguments = match input {
                Json::Object(map) => Some(map),
                Json::Null => None,
                other => {
                    return Err(ToolError::new(
                        ChildCategory::SchemaValidation,
                        format!("MCP tool arguments must be an object, got {other}"),
                    ));
                }
            };
            let result = peer.call_tool(params).await.map_err(service_error)?;
            if result.is_error == Some(true) {
                return Err(ToolError::new(
                    ChildCategory::ToolError,
                    first_text(&result),
                ));
            }
            Ok(success_value(result))
        }
    }
}

impl ToolHost for McpHost {
    fn call(&self, binding: &Binding, input: Json) -> ToolFuture {
        Box::pin(
            self.caller()
                .call(binding.mcp_tool_name().to_string(), input),
        )
    }

    fn executor_tag(&self, _binding: &Binding) -> Json {
        json!({"kind": "mcp_server", "server_name": self.server})
    }
}
