//! The parser: directives into a tree of nodes (text, interpolation, `if`, `for`,
//! `include`), and directive expressions into [`Expr`] trees. Both nestings are capped
//! at [`MAX_DEPTH`] levels, so rendering (which recurses over the tree) stays shallow.

use harn_vm::VmError;
use harn_vm::value::Value;

use super::lex::Token;
use super::{At, fail};

/// The deepest nesting of blocks, and of expressions, a template may have.
pub(super) const MAX_DEPTH: usize = 64;

pub(super) enum Node {
    Text(String),
    /// `{{ expr }}`.
    Expr {
        expr: Expr,
        at: At,
    },
    /// `{{ name }}`: a lone identifier, rendered as `{{name}}` when it is not bound.
    Bare {
        name: String,
    },
    /// `{{ if }}` with its `elif` branches, and the `else` body.
    If {
        branches: Vec<(Expr, At, Vec<Node>)>,
        otherwise: Option<Vec<Node>>,
    },
    /// `{{ for [key,] var in iter }}`, with the `else` body run for an empty iterable.
    For {
        key: Option<String>,
        var: String,
        iter: Expr,
        body: Vec<Node>,
        empty: Option<Vec<Node>>,
        at: At,
    },
    /// `{{ include ... }}`, which fails when rendered.
    Include {
        at: At,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

pub(super) enum Seg {
    Field(String),
    Index(i64),
    Key(String),
}

pub(super) enum Expr {
    Lit(Value),
    /// A variable and the fields and indexes after it.
    Path(String, Vec<Seg>),
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Cmp(Cmp, Box<Expr>, Box<Expr>),
    /// `value | name: args`.
    Filter(Box<Expr>, String, Vec<Expr>),
}

// ----- directives -------------------------------------------------------------------

/// The directive that ended a block: `end`, `else` or `elif <cond>`.
enum Stop {
    End(At),
    Else(At),
    Elif(String, At),
}

fn first_word(s: &str) -> &str {
    s.split(char::is_whitespace).next().unwrap_or("")
}

fn is_ident(s: &str) -> bool {
    let mut chars = s.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
}

const KEYWORDS: &[&str] = &["true", "false", "nil", "and", "or", "not"];

pub(super) fn parse(tokens: Vec<Token>) -> Result<Vec<Node>, VmError> {
    let mut p = Parser {
        tokens: tokens.into_iter(),
    };
    let (nodes, stop) = p.block(0, At { line: 1, col: 1 })?;
    match stop {
        None => Ok(nodes),
        Some(Stop::End(at)) => Err(fail(at, "unexpected `{{ end }}`")),
        Some(Stop::Else(at)) => Err(fail(at, "unexpected `{{ else }}`")),
        Some(Stop::Elif(_, at)) => Err(fail(at, "unexpected `{{ elif }}`")),
    }
}

struct Parser {
    tokens: std::vec::IntoIter<Token>,
}

impl Parser {
    /// Nodes up to the next `end`/`else`/`elif` (returned) or the end of the template.
    fn block(&mut self, depth: usize, opened: At) -> Result<(Vec<Node>, Option<Stop>), VmError> {
        if depth > MAX_DEPTH {
            return Err(fail(
                opened,
                format!("template nesting depth exceeded ({MAX_DEPTH} levels)"),
            ));
        }
        let mut out = Vec::new();
        while let Some(tok) = self.tokens.next() {
            let (body, at) = match tok {
                Token::Text(s) => {
                    out.push(Node::Text(s));
                    continue;
                }
                Token::Directive { body, at } => (body, at),
            };
            let word = first_word(&body);
            let rest = body.get(word.len()..).unwrap_or("").trim();
            match word {
                "end" | "else" if !rest.is_empty() => {
                    let hint = if word == "else" && first_word(rest) == "if" {
                        " (use `elif`)"
                    } else {
                        ""
                    };
                    return Err(fail(at, format!("`{word}` takes no expression{hint}")));
                }
                "end" => return Ok((out, Some(Stop::End(at)))),
                "else" => return Ok((out, Some(Stop::Else(at)))),
                "elif" => return Ok((out, Some(Stop::Elif(rest.to_owned(), at)))),
                "if" => out.push(self.if_chain(rest, at, depth)?),
                "for" => out.push(self.for_loop(rest, at, depth)?),
                "include" => out.push(Node::Include { at }),
                _ if is_ident(&body) && !KEYWORDS.contains(&body.as_str()) => {
                    out.push(Node::Bare { name: body });
                }
                _ => out.push(Node::Expr {
                    expr: parse_expr(&body, at)?,
                    at,
                }),
            }
        }
        Ok((out, None))
    }

    fn if_chain(&mut self, cond: &str, at: At, depth: usize) -> Result<Node, VmError> {
        let mut branches = Vec::new();
        let mut cond = parse_expr(cond, at)?;
        let mut cond_at = at;
        loop {
            let (body, stop) = self.block(depth + 1, at)?;
            branches.push((cond, cond_at, body));
            match stop {
                Some(Stop::End(_)) => {
                    return Ok(Node::If {
                        branches,
                        otherwise: None,
                    });
                }
                Some(Stop::Elif(src, elif_at)) => {
                    cond = parse_expr(&src, elif_at)?;
                    cond_at = elif_at;
                }
                Some(Stop::Else(else_at)) => {
                    let otherwise = self.else_body(depth, else_at)?;
                    return Ok(Node::If {
                        branches,
                        otherwise: Some(otherwise),
                    });
                }
                None => return Err(fail(at, "`{{ if }}` missing matching `{{ end }}`")),
            }
        }
    }

    /// The body after an `else`, which only an `end` may close.
    fn else_body(&mut self, depth: usize, else_at: At) -> Result<Vec<Node>, VmError> {
        let (body, stop) = self.block(depth + 1, else_at)?;
        match stop {
            Some(Stop::End(_)) => Ok(body),
            Some(Stop::Else(at)) => Err(fail(at, "unexpected `{{ else }}`")),
            Some(Stop::Elif(_, at)) => Err(fail(at, "unexpected `{{ elif }}`")),
            None => Err(fail(else_at, "`{{ else }}` missing matching `{{ end }}`")),
        }
    }

    fn for_loop(&mut self, spec: &str, at: At, depth: usize) -> Result<Node, VmError> {
        let (head, iter_src) =
            split_in(spec).ok_or_else(|| fail(at, "expected `in` in for-loop"))?;
        let (key, var) = match head.split_once(',') {
            Some((k, v)) => (Some(k.trim()), v.trim()),
            None => (None, head),
        };
        let valid = |s: &str| is_ident(s) && !KEYWORDS.contains(&s);
        if !valid(var) || key.is_some_and(|k| !valid(k)) {
            return Err(fail(at, format!("invalid for-loop variables `{head}`")));
        }
        let iter = parse_expr(iter_src, at)?;
        let (body, stop) = self.block(depth + 1, at)?;
        let empty = match stop {
            Some(Stop::End(_)) => None,
            Some(Stop::Else(else_at)) => Some(self.else_body(depth, else_at)?),
            Some(Stop::Elif(_, elif_at)) => return Err(fail(elif_at, "unexpected `{{ elif }}`")),
            None => return Err(fail(at, "`{{ for }}` missing matching `{{ end }}`")),
        };
        Ok(Node::For {
            key: key.map(str::to_owned),
            var: var.to_owned(),
            iter,
            body,
            empty,
            at,
        })
    }
}

/// Splits `x in xs` / `k, v in d` at the first `in` word.
fn split_in(spec: &str) -> Option<(&str, &str)> {
    let mut prev_space = false;
    for (i, c) in spec.char_indices() {
        if prev_space && spec.get(i..)?.starts_with("in") {
            let after = spec.get(i + 2..)?;
            if after.starts_with(char::is_whitespace) {
                return Some((spec.get(..i)?.trim(), after.trim()));
            }
        }
        prev_space = c.is_whitespace();
    }
    None
}

// ----- expressions ------------------------------------------------------------------

#[derive(Clone, PartialEq, Debug)]
enum Tok {
    Ident(String),
    Str(String),
    Int(i64),
    Float(f64),
    LParen,
    RParen,
    LBracket,
    RBracket,
    Dot,
    Comma,
    Colon,
    Pipe,
    Not,
    And,
    Or,
    Cmp(Cmp),
    True,
    False,
    Nil,
}

impl Tok {
    fn describe(&self) -> String {
        let s = match self {
            Tok::Ident(n) => return format!("`{n}`"),
            Tok::Str(_) => return "a string".into(),
            Tok::Int(n) => return format!("`{n}`"),
            Tok::Float(x) => return format!("`{x}`"),
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Dot => ".",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Pipe => "|",
            Tok::Not => "not",
            Tok::And => "and",
            Tok::Or => "or",
            Tok::Cmp(Cmp::Eq) => "==",
            Tok::Cmp(Cmp::Ne) => "!=",
            Tok::Cmp(Cmp::Lt) => "<",
            Tok::Cmp(Cmp::Le) => "<=",
            Tok::Cmp(Cmp::Gt) => ">",
            Tok::Cmp(Cmp::Ge) => ">=",
            Tok::True => "true",
            Tok::False => "false",
            Tok::Nil => "nil",
        };
        format!("`{s}`")
    }
}

fn lex_expr(src: &str, at: At) -> Result<Vec<Tok>, VmError> {
    let mut toks = Vec::new();
    let mut chars = src.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let mut two = |t: Tok| {
            chars.next();
            t
        };
        let tok = match c {
            c if c.is_whitespace() => continue,
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '[' => Tok::LBracket,
            ']' => Tok::RBracket,
            '.' => Tok::Dot,
            ',' => Tok::Comma,
            ':' => Tok::Colon,
            '|' if next == Some('|') => two(Tok::Or),
            '|' => Tok::Pipe,
            '&' if next == Some('&') => two(Tok::And),
            '!' if next == Some('=') => two(Tok::Cmp(Cmp::Ne)),
            '!' => Tok::Not,
            '=' if next == Some('=') => two(Tok::Cmp(Cmp::Eq)),
            '=' => return Err(fail(at, "unexpected `=` in expression (use `==`)")),
            '<' if next == Some('=') => two(Tok::Cmp(Cmp::Le)),
            '<' => Tok::Cmp(Cmp::Lt),
            '>' if next == Some('=') => two(Tok::Cmp(Cmp::Ge)),
            '>' => Tok::Cmp(Cmp::Gt),
            '"' | '\'' => {
                let mut s = String::new();
                loop {
                    match chars.next() {
                        None => return Err(fail(at, "unterminated string literal")),
                        Some((_, q)) if q == c => break,
                        Some((_, '\\')) => match chars.next() {
                            Some((_, 'n')) => s.push('\n'),
                            Some((_, 't')) => s.push('\t'),
                            Some((_, 'r')) => s.push('\r'),
                            Some((_, e)) => s.push(e),
                            None => return Err(fail(at, "unterminated string literal")),
                        },
                        Some((_, ch)) => s.push(ch),
                    }
                }
                Tok::Str(s)
            }
            c if c.is_ascii_digit() || (c == '-' && next.is_some_and(|n| n.is_ascii_digit())) => {
                let mut end = i + c.len_utf8();
                let mut float = false;
                while let Some(&(j, d)) = chars.peek() {
                    let digit_follows = src
                        .get(j + 1..)
                        .is_some_and(|r| r.starts_with(|x: char| x.is_ascii_digit()));
                    if d.is_ascii_digit() || (d == '.' && !float && digit_follows) {
                        float |= d == '.';
                        end = j + 1;
                        chars.next();
                    } else {
                        break;
                    }
                }
                let lexeme = src.get(i..end).unwrap_or("");
                if float {
                    Tok::Float(
                        lexeme
                            .parse()
                            .map_err(|_| fail(at, format!("invalid number `{lexeme}`")))?,
                    )
                } else {
                    Tok::Int(
                        lexeme
                            .parse()
                            .map_err(|_| fail(at, format!("invalid integer `{lexeme}`")))?,
                    )
                }
            }
            c if c.is_alphabetic() || c == '_' => {
                let mut end = i + c.len_utf8();
                while let Some(&(j, d)) = chars.peek() {
                    if d.is_alphanumeric() || d == '_' {
                        end = j + d.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                match src.get(i..end).unwrap_or("") {
                    "true" => Tok::True,
                    "false" => Tok::False,
                    "nil" => Tok::Nil,
                    "and" => Tok::And,
                    "or" => Tok::Or,
                    "not" => Tok::Not,
                    word => Tok::Ident(word.to_owned()),
                }
            }
            other => {
                return Err(fail(
                    at,
                    format!("unexpected character `{other}` in expression"),
                ));
            }
        };
        toks.push(tok);
    }
    Ok(toks)
}

pub(super) fn parse_expr(src: &str, at: At) -> Result<Expr, VmError> {
    let toks = lex_expr(src, at)?;
    let mut p = ExprParser { toks, pos: 0, at };
    let (e, _) = p.filtered(0)?;
    match p.toks.get(p.pos) {
        None => Ok(e),
        Some(t) => Err(fail(
            at,
            format!("unexpected {} in expression", t.describe()),
        )),
    }
}

/// An expression and the depth of its tree.
type Parsed = (Expr, usize);

struct ExprParser {
    toks: Vec<Tok>,
    pos: usize,
    at: At,
}

impl ExprParser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn eat(&mut self, t: &Tok) -> bool {
        let hit = self.peek() == Some(t);
        if hit {
            self.pos += 1;
        }
        hit
    }

    /// Refuses nesting (of the parser, or of the tree built) past [`MAX_DEPTH`].
    fn guard(&self, depth: usize) -> Result<(), VmError> {
        if depth > MAX_DEPTH {
            return Err(fail(
                self.at,
                format!("template expression depth exceeded ({MAX_DEPTH} levels)"),
            ));
        }
        Ok(())
    }

    fn node(&self, e: Expr, depth: usize) -> Result<Parsed, VmError> {
        self.guard(depth)?;
        Ok((e, depth))
    }

    fn filtered(&mut self, nest: usize) -> Result<Parsed, VmError> {
        self.guard(nest)?;
        let mut left = self.or(nest)?;
        while self.eat(&Tok::Pipe) {
            let Some(Tok::Ident(name)) = self.peek().cloned() else {
                return Err(fail(self.at, "expected a filter name after `|`"));
            };
            self.pos += 1;
            let mut args = Vec::new();
            let mut depth = left.1;
            if self.eat(&Tok::Colon) {
                loop {
                    let (a, d) = self.or(nest + 1)?;
                    depth = depth.max(d);
                    args.push(a);
                    if !self.eat(&Tok::Comma) {
                        break;
                    }
                }
            }
            left = self.node(Expr::Filter(Box::new(left.0), name, args), depth + 1)?;
        }
        Ok(left)
    }

    fn or(&mut self, nest: usize) -> Result<Parsed, VmError> {
        let mut left = self.and(nest)?;
        while self.eat(&Tok::Or) {
            let right = self.and(nest)?;
            let depth = left.1.max(right.1) + 1;
            left = self.node(Expr::Or(Box::new(left.0), Box::new(right.0)), depth)?;
        }
        Ok(left)
    }

    fn and(&mut self, nest: usize) -> Result<Parsed, VmError> {
        let mut left = self.not(nest)?;
        while self.eat(&Tok::And) {
            let right = self.not(nest)?;
            let depth = left.1.max(right.1) + 1;
            left = self.node(Expr::And(Box::new(left.0), Box::new(right.0)), depth)?;
        }
        Ok(left)
    }

    fn not(&mut self, nest: usize) -> Result<Parsed, VmError> {
        self.guard(nest)?;
        if self.eat(&Tok::Not) {
            let (inner, d) = self.not(nest + 1)?;
            return self.node(Expr::Not(Box::new(inner)), d + 1);
        }
        let left = self.primary(nest)?;
        let op = match self.peek() {
            Some(Tok::Cmp(op)) => *op,
            _ => return Ok(left),
        };
        self.pos += 1;
        let right = self.primary(nest)?;
        let depth = left.1.max(right.1) + 1;
        self.node(Expr::Cmp(op, Box::new(left.0), Box::new(right.0)), depth)
    }

    fn primary(&mut self, nest: usize) -> Result<Parsed, VmError> {
        self.guard(nest)?;
        let Some(tok) = self.peek().cloned() else {
            return Err(fail(self.at, "expected an expression"));
        };
        self.pos += 1;
        let lit = |v: Value| Ok((Expr::Lit(v), 1));
        match tok {
            Tok::Nil => lit(Value::Nil),
            Tok::True => lit(Value::Bool(true)),
            Tok::False => lit(Value::Bool(false)),
            Tok::Int(n) => lit(Value::Int(n)),
            Tok::Float(x) => lit(Value::Float(x)),
            Tok::Str(s) => lit(Value::str(s)),
            Tok::LParen => {
                let inner = self.filtered(nest + 1)?;
                if !self.eat(&Tok::RParen) {
                    return Err(fail(self.at, "expected `)`"));
                }
                Ok(inner)
            }
            Tok::Not => {
                let (inner, d) = self.primary(nest + 1)?;
                self.node(Expr::Not(Box::new(inner)), d + 1)
            }
            Tok::Ident(name) => self.path(name),
            other => Err(fail(
                self.at,
                format!("unexpected {} in expression", other.describe()),
            )),
        }
    }

    fn path(&mut self, head: String) -> Result<Parsed, VmError> {
        let mut segs = Vec::new();
        loop {
            if self.eat(&Tok::Dot) {
                match self.peek().cloned() {
                    Some(Tok::Ident(n)) => segs.push(Seg::Field(n)),
                    _ => return Err(fail(self.at, "expected a field name after `.`")),
                }
                self.pos += 1;
            } else if self.eat(&Tok::LBracket) {
                match self.peek().cloned() {
                    Some(Tok::Int(n)) => segs.push(Seg::Index(n)),
                    Some(Tok::Str(s)) => segs.push(Seg::Key(s)),
                    _ => {
                        return Err(fail(
                            self.at,
                            "expected an integer or a string inside `[...]`",
                        ));
                    }
                }
                self.pos += 1;
                if !self.eat(&Tok::RBracket) {
                    return Err(fail(self.at, "expected `]`"));
                }
            } else {
                return Ok((Expr::Path(head, segs), 1));
            }
        }
    }
}
