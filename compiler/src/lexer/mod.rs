//! The Harn lexer: source text to [`Token`]s.
//!
//! Simple tokens (punctuation, words, newlines, comments) are recognised by a `logos`
//! automaton; numbers, strings and nested block comments need context the automaton cannot
//! express, so the driver scans them by hand from the automaton's remainder. Lexing never
//! stops at an error: every error is collected and the remaining input is still tokenised,
//! so that the parser (and the language server) always have a token stream.

mod scan;
mod token;

use logos::Logos;

pub use token::{Keyword, Number, StrSeg, StrValue, Tok, Token, TokenDisplay};

use crate::ast::{Name, Span, name_of};
use crate::source::LineIndex;

/// What went wrong while lexing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LexErrorKind {
    UnexpectedChar(char),
    UnterminatedString,
    UnterminatedBlockComment,
}

/// A lexical error. The span points at the offending character (for an empty
/// interpolation hole, just past its `}`) or at the opening quote / `/*`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    pub kind: LexErrorKind,
    pub span: Span,
}

impl LexError {
    /// The reference's one-line text, e.g. `Unexpected character '#' at 1:15`.
    pub fn message(&self, index: &LineIndex) -> String {
        let (line, col) = index.line_col(self.span.start as usize);
        match &self.kind {
            LexErrorKind::UnexpectedChar(c) => {
                format!("Unexpected character '{c}' at {line}:{col}")
            }
            LexErrorKind::UnterminatedString => format!("Unterminated string at {line}:{col}"),
            LexErrorKind::UnterminatedBlockComment => {
                format!("Unterminated block comment at {line}:{col}")
            }
        }
    }
}

/// Tokens recognised directly by the automaton.
#[derive(Logos, Clone, Copy, Debug, PartialEq)]
#[logos(skip r"[ \t\r\x0C]+")]
enum Raw {
    #[regex(r"\\\r?\n")]
    Continuation,
    #[regex(r"//[^\n]*", allow_greedy = true)]
    LineComment,
    #[token("/*")]
    BlockCommentOpen,
    /// The first character of a word; the driver scans the rest ([`scan::word_rest`]),
    /// since the automaton spends a state transition per character on them.
    #[regex(r"[A-Za-z_\u{80}-\u{10FFFF}]")]
    Word,
    #[regex(r"[0-9]")]
    Digit,
    #[token("\"")]
    Quote,
    #[token("r\"")]
    RQuote,
    /// Punctuation and operators, each mapped to its token by the automaton itself, so the
    /// driver needs no second dispatch on the kind.
    #[token("\n", |_| Tok::Newline)]
    #[token("(", |_| Tok::LParen)]
    #[token(")", |_| Tok::RParen)]
    #[token("[", |_| Tok::LBracket)]
    #[token("]", |_| Tok::RBracket)]
    #[token("{", |_| Tok::LBrace)]
    #[token("}", |_| Tok::RBrace)]
    #[token(",", |_| Tok::Comma)]
    #[token(":", |_| Tok::Colon)]
    #[token(";", |_| Tok::Semi)]
    #[token(".", |_| Tok::Dot)]
    #[token("...", |_| Tok::Ellipsis)]
    #[token("..", |_| Tok::DotDot)]
    #[token("..=", |_| Tok::DotDotEq)]
    #[token("?.", |_| Tok::QuestionDot)]
    #[token("?", |_| Tok::Question)]
    #[token("->", |_| Tok::Arrow)]
    #[token("=", |_| Tok::Assign)]
    #[token("==", |_| Tok::EqEq)]
    #[token("!=", |_| Tok::NotEq)]
    #[token("<", |_| Tok::Lt)]
    #[token(">", |_| Tok::Gt)]
    #[token("<=", |_| Tok::Le)]
    #[token(">=", |_| Tok::Ge)]
    #[token("+", |_| Tok::Plus)]
    #[token("-", |_| Tok::Minus)]
    #[token("*", |_| Tok::Star)]
    #[token("/", |_| Tok::Slash)]
    #[token("%", |_| Tok::Percent)]
    #[token("**", |_| Tok::StarStar)]
    #[token("!", |_| Tok::Bang)]
    #[token("&&", |_| Tok::AndAnd)]
    #[token("||", |_| Tok::OrOr)]
    #[token("|>", |_| Tok::PipeOp)]
    #[token("|", |_| Tok::Bar)]
    #[token("@", |_| Tok::At)]
    #[token("??", |_| Tok::Coalesce)]
    #[token("+=", |_| Tok::PlusEq)]
    #[token("-=", |_| Tok::MinusEq)]
    #[token("*=", |_| Tok::StarEq)]
    #[token("/=", |_| Tok::SlashEq)]
    #[token("%=", |_| Tok::PercentEq)]
    Simple(Tok),
}

