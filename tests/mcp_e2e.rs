//! End to end against real MCP servers over stdio: `harnc run --mcp "CMD"` on
//! `@modelcontextprotocol/server-everything` (installed into `.ci/node` by `.ci/run`) and
//! on a fault-injecting server (`tests/fixtures/fault_mcp_server.py`) that answers
//! with JSON-RPC errors, `isError` results, transient failures, hangs and exits.
//!
//! When the npm server is absent these tests fail under CI (`CI` set) and are skipped
//! with a notice elsewhere.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn everything_server() -> Option<PathBuf> {
    let path = Path::new(ROOT).join(".ci/node/node_modules/.bin/mcp-server-everything");
    if path.exists() {
        return Some(path);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{} is missing: .ci/run installs it",
        path.display()
    );
    println!(
        "notice: {} is absent; skipping (run .ci/run)",
        path.display()
    );
    None
}

fn fault_server() -> String {
    format!("python3 {ROOT}/tests/fixtures/fault_mcp_server.py")
}

fn snippet(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("harnc-mcp-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    path
}

/// Runs a snippet with `--report json` and returns the exit code and the report.
fn run(server: &str, name: &str, text: &str, extra: &[&str]) -> (i32, Value) {
    let file = snippet(name, text);
    let out = Command::new(env!("CARGO_BIN_EXE_harnc"))
        .arg("run")
        .arg(&file)
        .args(["--mcp", server, "--report", "json"])
        .args(extra)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}); stdout: {} stderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), report)
}

fn results(report: &Value) -> &Vec<Value> {
    report["child_results"]
        .as_array()
        .unwrap_or_else(|| panic!("no child_results in {report}"))
}

