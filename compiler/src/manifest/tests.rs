//! Section 10 behaviours 1–8 (manifest side) and the 1.13 vectors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{Value, json};

use super::*;

fn build(tools: Value) -> Manifest {
    build_manifest(&tools, &BuildOptions::default()).manifest
}

fn build_with(tools: Value, options: Value) -> Manifest {
    let o = BuildOptions::from_value(&options).unwrap();
    build_manifest(&tools, &o).manifest
}

fn one(tools: Value, options: Value) -> Binding {
    let m = build_with(tools, options);
    assert_eq!(m.bindings.len(), 1, "{:?}", m.bindings);
    m.bindings[0].clone()
}

#[test]
fn vector_empty_manifest() {
    let v =
        json!({"bindings":[],"metadata":{},"schema_version":1,"side_effect_ceiling":"read_only"});
    let want = "sha256:1a562d8ce1fd87108effab48d840908fc9f90bb61964dfde7df70c5e83e0e973";
    assert_eq!(manifest_value_hash(&v), want);
    assert_eq!(Manifest::default().hash(), want);
    assert_eq!(build(json!([])).hash(), want);
    assert_eq!(manifest_from_value(&json!({})).unwrap().hash(), want);
}

#[test]
fn vector_snippets() {
    assert_eq!(
        snippet_hash("harn", "return 1"),
        "sha256:95832d38fbaa0795d8dbcbd98c47eae3525e59b3e5d382dc4623d5a51e0f4562"
    );
    assert_eq!(
        snippet_hash("typescript", "return 1"),
        "sha256:abde55a348fccfa238e3f5ef033be113f334f7dbea3c926d14c71158571a4cfc"
    );
    assert_eq!(
        snippet_hash("harn", ""),
        "sha256:d5410e0a0a9ec5d6393fea3aa216d44d6bc6bcdaa62c3fe9fbb5cce167ecef4b"
    );
}

const ONE_BINDING: &str = r#"{"bindings":[{"annotations":{"arg_schema":{"arg_aliases":{},"dependency_key_params":[],"dependency_range_params":[],"path_params":["path"],"required":[]},"capabilities":{},"emits_artifacts":false,"inline_result":false,"kind":"read","result_readers":[],"side_effect_level":"read_only"},"binding":"read_file","capabilities":{},"deferred":false,"description":"Read a workspace file","examples":[],"input_schema":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"},"metadata":{},"name":"read.file","namespace":null,"output_schema":null,"path_args":["path"],"policy":{"disposition":"allowed","reason":null},"side_effect_level":"read_only","source":"harn"}],"metadata":{},"schema_version":1,"side_effect_ceiling":"read_only"}"#;
const ONE_BINDING_HASH: &str =
    "sha256:5ce43505c8d7415a241b91c9c17e03d578b77c241abbe924aa4688d604087cd8";

fn read_file_tool() -> Value {
    json!({
        "name": "read.file",
        "description": "Read a workspace file",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
        "annotations": {"kind": "read", "side_effect_level": "read_only",
                        "arg_schema": {"path_params": ["path"]}},
    })
}

#[test]
fn vector_one_binding() {
    let raw: Value = serde_json::from_str(ONE_BINDING).unwrap();
    assert_eq!(canonical_json(&raw), ONE_BINDING);
    assert_eq!(manifest_value_hash(&raw), ONE_BINDING_HASH);
    // Read back, then hashed: the same.
    let m = manifest_from_value(&raw).unwrap();
    assert_eq!(m.hash(), ONE_BINDING_HASH);
    // Built from the tool registry: the same.
    let built = build(json!({"_type": "tool_registry", "tools": [read_file_tool()]}));
    assert_eq!(canonical_json(&built.to_value()), ONE_BINDING);
    assert_eq!(built.hash(), ONE_BINDING_HASH);
}

