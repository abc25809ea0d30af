//! The `collections` family, implemented in `harn-stdlib` (`stdlib/src/collections.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl, visible};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "set_add",
        "fn(s: set, value: any) -> set",
        Pure,
        "The set with the value added.",
    ),
    decl(
        "set_remove",
        "fn(s: set, value: any) -> set",
        Pure,
        "The set without the value.",
    ),
    decl(
        "set_contains",
        "fn(s: set, value: any) -> bool",
        Pure,
        "Whether the set holds the value.",
    ),
    decl(
        "set_union",
        "fn(a: set, b: set) -> set",
        Pure,
        "Elements of either set.",
    ),
    decl(
        "set_intersect",
        "fn(a: set, b: set) -> set",
        Pure,
        "Elements of both sets.",
    ),
    decl(
        "set_intersection",
        "fn(a: set, b: set) -> set",
        Pure,
        "Elements of both sets (alias of `set_intersect`).",
    ),
    decl(
        "set_difference",
        "fn(a: set, b: set) -> set",
        Pure,
        "Elements of `a` not in `b`.",
    ),
    decl(
        "set_symmetric_difference",
        "fn(a: set, b: set) -> set",
        Pure,
        "Elements in exactly one of the sets.",
    ),
    decl(
        "set_is_subset",
        "fn(a: set, b: set) -> bool",
        Pure,
        "Whether every element of `a` is in `b`.",
    ),
    decl(
        "set_is_superset",
        "fn(a: set, b: set) -> bool",
        Pure,
        "Whether every element of `b` is in `a`.",
    ),
    decl(
        "set_is_disjoint",
        "fn(a: set, b: set) -> bool",
        Pure,
        "Whether the sets share no element.",
    ),
    decl(
        "set_to_list",
        "fn(s: set) -> list",
        Pure,
        "The set's elements as a list, in insertion order.",
    ),
    visible(
        "flat_map",
        "fn(xs: list, f: fn(any) -> any) -> list",
        Pure,
        "Maps and flattens one level (non-list results are kept as items).",
    ),
    visible(
        "group_by",
        "fn(xs: list, f: fn(any) -> any) -> dict",
        Pure,
        "Dict of lists keyed by the display of `f(x)`.",
    ),
    decl(
        "count_by",
        "fn(xs: list, f: fn(any) -> any) -> dict<string, int>",
        Pure,
        "Dict of counts keyed by the display of `f(x)`.",
    ),
    decl(
        "index_by",
        "fn(xs: list, f: fn(any) -> any) -> dict",
        Pure,
        "Dict keyed by the display of `f(x)`; the last item per key wins.",
    ),
    visible(
        "dedup_by",
        "fn(xs: list, f: fn(any) -> any) -> list",
        Pure,
        "Keeps the first item for each key `f(x)`.",
    ),
    decl(
        "unique",
        "fn(xs: list) -> list",
        Pure,
        "The items without duplicates, first occurrence kept.",
    ),
    decl(
        "sort_by",
        "fn(xs: list, f: fn(any) -> any) -> list",
        Pure,
        "Stable sort by the key `f(x)`.",
    ),
    decl(
        "partition",
        "fn(xs: list, f: fn(any) -> bool) -> {match: list, no_match: list}",
        Pure,
        "`{match: items where f is truthy, no_match: the rest}` (the `.partition` method gives a pair of lists).",
    ),
    decl(
        "chunk",
        "fn(xs: list, n: int) -> list<list>",
        Pure,
        "Consecutive slices of `n` items (n < 1 counts as 1).",
    ),
    decl(
        "flatten",
        "fn(xs: list) -> list",
        Pure,
        "Flattens one level of nested lists.",
    ),
    decl(
        "zip",
        "fn(a: list, b: list) -> list<list>",
        Pure,
        "Pairs items of two lists as 2-element lists (shorter length).",
    ),
    decl(
        "sum_by",
        "fn(xs: list, f: fn(any) -> number) -> int | float",
        Pure,
        "Sum of the numeric keys `f(x)`.",
    ),
];
