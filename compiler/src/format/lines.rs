//! The formatter's two steps: the source as a flat list of pieces (tokens, comments,
//! line continuations, newlines, each with whether whitespace preceded it), and the
//! rendering of that list into indented lines, breaking over-long ones.

use std::collections::HashSet;

use crate::lexer::{Tok, Token};

use super::spacing::space_between;

/// What a piece is.
#[derive(Clone, Debug, PartialEq)]
pub enum PieceKind {
    Tok(Tok),
    LineComment,
    BlockComment,
    /// `\` at the end of a line: the next line continues this one.
    Continuation,
    Newline,
}

/// One piece of the source, its text copied verbatim.
#[derive(Clone, Debug)]
pub struct Piece {
    pub kind: PieceKind,
    pub text: String,
    /// Whitespace stood between this piece and the one before it.
    pub space_before: bool,
    /// A `{` that opens a dict literal.
    pub dict_open: bool,
}

impl Piece {
    pub fn tok(&self) -> Option<&Tok> {
        match &self.kind {
            PieceKind::Tok(t) => Some(t),
            _ => None,
        }
    }

    fn is_opener(&self) -> bool {
        matches!(
            self.tok(),
            Some(Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::ClosureBrace)
        )
    }

    fn is_closer(&self) -> bool {
        matches!(self.tok(), Some(Tok::RParen | Tok::RBracket | Tok::RBrace))
    }

    fn newline() -> Piece {
        Piece {
            kind: PieceKind::Newline,
            text: String::new(),
            space_before: false,
            dict_open: false,
        }
    }
}

/// Splits the comments and continuations out of the text between two tokens.
fn gap(text: &str, out: &mut Vec<Piece>) -> bool {
    let mut space = false;
    let mut rest = text;
    while !rest.is_empty() {
        let trimmed = rest.trim_start_matches([' ', '\t', '\r', '\x0C']);
        if trimmed.len() != rest.len() {
            space = true;
        }
        rest = trimmed;
        let (kind, len) = if rest.starts_with("//") {
            (
                PieceKind::LineComment,
                rest.find('\n').unwrap_or(rest.len()),
            )
        } else if rest.starts_with("/*") {
            (PieceKind::BlockComment, block_comment_len(rest))
        } else if rest.starts_with('\\') {
            let len = rest.find('\n').map_or(rest.len(), |i| i + 1);
            (PieceKind::Continuation, len)
        } else if rest.is_empty() {
            break;
        } else {
            // Nothing else lives between tokens; keep it rather than lose it.
            let len = rest.chars().next().map_or(1, char::len_utf8);
            (PieceKind::BlockComment, len)
        };
        out.push(Piece {
            kind,
            text: rest[..len].trim_end_matches(['\r', '\n']).to_string(),
            space_before: space,
            dict_open: false,
        });
        rest = &rest[len..];
        space = false;
    }
    space
}

/// Length of the (nested) block comment at the start of `text`.
fn block_comment_len(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] == b'/' && bytes[i + 1] == b'*' {
            depth += 1;
            i += 2;
        } else if bytes[i] == b'*' && bytes[i + 1] == b'/' {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    text.len()
}

/// The pieces of `source` from byte `base` on.
pub fn pieces(source: &str, base: usize, tokens: &[Token], dicts: &HashSet<u32>) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut at = base;
    for t in tokens {
        let start = t.span.start as usize;
        if start < at {
            continue;
        }
        let space = gap(source.get(at..start).unwrap_or(""), &mut out);
        let kind = match &t.tok {
            Tok::Newline => PieceKind::Newline,
            other => PieceKind::Tok(*other),
        };
        out.push(Piece {
            kind,
            text: source.get(t.span.range()).unwrap_or("").to_string(),
            space_before: space,
            dict_open: t.tok.is_lbrace() && dicts.contains(&t.span.start),
        });
        at = t.span.end as usize;
    }
    gap(source.get(at..).unwrap_or(""), &mut out);
    out
}

/// One rendered line and where its pieces sit in the piece list.
struct Line {
    text: String,
    /// Index range of the line's pieces.
    first: usize,
    end: usize,
}

/// Renders the pieces, then breaks over-long lines until none can be broken.
pub fn render(pieces: &[Piece], width: usize) -> String {
    let mut pieces = pieces.to_vec();
    // Each round breaks one bracketed list per over-long line; nested lists need more
    // rounds. The bound only guards against a rule that would never settle.
    for _ in 0..64 {
        let lines = layout(&pieces);
        let mut breaks: Vec<usize> = Vec::new();
        for line in &lines {
            let first_row = line.text.split('\n').next().unwrap_or("");
            if first_row.chars().count() > width {
                breaks.extend(break_points(&pieces, line.first, line.end));
            }
        }
        if breaks.is_empty() {
            return join(&lines);
        }
        breaks.sort_unstable();
        breaks.dedup();
        for &at in breaks.iter().rev() {
            pieces.insert(at, Piece::newline());
        }
    }
    join(&layout(&pieces))
}

