//! Rendering a parsed template against its bindings, and the filters. The output is
//! checked against the run's string cap before every append and fuel is charged per
//! node, loop iteration and copied text, so a loop repeating a big body meets the
//! memory limit instead of allocating without bound.

use harn_vm::VmError;
use harn_vm::display::display;
use harn_vm::native::Host;
use harn_vm::value::{Dict, Value};

use super::parse::{Cmp, Expr, Node, Seg};
use super::{At, fail};
use crate::util::{as_i64, charge, check_size};

const WHAT: &str = "render_string";

pub(super) fn render(
    host: &mut dyn Host,
    root: Option<&Dict>,
    nodes: &[Node],
) -> Result<String, VmError> {
    let mut r = Renderer {
        host,
        root,
        scope: Vec::new(),
        out: String::new(),
    };
    r.nodes(nodes)?;
    Ok(r.out)
}

/// Template truthiness: nil, false, zero, a blank string and an empty collection are
/// false.
pub(super) fn truthy(v: &Value) -> bool {
    match v {
        Value::Nil => false,
        Value::Bool(b) => *b,
        Value::Int(n) => *n != 0,
        Value::Float(x) => *x != 0.0,
        Value::Str(s) => !s.trim().is_empty(),
        Value::List(items) | Value::Set(items) => !items.is_empty(),
        Value::Dict(d) => !d.is_empty(),
        _ => true,
    }
}

/// The text a value renders as: nil is empty, a string itself, anything else its
/// display.
fn text_of(v: &Value) -> Result<String, VmError> {
    match v {
        Value::Nil => Ok(String::new()),
        Value::Str(s) => Ok(s.as_str().to_owned()),
        other => display(other),
    }
}

struct Renderer<'a> {
    host: &'a mut dyn Host,
    root: Option<&'a Dict>,
    /// Loop variables, innermost last.
    scope: Vec<(String, Value)>,
    out: String,
}

