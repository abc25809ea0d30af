//! `harnc manifest` and `harnc emit` driven through the real binary.

use std::process::Command;

use serde_json::Value;

const TIME: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/manifests/time.json");

fn harnc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_harnc"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn manifest_prints_sorted_json() {
    let out = harnc(&["manifest", TIME]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["side_effect_ceiling"], "read_only");
    assert_eq!(v["bindings"][0]["binding"], "convert_time");
    let compact = harnc(&[
        "manifest",
        TIME,
        "--compact",
        "--ceiling",
        "none",
        "--include-denied",
    ]);
    let v: Value = serde_json::from_slice(&compact.stdout).unwrap();
    assert!(v.get("metadata").is_none());
    assert_eq!(v["bindings"][0]["policy"]["disposition"], "denied");
    let bad = harnc(&["manifest", TIME, "--ceiling", "readonly"]);
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("unknown side_effect_ceiling 'readonly'")
    );
}

#[test]
fn emit_from_tools_and_from_a_manifest_agree() {
    let harn = harnc(&["emit", "harn", TIME]);
    assert!(harn.status.success());
    let manifest = harnc(&["manifest", TIME]);
    let dir = std::env::temp_dir().join(format!("harnc-emit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("m.json");
    std::fs::write(&path, &manifest.stdout).unwrap();
    let p = path.to_str().unwrap();
    let again = harnc(&["emit", "harn", p]);
    assert_eq!(harn.stdout, again.stdout);
    let out_file = dir.join("api.d.ts");
    let ts = harnc(&["emit", "ts", p, "-o", out_file.to_str().unwrap()]);
    assert!(ts.status.success());
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert!(text.contains("export declare function get_current_time"));
    let prompt = harnc(&["emit", "prompt", TIME]);
    assert!(
        String::from_utf8_lossy(&prompt.stdout)
            .contains("get_current_time(args: {timezone: string})")
    );
}

#[test]
fn manifest_captures_a_live_mcp_server() {
    let server = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/fault_mcp_server.py"
    );
    let out = harnc(&["manifest", "--mcp", &format!("python3 {server}")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let bindings = v["bindings"].as_array().unwrap();
    assert!(!bindings.is_empty());
    assert_eq!(bindings[0]["source"], "mcp_server");
    let emitted = harnc(&["emit", "prompt", "--mcp", &format!("python3 {server}")]);
    assert!(emitted.status.success());
    assert!(String::from_utf8_lossy(&emitted.stdout).contains("flaky(args:"));
    // A file and --mcp together is a usage error.
    let both = harnc(&["manifest", TIME, "--mcp", "python3"]);
    assert_eq!(both.status.code(), Some(2));
    let missing = harnc(&["manifest", "--mcp", "/nonexistent/server"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot start MCP server"));
}

#[test]
fn left_out_tools_are_accounted_for() {
    let dir = std::env::temp_dir().join(format!("harnc-leftout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tools = dir.join("unannotated.json");
    std::fs::write(
        &tools,
        r#"[{"name": "create_issue", "inputSchema": {"type": "object"}},
            {"name": "get_issue", "inputSchema": {"type": "object"}}]"#,
    )
    .unwrap();
    let path = tools.to_str().unwrap();
    for (kind, comment) in [("prompt", "#"), ("harn", "//"), ("ts", "//")] {
        let out = harnc(&["emit", kind, path]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        let last = text.lines().last().unwrap();
        assert!(
            last.starts_with(comment)
                && last.contains("2 of 2 tools left out")
                && last.contains("create_issue"),
            "{kind}: {last}"
        );
    }
    let out = harnc(&["manifest", path]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["bindings"], serde_json::json!([]));
    assert!(String::from_utf8_lossy(&out.stderr).contains("note: 2 of 2 tools left out"));
    // Nothing is left out when denied tools are kept.
    let out = harnc(&["emit", "prompt", path, "--include-denied"]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("left out"));
    let _ = std::fs::remove_dir_all(&dir);
}
