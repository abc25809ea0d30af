//! The methods of the built-in value kinds (`language.md` 7.x), as editors list them
//! after a `.`: name, signature in Harn type syntax (`self` left out) and one line of
//! documentation. The VM dispatches the same names (`vm/src/methods/`, `vm/src/iter.rs`);
//! its tests check every row here against the dispatcher.

/// The kind of value a method is called on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Receiver {
    String,
    List,
    Dict,
    Set,
    Range,
    Iter,
}

impl Receiver {
    pub const ALL: [Receiver; 6] = [
        Receiver::String,
        Receiver::List,
        Receiver::Dict,
        Receiver::Set,
        Receiver::Range,
        Receiver::Iter,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Receiver::String => "string",
            Receiver::List => "list",
            Receiver::Dict => "dict",
            Receiver::Set => "set",
            Receiver::Range => "range",
            Receiver::Iter => "iter",
        }
    }
}

/// One method row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MethodDecl {
    pub receiver: Receiver,
    pub name: &'static str,
    pub signature: &'static str,
    pub doc: &'static str,
}

const fn m(
    receiver: Receiver,
    name: &'static str,
    signature: &'static str,
    doc: &'static str,
) -> MethodDecl {
    MethodDecl {
        receiver,
        name,
        signature,
        doc,
    }
}

use Receiver::{Dict, Iter, List, Range, Set, String as Str};

