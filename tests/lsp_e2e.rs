//! The language server over stdio with the real binary: a client written here speaks
//! JSON-RPC with Content-Length framing to `harnc lsp`, the way an editor does, and
//! checks the answers a snippet author relies on, the manifest's sources, robustness
//! against bad input, and the protocol's exit rules.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const TIMEOUT: Duration = Duration::from_secs(20);

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications and server requests received while waiting for something else.
    backlog: Vec<Value>,
}

fn manifest_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/manifests")
        .join(name)
}

fn manifest_json(name: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(manifest_path(name)).unwrap()).unwrap()
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            length = v.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Client {
    fn start(root: Option<&Path>) -> Client {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_harnc"));
        cmd.arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(r) = root {
            cmd.current_dir(r);
        }
        let mut child = cmd.spawn().unwrap();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(m) = read_message(&mut r) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        Client {
            child,
            stdin,
            incoming: rx,
            next_id: 0,
            backlog: Vec::new(),
        }
    }

    fn send_raw(&mut self, body: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        stdin.write_all(body).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, v: &Value) {
        self.send_raw(v.to_string().as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Answers a request from the server (configuration, registration).
    fn answer(&mut self, m: &Value, config: &Value) {
        let result = match m["method"].as_str() {
            Some("workspace/configuration") => json!([config]),
            _ => Value::Null,
        };
        let id = m["id"].clone();
        self.send(&json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }

    fn recv(&mut self, deadline: Instant) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.incoming.recv_timeout(left) {
            Ok(m) => m,
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server in time"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(json!(id))
    }

    fn response(&mut self, id: Value) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let m = self.recv(deadline);
            if m.get("method").is_some() && m.get("id").is_some() {
                self.answer(&m, &json!({}));
            } else if m.get("method").is_some() {
                self.backlog.push(m);
            } else if m["id"] == id {
                return m;
            }
        }
    }

    /// The next notification `method` (for `uri`, when given) matching `pred`.
    fn notification(&mut self, method: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self
            .backlog
            .iter()
            .position(|m| m["method"] == method && pred(&m["params"]))
        {
            return self.backlog.remove(i);
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let m = self.recv(deadline);
            if m.get("method").is_some() && m.get("id").is_some() {
                self.answer(&m, &json!({}));
            } else if m["method"] == method && pred(&m["params"]) {
                return m;
            } else if m.get("method").is_some() {
                self.backlog.push(m);
            }
        }
    }

    /// Waits until a publication for `uri` has no error-level diagnostic (the fix
    /// cleared it); earlier publications are skipped.
    fn errors_cleared(&mut self, uri: &str) {
        self.notification("textDocument/publishDiagnostics", |p| {
            p["uri"] == uri
                && p["diagnostics"]
                    .as_array()
                    .is_some_and(|d| d.iter().all(|x| x["severity"] != 1))
        });
    }

    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let m = self.notification("textDocument/publishDiagnostics", |p| p["uri"] == uri);
        m["params"]["diagnostics"].as_array().unwrap().clone()
    }

    fn initialize(&mut self, root: Option<&Path>, options: Value, capabilities: Value) {
        let root_uri = root.map(|r| format!("file://{}", r.display()));
        let r = self.request(
            "initialize",
            json!({"processId": null, "rootUri": root_uri, "capabilities": capabilities,
                   "initializationOptions": options}),
        );
        assert!(
            r["result"]["capabilities"]["completionProvider"].is_object(),
            "{r}"
        );
        self.notify("initialized", json!({}));
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "harn", "version": 1, "text": text}}),
        );
    }

    fn at(&mut self, method: &str, uri: &str, line: u32, character: u32) -> Value {
        self.request(
            method,
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        )
    }

    /// Waits for the process to end, killing it after the timeout.
    fn wait_exit(&mut self) -> i32 {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().unwrap_or(-1);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the server did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `shutdown` then `exit`, with stdin still open: the status must be 0.
    fn shutdown(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert!(r.get("error").is_none(), "{r}");
        self.notify("exit", Value::Null);
        assert_eq!(self.wait_exit(), 0);
    }
}

impl Drop for Client {
    /// A failed assertion must not leave a server running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn labels(completion: &Value) -> Vec<String> {
    let items = completion["result"]
        .as_array()
        .or_else(|| completion["result"]["items"].as_array())
        .unwrap();
    items
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

const URI: &str = "file:///work/snippet.harn";

#[test]
fn a_snippet_session_with_an_inline_manifest() {
    let mut c = Client::start(None);
    c.initialize(
        None,
        json!({"manifest": manifest_json("filesystem.json")}),
        json!({}),
    );
    let text = "let listing = list_directory({path: \"/tmp\"})\nprintln(listin)\nlet text = read_text_file({})\n";
    c.open(URI, text);
    let diagnostics: Vec<Value> = c
        .diagnostics(URI)
        .into_iter()
        .filter(|d| d["severity"] == 1)
        .collect();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 1);
    assert!(
        diagnostics[0]["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `listing`")
    );

