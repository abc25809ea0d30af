//! The Harn parser: laid-out tokens to a [`Program`], with error recovery.
//!
//! A hand-written recursive-descent parser (the reference's own parser is one too, and
//! its error messages come from the points where a construct expects something; here they
//! come from the same points). Expressions use precedence climbing. A statement that
//! fails is reported and skipped up to the next separator, so a file with several syntax
//! errors reports all of them and still yields a tree.
//!
//! Recursion is bounded twice over: the layout pass refuses input nested deeper than
//! [`MAX_NESTING`] before parsing starts, and every recursive entry point runs under
//! `crate::stack::maybe_grow`, so permitted nesting works on a 2 MiB thread stack in debug
//! builds too.

mod decl;
mod expr;
mod holes;
mod pattern;
mod stmt;
mod types;

pub use types::{SignatureParam, SignatureSyntax};

use rustc_hash::FxHashSet as HashSet;

use crate::ast::{Ident, Program, Span, name_of};
use crate::diagnostic::{Diagnostic, codes};
use crate::layout::{MAX_NESTING, layout};
use crate::lexer::{
    Keyword, LexErrorKind, Number, StrValue, Tok, Token, lex, number_value, string_name,
    string_value,
};
use crate::source::LineIndex;

/// The parse of one source file: always a tree, plus every lexical and syntax error.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub program: Program,
    pub diagnostics: Vec<Diagnostic>,
}

impl Parsed {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The reference-compatible text of the first error, if any.
    pub fn first_error(&self) -> Option<&str> {
        self.diagnostics
            .iter()
            .find(|d| d.is_error())
            .map(|d| d.message.as_str())
    }
}

/// Words used in `Expected <what>` messages, as the reference words them.
pub(crate) mod what {
    pub const EXPR: &str = "expression";
    pub const STMT_SEP: &str = "statement separator (`;` or newline)";
    pub const TOP_SEP: &str = "top-level item separator (`;` or newline)";
    pub const TOOL_SEP: &str = "tool body item separator (`;` or newline)";
    pub const SKILL_SEP: &str = "skill field separator (`;` or newline)";
    pub const EVAL_SEP: &str = "eval_pack item separator (`;` or newline)";
    pub const PATTERN: &str = "variable name or destructuring pattern";
    pub const VAR_NAME: &str = "variable name";
    pub const NAME: &str = "identifier";
    pub const FN_NAME: &str = "function name";
    pub const PARAM: &str = "parameter name";
    pub const MEMBER: &str = "property or method name";
    pub const DICT_KEY: &str = "dict key";
    pub const TYPE: &str = "type";
}

/// Why a parse step failed. Turned into a [`Diagnostic`] once line numbers are known.
#[derive(Clone, Debug)]
pub(crate) enum Fail {
    /// `Expected <what>, got <token at span>` (or `Unexpected end of file, ...`).
    Expected { what: &'static str, at: usize },
    /// A complete message; ` at L:C` is appended.
    Message { message: String, span: Span },
}

pub(crate) type PResult<T> = Result<T, Fail>;

/// Stack that must remain before a recursive rule runs; below it a new segment is
/// allocated on the heap. Generous because unoptimised builds use large frames.
const RED_ZONE: usize = 256 * 1024;
const STACK_SEGMENT: usize = 4 * 1024 * 1024;

pub(crate) struct Parser<'a> {
    toks: &'a [Token],
    /// The text the tokens' spans point into: a name's or a literal's text is read from
    /// it (tokens own none). For an interpolation hole, the whole file.
    src: &'a str,
    pos: usize,
    /// Byte offset of the end of input (for spans of EOF errors).
    eoi: u32,
    /// Errors recorded after recovery, in source order.
    errors: Vec<Fail>,
    /// Whether a function type's parameters may carry names (`fn(name: string) -> any`):
    /// only in builtin signatures ([`parse_signature`]), never in programs.
    labelled_fn_params: bool,
    /// Positions of `?[` where no subscript parsed. The parser only backtracks there
    /// (the `?` then opens a ternary); remembering the failure keeps nested `?[`s
    /// linear: without it `[0?[0?[0?...` took time exponential in its length.
    no_optional_index: HashSet<usize>,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(toks: &'a [Token], src: &'a str, eoi: usize) -> Self {
        Parser {
            toks,
            src,
            pos: 0,
            eoi: u32::try_from(eoi).unwrap_or(u32::MAX),
            errors: Vec::new(),
            labelled_fn_params: false,
            no_optional_index: HashSet::default(),
        }
    }

