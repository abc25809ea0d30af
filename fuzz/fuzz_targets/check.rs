//! The static checks of a snippet against a manifest built from the fuzzer's bytes: the
//! input is `MANIFEST_JSON \0 SNIPPET`; the checker must answer (accept or refuse with
//! a category), never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (surface, snippet) = match data.iter().position(|b| *b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (&b"{\"tools\": []}"[..], data),
    };
    let Ok(surface) = serde_json::from_slice::<serde_json::Value>(surface) else {
        return;
    };
    let options = harn_compiler::manifest::BuildOptions::default();
    let manifest = harn_compiler::manifest::build_manifest(&surface, &options).manifest;
    let snippet = String::from_utf8_lossy(snippet);
    let _ = harn_compiler::pipeline::check_snippet(&snippet, &manifest);
});
