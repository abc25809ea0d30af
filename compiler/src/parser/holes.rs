//! String interpolation holes (`language.md` 3.5).
//!
//! The lexer keeps each `${...}` hole as raw text. Here each hole is lexed and parsed in
//! three steps that mirror the reference: a hole that does not lex becomes the empty
//! string; otherwise one expression is parsed from its start and anything after it is
//! ignored; a hole in which no expression can be parsed is inserted as its raw text.

use chumsky::input::Emitter;
use chumsky::prelude::*;

use super::{Leading, parse_leading_expr};
use crate::ast::{ExprKind, StrPart};
use crate::layout::{MAX_NESTING, layout};
use crate::lexer::{StrSeg, Tok, lex_fragment};

pub(crate) const TOO_DEEP: &str = "=Nesting too deep (limit 256)";

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

pub(crate) fn interpolate(
    segs: Vec<StrSeg>,
    span: SimpleSpan,
    emitter: &mut Emitter<Rich<'_, Tok, SimpleSpan>>,
) -> ExprKind {
    let mut parts = Vec::new();
    for seg in segs {
        match seg {
            StrSeg::Text(text) => push_text(&mut parts, &text),
            StrSeg::Hole {
                text,
                offset,
                depth,
            } => {
                let depth = usize::from(depth);
                if depth > MAX_NESTING {
                    emitter.emit(Rich::custom(span, TOO_DEEP));
                    continue;
                }
                let lexed = lex_fragment(&text, offset);
                if !lexed.errors.is_empty() {
                    continue;
                }
                let laid = layout(lexed.tokens, depth);
                if let Some(at) = laid.too_deep {
                    let at = SimpleSpan::from(at.start as usize..at.end as usize);
                    emitter.emit(Rich::custom(at, TOO_DEEP));
                    continue;
                }
                let eoi = offset as usize + text.len();
                match parse_leading_expr(&laid.tokens, eoi) {
                    Leading::Expr(expr) => parts.push(StrPart::Expr(expr)),
                    Leading::Nothing => push_text(&mut parts, &text),
                    Leading::TooDeep => emitter.emit(Rich::custom(span, TOO_DEEP)),
                }
            }
        }
    }
    ExprKind::InterpStr(parts)
}
