//! `harnc run --manifest FILE SNIPPET` / `harnc run --code-mode SNIPPET`: one governed
//! code-mode run with the mock host.

use std::process::ExitCode;
use std::rc::Rc;

use harn_compiler::manifest::{BuildOptions, Manifest, build_manifest, manifest_from_value};
use harn_vm::executor::{MockHost, Options, execute};
use serde_json::{Value as Json, json};

use super::run::RunArgs;
use crate::input::read_source;

/// The embedded demo manifest, so `--code-mode` works on a fresh machine.
const DEMO_TOOLS: &str = include_str!("../demo_manifest.json");

/// A binding manifest as given, or one built from a tool surface. Known but denied
/// tools are included so calling one produces a denial receipt.
fn load_manifest(text: &str, ceiling: Option<&str>) -> Result<Manifest, String> {
    let value: Json =
        serde_json::from_str(text).map_err(|e| format!("manifest is not JSON: {e}"))?;
    let is_manifest = value.get("schema_version").is_some() && value.get("bindings").is_some();
    if is_manifest {
        return manifest_from_value(&value).map_err(|e| format!("invalid manifest: {e}"));
    }
    let mut options = json!({"include_denied": true});
    if let Some(c) = ceiling {
        options["side_effect_ceiling"] = json!(c);
    }
    let options = BuildOptions::from_value(&options).map_err(|e| e.to_string())?;
    let built = build_manifest(&value, &options);
    for d in &built.diagnostics {
        eprintln!("harnc: warning: {}", d.message);
    }
    Ok(built.manifest)
}

fn options(args: &RunArgs) -> Result<Options, String> {
    let mut o = json!({});
    let mut set = |k: &str, v: Option<u64>| {
        if let Some(v) = v {
            o[k] = json!(v);
        }
    };
    set("max_operations", args.max_operations);
    set("timeout_ms", args.timeout_ms);
    set("max_output_bytes", args.max_output_bytes);
    set("max_instructions", args.max_instructions);
    set("max_call_depth", args.max_call_depth);
    Options::from_json(&o)
}

pub fn run(args: &RunArgs) -> ExitCode {
    let snippet = match read_source(&args.file) {
        Ok(f) => f.text,
        Err(e) => {
            eprintln!("harnc: {e}");
            return ExitCode::from(2);
        }
    };
    let manifest_text = match &args.manifest {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("harnc: cannot read {path}: {e}");
                return ExitCode::from(2);
            }
        },
        None => DEMO_TOOLS.to_string(),
    };
    let manifest = match load_manifest(&manifest_text, args.ceiling.as_deref()) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("harnc: {e}");
            return ExitCode::from(2);
        }
    };
    let options = match options(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("harnc: {e}");
            return ExitCode::from(2);
        }
    };
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("harnc: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let report = rt.block_on(execute(&snippet, &manifest, &options, Rc::new(MockHost)));
    let ok = report["ok"] == json!(true);
    if args.report.is_some() {
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        if let Some(out) = report["run"]["stdout"].as_str() {
            eprint!("{out}");
        }
        if ok {
            println!(
                "{}",
                serde_json::to_string_pretty(&report["run"]["result"]).unwrap_or_default()
            );
        } else {
            eprintln!(
                "error [{}]: {}",
                report["run"]["failure_category"]
                    .as_str()
                    .unwrap_or("unknown"),
                report["run"]["error"].as_str().unwrap_or("")
            );
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
