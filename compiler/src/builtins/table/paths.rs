//! The `paths` family, implemented in `harn-stdlib` (`stdlib/src/paths.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl, visible};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    visible(
        "dirname",
        "fn(path: string) -> string",
        Pure,
        "The path without its last component (`\"\"` if none).",
    ),
    decl(
        "basename",
        "fn(path: string) -> string",
        Pure,
        "The last component of a path.",
    ),
    decl(
        "extname",
        "fn(path: string) -> string",
        Pure,
        "The extension of the last component, with its dot (`\"\"` if none).",
    ),
    decl(
        "path_join",
        "fn(...parts: string) -> string",
        Pure,
        "Joins path parts with `/`; an absolute part restarts the path.",
    ),
];