    // ---- token access ----

    #[inline]
    pub(crate) fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    #[inline]
    pub(crate) fn peek_at(&self, n: usize) -> Option<&'a Tok> {
        self.toks.get(self.pos + n).map(|t| &t.tok)
    }

    #[inline]
    pub(crate) fn at(&self, tok: &Tok) -> bool {
        match (self.peek(), tok) {
            (Some(t), Tok::Kw(_)) => t == tok,
            // Payload-free tokens: comparing discriminants is enough (and cheap).
            (Some(t), _) => std::mem::discriminant(t) == std::mem::discriminant(tok),
            (None, _) => false,
        }
    }

    #[inline]
    pub(crate) fn at_kw(&self, kw: Keyword) -> bool {
        matches!(self.peek(), Some(Tok::Kw(k)) if *k == kw)
    }

    pub(crate) fn at_word(&self, word: &str) -> bool {
        self.word_at(0) == Some(word)
    }

    /// The name `n` tokens ahead, if that token is an identifier.
    #[inline]
    pub(crate) fn word_at(&self, n: usize) -> Option<&'a str> {
        match self.toks.get(self.pos + n) {
            Some(t) if t.tok == Tok::Ident => Some(t.text(self.src)),
            _ => None,
        }
    }

    /// The value of the string literal at the cursor (a `Str`, `RawStr` or `IStr` token);
    /// empty text if there is none.
    pub(crate) fn string_value(&self) -> StrValue {
        self.toks
            .get(self.pos)
            .and_then(|t| string_value(self.src, t.span))
            .unwrap_or(StrValue::Text(String::new()))
    }

    /// The value of the number or duration literal at the cursor.
    pub(crate) fn number_value(&self) -> Number {
        self.toks
            .get(self.pos)
            .map_or(Number::Int(0), |t| number_value(self.src, t.span))
    }

    /// The value of the integer literal at the cursor (0 if there is none).
    pub(crate) fn int_value(&self) -> i64 {
        match self.number_value() {
            Number::Int(n) => n,
            _ => 0,
        }
    }

    /// The text of a plain string literal at the cursor (`Str` or `RawStr`).
    pub(crate) fn string_text(&self) -> String {
        match self.string_value() {
            StrValue::Text(text) => text,
            StrValue::Segments(_) => String::new(),
        }
    }

    /// The text of a plain string literal at the cursor as a tree name (no allocation
    /// for a short literal without escapes).
    pub(crate) fn string_name(&self) -> crate::ast::Name {
        self.toks
            .get(self.pos)
            .and_then(|t| string_name(self.src, t.span))
            .unwrap_or_default()
    }

    pub(crate) fn at_lbrace(&self) -> bool {
        matches!(self.peek(), Some(Tok::LBrace | Tok::ClosureBrace))
    }

    #[inline]
    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// Span of the current token (an empty span at the end of input).
    #[inline]
    pub(crate) fn span(&self) -> Span {
        self.toks.get(self.pos).map_or(
            Span {
                start: self.eoi,
                end: self.eoi,
            },
            |t| t.span,
        )
    }

    /// Span of the token before the current one.
    pub(crate) fn prev_span(&self) -> Span {
        self.pos
            .checked_sub(1)
            .and_then(|i| self.toks.get(i))
            .map_or(Span::default(), |t| t.span)
    }

    /// Span from `start` to the end of the last consumed token.
    pub(crate) fn since(&self, start: Span) -> Span {
        start.to(self.prev_span())
    }

    #[inline]
    pub(crate) fn bump(&mut self) -> Span {
        let span = self.span();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        span
    }

    #[inline]
    pub(crate) fn eat(&mut self, tok: &Tok) -> bool {
        if self.at(tok) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    #[inline]
    pub(crate) fn eat_kw(&mut self, kw: Keyword) -> bool {
        if self.at_kw(kw) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// In a list closed by `close`: whether the closer is next. The end of input is an
    /// error naming the closer (`Unexpected end of file, expected }`).
    pub(crate) fn at_close(&self, close: &Tok, what: &'static str) -> PResult<bool> {
        if self.at_end() {
            return self.fail(what);
        }
        Ok(self.at(close))
    }

    pub(crate) fn skip_newlines(&mut self) {
        while self.eat(&Tok::Newline) {}
    }

    // ---- failures ----

    pub(crate) fn fail<T>(&self, what: &'static str) -> PResult<T> {
        Err(Fail::Expected { what, at: self.pos })
    }

    pub(crate) fn expect(&mut self, tok: &Tok, what: &'static str) -> PResult<Span> {
        if self.at(tok) {
            Ok(self.bump())
        } else {
            self.fail(what)
        }
    }

    pub(crate) fn expect_lbrace(&mut self) -> PResult<Span> {
        if self.at_lbrace() {
            Ok(self.bump())
        } else {
            self.fail("{")
        }
    }

    pub(crate) fn ident(&mut self, what: &'static str) -> PResult<Ident> {
        match self.word_at(0) {
            Some(name) => {
                let span = self.bump();
                Ok(Ident {
                    name: name_of(name),
                    span,
                })
            }
            None => self.fail(what),
        }
    }

    /// Runs `f` and rewinds if it fails, without recording anything.
    pub(crate) fn attempt<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> Option<T> {
        let saved = self.pos;
        let recorded = self.errors.len();
        match f(self) {
            Ok(v) => Some(v),
            Err(_) => {
                self.pos = saved;
                self.errors.truncate(recorded);
                None
            }
        }
    }

    /// Runs a recursive rule with stack to spare.
    pub(crate) fn deep<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        crate::stack::maybe_grow(RED_ZONE, STACK_SEGMENT, || f(self))
    }

    pub(crate) fn record(&mut self, fail: Fail) {
        self.errors.push(fail);
    }
}