/// Every method, grouped by receiver.
pub const METHODS: &[MethodDecl] = &[
    m(Str, "count", "fn() -> int", "Number of characters."),
    m(Str, "len", "fn() -> int", "Number of characters."),
    m(
        Str,
        "empty",
        "fn() -> bool",
        "Whether the string has no characters.",
    ),
    m(
        Str,
        "contains",
        "fn(needle: string) -> bool",
        "Whether `needle` occurs in the string.",
    ),
    m(
        Str,
        "split",
        "fn(sep?: string) -> list<string>",
        "Splits on `sep` (default: whitespace).",
    ),
    m(
        Str,
        "trim",
        "fn() -> string",
        "Removes leading and trailing whitespace.",
    ),
    m(
        Str,
        "trim_start",
        "fn() -> string",
        "Removes leading whitespace.",
    ),
    m(
        Str,
        "trim_end",
        "fn() -> string",
        "Removes trailing whitespace.",
    ),
    m(
        Str,
        "starts_with",
        "fn(prefix: string) -> bool",
        "Whether the string starts with `prefix`.",
    ),
    m(
        Str,
        "ends_with",
        "fn(suffix: string) -> bool",
        "Whether the string ends with `suffix`.",
    ),
    m(
        Str,
        "lowercase",
        "fn() -> string",
        "The string in lower case.",
    ),
    m(
        Str,
        "uppercase",
        "fn() -> string",
        "The string in upper case.",
    ),
    m(
        Str,
        "substring",
        "fn(start: int, end?: int) -> string",
        "Characters `start..end`.",
    ),
    m(
        Str,
        "index_of",
        "fn(needle: string) -> int",
        "First character index of `needle`, or -1.",
    ),
    m(
        Str,
        "last_index_of",
        "fn(needle: string) -> int",
        "Last character index of `needle`, or -1.",
    ),
    m(
        Str,
        "chars",
        "fn() -> list<string>",
        "The characters, one string each.",
    ),
    m(
        Str,
        "repeat",
        "fn(n: int) -> string",
        "The string `n` times.",
    ),
    m(
        Str,
        "reverse",
        "fn() -> string",
        "The characters in reverse order.",
    ),
    m(
        Str,
        "pad_left",
        "fn(width: int, fill?: string) -> string",
        "Pads on the left to `width`.",
    ),
    m(
        Str,
        "pad_right",
        "fn(width: int, fill?: string) -> string",
        "Pads on the right to `width`.",
    ),
    m(
        Str,
        "lines",
        "fn() -> list<string>",
        "The lines, without their line breaks.",
    ),
    m(
        Str,
        "char_at",
        "fn(i: int) -> string",
        "The character at index `i` (nil past the end).",
    ),
    m(
        Str,
        "iter",
        "fn() -> iter<string>",
        "A lazy iterator over the characters.",
    ),
    m(List, "count", "fn() -> int", "Number of items."),
    m(
        List,
        "empty",
        "fn() -> bool",
        "Whether the list has no items.",
    ),
    m(
        List,
        "push",
        "fn(item: any) -> list",
        "A copy with `item` appended.",
    ),
    m(
        List,
        "appending",
        "fn(item: any) -> list",
        "A copy with `item` appended (the same as `push`).",
    ),
    m(List, "pop", "fn() -> list", "A copy without the last item."),
    m(List, "sort", "fn() -> list", "A sorted copy."),
    m(
        List,
        "sorted",
        "fn() -> list",
        "A sorted copy (alias of `sort`).",
    ),
    m(
        List,
        "sorted_by",
        "fn(key: closure) -> list",
        "A copy sorted by `key(item)` (alias of `sort_by`).",
    ),
    m(
        List,
        "sort_by",
        "fn(key: closure) -> list",
        "A copy sorted by `key(item)`.",
    ),
    m(List, "reverse", "fn() -> list", "A reversed copy."),
    m(
        List,
        "join",
        "fn(sep?: string) -> string",
        "The items as text, joined by `sep`.",
    ),
    m(
        List,
        "contains",
        "fn(item: any) -> bool",
        "Whether an item equals `item`.",
    ),
    m(
        List,
        "index_of",
        "fn(item: any) -> int",
        "Index of the first item equal to `item`, or -1.",
    ),
    m(List, "enumerate", "fn() -> list", "`{index, value}` pairs."),
    m(
        List,
        "zip",
        "fn(other: list) -> list",
        "Pairs of items at the same index.",
    ),
    m(
        List,
        "slice",
        "fn(start: int, end?: int) -> list",
        "Items `start..end`.",
    ),
    m(
        List,
        "unique",
        "fn() -> list",
        "Items without repeats, first kept.",
    ),
    m(List, "take", "fn(n: int) -> list", "The first `n` items."),
    m(
        List,
        "skip",
        "fn(n: int) -> list",
        "All but the first `n` items.",
    ),
    m(List, "first", "fn() -> any", "The first item, or nil."),
    m(List, "last", "fn() -> any", "The last item, or nil."),
    m(
        List,
        "sum",
        "fn() -> int | float",
        "The sum of numeric items.",
    ),
    m(List, "min", "fn() -> any", "The smallest item, or nil."),
    m(List, "max", "fn() -> any", "The largest item, or nil."),
    m(
        List,
        "min_by",
        "fn(key: closure) -> any",
        "The item with the smallest `key(item)`.",
    ),
    m(
        List,
        "max_by",
        "fn(key: closure) -> any",
        "The item with the largest `key(item)`.",
    ),
    m(
        List,
        "flatten",
        "fn() -> list",
        "Nested lists spliced in, one level.",
    ),
    m(
        List,
        "compact",
        "fn() -> list",
        "The items that are not nil.",
    ),
    m(
        List,
        "tally",
        "fn() -> dict<string, int>",
        "How many times each item occurs.",
    ),
    m(
        List,
        "chunk",
        "fn(n: int) -> list<list>",
        "Consecutive groups of `n` items.",
    ),
    m(
        List,
        "window",
        "fn(n: int) -> list<list>",
        "Every run of `n` consecutive items.",
    ),
    m(List, "to_set", "fn() -> set", "The items as a set."),
    m(
        List,
        "iter",
        "fn() -> iter",
        "A lazy iterator over the items.",
    ),
    m(
        List,
        "map",
        "fn(f: closure) -> list",
        "`f(item)` for each item.",
    ),
    m(
        List,
        "filter",
        "fn(f: closure) -> list",
        "The items for which `f(item)` is true.",
    ),
    m(
        List,
        "reduce",
        "fn(init: any, f: closure) -> any",
        "Folds the items with `f(acc, item)`.",
    ),
    m(
        List,
        "find",
        "fn(f: closure) -> any",
        "The first item for which `f(item)` is true, or nil.",
    ),
    m(
        List,
        "find_index",
        "fn(f: closure) -> int",
        "Index of the first match of `f`, or -1.",
    ),
    m(
        List,
        "any",
        "fn(f: closure) -> bool",
        "Whether `f(item)` is true for some item.",
    ),
    m(
        List,
        "all",
        "fn(f: closure) -> bool",
        "Whether `f(item)` is true for every item.",
    ),
    m(
        List,
        "none",
        "fn(f: closure) -> bool",
        "Whether `f(item)` is true for no item.",
    ),
    m(
        List,
        "flat_map",
        "fn(f: closure) -> list",
        "`f(item)` for each item, lists spliced in.",
    ),
    m(
        List,
        "partition",
        "fn(f: closure) -> list<list>",
        "`[matching, others]` by `f(item)`.",
    ),
    m(
        List,
        "group_by",
        "fn(f: closure) -> dict<string, list>",
        "Items grouped by `f(item)`.",
    ),
    m(Dict, "keys", "fn() -> list<string>", "The keys, in order."),
    m(Dict, "values", "fn() -> list", "The values, in key order."),
    m(
        Dict,
        "entries",
        "fn() -> list",
        "`{key, value}` pairs, in key order.",
    ),
    m(Dict, "count", "fn() -> int", "Number of entries."),
    m(
        Dict,
        "has",
        "fn(key: string) -> bool",
        "Whether `key` is present.",
    ),
    m(
        Dict,
        "get",
        "fn(key: string, default?: any) -> any",
        "The value at `key`, or `default`.",
    ),
    m(
        Dict,
        "merge",
        "fn(other: dict) -> dict",
        "A copy with `other`'s entries on top.",
    ),
    m(
        Dict,
        "map_values",
        "fn(f: closure) -> dict",
        "`f(value)` for each entry.",
    ),
    m(
        Dict,
        "map_keys",
        "fn(f: closure) -> dict",
        "Entries re-keyed by `f(key)`.",
    ),
    m(
        Dict,
        "filter",
        "fn(f: closure) -> dict",
        "The entries for which `f(value)` is true.",
    ),
    m(
        Dict,
        "remove",
        "fn(key: string) -> dict",
        "A copy without `key`.",
    ),
    m(
        Dict,
        "iter",
        "fn() -> iter",
        "A lazy iterator over the entries.",
    ),
    m(
        Dict,
        "to_list",
        "fn() -> list",
        "The entries as a list of pairs.",
    ),
    m(Set, "count", "fn() -> int", "Number of members."),
    m(
        Set,
        "empty",
        "fn() -> bool",
        "Whether the set has no members.",
    ),
    m(
        Set,
        "contains",
        "fn(item: any) -> bool",
        "Whether `item` is a member.",
    ),
    m(
        Set,
        "add",
        "fn(item: any) -> set",
        "A copy with `item` added.",
    ),
    m(
        Set,
        "adding",
        "fn(item: any) -> set",
        "A copy with `item` added (the same as `add`).",
    ),
    m(
        Set,
        "remove",
        "fn(item: any) -> set",
        "A copy without `item`.",
    ),
    m(
        Set,
        "union",
        "fn(other: set) -> set",
        "Members of either set.",
    ),
    m(
        Set,
        "intersect",
        "fn(other: set) -> set",
        "Members of both sets.",
    ),
    m(
        Set,
        "difference",
        "fn(other: set) -> set",
        "Members not in `other`.",
    ),
    m(
        Set,
        "symmetric_difference",
        "fn(other: set) -> set",
        "Members of exactly one set.",
    ),
    m(
        Set,
        "is_subset",
        "fn(other: set) -> bool",
        "Whether every member is in `other`.",
    ),
    m(
        Set,
        "is_superset",
        "fn(other: set) -> bool",
        "Whether every member of `other` is here.",
    ),
    m(
        Set,
        "is_disjoint",
        "fn(other: set) -> bool",
        "Whether no member is shared.",
    ),
    m(Set, "to_list", "fn() -> list", "The members as a list."),
    m(
        Set,
        "map",
        "fn(f: closure) -> set",
        "`f(member)` for each member.",
    ),
    m(
        Set,
        "filter",
        "fn(f: closure) -> set",
        "The members for which `f` is true.",
    ),
    m(
        Set,
        "any",
        "fn(f: closure) -> bool",
        "Whether `f` is true for some member.",
    ),
    m(
        Set,
        "all",
        "fn(f: closure) -> bool",
        "Whether `f` is true for every member.",
    ),
    m(
        Range,
        "count",
        "fn() -> int",
        "Number of integers in the range.",
    ),
    m(
        Range,
        "empty",
        "fn() -> bool",
        "Whether the range holds no integer.",
    ),
    m(Range, "first", "fn() -> int", "The first integer, or nil."),
    m(Range, "last", "fn() -> int", "The last integer, or nil."),
    m(
        Range,
        "contains",
        "fn(n: int) -> bool",
        "Whether `n` is in the range.",
    ),
    m(
        Range,
        "to_list",
        "fn() -> list<int>",
        "The integers as a list.",
    ),
    m(
        Range,
        "iter",
        "fn() -> iter<int>",
        "A lazy iterator over the integers.",
    ),
    m(Range, "sum", "fn() -> int", "The sum of the integers."),
    m(
        Range,
        "take",
        "fn(n: int) -> list<int>",
        "The first `n` integers.",
    ),
    m(
        Range,
        "skip",
        "fn(n: int) -> list<int>",
        "All but the first `n` integers.",
    ),
    m(
        Range,
        "chunks",
        "fn(n: int) -> list<list<int>>",
        "Consecutive groups of `n` integers.",
    ),
    m(
        Iter,
        "next",
        "fn() -> any",
        "The next item, or nil when exhausted.",
    ),
    m(
        Iter,
        "map",
        "fn(f: closure) -> iter",
        "Lazily `f(item)` for each item.",
    ),
    m(
        Iter,
        "filter",
        "fn(f: closure) -> iter",
        "Lazily the items for which `f` is true.",
    ),
    m(Iter, "take", "fn(n: int) -> iter", "At most `n` items."),
    m(
        Iter,
        "skip",
        "fn(n: int) -> iter",
        "All but the first `n` items.",
    ),
    m(
        Iter,
        "take_while",
        "fn(f: closure) -> iter",
        "Items while `f(item)` is true.",
    ),
    m(
        Iter,
        "skip_while",
        "fn(f: closure) -> iter",
        "Items after `f(item)` is first false.",
    ),
    m(
        Iter,
        "zip",
        "fn(other: any) -> iter",
        "Pairs with another sequence's items.",
    ),
    m(Iter, "enumerate", "fn() -> iter", "`(index, item)` pairs."),
    m(
        Iter,
        "chain",
        "fn(other: any) -> iter",
        "These items, then `other`'s.",
    ),
    m(
        Iter,
        "flat_map",
        "fn(f: closure) -> iter",
        "`f(item)`'s items, spliced in.",
    ),
    m(
        Iter,
        "chunks",
        "fn(n: int) -> iter",
        "Consecutive groups of `n` items.",
    ),
    m(
        Iter,
        "windows",
        "fn(n: int) -> iter",
        "Every run of `n` consecutive items.",
    ),
    m(
        Iter,
        "to_list",
        "fn() -> list",
        "Collects the items into a list.",
    ),
    m(
        Iter,
        "to_set",
        "fn() -> set",
        "Collects the items into a set.",
    ),
    m(
        Iter,
        "to_dict",
        "fn() -> dict",
        "Collects `(key, value)` pairs into a dict.",
    ),
    m(
        Iter,
        "count",
        "fn() -> int",
        "Consumes the iterator, counting items.",
    ),
    m(
        Iter,
        "sum",
        "fn() -> int | float",
        "Consumes the iterator, summing items.",
    ),
    m(Iter, "min", "fn() -> any", "The smallest item, or nil."),
    m(Iter, "max", "fn() -> any", "The largest item, or nil."),
    m(
        Iter,
        "reduce",
        "fn(init: any, f: closure) -> any",
        "Folds the items with `f(acc, item)`.",
    ),
    m(Iter, "first", "fn() -> any", "The first item, or nil."),
    m(Iter, "last", "fn() -> any", "The last item, or nil."),
    m(
        Iter,
        "any",
        "fn(f: closure) -> bool",
        "Whether `f` is true for some item.",
    ),
    m(
        Iter,
        "all",
        "fn(f: closure) -> bool",
        "Whether `f` is true for every item.",
    ),
    m(
        Iter,
        "find",
        "fn(f: closure) -> any",
        "The first item for which `f` is true.",
    ),
    m(
        Iter,
        "for_each",
        "fn(f: closure) -> nil",
        "Calls `f(item)` for each item.",
    ),
    m(
        Iter,
        "contains",
        "fn(item: any) -> bool",
        "Whether an item equals `item`.",
    ),
    m(
        Str,
        "replace",
        "fn(old: string, new: string) -> string",
        "Every occurrence of `old` replaced by `new`.",
    ),
    m(
        Str,
        "lower",
        "fn() -> string",
        "The string in lower case (alias of `lowercase`).",
    ),
    m(
        Str,
        "to_lower",
        "fn() -> string",
        "The string in lower case (alias of `lowercase`).",
    ),
    m(
        Str,
        "upper",
        "fn() -> string",
        "The string in upper case (alias of `uppercase`).",
    ),
    m(
        Str,
        "to_upper",
        "fn() -> string",
        "The string in upper case (alias of `uppercase`).",
    ),
    m(
        Str,
        "to_list",
        "fn() -> list<string>",
        "The characters, one string each (alias of `chars`).",
    ),
    m(
        List,
        "each_slice",
        "fn(n: int) -> list<list>",
        "Consecutive groups of `n` items (alias of `chunk`).",
    ),
    m(
        List,
        "each_cons",
        "fn(n: int) -> list<list>",
        "Every run of `n` consecutive items (alias of `window`).",
    ),
    m(
        List,
        "sliding_window",
        "fn(n: int) -> list<list>",
        "Every run of `n` consecutive items (alias of `window`).",
    ),
    m(List, "to_list", "fn() -> list", "The list itself."),
    m(
        List,
        "every",
        "fn(f: closure) -> bool",
        "Whether `f(item)` is true for every item (alias of `all`).",
    ),
    m(
        Dict,
        "rekey",
        "fn(f: closure) -> dict",
        "Entries re-keyed by `f(key)` (alias of `map_keys`).",
    ),
    m(Set, "len", "fn() -> int", "Number of members."),
    m(
        Set,
        "delete",
        "fn(item: any) -> set",
        "A copy without `item` (alias of `remove`).",
    ),
    m(
        Set,
        "intersection",
        "fn(other: set) -> set",
        "Members of both sets (alias of `intersect`).",
    ),
    m(
        Set,
        "every",
        "fn(f: closure) -> bool",
        "Whether `f` is true for every member (alias of `all`).",
    ),
    m(Set, "to_set", "fn() -> set", "The set itself."),
    m(
        Range,
        "len",
        "fn() -> int",
        "Number of integers in the range.",
    ),
    m(Range, "to_string", "fn() -> string", "The range as text."),
    m(
        Range,
        "windows",
        "fn(n: int) -> list<list<int>>",
        "Every run of `n` consecutive integers.",
    ),
];

/// The methods of one receiver kind.
pub fn methods_of(receiver: Receiver) -> impl Iterator<Item = &'static MethodDecl> {
    METHODS.iter().filter(move |d| d.receiver == receiver)
}

/// A method of a receiver kind by name.
pub fn method(receiver: Receiver, name: &str) -> Option<&'static MethodDecl> {
    methods_of(receiver).find(|d| d.name == name)
}
