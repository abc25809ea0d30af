//! The `streams` family, implemented in `harn-stdlib` (`stdlib/src/streams.rs`): the
//! `stream.*` namespaced builtins over finished sequences and the `atomic*` cells.

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "stream.map",
        "fn(source: list | set | range, f: closure) -> list",
        Pure,
        "Each item through `f`, as a list.",
    ),
    decl(
        "stream.filter",
        "fn(source: list | set | range, f: closure) -> list",
        Pure,
        "The items `f` keeps.",
    ),
    decl(
        "stream.tap",
        "fn(source: list | set | range, f: closure) -> list",
        Pure,
        "Calls `f` with each item for its effect; the items unchanged.",
    ),
    decl(
        "stream.scan",
        "fn(source: list | set | range, init: any, f: closure) -> list",
        Pure,
        "Every running accumulation `f(acc, item)`, starting from `init`.",
    ),
    decl(
        "stream.fold",
        "fn(source: list | set | range, init: any, f: closure) -> any",
        Pure,
        "The final accumulation `f(acc, item)`, starting from `init`.",
    ),
    decl(
        "stream.collect",
        "fn(source: list | set | range, max?: int | dict) -> list",
        Pure,
        "The items as a list; with `max` (or `{max}`), a longer stream throws.",
    ),
    decl(
        "stream.first",
        "fn(source: list | set | range) -> any",
        Pure,
        "The first item, or nil.",
    ),
    decl(
        "stream.take",
        "fn(source: list | set | range, n: int) -> list",
        Pure,
        "The first `n` items.",
    ),
    decl(
        "stream.take_until",
        "fn(source: list | set | range, f: closure) -> list",
        Pure,
        "The items before the first one `f` accepts.",
    ),
    decl(
        "stream.zip",
        "fn(a: list | set | range, b: list | set | range) -> list",
        Pure,
        "Pairs of items in step, as long as the shorter source.",
    ),
    decl(
        "stream.merge",
        "fn(...sources: list) -> list",
        Pure,
        "The sources' items, one from each in turn.",
    ),
    decl(
        "stream.interleave",
        "fn(...sources: list) -> list",
        Pure,
        "The sources' items, one from each in turn.",
    ),
    decl(
        "stream.race",
        "fn(...sources: list) -> list",
        Pure,
        "The first source that has an item.",
    ),
    decl(
        "stream.broadcast",
        "fn(source: list | set | range, n: int) -> list",
        Pure,
        "`n` copies of the stream, one per consumer.",
    ),
    decl(
        "stream.throttle",
        "fn(source: list | set | range, ms: int) -> list",
        Pure,
        "The first item of each window (every item when `ms` is 0); a finished stream is one window.",
    ),
    decl(
        "stream.debounce",
        "fn(source: list | set | range, ms: int) -> list",
        Pure,
        "The last item before a quiet period; a finished stream ends with one.",
    ),
    decl(
        "atomic",
        "fn(value: any) -> any",
        Pure,
        "A cell holding `value`, shared by every copy (callbacks can update it).",
    ),
    decl(
        "atomic_get",
        "fn(cell: any) -> any",
        Pure,
        "The value in a cell.",
    ),
    decl(
        "atomic_set",
        "fn(cell: any, value: any) -> any",
        Pure,
        "Puts `value` in a cell; returns what it held.",
    ),
    decl(
        "atomic_add",
        "fn(cell: any, delta?: int | float) -> any",
        Pure,
        "Adds `delta` (default 1) to a cell's number; returns the new value.",
    ),
];
