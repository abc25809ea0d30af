//! `harnc parse` and `harnc check`.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use harn_compiler::ast_dump::dump;
use harn_compiler::diagnostic::{Diagnostic, Severity};
use harn_compiler::layout::layout;
use harn_compiler::lexer::lex;
use harn_compiler::manifest::Manifest;
use harn_compiler::pipeline::{Env, compile_source, snippet_error_message};
use harn_compiler::{LineIndex, parse};

use crate::input::read_source;

/// How diagnostics are printed on stderr.
#[derive(Clone, Copy, ValueEnum, Default)]
pub enum ErrorFormat {
    /// Source snippets with the error underlined.
    #[default]
    Pretty,
    /// One line per diagnostic: `file:line:col: error[CODE]: message`.
    Short,
}

#[derive(Args)]
pub struct ParseArgs {
    /// Source files (`-` reads standard input).
    #[arg(required = true)]
    files: Vec<String>,
    /// Print the token stream (after the layout pass) on stdout.
    #[arg(long)]
    tokens: bool,
    /// Print the syntax tree on stdout.
    #[arg(long)]
    ast: bool,
    /// Diagnostic format on stderr.
    #[arg(long, value_enum, default_value_t)]
    error_format: ErrorFormat,
}

#[derive(Args)]
pub struct CheckArgs {
    /// Source files (`-` reads standard input).
    #[arg(required = true)]
    files: Vec<String>,
    /// Diagnostic format on stderr.
    #[arg(long, value_enum, default_value_t)]
    error_format: ErrorFormat,
    /// With `--manifest`, `--mcp` or `--code-mode`, each file is checked as a code-mode
    /// snippet against that manifest, exactly as `harnc run` would before running it
    /// (denied builtins, imports, concurrency, unknown tools, literal argument types).
    #[command(flatten)]
    surface: crate::cmd::code_mode::CheckSurfaceArgs,
}

pub fn print_diagnostics(name: &str, text: &str, diagnostics: &[Diagnostic], format: ErrorFormat) {
    let index = LineIndex::new(text);
    let color = std::io::stderr().is_terminal();
    let mut err = std::io::stderr().lock();
    for d in diagnostics {
        let out = match format {
            ErrorFormat::Pretty => d.render(name, text, color),
            ErrorFormat::Short => format!("{}\n", d.one_line(name, &index)),
        };
        let _ = err.write_all(out.as_bytes());
    }
}

pub fn run_parse(args: &ParseArgs) -> ExitCode {
    let mut failed = false;
    let mut out = std::io::stdout().lock();
    for path in &args.files {
        let file = match read_source(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("harnc: {e}");
                failed = true;
                continue;
            }
        };
        if args.tokens {
            let index = LineIndex::new(&file.text);
            let laid = layout(lex(&file.text).tokens, 0);
            for t in &laid.tokens {
                let (line, col) = index.line_col(t.span.start as usize);
                let _ = writeln!(out, "{line}:{col} {}", t.display(&file.text));
            }
        }
        let parsed = parse(&file.text);
        if args.ast {
            let _ = writeln!(out, "{}", dump(&parsed.program));
        }
        print_diagnostics(
            &file.name,
            &file.text,
            &parsed.diagnostics,
            args.error_format,
        );
        failed |= parsed.has_errors();
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `harnc check`: syntax, then compilation (plain files) or the code-mode static
/// stage (snippets). Every diagnostic is reported; nothing runs.
pub fn run_check(args: &CheckArgs) -> ExitCode {
    let surface = args.surface.as_run_args();
    let manifest = if surface.enabled() {
        match crate::cmd::code_mode::manifest_for_check(&surface) {
            Ok(m) => Some(m),
            Err(e) => {
                eprintln!("harnc: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        None
    };
    let mut failed = false;
    for path in &args.files {
        let file = match read_source(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("harnc: {e}");
                failed = true;
                continue;
            }
        };
        let diagnostics = match &manifest {
            Some(m) => snippet_diagnostics(&file.text, m),
            None => compile_source(&file.text, &Env::Script).1,
        };
        failed |= diagnostics.iter().any(Diagnostic::is_error);
        print_diagnostics(&file.name, &file.text, &diagnostics, args.error_format);
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A snippet's diagnostics as a run would word them: an error's code is the failure
/// category (`denied_builtin`, `compile_error`, ...) and its message the report's, less
/// the position the line already shows; warnings keep their own code and text.
fn snippet_diagnostics(snippet: &str, manifest: &Manifest) -> Vec<Diagnostic> {
    let diagnostics = match harn_compiler::pipeline::check_snippet(snippet, manifest) {
        Ok(accepted) => accepted.warnings,
        Err(refusal) => refusal.diagnostics,
    };
    diagnostics
        .into_iter()
        .map(|d| match d.severity {
            Severity::Warning => d,
            Severity::Error => Diagnostic {
                code: harn_codemode::static_category(d.static_category()).as_str(),
                message: snippet_error_message(&d),
                ..d
            },
        })
        .collect()
}
