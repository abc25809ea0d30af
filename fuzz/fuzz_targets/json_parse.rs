//! `json_parse` on arbitrary text: a value or serde_json's error, never a panic; a
//! parsed value writes back to JSON that parses to the same text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(value) = harn_stdlib::json::parse_text(text)
        && let Ok(written) = harn_stdlib::json::to_json_text(&value)
    {
        let again =
            harn_stdlib::json::parse_text(&written).map(|v| harn_stdlib::json::to_json_text(&v));
        assert!(
            matches!(again, Ok(Ok(ref w)) if *w == written),
            "round trip of {written}"
        );
    }
});
