//! Manifest building from arbitrary JSON (tool surfaces, binding manifests, options):
//! every input is a manifest or a typed error, and a built manifest survives its own
//! JSON round trip.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let options = harn_compiler::manifest::BuildOptions::default();
    let built = harn_compiler::manifest::build_manifest(&value, &options);
    let _ = built.manifest.hash();
    let _ = built.manifest.to_compact_value();
    let again = harn_compiler::manifest::document_manifest(&built.manifest.to_value(), &options);
    assert!(again.is_ok(), "a built manifest must read back: {again:?}");
    if let Some(o) = value.get("options") {
        let _ = harn_compiler::manifest::BuildOptions::from_value(o);
    }
});
