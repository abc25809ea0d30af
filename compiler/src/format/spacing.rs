//! Whether one space goes between two pieces on a line. A rule decides where the style
//! is fixed (after a comma, around `=` and binary operators, none inside brackets or
//! before `(` of a call); elsewhere the source's choice is kept. A space is only
//! removed where the two texts lex back to the same two tokens, and only added where
//! adjacency carries no meaning (`try*`, `?[` keep theirs).

use crate::lexer::{Keyword, Tok};

use super::joins_safely;
use super::lines::{Piece, PieceKind};

/// What the style asks for between two tokens.
enum Want {
    Space,
    NoSpace,
    /// The source's choice.
    Keep,
}

fn binary_operator(t: &Tok) -> bool {
    matches!(
        t,
        Tok::Assign
            | Tok::EqEq
            | Tok::NotEq
            | Tok::Le
            | Tok::Ge
            | Tok::Plus
            | Tok::Star
            | Tok::Slash
            | Tok::Percent
            | Tok::StarStar
            | Tok::AndAnd
            | Tok::OrOr
            | Tok::PipeOp
            | Tok::Coalesce
            | Tok::PlusEq
            | Tok::MinusEq
            | Tok::StarEq
            | Tok::SlashEq
            | Tok::PercentEq
            | Tok::Arrow
    )
}

/// A `-` or `!` is a prefix when what comes before it cannot end an operand.
fn is_prefix_position(before: Option<&Tok>) -> bool {
    before.is_none_or(|t| !t.ends_operand())
}

/// A callee or indexed value, so a following `(` is a call (numbers keep their space).
fn calls_on_paren(t: &Tok) -> bool {
    matches!(
        t,
        Tok::Ident | Tok::RParen | Tok::RBracket | Tok::Str | Tok::IStr(_) | Tok::RawStr
    )
}

fn want(before: Option<&Tok>, a: &Tok, b: &Tok) -> Want {
    use Want::{Keep, NoSpace, Space};
    match (a, b) {
        // Adjacency changes the tokens here.
        (Tok::Kw(Keyword::Try), Tok::Star) | (Tok::Question, Tok::LBracket) => Keep,
        (_, Tok::Comma | Tok::Semi | Tok::RParen | Tok::RBracket) | (Tok::Comma, Tok::RBrace) => {
            NoSpace
        }
        (Tok::LParen | Tok::LBracket, _) => NoSpace,
        (Tok::Comma | Tok::Semi, _) => Space,
        (Tok::Dot | Tok::QuestionDot, _) | (_, Tok::Dot | Tok::QuestionDot) => {
            // `1 .x` would lex as a float; keep whatever the source did after numbers.
            if matches!(a, Tok::Int | Tok::Float) {
                Keep
            } else {
                NoSpace
            }
        }
        (Tok::Ellipsis, _) | (Tok::At, _) => NoSpace,
        (Tok::Kw(Keyword::Fn), Tok::LParen) => NoSpace,
        (a, Tok::LParen) if calls_on_paren(a) => NoSpace,
        // `- -1` must not become `--1`.
        (Tok::Minus | Tok::Bang, Tok::Minus | Tok::Bang) => Keep,
        (Tok::Minus | Tok::Bang, _) if is_prefix_position(before) => NoSpace,
        // A binary minus (a prefix one was handled above).
        (Tok::Minus, _) => Space,
        (a, Tok::Minus) if a.ends_operand() => Space,
        (a, _) if binary_operator(a) => Space,
        (_, b) if binary_operator(b) => Space,
        (_, Tok::Minus) => Keep,
        // A block or literal after a name, a keyword or a closing bracket.
        (
            Tok::Ident | Tok::Kw(_) | Tok::RParen | Tok::RBracket,
            Tok::LBrace | Tok::ClosureBrace,
        ) => Space,
        _ => Keep,
    }
}

/// Whether a space goes between `a` and `b` (`before` precedes `a`).
pub fn space_between(before: Option<&Piece>, a: &Piece, b: &Piece, in_square: bool) -> bool {
    match (&a.kind, &b.kind) {
        (PieceKind::Continuation, _) => false,
        (_, PieceKind::LineComment | PieceKind::Continuation) => true,
        (PieceKind::BlockComment, _) | (_, PieceKind::BlockComment) => b.space_before,
        (PieceKind::Tok(ta), PieceKind::Tok(tb)) => {
            let wanted = match (ta, tb) {
                // `name: value`, `x: int`; a slice's `[a:b]` keeps the source's choice.
                (Tok::Colon, _) if !in_square => Want::Space,
                (_, Tok::Colon) if !in_square && !b.space_before => Want::NoSpace,
                _ => want(before.and_then(Piece::tok), ta, tb),
            };
            let decided = match wanted {
                Want::Space => true,
                Want::NoSpace => false,
                Want::Keep => b.space_before,
            };
            if !decided && b.space_before && !joins_safely(&a.text, &b.text, ta, tb) {
                return true;
            }
            decided
        }
        _ => b.space_before,
    }
}
