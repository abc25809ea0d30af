//! `parse_junit_xml`: the test cases of a JUnit XML report (GTest, Surefire, pytest,
//! vitest, nextest, ...) read with `quick-xml`, one record per `<testcase>`:
//! `{name, status, duration_ms, message, stdout, stderr}`.
//!
//! Lenient by design: input that is not UTF-8 gives `[]`, and reading stops at the
//! first malformed spot, keeping the test cases completed before it. Only an input of
//! the wrong type throws.

use std::rc::Rc;

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;
use quick_xml::XmlVersion;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::reader::Reader;

use super::{dict_of, opt_text};
use crate::util::{arg, charge, check_len};

/// A `<failure>` or `<error>`: its `message` attribute and trimmed text.
struct Detail {
    message: Option<String>,
    text: String,
}

impl Detail {
    /// The message, a newline and the text, or whichever of the two there is.
    fn combined(self) -> String {
        match self.message {
            Some(m) if self.text.is_empty() => m,
            Some(m) => format!("{m}\n{}", self.text),
            None => self.text,
        }
    }
}

#[derive(Default)]
struct Case {
    name: String,
    duration_ms: i64,
    failure: Option<Detail>,
    error: Option<Detail>,
    skipped: bool,
    stdout: Option<String>,
    stderr: Option<String>,
}

impl Case {
    fn value(self) -> Value {
        let (status, message) = if let Some(f) = self.failure {
            ("failed", Some(f.combined()))
        } else if let Some(e) = self.error {
            ("errored", Some(e.combined()))
        } else if self.skipped {
            ("skipped", None)
        } else {
            ("passed", None)
        };
        dict_of([
            ("name", Value::str(self.name)),
            ("status", Value::str(status)),
            ("duration_ms", Value::Int(self.duration_ms)),
            ("message", opt_text(message)),
            ("stdout", opt_text(self.stdout)),
            ("stderr", opt_text(self.stderr)),
        ])
    }
}

/// The child of a test case whose text is being collected.
#[derive(Clone, Copy, PartialEq)]
enum Part {
    Failure,
    Error,
    Stdout,
    Stderr,
}

/// An attribute's value with entities resolved (raw if it has an unknown one).
fn attr(e: &BytesStart, key: &str) -> Option<String> {
    e.attributes().flatten().find_map(|a| {
        (a.key.as_ref() == key).then(|| {
            a.normalized_value(XmlVersion::Implicit1_0)
                .map_or_else(|_| a.value.to_string(), |v| v.into_owned())
        })
    })
}

/// Seconds as whole milliseconds (rounded to the nanosecond, then truncated); 0 when
/// negative or not a number, saturating when huge.
fn millis(time: Option<String>) -> i64 {
    let secs = time
        .and_then(|t| t.trim().parse::<f64>().ok())
        .unwrap_or(0.0);
    if !secs.is_finite() || secs <= 0.0 {
        return 0;
    }
    // `as` saturates at i64::MAX.
    ((secs * 1e9).round() / 1e6).floor() as i64
}

fn new_case(e: &BytesStart) -> Case {
    let name = attr(e, "name").unwrap_or_default();
    let name = match attr(e, "classname") {
        Some(class) if !class.is_empty() && !name.is_empty() => format!("{class}::{name}"),
        _ => name,
    };
    Case {
        name,
        duration_ms: millis(attr(e, "time")),
        ..Case::default()
    }
}

/// The text an entity or character reference stands for.
fn resolve(r: &BytesRef, out: &mut String) {
    match r.resolve_char_ref() {
        Ok(Some(c)) => out.push(c),
        _ => match resolve_predefined_entity(r) {
            Some(s) => out.push_str(s),
            None => {
                out.push('&');
                out.push_str(r);
                out.push(';');
            }
        },
    }
}

/// Collects the text of one child element (nested elements included).
struct Capture {
    part: Part,
    message: Option<String>,
    depth: usize,
    text: String,
}

impl Capture {
    fn store(self, case: &mut Case) {
        let text = self.text.trim().to_owned();
        match self.part {
            Part::Failure => {
                case.failure.get_or_insert(Detail {
                    message: self.message,
                    text,
                });
            }
            Part::Error => {
                case.error.get_or_insert(Detail {
                    message: self.message,
                    text,
                });
            }
            Part::Stdout => {
                case.stdout.get_or_insert(text);
            }
            Part::Stderr => {
                case.stderr.get_or_insert(text);
            }
        }
    }
}

