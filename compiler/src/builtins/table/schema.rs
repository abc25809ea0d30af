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
    decl(
        "schema_from_json_schema",
        "fn(schema: dict) -> dict",
        Pure,
        "A JSON Schema or OpenAPI schema in Harn's dialect (int, dict, min, union, ...); unknown keywords dropped.",
    ),
    decl(
        "schema_from_openapi_schema",
        "fn(schema: dict) -> dict",
        Pure,
        "An OpenAPI 3.0 schema in Harn's dialect (as `schema_from_json_schema`; `nullable` kept).",
    ),
    decl(
        "schema_to_openapi_schema",
        "fn(schema: dict) -> dict",
        Pure,
        "A Harn schema as OpenAPI 3.0 JSON Schema (`nullable: true` instead of a null type).",
    ),
    decl(
        "schema_pick",
        "fn(schema: dict, keys: list<string>) -> dict",
        Pure,
        "The schema with only the listed top-level properties (and their `required` entries).",
    ),
    decl(
        "schema_omit",
        "fn(schema: dict, keys: list<string>) -> dict",
        Pure,
        "The schema without the listed top-level properties.",
    ),
    decl(
        "schema_extend",
        "fn(base: dict, overrides: dict) -> dict",
        Pure,
        "A shallow merge of two schemas: each key of the overrides replaces the base's value.",
    ),
    decl(
        "schema_partial",
        "fn(schema: dict) -> dict",
        Pure,
        "The schema with every `required` removed, at every depth.",
    ),
    decl(
        "schema_expect",
        "fn(value: any, schema: dict, apply_defaults?: bool) -> any",
        Pure,
        "The value when it matches (defaults filled in when asked), else throws every error joined with `; `.",
    ),
];