/// The lines joined, blank runs collapsed to one, no blank line at either end.
fn join(lines: &[Line]) -> String {
    let mut out = String::new();
    let mut blank = false;
    for line in lines {
        if line.text.is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if blank {
            out.push('\n');
            blank = false;
        }
        out.push_str(&line.text);
        out.push('\n');
    }
    out
}

/// Where to break the line of pieces `first..end`: inside its first bracketed list
/// (call arguments, parameters, a list or dict literal) that opens and closes on the
/// line and has more than one element. Newlines are insignificant there.
fn break_points(pieces: &[Piece], first: usize, end: usize) -> Vec<usize> {
    for open in first..end {
        let p = &pieces[open];
        let breakable = matches!(p.tok(), Some(Tok::LParen | Tok::LBracket))
            || (p.dict_open && p.tok().is_some_and(Tok::is_lbrace));
        if !breakable {
            continue;
        }
        let mut depth = 0usize;
        let mut commas = Vec::new();
        for (i, q) in pieces.iter().enumerate().take(end).skip(open + 1) {
            if q.is_opener() {
                depth += 1;
            } else if q.is_closer() {
                if depth == 0 {
                    if commas.is_empty() {
                        break;
                    }
                    let mut at = vec![open + 1];
                    // After each comma, unless the closer follows it directly.
                    at.extend(commas.iter().map(|c| c + 1).filter(|&c| c != i));
                    at.push(i);
                    return at;
                }
                depth -= 1;
            } else if depth == 0 && q.tok() == Some(&Tok::Comma) {
                commas.push(i);
            } else if matches!(q.kind, PieceKind::LineComment | PieceKind::Continuation) {
                break;
            }
        }
    }
    Vec::new()
}

const INDENT: &str = "  ";

/// Whether a line's last token carries the expression onto the next line. A keyword
/// after `.` is a member name (`op.in`), not an operator.
fn ends_continuing(line: &[Piece]) -> bool {
    let mut code = line
        .iter()
        .rev()
        .filter(|p| !matches!(p.kind, PieceKind::LineComment | PieceKind::BlockComment));
    let Some(last) = code.next().and_then(Piece::tok) else {
        return false;
    };
    let after_dot = code
        .next()
        .and_then(Piece::tok)
        .is_some_and(|t| matches!(t, Tok::Dot | Tok::QuestionDot));
    // `<` and `>` also close generic arguments (`list<int>` at a line end).
    !after_dot && last.continues_after() && !matches!(last, Tok::Lt | Tok::Gt)
}

/// Renders pieces into lines with indentation and spacing.
fn layout(pieces: &[Piece]) -> Vec<Line> {
    let mut lines = Vec::new();
    // Open brackets, each with the indent of the line that opened it.
    let mut stack: Vec<usize> = Vec::new();
    // For each open bracket, whether it is `[` (a slice's `:` keeps its spacing).
    let mut in_square: Vec<bool> = Vec::new();
    let mut previous_continues = false;
    let mut start = 0;
    while start <= pieces.len() {
        let end = pieces[start..]
            .iter()
            .position(|p| p.kind == PieceKind::Newline)
            .map_or(pieces.len(), |i| start + i);
        let line = &pieces[start..end];
        let mut text = String::new();
        if let Some(first) = line.first() {
            let mut indent = if first.is_closer() {
                stack.last().copied().unwrap_or(0)
            } else {
                stack.last().map_or(0, |i| i + 1)
            };
            let statement_indent = indent;
            let continues = first.tok().is_some_and(Tok::continues_before);
            if !first.is_closer() && (previous_continues || continues) {
                indent += 1;
            }
            let mut base = indent;
            let mut prev: Option<&Piece> = None;
            let mut before_prev: Option<&Piece> = None;
            for p in line {
                match prev {
                    None => text.push_str(&INDENT.repeat(indent)),
                    Some(q) => {
                        let square = in_square.last().copied().unwrap_or(false);
                        if space_between(before_prev, q, p, square) {
                            text.push(' ');
                        }
                    }
                }
                text.push_str(&p.text);
                if p.kind == PieceKind::Continuation {
                    text.push('\n');
                    text.push_str(&INDENT.repeat(indent + 1));
                }
                // A bracket opened after this line closed an earlier one belongs to
                // the line that opened that one: `fn f(a,\n  b) {` indents its body
                // from `fn`, not from `b`.
                // A block opened at the end of a continued header (`if a &&\n  b {`)
                // belongs to the statement, not to the continuation.
                let block = p.tok() == Some(&Tok::LBrace) && !p.dict_open;
                if p.is_opener() {
                    stack.push(if block && base == indent {
                        statement_indent
                    } else {
                        base
                    });
                    in_square.push(p.tok() == Some(&Tok::LBracket));
                } else if p.is_closer() {
                    in_square.pop();
                    base = stack.pop().unwrap_or(base);
                }
                before_prev = prev;
                prev = Some(p);
            }
            previous_continues = ends_continuing(line);
        }
        lines.push(Line {
            text,
            first: start,
            end,
        });
        start = end + 1;
    }
    lines
}
