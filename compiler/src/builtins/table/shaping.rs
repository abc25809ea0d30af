//! The `shaping` family, implemented in `harn-stdlib` (`stdlib/src/shaping.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "to_list",
        "fn(value: any) -> list",
        Pure,
        "A set's, list's or range's items as a list; any other value as a one-item list.",
    ),
    decl(
        "window",
        "fn(items: list, size?: int, step?: int) -> list<list>",
        Pure,
        "The full sliding windows of `size` items (default 2), one every `step` items (default 1).",
    ),
    decl(
        "clone",
        "fn(value: any) -> any",
        Pure,
        "A copy of the value (values are copy-on-write: changing either never shows in the other).",
    ),
    decl(
        "deep_clone",
        "fn(value: any) -> any",
        Pure,
        "A copy of the value and everything in it (copy-on-write, as `clone`).",
    ),
    decl(
        "deep_merge",
        "fn(base: dict, overrides: dict) -> dict",
        Pure,
        "Dicts merged key by key at every depth; on any other pair the override wins.",
    ),
    decl(
        "dict_from_pairs",
        "fn(pairs: list) -> dict",
        Pure,
        "A dict from [key, value] pairs (or pairs, or {key, value} dicts); a later entry wins.",
    ),
    decl(
        "is_same",
        "fn(a: any, b: any) -> bool",
        Pure,
        "Identity: the same list, dict, set or closure (not just equal); equality for scalars.",
    ),
];
