//! `harnc run SNIPPET --manifest FILE | --mcp "CMD ARGS" | --code-mode`: one governed
//! code-mode run (`code-mode.md` 8), against the mock host or a real MCP server.

use std::process::ExitCode;
use std::rc::Rc;

use clap::Args;
use harn_codemode::setup::{HostSettings, Loaded, Overrides, fixtures_host};
use harn_codemode::{
    Category, EventSink, MockHost, RecordingHost, Report, ToolHost, execute_with_events,
    failure_report,
};
use harn_compiler::manifest::{Level, Manifest};
use serde_json::Value as Json;

use crate::input::{ReadError, read_source_typed};
use harn_mcp::{ConnectError, ConnectOptions, McpServers, TransportThread};

/// The embedded demo manifest, so `--code-mode` works on a fresh machine.
const DEMO_TOOLS: &str = include_str!("../demo_manifest.json");

/// The flags that decide which tools the manifest admits and how (shared by `run` and
/// `check`); every list entry must name a tool.
#[derive(Args, Clone, Default)]
pub struct PolicyArgs {
    /// Highest side-effect level a tool may have when building the manifest from a
    /// tool surface: `none` or `read_only` (the default). Code mode is read-only by
    /// contract, so a higher level is refused before the run starts.
    #[arg(long, value_name = "LEVEL")]
    pub ceiling: Option<String>,
    /// Ambient allow-list: only these tools (canonical names or bindings) may run.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub allow_tools: Option<Vec<String>>,
    /// Tools that are always denied (canonical names or bindings).
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub deny_tools: Option<Vec<String>>,
    /// Tools that need approval, which a read-only run cannot give.
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub gate_tools: Option<Vec<String>>,
}