    // Binding completion with signature and policy.
    let r = c.at("textDocument/completion", URI, 0, 19);
    let items = r["result"].as_array().unwrap();
    let list_dir = items
        .iter()
        .find(|i| i["label"] == "list_directory")
        .unwrap();
    assert!(
        list_dir["detail"]
            .as_str()
            .unwrap()
            .contains("{path: string}")
    );
    assert!(
        list_dir["labelDetails"]["description"]
            .as_str()
            .unwrap()
            .contains("read_only")
    );
    // Argument keys inside an auto-closed `({})`.
    let r = c.at("textDocument/completion", URI, 2, 27);
    assert_eq!(labels(&r), vec!["path", "head", "tail"]);

    // Hover, signature help, definition.
    let r = c.at("textDocument/hover", URI, 2, 14);
    let hover = r["result"]["contents"]["value"].as_str().unwrap();
    assert!(
        hover.contains("read_text_file(args: {") && hover.contains("read_only"),
        "{hover}"
    );
    let r = c.at("textDocument/signatureHelp", URI, 2, 27);
    assert!(
        r["result"]["signatures"][0]["label"]
            .as_str()
            .unwrap()
            .starts_with("read_text_file(")
    );
    assert_eq!(r["result"]["activeParameter"], 0);
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2},
               "contentChanges": [{"range": {"start": {"line": 1, "character": 8},
                                             "end": {"line": 1, "character": 14}},
                                   "text": "listing"}]}),
    );
    // The fix clears the error.
    c.errors_cleared(URI);
    let r = c.at("textDocument/definition", URI, 1, 10);
    assert_eq!(
        r["result"]["range"]["start"],
        json!({"line": 0, "character": 4})
    );

    // A syntax error keeps the locals.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 3},
               "contentChanges": [{"text": "let listing = list_directory({path: \"/tmp\"})\nlet broken = (1 +\nlet n = lis"}]}),
    );
    let d = c.diagnostics(URI);
    assert!(!d.is_empty());
    let r = c.at("textDocument/completion", URI, 2, 11);
    let l = labels(&r);
    assert!(l.contains(&"listing".to_string()), "{l:?}");
    c.shutdown();
}

