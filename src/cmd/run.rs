//! `harnc run` and `harnc disasm`.

use std::io::Write;
use std::process::ExitCode;
use std::rc::Rc;

use clap::Args;
use harn_compiler::pipeline::{Env, compile_source, script_error_text};
use harn_vm::display::display;
use harn_vm::registry::Profile;

use crate::input::read_source;
use crate::runner::run_source;

/// The profile of a run that names none.
pub const DEFAULT_PROFILE: &str = "default";

#[derive(Args)]
pub struct RunArgs {
    /// The program to run (`-` reads standard input).
    pub file: String,
    /// Capability profile for plain runs: `default` (pure helpers, clock, random; no
    /// I/O), `trusted` (adds host I/O) or `code-mode` (pure helpers only).
    #[arg(long, default_value = DEFAULT_PROFILE)]
    profile: String,
    #[command(flatten)]
    pub code_mode: crate::cmd::code_mode::CodeModeArgs,
}

#[derive(Args)]
pub struct DisasmArgs {
    /// The program to compile (`-` reads standard input).
    file: String,
}

#[cfg(test)]
impl RunArgs {
    /// The `--profile` given, as written.
    pub fn profile_name(&self) -> &str {
        &self.profile
    }
}

pub fn run(args: &RunArgs) -> ExitCode {
    if args.code_mode.enabled() {
        return crate::cmd::code_mode::run(&args.file, &args.code_mode);
    }
    let Some(profile) = Profile::parse(&args.profile) else {
        eprintln!(
            "harnc: unknown profile '{}' (expected default, trusted or code-mode)",
            args.profile
        );
        return ExitCode::from(2);
    };
    run_program(&args.file, profile)
}

/// Runs the program at `path` (`-`: standard input) in `profile`, outside code mode.
pub fn run_program(path: &str, profile: Profile) -> ExitCode {
    let file = match read_source(path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("harnc: {e}");
            return ExitCode::from(2);
        }
    };
    let mut outcome = run_source(&file.text, profile, None);
    // The process exits next, and the OS takes the heap back at once; dropping the
    // machine would free every value the program built one by one (a tenth of the run
    // for a program that ends holding 300k dicts).
    std::mem::forget(outcome.machine.take());
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
    match compile_source(&file.text, &Env::Script) {
        (Some(proto), _) => {
            let proto = Rc::new(proto);
            super::write_stdout(&proto.disassemble());
            ExitCode::SUCCESS
        }
        (None, diagnostics) => {
            if let Some(first) = diagnostics.iter().find(|d| d.is_error()) {
                eprintln!("{}", script_error_text(first, &file.text));
            }
            ExitCode::FAILURE
        }
    }
}
