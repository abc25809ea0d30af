//! `harnc builtins [--profile P] [--json]`: the registry as documentation — every
//! builtin a profile installs, with its signature, capability tag and one-line doc.

use std::process::ExitCode;

use clap::Args;
use harn_vm::registry::{Profile, global};
use serde_json::json;

#[derive(Args)]
pub struct BuiltinsArgs {
    /// The profile to list: `code-mode`, `default` or `trusted` (everything).
    #[arg(long, default_value = "trusted")]
    profile: String,
    /// Print a JSON array of `{name, signature, capability, doc}` instead of text.
    #[arg(long)]
    json: bool,
}

pub fn builtins(args: &BuiltinsArgs) -> ExitCode {
    let Some(profile) = Profile::parse(&args.profile) else {
        eprintln!(
            "harnc: unknown profile '{}' (expected code-mode, default or trusted)",
            args.profile
        );
        return ExitCode::from(2);
    };
    let mut list: Vec<_> = global().for_profile(profile).collect();
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
