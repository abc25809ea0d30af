//! End to end for `harnc serve-mcp`: the Python `mcp` SDK (PyPI `mcp`, driven by
//! `tests/fixtures/mcp_agent.py`) is the agent, real npm servers are the upstreams
//! (`@modelcontextprotocol/server-filesystem` on a temp dir, `server-memory`,
//! `server-everything`) with the fault-injecting server for deaths, hangs and tool-list
//! changes; the MCP Inspector's CLI mode lists the tools. `.ci/run` installs all of
//! them; under CI a missing one fails the test, elsewhere it is skipped with a notice.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const HARNC: &str = env!("CARGO_BIN_EXE_harnc");
const EXECUTE: &str = "harn.code.execute_composition";
const API: &str = "harn.code.generate_harn_api";
const EXAMPLES: &str = "harn.code.search_examples";

fn present(what: &str, ok: bool) -> bool {
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "{what} is missing: .ci/run installs it"
        );
        println!("notice: {what} is absent; skipping (run .ci/run)");
    }
    ok
}

fn npm_bin(name: &str) -> Option<PathBuf> {
    let path = Path::new(ROOT)
        .join(".ci/node/node_modules/.bin")
        .join(name);
    present(&path.display().to_string(), path.exists()).then_some(path)
}

fn python_sdk() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import mcp.client.stdio"])
        .output()
        .is_ok_and(|o| o.status.success());
    present("the Python mcp SDK (pip install mcp)", ok)
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("harnc-serve-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("root")).unwrap();
    dir
}

fn fault() -> Value {
    json!({"command": "python3", "args": [format!("{ROOT}/tests/fixtures/fault_mcp_server.py")]})
}

/// The upstreams a test needs (all present, or `None` to skip).
struct Upstreams {
    fs: PathBuf,
    memory: PathBuf,
    everything: PathBuf,
}

fn upstreams() -> Option<Upstreams> {
    let found = (
        python_sdk(),
        npm_bin("mcp-server-filesystem"),
        npm_bin("mcp-server-memory"),
        npm_bin("mcp-server-everything"),
    );
    match found {
        (true, Some(fs), Some(memory), Some(everything)) => Some(Upstreams {
            fs,
            memory,
            everything,
        }),
        _ => None,
    }
}

impl Upstreams {
    fn fs(&self, dir: &Path) -> Value {
        json!({"command": self.fs, "args": [dir.join("root")]})
    }
    fn memory(&self, dir: &Path) -> Value {
        json!({"command": self.memory, "env": {"MEMORY_FILE_PATH": dir.join("memory.jsonl")}})
    }
}

fn write_config(dir: &Path, config: &Value) -> PathBuf {
    let path = dir.join("config.json");
    std::fs::write(&path, serde_json::to_string_pretty(config).unwrap()).unwrap();
    path
}

/// Runs the agent against `harnc serve-mcp --config CONFIG EXTRA..`: its output and
/// the server's stderr.
fn agent(config: &Path, steps: Value, extra: &[&str]) -> (Value, String) {
    let out = Command::new("python3")
        .arg(format!("{ROOT}/tests/fixtures/mcp_agent.py"))
        .arg(steps.to_string())
        .args(["--", HARNC, "serve-mcp", "--config"])
        .arg(config)
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "agent failed: {stderr}");
    let value: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "agent output: {e}: {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    (value, stderr)
}

fn call(tool: &str, args: Value) -> Value {
    json!({"op": "call", "tool": tool, "args": args})
}

fn execute(snippet: &str) -> Value {
    call(EXECUTE, json!({"snippet": snippet}))
}

#[test]
fn the_three_tools_follow_the_profile_and_carry_the_api_and_a_primer() {
    let Some(up) = upstreams() else { return };
    let dir = scratch("list");
    let config = write_config(
        &dir,
        &json!({"mcpServers": {
        "fs": up.fs(&dir), "memory": up.memory(&dir), "ev": {"command": up.everything}}}),
    );
    let (out, _) = agent(&config, json!([{"op": "list"}]), &[]);
    println!(
        "start-up to the first tools/list answer, three upstreams: {:.3} s",
        out["startup_s"]
    );
    let tools = out["results"][0]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, [EXAMPLES, API, EXECUTE]);
    for t in tools {
        assert_eq!(
            t["annotations"],
            json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false})
        );
        assert_eq!(t["inputSchema"]["type"], "object");
    }
    let description = tools[2]["description"].as_str().unwrap();
    // The compact API of the read-only profile, and the primer.
    assert!(
        description.contains("read_text_file(args: {"),
        "{description}"
    );
    assert!(description.contains("search_nodes(args: {"));
    assert!(
        !description.contains("write_file("),
        "write tools are not offered"
    );
    assert!(description.contains("map_bounded") && description.contains("try {"));
    assert_eq!(tools[2]["inputSchema"]["required"], json!(["snippet"]));
}

