//! `harnc run` and `harnc disasm`.

use std::io::Write;
use std::process::ExitCode;
use std::rc::Rc;

use clap::Args;
use harn_compiler::compile::compile_program;
use harn_compiler::parse;
use harn_vm::display::display;
use harn_vm::registry::Profile;

use crate::input::read_source;
use crate::runner::run_source;

#[derive(Args)]
#[allow(clippy::struct_field_names)]
pub struct RunArgs {
    /// The program to run (`-` reads standard input).
    pub file: String,
    /// Capability profile for plain runs: `default` (pure helpers, clock, random; no
    /// I/O), `trusted` (adds host I/O) or `code-mode` (pure helpers only).
    #[arg(long, default_value = "default")]
    profile: String,
    /// Run FILE as a code-mode snippet against this binding manifest or tool list
    /// (MCP `tools/list` result, bare tool list, ...); tools answer from the mock host.
    #[arg(long, value_name = "MANIFEST")]
    pub manifest: Option<String>,
    /// Run FILE as a code-mode snippet against the embedded demo manifest.
    #[arg(long)]
    pub code_mode: bool,
    /// In code mode, print the whole report as JSON instead of the returned value.
    #[arg(long, value_name = "FORMAT", value_parser = ["json"])]
    pub report: Option<String>,
    /// Highest side-effect level a tool may have (code mode).
    #[arg(long, value_name = "LEVEL")]
    pub ceiling: Option<String>,
    /// Maximum tool-call attempts (code mode; default 64).
    #[arg(long)]
    pub max_operations: Option<u64>,
    /// Wall-clock budget in milliseconds (code mode; default 10000).
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Output budget in bytes: stdout plus the result (code mode; default 65536).
    #[arg(long)]
    pub max_output_bytes: Option<u64>,
    /// Instruction fuel (code mode; default 10000000).
    #[arg(long)]
    pub max_instructions: Option<u64>,
    /// Maximum call depth (code mode; default 256).
    #[arg(long)]
    pub max_call_depth: Option<u64>,
}

#[derive(Args)]
pub struct DisasmArgs {
    /// The program to compile (`-` reads standard input).
    file: String,
}

pub fn run(args: &RunArgs) -> ExitCode {
    if args.manifest.is_some() || args.code_mode {
        return crate::cmd::code_mode::run(args);
    }
    let Some(profile) = Profile::parse(&args.profile) else {
        eprintln!(
            "harnc: unknown profile '{}' (expected default, trusted or code-mode)",
            args.profile
        );
        return ExitCode::from(2);
    };
    let file = match read_source(&args.file) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("harnc: {e}");
            return ExitCode::from(2);
        }
    };
    let outcome = run_source(&file.text, profile, None);
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(outcome.output.as_bytes());
    let _ = out.flush();
    if let Some(err) = outcome.quiet_err {
        eprintln!("{}", display(&err).unwrap_or_default());
        return ExitCode::FAILURE;
    }
    match outcome.result {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

pub fn disasm(args: &DisasmArgs) -> ExitCode {
    let file = match read_source(&args.file) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("harnc: {e}");
            return ExitCode::from(2);
        }
    };
    let parsed = parse(&file.text);
    if let Some(first) = parsed.first_error() {
        eprintln!("{first}");
        return ExitCode::FAILURE;
    }
    match compile_program(&parsed.program, &file.text) {
        Ok(proto) => {
            let proto = Rc::new(proto);
            print!("{}", proto.disassemble());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
