//! Lex, lay out and parse arbitrary text: never a panic, always a tree; the formatter
//! either refuses or gives text that parses to the same tree.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parsed = harn_compiler::parse(&text);
    let _ = harn_compiler::ast_dump::dump(&parsed.program);
    if !parsed.has_errors() {
        let options = harn_compiler::format::FormatOptions { width: 80 };
        let _ = harn_compiler::format::format_source(&text, &options);
    }
});
