//! YAML on `yaml-rust2`: `yaml_parse` builds values from the parser's event stream (an
//! alias shares its anchor's value instead of copying it, so a "billion laughs" document
//! costs its own size); `yaml_stringify` goes through the crate's emitter.

use std::collections::HashMap;

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Dict, MAX_VALUE_DEPTH, Value};
use yaml_rust2::YamlEmitter;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};
use yaml_rust2::yaml::{Hash, Yaml};

use crate::util::{arg, charge, check_size, text};

/// An open collection while events arrive.
enum Open {
    Seq(Vec<Value>, usize),
    Map(Dict, Option<String>, usize),
}

/// Builds the first document's value from parser events.
#[derive(Default)]
struct Builder {
    stack: Vec<Open>,
    anchors: HashMap<usize, Value>,
    doc: Option<Value>,
    error: Option<String>,
    events: usize,
}

impl Builder {
    fn fail(&mut self, msg: impl Into<String>) {
        if self.error.is_none() {
            self.error = Some(msg.into());
        }
    }

    /// Places a finished value in its parent (or as the document).
    fn place(&mut self, v: Value, anchor: usize) {
        if anchor > 0 {
            self.anchors.insert(anchor, v.clone());
        }
        match self.stack.last_mut() {
            None => {
                if self.doc.is_none() {
                    self.doc = Some(v);
                }
            }
            Some(Open::Seq(items, _)) => items.push(v),
            Some(Open::Map(d, key, _)) => match key.take() {
                None => match key_text(&v) {
                    Ok(k) => *key = Some(k),
                    Err(e) => self.fail(e),
                },
                Some(k) => {
                    d.insert(k, v);
                }
            },
        }
    }

    fn open(&mut self, o: Open) {
        if self.stack.len() >= MAX_VALUE_DEPTH {
            self.fail("document nested too deeply");
            return;
        }
        self.stack.push(o);
    }
}

fn key_text(v: &Value) -> Result<String, String> {
    match v {
        Value::Str(s) => Ok(s.as_str().to_owned()),
        Value::Nil => Ok("null".into()),
        Value::List(_) | Value::Dict(_) => Err("mapping keys must be scalars".into()),
        other => display(other).map_err(|_| "mapping key cannot be shown".to_owned()),
    }
}

/// A YAML real's value (`.inf`, `-.inf` and `.nan` included).
fn real(r: &str) -> Option<f64> {
    match r.trim_start_matches('+').to_ascii_lowercase().as_str() {
        ".inf" => Some(f64::INFINITY),
        "-.inf" => Some(f64::NEG_INFINITY),
        ".nan" => Some(f64::NAN),
        other => other.parse().ok(),
    }
}

/// A scalar's value: plain scalars are typed (int, float, bool, null); quoted ones are
/// strings.
fn scalar(text: String, style: TScalarStyle) -> Value {
    if style != TScalarStyle::Plain {
        return Value::str(text);
    }
    match Yaml::from_str(&text) {
        Yaml::Integer(n) => Value::Int(n),
        Yaml::Real(r) => match real(&r) {
            Some(x) => Value::Float(x),
            None => Value::str(r),
        },
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Null => Value::Nil,
        _ => Value::str(text),
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, _mark: Marker) {
        self.events += 1;
        if self.error.is_some() || (self.doc.is_some() && self.stack.is_empty()) {
            return;
        }
        match ev {
            Event::Scalar(v, style, anchor, _) => {
                let v = scalar(v, style);
                self.place(v, anchor);
            }
            Event::Alias(id) => match self.anchors.get(&id).cloned() {
                Some(v) => self.place(v, 0),
                None => self.fail("alias to an unknown anchor"),
            },
            Event::SequenceStart(anchor, _) => self.open(Open::Seq(Vec::new(), anchor)),
            Event::MappingStart(anchor, _) => self.open(Open::Map(Dict::new(), None, anchor)),
            Event::SequenceEnd | Event::MappingEnd => match self.stack.pop() {
                Some(Open::Seq(items, anchor)) => self.place(Value::list(items), anchor),
                Some(Open::Map(d, _, anchor)) => self.place(Value::dict(d), anchor),
                None => self.fail("unbalanced collection end"),
            },
            _ => {}
        }
    }
}

/// The first document of a YAML text as a value (nil for an empty text).
pub fn parse_yaml(s: &str) -> Result<(Value, usize), String> {
    let mut b = Builder::default();
    Parser::new_from_str(s)
        .load(&mut b, false)
        .map_err(|e| e.to_string())?;
    if let Some(e) = b.error {
        return Err(e);
    }
    Ok((b.doc.unwrap_or_default(), b.events))
}