impl Renderer<'_> {
    fn push(&mut self, s: &str) -> Result<(), VmError> {
        check_size(&*self.host, self.out.len().saturating_add(s.len()), WHAT)?;
        charge(self.host, s.len() / 64)?;
        self.out.push_str(s);
        Ok(())
    }

    fn lookup(&self, name: &str) -> Option<&Value> {
        self.scope
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
            .or_else(|| self.root.and_then(|d| d.get(name)))
    }

    fn nodes(&mut self, nodes: &[Node]) -> Result<(), VmError> {
        for node in nodes {
            self.node(node)?;
        }
        Ok(())
    }

    fn node(&mut self, node: &Node) -> Result<(), VmError> {
        charge(self.host, 1)?;
        match node {
            Node::Text(s) => self.push(s),
            Node::Expr { expr, at } => {
                let v = self.eval(expr, *at)?;
                self.push_value(&v)
            }
            Node::Bare { name } => match self.lookup(name).cloned() {
                Some(v) => self.push_value(&v),
                None => self.push(&format!("{{{{{name}}}}}")),
            },
            Node::If {
                branches,
                otherwise,
            } => {
                for (cond, at, body) in branches {
                    if truthy(&self.eval(cond, *at)?) {
                        return self.nodes(body);
                    }
                }
                match otherwise {
                    Some(body) => self.nodes(body),
                    None => Ok(()),
                }
            }
            Node::For {
                key,
                var,
                iter,
                body,
                empty,
                at,
            } => {
                let it = self.eval(iter, *at)?;
                let key = key.as_deref();
                let Some(len) = collection_len(&it) else {
                    return Err(fail(
                        *at,
                        format!(
                            "cannot iterate over {} (expected a list, dict, set or range)",
                            it.type_name()
                        ),
                    ));
                };
                if len == 0 {
                    return match empty {
                        Some(body) => self.nodes(body),
                        None => Ok(()),
                    };
                }
                let each = (key, var.as_str(), body.as_slice(), len);
                match &it {
                    Value::List(items) | Value::Set(items) => {
                        for (i, v) in items.iter().enumerate() {
                            self.iteration(each, as_i64(i), Value::Int(as_i64(i)), v.clone())?;
                        }
                    }
                    Value::Dict(d) => {
                        for (i, (k, v)) in d.iter().enumerate() {
                            self.iteration(each, as_i64(i), Value::str(k.as_str()), v.clone())?;
                        }
                    }
                    Value::Range(r) => {
                        for i in 0..len {
                            let v = r.get(i).map_or(Value::Nil, Value::Int);
                            self.iteration(each, i, Value::Int(i), v)?;
                        }
                    }
                    _ => {}
                }
                Ok(())
            }
            Node::Include { at } => Err(fail(
                *at,
                "include is not available (templates from strings cannot read files)",
            )),
        }
    }

    /// One pass of a loop body with the loop variables and `loop` bound.
    fn iteration(
        &mut self,
        (key, var, body, len): (Option<&str>, &str, &[Node], i64),
        i: i64,
        k: Value,
        v: Value,
    ) -> Result<(), VmError> {
        charge(self.host, 1)?;
        let mut info = Dict::new();
        info.insert("index", Value::Int(i + 1));
        info.insert("index0", Value::Int(i));
        info.insert("first", Value::Bool(i == 0));
        info.insert("last", Value::Bool(i + 1 == len));
        info.insert("length", Value::Int(len));
        let mark = self.scope.len();
        self.scope.push(("loop".into(), Value::dict(info)));
        if let Some(key) = key {
            self.scope.push((key.to_owned(), k));
        }
        self.scope.push((var.to_owned(), v));
        let res = self.nodes(body);
        self.scope.truncate(mark);
        res
    }

    fn push_value(&mut self, v: &Value) -> Result<(), VmError> {
        match v {
            Value::Nil => Ok(()),
            Value::Str(s) => self.push(s),
            other => {
                let s = display(other)?;
                self.push(&s)
            }
        }
    }

    fn eval(&mut self, e: &Expr, at: At) -> Result<Value, VmError> {
        charge(self.host, 1)?;
        Ok(match e {
            Expr::Lit(v) => v.clone(),
            Expr::Path(head, segs) => match self.lookup(head) {
                Some(v) => segs.iter().fold(v.clone(), |cur, seg| step(&cur, seg)),
                None => Value::Nil,
            },
            Expr::Not(inner) => Value::Bool(!truthy(&self.eval(inner, at)?)),
            Expr::And(a, b) => {
                let av = self.eval(a, at)?;
                if truthy(&av) { self.eval(b, at)? } else { av }
            }
            Expr::Or(a, b) => {
                let av = self.eval(a, at)?;
                if truthy(&av) { av } else { self.eval(b, at)? }
            }
            Expr::Cmp(op, a, b) => {
                let av = self.eval(a, at)?;
                let bv = self.eval(b, at)?;
                Value::Bool(compare(*op, &av, &bv)?)
            }
            Expr::Filter(inner, name, args) => {
                let v = self.eval(inner, at)?;
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a, at)?);
                }
                filter(self.host, name, v, &vals, at)?
            }
        })
    }
}

/// One step of a path: a field, a key or an index (negative from the end); nil when
/// it does not apply.
fn step(cur: &Value, seg: &Seg) -> Value {
    let index = |len: usize, i: i64| {
        let i = if i < 0 { i + as_i64(len) } else { i };
        usize::try_from(i).ok().filter(|&i| i < len)
    };
    let found = match (seg, cur) {
        (Seg::Field(k) | Seg::Key(k), Value::Dict(d)) => d.get(k).cloned(),
        (Seg::Field(k) | Seg::Key(k), Value::Struct(s)) => s.fields.get(k).cloned(),
        (Seg::Index(i), Value::List(items)) => {
            index(items.len(), *i).and_then(|i| items.get(i).cloned())
        }
        (Seg::Index(i), Value::Str(s)) => index(s.chars().count(), *i)
            .and_then(|i| s.chars().nth(i))
            .map(harn_vm::chars::char_value_of),
        _ => None,
    };
    found.unwrap_or_default()
}

