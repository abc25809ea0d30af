//! Canonical JSON and the manifest / snippet hashes (1.13).

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::Manifest;

const MANIFEST_DOMAIN: &[u8] = b"harn.composition.binding_manifest.v1";
const SNIPPET_DOMAIN: &[u8] = b"harn.composition.snippet.v1";

/// Canonical JSON: keys sorted by UTF-8 bytes, no whitespace, serde_json's escaping and
/// number forms (1.13).
pub fn canonical_json(v: &Value) -> String {
    sorted_value(v).to_string()
}

fn hex_digest(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for p in parts {
        hasher.update(p);
    }
    let digest = hasher.finalize();
    let mut out = String::with_capacity(7 + 64);
    out.push_str("sha256:");
    for byte in digest.iter() {
        out.push(char::from(b"0123456789abcdef"[usize::from(byte >> 4)]));
        out.push(char::from(b"0123456789abcdef"[usize::from(byte & 15)]));
    }
    out
}

/// The hash of an arbitrary manifest value, as given.
pub fn manifest_value_hash(v: &Value) -> String {
    hex_digest(&[MANIFEST_DOMAIN, b"\0", canonical_json(v).as_bytes()])
}

/// The hash of a (read-back) manifest: its full JSON.
pub fn manifest_hash(m: &Manifest) -> String {
    manifest_value_hash(&m.to_value())
}

/// The hash of a snippet in a language (`harn`, `typescript`).
pub fn snippet_hash(language: &str, snippet: &str) -> String {
    hex_digest(&[
        SNIPPET_DOMAIN,
        b"\0",
        language.as_bytes(),
        b"\0",
        snippet.as_bytes(),
    ])
}

/// A copy of `v` whose objects are rebuilt in sorted key order (byte order), so output
/// stays canonical even if some crate turns on serde_json's `preserve_order`.
pub fn sorted_value(v: &Value) -> Value {
    match v {
        Value::Object(obj) => {
            let mut entries: Vec<(&String, &Value)> = obj.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), sorted_value(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted_value).collect()),
        other => other.clone(),
    }
}
