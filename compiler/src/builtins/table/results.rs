//! The `results` family, implemented in `harn-stdlib` (`stdlib/src/results.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "map_ok",
        "fn(r: Result<any, any>, f: fn(any) -> any) -> Result<any, any>",
        Pure,
        "Maps the Ok payload; an Err passes through.",
    ),
    decl(
        "map_err",
        "fn(r: Result<any, any>, f: fn(any) -> any) -> Result<any, any>",
        Pure,
        "Maps the Err payload; an Ok passes through.",
    ),
    decl(
        "and_then",
        "fn(r: Result<any, any>, f: fn(any) -> Result<any, any>) -> Result<any, any>",
        Pure,
        "Chains a Result-returning function on the Ok payload.",
    ),
    decl(
        "unwrap_or_else",
        "fn(r: Result<any, any>, f: fn(any) -> any) -> any",
        Pure,
        "The Ok payload, or `f(error)`.",
    ),
    decl(
        "ok_or",
        "fn(value: any, error: any) -> Result<any, any>",
        Pure,
        "Err(error) for nil, else Ok(value).",
    ),
    decl(
        "expect",
        "fn(r: Result<any, any>, msg: string) -> any",
        Pure,
        "The Ok payload, or throws `msg: <error>`.",
    ),
    decl(
        "error_category",
        "fn(e: any) -> string | nil",
        Pure,
        "The `category` of an error dict (or of an Err's payload).",
    ),
    decl(
        "error_message",
        "fn(e: any) -> string",
        Pure,
        "The `message` of an error dict, else the error's display.",
    ),
    decl(
        "is_timeout",
        "fn(e: any) -> bool",
        Pure,
        "Whether the error's category is `timeout`.",
    ),
    decl(
        "is_rate_limited",
        "fn(e: any) -> bool",
        Pure,
        "Whether the error's category is `rate_limit`.",
    ),
    decl(
        "error_is",
        "fn(e: any, category: string) -> bool",
        Pure,
        "Whether the error is of the named category (timeout, auth, rate_limit, not_found, ...).",
    ),
    decl(
        "error_is_transient",
        "fn(e: any) -> bool",
        Pure,
        "Whether the error is worth retrying: timeout, rate_limit, overloaded, server_error, transient_network or resource_busy.",
    ),
];
