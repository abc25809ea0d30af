//! `harnc manifest` (tool surface → binding manifest JSON) and `harnc emit` (manifest →
//! `.harn` API, TypeScript declarations or prompt text).

use std::process::ExitCode;

use clap::{Args, ValueEnum};
use harn_compiler::manifest::{
    BuildOptions, Level, Manifest, build_manifest, manifest_from_value, tag_mcp_server,
};
use serde_json::Value;

use crate::input::read_source;

#[derive(Args)]
pub struct ManifestArgs {
    /// The tool surface: a JSON array, `{tools: [...]}`, a JSON-RPC response or one tool
    /// (`-` reads standard input).
    #[arg(required_unless_present = "mcp", conflicts_with = "mcp")]
    tools: Option<String>,
    /// Capture a live MCP server's tools instead: "CMD ARGS" is spawned over stdio (no
    /// shell), listed and stopped. `harnc manifest --mcp CMD > harn.manifest.json` gives
    /// the language server its manifest.
    #[arg(long, value_name = "CMD")]
    mcp: Option<String>,
    /// Show the MCP server's stderr.
    #[arg(long, requires = "mcp")]
    mcp_stderr: bool,
    /// The side-effect ceiling (default `read_only`).
    #[arg(long, value_name = "LEVEL")]
    ceiling: Option<String>,
    /// Print the compact form (names and policy only, for prompts).
    #[arg(long)]
    compact: bool,
    /// Keep denied bindings (with their reasons).
    #[arg(long)]
    include_denied: bool,
    /// Mark every tool as served by this MCP server (`_mcp_server` / `_mcp_tool_name`),
    /// as when the list came from a live server.
    #[arg(long, value_name = "NAME")]
    mcp_server: Option<String>,
}

/// What `harnc emit` generates.
#[derive(Clone, Copy, ValueEnum)]
pub enum EmitKind {
    /// The `.harn` API.
    Harn,
    /// TypeScript declarations (`.d.ts`).
    Ts,
    /// One signature line and one description line per binding.
    Prompt,
}

#[derive(Args)]
pub struct EmitArgs {
    /// What to generate.
    #[arg(value_enum)]
    kind: EmitKind,
    /// A binding manifest (an object with `bindings`) or a tool surface.
    #[arg(required_unless_present = "mcp", conflicts_with = "mcp")]
    input: Option<String>,
    /// Generate from a live MCP server's tools instead ("CMD ARGS", spawned over stdio,
    /// listed and stopped; no shell).
    #[arg(long, value_name = "CMD")]
    mcp: Option<String>,
    /// Show the MCP server's stderr.
    #[arg(long, requires = "mcp")]
    mcp_stderr: bool,
    /// The side-effect ceiling when the input is a tool surface (default `read_only`).
    #[arg(long, value_name = "LEVEL")]
    ceiling: Option<String>,
    /// Keep denied bindings (listed in a trailing comment) when building from tools.
    #[arg(long)]
    include_denied: bool,
    /// Mark every tool as served by this MCP server when building from tools.
    #[arg(long, value_name = "NAME")]
    mcp_server: Option<String>,
    /// Write to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<String>,
}

fn fail(message: &str) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::FAILURE
}

fn read_json(path: &str) -> Result<Value, String> {
    let source = read_source(path)?;
    serde_json::from_str(&source.text).map_err(|e| format!("{}: invalid JSON: {e}", source.name))
}

fn options(ceiling: Option<&str>, include_denied: bool) -> Result<BuildOptions, String> {
    let mut o = BuildOptions {
        include_denied,
        ..BuildOptions::default()
    };
    if let Some(c) = ceiling {
        o.side_effect_ceiling = Level::parse(c).ok_or_else(|| {
            format!(
                "unknown side_effect_ceiling '{c}' (expected one of {})",
                Level::ALL.map(Level::as_str).join(", ")
            )
        })?;
    }
    Ok(o)
}

fn build(tools: &Value, o: &BuildOptions) -> Manifest {
    let built = build_manifest(tools, o);
    for d in &built.diagnostics {
        eprintln!("warning: {}", d.message);
    }
    built.manifest
}

/// A live MCP server's tool surface (its tools tagged with the server).
fn live_surface(command: &str, show_stderr: bool) -> Result<Value, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    rt.block_on(async {
        let server = harn_mcp::McpHost::connect(command, show_stderr).await?;
        let surface = server.tool_surface().await;
        server.shutdown().await;
        Ok(surface?)
    })
}

