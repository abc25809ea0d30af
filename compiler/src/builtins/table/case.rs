//! The `case` family, implemented in `harn-stdlib` (`stdlib/src/case.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "snake_to_camel",
        "fn(s: string) -> string",
        Pure,
        "`user_id` → `userId`.",
    ),
    decl(
        "camel_to_snake",
        "fn(s: string) -> string",
        Pure,
        "`userId` → `user_id`.",
    ),
    decl(
        "to_snake_case",
        "fn(s: string) -> string",
        Pure,
        "Words joined with `_`, lower case.",
    ),
    decl(
        "to_kebab_case",
        "fn(s: string) -> string",
        Pure,
        "Words joined with `-`, lower case.",
    ),
    decl(
        "to_screaming_snake_case",
        "fn(s: string) -> string",
        Pure,
        "Words joined with `_`, upper case.",
    ),
    decl(
        "to_camel_case",
        "fn(s: string) -> string",
        Pure,
        "`helloWorld` form.",
    ),
    decl(
        "to_pascal_case",
        "fn(s: string) -> string",
        Pure,
        "`HelloWorld` form.",
    ),
    decl(
        "to_title_case",
        "fn(s: string) -> string",
        Pure,
        "Capitalised words joined with spaces.",
    ),
    decl(
        "capitalize",
        "fn(s: string) -> string",
        Pure,
        "Upper-cases the first character.",
    ),
    decl(
        "snake_to_pascal",
        "fn(s: string) -> string",
        Pure,
        "`user_id` → `UserId`.",
    ),
    decl(
        "pascal_to_snake",
        "fn(s: string) -> string",
        Pure,
        "`UserId` → `user_id`.",
    ),
    decl(
        "pascal_to_camel",
        "fn(s: string) -> string",
        Pure,
        "`UserId` → `userId`.",
    ),
    decl(
        "camel_to_pascal",
        "fn(s: string) -> string",
        Pure,
        "`userId` → `UserId`.",
    ),
    decl(
        "kebab_to_camel",
        "fn(s: string) -> string",
        Pure,
        "`user-id` → `userId`.",
    ),
    decl(
        "camel_to_kebab",
        "fn(s: string) -> string",
        Pure,
        "`userId` → `user-id`.",
    ),
    decl(
        "snake_to_kebab",
        "fn(s: string) -> string",
        Pure,
        "`user_id` → `user-id`.",
    ),
    decl(
        "kebab_to_snake",
        "fn(s: string) -> string",
        Pure,
        "`user-id` → `user_id`.",
    ),
    decl(
        "title_case",
        "fn(s: string) -> string",
        Pure,
        "Capitalises each whitespace-separated word.",
    ),
    decl(
        "uppercase_first",
        "fn(s: string) -> string",
        Pure,
        "Upper-cases the first character.",
    ),
    decl(
        "lowercase_first",
        "fn(s: string) -> string",
        Pure,
        "Lower-cases the first character.",
    ),
];