#[test]
fn a_snippet_composes_several_tools_of_server_everything() {
    let Some(server) = everything_server() else {
        return;
    };
    let server = server.display().to_string();
    let (code, report) = run(
        &server,
        "compose.harn",
        r#"let weather = get_structured_content({location: "Chicago"})
let sum = get_sum({a: weather.temperature, b: weather.humidity})
let echoed = call_tool("echo", {message: "sum is ${sum}"})
return {temperature: weather.temperature, humidity: weather.humidity, sum: sum, echoed: echoed}
"#,
        &[],
    );
    assert_eq!(code, 0, "{report:#}");
    let result = &report["run"]["result"];
    assert_eq!(result["temperature"], json!(36));
    assert_eq!(result["humidity"], json!(82));
    let sum = result["sum"].as_str().unwrap_or_default();
    assert!(sum.contains("118"), "{sum}");
    assert_eq!(result["echoed"], json!(format!("Echo: sum is {sum}")));
    let calls: Vec<&str> = report["child_calls"]
        .as_array()
        .map(|c| c.iter().filter_map(|c| c["tool_name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(calls, ["get-structured-content", "get-sum", "echo"]);
    for r in results(&report) {
        assert_eq!(r["status"], "completed", "{r}");
        assert_eq!(r["executor"]["kind"], "mcp_server", "{r}");
    }
    assert_eq!(report["run"]["usage"]["operations"], json!(3));
}

#[test]
fn arguments_are_validated_against_the_servers_input_schema_before_dispatch() {
    let Some(server) = everything_server() else {
        return;
    };
    let (code, report) = run(
        &server.display().to_string(),
        "bad_args.harn",
        "let b = \"two\"\nreturn get_sum({a: 1, b: b})",
        &[],
    );
    assert_eq!(code, 1);
    assert_eq!(report["run"]["failure_category"], "policy_denied");
    let error = report["run"]["error"].as_str().unwrap_or_default();
    assert!(
        error
            .contains("inputSchema validation failed: at /b: expected type 'number', got 'string'"),
        "{error}"
    );
    assert_eq!(results(&report)[0]["error_category"], "schema_validation");
    // The same mistake as a literal is certain before the run: a type error, no calls.
    let (code, report) = run(
        &server.display().to_string(),
        "bad_literal.harn",
        r#"return get_sum({a: 1, b: "two"})"#,
        &[],
    );
    assert_eq!(code, 1);
    assert_eq!(report["run"]["failure_category"], "compile_error");
    assert_eq!(report["child_calls"], json!([]));
    let error = report["run"]["error"].as_str().unwrap_or_default();
    assert!(
        error.starts_with(
            "composition type error at 1:8: binding `get_sum` argument `b` expects number"
        ),
        "{error}"
    );
}

#[test]
fn a_transient_failure_is_retried_for_a_trusted_read_only_tool() {
    let (code, report) = run(
        &fault_server(),
        "flaky.harn",
        "return flaky({})",
        &["--trust-annotations"],
    );
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["run"]["result"], "worked after 2 calls");
    let r = &results(&report)[0];
    assert_eq!(r["attempt"], json!(2));
    assert_eq!(r["retry_errors"], json!(["503 overloaded, try again"]));
    assert_eq!(r["retry_delays_ms"].as_array().map(Vec::len), Some(1));
}

#[test]
fn untrusted_servers_are_not_retried() {
    let (code, report) = run(&fault_server(), "flaky.harn", "return flaky({})", &[]);
    assert_eq!(code, 1);
    assert_eq!(report["run"]["failure_category"], "tool_error");
    assert_eq!(results(&report)[0]["attempt"], json!(1));
}

#[test]
fn both_mcp_error_styles_are_tool_errors() {
    let (_, report) = run(&fault_server(), "rpc.harn", "return rpc_error({})", &[]);
    assert_eq!(report["run"]["failure_category"], "tool_error");
    let r = &results(&report)[0];
    assert_eq!(r["error_category"], "mcp_server_error");
    let error = r["error"].as_str().unwrap_or_default();
    assert!(
        error.ends_with("MCP server error: backend unavailable; data={\"shard\":2}"),
        "{error}"
    );
    let (_, report) = run(&fault_server(), "is_error.harn", "return is_error({})", &[]);
    assert_eq!(report["run"]["failure_category"], "tool_error");
    assert_eq!(results(&report)[0]["error_category"], "tool_error");
    assert_eq!(
        report["run"]["error"],
        "Runtime error: composition binding 'is_error' failed: no such record"
    );
}

#[test]
fn a_tool_error_can_be_caught_by_the_snippet() {
    let (code, report) = run(
        &fault_server(),
        "catch.harn",
        r#"let r = try { is_error({}) } catch (e) { "caught" }
return [r, ok({n: 1})]"#,
        &[],
    );
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["run"]["result"], json!(["caught", {"n": 1}]));
}

#[test]
fn a_hanging_server_ends_the_run_with_a_timeout_and_a_complete_report() {
    let started = Instant::now();
    let (code, report) = run(
        &fault_server(),
        "hang.harn",
        "return hang({})",
        &["--timeout-ms", "1500"],
    );
    assert!(started.elapsed() < Duration::from_secs(20), "harnc hung");
    assert_eq!(code, 1);
    assert_eq!(report["run"]["failure_category"], "timeout");
    let r = &results(&report)[0];
    assert_eq!(r["status"], "failed");
    assert_eq!(r["error_category"], "cancelled");
}

#[test]
fn a_per_call_timeout_is_a_catchable_tool_error() {
    let (code, report) = run(
        &fault_server(),
        "call_timeout.harn",
        r#"let r = try { hang({}) } catch (e) { "gave up" }
return r"#,
        &["--call-timeout-ms", "300", "--timeout-ms", "5000"],
    );
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["run"]["result"], "gave up");
    let r = &results(&report)[0];
    assert_eq!(r["error_category"], "timeout");
    assert_eq!(
        r["error"],
        "composition binding 'hang' timed out after 300ms"
    );
}

#[test]
fn a_server_that_dies_mid_run_gives_a_typed_failure() {
    let (code, report) = run(
        &fault_server(),
        "die.harn",
        "let a = die({})\nreturn a",
        &[],
    );
    assert_eq!(code, 1);
    assert_eq!(report["run"]["failure_category"], "tool_error");
    assert_eq!(results(&report)[0]["error_category"], "network");
}

