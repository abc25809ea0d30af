//! The `http` family, implemented in `harn-stdlib` (`stdlib/src/http.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "http_get",
        "fn(url: string, options?: {headers?: dict, timeout_ms?: int}) -> {status: int, ok: bool, headers: dict, body: string}",
        IoNet,
        "Sends an HTTP GET; returns `{status, ok, headers, body}` (a non-2xx status is a result, not an error).",
    ),
    decl(
        "http_post",
        "fn(url: string, body: any, options?: {headers?: dict, timeout_ms?: int}) -> {status: int, ok: bool, headers: dict, body: string}",
        IoNet,
        "Sends an HTTP POST with a string body (other values are sent as JSON); returns `{status, ok, headers, body}`.",
    ),
];
