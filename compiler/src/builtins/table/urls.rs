//! The `urls` and `unicode` families, implemented in `harn-stdlib`
//! (`stdlib/src/urls.rs`, `stdlib/src/unicode.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "url_parse",
        "fn(url: string) -> {scheme: string, host: string | nil, port: int | nil, path: string, query: string | nil, fragment: string | nil, username: string | nil, password: string | nil}",
        Pure,
        "A URL's parts (WHATWG parsing); a default port is nil.",
    ),
    decl(
        "url_build",
        "fn(parts: dict) -> string",
        Pure,
        "The URL a dict of parts describes (scheme required; host, port, path, query, fragment, username, password).",
    ),
    decl(
        "unicode_normalize",
        "fn(text: string, form?: string) -> string",
        Pure,
        "The text in Unicode normalization form NFC (default), NFD, NFKC or NFKD.",
    ),
    decl(
        "unicode_graphemes",
        "fn(text: string) -> list<string>",
        Pure,
        "The text's extended grapheme clusters (what a reader sees as characters).",
    ),
    decl(
        "str_pad",
        "fn(text: string, width: int, fill?: string, side?: string) -> string",
        Pure,
        "Pads to `width` graphemes with `fill` (default space) on the `side`: left, right (default) or both.",
    ),
];
