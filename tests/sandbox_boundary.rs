//! Proof of the sandbox boundary on the real binary and its real registry: the
//! code-mode profile holds only `pure` and `tool_egress` builtins, host I/O exists only
//! in the trusted profile, and a snippet naming a host builtin is refused before it runs
//! with a message naming the capability family.

use std::process::Command;

use serde_json::Value;

fn harnc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_harnc"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn builtins(profile: &str) -> Vec<Value> {
    let out = harnc(&["builtins", "--profile", profile, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice::<Vec<Value>>(&out.stdout).unwrap_or_else(|e| panic!("{e}"))
}

fn names(list: &[Value]) -> Vec<&str> {
    list.iter().filter_map(|b| b["name"].as_str()).collect()
}

#[test]
fn the_code_mode_profile_holds_only_pure_helpers_and_tool_egress() {
    let list = builtins("code-mode");
    assert!(list.len() > 100, "the code-mode profile looks empty");
    for b in &list {
        let tag = b["capability"].as_str().unwrap_or_default();
        assert!(matches!(tag, "pure" | "tool_egress"), "{b}");
        assert!(
            b["signature"]
                .as_str()
                .is_some_and(|s| s.starts_with("fn(")),
            "{b}"
        );
        assert!(b["doc"].as_str().is_some_and(|d| !d.is_empty()), "{b}");
    }
    let names = names(&list);
    for must in ["call_tool", "map_bounded", "json_parse", "len", "split"] {
        assert!(names.contains(&must), "{must} missing from code mode");
    }
}

#[test]
fn host_io_exists_only_in_the_trusted_profile() {
    let host = [
        "read_file",
        "write_file",
        "list_dir",
        "exists",
        "env",
        "exec",
        "http_get",
        "http_post",
        "composition_execute",
    ];
    let trusted = builtins("trusted");
    let trusted = names(&trusted);
    let default = builtins("default");
    let default = names(&default);
    let code = builtins("code-mode");
    let code = names(&code);
    for name in host {
        assert!(trusted.contains(&name), "{name} missing from trusted");
        assert!(!default.contains(&name), "{name} leaked into default");
        assert!(!code.contains(&name), "{name} leaked into code mode");
    }
    // The default profile adds the clock and randomness, nothing else.
    for b in builtins("default") {
        let tag = b["capability"].as_str().unwrap_or_default();
        assert!(
            matches!(tag, "pure" | "tool_egress" | "clock" | "random"),
            "{b}"
        );
    }
}

#[test]
fn snippets_naming_host_builtins_are_refused_before_running() {
    let dir = std::env::temp_dir().join(format!("harnc-sandbox-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let cases = [
        ("read_file(\"/etc/passwd\")", "read_file", "io.fs"),
        ("let f = write_file\nreturn 1", "write_file", "io.fs"),
        ("return exec([\"id\"])", "exec", "io.process"),
        ("return run_command([\"id\"])", "run_command", "io.process"),
        ("return env(\"HOME\")", "env", "io.env"),
        (
            "return http_get(\"http://example.com\")",
            "http_get",
            "io.net",
        ),
        ("log(\"${list_dir(\".\")}\")", "list_dir", "io.fs"),
        (
            "return [1] |> map_bounded(_, { x -> composition_execute(\"1\", {}) })",
            "composition_execute",
            "host",
        ),
    ];
    for (i, (snippet, name, family)) in cases.iter().enumerate() {
        let file = dir.join(format!("case{i}.harn"));
        std::fs::write(&file, snippet).unwrap_or_else(|e| panic!("{e}"));
        let path = file.display().to_string();
        let out = harnc(&["run", "--code-mode", "--report", "json", &path]);
        assert_eq!(out.status.code(), Some(1), "{snippet}");
        let report: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            report["run"]["failure_category"], "denied_builtin",
            "{snippet}"
        );
        let error = report["run"]["error"].as_str().unwrap_or_default();
        assert!(
            error.contains(&format!("cannot call `{name}`")) && error.contains(family),
            "{snippet}: {error}"
        );
        assert_eq!(report["child_calls"], serde_json::json!([]), "{snippet}");
        assert_eq!(report["run"]["usage"]["instructions"], 0, "{snippet} ran");
    }
}

/// Every builtin is reachable from a code-mode snippet exactly when its declared tag is
/// `pure` or `tool_egress` (and its name is not on the denylist): a snippet naming one
/// with any other tag is refused before it runs, with the tag in the message.
#[test]
fn each_builtin_reaches_code_mode_exactly_when_its_tag_allows() {
    let dir = std::env::temp_dir().join(format!("harnc-tags-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let all = builtins("trusted");
    assert!(all.len() > 300, "{}", all.len());
    let mut checked = 0;
    for b in &all {
        let name = b["name"].as_str().unwrap_or_default();
        let tag = b["capability"].as_str().unwrap_or_default();
        let file = dir.join(format!("{name}.harn"));
        std::fs::write(&file, format!("let f = {name}\nreturn 1"))
            .unwrap_or_else(|e| panic!("{e}"));
        let path = file.display().to_string();
        let out = harnc(&["run", "--code-mode", "--report", "json", &path]);
        let report: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{name}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        let category = report["run"]["failure_category"].as_str();
        let error = report["run"]["error"].as_str().unwrap_or_default();
        let denied_name =
            error.contains("is denied in code mode") || error.contains("internal to the runtime");
        match tag {
            "pure" | "tool_egress" if !denied_name => {
                assert_eq!(out.status.code(), Some(0), "{name} [{tag}]: {error}");
            }
            _ => {
                assert_eq!(category, Some("denied_builtin"), "{name} [{tag}] ran");
                assert!(
                    denied_name || error.contains(&format!("`{tag}`")),
                    "{name} [{tag}]: {error}"
                );
            }
        }
        checked += 1;
    }
    assert_eq!(checked, all.len());
}
