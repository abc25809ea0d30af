//! The `output` family, implemented in `harn-stdlib` (`stdlib/src/output.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "progress",
        "fn(phase: string, message: string, current?: int | dict, total?: int) -> nil",
        Pure,
        "Prints `[phase] message` with a count, percentage, spinner or bar.",
    ),
    decl(
        "log_debug",
        "fn(msg: string, fields?: dict) -> nil",
        Clock,
        "Prints one JSON log line `{level, msg, ts, ...fields}`.",
    ),
    decl(
        "log_info",
        "fn(msg: string, fields?: dict) -> nil",
        Clock,
        "Prints one JSON log line `{level, msg, ts, ...fields}`.",
    ),
    decl(
        "log_warn",
        "fn(msg: string, fields?: dict) -> nil",
        Clock,
        "Prints one JSON log line `{level, msg, ts, ...fields}`.",
    ),
    decl(
        "log_error",
        "fn(msg: string, fields?: dict) -> nil",
        Clock,
        "Prints one JSON log line `{level, msg, ts, ...fields}`.",
    ),
];