#[test]
fn underscore_names_serve_clients_that_refuse_dots() {
    let Some(up) = upstreams() else { return };
    let dir = scratch("underscore");
    std::fs::write(dir.join("root/a.txt"), "alpha").unwrap();
    let config = write_config(&dir, &json!({"mcpServers": {"fs": up.fs(&dir)}}));
    let snippet = format!(
        "return read_text_file({{path: \"{}\"}}).content",
        dir.join("root/a.txt").display()
    );
    let (out, _) = agent(
        &config,
        json!([{"op": "list"}, call("harn_code_execute_composition", json!({"snippet": snippet})), execute("return 1")]),
        &["--tool-names", "underscore"],
    );
    let names: Vec<&str> = out["results"][0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "harn_code_search_examples",
            "harn_code_generate_harn_api",
            "harn_code_execute_composition"
        ]
    );
    assert_eq!(out["results"][1]["structured"]["result"], "alpha");
    assert_eq!(out["results"][2]["error"]["code"], -32602);
}

#[test]
fn examples_api_and_a_run_answer_as_the_profile_says() {
    let Some(up) = upstreams() else { return };
    let dir = scratch("tools");
    std::fs::write(dir.join("root/notes.txt"), "one\ntwo\nthree\n").unwrap();
    let config = write_config(
        &dir,
        &json!({"mcpServers": {"fs": up.fs(&dir), "memory": up.memory(&dir)}}),
    );
    let read = format!(
        "let t = read_text_file({{path: \"{}\"}})\nreturn {{lines: len(t.content.split(\"\\n\")) - 1}}",
        dir.join("root/notes.txt").display()
    );
    let (out, _) = agent(
        &config,
        json!([
            call(EXAMPLES, json!({"query": "MAP_BOUNDED"})),
            call(EXAMPLES, json!({"limit": 2})),
            call(
                API,
                json!({"query": "read text file", "limit": 2, "format": "compact"})
            ),
            call(API, json!({"format": "typescript"})),
            execute(&read),
            call(
                EXECUTE,
                json!({"snippet": read, "include_report": true, "run_id": "run-42"})
            ),
            execute("return missing_tool({})"),
        ]),
        &[],
    );
    let r = &out["results"];
    let examples = r[0]["structured"]["examples"].as_array().unwrap();
    assert!(!examples.is_empty());
    for e in examples {
        assert!(e.to_string().to_lowercase().contains("map_bounded"));
        assert_eq!(e["language"], "harn");
        for key in [
            "id",
            "title",
            "snippet",
            "required_side_effect_level",
            "tools",
        ] {
            assert!(e.get(key).is_some(), "{key} in {e}");
        }
    }
    assert_eq!(r[1]["structured"]["examples"].as_array().unwrap().len(), 2);
    let api = &r[2]["structured"];
    assert_eq!(api["tool_count"], 2);
    assert!(
        api["manifest_hash"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
    assert!(
        api["api"]
            .as_str()
            .unwrap()
            .contains("read_text_file(args:")
    );
    let best: Vec<&str> = api["manifest"]["bindings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert!(best.contains(&"read_text_file"), "{best:?}");
    let servers: Vec<&str> = api["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(servers, ["ready", "ready"]);
    assert!(
        r[3]["structured"]["api"]
            .as_str()
            .unwrap()
            .contains("export declare function")
    );
    // The reduced envelope, as structuredContent and as the same JSON in text.
    let run = &r[4];
    assert_eq!(run["is_error"], false);
    assert_eq!(
        run["structured"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        [
            "child_call_count",
            "error",
            "failure_category",
            "ok",
            "result",
            "run_id"
        ]
    );
    assert_eq!(run["structured"]["result"], json!({"lines": 3}));
    assert_eq!(run["structured"]["child_call_count"], 1);
    assert_eq!(
        serde_json::from_str::<Value>(run["text"].as_str().unwrap()).unwrap(),
        run["structured"]
    );
    let full = &r[5]["structured"];
    assert_eq!(full["schema_version"], 1);
    assert_eq!(full["run"]["run_id"], "run-42");
    assert_eq!(full["child_results"][0]["executor"]["server_name"], "fs");
    let failed = &r[6];
    assert_eq!(failed["is_error"], true);
    assert_eq!(failed["structured"]["ok"], false);
    assert_eq!(failed["structured"]["failure_category"], "compile_error");
}

#[test]
fn a_snippet_composes_two_servers_and_matches_harnc_run() {
    let Some(up) = upstreams() else { return };
    let dir = scratch("compose");
    std::fs::write(dir.join("root/topic.txt"), "harn").unwrap();
    let config = write_config(
        &dir,
        &json!({"mcpServers": {"fs": up.fs(&dir), "memory": up.memory(&dir)}}),
    );
    let snippet = format!(
        "let topic = read_text_file({{path: \"{}\"}}).content\n\
         let graph = search_nodes({{query: topic}})\n\
         return {{topic: topic, entities: len(graph.entities)}}",
        dir.join("root/topic.txt").display()
    );
    let (out, _) = agent(&config, json!([execute(&snippet)]), &[]);
    let served = &out["results"][0]["structured"];
    assert_eq!(served["ok"], true, "{served}");
    assert_eq!(served["child_call_count"], 2);
    // The same snippet through `harnc run --mcp` with the same two servers.
    let file = dir.join("compose.harn");
    std::fs::write(&file, &snippet).unwrap();
    let fs_cmd = format!("fs={} {}", up.fs.display(), dir.join("root").display());
    let memory_cmd = format!("memory={}", up.memory.display());
    let run = Command::new(HARNC)
        .arg("run")
        .arg(&file)
        .args(["--mcp", &fs_cmd, "--mcp", &memory_cmd, "--report", "json"])
        .env("MEMORY_FILE_PATH", dir.join("memory.jsonl"))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(report["run"]["result"], served["result"]);
    assert_eq!(served["result"], json!({"topic": "harn", "entities": 0}));
}

#[test]
fn a_write_tool_is_refused_under_the_read_only_profile() {
    let Some(up) = upstreams() else { return };
    let dir = scratch("write");
    let config = write_config(&dir, &json!({"mcpServers": {"fs": up.fs(&dir)}}));
    let target = dir.join("root/new.txt");
    let snippet = format!(
        "return write_file({{path: \"{}\", content: \"x\"}})",
        target.display()
    );
    let (out, _) = agent(
        &config,
        json!([execute(&snippet), call(API, json!({}))]),
        &[],
    );
    let run = &out["results"][0];
    assert_eq!(run["is_error"], true);
    assert_eq!(
        run["structured"]["failure_category"], "policy_denied",
        "{run}"
    );
    assert_eq!(
        run["structured"]["child_call_count"], 1,
        "the denial is recorded"
    );
    assert!(!target.exists(), "the write never reached the server");
    let api = out["results"][1]["structured"]["api"].as_str().unwrap();
    assert!(!api.contains("write_file"));
}

#[test]
fn client_limits_only_lower_the_servers() {
    if !python_sdk() {
        return;
    }
    let dir = scratch("limits");
    let config = write_config(
        &dir,
        &json!({"mcpServers": {"fault": fault()},
        "executor": {"limits": {"timeout_ms": 1500, "call_timeout_ms": 0}}}),
    );
    let (out, _) = agent(
        &config,
        json!([
            call(
                EXECUTE,
                json!({"snippet": "return hang({})", "timeout_ms": 600000})
            ),
            call(
                EXECUTE,
                json!({"snippet": "let a = ok({n: 1})\nreturn ok({n: 2})", "max_operations": 1})
            ),
            call(
                EXECUTE,
                json!({"snippet": "return ok({n: 3})", "max_operations": 1})
            ),
        ]),
        &[],
    );
    let raised = &out["results"][0];
    assert_eq!(
        raised["structured"]["failure_category"], "timeout",
        "{raised}"
    );
    assert!(
        raised["seconds"].as_f64().unwrap() < 5.0,
        "capped at the server's 1.5 s: {raised}"
    );
    assert_eq!(
        out["results"][1]["structured"]["failure_category"],
        "budget_exceeded"
    );
    assert_eq!(out["results"][2]["structured"]["result"], json!({"n": 3}));
}

#[test]
fn an_output_past_the_memory_cap_is_refused_and_the_connection_stays_usable() {
    if !python_sdk() {
        return;
    }
    let dir = scratch("memory");
    let config = write_config(
        &dir,
        &json!({"mcpServers": {"fault": fault()},
        "executor": {"limits": {"max_memory_bytes": 1000000}}}),
    );
    let (out, _) = agent(
        &config,
        json!([
            execute("return len(big({mb: 2}))"),
            execute("return ok({next: 1})")
        ]),
        &[],
    );
    let refused = &out["results"][0]["structured"];
    assert_eq!(refused["failure_category"], "memory_limit", "{refused}");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("about 2097154 bytes")
    );
    assert_eq!(
        out["results"][1]["structured"]["result"],
        json!({"next": 1})
    );
}

#[test]
fn invalid_parameters_are_json_rpc_errors() {
    if !python_sdk() {
        return;
    }
    let dir = scratch("params");
    let config = write_config(&dir, &json!({"mcpServers": {"fault": fault()}}));
    let (out, _) = agent(
        &config,
        json!([
            call("harn.code.nope", json!({})),
            call(EXECUTE, json!({})),
            call(
                EXECUTE,
                json!({"snippet": "return 1", "tools": [{"name": "x"}]})
            ),
            call(EXECUTE, json!({"snippet": "return 1", "trust": true})),
            call(
                EXECUTE,
                json!({"snippet": "return 1", "secrets": ["abcdefgh"]})
            ),
            call(
                EXECUTE,
                json!({"snippet": "return 1", "timeout_ms": "soon"})
            ),
            call(
                EXECUTE,
                json!({"snippet": "return 1", "manifest": {"name": "x"}})
            ),
            call(
                EXECUTE,
                json!({"snippet": "return 1", "manifest": {"bindings": [{"binding": "rm_rf"}]}})
            ),
            call(EXECUTE, json!({"snippet": "return 1", "bindings": ["okk"]})),
            call(EXAMPLES, json!({"limit": 51})),
            call(API, json!({"format": "yaml"})),
            call(EXECUTE, json!({"snippet": "return 1", "colour": "red"})),
        ]),
        &[],
    );
    let messages: Vec<String> = out["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert_eq!(r["error"]["code"], -32602, "{r}");
            r["error"]["message"].as_str().unwrap().to_string()
        })
        .collect();
    assert!(messages[0].starts_with("unknown tool 'harn.code.nope'"));
    assert!(messages[1].contains("missing parameter 'snippet'"));
    assert_eq!(
        messages[2],
        "composition_mcp: tools are configured by the server"
    );
    assert_eq!(
        messages[3],
        "composition_mcp: trust is configured by the server"
    );
    assert_eq!(
        messages[4],
        "composition_mcp: trust is configured by the server"
    );
    assert!(messages[5].contains("'timeout_ms' must be an integer"));
    assert_eq!(
        messages[6],
        "composition_mcp: manifest must contain a list of bindings"
    );
    assert!(messages[7].starts_with("composition_mcp: manifest contains an unregistered binding"));
    assert!(
        messages[8].contains("unregistered binding: 'okk' (did you mean ok?)"),
        "{}",
        messages[8]
    );
    assert!(messages[9].contains("'limit' must be an integer from 1 to 50"));
    assert!(messages[10].contains("'format'"));
    assert!(messages[11].starts_with("unknown parameter 'colour'"));
}

#[test]
fn a_client_selects_registered_bindings_only() {
    if !python_sdk() {
        return;
    }
    let dir = scratch("select");
    let config = write_config(&dir, &json!({"mcpServers": {"fault": fault()}}));
    let (out, _) = agent(
        &config,
        json!([
            call(
                EXECUTE,
                json!({"snippet": "return ok({a: 1})", "bindings": ["ok", "ok"]})
            ),
            call(
                EXECUTE,
                json!({"snippet": "return flaky({})", "bindings": ["ok"]})
            ),
            call(
                EXECUTE,
                json!({"snippet": "return ok({a: 2})",
                "manifest": {"bindings": [{"binding": "ok", "name": "ok", "description": "client copy", "metadata": {"mock_output": 9}}]}})
            ),
        ]),
        &[],
    );
    assert_eq!(out["results"][0]["structured"]["result"], json!({"a": 1}));
    assert_eq!(
        out["results"][1]["structured"]["failure_category"], "compile_error",
        "not selected"
    );
    // The server's own entry runs, not the client's copy.
    assert_eq!(out["results"][2]["structured"]["result"], json!({"a": 2}));
}

#[test]
fn twenty_runs_at_once_share_the_upstreams() {
    let Some(up) = upstreams() else { return };
    let dir = scratch("concurrent");
    for i in 0..20 {
        std::fs::write(dir.join(format!("root/f{i}.txt")), format!("file {i}")).unwrap();
    }
    let config = write_config(&dir, &json!({"mcpServers": {"fs": up.fs(&dir)}}));
    let runs: Vec<Value> = (0..20)
        .map(|i| json!({"snippet": format!("return read_text_file({{path: \"{}\"}}).content", dir.join(format!("root/f{i}.txt")).display())}))
        .collect();
    let (out, _) = agent(
        &config,
        json!([{"op": "concurrent", "tool": EXECUTE, "args": runs}]),
        &[],
    );
    let results = out["results"][0].as_array().unwrap();
    assert_eq!(results.len(), 20);
    let mut ids = std::collections::HashSet::new();
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r["structured"]["result"], format!("file {i}"), "{r}");
        ids.insert(r["structured"]["run_id"].as_str().unwrap().to_string());
    }
    assert_eq!(ids.len(), 20, "each run has its own id");
}

#[test]
fn an_upstream_killed_mid_run_fails_that_run_and_the_next_one_works() {
    if !python_sdk() {
        return;
    }
    let dir = scratch("killed");
    let config = write_config(&dir, &json!({"mcpServers": {"fault": fault()}}));
    let (out, _) = agent(
        &config,
        json!([
            execute("return die({})"),
            execute("return ok({back: true})"),
            call(API, json!({}))
        ]),
        &[],
    );
    assert_eq!(
        out["results"][0]["structured"]["failure_category"],
        "tool_error"
    );
    assert_eq!(
        out["results"][1]["structured"]["result"],
        json!({"back": true})
    );
    assert_eq!(
        out["results"][2]["structured"]["servers"][0]["status"],
        "ready"
    );
}

#[test]
fn cancelling_a_call_stops_its_run_and_its_upstream_call() {
    if !python_sdk() {
        return;
    }
    let dir = scratch("cancel");
    let config = write_config(
        &dir,
        &json!({"mcpServers": {"fault": fault()},
        "executor": {"limits": {"timeout_ms": 60000, "call_timeout_ms": 0}}}),
    );
    let events = dir.join("events.jsonl");
    let (out, stderr) = agent(
        &config,
        json!([
            {"op": "cancel", "tool": EXECUTE, "args": {"snippet": "return hang({})", "run_id": "to-cancel"}, "after": 1.0},
            {"op": "sleep", "s": 0.5},
            execute("return ok({after: 1})"),
        ]),
        &["--mcp-stderr", "--events", events.to_str().unwrap()],
    );
    assert_eq!(
        out["results"][2]["structured"]["result"],
        json!({"after": 1})
    );
    assert!(
        stderr.contains("cancelled request"),
        "the upstream call was cancelled: {stderr}"
    );
    let lines: Vec<Value> = std::fs::read_to_string(&events)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        lines.iter().all(|e| e["run_id"].is_string()),
        "every event has its run id"
    );
    assert!(
        lines
            .iter()
            .any(|e| e["type"] == "composition_cancelled" && e["run_id"] == "to-cancel")
    );
    assert!(lines.iter().any(|e| e["type"] == "composition_finish"));
}

