//! A small jq subset (`code-mode.md` 4.5): `jq(value, filter)` returns the list of
//! results, `jq_first(value, filter)` the first or nil.
//!
//! Supported: `.`, `.a`, `.a.b`, `."key"`, `.[n]` (negative from the end), `.["key"]`,
//! `.[]`, `|`, `select(cond)`, `map(f)`, `length`, `keys`, literals (numbers, strings,
//! `true`, `false`, `null`) and the comparisons `== != < <= > >=` plus `and` / `or` /
//! `not` inside conditions. A missing key gives `null` (nil), as in jq. A filter
//! outside the subset throws `jq: ...`.

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::{Value, compare, equals};

use crate::util::{arg, as_i64, charge, text};

/// Most `|`, `and` and `or` links in one filter.
const MAX_LINKS: usize = 256;

#[derive(Debug, Clone)]
enum Seg {
    Key(String),
    Index(i64),
    /// `.[a:b]`: either bound optional, negatives from the end, clamped.
    Slice(Option<i64>, Option<i64>),
    Iterate,
}

#[derive(Debug, Clone)]
enum Filter {
    Path(Vec<Seg>),
    Pipe(Box<Filter>, Box<Filter>),
    Select(Box<Filter>),
    Map(Box<Filter>),
    Length,
    Keys,
    Not,
    Lit(Value),
    Cmp(Box<Filter>, &'static str, Box<Filter>),
}

fn err(msg: impl Into<String>) -> VmError {
    VmError::thrown_str(format!("jq: {}", msg.into()))
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    depth: usize,
    links: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn eat(&mut self, tok: &str) -> bool {
        self.ws();
        if self
            .s
            .get(self.pos..)
            .unwrap_or(&[])
            .starts_with(tok.as_bytes())
        {
            self.pos += tok.len();
            true
        } else {
            false
        }
    }

    fn ident(&mut self) -> String {
        self.ws();
        let start = self.pos;
        while self.pos < self.s.len()
            && (self.s[self.pos].is_ascii_alphanumeric() || self.s[self.pos] == b'_')
        {
            self.pos += 1;
        }
        String::from_utf8_lossy(&self.s[start..self.pos]).into_owned()
    }

    fn string(&mut self) -> Result<String, VmError> {
        // At an opening quote: read a JSON string literal.
        let start = self.pos;
        self.pos += 1;
        while self.pos < self.s.len() && self.s[self.pos] != b'"' {
            if self.s[self.pos] == b'\\' {
                self.pos += 1;
            }
            self.pos += 1;
        }
        self.pos += 1;
        let raw =
            String::from_utf8_lossy(self.s.get(start..self.pos.min(self.s.len())).unwrap_or(b""));
        serde_json::from_str::<String>(&raw).map_err(|_| err(format!("bad string literal {raw}")))
    }

    /// Chains (`a | b | …`, `x and y and …`) nest in the tree, which is evaluated and
    /// freed recursively: their links count toward a bound.
    fn link(&mut self) -> Result<(), VmError> {
        self.links += 1;
        if self.links > MAX_LINKS {
            return Err(err("filter too long"));
        }
        Ok(())
    }

    fn pipeline(&mut self) -> Result<Filter, VmError> {
        self.depth += 1;
        if self.depth > 64 {
            return Err(err("filter nested too deeply"));
        }
        let mut left = self.or_expr()?;
        while self.eat("|") {
            self.link()?;
            let right = self.or_expr()?;
            left = Filter::Pipe(Box::new(left), Box::new(right));
        }
        self.depth -= 1;
        Ok(left)
    }

    fn or_expr(&mut self) -> Result<Filter, VmError> {
        let mut left = self.and_expr()?;
        while self.eat("or ") {
            self.link()?;
            let right = self.and_expr()?;
            left = Filter::Cmp(Box::new(left), "or", Box::new(right));
        }
        Ok(left)
    }

    fn and_expr(&mut self) -> Result<Filter, VmError> {
        let mut left = self.comparison()?;
        while self.eat("and ") {
            self.link()?;
            let right = self.comparison()?;
            left = Filter::Cmp(Box::new(left), "and", Box::new(right));
        }
        Ok(left)
    }

    fn comparison(&mut self) -> Result<Filter, VmError> {
        let left = self.term()?;
        for op in ["==", "!=", "<=", ">=", "<", ">"] {
            if self.eat(op) {
                let right = self.term()?;
                return Ok(Filter::Cmp(Box::new(left), op, Box::new(right)));
            }
        }
        Ok(left)
    }

    fn term(&mut self) -> Result<Filter, VmError> {
        self.ws();
        match self.s.get(self.pos) {
            Some(b'.') => self.path(),
            Some(b'"') => Ok(Filter::Lit(Value::str(self.string()?))),
            Some(b'(') => {
                self.pos += 1;
                let f = self.pipeline()?;
                if !self.eat(")") {
                    return Err(err("expected ')'"));
                }
                Ok(f)
            }
            Some(c) if c.is_ascii_digit() || *c == b'-' => {
                let start = self.pos;
                self.pos += 1;
                while self.pos < self.s.len()
                    && (self.s[self.pos].is_ascii_digit() || self.s[self.pos] == b'.')
                {
                    self.pos += 1;
                }
                let t = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
                if let Ok(n) = t.parse::<i64>() {
                    Ok(Filter::Lit(Value::Int(n)))
                } else {
                    t.parse::<f64>()
                        .map(|x| Filter::Lit(Value::Float(x)))
                        .map_err(|_| err(format!("bad number {t}")))
                }
            }
            Some(_) => {
                let word = self.ident();
                match word.as_str() {
                    "length" => Ok(Filter::Length),
                    "keys" => Ok(Filter::Keys),
                    "not" => Ok(Filter::Not),
                    "true" => Ok(Filter::Lit(Value::Bool(true))),
                    "false" => Ok(Filter::Lit(Value::Bool(false))),
                    "null" => Ok(Filter::Lit(Value::Nil)),
                    "select" | "map" => {
                        if !self.eat("(") {
                            return Err(err(format!("expected '(' after {word}")));
                        }
                        let inner = Box::new(self.pipeline()?);
                        if !self.eat(")") {
                            return Err(err("expected ')'"));
                        }
                        Ok(if word == "select" {
                            Filter::Select(inner)
                        } else {
                            Filter::Map(inner)
                        })
                    }
                    "" => Err(err(format!("unexpected character at {}", self.pos))),
                    other => Err(err(format!("unsupported filter '{other}'"))),
                }
            }
            None => Err(err("unexpected end of filter")),
        }
    }

    /// An optional signed integer (an index or a slice bound).
    fn bound(&mut self) -> Result<Option<i64>, VmError> {
        let neg = self.eat("-");
        let digits = self.ident();
        if digits.is_empty() && !neg {
            return Ok(None);
        }
        let n: i64 = digits
            .parse()
            .map_err(|_| err(format!("bad index '{digits}'")))?;
        Ok(Some(if neg { -n } else { n }))
    }

    fn path(&mut self) -> Result<Filter, VmError> {
        let mut segs = Vec::new();
        self.pos += 1; // the leading '.'
        loop {
            match self.s.get(self.pos) {
                Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                    segs.push(Seg::Key(self.ident()))
                }
                Some(b'"') => segs.push(Seg::Key(self.string()?)),
                Some(b'[') => {
                    self.pos += 1;
                    self.ws();
                    if self.eat("]") {
                        segs.push(Seg::Iterate);
                    } else if self.s.get(self.pos) == Some(&b'"') {
                        segs.push(Seg::Key(self.string()?));
                        if !self.eat("]") {
                            return Err(err("expected ']'"));
                        }
                    } else {
                        let start = self.bound()?;
                        self.ws();
                        if self.eat(":") {
                            self.ws();
                            let end = self.bound()?;
                            segs.push(Seg::Slice(start, end));
                        } else {
                            let n = start
                                .ok_or_else(|| err("expected an array index or slice bound"))?;
                            segs.push(Seg::Index(n));
                        }
                        self.ws();
                        if !self.eat("]") {
                            return Err(err("expected ']'"));
                        }
                    }
                }
                Some(b'.') if !segs.is_empty() => {}
                _ => break,
            }
            if self.s.get(self.pos) == Some(&b'.') {
                let next = self.s.get(self.pos + 1);
                if next.is_some_and(|c| {
                    c.is_ascii_alphabetic() || *c == b'_' || *c == b'"' || *c == b'['
                }) {
                    self.pos += 1;
                    continue;
                }
                break;
            }
            if self.s.get(self.pos) != Some(&b'[') {
                break;
            }
        }
        Ok(Filter::Path(segs))
    }
}

