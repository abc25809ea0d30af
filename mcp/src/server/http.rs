//! The streamable HTTP transport (`--listen ADDR`): rmcp's session service behind a
//! plain HTTP/1.1 listener. Loopback by default; the `Host` header must name the
//! listening address, so a page in a browser cannot reach the server by DNS rebinding.

use std::net::SocketAddr;
use std::sync::Arc;

use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::CodeModeServer;

/// Accepts connections on `addr` until the process ends; every MCP session gets a
/// clone of `server` (they share the upstreams and the catalog).
pub async fn serve(server: CodeModeServer, addr: SocketAddr) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener.local_addr().map_err(|e| e.to_string())?;
    let mut config = StreamableHttpServerConfig::default();
    let ip = bound.ip().to_string();
    for host in [ip.clone(), format!("{ip}:{}", bound.port())] {
        if !config.allowed_hosts.contains(&host) {
            config.allowed_hosts.push(host);
        }
    }
    let session_server = server.clone();
    let service = StreamableHttpService::new(
        move || Ok(session_server.clone()),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    eprintln!("harnc serve-mcp: listening on http://{bound}/mcp");
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                eprintln!("harnc serve-mcp: accept failed: {e}");
                continue;
            }
        };
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
