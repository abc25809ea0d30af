//! The upstream servers behind `serve-mcp`: started together, their tool lists kept
//! current (`notifications/tools/list_changed`), shared by every run under one
//! per-server concurrency limit, and restarted on the next call after they die. A
//! server that cannot start leaves the others serving; its failure is reported in
//! the manifest's diagnostics.
//!
//! **Every connection lives on the server's own runtime** (`Handle`): runs execute on
//! their own threads and runtimes, which end with the run, so a restart triggered by a
//! run is spawned back onto the server's runtime.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use harn_codemode::{ChildCategory, ToolError};
use serde_json::{Value as Json, json};
use tokio::runtime::Handle;
use tokio::sync::Semaphore;

use super::config::UpstreamSpec;
use crate::{Caller, ConnectOptions, McpHost, ToolsChanged};

/// How soon a server that failed to start is tried again (in the background, on the
/// next request).
const RETRY_AFTER: Duration = Duration::from_secs(10);

/// How one upstream is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Health {
    Ready,
    Failed(String),
}

/// One upstream server.
struct Upstream {
    spec: UpstreamSpec,
    /// The connection; `None` before the first start and after a failed one.
    host: tokio::sync::Mutex<Option<McpHost>>,
    /// What the snippets see: the last tool list, and how the server is doing.
    known: Mutex<Known>,
    permits: Arc<Semaphore>,
}

struct Known {
    tools: Vec<Json>,
    health: Health,
    tried: Option<Instant>,
}

/// All upstream servers.
pub struct Upstreams {
    servers: Vec<Arc<Upstream>>,
    runtime: Handle,
    connect: ConnectOptions,
    /// Told whenever a server's tool list or health changes.
    changed: ToolsChanged,
}

