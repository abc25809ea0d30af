//! `harnc parse` and `harnc check`.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use harn_compiler::ast::Span;
use harn_compiler::ast_dump::dump;
use harn_compiler::compile::{CompileError, compile_program};
use harn_compiler::diagnostic::{Diagnostic, codes};
use harn_compiler::layout::layout;
use harn_compiler::lexer::lex;
use harn_compiler::{LineIndex, Parsed, parse};

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
    /// Other flags are accepted for symmetry with `run` and ignored.
    #[command(flatten)]
    code_mode: crate::cmd::code_mode::CodeModeArgs,
}

fn report(name: &str, text: &str, parsed: &Parsed, format: ErrorFormat) {
    let index = LineIndex::new(text);
    let color = std::io::stderr().is_terminal();
    let mut err = std::io::stderr().lock();
    for d in &parsed.diagnostics {
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
                let _ = writeln!(out, "{line}:{col} {}", t.tok);
            }
        }
        let parsed = parse(&file.text);
        if args.ast {
            let _ = writeln!(out, "{}", dump(&parsed.program));
        }
        report(&file.name, &file.text, &parsed, args.error_format);
        failed |= parsed.has_errors();
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `harnc check`: syntax, then compilation (plain files) or the code-mode static
/// stage (snippets). Nothing runs.
pub fn run_check(args: &CheckArgs) -> ExitCode {
    let manifest = if args.code_mode.enabled() {
        match crate::cmd::code_mode::manifest_for_check(&args.code_mode) {
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
        let parsed = parse(&file.text);
        report(&file.name, &file.text, &parsed, args.error_format);
        if parsed.has_errors() {
            failed = true;
            continue;
        }
        let problem = match &manifest {
            Some(m) => harn_codemode::check_snippet(&file.text, m)
                .err()
                .map(|(category, message)| format!("error[{}]: {message}", category.as_str())),
            None => compile_program(&parsed.program, &file.text)
                .err()
                .map(|e| compile_problem(&file.name, &file.text, &e, args.error_format)),
        };
        if let Some(problem) = problem {
            failed = true;
            if manifest.is_some() {
                eprintln!("{}: {problem}", file.name);
            } else {
                eprint!("{problem}");
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// A compile error as a diagnostic on its whole line.
fn compile_problem(name: &str, text: &str, e: &CompileError, format: ErrorFormat) -> String {
    let line = e.line.max(1) as usize;
    let start: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    let end = text[start.min(text.len())..]
        .find('\n')
        .map_or(text.len(), |n| start + n);
    let d = Diagnostic::error(codes::COMPILE, &e.message, Span::new(start, end), "here");
    match format {
        ErrorFormat::Pretty => d.render(name, text, std::io::stderr().is_terminal()),
        ErrorFormat::Short => format!("{}\n", d.one_line(name, &LineIndex::new(text))),
    }
}