#[test]
fn a_tool_list_change_upstream_refreshes_the_manifest() {
    if !python_sdk() {
        return;
    }
    let dir = scratch("changed");
    let config = write_config(&dir, &json!({"mcpServers": {"fault": fault()}}));
    let (out, _) = agent(
        &config,
        json!([
            execute("return grown({})"),
            execute("return grow({})"),
            {"op": "until", "tool": EXECUTE, "args": {"snippet": "return grown({})"}, "within": 5},
            {"op": "list"},
        ]),
        &[],
    );
    assert_eq!(
        out["results"][0]["structured"]["failure_category"],
        "compile_error"
    );
    assert_eq!(
        out["results"][2]["structured"]["result"],
        "hello from grown"
    );
    let description = out["results"][3]["tools"][2]["description"]
        .as_str()
        .unwrap();
    assert!(description.contains("grown(args:"));
}

#[test]
fn an_upstream_that_cannot_start_is_reported_and_the_rest_serve() {
    if !python_sdk() {
        return;
    }
    let dir = scratch("broken");
    let config = write_config(
        &dir,
        &json!({"mcpServers": {
            "fault": fault(),
            "broken": {"command": "python3", "args": [format!("{ROOT}/tests/fixtures/fault_mcp_server.py"), "exit-at-start"]},
        }}),
    );
    let (out, stderr) = agent(
        &config,
        json!([call(API, json!({})), execute("return ok({x: 1})")]),
        &[],
    );
    let api = &out["results"][0]["structured"];
    let broken = api["servers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "broken")
        .unwrap();
    assert_eq!(broken["status"], "failed");
    assert!(
        broken["error"]
            .as_str()
            .unwrap()
            .contains("refusing to start"),
        "{broken}"
    );
    assert!(
        api["diagnostics"]
            .to_string()
            .contains("'broken' is not running")
    );
    assert_eq!(out["results"][1]["structured"]["result"], json!({"x": 1}));
    assert!(stderr.contains("upstream 'broken' failed"));
}

fn serve_mcp(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(HARNC)
        .arg("serve-mcp")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_missing_or_invalid_configuration_exits_2_before_anything_starts() {
    let dir = scratch("config");
    let (code, err) = serve_mcp(&["--config", dir.join("absent.json").to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("absent.json: cannot read the configuration"),
        "{err}"
    );
    let config = write_config(
        &dir,
        &json!({"mcpServers": {"fs": {"command": "x", "args": "-y"}}}),
    );
    let (code, err) = serve_mcp(&["--config", config.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("config.json: /mcpServers/fs/args: expected a list of strings"),
        "{err}"
    );
    let config = write_config(
        &dir,
        &json!({"mcpServers": {"f": fault()}, "executor": {"denied_tools": ["okk"]}}),
    );
    let (code, err) = serve_mcp(&["--config", config.to_str().unwrap()]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("unknown tool 'okk' in deny-tools (did you mean ok?)"),
        "{err}"
    );
}

#[test]
fn the_inspector_cli_lists_the_tools() {
    let Some(inspector) = npm_bin("mcp-inspector") else {
        return;
    };
    let dir = scratch("inspector");
    let config = write_config(&dir, &json!({"mcpServers": {"fault": fault()}}));
    let inspector_config = dir.join("inspector.json");
    std::fs::write(
        &inspector_config,
        json!({"mcpServers": {"harnc": {"command": HARNC, "args": ["serve-mcp", "--config", config]}}}).to_string(),
    )
    .unwrap();
    let out = Command::new(inspector)
        .args(["--cli", "--config"])
        .arg(&inspector_config)
        .args(["--server", "harnc", "--method", "tools/list"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, [EXAMPLES, API, EXECUTE]);
}

#[test]
fn the_streamable_http_transport_serves_the_same_tools() {
    if !python_sdk() {
        return;
    }
    let dir = scratch("http");
    let config = write_config(&dir, &json!({"mcpServers": {"fault": fault()}}));
    let mut server = Command::new(HARNC)
        .args(["serve-mcp", "--listen", "127.0.0.1:0", "--config"])
        .arg(&config)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The bound address is announced on stderr.
    use std::io::BufRead;
    let mut lines = std::io::BufReader::new(server.stderr.take().unwrap()).lines();
    let url = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| l.split("listening on ").nth(1).map(str::to_string))
        .unwrap();
    let out = Command::new("python3")
        .arg(format!("{ROOT}/tests/fixtures/mcp_agent.py"))
        .arg(json!([{"op": "list"}, execute("return ok({via: \"http\"})")]).to_string())
        .args(["--http", &url])
        .output()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(value["results"][0]["tools"].as_array().unwrap().len(), 3);
    assert_eq!(
        value["results"][1]["structured"]["result"],
        json!({"via": "http"})
    );
}
