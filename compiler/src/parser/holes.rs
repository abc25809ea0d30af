//! String interpolation holes (`language.md` 3.5).
//!
//! The lexer keeps each `${...}` hole as raw text. Here each hole is lexed and parsed in
//! three steps that mirror the reference: a hole that does not lex becomes the empty
//! string; otherwise one expression is parsed from its start and anything after it is
//! ignored; a hole in which no expression can be parsed is inserted as its raw text.

use super::{Fail, Parser};
use crate::ast::{ExprKind, Span, StrPart};
use crate::layout::{MAX_NESTING, layout};
use crate::lexer::{StrSeg, lex_fragment};

const TOO_DEEP: &str = "Nesting too deep (limit 256)";

fn push_text(parts: &mut Vec<StrPart>, text: &str) {
    if text.is_empty() {
        return;
    }
    if let Some(StrPart::Lit(last)) = parts.last_mut() {
        last.push_str(text);
    } else {
        parts.push(StrPart::Lit(text.to_string()));
    }
}

fn too_deep(span: Span) -> Fail {
    Fail::Message {
        message: TOO_DEEP.into(),
        span,
    }
}

/// Builds the parts of an interpolated string token at `span`. Nesting errors are
/// recorded on `outer`; nothing else in a hole is an error.
pub(crate) fn interpolate(
    outer: &mut Parser<'_>,
    segs: &[StrSeg],
    depth: u16,
    span: Span,
) -> ExprKind {
    let depth = usize::from(depth);
    let mut parts = Vec::new();
    for seg in segs {
        match seg {
            StrSeg::Text(text) => push_text(&mut parts, text),
            StrSeg::Hole { text, offset } => {
                if depth > MAX_NESTING {
                    outer.record(too_deep(span));
                    continue;
                }
                let lexed = lex_fragment(text, *offset);
                if !lexed.errors.is_empty() {
                    continue;
                }
                let laid = layout(lexed.tokens, depth);
                if let Some(at) = laid.too_deep {
                    outer.record(too_deep(at));
                    continue;
                }
                let eoi = *offset as usize + text.len();
                let mut inner = Parser::new(&laid.tokens, outer.src, eoi);
                let expr = inner.deep(|p| p.leading_expr());
                let nested_too_deep = inner
                    .errors
                    .iter()
                    .any(|f| matches!(f, Fail::Message { message, .. } if message == TOO_DEEP));
                if nested_too_deep {
                    outer.record(too_deep(span));
                    continue;
                }
                match expr {
                    Some(e) => parts.push(StrPart::Expr(e)),
                    None => push_text(&mut parts, text),
                }
            }
        }
    }
    ExprKind::InterpStr(parts)
}