fn yaml_parse(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let s = text(args, 0)?;
    charge(host, s.len() / 16 + 1)?;
    let (v, events) =
        parse_yaml(&s).map_err(|e| VmError::thrown_str(format!("yaml_parse: {e}")))?;
    charge(host, events)?;
    Ok(v)
}

/// A value as the emitter's tree; `budget` counts nodes so a shared structure cannot
/// expand past the run's caps.
fn to_yaml(v: &Value, depth: usize, budget: &mut usize) -> Result<Yaml, VmError> {
    harn_vm::walk::visit(depth)?;
    *budget = budget.checked_sub(1).ok_or_else(|| {
        harn_vm::native::too_large("yaml_stringify", harn_vm::native::MAX_BUILD as u128)
    })?;
    Ok(match v {
        Value::Nil => Yaml::Null,
        Value::Bool(b) => Yaml::Boolean(*b),
        Value::Int(n) => Yaml::Integer(*n),
        Value::Float(x) => Yaml::Real(float_text(*x)),
        Value::Str(s) => Yaml::String(s.as_str().to_owned()),
        Value::List(items) | Value::Set(items) => Yaml::Array(
            items
                .iter()
                .map(|i| to_yaml(i, depth + 1, budget))
                .collect::<Result<_, _>>()?,
        ),
        Value::Dict(d) => map_of(d, depth, budget)?,
        Value::Struct(s) => map_of(&s.fields, depth, budget)?,
        other => Yaml::String(display(other)?),
    })
}

fn map_of(d: &Dict, depth: usize, budget: &mut usize) -> Result<Yaml, VmError> {
    let mut h = Hash::new();
    for (k, v) in d {
        h.insert(Yaml::String(k.to_string()), to_yaml(v, depth + 1, budget)?);
    }
    Ok(Yaml::Hash(h))
}

fn float_text(x: f64) -> String {
    if x.is_nan() {
        ".nan".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            ".inf".into()
        } else {
            "-.inf".into()
        }
    } else if x.fract() == 0.0 && x.abs() < 1e16 {
        format!("{x:.1}")
    } else {
        format!("{x}")
    }
}

fn yaml_stringify(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let mut budget = harn_vm::native::MAX_BUILD / 64;
    let tree = to_yaml(arg(args, 0), 0, &mut budget)?;
    charge(host, harn_vm::native::MAX_BUILD / 64 - budget)?;
    let mut out = String::new();
    YamlEmitter::new(&mut out)
        .dump(&tree)
        .map_err(|e| VmError::thrown_str(format!("yaml_stringify: {e:?}")))?;
    let body = out
        .strip_prefix("---\n")
        .or_else(|| out.strip_prefix("--- "))
        .unwrap_or(&out);
    let mut body = body.to_owned();
    body.push('\n');
    check_size(host, body.len(), "yaml_stringify")?;
    Ok(Value::str(body))
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("yaml_parse", yaml_parse);
    b.sync("yaml_stringify", yaml_stringify);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, call_err, s};

    #[test]
    fn parse_typed_scalars_and_anchors() {
        assert_eq!(
            call(
                yaml_parse,
                &[s("a: 1\nb: [x, 'y', 2.5, true, ~]\nc: &r {k: v}\nd: *r\n")]
            ),
            "{a: 1, b: [x, y, 2.5, true, nil], c: {k: v}, d: {k: v}}"
        );
        assert_eq!(call(yaml_parse, &[s("")]), "nil");
        assert!(call_err(yaml_parse, &[s("a: [1, 2")]).contains("yaml_parse:"));
        assert!(call_err(yaml_parse, &[s("a: *nope")]).contains("yaml_parse:"));
    }

    #[test]
    fn laughs_share_instead_of_expanding() {
        let mut doc = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..30 {
            let p = i - 1;
            doc.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let (v, _) = parse_yaml(&doc).unwrap();
        assert!(matches!(v, Value::Dict(_)));
    }

    #[test]
    fn stringify_round_trips() {
        let v = parse_yaml("b:\n  - x\n  - 2\na: 1.5\n").unwrap().0;
        let text = call(yaml_stringify, std::slice::from_ref(&v));
        assert_eq!(parse_yaml(&text).unwrap().0.type_name(), "dict");
        assert!(text.starts_with("a: 1.5\n"), "{text}");
    }
}
