//! The `formats` family, implemented in `harn-stdlib` (`stdlib/src/formats/`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "csv_parse",
        "fn(text: string, options?: {headers?: bool, delimiter?: string}) -> list",
        Pure,
        "CSV rows as lists of strings, or with `headers: true` as dicts keyed by the first row.",
    ),
    decl(
        "csv_stringify",
        "fn(rows: list, options?: {headers?: bool, delimiter?: string}) -> string",
        Pure,
        "Rows (lists, or dicts with sorted keys as columns) as CSV text, quoting only where needed.",
    ),
    decl(
        "yaml_parse",
        "fn(text: string) -> any",
        Pure,
        "The first YAML document as a value (plain scalars typed; aliases shared).",
    ),
    decl(
        "yaml_stringify",
        "fn(value: any) -> string",
        Pure,
        "A value as a YAML document (block style, keys sorted).",
    ),
    decl(
        "toml_parse",
        "fn(text: string) -> dict",
        Pure,
        "A TOML document as a dict (datetimes as their RFC 3339 text).",
    ),
    decl(
        "toml_stringify",
        "fn(value: dict) -> string",
        Pure,
        "A dict as a TOML document (nil values are an error: TOML has no null).",
    ),
    decl(
        "gzip_encode",
        "fn(data: string | bytes, level?: int) -> bytes",
        Pure,
        "gzip-compressed bytes (level 0-9, default 6; deterministic header).",
    ),
    decl(
        "gzip_decode",
        "fn(data: bytes, options?: {max_decompressed_bytes?: int}) -> bytes",
        Pure,
        "Decompressed gzip bytes, refused past max_decompressed_bytes (default 100 MiB) or the run's caps.",
    ),
];
