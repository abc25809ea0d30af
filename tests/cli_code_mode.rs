//! `harnc run` in code mode, driven as a user would: the embedded demo manifest, a tool
//! list file, the JSON report and the exit codes.

mod common;

use common::harnc;

fn temp_file(name: &str, text: &str) -> std::path::PathBuf {
    common::temp_file_in("cm", name, text)
}

fn report(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "report is not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

#[test]
fn the_example_snippet_runs_against_the_demo_manifest() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/code_mode.harn");
    let out = harnc()
        .args(["run", "--code-mode", example])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(value["total_words"], serde_json::json!(24));
    assert_eq!(
        value["pages"][0]["title"],
        serde_json::json!("Introduction")
    );
}

#[test]
fn the_report_lists_every_child_call_and_denials_are_receipts() {
    let snippet = temp_file(
        "s.harn",
        "let hits = docs_search({query: \"x\"})\nlet t = try { tickets_create({title: \"t\"}) } catch (e) { e }\nreturn t",
    );
    let out = harnc()
        .args(["run", "--code-mode", "--report", "json"])
        .arg(&snippet)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.status.success());
    let r = report(&out);
    assert_eq!(r["ok"], serde_json::json!(true));
    assert_eq!(r["child_calls"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        r["child_results"][1]["error_category"],
        serde_json::json!("permission_denied")
    );
    assert!(
        r["run"]["result"]
            .as_str()
            .unwrap_or_default()
            .contains("denied")
    );
    assert!(
        r["run"]["snippet_hash"]
            .as_str()
            .unwrap_or_default()
            .starts_with("sha256:")
    );
}

#[test]
fn a_failed_run_exits_1_and_still_prints_a_complete_report() {
    let tools = temp_file(
        "tools.json",
        r#"[{"name": "lookup", "annotations": {"readOnlyHint": true, "openWorldHint": false}}]"#,
    );
    let snippet = temp_file("loop.harn", "while true { lookup({}) }");
    let out = harnc()
        .args([
            "run",
            "--report",
            "json",
            "--max-operations",
            "3",
            "--manifest",
        ])
        .arg(&tools)
        .arg(&snippet)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(1));
    let r = report(&out);
    assert_eq!(
        r["run"]["failure_category"],
        serde_json::json!("budget_exceeded")
    );
    assert_eq!(r["child_calls"].as_array().map(Vec::len), Some(3));
}

#[test]
fn a_fixtures_file_scripts_failures_and_outputs() {
    let tools = temp_file(
        "fixture_tools.json",
        r#"[{"name": "search", "annotations": {"kind": "read", "side_effect_level": "read_only"}},
            {"name": "other", "annotations": {"kind": "read", "side_effect_level": "read_only"}}]"#,
    );
    let fixtures = temp_file(
        "fixtures.json",
        r#"{"search": {"sequence": [
              {"error": "upstream overloaded", "category": "network"},
              {"output": {"hits": 3}}]}}"#,
    );
    let snippet = temp_file(
        "fixtures.harn",
        "let r = search({q: \"x\"})\nlet o = try { other({}) } catch (e) { \"${e}\" }\nreturn [r.hits, o]",
    );
    let out = harnc()
        .args(["run", "--report", "json", "--manifest"])
        .arg(&tools)
        .arg("--fixtures")
        .arg(&fixtures)
        .arg(&snippet)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let r = report(&out);
    assert_eq!(out.status.code(), Some(0), "{r:#}");
    assert_eq!(
        r["run"]["result"],
        serde_json::json!([
            3,
            "Runtime error: composition binding 'other' failed: no fixture for tool 'other'"
        ])
    );
    // The transient failure was retried (a read-only harn tool), then succeeded.
    assert_eq!(r["child_results"][0]["attempt"], serde_json::json!(2));
    assert_eq!(
        r["child_results"][0]["retry_errors"],
        serde_json::json!(["upstream overloaded"])
    );
}

