//! Dates and durations through `jiff`, following the reference's conventions:
//!
//! - a point in time is a Unix timestamp in **seconds** (an int, or a float when it has
//!   a fractional part); date helpers also accept a dict with a `timestamp` key;
//! - `date_parse(text)` reads RFC 3339 / ISO-8601 (with `T` or a space, with or without
//!   an offset; no offset means UTC), a bare date, or, as a last resort, the first six
//!   digit groups (`Y M D h m s`), validating ranges (`Invalid month: 13 (must be 1-12)`);
//! - `date_format(ts, fmt = "%Y-%m-%d %H:%M:%S", zone?)` is strftime (UTC by default);
//! - `date_to_zone(ts, zone)` is RFC 3339 in the zone (`2024-11-03T01:30:00-04:00`,
//!   fractional seconds only when non-zero);
//! - durations are `duration` values in milliseconds.
//!
//! Errors are thrown strings prefixed with the builtin's name. `date_now`, `now`,
//! `now_ms`, `timestamp` and `date_now_iso` read the clock (tag `clock`).

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};
use jiff::tz::TimeZone;
use jiff::{Timestamp, Zoned};

use crate::util::{arg, text, type_err};

const DEFAULT_FORMAT: &str = "%Y-%m-%d %H:%M:%S";

fn thrown(msg: impl Into<String>) -> VmError {
    VmError::thrown_str(msg)
}

/// A timestamp argument: seconds (int or float) or a dict with `timestamp`.
fn ts_arg(name: &str, v: &Value) -> Result<Timestamp, VmError> {
    let out_of_range = || thrown(format!("{name}: timestamp out of range"));
    match v {
        Value::Int(s) => Timestamp::from_second(*s).map_err(|_| out_of_range()),
        Value::Float(x) => {
            if !x.is_finite() {
                return Err(thrown(format!("{name}: timestamp must be finite")));
            }
            // A float holds a recent timestamp to about a quarter of a microsecond, so the
            // fraction is kept to the microsecond (`.481` stays `.481`, not `.480999936`).
            let secs = x.floor();
            if secs.abs() > 1e15 {
                return Err(out_of_range());
            }
            let micros = ((x - secs) * 1e6).round() as i128;
            let nanos = (secs as i128) * 1_000_000_000 + micros * 1000;
            Timestamp::from_nanosecond(nanos).map_err(|_| out_of_range())
        }
        Value::Dict(d) => match d.get("timestamp") {
            Some(t) => ts_arg(name, t),
            None => Err(thrown(format!("{name}: date dict has no 'timestamp'"))),
        },
        Value::Nil => Err(thrown(format!("{name}: missing timestamp argument"))),
        other => Err(type_err(name, "timestamp number or date dict", other)),
    }
}

/// Seconds as an int, or a float when there is a fractional part.
fn ts_value(ts: Timestamp) -> Value {
    let nanos = ts.subsec_nanosecond();
    if nanos == 0 {
        Value::Int(ts.as_second())
    } else {
        Value::Float(ts.as_second() as f64 + f64::from(nanos) / 1e9)
    }
}

fn zone(name: &str, v: &Value) -> Result<TimeZone, VmError> {
    let z = match v {
        Value::Str(s) => s.as_str().to_owned(),
        Value::Nil => return Ok(TimeZone::UTC),
        other => return Err(type_err(name, "timezone name", other)),
    };
    if z.eq_ignore_ascii_case("utc") || z == "Z" {
        return Ok(TimeZone::UTC);
    }
    TimeZone::get(&z).map_err(|_| thrown(format!("{name}: unknown timezone '{z}'")))
}

fn validate(month: i64, day: i64, hour: i64, minute: i64, second: i64) -> Result<(), VmError> {
    if !(1..=12).contains(&month) {
        return Err(thrown(format!("Invalid month: {month} (must be 1-12)")));
    }
    if !(1..=31).contains(&day) {
        return Err(thrown(format!("Invalid day: {day} (must be 1-31)")));
    }
    if !(0..=23).contains(&hour) {
        return Err(thrown(format!("Invalid hour: {hour} (must be 0-23)")));
    }
    if !(0..=59).contains(&minute) {
        return Err(thrown(format!("Invalid minute: {minute} (must be 0-59)")));
    }
    if !(0..=59).contains(&second) {
        return Err(thrown(format!("Invalid second: {second} (must be 0-59)")));
    }
    Ok(())
}

