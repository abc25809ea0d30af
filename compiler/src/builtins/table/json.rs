//! The `json` family, implemented in `harn-stdlib` (`stdlib/src/json.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl, visible};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    visible(
        "json_parse",
        "fn(text: string) -> any",
        Pure,
        "Parses JSON text into values; throws on invalid JSON.",
    ),
    visible(
        "json_stringify",
        "fn(value: any, pretty?: bool | int | dict) -> string",
        Pure,
        "Compact JSON with sorted keys (pretty-printed with the option).",
    ),
    visible(
        "json_extract",
        "fn(text: string, key?: string) -> any",
        Pure,
        "Parses the JSON found in text (whole, fenced block, or the first balanced object, then array), or one key of it.",
    ),
    visible(
        "json_pointer",
        "fn(value: any, pointer: string) -> any",
        Pure,
        "RFC 6901 lookup; nil when absent.",
    ),
    decl(
        "json_pointer_set",
        "fn(value: any, pointer: string, new_value: any) -> any",
        Pure,
        "A copy with the value at the RFC 6901 pointer replaced (`-` appends); unchanged when the path is absent.",
    ),
    decl(
        "json_pointer_delete",
        "fn(value: any, pointer: string) -> any",
        Pure,
        "A copy without the value at the RFC 6901 pointer; unchanged when the path is absent.",
    ),
];
