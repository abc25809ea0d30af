//! The MCP client host (`code-mode.md` 4.7): spawns a real MCP server over stdio with
//! `rmcp`, turns its `tools/list` into a tool surface, and performs child calls as
//! `tools/call`. Every failure is a typed `ToolError`; nothing here can hang the run,
//! because the executor bounds each call with the per-call and run deadlines.
//!
//! harn-mcp is the only crate that links `rmcp`. **Must not depend on** the language
//! server or codegen.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod servers;
mod spawn;

use std::time::{Duration, Instant};

use harn_codemode::{ChildCategory, ToolError, ToolFuture, ToolHost};
use harn_compiler::manifest::{Binding, tag_mcp_server};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{RoleClient, ServiceError, ServiceExt};
use serde_json::{Value as Json, json};

pub use servers::{McpServers, split_named};
pub use spawn::ConnectError;
use spawn::StderrTail;

/// How long connecting (spawn, `initialize`, `tools/list`) may take by default.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// Largest single message accepted from a server.
const MAX_MESSAGE_BYTES: usize = 256 * 1024 * 1024;

/// How to connect.
#[derive(Clone, Copy, Debug)]
pub struct ConnectOptions {
    /// Start-up (spawn, `initialize`, `tools/list`) must finish within this.
    pub timeout: Duration,
    /// Pass the server's stderr through (it is always kept for failure reports).
    pub show_stderr: bool,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            timeout: DEFAULT_CONNECT_TIMEOUT,
            show_stderr: false,
        }
    }
}

/// A connected MCP server.
pub struct McpHost {
    service: RunningService<RoleClient, ()>,
    server: String,
    command: String,
    child: tokio::process::Child,
    stderr: StderrTail,
    /// When start-up must be over (`tools/list` included).
    ready_by: Instant,
    timeout: Duration,
}

/// Splits a command line into words: whitespace separates, single and double quotes
/// group, a backslash escapes the next character outside single quotes. No shell runs.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.push(c),
            (_, '\\') => {
                let next = chars
                    .next()
                    .ok_or("the command line ends with a lone backslash")?;
                word.push(next);
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("unterminated {q} quote in the command line"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
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
        let ready_by = Instant::now() + options.timeout;
        let words = split_command(command_line).map_err(ConnectError::Usage)?;
        let Some((program, args)) = words.split_first() else {
            return Err(ConnectError::Usage("the --mcp command is empty".into()));
        };
        let mut child = spawn::spawn(program, args)?;
        let (Some(stdout), Some(stdin), Some(stderr)) =
            (child.stdout.take(), child.stdin.take(), child.stderr.take())
        else {
            return Err(ConnectError::Server(format!(
                "MCP server '{program}': no stdio pipes"
            )));
        };
        let stderr = StderrTail::collect(stderr, options.show_stderr);
        let transport = AsyncRwTransport::<RoleClient, _, _>::new(stdout, stdin)
            .with_max_line_length(MAX_MESSAGE_BYTES);
        let ms = options.timeout.as_millis();
        let service = match tokio::time::timeout_at(ready_by.into(), ().serve(transport)).await {
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
            .unwrap_or_else(|| program_name(program));
        Ok(McpHost {
            service,
            server,
            command: command_line.to_string(),
            child,
            stderr,
            ready_by,
            timeout: options.timeout,
        })
    }

    /// The server's tools as a tool surface (`{"tools": [...]}`), each tagged with the
    /// server so bindings read `source: "mcp_server"`. Bounded by the start-up time.
    pub async fn tool_surface(&self) -> Result<Json, ConnectError> {
        let listed =
            tokio::time::timeout_at(self.ready_by.into(), self.service.peer().list_all_tools())
                .await;
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
                    self.timeout.as_millis(),
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
/// present; else a single text item as a string; else the `content` array.
fn success_value(result: &CallToolResult) -> Json {
    if let Some(structured) = &result.structured_content {
        return structured.clone();
    }
    let content = serde_json::to_value(&result.content).unwrap_or(Json::Null);
    match content.as_array().map(Vec::as_slice) {
        Some([only]) if only.get("type") == Some(&json!("text")) => {
            only.get("text").cloned().unwrap_or(Json::Null)
        }
        _ => content,
    }
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

impl ToolHost for McpHost {
    fn call(&self, binding: &Binding, input: Json) -> ToolFuture {
        let peer = self.service.peer().clone();
        let tool = binding
            .metadata
            .get("_mcp_tool_name")
            .or_else(|| binding.metadata.get("mcp_tool_name"))
            .and_then(Json::as_str)
            .unwrap_or(&binding.name)
            .to_string();
        Box::pin(async move {
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
            Ok(success_value(&result))
        })
    }

    fn executor_tag(&self, _binding: &Binding) -> Json {
        json!({"kind": "mcp_server", "server_name": self.server})
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::split_command;

    #[test]
    fn command_lines_split_like_a_shell_without_one() {
        assert_eq!(
            split_command(r#"node "my server.js" --root 'a b' x\ y"#).unwrap(),
            ["node", "my server.js", "--root", "a b", "x y"]
        );
        assert_eq!(split_command("  ").unwrap(), Vec::<String>::new());
        assert_eq!(split_command("''").unwrap(), [""]);
        assert!(split_command("node 'open").is_err());
        assert!(split_command("node \\").is_err());
    }
}
