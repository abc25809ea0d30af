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
    /// Each binding's manifest JSON by canonical name (copied into call records).
    pub(crate) binding_json: HashMap<String, Json>,
    /// Compiled input (`false`) and output (`true`) schemas by canonical name, filled
    /// on first use.
    schemas: RefCell<HashMap<(String, bool), CompiledSchema>>,
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
        Rc::new(PreparedManifest {
            manifest: Rc::new(manifest),
            hash,
            binding_names,
            binding_json,
            schemas: RefCell::new(HashMap::new()),
        })
    }

    /// The binding's compiled input or output schema (compiled once per manifest).
    pub(crate) fn schema(&self, binding: &Binding, output: bool) -> Option<CompiledSchema> {
        let source = if output {
            binding.output_schema.as_ref()?
        } else {
            &binding.input_schema
        };
        let key = (binding.name.clone(), output);
        if let Some(s) = self.schemas.borrow().get(&key) {
            return Some(s.clone());
        }
        let compiled = Rc::new(Schema::compile(source));
        self.schemas.borrow_mut().insert(key, compiled.clone());
        Some(compiled)
    }
}
