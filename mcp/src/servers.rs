//! Several MCP servers behind one tool surface (`harnc run --mcp a=CMD --mcp b=CMD`):
//! their tool lists merge into one manifest, a tool name two servers share becomes
//! `<server>__<tool>` for each (so its binding reads `server_tool`, `code-mode.md` 1.7),
//! and each call goes to the server whose tool it is.

use std::collections::HashMap;

use harn_codemode::{ChildCategory, ToolError, ToolFuture, ToolHost};
use harn_compiler::manifest::Binding;
use serde_json::{Value as Json, json};

use crate::{ConnectError, ConnectOptions, McpHost};

/// `name=CMD ARGS` or `CMD ARGS`: the server's name, when given, and its command line.
pub fn split_named(spec: &str) -> (Option<&str>, &str) {
    if let Some((name, command)) = spec.split_once('=') {
        let plain = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if plain {
            return (Some(name), command.trim());
        }
    }
    (None, spec.trim())
}

/// One tool surface from each server's tools (in server order): a name two servers
/// share becomes `<server>__<tool>` for each, so the binding says whose it is.
pub fn merge_tool_lists(lists: Vec<(String, Vec<Json>)>) -> Json {
    let mut seen: HashMap<String, usize> = HashMap::new();
    for (_, tools) in &lists {
        for t in tools {
            if let Some(n) = t.get("name").and_then(Json::as_str) {
                *seen.entry(n.to_string()).or_default() += 1;
            }
        }
    }
    let mut all = Vec::new();
    for (server, tools) in lists {
        for mut t in tools {
            let shared = t
                .get("name")
                .and_then(Json::as_str)
                .is_some_and(|n| seen.get(n).copied().unwrap_or(0) > 1);
            if shared
                && let Some(obj) = t.as_object_mut()
                && let Some(n) = obj.get("name").and_then(Json::as_str).map(str::to_string)
            {
                obj.insert("name".into(), json!(format!("{server}__{n}")));
            }
            all.push(t);
        }
    }
    json!({ "tools": all })
}

/// A runtime on a thread of its own for the servers' connections: reading and parsing
/// their messages then happens there, so the run's memory meter (which counts the run's
/// thread) charges a tool's output once, as the value the snippet holds, not every
/// buffer the transport went through. Stopped when dropped.
pub struct TransportThread {
    handle: tokio::runtime::Handle,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TransportThread {
    pub fn start() -> Result<TransportThread, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the transport runtime: {e}"))?;
        let handle = runtime.handle().clone();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("harn-mcp-transport".into())
            .spawn(move || {
                runtime.block_on(async {
                    let _ = stopped.await;
                });
            })
            .map_err(|e| format!("cannot start the transport thread: {e}"))?;
        Ok(TransportThread {
            handle,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Runs `work` on the transport thread and waits for it.
    pub async fn run<F>(&self, work: F) -> Result<F::Output, ConnectError>
    where
        F: std::future::Future + Send + 'static,
        F::Output: Send + 'static,
    {
        self.handle
            .spawn(work)
            .await
            .map_err(|e| ConnectError::Server(format!("the MCP transport failed: {e}")))
    }
}

impl Drop for TransportThread {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Connected servers, by name.
pub struct McpServers {
    servers: Vec<McpHost>,
}

impl McpServers {
    /// Connects to every server in turn (a failure stops the ones already started).
    pub async fn connect(
        specs: &[String],
        options: &ConnectOptions,
    ) -> Result<McpServers, ConnectError> {
        let mut servers: Vec<McpHost> = Vec::new();
        for spec in specs {
            let (name, command) = split_named(spec);
            match McpHost::connect_with(command, options).await {
                Ok(mut host) => {
                    if let Some(name) = name {
                        host.set_name(name);
                    }
                    if servers.iter().any(|s| s.name() == host.name()) {
                        let duplicate = host.name().to_string();
                        host.shutdown().await;
                        McpServers { servers }.shutdown().await;
                        return Err(ConnectError::Usage(format!(
                            "two MCP servers are named '{duplicate}'; name them with --mcp NAME=CMD"
                        )));
                    }
                    servers.push(host);
                }
                Err(e) => {
                    McpServers { servers }.shutdown().await;
                    return Err(e);
                }
            }
        }
        Ok(McpServers { servers })
    }

    /// One tool surface over every server's tools; names two servers share are
    /// qualified by the server.
    pub async fn tool_surface(&self) -> Result<Json, ConnectError> {
        let mut lists = Vec::new();
        for s in &self.servers {
            let surface = s.tool_surface().await?;
            let tools = surface
                .get("tools")
                .and_then(Json::as_array)
                .cloned()
                .unwrap_or_default();
            lists.push((s.name().to_string(), tools));
        }
        Ok(merge_tool_lists(lists))
    }

    fn server_of(&self, binding: &Binding) -> Option<&McpHost> {
        let name = binding.mcp_server()?;
        self.servers.iter().find(|s| s.name() == name)
    }

    /// Stops every server.
    pub async fn shutdown(self) {
        for s in self.servers {
            s.shutdown().await;
        }
    }
}

impl ToolHost for McpServers {
    fn call(&self, binding: &Binding, input: Json) -> ToolFuture {
        match self.server_of(binding) {
            Some(s) => s.call(binding, input),
            None => {
                let message = format!("no MCP server serves `{}`", binding.name);
                Box::pin(async move { Err(ToolError::new(ChildCategory::ToolError, message)) })
            }
        }
    }

    fn executor_tag(&self, binding: &Binding) -> Json {
        match self.server_of(binding) {
            Some(s) => s.executor_tag(binding),
            None => json!({"kind": "mcp_server"}),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::split_named;

    #[test]
    fn server_specs_may_carry_a_name() {
        assert_eq!(
            split_named("fs=npx server --root /tmp"),
            (Some("fs"), "npx server --root /tmp")
        );
        assert_eq!(
            split_named("npx server --opt=x"),
            (None, "npx server --opt=x")
        );
        assert_eq!(split_named("python3 s.py"), (None, "python3 s.py"));
    }
}