/// The tool surface `harnc check` checks a snippet against: only the flags that shape
/// the manifest (run-only flags such as `--report` or limits are not accepted there).
#[derive(Args, Default)]
pub struct CheckSurfaceArgs {
    /// Check each file as a code-mode snippet against this binding manifest or tool
    /// surface (an `executor` object gives `side_effect_ceiling` and `allowed_tools`).
    #[arg(long, value_name = "MANIFEST", conflicts_with = "mcp")]
    pub manifest: Option<String>,
    /// Check against real MCP servers' tools (each started with this command line,
    /// listed, stopped; no shell). Repeat for several servers; `NAME=CMD` names one.
    #[arg(long, value_name = "CMD ARGS")]
    pub mcp: Vec<String>,
    /// Let the MCP server's stderr through (discarded by default).
    #[arg(long, requires = "mcp")]
    pub mcp_stderr: bool,
    /// Check against the embedded demo manifest.
    #[arg(long)]
    pub code_mode: bool,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

impl CheckSurfaceArgs {
    /// The same surface as `harnc run` flags (everything else at its default).
    pub fn as_run_args(&self) -> CodeModeArgs {
        CodeModeArgs {
            manifest: self.manifest.clone(),
            mcp: self.mcp.clone(),
            mcp_stderr: self.mcp_stderr,
            code_mode: self.code_mode,
            policy: self.policy.clone(),
            ..CodeModeArgs::default()
        }
    }
}

/// Code-mode flags of `harnc run`. Any of `--manifest`, `--mcp` or `--code-mode`
/// switches the run to code mode.
#[derive(Args, Default)]
pub struct CodeModeArgs {
    /// Run FILE as a code-mode snippet against this binding manifest or tool surface
    /// (MCP `tools/list` result, bare tool list, ...); tools answer from the mock host.
    /// An `executor` object in the file gives host settings (`side_effect_ceiling`,
    /// `allowed_tools`, `limits`); flags override them.
    #[arg(long, value_name = "MANIFEST", conflicts_with = "mcp")]
    pub manifest: Option<String>,
    /// Run FILE as a code-mode snippet against a real MCP server started with this
    /// command line (program and arguments; quotes group words; no shell). Its
    /// `tools/list` becomes the manifest and calls go to `tools/call`. Repeat for several
    /// servers (`--mcp fs="CMD ..." --mcp git="CMD ..."`): one manifest, a tool name two
    /// servers share qualified as `server__tool`, each call routed to its server.
    #[arg(long, value_name = "CMD ARGS")]
    pub mcp: Vec<String>,
    /// Answer tool calls from this fixtures file instead of the mock host: a JSON object
    /// keyed by tool name whose entries are `{"output": v}`, `{"error": "msg",
    /// "category"?: "tool_error", "retryable"?: bool}` or `{"sequence": [...]}`.
    #[arg(long, value_name = "FILE", conflicts_with = "mcp")]
    pub fixtures: Option<String>,
    /// Let the MCP server's stderr through (discarded by default).
    #[arg(long, requires = "mcp")]
    pub mcp_stderr: bool,
    /// Run FILE as a code-mode snippet against the embedded demo manifest.
    #[arg(long)]
    pub code_mode: bool,
    /// Print the whole report as JSON on stdout instead of the returned value.
    #[arg(long, value_name = "FORMAT", value_parser = ["json"])]
    pub report: Option<String>,
    /// Write the run's events (start, each child call and result, finish or error) as
    /// JSON lines to this file.
    #[arg(long, value_name = "FILE")]
    pub events: Option<String>,
    /// Write every answer the tools gave (each attempt, in order) to FILE as a
    /// `--fixtures` file, so the snippet can be re-run offline against them.
    #[arg(long, value_name = "FILE")]
    pub record: Option<String>,
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// Maximum tool-call attempts (default 64).
    #[arg(long, value_name = "N")]
    pub max_operations: Option<u64>,
    /// Wall-clock budget of the whole run in milliseconds (default 10000).
    #[arg(long, value_name = "MS")]
    pub timeout_ms: Option<u64>,
    /// How long the MCP server may take to start (spawn, `initialize`, `tools/list`), in
    /// milliseconds (default 10000; never more than the run's `--timeout-ms`).
    #[arg(long, value_name = "MS", requires = "mcp")]
    pub connect_timeout_ms: Option<u64>,
    /// Per-attempt tool-call timeout in milliseconds; 0 = the run deadline only
    /// (default 30000).
    #[arg(long, value_name = "MS")]
    pub call_timeout_ms: Option<u64>,
    /// Output budget in bytes: captured stdout plus the JSON result (default 65536).
    #[arg(long, value_name = "BYTES")]
    pub max_output_bytes: Option<u64>,
    /// Instruction fuel (default 10000000).
    #[arg(long, value_name = "N")]
    pub max_instructions: Option<u64>,
    /// Maximum call depth (default 256).
    #[arg(long, value_name = "N")]
    pub max_call_depth: Option<u64>,
    /// Live bytes the run's values may hold (default 134217728).
    #[arg(long, value_name = "BYTES")]
    pub max_memory_bytes: Option<u64>,
    /// Largest single string (default 16777216).
    #[arg(long, value_name = "BYTES")]
    pub max_string_bytes: Option<u64>,
    /// Largest single list, dict or set (default 1000000).
    #[arg(long, value_name = "N")]
    pub max_collection_len: Option<u64>,
    /// In-flight tool calls across the run (default 16).
    #[arg(long, value_name = "N")]
    pub max_concurrent: Option<u64>,
    /// In-flight tool calls per MCP server (default 4).
    #[arg(long, value_name = "N")]
    pub max_concurrent_per_server: Option<u64>,
    /// Attempts per tool call where retrying is allowed (default 3).
    #[arg(long, value_name = "N")]
    pub max_attempts: Option<u64>,
    /// Treat the MCP server's annotations as trustworthy, so read-only or idempotent
    /// tools may be retried.
    #[arg(long)]
    pub trust_annotations: bool,
    /// Run id used in the report (default: a fresh one).
    #[arg(long, value_name = "ID")]
    pub run_id: Option<String>,
}

impl CodeModeArgs {
    pub fn enabled(&self) -> bool {
        self.manifest.is_some() || !self.mcp.is_empty() || self.code_mode
    }

    /// The flags as run set-up overrides.
    fn overrides(&self) -> Overrides {
        let limits = [
            ("max_operations", self.max_operations),
            ("timeout_ms", self.timeout_ms),
            ("call_timeout_ms", self.call_timeout_ms),
            ("max_output_bytes", self.max_output_bytes),
            ("max_instructions", self.max_instructions),
            ("max_call_depth", self.max_call_depth),
            ("max_memory_bytes", self.max_memory_bytes),
            ("max_string_bytes", self.max_string_bytes),
            ("max_collection_len", self.max_collection_len),
            ("max_concurrent", self.max_concurrent),
            ("max_concurrent_per_server", self.max_concurrent_per_server),
        ]
        .into_iter()
        .filter_map(|(key, value)| value.map(|v| (key, v)))
        .collect();
        Overrides {
            ceiling: self.policy.ceiling.clone(),
            allow_tools: self.policy.allow_tools.clone(),
            deny_tools: self.policy.deny_tools.clone(),
            gate_tools: self.policy.gate_tools.clone(),
            limits,
            max_attempts: self.max_attempts,
            trust_annotations: self.trust_annotations,
            run_id: self.run_id.clone(),
        }
    }
}

fn warn_all(warnings: &[String]) {
    for w in warnings {
        eprintln!("harnc: warning: {w}");
    }
}

/// The manifest file's text (or the embedded demo), loaded with the flags applied.
fn load_manifest(args: &CodeModeArgs, overrides: &Overrides) -> Result<Loaded, String> {
    let text = match &args.manifest {
        Some(path) => read_text(path)?,
        None => DEMO_TOOLS.to_string(),
    };
    let loaded = overrides.load_manifest(&text)?;
    warn_all(&loaded.warnings);
    Ok(loaded)
}

/// The manifest of a live MCP server's tools.
fn server_manifest(surface: &Json, overrides: &Overrides) -> Result<Manifest, String> {
    let (manifest, warnings) = overrides.surface_manifest(surface, &HostSettings::default())?;
    warn_all(&warnings);
    Ok(manifest)
}

fn read_text(path: &str) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))
}

