//! Every generated `.d.ts` (recorded MCP manifests and the hostile one) passes
//! `tsc --strict --noEmit` (TypeScript 5, installed by `.ci/run` into `.ci/node`).

use std::path::{Path, PathBuf};
use std::process::Command;

use harn_codegen::emit_ts;
use harn_compiler::manifest::{BuildOptions, build_manifest, tag_mcp_server};
use serde_json::{Value, json};

const TSC: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/.ci/node/node_modules/.bin/tsc"
);

fn manifest_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [
        concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/manifests"),
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/manifests"),
    ] {
        if let Ok(rd) = std::fs::read_dir(dir) {
            files.extend(rd.filter_map(|e| e.ok().map(|e| e.path())));
        }
    }
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
}

#[test]
fn declarations_pass_tsc_strict() {
    if !Path::new(TSC).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{TSC} is missing: .ci/run installs it"
        );
        println!("notice: {TSC} is absent; skipping the tsc check (run .ci/run to install it)");
        return;
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("codegen-ts");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut written = Vec::new();
    for variant in [
        json!({"include_denied": true, "gated_tools": ["gated_one"]}),
        json!({"side_effect_ceiling": "desktop_control"}),
    ] {
        let options = BuildOptions::from_value(&variant).unwrap();
        let tag = if variant.get("include_denied").is_some() {
            "ro"
        } else {
            "all"
        };
        for path in manifest_files() {
            let mut tools: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            if let Some(server) = tools.pointer("/serverInfo/name").and_then(Value::as_str) {
                tools = tag_mcp_server(&tools, server);
            }
            let m = build_manifest(&tools, &options).manifest;
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let out = dir.join(format!("{stem}.{tag}.d.ts"));
            std::fs::write(&out, emit_ts(&m)).unwrap();
            written.push(out);
        }
    }
    assert!(written.len() >= 12);
    let output = Command::new(TSC)
        .args(["--strict", "--noEmit", "--target", "es2020"])
        .args(&written)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {TSC}: {e}"));
    assert!(
        output.status.success(),
        "tsc failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}
