//! The `schema` family, implemented in `harn-stdlib` (`stdlib/src/schema.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "json_validate",
        "fn(value: any, schema: dict) -> bool",
        Pure,
        "True if the value matches the schema; else throws every `at <path>: <reason>` joined with `; `.",
    ),
    decl(
        "schema_is",
        "fn(value: any, schema: dict) -> bool",
        Pure,
        "Whether the value matches the schema.",
    ),
    decl(
        "schema_check",
        "fn(value: any, schema: dict) -> Result<any, dict>",
        Pure,
        "Ok(value), or Err({message, errors, value}).",
    ),
    decl(
        "schema_parse",
        "fn(value: any, schema: dict) -> Result<any, dict>",
        Pure,
        "Like `schema_check` after filling in schema defaults.",
    ),
    decl(
        "schema_errors",
        "fn(value: any, schema: dict) -> list<string>",
        Pure,
        "Every validation error (empty when the value matches).",
    ),
    decl(
        "schema_of",
        "fn(value: any) -> dict",
        Pure,
        "A schema dict: a dict is returned as is (already a schema); other values give the schema of their shape.",
    ),
    decl(
        "schema_to_json_schema",
        "fn(schema: dict) -> dict",
        Pure,
        "Converts a Harn-flavoured schema (`min`, `union`, `nullable`, ...) to standard JSON Schema.",
    ),
];