/// The manifest `harnc check` works against: the MCP server's tools (the server is
/// started, listed and shut down), a manifest or tool-surface file, or the demo.
pub fn manifest_for_check(args: &CodeModeArgs) -> Result<Manifest, String> {
    let overrides = args.overrides();
    if !args.mcp.is_empty() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the async runtime: {e}"))?;
        let options = ConnectOptions {
            show_stderr: args.mcp_stderr,
            ..ConnectOptions::default()
        };
        return rt.block_on(async {
            let servers = McpServers::connect(&args.mcp, &options).await?;
            let surface = servers.tool_surface().await;
            servers.shutdown().await;
            server_manifest(&surface?, &overrides)
        });
    }
    Ok(load_manifest(args, &overrides)?.manifest)
}

/// Why a run could not start: its set-up (`schema_validation`) or its MCP server
/// (`tool_error`: it could not be started or did not answer in time).
enum SetupFailure {
    Config(String),
    Server(String),
}

impl From<String> for SetupFailure {
    fn from(e: String) -> Self {
        SetupFailure::Config(e)
    }
}

impl From<harn_codemode::setup::SetupError> for SetupFailure {
    fn from(e: harn_codemode::setup::SetupError) -> Self {
        SetupFailure::Config(e.to_string())
    }
}

impl From<ConnectError> for SetupFailure {
    fn from(e: ConnectError) -> Self {
        match e {
            ConnectError::Usage(m) => SetupFailure::Config(m),
            ConnectError::Server(m) => SetupFailure::Server(m),
        }
    }
}

/// Sets up the host and manifest, runs the snippet, and hands back the report and the
/// MCP server to stop once the report is out.
async fn governed_run(
    snippet: &str,
    args: &CodeModeArgs,
    sink: Option<EventSink>,
) -> Result<(Report, Option<(McpServers, TransportThread)>), SetupFailure> {
    let overrides = args.overrides();
    if !args.mcp.is_empty() {
        let options = overrides.options(&HostSettings::default())?;
        // Start-up counts against the run's deadline as well as its own bound.
        let connect_ms = args
            .connect_timeout_ms
            .unwrap_or(harn_mcp::DEFAULT_CONNECT_TIMEOUT.as_millis() as u64)
            .min(options.timeout_ms);
        let connect = ConnectOptions {
            timeout: std::time::Duration::from_millis(connect_ms),
            show_stderr: args.mcp_stderr,
            on_tools_changed: None,
        };
        // The connections live on their own thread: the run's memory meter then
        // charges a tool's output once, as the value the snippet holds.
        let transport = TransportThread::start().map_err(SetupFailure::Server)?;
        let specs = args.mcp.clone();
        let server = transport
            .run(async move { McpServers::connect(&specs, &connect).await })
            .await??;
        let surface = match server.tool_surface().await {
            Ok(s) => s,
            Err(e) => {
                let _ = transport.run(server.shutdown()).await;
                return Err(e.into());
            }
        };
        let manifest = match server_manifest(&surface, &overrides) {
            Ok(m) => m,
            Err(e) => {
                let _ = transport.run(server.shutdown()).await;
                return Err(e.into());
            }
        };
        let server = Rc::new(server);
        let (host, recorder) = recording(server.clone(), args);
        let report = execute_with_events(snippet, &manifest, &options, host, sink).await;
        save_record(recorder, args)?;
        let server = Rc::try_unwrap(server).ok().map(|s| (s, transport));
        return Ok((report, server));
    }
    let loaded = load_manifest(args, &overrides)?;
    let options = overrides.options(&loaded.host)?;
    let tools: Rc<dyn ToolHost> = match &args.fixtures {
        Some(path) => Rc::new(fixtures_host(&read_text(path)?, path)?),
        None => Rc::new(MockHost),
    };
    let (tools, recorder) = recording(tools, args);
    let report = execute_with_events(snippet, &loaded.manifest, &options, tools, sink).await;
    save_record(recorder, args)?;
    Ok((report, None))
}