/// The test cases of a report, up to the first malformed spot.
fn read_cases(text: &str) -> Vec<Value> {
    let mut reader = Reader::from_str(text);
    let mut out = Vec::new();
    let mut case: Option<Case> = None;
    let mut capture: Option<Capture> = None;
    loop {
        let event = match reader.read_event() {
            Ok(Event::Eof) | Err(_) => break,
            Ok(ev) => ev,
        };
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                if let Some(c) = capture.as_mut() {
                    c.depth += usize::from(!empty);
                    continue;
                }
                let local = e.local_name();
                let name = local.as_ref();
                if name == "testcase" {
                    if let Some(prev) = case.take() {
                        out.push(prev.value());
                    }
                    let c = new_case(e);
                    if empty {
                        out.push(c.value());
                    } else {
                        case = Some(c);
                    }
                    continue;
                }
                let Some(current) = case.as_mut() else {
                    continue;
                };
                let part = match name {
                    "failure" => Part::Failure,
                    "error" => Part::Error,
                    "system-out" => Part::Stdout,
                    "system-err" => Part::Stderr,
                    "skipped" => {
                        current.skipped = true;
                        continue;
                    }
                    _ => continue,
                };
                let c = Capture {
                    part,
                    message: attr(e, "message"),
                    depth: 0,
                    text: String::new(),
                };
                if empty {
                    c.store(current);
                } else {
                    capture = Some(c);
                }
            }
            Event::End(ref e) => {
                if let Some(c) = capture.as_mut() {
                    if c.depth > 0 {
                        c.depth -= 1;
                    } else if let (Some(c), Some(current)) = (capture.take(), case.as_mut()) {
                        c.store(current);
                    }
                } else if e.local_name().as_ref() == "testcase"
                    && let Some(done) = case.take()
                {
                    out.push(done.value());
                }
            }
            Event::Text(ref t) => {
                if let Some(c) = capture.as_mut() {
                    c.text.push_str(&t.xml10_content());
                }
            }
            Event::CData(ref t) => {
                if let Some(c) = capture.as_mut() {
                    c.text.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(ref r) => {
                if let Some(c) = capture.as_mut() {
                    resolve(r, &mut c.text);
                }
            }
            _ => {}
        }
    }
    out
}

fn parse_junit_xml(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data: &[u8] = match arg(args, 0) {
        Value::Str(s) => s.as_bytes(),
        Value::Bytes(b) => b,
        Value::Nil => b"",
        other => {
            return Err(VmError::thrown_str(format!(
                "parse_junit_xml: expected string or bytes, got {}",
                other.type_name()
            )));
        }
    };
    charge(host, data.len() / 64 + 1)?;
    let cases = std::str::from_utf8(data).map_or_else(|_| Vec::new(), read_cases);
    check_len(host, cases.len(), "parse_junit_xml")?;
    Ok(Value::List(Rc::new(cases)))
}

pub(super) fn register(b: &mut RegistryBuilder) {
    b.sync("parse_junit_xml", parse_junit_xml);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, i, s, thrown};

    #[test]
    fn reads_statuses_names_and_durations() {
        let xml = r#"<?xml version="1.0"?>
<testsuites>
  <testsuite name="suite">
    <testcase classname="C" name="passes" time="0.009"/>
    <testcase classname="C" name="fails" time="1.5">
      <failure message="boom &amp; bust">left &lt; right<![CDATA[ <raw> ]]></failure>
    </testcase>
    <testcase name="skips"><skipped/></testcase>
    <testcase classname = 'pkg.S' name = 'errs' time = '-3'>
      <error message="segfault"/>
      <system-out>
        hello &#65;
      </system-out>
      <system-err>warn</system-err>
    </testcase>
  </testsuite>
</testsuites>"#;
        assert_eq!(
            call(parse_junit_xml, &[s(xml)]),
            "[{duration_ms: 9, message: nil, name: C::passes, status: passed, stderr: nil, stdout: nil}, \
             {duration_ms: 1500, message: boom & bust\nleft < right <raw>, name: C::fails, status: failed, stderr: nil, stdout: nil}, \
             {duration_ms: 0, message: nil, name: skips, status: skipped, stderr: nil, stdout: nil}, \
             {duration_ms: 0, message: segfault, name: pkg.S::errs, status: errored, stderr: warn, stdout: hello A}]"
        );
    }

    #[test]
    fn lenient_on_bad_input() {
        assert_eq!(call(parse_junit_xml, &[s("not xml at all")]), "[]");
        assert_eq!(call(parse_junit_xml, &[Value::Nil]), "[]");
        assert_eq!(
            call(parse_junit_xml, &[Value::Bytes(Rc::new(vec![0xff, b'<']))]),
            "[]"
        );
        // Stops at the mismatched end tag, keeping the case before it.
        assert_eq!(
            call(
                parse_junit_xml,
                &[s(
                    "<s><testcase name=\"a\" time=\"1e308\"/><testcase name=\"b\"></x></s>"
                )]
            ),
            "[{duration_ms: 9223372036854775807, message: nil, name: a, status: passed, stderr: nil, stdout: nil}]"
        );
        assert_eq!(
            thrown(parse_junit_xml, &[i(1)]),
            "parse_junit_xml: expected string or bytes, got int"
        );
    }
}
