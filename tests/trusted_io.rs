//! Host I/O of trusted scripts through the real binary: HTTP against a local server,
//! `exec` with an argument vector, files — and the same script refused by the default
//! profile.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::Command;

/// Serves `n` requests: answers each with its method, path and body as JSON.
fn serve(n: usize) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap_or_else(|e| panic!("{e}"));
    let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
    std::thread::spawn(move || {
        for stream in listener.incoming().take(n) {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap_or_else(|e| panic!("{e}")));
            let mut request_line = String::new();
            let _ = reader.read_line(&mut request_line);
            let mut length = 0usize;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
            }
            let mut body = vec![0u8; length];
            let _ = reader.read_exact(&mut body);
            let mut parts = request_line.split_whitespace();
            let answer = serde_json::json!({
                "method": parts.next(),
                "path": parts.next(),
                "body": String::from_utf8_lossy(&body),
            })
            .to_string();
            let status = if request_line.contains("/missing") {
                "404 Not Found"
            } else {
                "200 OK"
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nX-Test: yes\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                answer.len()
            );
        }
    });
    format!("http://{addr}")
}

fn run(profile: &str, script: &str) -> std::process::Output {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("harnc-trusted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let file = dir.join(format!(
        "{profile}-{}.harn",
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&file, script).unwrap_or_else(|e| panic!("{e}"));
    Command::new(env!("CARGO_BIN_EXE_harnc"))
        .args(["run", "--profile", profile])
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn http_get_and_post_reach_a_real_server() {
    let base = serve(3);
    let script = format!(
        r#"let got = http_get("{base}/items?id=7", {{headers: {{accept: "application/json"}}}})
log(got.status)
log(got.ok)
log(got.headers["x-test"])
log(json_parse(got.body).path)
let posted = http_post("{base}/items", {{name: "widget"}})
let echoed = json_parse(posted.body)
log(echoed.method)
log(echoed.body)
let missing = http_get("{base}/missing")
log(missing.status)
log(missing.ok)
"#
    );
    let out = run("trusted", &script);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        stdout,
        "[harn] 200\n[harn] true\n[harn] yes\n[harn] /items?id=7\n[harn] POST\n[harn] {\"name\":\"widget\"}\n[harn] 404\n[harn] false\n"
    );
}

#[test]
fn a_network_failure_is_a_catchable_error() {
    let out = run(
        "trusted",
        r#"let r = try { http_get("http://127.0.0.1:9/nothing", {timeout_ms: 2000}) } catch (e) { "failed: " + e }
log(starts_with(r, "failed: http_get: http://127.0.0.1:9/nothing: "))
"#,
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "[harn] true\n");
}

#[test]
fn exec_runs_an_argument_vector_without_a_shell() {
    let out = run(
        "trusted",
        r#"let r = exec(["echo", "a; echo injected"])
log(r.stdout)
log(r.ok)
"#,
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "[harn] a; echo injected\n\n[harn] true\n"
    );
}

#[test]
fn the_default_profile_has_no_host_io() {
    for call in [
        "http_get(\"http://127.0.0.1:9\")",
        "exec([\"id\"])",
        "read_file(\"x\")",
    ] {
        let out = run("default", call);
        assert_eq!(out.status.code(), Some(1), "{call}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("Undefined builtin"), "{call}: {stderr}");
    }
}