fn parse_filter(src: &str) -> Result<Filter, VmError> {
    let mut p = Parser {
        s: src.as_bytes(),
        pos: 0,
        depth: 0,
        links: 0,
    };
    let f = p.pipeline()?;
    p.ws();
    if p.pos < p.s.len() {
        return Err(err(format!(
            "unexpected input at {}: '{}'",
            p.pos,
            &src[p.pos.min(src.len())..]
        )));
    }
    Ok(f)
}

fn step(v: &Value, seg: &Seg) -> Result<Vec<Value>, VmError> {
    Ok(match (seg, v) {
        (Seg::Key(k), Value::Dict(d)) => vec![d.get(k).cloned().unwrap_or_default()],
        (Seg::Key(k), Value::Struct(s)) => vec![s.fields.get(k).cloned().unwrap_or_default()],
        (Seg::Key(_) | Seg::Index(_), Value::Nil) => vec![Value::Nil],
        (Seg::Index(i), Value::List(items)) => {
            let n = as_i64(items.len());
            let i = if *i < 0 { i + n } else { *i };
            vec![
                usize::try_from(i)
                    .ok()
                    .and_then(|i| items.get(i).cloned())
                    .unwrap_or_default(),
            ]
        }
        (Seg::Slice(a, b), Value::List(items)) => {
            let n = as_i64(items.len());
            let clamp = |x: i64| (if x < 0 { x + n } else { x }).clamp(0, n);
            let start = a.map_or(0, clamp);
            let end = b.map_or(n, clamp).max(start);
            let (start, end) = (
                usize::try_from(start).unwrap_or(0),
                usize::try_from(end).unwrap_or(0),
            );
            vec![Value::list(items[start..end].to_vec())]
        }
        (Seg::Slice(..), Value::Nil) => vec![Value::Nil],
        (Seg::Iterate, Value::List(items) | Value::Set(items)) => items.to_vec(),
        (Seg::Iterate, Value::Dict(d)) => d.values().cloned().collect(),
        (seg, other) => {
            return Err(err(format!(
                "cannot apply {seg:?} to {}",
                other.type_name()
            )));
        }
    })
}