#[test]
fn a_bad_fixtures_file_is_a_usage_error() {
    let fixtures = temp_file("bad_fixtures.json", r#"{"search": {"outputs": 1}}"#);
    let snippet = temp_file("nothing.harn", "return 1");
    let out = harnc()
        .args(["run", "--code-mode", "--fixtures"])
        .arg(&fixtures)
        .arg(&snippet)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("a step needs exactly one of `output` or `error`"),
        "{stderr}"
    );
}

#[test]
fn a_run_that_cannot_start_still_prints_a_report() {
    // Runs harnc with `args`; it must fail (exit 1) and print a report on stdout.
    let failed_report = |args: &[&std::ffi::OsStr]| -> serde_json::Value {
        let out = harnc()
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out.status.code(), Some(1));
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"))
    };
    let dir = std::env::temp_dir().join(format!("harnc-cm-start-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let snippet = dir.join("bytes.harn");
    std::fs::write(&snippet, b"return \"\xff\xfe\"\n").unwrap_or_else(|e| panic!("{e}"));
    let report = failed_report(&[
        "run".as_ref(),
        "--code-mode".as_ref(),
        "--report".as_ref(),
        "json".as_ref(),
        snippet.as_os_str(),
    ]);
    assert_eq!(report["run"]["failure_category"], "compile_error");
    let manifest = dir.join("bad.json");
    std::fs::write(
        &manifest,
        r#"{"tools": [], "executor": {"limits": {"max_operations": -1}}}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let plain = dir.join("ok.harn");
    std::fs::write(&plain, "return 1\n").unwrap_or_else(|e| panic!("{e}"));
    let report = failed_report(&[
        "run".as_ref(),
        "--report".as_ref(),
        "json".as_ref(),
        "--manifest".as_ref(),
        manifest.as_os_str(),
        plain.as_os_str(),
    ]);
    assert_eq!(report["run"]["failure_category"], "schema_validation");
}

#[test]
fn the_default_run_id_is_a_uuid_v7() {
    let snippet = temp_file("run_id.harn", "return 1\n");
    let ids: Vec<String> = (0..2)
        .map(|_| {
            let out = harnc()
                .args(["run", "--code-mode", "--report", "json"])
                .arg(&snippet)
                .output()
                .unwrap();
            report(&out)["run"]["run_id"].as_str().unwrap().to_string()
        })
        .collect();
    let v7 =
        regex::Regex::new(r"^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
            .unwrap();
    for id in &ids {
        assert!(v7.is_match(id), "{id}");
    }
    assert_ne!(ids[0], ids[1]);
}

#[test]
fn a_ceiling_above_read_only_is_refused_before_the_run() {
    let snippet = temp_file("ceiling.harn", "return 1\n");
    let out = harnc()
        .args(["run", "--code-mode", "--ceiling", "workspace_write"])
        .arg(&snippet)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("read-only by contract"), "{err}");
    let out = harnc()
        .args([
            "run",
            "--code-mode",
            "--ceiling",
            "workspace_write",
            "--report",
            "json",
        ])
        .arg(&snippet)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(report(&out)["run"]["failure_category"], "policy_denied");
    let ok = harnc()
        .args(["run", "--code-mode", "--ceiling", "none"])
        .arg(&snippet)
        .output()
        .unwrap();
    assert!(ok.status.success());
}

#[test]
fn tool_lists_fail_closed_on_names_that_match_no_tool() {
    let snippet = temp_file("lists.harn", "return 1\n");
    for flag in ["--deny-tools", "--gate-tools", "--allow-tools"] {
        let out = harnc()
            .args([
                "run",
                "--code-mode",
                flag,
                "lookup_orderz",
                "--report",
                "json",
            ])
            .arg(&snippet)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{flag}");
        let r = report(&out);
        assert_eq!(r["run"]["failure_category"], "schema_validation", "{flag}");
        let error = r["run"]["error"].as_str().unwrap();
        assert!(
            error.starts_with("unknown tool 'lookup_orderz' in "),
            "{error}"
        );
    }
}
