//! `harnc builtins [--profile P] [--json]`: the builtin environment as documentation —
//! every builtin a profile installs (`harn_compiler::builtins`), with its signature,
//! capability tag and one-line doc.

use std::process::ExitCode;

use clap::Args;
use harn_compiler::builtins::{BuiltinEnv, Profile};
use serde_json::json;

#[derive(Args)]
pub struct BuiltinsArgs {
    /// The profile to list: `code-mode`, `default` or `trusted` (everything).
    #[arg(long, default_value = "trusted")]
    profile: String,
    /// Print a JSON array of `{name, signature, capability, doc}` instead of text.
    #[arg(long)]
    json: bool,
    /// Check instead that every declared builtin has an implementation in the registry
    /// and every implementation a declaration; print the mismatches, exit 1 if any.
    #[arg(long, hide = true)]
    check: bool,
}

pub fn builtins(args: &BuiltinsArgs) -> ExitCode {
    let Some(profile) = Profile::parse(&args.profile) else {
        eprintln!(
            "harnc: unknown profile '{}' (expected code-mode, default or trusted)",
            args.profile
        );
        return ExitCode::from(2);
    };
    if args.check {
        return check();
    }
    let mut list: Vec<_> = BuiltinEnv::global().for_profile(profile).collect();
    list.sort_by_key(|b| b.name);
    if args.json {
        let items: Vec<_> = list
            .iter()
            .map(|b| {
                json!({
                    "name": b.name,
                    "signature": b.signature,
                    "capability": b.capability.as_str(),
                    "doc": b.doc,
                })
            })
            .collect();
        let text = serde_json::to_string_pretty(&items).unwrap_or_default();
        super::write_stdout(&format!("{text}\n"));
        return ExitCode::SUCCESS;
    }
    let mut text = String::new();
    for b in list {
        text.push_str(&format!(
            "{}  [{}]\n    {}\n",
            signature_line(b.name, b.signature),
            b.capability.as_str(),
            b.doc
        ));
    }
    super::write_stdout(&text);
    ExitCode::SUCCESS
}

/// `name(params) -> result` from the registry's `fn(params) -> result` signature.
fn signature_line(name: &str, signature: &str) -> String {
    match signature.strip_prefix("fn") {
        Some(rest) => format!("{name}{rest}"),
        None => format!("{name}: {signature}"),
    }
}

/// `--check`: declarations against the process registry's implementations.
fn check() -> ExitCode {
    let registry = harn_vm::global();
    let mut text = String::new();
    for name in registry.unimplemented() {
        text.push_str(&format!("declared without an implementation: {name}\n"));
    }
    for name in registry.undeclared() {
        text.push_str(&format!("implemented without a declaration: {name}\n"));
    }
    if text.is_empty() {
        super::write_stdout(&format!(
            "ok: {} builtins declared and implemented\n",
            registry.all().len()
        ));
        return ExitCode::SUCCESS;
    }
    super::write_stdout(&text);
    ExitCode::FAILURE
}
