//! The `digest` family, implemented in `harn-stdlib` (`stdlib/src/digest.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "sha256",
        "fn(data: string | bytes) -> string",
        Pure,
        "SHA-256 digest as lowercase hex.",
    ),
    decl(
        "md5",
        "fn(data: string | bytes) -> string",
        Pure,
        "MD5 digest as lowercase hex (not for security).",
    ),
];