fn civil(
    y: i64,
    mo: i64,
    d: i64,
    h: i64,
    mi: i64,
    s: i64,
) -> Result<jiff::civil::DateTime, VmError> {
    validate(mo, d, h, mi, s)?;
    let small = |n: i64| i8::try_from(n).unwrap_or(i8::MAX);
    let year = i16::try_from(y).map_err(|_| thrown(format!("Invalid year: {y}")))?;
    jiff::civil::DateTime::new(year, small(mo), small(d), small(h), small(mi), small(s), 0)
        .map_err(|_| thrown(format!("Invalid date: {y:04}-{mo:02}-{d:02}")))
}

pub fn parse_date(input: &str) -> Result<Timestamp, VmError> {
    let t = input.trim();
    if t.is_empty() {
        return Err(thrown("Cannot parse date: "));
    }
    if let Ok(ts) = t.parse::<Timestamp>() {
        return Ok(ts);
    }
    if let Ok(dt) = t.parse::<jiff::civil::DateTime>()
        && let Ok(z) = dt.to_zoned(TimeZone::UTC)
    {
        return Ok(z.timestamp());
    }
    let parts: Vec<i64> = t
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.parse().ok())
        .collect();
    if parts.len() < 3 {
        return Err(thrown(format!("Cannot parse date: {input}")));
    }
    let get = |i: usize| parts.get(i).copied().unwrap_or(0);
    let dt = civil(get(0), get(1), get(2), get(3), get(4), get(5))?;
    dt.to_zoned(TimeZone::UTC)
        .map(|z| z.timestamp())
        .map_err(|_| thrown(format!("Cannot parse date: {input}")))
}

fn date_parse(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(ts_value(parse_date(&text(args, 0)?)?))
}

fn strftime(name: &str, z: &Zoned, fmt: &str) -> Result<String, VmError> {
    jiff::fmt::strtime::format(fmt, z).map_err(|e| thrown(format!("{name}: {e}")))
}

fn date_format(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let ts = ts_arg("date_format", arg(args, 0))?;
    let fmt = match arg(args, 1) {
        Value::Nil => DEFAULT_FORMAT.to_owned(),
        _ => text(args, 1)?,
    };
    let z = ts.to_zoned(zone("date_format", arg(args, 2))?);
    Ok(Value::str(strftime("date_format", &z, &fmt)?))
}

/// RFC 3339 the way chrono's `to_rfc3339` writes it.
fn rfc3339(z: &Zoned) -> Result<String, VmError> {
    let nanos = z.timestamp().subsec_nanosecond();
    let frac = if nanos == 0 {
        String::new()
    } else if nanos % 1_000_000 == 0 {
        format!(".{:03}", nanos / 1_000_000)
    } else if nanos % 1_000 == 0 {
        format!(".{:06}", nanos / 1_000)
    } else {
        format!(".{nanos:09}")
    };
    let date = strftime("date_to_zone", z, "%Y-%m-%dT%H:%M:%S")?;
    let off = strftime("date_to_zone", z, "%:z")?;
    Ok(format!("{date}{frac}{off}"))
}

fn date_to_zone(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let ts = ts_arg("date_to_zone", arg(args, 0))?;
    if args.len() < 2 {
        return Err(thrown("date_to_zone: missing timezone argument"));
    }
    let z = ts.to_zoned(zone("date_to_zone", arg(args, 1))?);
    Ok(Value::str(rfc3339(&z)?))
}

fn parts_dict(z: &Zoned) -> Result<Dict, VmError> {
    let mut d = Dict::new();
    d.insert("year", Value::Int(i64::from(z.year())));
    d.insert("month", Value::Int(i64::from(z.month())));
    d.insert("day", Value::Int(i64::from(z.day())));
    d.insert("hour", Value::Int(i64::from(z.hour())));
    d.insert("minute", Value::Int(i64::from(z.minute())));
    d.insert("second", Value::Int(i64::from(z.second())));
    d.insert(
        "weekday",
        Value::Int(i64::from(z.weekday().to_sunday_zero_offset())),
    );
    d.insert(
        "offset_seconds",
        Value::Int(i64::from(z.offset().seconds())),
    );
    d.insert("timestamp", ts_value(z.timestamp()));
    d.insert("iso8601", Value::str(rfc3339(z)?));
    Ok(d)
}

fn date_in_zone(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let ts = ts_arg("date_in_zone", arg(args, 0))?;
    let z = ts.to_zoned(zone("date_in_zone", arg(args, 1))?);
    let mut d = parts_dict(&z)?;
    d.insert(
        "zone",
        Value::str(z.time_zone().iana_name().unwrap_or("UTC")),
    );
    Ok(Value::dict(d))
}

fn component(d: &Dict, key: &str, default: Option<i64>) -> Result<i64, VmError> {
    match d.get(key) {
        Some(Value::Int(n)) => Ok(*n),
        Some(Value::Float(x)) if x.fract() == 0.0 => Ok(*x as i64),
        Some(other) => Err(thrown(format!(
            "date_from_components: {key} must be an integer, got {}",
            other.type_name()
        ))),
        None => default.ok_or_else(|| thrown(format!("date_from_components: missing {key}"))),
    }
}

