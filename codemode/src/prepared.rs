//! A manifest prepared once for many runs: its hash (`code-mode.md` 1.13), each
//! binding's manifest JSON, and the compiled input and output schemas, which every run
//! against the same manifest would otherwise rebuild.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use harn_compiler::manifest::{Binding, Manifest};
use serde_json::Value as Json;

use crate::schema::Schema;

/// A schema compiled once, or why it could not be.
pub(crate) type CompiledSchema = Rc<Result<Schema, String>>;

/// A manifest with what every run against it needs, computed once. Build it with
/// [`PreparedManifest::new`] and pass it to [`crate::execute_prepared`] for each run.
pub struct PreparedManifest {
    pub manifest: Rc<Manifest>,
    /// `sha256:…` over the full manifest.
    pub hash: String,
    /// The names a snippet may call tools by (`pipeline::binding_names`), for the
    /// static checks of every run.
    pub(crate) binding_names: harn_compiler::pipeline::BindingNames,
    /// Binding positions as [`Manifest::lookup_index`] finds them (canonical name first,
    /// then binding identifier) and as a binding call resolves its tool (identifier
    /// first): every tool call asks both, and a manifest has tens or hundreds of
    /// bindings to scan otherwise.
    by_name: HashMap<String, usize>,
    by_identifier: HashMap<String, usize>,
    /// Each binding's manifest JSON by canonical name (copied into call records).
    pub(crate) binding_json: HashMap<String, Json>,
    /// Compiled input (index 0) and output (index 1) schemas by canonical name, filled
    /// on first use (keyed by the name alone, so a lookup borrows it).
    schemas: [RefCell<HashMap<String, CompiledSchema>>; 2],
}

impl PreparedManifest {
    pub fn new(manifest: Manifest) -> Rc<PreparedManifest> {
        let full = manifest.to_value();
        let binding_json = full
            .get("bindings")
            .and_then(Json::as_array)
            .map(|bs| {
                bs.iter()
                    .filter_map(|b| Some((b.get("name")?.as_str()?.to_string(), b.clone())))
                    .collect()
            })
            .unwrap_or_default();
        let hash = harn_compiler::manifest::manifest_value_hash(&full);
        let binding_names = harn_compiler::pipeline::binding_names(&manifest);
        let (by_name, by_identifier) = binding_positions(&manifest);
        Rc::new(PreparedManifest {
            manifest: Rc::new(manifest),
            hash,
            binding_names,
            by_name,
            by_identifier,
            binding_json,
            schemas: Default::default(),
        })
    }

    /// Where [`Manifest::lookup_index`] finds `name`.
    pub(crate) fn lookup_index(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// The binding a call of `name` runs: the one whose identifier is `name`, else the
    /// one whose canonical name is.
    pub(crate) fn binding_for_call(&self, name: &str) -> Option<&Binding> {
        let at = self.by_identifier.get(name)?;
        self.manifest.bindings.get(*at)
    }

    /// The binding's compiled input or output schema (compiled once per manifest).
    pub(crate) fn schema(&self, binding: &Binding, output: bool) -> Option<CompiledSchema> {
        let source = if output {
            binding.output_schema.as_ref()?
        } else {
            &binding.input_schema
        };
        let schemas = &self.schemas[usize::from(output)];
        if let Some(s) = schemas.borrow().get(binding.name.as_str()) {
            return Some(s.clone());
        }
        let compiled = Rc::new(Schema::compile(source));
        schemas
            .borrow_mut()
            .insert(binding.name.clone(), compiled.clone());
        Some(compiled)
    }
}

/// The two position maps of [`PreparedManifest`]. In each, the earliest binding of the
/// preferred kind of match wins, then the earliest of the other kind.
fn binding_positions(manifest: &Manifest) -> (HashMap<String, usize>, HashMap<String, usize>) {
    let earliest_first = |prefer: fn(&Binding) -> &str, other: fn(&Binding) -> &str| {
        let mut map = HashMap::new();
        for (at, b) in manifest.bindings.iter().enumerate() {
            map.entry(other(b).to_string()).or_insert(at);
        }
        for (at, b) in manifest.bindings.iter().enumerate().rev() {
            map.insert(prefer(b).to_string(), at);
        }
        map
    };
    (
        earliest_first(|b| &b.name, |b| &b.binding),
        earliest_first(|b| &b.binding, |b| &b.name),
    )
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use harn_compiler::manifest::{BuildOptions, build_manifest};
    use serde_json::json;

    use super::PreparedManifest;

    /// The maps answer as the manifest's own scans do, for every name and identifier
    /// and for a name that is neither.
    #[test]
    fn position_maps_agree_with_scanning_the_bindings() {
        let tools = json!([
            {"name": "read-file", "inputSchema": {"type": "object"}},
            {"name": "read_file", "inputSchema": {"type": "object"}},
            {"name": "search", "inputSchema": {"type": "object"}}
        ]);
        let options = BuildOptions::from_value(&json!({})).unwrap();
        let manifest = build_manifest(&tools, &options).manifest;
        let prepared = PreparedManifest::new(manifest.clone());
        let mut names: Vec<&str> = vec!["nothing"];
        for b in &manifest.bindings {
            names.push(&b.name);
            names.push(&b.binding);
        }
        for name in names {
            assert_eq!(
                prepared.lookup_index(name),
                manifest.lookup_index(name),
                "{name}"
            );
            let scanned = manifest
                .bindings
                .iter()
                .find(|b| b.binding == name)
                .or_else(|| manifest.bindings.iter().find(|b| b.name == name));
            assert_eq!(
                prepared.binding_for_call(name).map(|b| &b.name),
                scanned.map(|b| &b.name),
                "{name}"
            );
        }
    }
}
