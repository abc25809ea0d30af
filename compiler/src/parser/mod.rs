//! The Harn parser: tokens to [`Program`], with error recovery.
//!
//! The grammar is written with `chumsky` combinators over the laid-out token stream
//! (see [`crate::layout`]). It is built once per thread and reused for every parse, so a
//! parse costs only the work proportional to its input. A broken statement is reported
//! and skipped up to the next separator, so a file with several syntax errors reports all
//! of them and still yields a tree.

mod common;
mod expr;
mod holes;
mod stmt;

use std::rc::Rc;

use chumsky::error::{RichPattern, RichReason};
use chumsky::input::IterInput;
use chumsky::prelude::*;

use common::{BoxedP, TokIter, deep, label, label_wants_name, sp};
use expr::Handles;

use crate::ast::{Expr, Program, Span};
use crate::diagnostic::{Diagnostic, codes};
use crate::layout::{MAX_NESTING, layout};
use crate::lexer::{LexErrorKind, Tok, Token, lex};
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

struct Grammar {
    program: BoxedP<'static, Program>,
    expr: BoxedP<'static, Expr>,
}

fn build_grammar() -> Grammar {
    let mut expr_rec = Recursive::declare();
    let mut block_rec = Recursive::declare();
    let mut body_rec = Recursive::declare();
    let mut params_rec = Recursive::declare();
    let mut stmt_rec = Recursive::declare();
    let h = Handles {
        expr: expr_rec.clone(),
        block: block_rec.clone(),
        body: body_rec.clone(),
        params: params_rec.clone(),
        stmt: stmt_rec.clone(),
        ty: common::type_expr(),
    };
    expr_rec.define(deep(expr::expression(&h)));
    params_rec.define(stmt::params(&h));
    stmt_rec.define(deep(stmt::statement(&h, false)));
    body_rec.define(stmt::statement_list(
        stmt_rec.clone().boxed(),
        label::STMT_SEP,
        false,
    ));
    block_rec.define(deep(stmt::block(body_rec.clone().boxed())));
    let program = stmt::statement_list(stmt::statement(&h, true), label::TOP_SEP, true)
        .then_ignore(end())
        .map_with(|items, e| Program {
            items,
            span: sp(e.span()),
        })
        .boxed();
    Grammar {
        program,
        expr: expr_rec.boxed(),
    }
}

thread_local! {
    static GRAMMAR: Grammar = build_grammar();
}

fn input(tokens: &[Token], eoi: usize) -> IterInput<TokIter, SimpleSpan> {
    let pairs: Rc<[(Tok, SimpleSpan)]> = tokens
        .iter()
        .map(|t| {
            (
                t.tok.clone(),
                SimpleSpan::from(t.span.start as usize..t.span.end as usize),
            )
        })
        .collect();
    IterInput::new(TokIter::new(pairs), SimpleSpan::from(eoi..eoi))
}

