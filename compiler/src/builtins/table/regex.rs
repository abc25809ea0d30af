//! The `regex` family, implemented in `harn-stdlib` (`stdlib/src/regex.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "regex_match",
        "fn(pattern: string, text: string, flags?: string) -> list<string> | nil",
        Pure,
        "Every non-overlapping match of the pattern, or nil when none.",
    ),
    decl(
        "regex_test",
        "fn(pattern: string, text: string, flags?: string) -> bool",
        Pure,
        "Whether the pattern matches anywhere in the text.",
    ),
    decl(
        "regex_find",
        "fn(pattern: string, text: string, flags?: string) -> string | nil",
        Pure,
        "The first match, or nil.",
    ),
    decl(
        "regex_replace",
        "fn(pattern: string, replacement: string, text: string, flags?: string) -> string",
        Pure,
        "Replaces every match; `$1` / `${name}` refer to groups.",
    ),
    decl(
        "regex_replace_all",
        "fn(pattern: string, replacement: string, text: string, flags?: string) -> string",
        Pure,
        "`regex_replace` under the name that says it replaces every match.",
    ),
    decl(
        "regex_captures",
        "fn(pattern: string, text: string, flags?: string) -> list<dict>",
        Pure,
        "One `{match, groups, <named groups>}` dict per match.",
    ),
    decl(
        "regex_split",
        "fn(pattern: string, text: string, flags?: string) -> list<string>",
        Pure,
        "Splits the text at every match.",
    ),
    decl(
        "regex_escape",
        "fn(text: string) -> string",
        Pure,
        "Escapes regex metacharacters.",
    ),
];