#[test]
fn denied_tools_are_never_dispatched() {
    let (code, report) = run(
        &fault_server(),
        "denied.harn",
        "return die({})",
        &["--deny-tools", "die"],
    );
    assert_eq!(code, 1);
    assert_eq!(report["run"]["failure_category"], "policy_denied");
    let r = &results(&report)[0];
    assert_eq!(r["error_category"], "permission_denied");
    assert_eq!(r["executor"]["kind"], "harn_builtin");
}

/// `harnc run --mcp SERVER` on a trivial snippet without a report: status and stderr.
fn run_plain(server: &str, extra: &[&str]) -> (Option<i32>, String) {
    let file = snippet("plain.harn", "return 1");
    let out = Command::new(env!("CARGO_BIN_EXE_harnc"))
        .arg("run")
        .arg(&file)
        .args(["--mcp", server])
        .args(extra)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_server_that_cannot_start_is_a_tool_error_in_both_modes() {
    let (code, stderr) = run_plain("/nonexistent/mcp-server", &[]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("cannot start MCP server"), "{stderr}");
    let (code, report) = run("/nonexistent/mcp-server", "nothing.harn", "return 1", &[]);
    assert_eq!(code, 1);
    assert_eq!(report["run"]["failure_category"], "tool_error");
}

#[test]
fn a_server_that_exits_at_start_reports_its_status_and_stderr() {
    let server = format!("{} exit-at-start", fault_server());
    let (code, report) = run(&server, "exits.harn", "return ok({})", &[]);
    assert_eq!(code, 1);
    assert_eq!(report["run"]["failure_category"], "tool_error");
    let error = report["run"]["error"].as_str().unwrap();
    assert!(error.contains("exit status: 4"), "{error}");
    assert!(
        error.contains("refusing to start (config missing)"),
        "{error}"
    );
    let (code, stderr) = run_plain(&server, &[]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("before answering initialize"), "{stderr}");
}

#[test]
fn start_up_is_bounded_by_the_connect_timeout_and_the_run_deadline() {
    let server = format!("{} never-init", fault_server());
    let (code, report) = run(
        &server,
        "never.harn",
        "return ok({})",
        &["--connect-timeout-ms", "300"],
    );
    assert_eq!(code, 1);
    assert_eq!(report["run"]["failure_category"], "tool_error");
    let error = report["run"]["error"].as_str().unwrap();
    assert!(
        error.contains("did not answer initialize within 300 ms"),
        "{error}"
    );
    // The run's deadline bounds start-up too.
    let (_, report) = run(
        &server,
        "never.harn",
        "return ok({})",
        &["--timeout-ms", "200"],
    );
    let error = report["run"]["error"].as_str().unwrap();
    assert!(error.contains("within 200 ms"), "{error}");
    // A slow but answering server within the bound works.
    let slow = format!("{} slow-init 0.2", fault_server());
    let (code, report) = run(&slow, "slow.harn", "return ok({a: 1})", &[]);
    assert_eq!(code, 0, "{report}");
}

#[test]
fn a_timed_out_call_is_cancelled_on_the_server() {
    let file = snippet(
        "cancel.harn",
        "let r = try { hang({}) } catch (e) { \"gave up\" }\nlet o = ok({a: 1})\nreturn [r, o]",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_harnc"))
        .arg("run")
        .arg(&file)
        .args(["--mcp", &fault_server(), "--mcp-stderr"])
        .args(["--call-timeout-ms", "300", "--max-attempts", "1"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The fixture writes each `notifications/cancelled` it receives to its stderr,
    // which `--mcp-stderr` lets through.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cancelled request"), "{stderr}");
}

#[test]
fn a_response_larger_than_sixteen_mebibytes_is_received() {
    let (code, report) = run(
        &fault_server(),
        "big.harn",
        "let t = big({mb: 20})\nreturn len(t)",
        &["--max-string-bytes", "33554432"],
    );
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["run"]["result"], 20 * 1024 * 1024);
    // Charged once, at its real size: the transport's buffers are not the run's.
    let peak = report["run"]["usage"]["peak_memory_bytes"]
        .as_u64()
        .unwrap();
    assert!(peak < 24 * 1024 * 1024, "peak {peak} for a 20 MiB output");
}

#[test]
fn an_output_past_the_memory_cap_is_refused_naming_its_size() {
    let started = Instant::now();
    let (code, report) = run(
        &fault_server(),
        "big_cap.harn",
        "let t = big({mb: 2})\nreturn len(t)",
        &["--max-memory-bytes", "1000000", "--timeout-ms", "5000"],
    );
    assert_eq!(code, 1);
    assert_eq!(report["run"]["failure_category"], "memory_limit");
    let error = report["run"]["error"].as_str().unwrap();
    assert!(
        error.contains("max_memory_bytes=1000000: the output of 'big' is about 2097154 bytes"),
        "{error}"
    );
    let peak = report["run"]["usage"]["peak_memory_bytes"]
        .as_u64()
        .unwrap();
    assert!(
        peak < 1_000_000,
        "refused before it became a value: peak {peak}"
    );
    assert!(started.elapsed() < Duration::from_millis(5500));
    let (_, report) = run(
        &fault_server(),
        "big_string.harn",
        "return big({mb: 2})",
        &["--max-string-bytes", "1000000"],
    );
    assert_eq!(report["run"]["failure_category"], "memory_limit");
    assert!(
        report["run"]["error"]
            .as_str()
            .unwrap()
            .contains("is a string of 2097152 bytes")
    );
}

#[test]
fn a_snippet_composes_two_servers_in_one_run() {
    let Some(everything) = everything_server() else {
        return;
    };
    let fault = format!("fault={}", fault_server());
    let (code, report) = run(
        &format!("ev={}", everything.display()),
        "two_servers.harn",
        "let s = get_sum({a: 2, b: 3})\nlet o = ok({sum: s})\nreturn o",
        &["--mcp", &fault],
    );
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(
        report["run"]["result"],
        json!({"sum": "The sum of 2 and 3 is 5."})
    );
}

#[test]
fn a_tool_name_two_servers_share_is_qualified_by_server() {
    let a = format!("a={}", fault_server());
    let b = format!("b={}", fault_server());
    let (code, report) = run(
        &a,
        "shared_names.harn",
        "return [a_ok({from: 1}), b_ok({from: 2})]",
        &["--mcp", &b],
    );
    assert_eq!(code, 0, "{report:#}");
    assert_eq!(report["run"]["result"], json!([{"from": 1}, {"from": 2}]));
    let servers: Vec<&str> = results(&report)
        .iter()
        .filter_map(|r| r["executor"]["server_name"].as_str())
        .collect();
    assert_eq!(servers, ["a", "b"]);
    // Two servers under one name are a usage error.
    let (code, _) = run_plain(&fault_server(), &["--mcp", &fault_server()]);
    assert_eq!(code, Some(2));
}

#[test]
fn a_recorded_run_replays_offline_with_the_same_result() {
    let text = "let a = ok({x: 1})\nlet b = ok({x: 2})\nlet f = try { is_error({}) } catch (e) { \"caught: ${e}\" }\nreturn {a: a, b: b, f: f}";
    let dir = std::env::temp_dir().join(format!("harnc-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fixtures = dir.join("answers.json");
    let (code, live) = run(
        &fault_server(),
        "record.harn",
        text,
        &["--record", fixtures.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{live:#}");
    // The server's manifest, captured, and the recorded answers: no server needed.
    let manifest = dir.join("manifest.json");
    let captured = Command::new(env!("CARGO_BIN_EXE_harnc"))
        .args(["manifest", "--mcp", &fault_server()])
        .output()
        .unwrap();
    std::fs::write(&manifest, &captured.stdout).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_harnc"))
        .arg("run")
        .arg(snippet("replay.harn", text))
        .args(["--manifest", manifest.to_str().unwrap()])
        .args(["--fixtures", fixtures.to_str().unwrap(), "--report", "json"])
        .output()
        .unwrap();
    let replayed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(replayed["run"]["result"], live["run"]["result"]);
    assert_eq!(
        live["run"]["result"]["f"],
        json!("caught: Runtime error: composition binding 'is_error' failed: no such record")
    );
}