#[test]
fn key_order_does_not_change_the_hash() {
    let a: Value = serde_json::from_str(r#"{"schema_version":1,"bindings":[],"side_effect_ceiling":"read_only","metadata":{"b":1,"a":2}}"#).unwrap();
    let b: Value = serde_json::from_str(r#"{"metadata":{"a":2,"b":1},"side_effect_ceiling":"read_only","bindings":[],"schema_version":1}"#).unwrap();
    assert_eq!(manifest_value_hash(&a), manifest_value_hash(&b));
    assert!(manifest_value_hash(&a).starts_with("sha256:"));
    assert_ne!(snippet_hash("harn", "x"), snippet_hash("typescript", "x"));
}

#[test]
fn canonical_strings_and_numbers() {
    let v = json!({"s": "a\"\\\n\r\t\u{8}\u{c}\u{1}\u{7f}/é", "i": -9223372036854775808i64, "u": 18446744073709551615u64, "f": 1.0, "g": 0.00001, "h": 1.5e-7});
    assert_eq!(
        canonical_json(&v),
        "{\"f\":1.0,\"g\":0.00001,\"h\":1.5e-7,\"i\":-9223372036854775808,\"s\":\"a\\\"\\\\\\n\\r\\t\\b\\f\\u0001\u{7f}/é\",\"u\":18446744073709551615}"
    );
}

#[test]
fn workspace_write_serialises() {
    let b = one(
        json!([{"name": "write_file", "annotations": {"side_effect_level": "workspace_write"}}]),
        json!({"side_effect_ceiling": "workspace_write"}),
    );
    let v = b.clone();
    let m = Manifest {
        bindings: vec![v],
        ..Manifest::default()
    };
    let j = m.to_value();
    assert_eq!(j["bindings"][0]["side_effect_level"], "workspace_write");
    assert_eq!(
        j["bindings"][0]["annotations"]["side_effect_level"],
        "workspace_write"
    );
}

#[test]
fn registry_build() {
    let tools = json!({"_type": "tool_registry", "tools": [
        read_file_tool(),
        {"name": "write_file", "annotations": {"side_effect_level": "workspace_write"}},
        {"name": "bridge", "executor": "host_bridge", "annotations": {"side_effect_level": "none"}},
        {"name": "remote", "_mcp_server": "docs", "_mcp_tool_name": "remote_tool", "defer_loading": true,
         "annotations": {"readOnlyHint": true, "openWorldHint": false}},
        {"name": "lazy", "defer_loading": true, "annotations": {"side_effect_level": "read_only"}},
    ]});
    let m = build(tools.clone());
    let rf = m.lookup("read.file").unwrap();
    assert_eq!(rf.binding, "read_file");
    assert_eq!(rf.path_args, vec!["path"]);
    assert_eq!(rf.policy, PolicyStatus::allowed());
    assert!(m.lookup("write_file").is_none());
    let all = build_with(tools, json!({"include_denied": true}));
    let wf = all.lookup("write_file").unwrap();
    assert_eq!(wf.binding, "write_file");
    assert_eq!(wf.policy.disposition, Disposition::Denied);
    assert_eq!(
        wf.policy.reason.as_deref(),
        Some("requires side-effect level 'workspace_write' above composition ceiling 'read_only'")
    );
    assert_eq!(m.lookup("bridge").unwrap().source, "host_bridge");
    let remote = m.lookup("remote").unwrap();
    assert_eq!(remote.source, "mcp_server");
    assert!(remote.deferred);
    assert_eq!(remote.metadata["_mcp_server"], "docs");
    assert_eq!(remote.metadata["_mcp_tool_name"], "remote_tool");
    assert_eq!(remote.mcp_server(), Some("docs"));
    let lazy = m.lookup("lazy").unwrap();
    assert_eq!(lazy.source, "deferred");
    assert!(lazy.deferred);
    assert!(m.hash().starts_with("sha256:"));
    // Manifest order is by binding.
    let order: Vec<&str> = all.bindings.iter().map(|b| b.binding.as_str()).collect();
    assert_eq!(
        order,
        ["bridge", "lazy", "read_file", "remote", "write_file"]
    );
}

#[test]
fn provider_native_entry() {
    let b = one(
        json!([{"type": "function", "function": {"name": "get_weather", "description": "Weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]),
        json!({"include_denied": true}),
    );
    assert_eq!(b.binding, "get_weather");
    assert_eq!(b.source, "provider_native");
    assert_eq!(b.description.as_deref(), Some("Weather"));
    assert_eq!(b.input_schema["properties"]["city"]["type"], "string");
    // A single tool object is accepted too, and so is a JSON-RPC response.
    let single = build_with(
        json!({"type": "function", "function": {"name": "f"}}),
        json!({"include_denied": true}),
    );
    assert_eq!(single.bindings.len(), 1);
    let rpc = build_with(
        json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "a"}, {"name": "b"}]}}),
        json!({"include_denied": true}),
    );
    assert_eq!(rpc.bindings.len(), 2);
}

#[test]
fn skipped_entries_have_diagnostics() {
    let long = "x".repeat(257);
    let built = build_manifest(
        &json!([1, {"name": ""}, {"name": long}, {"name": "a\u{1}b"}, {"name": "ok"}, {"name": "ok"}]),
        &BuildOptions {
            include_denied: true,
            ..BuildOptions::default()
        },
    );
    assert_eq!(built.manifest.bindings.len(), 1);
    assert_eq!(built.diagnostics.len(), 5);
    assert_eq!(
        built.diagnostics[4].message,
        "duplicate tool name 'ok' ignored"
    );
    let none = build_manifest(&json!("nope"), &BuildOptions::default());
    assert!(none.manifest.bindings.is_empty());
    assert_eq!(none.diagnostics.len(), 1);
}

#[test]
fn fail_closed_levels() {
    let mcp = one(
        json!([{"name": "x", "_mcp_server": "s"}]),
        json!({"include_denied": true}),
    );
    assert_eq!(mcp.side_effect_level, Level::Network);
    assert_eq!(mcp.policy.disposition, Disposition::Denied);
    let harn = one(json!([{"name": "x"}]), json!({"include_denied": true}));
    assert_eq!(harn.side_effect_level, Level::Network);
    assert_eq!(
        harn.policy.reason.as_deref(),
        Some(
            "side-effect level not declared (assumed 'network') above composition ceiling 'read_only'"
        )
    );
    let web = one(
        json!([{"name": "x", "annotations": {"readOnlyHint": true}}]),
        json!({"include_denied": true}),
    );
    assert_eq!(web.side_effect_level, Level::NetworkRead);
    let ro = one(
        json!([{"name": "x", "_mcp_server": "s", "annotations": {"readOnlyHint": true, "openWorldHint": false}}]),
        json!({}),
    );
    assert_eq!(ro.side_effect_level, Level::ReadOnly);
    assert_eq!(ro.policy.disposition, Disposition::Allowed);
    let bad = one(
        json!([{"name": "x", "annotations": {"side_effect_level": "readonly"}}]),
        json!({"include_denied": true, "side_effect_ceiling": "desktop_control"}),
    );
    assert_eq!(
        bad.policy.reason.as_deref(),
        Some("invalid side_effect_level 'readonly'")
    );
    assert_eq!(bad.side_effect_level, Level::DesktopControl);
    let lowered = one(
        json!([{"name": "x", "_mcp_server": "s"}]),
        json!({"side_effect_overrides": {"x": "read_only"}}),
    );
    assert_eq!(lowered.side_effect_level, Level::ReadOnly);
    // An MCP server's Harn-style claim can only raise the level.
    let claim = one(
        json!([{"name": "x", "mcp_server": "s", "annotations": {"side_effect_level": "none"}}]),
        json!({"include_denied": true}),
    );
    assert_eq!(claim.side_effect_level, Level::Network);
    // `mcp_server: null` is not an MCP source.
    let null_server = one(
        json!([{"name": "x", "mcp_server": null, "annotations": {"side_effect_level": "none"}}]),
        json!({}),
    );
    assert_eq!(null_server.source, "harn");
    assert_eq!(null_server.side_effect_level, Level::None);
    // A ceiling of `none` admits only `none`.
    let m = build_with(
        json!([{"name": "a", "annotations": {"side_effect_level": "none"}},
               {"name": "b", "annotations": {"side_effect_level": "read_only"}}]),
        json!({"side_effect_ceiling": "none"}),
    );
    assert_eq!(m.bindings.len(), 1);
}

#[test]
fn policy_dispositions() {
    let tools = json!([
        {"name": "a.a", "annotations": {"side_effect_level": "none"}},
        {"name": "b", "annotations": {"side_effect_level": "none"}},
        {"name": "c", "annotations": {"side_effect_level": "none"}},
        {"name": "d", "annotations": {"side_effect_level": "none"}},
    ]);
    let m = build_with(
        tools,
        json!({"include_denied": true, "denied_tools": ["b"], "gated_tools": ["c"],
               "allowed_tools": ["a_a", "b", "c"]}),
    );
    let reason = |n: &str| m.lookup(n).unwrap().policy.clone();
    assert_eq!(reason("a.a"), PolicyStatus::allowed());
    assert_eq!(
        reason("b").reason.as_deref(),
        Some("denied by active tool policy")
    );
    assert_eq!(reason("c").disposition, Disposition::Gated);
    assert_eq!(
        reason("c").reason.as_deref(),
        Some("requires host approval before dispatch")
    );
    assert_eq!(
        reason("d").reason.as_deref(),
        Some("not in the allowed tool set")
    );
    let staged = build_with(
        json!([{"name": "a", "annotations": {"side_effect_level": "none"}}]),
        json!({"include_denied": true, "scope": {"name": "plan", "allowed_tools": []}}),
    );
    assert_eq!(
        staged.bindings[0].policy.reason.as_deref(),
        Some("not allowed in stage 'plan'")
    );
}

#[test]
fn option_errors() {
    let err = |v: Value| BuildOptions::from_value(&v).unwrap_err().to_string();
    assert_eq!(
        err(json!({"side_effect_ceiling": "readonly"})),
        "composition_binding_manifest: unknown side_effect_ceiling 'readonly'"
    );
    assert_eq!(
        err(json!({"denied_tools": "x"})),
        "composition_binding_manifest: option 'denied_tools' must be a list of strings"
    );
    assert_eq!(
        err(json!({"denied_tools": [1]})),
        "composition_binding_manifest: option 'denied_tools' must be a list of strings"
    );
    assert_eq!(
        err(json!({"bogus": 1})),
        "composition_binding_manifest: unknown option 'bogus'"
    );
    assert!(BuildOptions::from_value(&json!({"include_denied": 1})).is_err());
    assert!(BuildOptions::from_value(&json!({"form": "compact", "state": true})).is_ok());
}

#[test]
fn names_and_collisions() {
    let m = build_with(
        json!([{"name": "len"}, {"name": "a.b"}, {"name": "a-b"}, {"name": "if"}, {"name": "9lives"}]),
        json!({"include_denied": true}),
    );
    let ids: Vec<(&str, &str)> = m
        .bindings
        .iter()
        .map(|b| (b.name.as_str(), b.binding.as_str()))
        .collect();
    assert_eq!(
        ids,
        [
            ("a.b", "a_b"),
            ("a-b", "a_b_2"),
            ("9lives", "tool_9lives"),
            ("if", "tool_if"),
            ("len", "tool_len")
        ]
    );
    // Identifiers do not depend on include_denied.
    let m2 = build_with(
        json!([{"name": "a.b"}, {"name": "a-b", "annotations": {"side_effect_level": "none"}}]),
        json!({}),
    );
    assert_eq!(m2.bindings[0].binding, "a_b_2");
    // The state grant takes `state` first (reserved anyway).
    let m3 = build_with(
        json!([{"name": "state", "annotations": {"side_effect_level": "none"}}]),
        json!({"state": true}),
    );
    assert_eq!(m3.bindings[0].binding, "tool_state");
    assert!(m3.to_value().get("state").is_some());
}

#[test]
fn docs_read_file_compact() {
    let m = build(
        json!([{"name": "docs__read_file", "_mcp_server": "docs", "_mcp_tool_name": "read_file",
        "description": "Read a text file from the docs tree",
        "inputSchema": {"type": "object", "required": ["path"],
            "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}}},
        "annotations": {"readOnlyHint": true, "openWorldHint": false}}]),
    );
    let b = &m.bindings[0];
    assert_eq!(b.binding, "docs_read_file");
    assert_eq!(b.side_effect_level, Level::ReadOnly);
    let full = m.to_value();
    assert_eq!(full["bindings"][0]["annotations"]["readOnlyHint"], true);
    assert!(
        full["bindings"][0]["annotations"]
            .get("destructiveHint")
            .is_none()
    );
    let compact = m.to_compact_value();
    let cb = compact["bindings"][0].as_object().unwrap();
    let mut keys: Vec<&str> = cb.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "binding",
            "deferred",
            "description",
            "examples",
            "name",
            "namespace",
            "policy",
            "side_effect_level",
            "source"
        ]
    );
    assert!(compact.get("metadata").is_none());
    // Round trip.
    assert_eq!(manifest_from_value(&full).unwrap(), m);
}