/// Makes room for a list's first four elements with a plain allocation, before its first
/// push: the first push of an empty vector takes the general growth path (out of line,
/// with the checks a reallocation needs), which cost about twice as much. A list that
/// stays empty never gets here, so it allocates nothing.
#[inline]
pub(crate) fn room_for_first<T>(items: &mut Vec<T>) {
    if items.capacity() == 0 {
        *items = Vec::with_capacity(4);
    }
}

/// Lexes and parses a whole source file.
pub fn parse(source: &str) -> Parsed {
    let lexed = lex(source);
    let laid = layout(lexed.tokens, 0);
    let eoi = source.len();
    let mut parser = Parser::new(&laid.tokens, source, eoi);
    let items = match laid.too_deep {
        Some(_) => Vec::new(),
        None => parser.statement_list(what::TOP_SEP, stmt::Context::TopLevel),
    };
    let program = Program {
        items,
        span: Span::new(0, eoi),
    };
    if lexed.errors.is_empty() && laid.too_deep.is_none() && parser.errors.is_empty() {
        return Parsed {
            program,
            diagnostics: Vec::new(),
        };
    }
    // Positions are only needed to word diagnostics.
    let index = LineIndex::new(source);
    let mut diagnostics: Vec<Diagnostic> = lexed
        .errors
        .iter()
        .map(|e| {
            let code = match e.kind {
                LexErrorKind::UnexpectedChar(_) => codes::UNEXPECTED_CHAR,
                LexErrorKind::UnterminatedString => codes::UNTERMINATED_STRING,
                LexErrorKind::UnterminatedBlockComment => codes::UNTERMINATED_COMMENT,
            };
            Diagnostic::error(code, e.message(&index), e.span, "here")
        })
        .collect();
    if let Some(span) = laid.too_deep {
        diagnostics.push(nesting_error(span, &index));
    }
    diagnostics.extend(
        parser
            .errors
            .iter()
            .map(|f| to_diagnostic(f, &laid.tokens, source, eoi, &index)),
    );
    Parsed {
        program,
        diagnostics,
    }
}

