//! Generated APIs for every recorded MCP manifest (`../shared/manifests`) and the hostile
//! manifest (`tests/data/manifests`): insta snapshots of the `.harn`, `.d.ts` and prompt
//! output; every `.harn` parses without errors; output is byte-identical across runs.

use std::path::{Path, PathBuf};

use harn_codegen::{emit_harn, emit_prompt, emit_ts};
use harn_compiler::manifest::{BuildOptions, Manifest, build_manifest, tag_mcp_server};
use serde_json::{Value, json};

const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/manifests");
const LOCAL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/manifests");

fn manifest_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [SHARED, LOCAL] {
        if let Ok(rd) = std::fs::read_dir(dir) {
            files.extend(rd.filter_map(|e| e.ok().map(|e| e.path())));
        }
    }
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
}

fn build(path: &Path) -> Manifest {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let tools = served(serde_json::from_str(&text).unwrap());
    let options =
        BuildOptions::from_value(&json!({"include_denied": true, "gated_tools": ["gated_one"]}))
            .unwrap();
    build_manifest(&tools, &options).manifest
}

/// A recorded `tools/list` capture names its server: tag the tools as harnc does when it
/// lists a live server.
fn served(tools: Value) -> Value {
    match tools.pointer("/serverInfo/name").and_then(Value::as_str) {
        Some(server) => tag_mcp_server(&tools, server),
        None => tools,
    }
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

#[test]
fn every_manifest_is_present() {
    let stems: Vec<String> = manifest_files().iter().map(|p| stem(p)).collect();
    for want in [
        "everything",
        "filesystem",
        "memory",
        "sequential-thinking",
        "time",
        "hostile",
    ] {
        assert!(stems.iter().any(|s| s == want), "missing {want}: {stems:?}");
    }
}

#[test]
fn harn_api_snapshots() {
    for path in manifest_files() {
        let m = build(&path);
        let text = emit_harn(&m);
        assert_eq!(text, emit_harn(&build(&path)), "not deterministic");
        let parsed = harn_compiler::parse(&text);
        assert!(
            parsed.diagnostics.is_empty(),
            "{}: generated .harn does not parse: {:?}",
            stem(&path),
            parsed.diagnostics
        );
        insta::assert_snapshot!(format!("{}.harn", stem(&path)), text);
    }
}

#[test]
fn typescript_snapshots() {
    for path in manifest_files() {
        let m = build(&path);
        let text = emit_ts(&m);
        assert_eq!(text, emit_ts(&build(&path)), "not deterministic");
        insta::assert_snapshot!(format!("{}.d.ts", stem(&path)), text);
    }
}

#[test]
fn prompt_snapshots() {
    for path in manifest_files() {
        let m = build(&path);
        let text = emit_prompt(&m);
        assert_eq!(text, emit_prompt(&build(&path)), "not deterministic");
        insta::assert_snapshot!(format!("{}.prompt", stem(&path)), text);
    }
}

#[test]
fn manifest_json_snapshots() {
    for path in manifest_files() {
        let m = build(&path);
        let text = serde_json::to_string_pretty(&m.to_compact_value()).unwrap();
        insta::assert_snapshot!(format!("{}.compact.json", stem(&path)), text);
    }
}

/// Behaviour 8 of code-mode.md section 10.
#[test]
fn docs_read_file_declarations() {
    let tools = json!([{"name": "docs__read_file", "_mcp_server": "docs", "_mcp_tool_name": "read_file",
        "description": "Read a text file from the docs tree",
        "inputSchema": {"type": "object", "required": ["path"],
            "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}}},
        "annotations": {"readOnlyHint": true, "openWorldHint": false}}]);
    let m = build_manifest(&tools, &BuildOptions::default()).manifest;
    assert_eq!(m.bindings[0].binding, "docs_read_file");
    assert!(
        m.to_compact_value()["bindings"][0]
            .get("input_schema")
            .is_none()
    );
    let ts = emit_ts(&m);
    assert!(ts.contains("export declare function docs_read_file"));
    assert!(ts.contains("path: string"));
    assert!(ts.contains("limit?: number"));
    let harn = emit_harn(&m);
    assert!(harn.contains("// MCP docs/read_file -> docs_read_file"));
    assert!(harn.contains("type DocsReadFileArgs = {limit?: int, path: string}"));
    assert!(harn.contains("fn docs_read_file(args: DocsReadFileArgs)"));
    assert!(harn.contains("return call_tool(\"docs__read_file\", args)"));
}
