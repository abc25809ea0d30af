//! The `jq` family, implemented in `harn-stdlib` (`stdlib/src/jq.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, visible};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    visible(
        "jq",
        "fn(value: any, filter: string) -> list",
        Pure,
        "Results of a jq-subset filter (`.a`, `.[n]`, `.[]`, `|`, select, map, length, keys).",
    ),
    visible(
        "jq_first",
        "fn(value: any, filter: string) -> any",
        Pure,
        "The first result of a jq-subset filter, or nil.",
    ),
];
