//! `harnc serve-mcp --config FILE`: code mode as an MCP server in front of the MCP
//! servers the file configures (`code-mode.md` 9). The server itself lives in
//! `harn-mcp`; this is argument parsing and start-up messages.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::{Args, ValueEnum};
use harn_mcp::server::{CodeModeServer, ServeOptions, ServerConfig, ToolNames};

#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum NameStyle {
    /// `harn.code.execute_composition` (valid MCP tool names).
    #[default]
    Dotted,
    /// `harn_code_execute_composition`, for clients that accept only `[A-Za-z0-9_-]`.
    Underscore,
}

#[derive(Args)]
pub struct ServeArgs {
    /// The configuration: `{"mcpServers": {"NAME": {"command": "...", "args": [...],
    /// "env": {...}}}, "executor": {...}}`. The `executor` object takes
    /// `side_effect_ceiling` (`none` or `read_only`), `allowed_tools`, `denied_tools`,
    /// `gated_tools` and `limits` (any executor option: `timeout_ms`, `max_operations`,
    /// `max_output_bytes`, `max_concurrent`, `max_concurrent_per_server`, `stages`, ...).
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
    /// Serve the streamable HTTP transport on this address (e.g. `127.0.0.1:8931`)
    /// instead of stdin/stdout. The MCP endpoint is `/mcp`.
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<std::net::SocketAddr>,
    /// How the three tools are named.
    #[arg(long, value_enum, default_value_t = NameStyle::Dotted)]
    pub tool_names: NameStyle,
    /// Append every run's events (start, child calls and results, finish or error) to
    /// FILE as JSON lines, each with its `run_id`.
    #[arg(long, value_name = "FILE")]
    pub events: Option<PathBuf>,
    /// How long an upstream server may take to start (spawn, `initialize`,
    /// `tools/list`), in milliseconds (default 10000).
    #[arg(long, value_name = "MS")]
    pub connect_timeout_ms: Option<u64>,
    /// Let the upstream servers' stderr through to ours (discarded by default; the last
    /// lines are always quoted when a server fails).
    #[arg(long)]
    pub mcp_stderr: bool,
}

pub fn serve(args: &ServeArgs) -> ExitCode {
    let usage = |e: String| {
        eprintln!("harnc serve-mcp: {e}");
        ExitCode::from(2)
    };
    let config = match ServerConfig::load(&args.config) {
        Ok(c) => c,
        Err(e) => return usage(e.to_string()),
    };
    for field in &config.ignored {
        eprintln!(
            "harnc serve-mcp: note: {}: {field} is not used by harnc",
            args.config.display()
        );
    }
    let events = match &args.events {
        Some(path) => match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            Ok(file) => Some(Arc::new(Mutex::new(std::io::LineWriter::new(file)))),
            Err(e) => return usage(format!("cannot write events to {}: {e}", path.display())),
        },
        None => None,
    };
    let options = ServeOptions {
        tool_names: match args.tool_names {
            NameStyle::Dotted => ToolNames::Dotted,
            NameStyle::Underscore => ToolNames::Underscore,
        },
        events,
        connect_timeout: args.connect_timeout_ms.map(Duration::from_millis),
        show_stderr: args.mcp_stderr,
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return usage(format!("cannot start the async runtime: {e}")),
    };
    let served = runtime.block_on(async {
        let server = CodeModeServer::start(config, options)
            .await
            .map_err(|e| (2, e.to_string()))?;
        report_status(&server);
        match args.listen {
            Some(addr) => server.serve_http(addr).await,
            None => server.serve_stdio().await,
        }
        .map_err(|e| (1, e))
    });
    match served {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, e)) => {
            eprintln!("harnc serve-mcp: {e}");
            ExitCode::from(code)
        }
    }
}

/// One line per upstream on stderr (stdout is the protocol's).
fn report_status(server: &CodeModeServer) {
    let status = server.status();
    for s in status["servers"].as_array().into_iter().flatten() {
        match s["status"].as_str() {
            Some("ready") => eprintln!(
                "harnc serve-mcp: upstream '{}' ready ({} tools)",
                s["name"].as_str().unwrap_or_default(),
                s["tool_count"]
            ),
            _ => eprintln!(
                "harnc serve-mcp: upstream '{}' failed: {}",
                s["name"].as_str().unwrap_or_default(),
                s["error"].as_str().unwrap_or_default()
            ),
        }
    }
    eprintln!(
        "harnc serve-mcp: {} tools in the read-only profile",
        status["tool_count"]
    );
}