fn eval(host: &mut dyn Host, f: &Filter, input: &Value) -> Result<Vec<Value>, VmError> {
    charge(host, 1)?;
    match f {
        Filter::Path(segs) => {
            let mut cur = vec![input.clone()];
            for seg in segs {
                let mut next = Vec::new();
                for v in &cur {
                    next.extend(step(v, seg)?);
                }
                cur = next;
            }
            Ok(cur)
        }
        Filter::Pipe(a, b) => {
            let mut out = Vec::new();
            for v in eval(host, a, input)? {
                out.extend(eval(host, b, &v)?);
            }
            Ok(out)
        }
        Filter::Select(cond) => {
            let keep = eval(host, cond, input)?.iter().any(Value::truthy);
            Ok(if keep {
                vec![input.clone()]
            } else {
                Vec::new()
            })
        }
        Filter::Map(inner) => {
            let items = step(input, &Seg::Iterate)?;
            let mut out = Vec::new();
            for v in &items {
                out.extend(eval(host, inner, v)?);
            }
            Ok(vec![Value::list(out)])
        }
        Filter::Length => Ok(vec![Value::Int(match input {
            Value::Str(s) => as_i64(s.chars().count()),
            Value::List(l) | Value::Set(l) => as_i64(l.len()),
            Value::Dict(d) => as_i64(d.len()),
            Value::Nil => 0,
            Value::Int(n) => n.abs(),
            other => return Err(err(format!("{} has no length", other.type_name()))),
        })]),
        Filter::Keys => match input {
            Value::Dict(d) => Ok(vec![Value::list(
                d.keys().map(|k| Value::str(k.as_str())).collect(),
            )]),
            Value::List(l) => Ok(vec![Value::list(
                (0..as_i64(l.len())).map(Value::Int).collect(),
            )]),
            other => Err(err(format!("{} has no keys", other.type_name()))),
        },
        Filter::Not => Ok(vec![Value::Bool(!input.truthy())]),
        Filter::Lit(v) => Ok(vec![v.clone()]),
        Filter::Cmp(a, op, b) => {
            let left = eval(host, a, input)?;
            let right = eval(host, b, input)?;
            let mut out = Vec::new();
            for l in &left {
                for r in &right {
                    let ord = compare(l, r);
                    let both_ordered = matches!(
                        (l, r),
                        (
                            Value::Int(_) | Value::Float(_),
                            Value::Int(_) | Value::Float(_)
                        ) | (Value::Str(_), Value::Str(_))
                    );
                    let res = match *op {
                        "==" => equals(l, r)?,
                        "!=" => !equals(l, r)?,
                        "<" => both_ordered && ord.is_lt(),
                        "<=" => both_ordered && ord.is_le(),
                        ">" => both_ordered && ord.is_gt(),
                        ">=" => both_ordered && ord.is_ge(),
                        "and" => l.truthy() && r.truthy(),
                        _ => l.truthy() || r.truthy(),
                    };
                    out.push(Value::Bool(res));
                }
            }
            Ok(out)
        }
    }
}