fn compare(op: Cmp, a: &Value, b: &Value) -> Result<bool, VmError> {
    use std::cmp::Ordering::*;
    let ord = match (a, b) {
        _ if matches!(op, Cmp::Eq) => return harn_vm::value::equals(a, b),
        _ if matches!(op, Cmp::Ne) => return Ok(!harn_vm::value::equals(a, b)?),
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Str(x), Value::Str(y)) => Some(x.as_str().cmp(y.as_str())),
        (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => a
            .as_f64()
            .zip(b.as_f64())
            .and_then(|(x, y)| x.partial_cmp(&y)),
        _ => None,
    };
    Ok(match (op, ord) {
        (Cmp::Lt, Some(o)) => o == Less,
        (Cmp::Le, Some(o)) => o != Greater,
        (Cmp::Gt, Some(o)) => o == Greater,
        (Cmp::Ge, Some(o)) => o != Less,
        _ => false,
    })
}

// ----- filters ----------------------------------------------------------------------

fn filter(
    host: &mut dyn Host,
    name: &str,
    v: Value,
    args: &[Value],
    at: At,
) -> Result<Value, VmError> {
    let (min, max) = match name {
        "upper" | "lower" | "trim" | "capitalize" | "title" | "length" | "first" | "last"
        | "reverse" | "lines" | "escape_md" => (0, 0),
        "join" | "default" => (1, 1),
        "json" => (0, 1),
        "indent" => (1, 2),
        "replace" => (2, 2),
        other => return Err(fail(at, format!("unknown filter `{other}`"))),
    };
    if args.len() < min || args.len() > max {
        let want = match (min, max) {
            (0, 0) => "no arguments".to_owned(),
            (a, b) if a == b => format!("{a} argument{}", if a == 1 { "" } else { "s" }),
            (a, b) => format!("{a} to {b} arguments"),
        };
        return Err(fail(
            at,
            format!("filter `{name}` takes {want}, got {}", args.len()),
        ));
    }
    let arg = |i: usize| args.get(i).unwrap_or(harn_vm::value::nil());
    let s = |v: &Value| text_of(v);
    let text = |t: String| Ok(Value::str(t));
    match name {
        "upper" => text(s(&v)?.to_uppercase()),
        "lower" => text(s(&v)?.to_lowercase()),
        "trim" => text(s(&v)?.trim().to_owned()),
        "capitalize" => {
            let t = s(&v)?;
            let mut chars = t.chars();
            let mut out = String::with_capacity(t.len());
            if let Some(c) = chars.next() {
                out.extend(c.to_uppercase());
            }
            out.extend(chars.flat_map(char::to_lowercase));
            text(out)
        }
        "title" => {
            let t = s(&v)?;
            let mut out = String::with_capacity(t.len());
            let mut start = true;
            for c in t.chars() {
                if c.is_whitespace() {
                    out.push(c);
                    start = true;
                } else if std::mem::take(&mut start) {
                    out.extend(c.to_uppercase());
                } else {
                    out.extend(c.to_lowercase());
                }
            }
            text(out)
        }
        "length" => Ok(Value::Int(match &v {
            Value::Str(t) => as_i64(t.chars().count()),
            other => collection_len(other).ok_or_else(|| {
                fail(
                    at,
                    format!("filter `length` is not defined for {}", other.type_name()),
                )
            })?,
        })),
        "first" | "last" => {
            let first = name == "first";
            Ok(match &v {
                Value::List(items) | Value::Set(items) => {
                    let item = if first { items.first() } else { items.last() };
                    item.cloned().unwrap_or_default()
                }
                Value::Str(t) => {
                    let c = if first {
                        t.chars().next()
                    } else {
                        t.chars().last()
                    };
                    c.map_or(Value::Nil, harn_vm::chars::char_value_of)
                }
                _ => Value::Nil,
            })
        }
        "reverse" => Ok(match &v {
            Value::List(items) => Value::list(items.iter().rev().cloned().collect()),
            Value::Str(t) => Value::str(t.chars().rev().collect::<String>()),
            _ => v,
        }),
        "join" => {
            let items = match &v {
                Value::List(items) | Value::Set(items) => items,
                Value::Str(_) => return Ok(v),
                other => {
                    return Err(fail(
                        at,
                        format!("filter `join` expects a list, got {}", other.type_name()),
                    ));
                }
            };
            let sep = s(arg(0))?;
            let mut out = String::new();
            for (i, item) in items.iter().enumerate() {
                let part = text_of(item)?;
                let grown = out.len() + part.len() + if i > 0 { sep.len() } else { 0 };
                check_size(&*host, grown, WHAT)?;
                charge(host, part.len() / 64 + 1)?;
                if i > 0 {
                    out.push_str(&sep);
                }
                out.push_str(&part);
            }
            text(out)
        }
        "default" => Ok(if truthy(&v) { v } else { arg(0).clone() }),
        "json" => {
            let pretty = args.first().is_some_and(truthy);
            let mut out = String::new();
            crate::json::write_json(&mut out, &v, pretty.then_some(2), 0, crate::util::MAX_BUILD)?;
            check_size(&*host, out.len(), WHAT)?;
            charge(host, out.len() / 64)?;
            text(out)
        }
        "indent" => {
            let Value::Int(width) = arg(0) else {
                return Err(fail(
                    at,
                    format!(
                        "filter `indent` expects an int width, got {}",
                        arg(0).type_name()
                    ),
                ));
            };
            let width = usize::try_from(*width).unwrap_or(0);
            let indent_first = args.get(1).is_some_and(truthy);
            let t = s(&v)?;
            let lines = t
                .split('\n')
                .enumerate()
                .filter(|(i, l)| !l.is_empty() && (*i > 0 || indent_first))
                .count();
            let size = width.saturating_mul(lines).saturating_add(t.len());
            check_size(&*host, size, WHAT)?;
            charge(host, size / 64)?;
            let pad = " ".repeat(width);
            let mut out = String::with_capacity(size);
            for (i, line) in t.split('\n').enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                if !line.is_empty() && (i > 0 || indent_first) {
                    out.push_str(&pad);
                }
                out.push_str(line);
            }
            text(out)
        }
        "lines" => {
            let t = s(&v)?;
            charge(host, t.len() / 64 + 1)?;
            Ok(Value::list(t.split('\n').map(Value::str).collect()))
        }
        "escape_md" => {
            let t = s(&v)?;
            let mut out = String::with_capacity(t.len() + 8);
            for c in t.chars() {
                if "\\`*_{}[]()#+-.!|<>".contains(c) {
                    out.push('\\');
                }
                out.push(c);
            }
            text(out)
        }
        "replace" => {
            let t = s(&v)?;
            let from = s(arg(0))?;
            let to = s(arg(1))?;
            let hits = if from.is_empty() {
                t.chars().count() + 1
            } else {
                t.matches(from.as_str()).count()
            };
            let size = t
                .len()
                .saturating_add(hits.saturating_mul(to.len()))
                .saturating_sub(hits.saturating_mul(from.len()));
            check_size(&*host, size, WHAT)?;
            charge(host, size / 64 + t.len() / 64)?;
            text(t.replace(from.as_str(), &to))
        }
        _ => Err(fail(at, format!("unknown filter `{name}`"))),
    }
}

/// How many items a loop over `v` visits (nil is empty); `None` for a value a template
/// cannot iterate.
fn collection_len(v: &Value) -> Option<i64> {
    Some(match v {
        Value::List(items) | Value::Set(items) => as_i64(items.len()),
        Value::Dict(d) => as_i64(d.len()),
        Value::Range(r) => r.len(),
        Value::Nil => 0,
        _ => return None,
    })
}