/// The host, wrapped to record its answers when `--record` is given.
fn recording(
    host: Rc<dyn ToolHost>,
    args: &CodeModeArgs,
) -> (Rc<dyn ToolHost>, Option<Rc<RecordingHost>>) {
    if args.record.is_none() {
        return (host, None);
    }
    let recorder = Rc::new(RecordingHost::new(host));
    (recorder.clone(), Some(recorder))
}

/// Writes the recorded answers as a fixtures file.
fn save_record(recorder: Option<Rc<RecordingHost>>, args: &CodeModeArgs) -> Result<(), String> {
    let (Some(recorder), Some(path)) = (recorder, &args.record) else {
        return Ok(());
    };
    let text = serde_json::to_string_pretty(&recorder.fixtures()).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("cannot write {path}: {e}"))
}

/// A sink that writes each event to `path` as one JSON line, as it happens.
fn event_file(path: &str) -> Result<EventSink, String> {
    use std::io::Write;
    let file =
        std::fs::File::create(path).map_err(|e| format!("cannot write events to {path}: {e}"))?;
    let out = std::cell::RefCell::new(std::io::LineWriter::new(file));
    let failed = std::cell::Cell::new(false);
    let path = path.to_string();
    Ok(Rc::new(move |event: &Json| {
        if let Err(e) = writeln!(out.borrow_mut(), "{event}")
            && !failed.replace(true)
        {
            eprintln!("harnc: cannot write events to {path}: {e}");
        }
    }))
}

fn print_outcome(report: &Report, args: &CodeModeArgs) {
    // A closed pipe (`| head`) is not an error worth a panic: output just stops.
    if args.report.is_some() {
        let text = serde_json::to_string_pretty(&report.to_json()).unwrap_or_default();
        super::write_stdout(&format!("{text}\n"));
        return;
    }
    let run = &report.run;
    if let Some(out) = &run.stdout {
        eprint!("{out}");
    }
    if report.ok {
        let text = serde_json::to_string_pretty(&run.result).unwrap_or_default();
        super::write_stdout(&format!("{text}\n"));
    } else {
        eprintln!(
            "error [{}]: {}",
            run.failure_category.map_or("unknown", Category::as_str),
            run.error.as_deref().unwrap_or("")
        );
    }
}

pub fn run(file: &str, args: &CodeModeArgs) -> ExitCode {
    let usage = |e: String| {
        eprintln!("harnc: {e}");
        ExitCode::from(2)
    };
    // With `--report json` every run ends with a report, even one that cannot start.
    let failed = |snippet: &str, category: Category, problem: String| {
        if args.report.is_none() {
            return usage(problem);
        }
        let report = failure_report(snippet, &Manifest::default(), category, &problem);
        print_outcome(&report, args);
        ExitCode::FAILURE
    };
    let snippet = match read_source_typed(file) {
        Ok(f) => f.text,
        Err(ReadError::NotUtf8 { message, lossy }) => {
            return failed(&lossy, Category::CompileError, message);
        }
        Err(e @ ReadError::Unreadable(_)) => return usage(e.to_string()),
    };
    // Refused before anything starts: a higher manifest ceiling would only admit tools
    // whose every call the executor then refuses.
    if let Some(level) = args.policy.ceiling.as_deref().and_then(Level::parse)
        && level.rank() > Level::ReadOnly.rank()
    {
        return failed(
            &snippet,
            Category::PolicyDenied,
            format!(
                "read-only composition executor refuses side-effect ceilings above read_only: \
                 code mode is read-only by contract (code-mode.md 4.1), so --ceiling {} would \
                 only admit tools whose every call is refused; use read_only or a lower level",
                level.as_str()
            ),
        );
    }
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return usage(format!("cannot start the async runtime: {e}")),
    };
    let sink = match args.events.as_deref().map(event_file).transpose() {
        Ok(s) => s,
        Err(e) => return usage(e),
    };
    let (report, server) = match rt.block_on(governed_run(&snippet, args, sink)) {
        Ok(r) => r,
        Err(SetupFailure::Config(e)) => return failed(&snippet, Category::SchemaValidation, e),
        Err(SetupFailure::Server(e)) => {
            // The same exit status and category whether or not a report is printed.
            if args.report.is_some() {
                let report =
                    failure_report(&snippet, &Manifest::default(), Category::ToolError, &e);
                print_outcome(&report, args);
            } else {
                eprintln!("harnc: {e}");
            }
            return ExitCode::FAILURE;
        }
    };
    print_outcome(&report, args);
    // The report is out; the server gets its shutdown after, not before.
    if let Some((server, transport)) = server {
        let _ = rt.block_on(transport.run(server.shutdown()));
    }
    if report.ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