/// Lexes and parses a whole source file.
pub fn parse(source: &str) -> Parsed {
    let index = LineIndex::new(source);
    let lexed = lex(source);
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
    let laid = layout(lexed.tokens, 0);
    let eoi = source.len();
    if let Some(span) = laid.too_deep {
        diagnostics.push(nesting_error(span, &index));
        return Parsed {
            program: Program {
                items: Vec::new(),
                span: Span::new(0, eoi),
            },
            diagnostics,
        };
    }
    let (output, errors) = GRAMMAR.with(|g| {
        g.program
            .parse(input(&laid.tokens, eoi))
            .into_output_errors()
    });
    let tokens = &laid.tokens;
    diagnostics.extend(errors.iter().map(|e| to_diagnostic(e, tokens, &index)));
    let program = output.unwrap_or(Program {
        items: Vec::new(),
        span: Span::new(0, eoi),
    });
    Parsed {
        program,
        diagnostics,
    }
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

/// What a hole's leading expression parse produced.
pub(crate) enum Leading {
    Expr(Expr),
    /// No expression parses cleanly at the start of the hole.
    Nothing,
    /// Nesting inside the hole went past the limit.
    TooDeep,
}

/// Parses one expression from the start of `tokens`, ignoring whatever follows it.
pub(crate) fn parse_leading_expr(tokens: &[Token], eoi: usize) -> Leading {
    if tokens.is_empty() {
        return Leading::Nothing;
    }
    GRAMMAR.with(|g| {
        let parser = g.expr.clone().then_ignore(any().repeated());
        let (out, errors) = parser.parse(input(tokens, eoi)).into_output_errors();
        let too_deep = errors
            .iter()
            .any(|e| matches!(e.reason(), RichReason::Custom(m) if m.starts_with(holes::TOO_DEEP)));
        match out {
            _ if too_deep => Leading::TooDeep,
            Some(expr) if errors.is_empty() => Leading::Expr(expr),
            _ => Leading::Nothing,
        }
    })
}

/// Orders expectations: which one names the error (`Expected <what>`).
fn priority(pattern: &RichPattern<'_, Tok>, at_end: bool) -> u8 {
    match pattern {
        RichPattern::Token(t) if **t == Tok::RBrace && at_end => 0,
        RichPattern::Label(l) if l.ends_with("separator (`;` or newline)") => 1,
        RichPattern::Label(l) if l == label::EXPR => 2,
        RichPattern::Label(_) => 3,
        RichPattern::Token(t) if **t == Tok::RBrace => 4,
        RichPattern::Token(t) if matches!(**t, Tok::RParen | Tok::RBracket) => 5,
        RichPattern::Token(_) => 6,
        _ => 9,
    }
}

fn describe(pattern: &RichPattern<'_, Tok>) -> String {
    match pattern {
        RichPattern::Token(t) => t.to_string(),
        RichPattern::Label(l) => l.to_string(),
        RichPattern::Identifier(i) => i.clone(),
        RichPattern::EndOfInput => "end of file".into(),
        _ => "something else".into(),
    }
}

fn found_text(found: &Tok, expected: &str) -> String {
    match found {
        Tok::Kw(k) if label_wants_name(expected) => format!("'{}' (reserved keyword)", k.as_str()),
        t => t.to_string(),
    }
}

/// Converts a chumsky error into a diagnostic with the reference's wording.
fn to_diagnostic(
    err: &Rich<'_, Tok, SimpleSpan>,
    tokens: &[Token],
    index: &LineIndex,
) -> Diagnostic {
    let span = sp(*err.span());
    let (line, col) = index.line_col(span.start as usize);
    let token_at = |offset: u32| {
        tokens
            .iter()
            .find(|t| t.span.start == offset)
            .map(|t| &t.tok)
    };
    match err.reason() {
        RichReason::Custom(msg) => {
            if let Some(full) = msg.strip_prefix('=') {
                let code = if full.starts_with("Invalid assignment") {
                    codes::INVALID_ASSIGN_TARGET
                } else if full.starts_with("Nesting too deep") {
                    codes::NESTING_TOO_DEEP
                } else {
                    codes::SYNTAX
                };
                return Diagnostic::error(code, format!("{full} at {line}:{col}"), span, full);
            }
            let message = match token_at(span.start) {
                Some(found) => format!("Expected {msg}, got {found} at {line}:{col}"),
                None => format!("Unexpected end of file, expected {msg}"),
            };
            Diagnostic::error(codes::INVALID_PARAMS, message, span, msg.clone())
        }
        RichReason::ExpectedFound { expected, found } => {
            let at_end = found.is_none();
            let best = expected
                .iter()
                .min_by_key(|p| priority(p, at_end))
                .map(describe)
                .unwrap_or_else(|| "end of file".to_string());
            let (message, label) = match found {
                Some(found) => (
                    format!(
                        "Expected {best}, got {} at {line}:{col}",
                        found_text(found, &best)
                    ),
                    format!("expected {best}"),
                ),
                None => (
                    format!("Unexpected end of file, expected {best}"),
                    format!("expected {best}"),
                ),
            };
            let mut d = Diagnostic::error(codes::SYNTAX, message, span, label);
            let others: Vec<String> = expected
                .iter()
                .map(describe)
                .filter(|d| *d != best)
                .collect();
            if !others.is_empty() && others.len() <= 8 {
                d = d.with_hint(format!("also accepted here: {}", others.join(", ")));
            }
            d
        }
    }
}