fn date_from_components(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let d = match arg(args, 0) {
        Value::Dict(d) => d.clone(),
        other => return Err(type_err("date_from_components", "dict", other)),
    };
    let tz = zone("date_from_components", arg(args, 1))?;
    let dt = civil(
        component(&d, "year", None)?,
        component(&d, "month", None)?,
        component(&d, "day", None)?,
        component(&d, "hour", Some(0))?,
        component(&d, "minute", Some(0))?,
        component(&d, "second", Some(0))?,
    )?;
    let z = dt
        .to_zoned(tz)
        .map_err(|e| thrown(format!("date_from_components: {e}")))?;
    Ok(ts_value(z.timestamp()))
}

fn millis(ts: Timestamp) -> i128 {
    i128::from(ts.as_second()) * 1000 + i128::from(ts.subsec_nanosecond() / 1_000_000)
}

fn duration_arg(name: &str, v: &Value) -> Result<i64, VmError> {
    match v {
        Value::Duration(ms) => Ok(*ms),
        other => Err(type_err(name, "duration", other)),
    }
}

fn date_add(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let ms = millis(ts_arg("date_add", arg(args, 0))?)
        + i128::from(duration_arg("date_add", arg(args, 1))?);
    let ts = Timestamp::from_millisecond(i64::try_from(ms).unwrap_or(i64::MAX))
        .map_err(|_| thrown("date_add: timestamp overflow"))?;
    Ok(ts_value(ts))
}

fn date_diff(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let a = millis(ts_arg("date_diff", arg(args, 0))?);
    let b = millis(ts_arg("date_diff", arg(args, 1))?);
    Ok(Value::Duration(
        i64::try_from(a - b).map_err(|_| thrown("date_diff: duration overflow"))?,
    ))
}

fn name_of(name: &str, args: &[Value], fmt: &str) -> Result<Value, VmError> {
    let ts = ts_arg(name, arg(args, 0))?;
    let z = ts.to_zoned(zone(name, arg(args, 1))?);
    Ok(Value::str(strftime(name, &z, fmt)?))
}

fn weekday_name(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    name_of("weekday_name", args, "%A")
}

fn month_name(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    name_of("month_name", args, "%B")
}

// ----- durations --------------------------------------------------------------------

fn make_duration(name: &str, v: &Value, unit: i64) -> Result<Value, VmError> {
    let overflow = || thrown(format!("{name}: duration overflow"));
    let ms = match v {
        Value::Int(n) => n.checked_mul(unit).ok_or_else(overflow)?,
        Value::Float(x) if x.is_finite() => {
            let ms = (x * unit as f64).round();
            if ms.abs() > 9.2e18 {
                return Err(overflow());
            }
            ms as i64
        }
        other => return Err(type_err(name, "a number", other)),
    };
    Ok(Value::Duration(ms))
}

macro_rules! duration_ctor {
    ($($name:ident => $unit:expr),* $(,)?) => {
        $(
            fn $name(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
                make_duration(stringify!($name), arg(args, 0), $unit)
            }
        )*
    };
}

duration_ctor! {
    duration_ms => 1,
    duration_seconds => 1_000,
    duration_minutes => 60_000,
    duration_hours => 3_600_000,
    duration_days => 86_400_000,
}

fn duration_to_ms(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Int(duration_arg("duration_to_ms", arg(args, 0))?))
}

fn duration_to_seconds(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Int(
        duration_arg("duration_to_seconds", arg(args, 0))? / 1000,
    ))
}

/// Up to three units among d, h, m, s, ms: `1d 2h 3m`, `1m 30s`, `0s`.
fn duration_to_human(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let ms = duration_arg("duration_to_human", arg(args, 0))?;
    if ms == 0 {
        return Ok(Value::str("0s"));
    }
    let sign = if ms < 0 { "-" } else { "" };
    let mut rest = ms.unsigned_abs();
    let mut parts = Vec::new();
    for (label, size) in [
        ("d", 86_400_000u64),
        ("h", 3_600_000),
        ("m", 60_000),
        ("s", 1_000),
        ("ms", 1),
    ] {
        let n = rest / size;
        if n > 0 {
            parts.push(format!("{n}{label}"));
            rest %= size;
        }
        if parts.len() == 3 {
            break;
        }
    }
    Ok(Value::str(format!("{sign}{}", parts.join(" "))))
}

// ----- clock ------------------------------------------------------------------------

