//! `harnc`: the command-line front of the Harn code-mode toolchain.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// On Linux with glibc the process enters at `entry::main`, past Rust's runtime start
// (see there why).
#![cfg_attr(all(not(test), target_os = "linux", target_env = "gnu"), no_main)]

mod cmd;
mod command_stack;
mod composition;
mod entry;
mod expect;
mod input;
mod runner;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// harnc — compile, check and run Harn code-mode snippets.
#[derive(Parser)]
#[command(name = "harnc", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Lex and parse files; report syntax errors (exit 1 if any file has one).
    Parse(cmd::parse::ParseArgs),
    /// Check files without running them: syntax and compilation, or with a manifest the
    /// code-mode static checks (exit 1 if any file has an error).
    Check(Box<cmd::parse::CheckArgs>),
    /// Compile and run a program; its output goes to stdout, an uncaught error to
    /// stderr with exit status 1.
    Run(Box<cmd::run::RunArgs>),
    /// Run `X.harn` tests against `X.expected` output or `X.error` fragments.
    Test(cmd::test::TestArgs),
    /// Show the bytecode of a program.
    Disasm(cmd::run::DisasmArgs),
    /// Build the binding manifest of a tool surface and print it as JSON.
    Manifest(cmd::manifest::ManifestArgs),
    /// Generate the `.harn` API, TypeScript declarations or prompt text of a manifest.
    Emit(cmd::manifest::EmitArgs),
    /// List the builtins a profile installs, with signature, capability tag and doc.
    Builtins(cmd::builtins::BuiltinsArgs),
    /// Format files in place (`-`: standard input to standard output). Only whitespace
    /// changes; comments and literals are kept; long calls, lists and dicts are broken
    /// at `--width`; a file with syntax errors is refused. `--check` lists files that
    /// would change and exits 1 if any would.
    Fmt(cmd::fmt::FmtArgs),
    /// Run the language server on stdin/stdout (diagnostics, manifest-aware completion,
    /// hover, signature help, navigation). The manifest comes from the client's
    /// `initializationOptions` (`manifest` inline or `manifestPath`), else
    /// `harn.manifest.json` at the workspace root, else the `harn.manifest` setting;
    /// capture a live server's with `harnc manifest --mcp CMD > harn.manifest.json`.
    Lsp,
    /// Serve code mode over MCP in front of the MCP servers a configuration file names:
    /// three read-only tools (`harn.code.search_examples`, `harn.code.generate_harn_api`,
    /// `harn.code.execute_composition`) over stdin/stdout, or streamable HTTP with
    /// `--listen`. A missing or invalid configuration exits 2 before anything starts.
    ServeMcp(cmd::serve::ServeArgs),
}

/// Every builtin harnc installs: the standard library and the composition builtins.
pub fn register_builtins(b: &mut harn_vm::registry::RegistryBuilder) {
    harn_stdlib::register(b);
    composition::register(b);
}

/// Counts live bytes per thread so code-mode runs can enforce `max_memory_bytes`.
#[global_allocator]
pub(crate) static ALLOCATOR: harn_vm::meter::Metered = harn_vm::meter::Metered;

/// `harnc run FILE` and nothing else, the way snippets are usually run: the file, for
/// a run in the default profile outside code mode, found without clap. Building even
/// the `run` subcommand's arguments was a twentieth of a small run's start-up
/// instructions. Anything else (options, `-`, help, a mistake) goes through the full
/// parser, which also words every error; a test holds the two to the same meaning.
fn plain_run(args: &[std::ffi::OsString]) -> Option<&str> {
    let [_, sub, file] = args else {
        return None;
    };
    let file = file.to_str()?;
    (sub == "run" && !file.starts_with('-')).then_some(file)
}

#[cfg(any(test, not(all(target_os = "linux", target_env = "gnu"))))]
fn main() -> ExitCode {
    ExitCode::from(entry::run())
}

/// Parses the command line and runs the command.
fn command() -> ExitCode {
    harn_vm::init(register_builtins);
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(file) = plain_run(&args) {
        return cmd::run::run_program(file, harn_vm::registry::Profile::Default);
    }
    let cli = Cli::parse_from(args);
    match cli.command {
        Command::Parse(args) => cmd::parse::run_parse(&args),
        Command::Check(args) => cmd::parse::run_check(&args),
        Command::Run(args) => cmd::run::run(&args),
        Command::Test(args) => cmd::test::test(&args),
        Command::Disasm(args) => cmd::run::disasm(&args),
        Command::Manifest(args) => cmd::manifest::manifest(&args),
        Command::Emit(args) => cmd::manifest::emit(&args),
        Command::Builtins(args) => cmd::builtins::builtins(&args),
        Command::Fmt(args) => cmd::fmt::fmt(&args),
        Command::ServeMcp(args) => cmd::serve::serve(&args),
        Command::Lsp => match harn_lsp::serve_stdio() {
            0 => ExitCode::SUCCESS,
            _ => ExitCode::FAILURE,
        },
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<std::ffi::OsString> {
        args.iter().map(Into::into).collect()
    }

    /// The short path yields what the full parser does for `harnc run FILE`, and stands
    /// aside for anything else.
    #[test]
    fn a_plain_run_parses_as_the_full_parser_does() {
        let args = os(&["harnc", "run", "x.harn"]);
        let short = plain_run(&args).expect("a plain run");
        let Command::Run(full) = Cli::try_parse_from(&args).unwrap().command else {
            panic!("not a run");
        };
        assert_eq!(short, full.file);
        assert_eq!(full.profile_name(), cmd::run::DEFAULT_PROFILE);
        assert_eq!(
            harn_vm::registry::Profile::parse(cmd::run::DEFAULT_PROFILE),
            Some(harn_vm::registry::Profile::Default)
        );
        assert!(!full.code_mode.enabled());
        for other in [
            &["harnc", "run", "-"][..],
            &["harnc", "run", "--help"],
            &["harnc", "run", "x.harn", "--profile", "trusted"],
            &["harnc", "check", "x.harn"],
            &["harnc", "run"],
        ] {
            assert!(plain_run(&os(other)).is_none(), "{other:?}");
        }
    }
}
