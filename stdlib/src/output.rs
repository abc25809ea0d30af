//! Output helpers (`language.md` 2.1): `progress` and the structured loggers
//! `log_debug` / `log_info` / `log_warn` / `log_error`.
//!
//! The loggers write one compact JSON line (sorted keys) with `level`, `msg`, `ts`
//! (RFC 3339, UTC, milliseconds) and any extra `fields`; because of the timestamp they
//! read the clock and are tagged `clock`.

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, Value};

use crate::json::to_json_text;
use crate::util::{arg, text, type_err};

fn bar_line(phase: &str, message: &str, opts: &Dict) -> Result<String, VmError> {
    let num = |k: &str| opts.get(k).and_then(Value::as_f64);
    let current = num("current").unwrap_or(0.0);
    let total = num("total").unwrap_or(0.0);
    let width = match opts.get("width") {
        Some(Value::Int(w)) => (*w).clamp(3, 40),
        Some(Value::Float(w)) => (*w as i64).clamp(3, 40),
        _ => 10,
    };
    let filled = if total <= 0.0 {
        0
    } else {
        ((current / total * width as f64).round() as i64).clamp(0, width)
    };
    let bar: String = (0..width)
        .map(|i| if i < filled { '#' } else { '-' })
        .collect();
    let shown = |k: &str| opts.get(k).map_or(Ok("0".to_owned()), display);
    Ok(format!(
        "[{phase}] [{bar}] {message} ({}/{})\n",
        shown("current")?,
        shown("total")?
    ))
}

/// `progress(phase, message, current?, total?)` or `progress(phase, message, options)`.
fn progress(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let phase = text(args, 0)?;
    let message = text(args, 1)?;
    let line = match (arg(args, 2), arg(args, 3)) {
        (Value::Dict(opts), _) => match opts.get("mode").and_then(Value::as_str) {
            Some("spinner") => {
                let step = match opts.get("step") {
                    Some(Value::Int(n)) => *n,
                    Some(Value::Float(x)) => *x as i64,
                    _ => 0,
                };
                let frame = ['|', '/', '-', '\\'][step.rem_euclid(4) as usize];
                format!("[{phase}] {frame} {message}\n")
            }
            Some("bar") => bar_line(&phase, &message, opts)?,
            _ => format!("[{phase}] {message}\n"),
        },
        (c @ (Value::Int(_) | Value::Float(_)), t @ (Value::Int(_) | Value::Float(_))) => {
            format!("[{phase}] {message} ({}/{})\n", display(c)?, display(t)?)
        }
        (p @ (Value::Int(_) | Value::Float(_)), Value::Nil) => {
            format!("[{phase}] {message} ({}%)\n", display(p)?)
        }
        (Value::Nil, _) => format!("[{phase}] {message}\n"),
        (other, _) => return Err(type_err("progress", "int or options dict", other)),
    };
    host.write_out(&line)?;
    Ok(Value::Nil)
}

fn log_line(host: &mut dyn Host, level: &str, args: &[Value]) -> Result<Value, VmError> {
    let mut d = match arg(args, 1) {
        Value::Dict(f) => (**f).clone(),
        Value::Nil => Dict::new(),
        other => return Err(type_err(&format!("log_{level}"), "dict of fields", other)),
    };
    let now = jiff::Timestamp::now();
    let ms = jiff::Timestamp::from_millisecond(now.as_millisecond()).unwrap_or(now);
    d.insert("ts", Value::str(format!("{ms:.3}")));
    d.insert("level", Value::str(level));
    d.insert("msg", Value::str(text(args, 0)?));
    let mut line = to_json_text(&Value::dict(d))?;
    line.push('\n');
    host.write_out(&line)?;
    Ok(Value::Nil)
}

fn log_debug(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    log_line(host, "debug", args)
}

fn log_info(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    log_line(host, "info", args)
}

fn log_warn(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    log_line(host, "warn", args)
}

fn log_error(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    log_line(host, "error", args)
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("progress", progress);
    for (name, f) in [
        ("log_debug", log_debug as harn_vm::native::NativeFn),
        ("log_info", log_info),
        ("log_warn", log_warn),
        ("log_error", log_error),
    ] {
        b.sync(name, f);
    }
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
    use crate::test_host::{TestHost, call_err, d, i, s};

    fn out(args: &[Value]) -> String {
        let mut h = TestHost::new();
        progress(&mut h, args).unwrap();
        h.out
    }

    #[test]
    fn progress_forms() {
        assert_eq!(out(&[s("build"), s("start")]), "[build] start\n");
        assert_eq!(
            out(&[s("build"), s("files"), i(3), i(10)]),
            "[build] files (3/10)\n"
        );
        assert_eq!(
            out(&[s("build"), s("files"), i(40)]),
            "[build] files (40%)\n"
        );
        assert_eq!(
            out(&[s("p"), s("m"), d(&[("mode", s("spinner")), ("step", i(5))])]),
            "[p] / m\n"
        );
        assert_eq!(
            out(&[
                s("p"),
                s("m"),
                d(&[("mode", s("bar")), ("current", i(3)), ("total", i(10))])
            ]),
            "[p] [###-------] m (3/10)\n"
        );
        assert_eq!(
            out(&[
                s("p"),
                s("m"),
                d(&[
                    ("mode", s("bar")),
                    ("current", i(1)),
                    ("total", i(0)),
                    ("width", i(1))
                ])
            ]),
            "[p] [---] m (1/0)\n"
        );
        assert!(call_err(progress, &[s("p"), s("m"), s("x")]).contains("progress: expected"));
    }

    #[test]
    fn log_lines() {
        let mut h = TestHost::new();
        log_info(&mut h, &[s("hi"), d(&[("n", i(1))])]).unwrap();
        assert!(
            h.out
                .starts_with(r#"{"level":"info","msg":"hi","n":1,"ts":""#),
            "{}",
            h.out
        );
        assert!(h.out.ends_with("Z\"}\n"));
    }
}
