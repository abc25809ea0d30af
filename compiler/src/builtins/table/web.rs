//! The `web` family, implemented in `harn-stdlib` (`stdlib/src/web/`): cookies and signed
//! sessions, multipart bodies, signed URLs and JUnit XML reports.

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "cookie_parse",
        "fn(headers: string | list | dict | nil) -> {cookies: dict, pairs: list<{name: string, value: string}>, duplicates: dict, invalid: list<{segment: string, reason: string}>}",
        Pure,
        "Parses Cookie request headers: first value per name, every pair in order, repeated names and rejected segments.",
    ),
    decl(
        "cookie_serialize",
        "fn(name: string, value: string, options?: dict) -> string",
        Pure,
        "A Set-Cookie value; options path, domain, max_age, expires, http_only, secure, same_site (None implies Secure).",
    ),
    decl(
        "cookie_delete",
        "fn(name: string, options?: dict) -> string",
        Pure,
        "A Set-Cookie value that deletes the cookie (empty, Max-Age=0, Expires in 1970; Path=/, HttpOnly, Secure, SameSite=Lax unless overridden).",
    ),
    decl(
        "cookie_sign",
        "fn(value: string, secret: string) -> string",
        Pure,
        "`value.<sig>`: the value with its HMAC-SHA256 (base64url) under a secret of at least 32 bytes.",
    ),
    decl(
        "cookie_verify",
        "fn(signed: string, secret: string) -> {ok: bool, value: string | nil, error: string | nil}",
        Pure,
        "Checks a `cookie_sign` value; error is malformed or invalid_signature.",
    ),
    decl(
        "session_sign",
        "fn(payload: any, secret: string) -> string",
        Pure,
        "A session token `v1.<base64url(json)>.<sig>` signed with HMAC-SHA256.",
    ),
    decl(
        "session_verify",
        "fn(token: string, secret: string) -> {ok: bool, payload: any, error: string | nil}",
        Pure,
        "Checks a `session_sign` token and decodes its payload; error is malformed, invalid_signature or malformed_payload.",
    ),
    decl(
        "session_cookie",
        "fn(name: string, payload: any, secret: string, options?: dict) -> string",
        Pure,
        "A Set-Cookie value holding a signed session token (Path=/, HttpOnly, Secure, SameSite=Lax unless overridden).",
    ),
    decl(
        "session_from_cookies",
        "fn(headers: string | list | dict | nil, name: string, secret: string) -> {ok: bool, payload: any, error: string | nil}",
        Pure,
        "Verifies the session token in the named cookie of Cookie headers; error missing_cookie when it is absent.",
    ),
    decl(
        "cookie_round_trip",
        "fn(request_cookie: string | list | dict | nil, set_cookie?: string | list | dict | nil) -> {cookie_header: string, cookies: dict}",
        Clock,
        "The cookies a client holds after applying Set-Cookie headers to a Cookie header (one argument: the Set-Cookie headers); reads the clock for Expires.",
    ),
    decl(
        "multipart_form_data",
        "fn(fields: list<dict>, options?: dict) -> {boundary: string, content_type: string, body: bytes}",
        Pure,
        "A multipart/form-data body from field dicts {name, content or value, filename?, content_type?, headers?}; options.boundary.",
    ),
    decl(
        "multipart_parse",
        "fn(body: bytes | string, content_type: string, options?: dict) -> {boundary: string, fields: list<dict>, field_count: int, total_bytes: int}",
        Pure,
        "The fields {name, filename, content_type, headers, bytes, text} of a multipart/form-data body; limits max_total_bytes, max_field_bytes, max_fields.",
    ),
    decl(
        "multipart_field_bytes",
        "fn(field: dict) -> bytes",
        Pure,
        "The content of a `multipart_parse` field as bytes.",
    ),
    decl(
        "multipart_field_text",
        "fn(field: dict) -> string",
        Pure,
        "The content of a `multipart_parse` field as text; throws on invalid UTF-8.",
    ),
    decl(
        "signed_url",
        "fn(base: string, claims: dict, secret: string, expires_at: int, options?: dict) -> string",
        Pure,
        "The URL (or absolute path) with claims, expiry (and kid) in a canonical query signed with HMAC-SHA256.",
    ),
    decl(
        "verify_signed_url",
        "fn(url: string, secret_or_keys: string | dict, now: int, options?: dict) -> {valid: bool, reason: string, signature_valid: bool, expired: bool, expires_at: int | nil, kid: string | nil, claims: dict}",
        Pure,
        "Checks a `signed_url` against a secret (or keys by kid) at time `now`; reason ok, expired, bad_signature, unknown_key, ...",
    ),
    decl(
        "parse_junit_xml",
        "fn(input: string | bytes | nil) -> list<{name: string, status: string, duration_ms: int, message: string | nil, stdout: string | nil, stderr: string | nil}>",
        Pure,
        "The test cases of a JUnit XML report: name (classname::name), status passed/failed/errored/skipped, duration, message, output.",
    ),
];