/// Parses one type annotation (`language.md` 10.2), e.g. `list<int> | nil`: the same
/// rule as a `let` annotation; the whole text must be the type.
pub fn parse_type(source: &str) -> Result<crate::ast::TypeExpr, Box<Diagnostic>> {
    parse_fragment(source, false, |p| p.type_expr())
}

/// Parses a builtin signature, `fn(name: T, opt?: T, ...rest: T) -> R`: parameter names,
/// optional and rest markers, and types in the annotation language, where a function
/// type's parameters may carry names too (`fn(name: string, input: any) -> any`).
pub fn parse_signature(source: &str) -> Result<SignatureSyntax, Box<Diagnostic>> {
    parse_fragment(source, true, |p| p.signature())
}

/// Runs one rule over the whole of `source`; the first error, if any, as a diagnostic.
fn parse_fragment<T>(
    source: &str,
    labelled_fn_params: bool,
    rule: impl FnOnce(&mut Parser<'_>) -> PResult<T>,
) -> Result<T, Box<Diagnostic>> {
    let lexed = lex(source);
    let index = LineIndex::new(source);
    if let Some(e) = lexed.errors.first() {
        return Err(Box::new(Diagnostic::error(
            codes::SYNTAX,
            e.message(&index),
            e.span,
            "here",
        )));
    }
    let laid = layout(lexed.tokens, 0);
    let eoi = source.len();
    if let Some(span) = laid.too_deep {
        return Err(Box::new(nesting_error(span, &index)));
    }
    let mut parser = Parser::new(&laid.tokens, source, eoi);
    parser.labelled_fn_params = labelled_fn_params;
    let result = rule(&mut parser).and_then(|v| {
        parser.skip_newlines();
        if parser.at_end() {
            Ok(v)
        } else {
            parser.fail("end of input")
        }
    });
    result.map_err(|f| Box::new(to_diagnostic(&f, &laid.tokens, source, eoi, &index)))
}

fn nesting_error(span: Span, index: &LineIndex) -> Diagnostic {
    let (line, col) = index.line_col(span.start as usize);
    Diagnostic::error(
        codes::NESTING_TOO_DEEP,
        format!("Nesting too deep (limit {MAX_NESTING}) at {line}:{col}"),
        span,
        "nesting goes past the limit here",
    )
    .with_hint("split the expression into smaller pieces bound to names")
}

/// Labels that describe a name: a reserved keyword found in their place is printed as
/// `'tool' (reserved keyword)`.
fn wants_name(what: &str) -> bool {
    matches!(
        what,
        what::PATTERN | what::VAR_NAME | what::NAME | what::FN_NAME | what::PARAM
    )
}

fn to_diagnostic(
    fail: &Fail,
    tokens: &[Token],
    source: &str,
    eoi: usize,
    index: &LineIndex,
) -> Diagnostic {
    match fail {
        Fail::Expected { what, at } => match tokens.get(*at) {
            Some(found) => {
                let (line, col) = index.line_col(found.span.start as usize);
                let got = match &found.tok {
                    Tok::Kw(k) if wants_name(what) => {
                        format!("'{}' (reserved keyword)", k.as_str())
                    }
                    _ => found.display(source).to_string(),
                };
                Diagnostic::error(
                    codes::SYNTAX,
                    format!("Expected {what}, got {got} at {line}:{col}"),
                    found.span,
                    format!("expected {what}"),
                )
            }
            None => Diagnostic::error(
                codes::SYNTAX,
                format!("Unexpected end of file, expected {what}"),
                Span::new(eoi, eoi),
                format!("expected {what}"),
            ),
        },
        Fail::Message { message, span } => {
            let (line, col) = index.line_col(span.start as usize);
            let code = if message.starts_with("Nesting too deep") {
                codes::NESTING_TOO_DEEP
            } else if message.starts_with("Invalid assignment") {
                codes::INVALID_ASSIGN_TARGET
            } else if message.contains("Required parameter") {
                codes::INVALID_PARAMS
            } else {
                codes::SYNTAX
            };
            Diagnostic::error(
                code,
                format!("{message} at {line}:{col}"),
                *span,
                message.clone(),
            )
        }
    }
}