/// The result of lexing: every token that could be recognised, and every error.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub errors: Vec<LexError>,
}

/// Lexes a whole source file (a leading `#!` line is skipped).
pub fn lex(source: &str) -> Lexed {
    let skip = if source.starts_with("#!") {
        source.find('\n').unwrap_or(source.len())
    } else {
        0
    };
    lex_from(source, skip, 0)
}

/// Lexes `text`, a slice of a larger file that starts at byte `base` of that file, so that
/// spans point into the file (used for interpolation holes).
pub fn lex_fragment(text: &str, base: u32) -> Lexed {
    lex_from(text, 0, base)
}

fn lex_from(source: &str, skip: usize, base: u32) -> Lexed {
    // Sized for dense code (one token per two bytes; typical snippets have one per two
    // and a half to three and a half, the bench snippet of `benches/vm.rs` one per 2.8),
    // so the vector rarely grows: growing copies every token. The tokens are freed when
    // the parse ends, so the slack costs nothing after it.
    let mut out = Lexed {
        tokens: Vec::with_capacity(source.len() / 2 + 16),
        errors: Vec::new(),
    };
    let mut lexer = Raw::lexer(source);
    if skip > 0 {
        lexer.bump(skip);
    }
    // Offsets fit in a span's u32 whenever the whole input does (checked once here);
    // past that, spans saturate as `Span::new` makes them.
    let fits = u32::try_from(source.len())
        .ok()
        .and_then(|len| len.checked_add(base))
        .is_some();
    let span_of = |start: usize, end: usize| {
        if fits {
            Span {
                start: start as u32 + base,
                end: end as u32 + base,
            }
        } else {
            Span::new(start, end).shifted(base)
        }
    };
    while let Some(result) = lexer.next() {
        let range = lexer.span();
        let raw = match result {
            Ok(raw) => raw,
            Err(()) => {
                let c = source[range.start..].chars().next().unwrap_or('\u{fffd}');
                out.errors.push(LexError {
                    kind: LexErrorKind::UnexpectedChar(c),
                    span: span_of(range.start, range.start + c.len_utf8()),
                });
                continue;
            }
        };
        match raw {
            Raw::Simple(tok) => out.tokens.push(Token {
                tok,
                span: span_of(range.start, range.end),
            }),
            Raw::Continuation | Raw::LineComment => {}
            Raw::BlockCommentOpen => {
                let rest = lexer.remainder();
                match scan::block_comment_len(rest) {
                    Some(len) => lexer.bump(len),
                    None => {
                        out.errors.push(LexError {
                            kind: LexErrorKind::UnterminatedBlockComment,
                            span: span_of(range.start, range.end),
                        });
                        lexer.bump(rest.len());
                    }
                }
            }
            Raw::Word => {
                let first_ascii = lexer.slice().is_ascii();
                let (len, rest_non_ascii) = scan::word_rest(lexer.remainder());
                lexer.bump(len);
                let word = lexer.slice();
                let range = lexer.span();
                // An ASCII word is all letters, digits and `_` by construction.
                if let Some(bad) = (rest_non_ascii || !first_ascii)
                    .then(|| word.chars().find(|c| !c.is_alphanumeric() && *c != '_'))
                    .flatten()
                {
                    let at = range.start + word.find(bad).unwrap_or(0);
                    out.errors.push(LexError {
                        kind: LexErrorKind::UnexpectedChar(bad),
                        span: span_of(at, at + bad.len_utf8()),
                    });
                    continue;
                }
                let tok = Keyword::word_tok(source.as_bytes(), range.start, word.len());
                out.tokens.push(Token {
                    tok,
                    span: span_of(range.start, range.end),
                });
            }
            Raw::Digit => {
                let text = &source[range.start..];
                let (number, len) = scan::number(text);
                let tok = match number {
                    Number::Int(_) => Tok::Int,
                    Number::Float(_) => Tok::Float,
                    Number::Duration(_) => Tok::Duration,
                };
                lexer.bump(len - 1);
                out.tokens.push(Token {
                    tok,
                    span: span_of(range.start, range.start + len),
                });
            }
            Raw::Quote | Raw::RQuote => {
                let scanned = if raw == Raw::RQuote {
                    scan::raw_string(source, range.start)
                } else if lexer.remainder().starts_with("\"\"") {
                    scan::triple_string(source, range.start)
                } else {
                    scan::string(source, range.start)
                };
                lexer.bump(scanned.end - range.end);
                for (kind, start, end) in scanned.errors {
                    out.errors.push(LexError {
                        kind,
                        span: span_of(start, end),
                    });
                }
                if let Some(lit) = scanned.lit {
                    let tok = if raw == Raw::RQuote {
                        Tok::RawStr
                    } else if lit.has_holes() {
                        Tok::IStr(0)
                    } else {
                        Tok::Str
                    };
                    out.tokens.push(Token {
                        tok,
                        span: span_of(range.start, scanned.end),
                    });
                }
            }
        }
    }
    out
}