/// `harnc manifest`.
pub fn manifest(args: &ManifestArgs) -> ExitCode {
    let result = (|| -> Result<String, String> {
        let mut tools = match (&args.mcp, &args.tools) {
            (Some(command), _) => live_surface(command, args.mcp_stderr)?,
            (None, Some(path)) => read_json(path)?,
            (None, None) => return Err("give a tool surface file or --mcp CMD".into()),
        };
        if let Some(server) = &args.mcp_server {
            tools = tag_mcp_server(&tools, server);
        }
        let o = options(args.ceiling.as_deref(), args.include_denied)?;
        let m = build(&tools, &o);
        if let Some(note) = left_out(&tools, &o) {
            eprintln!("note: {note}");
        }
        let value = if args.compact {
            m.to_compact_value()
        } else {
            m.to_value()
        };
        serde_json::to_string_pretty(&value).map_err(|e| e.to_string())
    })();
    match result {
        Ok(text) => {
            super::write_stdout(&format!("{text}\n"));
            ExitCode::SUCCESS
        }
        Err(e) => fail(&e),
    }
}

/// One line on the tools a build left out (denied, and dropped because denied tools
/// are not included), why, and how to include them; `None` when none was.
fn left_out(tools: &Value, o: &BuildOptions) -> Option<String> {
    if o.include_denied {
        return None;
    }
    let all = build_manifest(
        tools,
        &BuildOptions {
            include_denied: true,
            ..o.clone()
        },
    )
    .manifest;
    let denied: Vec<&harn_compiler::manifest::Binding> = all
        .bindings
        .iter()
        .filter(|b| b.policy.disposition == harn_compiler::manifest::Disposition::Denied)
        .collect();
    let first = denied.first()?;
    let mut names: Vec<&str> = denied.iter().take(8).map(|b| b.name.as_str()).collect();
    if denied.len() > names.len() {
        names.push("...");
    }
    let reason = first.policy.reason.as_deref().unwrap_or("denied by policy");
    Some(format!(
        "{} of {} tools left out ({}): {}. First reason: {reason}. Unannotated tools count as \
         network; to include a read-only tool, annotate it (readOnlyHint: true, openWorldHint: \
         false); --include-denied lists them as not callable; --ceiling sets the level \
         (code mode runs nothing above read_only).",
        denied.len(),
        all.bindings.len(),
        o.side_effect_ceiling.as_str(),
        names.join(", ")
    ))
}

/// Reads a manifest back when the input is one, else builds it from a tool surface.
fn load(
    input: &Value,
    ceiling: Option<&str>,
    include_denied: bool,
    mcp_server: Option<&str>,
) -> Result<Manifest, String> {
    let is_manifest = input
        .as_object()
        .is_some_and(|o| o.get("bindings").is_some_and(Value::is_array));
    if is_manifest {
        return manifest_from_value(input).map_err(|e| e.to_string());
    }
    let o = options(ceiling, include_denied)?;
    match mcp_server {
        Some(server) => Ok(build(&tag_mcp_server(input, server), &o)),
        None => Ok(build(input, &o)),
    }
}

/// `harnc emit`.
pub fn emit(args: &EmitArgs) -> ExitCode {
    let result = (|| -> Result<String, String> {
        let input = match (&args.mcp, &args.input) {
            (Some(command), _) => live_surface(command, args.mcp_stderr)?,
            (None, Some(path)) => read_json(path)?,
            (None, None) => return Err("give a manifest or tool surface file, or --mcp CMD".into()),
        };
        let m = load(
            &input,
            args.ceiling.as_deref(),
            args.include_denied,
            args.mcp_server.as_deref(),
        )?;
        let mut text = match args.kind {
            EmitKind::Harn => harn_codegen::emit_harn(&m),
            EmitKind::Ts => harn_codegen::emit_ts(&m),
            EmitKind::Prompt => harn_codegen::emit_prompt(&m),
        };
        let is_manifest = input.get("bindings").is_some_and(Value::is_array);
        let o = options(args.ceiling.as_deref(), args.include_denied)?;
        if !is_manifest && let Some(note) = left_out(&input, &o) {
            let comment = match args.kind {
                EmitKind::Prompt => "#",
                EmitKind::Harn | EmitKind::Ts => "//",
            };
            if !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(&format!("{comment} {note}\n"));
        }
        Ok(text)
    })();
    match result {
        Ok(text) => match &args.output {
            Some(path) => match std::fs::write(path, text) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(&format!("cannot write {path}: {e}")),
            },
            None => {
                super::write_stdout(&text);
                ExitCode::SUCCESS
            }
        },
        Err(e) => fail(&e),
    }
}