#[test]
fn read_back_is_strict_on_enums() {
    assert!(manifest_from_value(&json!({"side_effect_ceiling": "readonly"})).is_err());
    assert!(
        manifest_from_value(&json!({"bindings": [{"name": "a", "side_effect_level": "x"}]}))
            .is_err()
    );
    assert!(
        manifest_from_value(
            &json!({"bindings": [{"name": "a", "policy": {"disposition": "maybe"}}]})
        )
        .is_err()
    );
    let m = manifest_from_value(&json!({"bindings": [{"name": "a", "extra": 1}], "junk": true}))
        .unwrap();
    assert_eq!(m.bindings[0].binding, "a");
    assert_eq!(m.bindings[0].side_effect_level, Level::None);
}

#[test]
fn annotations_defaults_and_policy_fallback() {
    let a = Annotations::default();
    assert_eq!(
        canonical_json(&annotations::annotations_to_value(&a)),
        r#"{"arg_schema":{"arg_aliases":{},"dependency_key_params":[],"dependency_range_params":[],"path_params":[],"required":[]},"capabilities":{},"emits_artifacts":false,"inline_result":false,"kind":"other","result_readers":[],"side_effect_level":"none"}"#
    );
    let b = one(
        json!([{"name": "p", "readOnlyHint": true, "openWorldHint": false, "policy": {"kind": "search", "side_effect_level": "read_only",
            "path_params": ["p"], "readable_result_routes": ["r"], "capabilities": {"fs": ["read"]}}}]),
        json!({}),
    );
    assert_eq!(b.annotations.kind, Kind::Search);
    assert_eq!(b.path_args, vec!["p"]);
    assert_eq!(b.annotations.result_readers, vec!["r"]);
    assert_eq!(b.capabilities["fs"], vec!["read"]);
    assert_eq!(b.annotations.hints.read_only, Some(true));
    // Invalid kind → other + diagnostic.
    let built = build_manifest(
        &json!([{"name": "k", "annotations": {"kind": "weird", "side_effect_level": "none"}}]),
        &BuildOptions::default(),
    );
    assert_eq!(built.manifest.bindings[0].annotations.kind, Kind::Other);
    assert_eq!(built.diagnostics.len(), 1);
}

