//! The composition builtins for trusted scripts (`code-mode.md` 7), implemented by the
//! `harnc` binary (`src/composition.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "composition_binding_manifest",
        "fn(tools: any, options?: dict) -> dict",
        Host,
        "Builds the binding manifest of a tool surface (MCP tools/list result, tool list, registry); options as `harnc manifest`, plus `form: \"compact\"`.",
    ),
    decl(
        "composition_harn_api",
        "fn(manifest: dict) -> string",
        Host,
        "The generated `.harn` API (type aliases and wrapper fns) of a binding manifest.",
    ),
    decl(
        "composition_typescript_declarations",
        "fn(manifest: dict) -> string",
        Host,
        "The generated TypeScript declarations of a binding manifest.",
    ),
    decl(
        "composition_execute",
        "fn(snippet: string, manifest: dict, options?: dict | fn(name: string, input: any) -> any) -> dict",
        Host,
        "Runs a snippet in a fresh code-mode VM against a binding manifest and returns the report; tools answer from `options.dispatcher` (or a closure as the third argument), else the mock host.",
    ),
];