/// Runs a filter; a string input that is JSON text is parsed first.
fn run(host: &mut dyn Host, args: &[Value]) -> Result<Vec<Value>, VmError> {
    let filter = parse_filter(&text(args, 1)?)?;
    let input = match arg(args, 0) {
        Value::Str(s) => crate::json::parse_text(s).unwrap_or_else(|_| Value::str(s.as_str())),
        other => other.clone(),
    };
    eval(host, &filter, &input)
}

fn jq(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(Value::list(run(host, args)?))
}

fn jq_first(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    Ok(run(host, args)?.into_iter().next().unwrap_or_default())
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("jq", jq);
    b.sync("jq_first", jq_first);
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
    use crate::test_host::{call, call_err, s};

    #[test]
    fn filters() {
        let doc = crate::json::parse_text(
            r#"{"users":[{"name":"a","age":30},{"name":"b","age":20}],"n":{"x":1}}"#,
        )
        .unwrap();
        assert_eq!(call(jq, &[doc.clone(), s(".n.x")]), "[1]");
        assert_eq!(call(jq, &[doc.clone(), s(".users[].name")]), "[a, b]");
        assert_eq!(
            call(
                jq,
                &[doc.clone(), s(".users[] | select(.age > 25) | .name")]
            ),
            "[a]"
        );
        assert_eq!(
            call(jq, &[doc.clone(), s(".users | map(.age)")]),
            "[[30, 20]]"
        );
        assert_eq!(call(jq, &[doc.clone(), s(".users | length")]), "[2]");
        assert_eq!(call(jq, &[doc.clone(), s("keys")]), "[[n, users]]");
        assert_eq!(call(jq, &[doc.clone(), s(".users[-1].name")]), "[b]");
        assert_eq!(call(jq_first, &[doc.clone(), s(".missing")]), "nil");
        assert_eq!(
            call(
                jq_first,
                &[doc.clone(), s(".users[] | select(.name == \"b\") | .age")]
            ),
            "20"
        );
        assert_eq!(call(jq, &[s(r#"{"a":[1,2]}"#), s(".a[]")]), "[1, 2]");
        assert!(call(jq, &[doc.clone(), s(".")]).len() > 5);
        assert!(call_err(jq, &[doc.clone(), s("reduce .x")]).starts_with("Thrown: jq: "));
        assert!(call_err(jq, &[doc, s(".n.x[]")]).starts_with("Thrown: jq: cannot apply"));
    }
}
