//! The `encodings` family, implemented in `harn-stdlib` (`stdlib/src/encodings.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl, visible};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    visible(
        "base64_encode",
        "fn(data: string | bytes) -> string",
        Pure,
        "Standard base64 with padding.",
    ),
    visible(
        "base64_decode",
        "fn(text: string) -> string",
        Pure,
        "Decodes base64 (standard or URL-safe, padding optional) to a string.",
    ),
    decl(
        "base64url_encode",
        "fn(data: string | bytes) -> string",
        Pure,
        "URL-safe base64 (`-`, `_`) without padding.",
    ),
    decl(
        "base64url_decode",
        "fn(text: string) -> string",
        Pure,
        "Decodes unpadded URL-safe base64 to a string.",
    ),
    decl(
        "base32_encode",
        "fn(data: string | bytes) -> string",
        Pure,
        "RFC 4648 base32 with padding.",
    ),
    decl(
        "base32_decode",
        "fn(text: string) -> string",
        Pure,
        "Decodes RFC 4648 base32 to a string.",
    ),
    visible(
        "hex_encode",
        "fn(data: string | bytes) -> string",
        Pure,
        "Lowercase hex of the bytes.",
    ),
    visible(
        "hex_decode",
        "fn(text: string) -> string",
        Pure,
        "Decodes hex (either case) to a string.",
    ),
    decl(
        "url_encode",
        "fn(text: string) -> string",
        Pure,
        "Percent-encodes every byte but RFC 3986's unreserved characters (space is %20).",
    ),
    decl(
        "url_decode",
        "fn(text: string) -> string",
        Pure,
        "Decodes %XX escapes and `+` as a space; malformed escapes stay as written.",
    ),
    decl(
        "query_parse",
        "fn(query: string) -> list<{key: string, value: string}>",
        Pure,
        "A form-urlencoded query string as [{key, value}] in order, duplicates kept.",
    ),
    decl(
        "query_stringify",
        "fn(pairs: list<{key: string, value: any}> | dict) -> string",
        Pure,
        "[{key, value}] (or a dict) as a form-urlencoded query string.",
    ),
];
