//! The `styling` family, implemented in `harn-stdlib` (`stdlib/src/styling.rs`): ANSI
//! styling that is a no-op until `set_color_mode("always")`.

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "color",
        "fn(text: string, name: string) -> string",
        Pure,
        "`text` in a foreground color (red, green, …, gray, bright_*) when color mode is on.",
    ),
    decl(
        "bold",
        "fn(text: string) -> string",
        Pure,
        "`text` in bold when color mode is on.",
    ),
    decl(
        "dim",
        "fn(text: string) -> string",
        Pure,
        "`text` dimmed when color mode is on.",
    ),
    decl(
        "italic",
        "fn(text: string) -> string",
        Pure,
        "`text` in italics when color mode is on.",
    ),
    decl(
        "underline",
        "fn(text: string) -> string",
        Pure,
        "`text` underlined when color mode is on.",
    ),
    decl(
        "set_color_mode",
        "fn(mode: \"always\" | \"never\" | \"auto\") -> nil",
        Pure,
        "Turns ANSI styling on (`always`) or off (`never`, `auto`) for the rest of the run.",
    ),
];
