//! The layout pass between the lexer and the parser.
//!
//! Harn's grammar is newline-sensitive in ways that are easiest to settle on the token
//! stream, before the grammar sees it:
//!
//! * a newline inside `(...)` or `[...]`, after a binary operator, or before a line that
//!   starts with a continuation operator (`|>`, `.`, `+`, ...), or after a `:` or `,`,
//!   does not end a statement,
//!   so it is dropped; runs of newlines collapse into one;
//! * `{` is classified: it opens a closure iff a `->` appears at its own brace depth
//!   before its matching `}`;
//! * `?` is classified as ternary, optional subscript, or postfix Result operator by the
//!   token that follows it;
//! * `try` written directly before `*` becomes `try*`;
//! * nesting is measured (brackets plus operator chains), and input nested deeper than
//!   [`MAX_NESTING`] is refused before the recursive parser ever sees it, so no input can
//!   exhaust the stack.

use crate::ast::Span;
use crate::lexer::{Keyword, Tok, Token};

/// Deepest nesting the parser accepts (`language.md` 3.7).
pub const MAX_NESTING: usize = 256;

/// Output of [`layout`].
pub struct Layout {
    pub tokens: Vec<Token>,
    /// Where nesting first went past [`MAX_NESTING`]; the tokens stop there.
    pub too_deep: Option<Span>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bracket {
    Paren,
    Square,
    Brace,
}

/// Tokens that deepen the syntax tree without opening a bracket.
fn chains(tok: &Tok) -> bool {
    matches!(
        tok,
        Tok::Plus
            | Tok::Minus
            | Tok::Star
            | Tok::Slash
            | Tok::Percent
            | Tok::StarStar
            | Tok::EqEq
            | Tok::NotEq
            | Tok::Lt
            | Tok::Gt
            | Tok::Le
            | Tok::Ge
            | Tok::AndAnd
            | Tok::OrOr
            | Tok::Coalesce
            | Tok::PipeOp
            | Tok::Bang
            | Tok::Dot
            | Tok::QuestionDot
            | Tok::Question
            | Tok::QuestionTernary
            | Tok::QuestionIndex
            | Tok::TryStar
            | Tok::DotDot
            | Tok::DotDotEq
            | Tok::Kw(Keyword::In | Keyword::Else | Keyword::To)
    )
}

/// Tracks an upper bound of the syntax-tree depth at the current token.
struct DepthMeter {
    /// Operator-chain length in each open bracket (index 0 is the top level).
    frames: Vec<usize>,
    chain_total: usize,
}

impl DepthMeter {
    fn depth(&self) -> usize {
        self.frames.len() - 1 + self.chain_total
    }