#[test]
fn bad_input_gets_errors_and_the_server_stays_up() {
    let mut c = Client::start(None);
    c.initialize(None, json!({}), json!({}));
    // Not JSON at all.
    c.send_raw(b"{this is not json");
    let r = c.response(Value::Null);
    assert_eq!(r["error"]["code"], -32700, "{r}");
    // An unknown method.
    let r = c.request("harn/doesNotExist", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    // A document that is not open.
    let r = c.at("textDocument/hover", "file:///nowhere.harn", 0, 0);
    assert!(
        r["error"]["message"].as_str().unwrap().contains("not open"),
        "{r}"
    );
    // Invalid parameters.
    let r = c.request("textDocument/completion", json!({"bogus": true}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    // A 5 MB document is analysed, and the server still answers.
    let line = "let value = [1, 2, 3].map({ x -> x * 2 })\n";
    let big = line.repeat(5 * 1024 * 1024 / line.len());
    c.open("file:///big.harn", &big);
    let _ = c.diagnostics("file:///big.harn");
    let r = c.at("textDocument/hover", "file:///big.harn", 0, 5);
    assert!(r.get("error").is_none(), "{r}");
    c.shutdown();
}

#[test]
fn a_manifest_of_two_thousand_tools_is_served() {
    let tools: Vec<Value> = (0..2000)
        .map(|i| {
            json!({"name": format!("tool_{i}"), "description": format!("Tool number {i}"),
                        "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}},
                                        "required": ["n"]},
                        "annotations": {"readOnlyHint": true}})
        })
        .collect();
    let mut c = Client::start(None);
    c.initialize(None, json!({"manifest": {"tools": tools}}), json!({}));
    c.open(URI, "let r = tool_1999({n: 1})\nlet s = tool_\n");
    let _ = c.diagnostics(URI);
    let r = c.at("textDocument/completion", URI, 1, 13);
    assert!(labels(&r).contains(&"tool_1999".to_string()));
    let r = c.at("textDocument/hover", URI, 0, 10);
    assert!(
        r["result"]["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("Tool number 1999")
    );
    c.shutdown();
}

#[test]
fn exit_without_shutdown_is_status_one() {
    let mut c = Client::start(None);
    c.initialize(None, json!({}), json!({}));
    c.notify("exit", Value::Null);
    assert_eq!(c.wait_exit(), 1);
}

fn workspace(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("harnc-lsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn manifest_sources_in_order() {
    // manifestPath, relative to the workspace root; it wins over harn.manifest.json.
    let root = workspace("path");
    std::fs::copy(manifest_path("time.json"), root.join("tools.json")).unwrap();
    std::fs::copy(
        manifest_path("filesystem.json"),
        root.join("harn.manifest.json"),
    )
    .unwrap();
    let mut c = Client::start(Some(&root));
    c.initialize(
        Some(&root),
        json!({"manifestPath": "tools.json"}),
        json!({}),
    );
    c.open(URI, "let t = get_\n");
    let _ = c.diagnostics(URI);
    let l = labels(&c.at("textDocument/completion", URI, 0, 12));
    assert!(
        l.contains(&"get_current_time".to_string()) && !l.contains(&"get_file_info".to_string()),
        "{l:?}"
    );
    c.shutdown();

    // harn.manifest.json at the root, re-read when the client reports a change.
    let mut c = Client::start(Some(&root));
    c.initialize(Some(&root), json!({}), json!({}));
    c.open(URI, "let t = get_current_time({timezone: \"UTC\"})\n");
    let d = c.diagnostics(URI);
    assert_eq!(
        d.len(),
        1,
        "filesystem manifest has no get_current_time: {d:?}"
    );
    std::fs::copy(manifest_path("time.json"), root.join("harn.manifest.json")).unwrap();
    let changed = format!("file://{}/harn.manifest.json", root.display());
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": changed, "type": 2}]}),
    );
    c.errors_cleared(URI);
    // An invalid manifest: a diagnostic on the file, a message, no bindings, still up.
    std::fs::write(root.join("harn.manifest.json"), "{\n  \"tools\": [,]\n}").unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": changed, "type": 2}]}),
    );
    let shown = c.notification("window/showMessage", |_| true);
    assert!(
        shown["params"]["message"]
            .as_str()
            .unwrap()
            .contains("not JSON"),
        "{shown}"
    );
    let on_file = c.diagnostics(&changed);
    assert_eq!(on_file[0]["range"]["start"]["line"], 1, "{on_file:?}");
    let r = c.at("textDocument/hover", URI, 0, 0);
    assert!(r.get("error").is_none());
    c.shutdown();

    // The `harn` configuration section, pulled from the client.
    let root = workspace("config");
    let mut c = Client::start(Some(&root));
    c.initialize(
        Some(&root),
        json!({}),
        json!({"workspace": {"configuration": true}}),
    );
    // Answer the server's configuration request with an inline manifest.
    let deadline = Instant::now() + TIMEOUT;
    let config = json!({"manifest": manifest_json("memory.json")});
    loop {
        let m = c.recv(deadline);
        if m["method"] == "workspace/configuration" {
            c.answer(&m, &config);
            break;
        } else if m.get("id").is_some() && m.get("method").is_some() {
            c.answer(&m, &Value::Null);
        }
    }
    let logged = c.notification("window/logMessage", |p| {
        p["message"]
            .as_str()
            .is_some_and(|m| m.contains("bindings from harn.manifest"))
    });
    assert!(
        logged["params"]["message"]
            .as_str()
            .unwrap()
            .contains("9 bindings"),
        "{logged}"
    );
    c.open(URI, "let g = read_\n");
    let _ = c.diagnostics(URI);
    let l = labels(&c.at("textDocument/completion", URI, 0, 13));
    assert!(l.contains(&"read_graph".to_string()), "{l:?}");
    c.shutdown();
}

#[test]
fn formatting_and_range_formatting() {
    let mut c = Client::start(None);
    c.initialize(None, json!({}), json!({}));
    c.open(URI, "let  a=1\nlet b = 2\nlog( a ,b )\n");
    let _ = c.diagnostics(URI);
    let options = json!({"tabSize": 2, "insertSpaces": true});
    let r = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": options}),
    );
    let edits = r["result"].as_array().unwrap();
    assert_eq!(edits.len(), 1, "{r}");
    assert_eq!(edits[0]["newText"], "let a = 1\nlet b = 2\nlog(a, b)\n");
    let r = c.request(
        "textDocument/rangeFormatting",
        json!({"textDocument": {"uri": URI}, "options": options,
               "range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 3}}}),
    );
    let edits = r["result"].as_array().unwrap();
    assert_eq!(edits.len(), 1, "{r}");
    assert_eq!(edits[0]["range"]["start"]["line"], 2);
    assert_eq!(edits[0]["newText"], "log(a, b)\n");
    // A document with a syntax error is not formatted.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": "let x = (\n"}]}),
    );
    let r = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": options}),
    );
    assert!(r["result"].is_null(), "{r}");
    c.shutdown();
}