/// What the manifest is built from: each server's name, tools and health.
pub struct Snapshot {
    pub servers: Vec<(String, Vec<Json>, Health)>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Upstreams {
    /// Starts every server at once (on the current runtime) and lists its tools.
    /// Failures are kept, not returned: the server is usable without them.
    pub async fn start(
        specs: &[UpstreamSpec],
        connect: ConnectOptions,
        per_server: u64,
        changed: ToolsChanged,
    ) -> Arc<Upstreams> {
        let permits = usize::try_from(per_server.max(1)).unwrap_or(usize::MAX);
        let upstreams = Arc::new(Upstreams {
            servers: specs
                .iter()
                .map(|spec| {
                    Arc::new(Upstream {
                        spec: spec.clone(),
                        host: tokio::sync::Mutex::new(None),
                        known: Mutex::new(Known {
                            tools: Vec::new(),
                            health: Health::Failed("not started".into()),
                            tried: None,
                        }),
                        permits: Arc::new(Semaphore::new(permits)),
                    })
                })
                .collect(),
            runtime: Handle::current(),
            connect,
            changed,
        });
        let mut starting = tokio::task::JoinSet::new();
        for i in 0..upstreams.servers.len() {
            let all = Arc::clone(&upstreams);
            starting.spawn(async move {
                let server = &all.servers[i];
                let mut slot = server.host.lock().await;
                let _ = all.restart(server, &mut slot).await;
            });
        }
        while starting.join_next().await.is_some() {}
        upstreams
    }

    /// Every server's current tools and health.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            servers: self
                .servers
                .iter()
                .map(|s| {
                    let known = lock(&s.known);
                    (
                        s.spec.name.clone(),
                        known.tools.clone(),
                        known.health.clone(),
                    )
                })
                .collect(),
        }
    }

    /// Tries again, in the background, the servers that failed to start a while ago.
    pub fn retry_failed(self: &Arc<Self>) {
        for (i, server) in self.servers.iter().enumerate() {
            let due = {
                let known = lock(&server.known);
                matches!(known.health, Health::Failed(_))
                    && known.tried.is_none_or(|t| t.elapsed() >= RETRY_AFTER)
            };
            if due {
                let all = Arc::clone(self);
                self.runtime.spawn(async move {
                    let server = &all.servers[i];
                    let mut slot = server.host.lock().await;
                    let dead = slot.as_ref().is_none_or(McpHost::is_closed);
                    if dead {
                        let _ = all.restart(server, &mut slot).await;
                    }
                });
            }
        }
    }

    /// (Re)starts `server` into `slot` and lists its tools; records the outcome and
    /// tells the listener when something visible changed.
    async fn restart(
        self: &Arc<Self>,
        server: &Arc<Upstream>,
        slot: &mut Option<McpHost>,
    ) -> Result<Caller, String> {
        if let Some(old) = slot.take() {
            old.shutdown().await;
        }
        lock(&server.known).tried = Some(Instant::now());
        let mut options = self.connect.clone();
        options.on_tools_changed = Some(self.relist_on_change(server));
        let started = async {
            let mut host = McpHost::start(&server.spec.command, &options)
                .await
                .map_err(|e| e.to_string())?;
            host.set_name(&server.spec.name);
            let surface = host.tool_surface().await.map_err(|e| e.to_string())?;
            Ok::<_, String>((host, surface))
        };
        match started.await {
            Ok((host, surface)) => {
                let tools = tools_of(&surface);
                let caller = host.caller();
                *slot = Some(host);
                self.record(server, Some(tools), Health::Ready);
                Ok(caller)
            }
            Err(e) => {
                let message = format!("MCP server '{}' is not running: {e}", server.spec.name);
                self.record(server, None, Health::Failed(message.clone()));
                Err(message)
            }
        }
    }

    fn record(&self, server: &Upstream, tools: Option<Vec<Json>>, health: Health) {
        let changed = {
            let mut known = lock(&server.known);
            let mut changed = known.health != health;
            known.health = health;
            if let Some(tools) = tools
                && tools != known.tools
            {
                known.tools = tools;
                changed = true;
            }
            changed
        };
        if changed {
            (self.changed)();
        }
    }

    /// The callback a connection calls on `tools/list_changed`: list again, on the
    /// server's runtime.
    fn relist_on_change(self: &Arc<Self>, server: &Arc<Upstream>) -> ToolsChanged {
        let all = Arc::downgrade(self);
        let server = Arc::downgrade(server);
        let runtime = self.runtime.clone();
        Arc::new(move || {
            let (Some(all), Some(server)) = (all.upgrade(), server.upgrade()) else {
                return;
            };
            runtime.spawn(async move {
                let slot = server.host.lock().await;
                let Some(host) = slot.as_ref() else { return };
                match host.relist(all.connect.timeout).await {
                    Ok(surface) => {
                        let tools = tools_of(&surface);
                        all.record(&server, Some(tools), Health::Ready);
                    }
                    Err(e) => all.record(&server, None, Health::Failed(e.to_string())),
                }
            });
        })
    }

    /// Calls `tool` on the server named `server`, restarting it first if it died;
    /// waits for one of the server's permits. The future may run on any runtime.
    pub fn call(
        self: &Arc<Self>,
        server: &str,
        tool: String,
        input: Json,
    ) -> impl std::future::Future<Output = Result<Json, ToolError>> + Send + 'static {
        let all = Arc::clone(self);
        let found = self.servers.iter().position(|s| s.spec.name == server);
        let server = server.to_string();
        async move {
            let Some(i) = found else {
                return Err(ToolError::new(
                    ChildCategory::ToolError,
                    format!("no MCP server '{server}' is configured"),
                ));
            };
            let upstream = Arc::clone(&all.servers[i]);
            let _permit = upstream
                .permits
                .clone()
                .acquire_owned()
                .await
                .map_err(|e| ToolError::new(ChildCategory::ToolError, e.to_string()))?;
            let caller = all.caller(i).await?;
            caller.call(tool, input).await
        }
    }

    /// A caller for server `i`, starting it on the server's runtime if it is not
    /// running.
    async fn caller(self: &Arc<Self>, i: usize) -> Result<Caller, ToolError> {
        let all = Arc::clone(self);
        let started = self.runtime.spawn(async move {
            let server = &all.servers[i];
            let mut slot = server.host.lock().await;
            match slot.as_ref() {
                Some(host) if !host.is_closed() => Ok(host.caller()),
                _ => all.restart(server, &mut slot).await,
            }
        });
        match started.await {
            Ok(Ok(caller)) => Ok(caller),
            Ok(Err(message)) => Err(ToolError::new(ChildCategory::ToolError, message)),
            Err(e) => Err(ToolError::new(
                ChildCategory::ToolError,
                format!("starting the MCP server failed: {e}"),
            )),
        }
    }

    /// Stops every server.
    pub async fn shutdown(&self) {
        for server in &self.servers {
            if let Some(host) = server.host.lock().await.take() {
                host.shutdown().await;
            }
        }
    }
}

/// The tools of a surface (already tagged with the configured server name, which
/// decides where a call goes).
fn tools_of(surface: &Json) -> Vec<Json> {
    surface
        .get("tools")
        .and_then(Json::as_array)
        .cloned()
        .unwrap_or_default()
}

/// The servers' status for a response: name, whether it runs, its tool count, why not.
pub fn describe(snapshot: &Snapshot) -> Json {
    Json::Array(
        snapshot
            .servers
            .iter()
            .map(|(name, tools, health)| match health {
                Health::Ready => {
                    json!({"name": name, "status": "ready", "tool_count": tools.len()})
                }
                Health::Failed(why) => json!({
                    "name": name, "status": "failed", "tool_count": tools.len(), "error": why
                }),
            })
            .collect(),
    )
}
