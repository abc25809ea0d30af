//! The `strings` family, implemented in `harn-stdlib` (`stdlib/src/strings.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl, visible};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    visible(
        "format",
        "fn(template: string, ...args: any) -> string",
        Pure,
        "Fills `{key}` placeholders from a dict, or each `{}` from the next argument.",
    ),
    decl(
        "pad_left",
        "fn(s: string, width: int, fill?: string) -> string",
        Pure,
        "Pads on the left to `width` characters (default fill a space).",
    ),
    decl(
        "pad_right",
        "fn(s: string, width: int, fill?: string) -> string",
        Pure,
        "Pads on the right to `width` characters (default fill a space).",
    ),
    decl(
        "repeat",
        "fn(s: string, n: int) -> string",
        Pure,
        "The string repeated `n` times (`\"\"` for n <= 0).",
    ),
    decl(
        "chars",
        "fn(s: string) -> list<string>",
        Pure,
        "The string's characters.",
    ),
    decl(
        "code_points",
        "fn(s: string) -> list<int>",
        Pure,
        "The string's Unicode code points.",
    ),
    decl(
        "from_code_points",
        "fn(points: list<int>) -> string",
        Pure,
        "A string from Unicode code points.",
    ),
    decl(
        "ord",
        "fn(s: string) -> int | nil",
        Pure,
        "The code point of the first character; nil for an empty string.",
    ),
    decl(
        "chr",
        "fn(code: int) -> string",
        Pure,
        "The one-character string of a code point.",
    ),
    decl(
        "char_at",
        "fn(s: string, i: int) -> string | nil",
        Pure,
        "The character at index `i` (negative counts from the end); nil out of range.",
    ),
    decl(
        "reverse_string",
        "fn(s: string) -> string",
        Pure,
        "The characters in reverse order.",
    ),
    decl(
        "lines",
        "fn(s: string) -> list<string>",
        Pure,
        "The string split into lines.",
    ),
    decl(
        "words",
        "fn(s: string) -> list<string>",
        Pure,
        "The string split on runs of whitespace.",
    ),
    decl(
        "trim_start",
        "fn(s: string) -> string",
        Pure,
        "Removes leading whitespace.",
    ),
    decl(
        "trim_end",
        "fn(s: string) -> string",
        Pure,
        "Removes trailing whitespace.",
    ),
    visible(
        "lower",
        "fn(s: string) -> string",
        Pure,
        "Lower-cases a string (alias of `lowercase`).",
    ),
    visible(
        "upper",
        "fn(s: string) -> string",
        Pure,
        "Upper-cases a string (alias of `uppercase`).",
    ),
    decl(
        "truncate",
        "fn(s: string, n: int, suffix?: string) -> string",
        Pure,
        "At most `n` characters, ending with the suffix (default `...`) when cut.",
    ),
    decl(
        "index_of",
        "fn(s: string, needle: string) -> int",
        Pure,
        "Character index of the first occurrence, or -1.",
    ),
    decl(
        "count_occurrences",
        "fn(s: string, needle: string) -> int",
        Pure,
        "Number of non-overlapping occurrences.",
    ),
    decl(
        "indent",
        "fn(text: string, prefix?: string) -> string",
        Pure,
        "Prefixes every non-blank line (default two spaces).",
    ),
    decl(
        "dedent",
        "fn(text: string) -> string",
        Pure,
        "Removes the common leading whitespace of the lines.",
    ),
    decl(
        "word_wrap",
        "fn(text: string, width?: int) -> string",
        Pure,
        "Greedy word wrap at the width in terminal columns (default 80; CJK and emoji count two).",
    ),
];