/// The value of the number or duration literal token at `span` in `source`, the text the
/// token's span points into (scanned again: numbers are a small share of tokens, and
/// keeping their values out of the tokens halves every token's size). Zero when no
/// number starts there.
#[inline(never)]
pub fn number_value(source: &str, span: Span) -> Number {
    match source.get(span.start as usize..) {
        Some(text) if text.starts_with(|c: char| c.is_ascii_digit()) => scan::number(text).0,
        _ => Number::Int(0),
    }
}

/// The value of the string literal token at `span` in `source`, the text the token's
/// span points into (for a token of an interpolation hole, the whole file). Each hole's
/// offset is a byte offset into `source`. `None` when no string literal starts there.
pub fn string_value(source: &str, span: Span) -> Option<StrValue> {
    Some(literal_at(source, span)?.into_value(source))
}

/// The text of the string literal without holes at `span` in `source`, as a tree
/// [`Name`]: a literal of up to 23 bytes without escapes (nearly every literal of a
/// snippet) is copied inline, with no allocation. `None` when no string literal starts
/// there or the literal has holes.
pub fn string_name(source: &str, span: Span) -> Option<Name> {
    // The common literal, `"text"` with no escape and no `$`, is its span less the
    // quotes: no second scan. Anything else (escapes, holes, raw and triple-quoted
    // literals) is scanned again.
    if let Some(inner) = source
        .get(span.range())
        .and_then(|text| text.strip_prefix('"')?.strip_suffix('"'))
        && !inner.bytes().any(|b| matches!(b, b'"' | b'\\' | b'$'))
    {
        return Some(name_of(inner));
    }
    match literal_at(source, span)? {
        scan::Literal::Slice(start, end) => Some(name_of(source.get(start..end)?)),
        scan::Literal::Value(StrValue::Text(text)) => Some(Name::from(text)),
        scan::Literal::Value(StrValue::Segments(_)) => None,
    }
}

/// The string literal (plain, raw or triple-quoted) that starts at `span`, scanned.
fn literal_at(source: &str, span: Span) -> Option<scan::Literal> {
    let start = span.start as usize;
    let rest = source.get(start..)?;
    let scanned = if rest.starts_with("r\"") {
        scan::raw_string(source, start)
    } else if rest.starts_with("\"\"\"") {
        scan::triple_string(source, start)
    } else if rest.starts_with('"') {
        scan::string(source, start)
    } else {
        return None;
    };
    scanned.lit
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// The name read straight from a plain literal's span is the one the scan gives, and
    /// every other literal still goes through the scan.
    #[test]
    fn string_names_agree_with_the_scan() {
        let literals = [
            r#""""#,
            r#""plain""#,
            r#""héllo wörld, a longer literal than a name holds inline""#,
            r#""cost: $5""#,
            r#""a\"b""#,
            r#""tab\there""#,
            r#""hole ${x}""#,
            r#"r"raw \n""#,
            r#""""triple""""#,
            r#""""""""#,
        ];
        for literal in literals {
            let source = format!("x = {literal} + 1");
            let token = lex(&source)
                .tokens
                .into_iter()
                .find(|t| matches!(t.tok, Tok::Str | Tok::RawStr | Tok::IStr(_)))
                .unwrap();
            let scanned = match literal_at(&source, token.span).unwrap() {
                scan::Literal::Slice(start, end) => Some(name_of(&source[start..end])),
                scan::Literal::Value(StrValue::Text(text)) => Some(Name::from(text)),
                scan::Literal::Value(StrValue::Segments(_)) => None,
            };
            assert_eq!(string_name(&source, token.span), scanned, "{literal}");
        }
    }
}