fn date_now(_: &mut dyn Host, _: &[Value]) -> Result<Value, VmError> {
    let z = Timestamp::now().to_zoned(TimeZone::UTC);
    let mut d = parts_dict(&z)?;
    d.remove("offset_seconds");
    Ok(Value::dict(d))
}

fn date_now_iso(_: &mut dyn Host, _: &[Value]) -> Result<Value, VmError> {
    let now = Timestamp::now();
    let ms = Timestamp::from_millisecond(now.as_millisecond()).unwrap_or(now);
    Ok(Value::str(format!("{ms:.3}")))
}

fn now(_: &mut dyn Host, _: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Float(
        Timestamp::now().as_millisecond() as f64 / 1000.0,
    ))
}

fn now_ms(_: &mut dyn Host, _: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Int(Timestamp::now().as_millisecond()))
}

fn timestamp(_: &mut dyn Host, _: &[Value]) -> Result<Value, VmError> {
    Ok(Value::Int(Timestamp::now().as_second()))
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("date_parse", date_parse),
        ("date_format", date_format),
        ("date_to_zone", date_to_zone),
        ("date_in_zone", date_in_zone),
        ("date_from_components", date_from_components),
        ("date_add", date_add),
        ("date_diff", date_diff),
        ("weekday_name", weekday_name),
        ("month_name", month_name),
        ("duration_ms", duration_ms),
        ("duration_seconds", duration_seconds),
        ("duration_minutes", duration_minutes),
        ("duration_hours", duration_hours),
        ("duration_days", duration_days),
        ("duration_to_ms", duration_to_ms),
        ("duration_to_seconds", duration_to_seconds),
        ("duration_to_human", duration_to_human),
    ];
    b.sync_table(table);
    b.sync("date_now", date_now);
    b.sync("date_now_iso", date_now_iso);
    b.sync("now", now);
    b.sync("now_ms", now_ms);
    b.sync("timestamp", timestamp);
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cloned_ref_to_slice_refs
)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, i, s};

    #[test]
    fn parse_and_format() {
        assert_eq!(call(date_parse, &[s("2024-01-15T10:30:00Z")]), "1705314600");
        assert_eq!(call(date_parse, &[s("2024-01-15 10:30:00")]), "1705314600");
        assert_eq!(
            call(date_parse, &[s("2024-01-15T12:30:00+02:00")]),
            "1705314600"
        );
        assert_eq!(call(date_parse, &[s("2024-01-15")]), "1705276800");
        assert_eq!(
            call(date_parse, &[s("2024-01-15T10:30:00.5Z")]),
            "1705314600.5"
        );
        assert_eq!(
            call_err(date_parse, &[s("2024/13/01")]),
            "Thrown: Invalid month: 13 (must be 1-12)"
        );
        assert_eq!(
            call_err(date_parse, &[s("soon")]),
            "Thrown: Cannot parse date: soon"
        );
        assert_eq!(call(date_format, &[i(1705314600)]), "2024-01-15 10:30:00");
        assert_eq!(
            call(
                date_format,
                &[i(1705314600), s("%d/%m/%Y %H:%M"), s("Asia/Tokyo")]
            ),
            "15/01/2024 19:30"
        );
        assert_eq!(
            call(date_to_zone, &[i(1705314600), s("America/New_York")]),
            "2024-01-15T05:30:00-05:00"
        );
        assert_eq!(
            call(date_to_zone, &[i(1705314600), s("UTC")]),
            "2024-01-15T10:30:00+00:00"
        );
        assert_eq!(
            call_err(date_to_zone, &[i(0), s("Mars/Base")]),
            "Thrown: date_to_zone: unknown timezone 'Mars/Base'"
        );
        assert_eq!(call(weekday_name, &[i(1705314600)]), "Monday");
        assert!(call_err(date_format, &[s("x")]).contains("date_format: expected timestamp"));
    }

    #[test]
    fn durations() {
        assert_eq!(call(duration_seconds, &[i(90)]), "90s");
        assert_eq!(call(duration_ms, &[i(-5000)]), "-5s");
        assert_eq!(call(duration_hours, &[Value::Float(1.5)]), "90m");
        assert_eq!(
            call(duration_to_human, &[Value::Duration(5_430_000)]),
            "1h 30m 30s"
        );
        assert_eq!(call(duration_to_seconds, &[Value::Duration(5_430)]), "5");
        assert_eq!(call(date_add, &[i(10), Value::Duration(1500)]), "11.5");
        assert_eq!(call(date_diff, &[i(70), i(10)]), "1m");
        assert_eq!(
            call_err(duration_to_ms, &[i(1)]),
            "Type error: duration_to_ms: expected duration, got int"
        );
        assert_eq!(
            call_err(duration_days, &[s("1")]),
            "Type error: duration_days: expected a number, got string"
        );
    }
}
