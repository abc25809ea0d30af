//! `harnc fmt`: formats files in place, or standard input to standard output.

use std::process::ExitCode;

use clap::Args;
use harn_compiler::format::{FormatError, FormatOptions, format_source};

use super::parse::{ErrorFormat, print_diagnostics};
use crate::input::read_source;

#[derive(Args)]
pub struct FmtArgs {
    /// Files to format in place (`-` reads standard input and writes standard output).
    #[arg(required = true)]
    files: Vec<String>,
    /// Change nothing: list the files that would change and exit 1 if there are any.
    #[arg(long)]
    check: bool,
    /// Break lines longer than this (inside call arguments, lists and dicts).
    #[arg(long, default_value_t = 100, value_name = "COLUMNS")]
    width: usize,
    /// Diagnostic format for files with syntax errors.
    #[arg(long, value_enum, default_value_t)]
    error_format: ErrorFormat,
}

/// What happened to one file.
enum Outcome {
    Unchanged,
    Changed,
    Failed,
}

fn one(path: &str, args: &FmtArgs) -> Outcome {
    let source = match read_source(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Outcome::Failed;
        }
    };
    let options = FormatOptions { width: args.width };
    let formatted = match format_source(&source.text, &options) {
        Ok(f) => f,
        Err(FormatError::Syntax(diagnostics)) => {
            eprintln!(
                "error: {}: not formatted: it has syntax errors",
                source.name
            );
            print_diagnostics(&source.name, &source.text, &diagnostics, args.error_format);
            return Outcome::Failed;
        }
        Err(e) => {
            eprintln!("error: {}: {e}", source.name);
            return Outcome::Failed;
        }
    };
    let changed = formatted != source.text;
    if path == "-" {
        if args.check {
            if changed {
                println!("<stdin>");
            }
        } else {
            super::write_stdout(&formatted);
        }
    } else if changed {
        if args.check {
            println!("{path}");
        } else if let Err(e) = std::fs::write(path, &formatted) {
            eprintln!("error: cannot write {path}: {e}");
            return Outcome::Failed;
        }
    }
    if changed {
        Outcome::Changed
    } else {
        Outcome::Unchanged
    }
}

/// `harnc fmt`.
pub fn fmt(args: &FmtArgs) -> ExitCode {
    let mut failed = false;
    let mut would_change = false;
    for path in &args.files {
        match one(path, args) {
            Outcome::Unchanged => {}
            Outcome::Changed => would_change = true,
            Outcome::Failed => failed = true,
        }
    }
    if failed || (args.check && would_change) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