    fn step(&mut self, tok: &Tok) -> usize {
        match tok {
            Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::ClosureBrace => self.frames.push(0),
            Tok::RParen | Tok::RBracket | Tok::RBrace if self.frames.len() > 1 => {
                let chain = self.frames.pop().unwrap_or(0);
                self.chain_total -= chain;
                // A closed call or subscript is a link of the enclosing chain: `a[0][0]…`
                // and `f()()…` nest in the tree like `a.b.c…` does.
                if !matches!(tok, Tok::RBrace)
                    && let Some(top) = self.frames.last_mut()
                {
                    *top += 1;
                    self.chain_total += 1;
                }
            }
            Tok::Newline | Tok::Semi | Tok::Comma => {
                if let Some(top) = self.frames.last_mut() {
                    self.chain_total -= *top;
                    *top = 0;
                }
            }
            t if chains(t) => {
                if let Some(top) = self.frames.last_mut() {
                    *top += 1;
                    self.chain_total += 1;
                }
            }
            _ => {}
        }
        self.depth()
    }
}

/// Tokens that may appear inside a type-argument list `<...>`.
fn may_appear_in_type(tok: &Tok) -> bool {
    matches!(
        tok,
        Tok::Ident
            | Tok::Comma
            | Tok::Lt
            | Tok::Gt
            | Tok::Bar
            | Tok::LBracket
            | Tok::RBracket
            | Tok::LBrace
            | Tok::RBrace
            | Tok::Colon
            | Tok::Question
            | Tok::Str
            | Tok::Int
            | Tok::LParen
            | Tok::RParen
            | Tok::Arrow
            | Tok::Minus
            | Tok::Newline
            | Tok::Kw(Keyword::Fn | Keyword::Nil | Keyword::True | Keyword::False | Keyword::In)
    )
}

/// If the `<` at `raw[at]` opens a type-argument list (`list<int>`: it follows a name),
/// the index of the `>` that closes it. A line break after that `>` ends the statement,
/// while one after a comparison `>` continues the expression. Scans at most 256 tokens.
fn type_closer(raw: &[Token], at: usize) -> Option<usize> {
    const MAX_SCAN: usize = 256;
    let mut depth = 0usize;
    for (j, t) in raw.iter().enumerate().skip(at).take(MAX_SCAN) {
        match &t.tok {
            Tok::Lt => depth += 1,
            Tok::Gt => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            t if may_appear_in_type(t) => {}
            _ => return None,
        }
    }
    None
}

/// Runs the layout pass. `base_depth` is the nesting already in effect (for the holes of
/// an interpolated string).
pub fn layout(mut raw: Vec<Token>, base_depth: usize) -> Layout {
    // The output is written over the input, in place: the pass only drops tokens or merges
    // two into one, so the write position `out` never passes the read position `i`, and
    // every slot below `i` has already been read.
    let mut out = 0usize;
    let mut brackets: Vec<Bracket> = Vec::new();
    let mut open_braces: Vec<usize> = Vec::new();
    let mut meter = DepthMeter {
        frames: vec![0],
        chain_total: base_depth,
    };
    // Indices of the `>`s found to close a type-argument list (see [`type_closer`]); the
    // raw tokens from the read position on are intact, so each is found when its `<` is
    // read. Usually empty (no allocation).
    let mut closers: Vec<usize> = Vec::new();
    // The raw token before the one being read (a `<` opens type arguments only right
    // after a name).
    let mut prev_raw = Tok::Newline;
    // The last token written, if any (`Newline` stands for none: both let a line break
    // go).
    let mut last = Tok::Newline;
    // Whether the last token emitted ends an operand even though it looks like an
    // operator: a type-closing `>`, or a keyword used as a member name (`op.in`).
    let mut ends_operand = false;
    // Writes a token to the output (over a slot already read).
    macro_rules! emit {
        ($tok:expr, $span:expr) => {
            if let Some(slot) = raw.get_mut(out) {
                *slot = Token {
                    tok: $tok,
                    span: $span,
                };
                out += 1;
                last = $tok;
            }
        };
    }
    let mut i = 0;
    while let Some(&Token { mut tok, mut span }) = raw.get(i) {
        i += 1;
        let before = std::mem::replace(&mut prev_raw, tok);
        // Names and literals, about half of all tokens, change nothing but the last
        // token: no bracket, chain or classification. The depth they leave is the one the
        // token before them was checked at (`out > 0`), so they are copied straight
        // through.
        if out > 0 && tok.is_atom() {
            ends_operand = false;
            emit!(tok, span);
            continue;
        }
        match tok {
            Tok::Newline => {
                let inside_group =
                    matches!(brackets.last(), Some(Bracket::Paren | Bracket::Square));
                // A line never ends in `:` (a dict key, a type annotation, the ternary's
                // else) or `,` (`require cond,` before its message), so what follows
                // continues on the next line.
                let after_continuation =
                    matches!(last, Tok::Newline | Tok::Semi | Tok::Colon | Tok::Comma)
                        || (last.continues_after() && !ends_operand);
                if inside_group || after_continuation {
                    continue;
                }
                let next = raw[i..].iter().find(|t| !matches!(t.tok, Tok::Newline));
                if next.is_some_and(|t| t.tok.continues_before()) {
                    continue;
                }
            }
            Tok::Kw(Keyword::Try) => {
                if let Some(next) = raw.get(i)
                    && matches!(next.tok, Tok::Star)
                    && next.span.start == span.end
                {
                    tok = Tok::TryStar;
                    span = span.to(next.span);
                    i += 1;
                }
            }
            Tok::Question => {
                tok = match raw.get(i).map(|t| &t.tok) {
                    Some(Tok::LBracket) => Tok::QuestionIndex,
                    Some(next) if next.starts_operand() => Tok::QuestionTernary,
                    _ => Tok::Question,
                };
            }
            Tok::LParen => brackets.push(Bracket::Paren),
            Tok::LBracket => brackets.push(Bracket::Square),
            Tok::LBrace => {
                brackets.push(Bracket::Brace);
                open_braces.push(out);
            }
            Tok::RParen | Tok::RBracket => {
                brackets.pop();
            }
            Tok::RBrace => {
                brackets.pop();
                open_braces.pop();
            }
            Tok::Lt if before == Tok::Ident => {
                if let Some(at) = type_closer(&raw, i - 1) {
                    closers.push(at);
                }
            }
            Tok::Arrow => {
                if let Some(&at) = open_braces.last()
                    && let Some(t) = raw.get_mut(at)
                {
                    t.tok = Tok::ClosureBrace;
                }
            }
            _ => {}
        }
        let depth = meter.step(&tok);
        if depth > MAX_NESTING {
            raw.truncate(out);
            return Layout {
                tokens: raw,
                too_deep: Some(span),
            };
        }
        ends_operand = match tok {
            Tok::IStr(_) => {
                tok = Tok::IStr(u16::try_from(depth + 1).unwrap_or(u16::MAX));
                false
            }
            Tok::Gt => closers.contains(&(i - 1)),
            Tok::Kw(_) => matches!(last, Tok::Dot | Tok::QuestionDot),
            _ => false,
        };
        emit!(tok, span);
    }
    raw.truncate(out);
    Layout {
        tokens: raw,
        too_deep: None,
    }
}
