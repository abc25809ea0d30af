//! The `bytes` family, implemented in `harn-stdlib` (`stdlib/src/bytes.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "bytes_from_string",
        "fn(s: string) -> bytes",
        Pure,
        "The UTF-8 bytes of a string.",
    ),
    decl(
        "bytes_to_string",
        "fn(b: bytes) -> string",
        Pure,
        "Bytes as a UTF-8 string; throws on invalid UTF-8.",
    ),
    decl(
        "bytes_from_hex",
        "fn(hex: string) -> bytes",
        Pure,
        "Bytes from a hex string.",
    ),
    decl(
        "bytes_to_hex",
        "fn(b: bytes) -> string",
        Pure,
        "Lowercase hex of the bytes.",
    ),
    decl(
        "bytes_from_base64",
        "fn(text: string) -> bytes",
        Pure,
        "Bytes from base64.",
    ),
    decl(
        "bytes_to_base64",
        "fn(b: bytes) -> string",
        Pure,
        "Base64 of the bytes.",
    ),
    decl("bytes_len", "fn(b: bytes) -> int", Pure, "Number of bytes."),
    decl(
        "bytes_concat",
        "fn(a: bytes, b: bytes) -> bytes",
        Pure,
        "The two byte strings joined.",
    ),
    decl(
        "bytes_slice",
        "fn(b: bytes, start: int, end?: int) -> bytes",
        Pure,
        "Bytes from start to end (negative counts from the end).",
    ),
];
