//! The JSON Schema lowering table (code-mode.md 3.2), printed for both targets.

use harn_codegen::harn::{harn_string, harn_type};
use harn_codegen::lower::{Target, lower_schema};
use harn_codegen::names::TypeNames;
use harn_codegen::ts::{ts_key, ts_type};
use serde_json::{Value, json};

fn harn(schema: Value) -> String {
    harn_type(&lower_schema(&schema, Target::Harn, "Base", &mut TypeNames::new()).ty)
}

fn ts(schema: Value) -> String {
    ts_type(&lower_schema(&schema, Target::Ts, "Base", &mut TypeNames::new()).ty)
}

#[test]
fn scalars_and_shorthands() {
    for (schema, h, t) in [
        (json!(true), "JsonValue", "JsonValue"),
        (json!({}), "JsonValue", "JsonValue"),
        (json!(false), "never", "never"),
        (json!("string"), "string", "string"),
        (json!("int"), "int", "number"),
        (json!("float"), "float", "number"),
        (json!("bool"), "bool", "boolean"),
        (json!("list"), "list<JsonValue>", "JsonValue[]"),
        (
            json!("dict"),
            "dict<string, JsonValue>",
            "{ [key: string]: JsonValue }",
        ),
        (json!("nil"), "nil", "null"),
        (json!({"type": "integer"}), "int", "number"),
        (json!({"type": "number"}), "float", "number"),
        (json!({"type": "null"}), "nil", "null"),
        (
            json!({"description": "only docs"}),
            "JsonValue",
            "JsonValue",
        ),
        (
            json!({"$ref": "https://x/y.json"}),
            "JsonValue",
            "JsonValue",
        ),
    ] {
        assert_eq!(harn(schema.clone()), h, "{schema}");
        assert_eq!(ts(schema.clone()), t, "{schema}");
    }
}

#[test]
fn literals_enums_unions() {
    let e = json!({"enum": ["a", "b", "a", 1, 2.5, true, null]});
    assert_eq!(harn(e.clone()), "\"a\" | \"b\" | 1 | float | bool | nil");
    assert_eq!(ts(e), "\"a\" | \"b\" | 1 | 2.5 | true | null");
    assert_eq!(harn(json!({"const": "x${y}"})), "\"x\\${y}\"");
    assert_eq!(harn(json!({"enum": ["a", {"o": 1}]})), "JsonValue");
    assert_eq!(harn(json!({"enum": ["a\rb"]})), "string");
    let any = json!({"anyOf": [{"type": "string"}, {"type": "null"}]});
    assert_eq!(harn(any.clone()), "string | nil");
    assert_eq!(ts(any), "string | null");
    assert_eq!(harn(json!({"type": ["string", "null"]})), "string | nil");
    assert_eq!(
        harn(json!({"type": "string", "nullable": true})),
        "string | nil"
    );
    assert_eq!(
        harn(json!({"anyOf": [{"type": "string"}, {}]})),
        "JsonValue"
    );
}

#[test]
fn arrays_and_objects() {
    let tags = json!({"type": "array", "items": {"enum": ["a", "b"]}});
    assert_eq!(harn(tags.clone()), "list<\"a\" | \"b\">");
    assert_eq!(ts(tags), "(\"a\" | \"b\")[]");
    assert_eq!(ts(json!({"items": {"type": "string"}})), "string[]");
    assert_eq!(
        harn(json!({"type": "array", "prefixItems": [{"type": "string"}]})),
        "list<JsonValue>"
    );
    assert_eq!(
        ts(json!({"type": "array", "items": [{"type": "string"}]})),
        "JsonValue[]"
    );
    let obj = json!({"type": "object", "required": ["b"],
        "properties": {"b": {"type": "string"}, "a-b": {"type": "integer"}, "finally": {"type": "boolean"}}});
    assert_eq!(harn(obj.clone()), "{b: string}");
    assert_eq!(
        ts(obj),
        "{ \"a-b\"?: number; b: string; finally?: boolean }"
    );
    let open = json!({"properties": {"a": {"type": "string"}}, "additionalProperties": true});
    assert_eq!(
        ts(open),
        "{ a?: string; [key: string]: JsonValue | undefined }"
    );
    assert_eq!(
        harn(json!({"type": "object", "additionalProperties": {"type": "integer"}})),
        "dict<string, int>"
    );
    let short = json!({"name": "string", "age": {"type": "int", "required": false}});
    assert_eq!(harn(short), "{age?: int, name: string}");
    let all = json!({"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"type": "object", "properties": {"b": {"type": "integer"}}}]});
    assert_eq!(harn(all.clone()), "{a: string, b?: int}");
    assert_eq!(ts(all), "({ a: string } & { b?: number })");
    assert_eq!(
        harn(json!({"allOf": [{"type": "string"}, {"minLength": 1}]})),
        "JsonValue"
    );
}

#[test]
fn refs_and_depth() {
    let tree = json!({"$defs": {"node": {"type": "object",
        "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}, "v": {"type": "string"}}}},
        "$ref": "#/$defs/node"});
    assert_eq!(harn(tree.clone()), "{kids?: list<JsonValue>, v?: string}");
    let lowered = lower_schema(&tree, Target::Ts, "Base", &mut TypeNames::new());
    assert_eq!(ts_type(&lowered.ty), "BaseNode");
    assert_eq!(lowered.aliases.len(), 1);
    assert_eq!(
        ts_type(&lowered.aliases[0].1),
        "{ kids?: BaseNode[]; v?: string }"
    );
    let mut deep = json!({"type": "string"});
    for _ in 0..40 {
        deep = json!({"type": "array", "items": deep});
    }
    let h = harn(deep);
    assert!(h.contains("JsonValue") && !h.contains("string"), "{h}");
}

#[test]
fn escaping() {
    assert_eq!(
        harn_string("a\"b\\c$d\ne\tf"),
        "\"a\\\"b\\\\c\\$d\\ne\\tf\""
    );
    assert_eq!(ts_key("ok_$1"), "ok_$1");
    assert_eq!(ts_key("a b"), "\"a b\"");
    assert_eq!(ts_key("x\u{2028}"), "\"x\\u2028\"");
}
