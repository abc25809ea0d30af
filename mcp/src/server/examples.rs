//! `harn.code.search_examples`: a few curated snippets showing the shapes a
//! composition usually takes, plus the `examples` the manifest's bindings carry,
//! filtered by a case-insensitive substring of each example's JSON.

use harn_compiler::manifest::Manifest;
use serde_json::{Value as Json, json};

/// `(id, title, tools the snippet calls, snippet)`. The tool names are placeholders
/// for the configured server's own.
const CURATED: [(&str, &str, &[&str], &str); 5] = [
    (
        "read-then-summarise",
        "Read several files and return only a summary of each",
        &["read_text_file"],
        r#"let paths = ["README.md", "CHANGELOG.md"]
let docs = map_bounded(paths, { p -> read_text_file({path: p}) }, {max_concurrent: 4})
return docs.map({ d -> {lines: len(d.split("\n")), first: d.split("\n")[0]} })"#,
    ),
    (
        "search-then-read",
        "Search, then read the top hits and keep what matters",
        &["search_files", "read_text_file"],
        r#"let hits = search_files({path: ".", pattern: "*.md"})
let names = hits.split("\n").filter({ p -> len(p) > 0 }).slice(0, 3)
var out = []
for p in names {
  let text = read_text_file({path: p})
  out = out.push({path: p, mentions: len(text.split("TODO")) - 1})
}
return out"#,
    ),
    (
        "fan-out-with-errors",
        "Call a tool for many inputs; keep going when one call fails",
        &["get_entity"],
        r#"let ids = ["a", "b", "c"]
let found = map_bounded(ids, { id ->
  try { get_entity({id: id}) } catch (e) { {id: id, error: e} }
}, {max_concurrent: 3})
return {ok: found.filter({ f -> f.error == nil }), failed: found.filter({ f -> f.error != nil })}"#,
    ),
    (
        "aggregate",
        "Count and group tool results instead of returning them whole",
        &["list_directory"],
        r#"let listing = list_directory({path: "."})
let entries = listing.split("\n").filter({ l -> len(l) > 0 })
let dirs = entries.filter({ e -> e.starts_with("[DIR]") })
return {entries: len(entries), dirs: len(dirs), files: len(entries) - len(dirs)}"#,
    ),
    (
        "log-progress",
        "Report progress with log() and return one compact value",
        &["search_nodes"],
        r#"let terms = ["alpha", "beta"]
var total = 0
for t in terms {
  let r = search_nodes({query: t})
  log("${t}: ${len(r.entities)} entities")
  total = total + len(r.entities)
}
return {total: total}"#,
    ),
];

/// Every example: the curated ones, then each binding's own.
pub fn all_examples(manifest: &Manifest) -> Vec<Json> {
    let mut out: Vec<Json> = CURATED
        .iter()
        .map(|(id, title, tools, snippet)| {
            json!({
                "id": id, "title": title, "language": "harn", "snippet": snippet,
                "required_side_effect_level": "read_only", "tools": tools,
            })
        })
        .collect();
    for b in &manifest.bindings {
        for (i, example) in b.examples.iter().enumerate() {
            out.push(binding_example(
                &b.binding,
                &b.name,
                b.side_effect_level.as_str(),
                i,
                example,
            ));
        }
    }
    out
}

/// A binding's example: a snippet as given (`{"snippet": ..}` or a string), else an
/// argument object turned into a call.
fn binding_example(binding: &str, name: &str, level: &str, i: usize, example: &Json) -> Json {
    let given = example
        .get("snippet")
        .or_else(|| example.get("code"))
        .and_then(Json::as_str)
        .or_else(|| example.as_str());
    let snippet = match given {
        Some(text) => text.to_string(),
        None => {
            let args = example
                .get("arguments")
                .or_else(|| example.get("input"))
                .unwrap_or(example);
            format!("return {binding}({})", harn_value(args))
        }
    };
    let title = example
        .get("title")
        .or_else(|| example.get("description"))
        .and_then(Json::as_str)
        .map_or_else(|| format!("Example of {name}"), str::to_string);
    json!({
        "id": format!("{binding}-{}", i + 1), "title": title, "language": "harn",
        "snippet": snippet, "required_side_effect_level": level, "tools": [name],
    })
}

/// A JSON value written as a Harn literal (`nil` for null, keys quoted when needed).
fn harn_value(v: &Json) -> String {
    match v {
        Json::Null => "nil".into(),
        Json::Array(items) => format!(
            "[{}]",
            items.iter().map(harn_value).collect::<Vec<_>>().join(", ")
        ),
        Json::Object(map) => {
            let fields: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    let plain = k
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                        && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                    let key = if plain {
                        k.clone()
                    } else {
                        Json::String(k.clone()).to_string()
                    };
                    format!("{key}: {}", harn_value(v))
                })
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        other => other.to_string(),
    }
}

/// The examples whose JSON contains `query` (any case), at most `limit`.
pub fn search(manifest: &Manifest, query: Option<&str>, limit: usize) -> Vec<Json> {
    let needle = query.map(str::trim).unwrap_or("").to_lowercase();
    all_examples(manifest)
        .into_iter()
        .filter(|e| needle.is_empty() || e.to_string().to_lowercase().contains(&needle))
        .take(limit)
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn argument_examples_become_calls() {
        let e = binding_example(
            "get_x",
            "get-x",
            "read_only",
            0,
            &json!({"id": 1, "a b": null}),
        );
        assert_eq!(e["snippet"], "return get_x({\"a b\": nil, id: 1})");
        assert_eq!(e["id"], "get_x-1");
        let e = binding_example(
            "f",
            "f",
            "none",
            1,
            &json!({"title": "T", "snippet": "return 1"}),
        );
        assert_eq!(
            (e["title"].as_str(), e["snippet"].as_str()),
            (Some("T"), Some("return 1"))
        );
    }

    /// A manifest with every tool the curated examples and the primer name.
    fn placeholder_manifest() -> Manifest {
        let names = CURATED
            .iter()
            .flat_map(|(_, _, tools, _)| tools.iter().copied())
            .chain(["search", "read"]);
        let tools: Vec<Json> = names
            .map(|n| {
                json!({"name": n, "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": true, "openWorldHint": false}})
            })
            .collect();
        let options = harn_compiler::manifest::BuildOptions::default();
        harn_compiler::manifest::build_manifest(&json!({"tools": tools}), &options).manifest
    }

    #[test]
    fn the_curated_examples_and_the_primer_compile() {
        let manifest = placeholder_manifest();
        let primer = crate::server::PRIMER;
        let start = primer.find("```harn\n").unwrap() + "```harn\n".len();
        let end = start + primer[start..].find("```").unwrap();
        let snippets = CURATED
            .iter()
            .map(|(id, _, _, snippet)| (*id, *snippet))
            .chain([("primer", &primer[start..end])]);
        for (id, snippet) in snippets {
            if let Err(refusal) = harn_compiler::pipeline::check_snippet(snippet, &manifest) {
                panic!("{id}: {refusal:?}");
            }
        }
    }

    #[test]
    fn search_is_a_case_insensitive_substring() {
        let m = Manifest::default();
        assert_eq!(search(&m, None, 50).len(), CURATED.len());
        assert_eq!(search(&m, Some("MAP_BOUNDED"), 50).len(), 2);
        assert_eq!(search(&m, Some("read"), 1).len(), 1);
        assert!(search(&m, Some("no such words"), 50).is_empty());
    }
}
