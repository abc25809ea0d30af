//! The `dates` family, implemented in `harn-stdlib` (`stdlib/src/dates.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

pub(crate) const TABLE: &[BuiltinDecl] = &[
    decl(
        "date_parse",
        "fn(text: string) -> int | float",
        Pure,
        "Unix seconds from an ISO-8601 / RFC 3339 date (UTC when no offset).",
    ),
    decl(
        "date_format",
        "fn(ts: int | float | dict, format?: string, zone?: string) -> string",
        Pure,
        "strftime formatting (default `%Y-%m-%d %H:%M:%S`, UTC).",
    ),
    decl(
        "date_to_zone",
        "fn(ts: int | float | dict, zone: string) -> string",
        Pure,
        "RFC 3339 text of the instant in an IANA time zone.",
    ),
    decl(
        "date_in_zone",
        "fn(ts: int | float | dict, zone: string) -> dict",
        Pure,
        "Calendar fields of the instant in a time zone.",
    ),
    decl(
        "date_from_components",
        "fn(parts: dict, zone?: string) -> int | float",
        Pure,
        "Unix seconds from `{year, month, day, hour?, minute?, second?}`.",
    ),
    decl(
        "date_add",
        "fn(ts: int | float | dict, d: duration) -> int | float",
        Pure,
        "The timestamp moved by a duration.",
    ),
    decl(
        "date_diff",
        "fn(a: int | float | dict, b: int | float | dict) -> duration",
        Pure,
        "`a - b` as a duration.",
    ),
    decl(
        "weekday_name",
        "fn(ts: int | float | dict, zone?: string) -> string",
        Pure,
        "English weekday name.",
    ),
    decl(
        "month_name",
        "fn(ts: int | float | dict, zone?: string) -> string",
        Pure,
        "English month name.",
    ),
    decl(
        "duration_ms",
        "fn(n: int | float) -> duration",
        Pure,
        "A duration of n milliseconds.",
    ),
    decl(
        "duration_seconds",
        "fn(n: int | float) -> duration",
        Pure,
        "A duration of n seconds.",
    ),
    decl(
        "duration_minutes",
        "fn(n: int | float) -> duration",
        Pure,
        "A duration of n minutes.",
    ),
    decl(
        "duration_hours",
        "fn(n: int | float) -> duration",
        Pure,
        "A duration of n hours.",
    ),
    decl(
        "duration_days",
        "fn(n: int | float) -> duration",
        Pure,
        "A duration of n days.",
    ),
    decl(
        "duration_to_ms",
        "fn(d: duration) -> int",
        Pure,
        "Milliseconds in a duration.",
    ),
    decl(
        "duration_to_seconds",
        "fn(d: duration) -> int",
        Pure,
        "Whole seconds in a duration.",
    ),
    decl(
        "duration_to_human",
        "fn(d: duration) -> string",
        Pure,
        "Up to three units, e.g. `1h 30m`.",
    ),
    decl(
        "date_now",
        "fn() -> dict",
        Clock,
        "The current UTC date as a dict of fields.",
    ),
    decl(
        "date_now_iso",
        "fn() -> string",
        Clock,
        "The current instant as RFC 3339 with milliseconds.",
    ),
    decl(
        "now",
        "fn() -> float",
        Clock,
        "Current Unix time in seconds (millisecond precision).",
    ),
    decl(
        "now_ms",
        "fn() -> int",
        Clock,
        "Current Unix time in milliseconds.",
    ),
    decl(
        "timestamp",
        "fn() -> int",
        Clock,
        "Current Unix time in whole seconds.",
    ),
];