#[test]
fn field_reading_fallbacks() {
    let b = one(
        json!([{"name": "f", "x-harn-output-schema": {"type": "string"}, "_meta": {"k": 1},
                "mcp_server": "srv", "examples": [1], "namespace": "ns",
                "annotations": {"readOnlyHint": true, "openWorldHint": false}}]),
        json!({}),
    );
    assert_eq!(b.output_schema, Some(json!({"type": "string"})));
    assert_eq!(b.metadata["k"], 1);
    assert_eq!(b.metadata["mcp_server"], "srv");
    assert_eq!(b.source, "mcp_server");
    assert_eq!(b.examples, vec![json!(1)]);
    assert_eq!(b.namespace.as_deref(), Some("ns"));
    assert_eq!(b.input_schema, json!({"type": "object"}));
}

#[test]
fn float_forms() {
    for (x, want) in [
        (1.0f64, "1.0"),
        (0.00001, "0.00001"),
        (1e15, "1000000000000000.0"),
        (1e-6, "1e-6"),
        (1.5e-7, "1.5e-7"),
        (1e16, "1e+16"),
        (1.2e16, "1.2e+16"),
    ] {
        assert_eq!(canonical_json(&json!(x)), want, "{x}");
    }
    assert_eq!(canonical_json(&json!(f64::NAN)), "null");
}

#[test]
fn tagging_a_server() {
    let tools = json!({"tools": [{"name": "read_file", "annotations": {"readOnlyHint": true, "openWorldHint": false}},
                                 {"name": "x", "_mcp_server": "other"}]});
    let tagged = tag_mcp_server(&tools, "docs");
    let m = build_with(tagged, json!({"include_denied": true}));
    let b = m.lookup("read_file").unwrap();
    assert_eq!(b.source, "mcp_server");
    assert_eq!(b.mcp_server(), Some("docs"));
    assert_eq!(b.mcp_tool_name(), "read_file");
    assert_eq!(m.lookup("x").unwrap().mcp_server(), Some("other"));
}

#[test]
fn keys_sort_by_bytes() {
    let v = json!({"é": 1, "a": {"z": 1, "B": 2}, "B": 3, "_": 4});
    assert_eq!(
        canonical_json(&v),
        r#"{"B":3,"_":4,"a":{"B":2,"z":1},"é":1}"#
    );
    assert_eq!(sorted_value(&v), v);
}
