//! `harnc fmt`: the formatter.
//!
//! It rewrites only the whitespace between tokens. Token texts (strings of every kind,
//! numbers, durations) and comments are copied from the source; newlines that end
//! statements are kept where they are (blank-line runs collapse to one); indentation
//! follows bracket nesting; spacing inside a line follows fixed rules; a line longer
//! than the width is broken inside its first bracketed list (call arguments, list or
//! dict literal), where the layout pass ignores newlines. The syntax tree says which
//! `{` opens a dict. Every result is checked before it is returned: it must parse to
//! the same tree as the input, spans aside, or the file is left alone with an error.
//! Formatting twice gives the same text, because no rule depends on anything the
//! first pass changes except whitespace it then reproduces.

mod lines;
mod spacing;
#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests;

use std::collections::HashSet;
use std::fmt;

use crate::ast::{ExprKind, Program};
use crate::diagnostic::Diagnostic;
use crate::lexer::{Tok, lex};
use crate::{ast_dump, parse};

pub use lines::Piece;

/// How to format.
#[derive(Clone, Copy, Debug)]
pub struct FormatOptions {
    /// Lines longer than this are broken where the grammar allows.
    pub width: usize,
}

impl Default for FormatOptions {
    fn default() -> Self {
        FormatOptions { width: 100 }
    }
}

/// Why a text was not formatted.
#[derive(Clone, Debug)]
pub enum FormatError {
    /// The text has syntax errors (nothing is rewritten).
    Syntax(Vec<Diagnostic>),
    /// The formatted text would not mean the same (a formatter bug, caught before any
    /// write): the input is left alone.
    Unstable(String),
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Syntax(d) => match d.first() {
                Some(first) => write!(f, "syntax error: {}", first.message),
                None => f.write_str("syntax error"),
            },
            FormatError::Unstable(m) => write!(f, "not formatted: {m}"),
        }
    }
}

/// The tree without spans, for comparing a program with its formatted self.
fn shape(program: &Program) -> String {
    let dump = ast_dump::dump(program);
    let mut out = String::with_capacity(dump.len());
    let mut rest = dump.as_str();
    while let Some(at) = rest.find('@') {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 1..];
        let skip = tail
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(tail.len());
        rest = &tail[skip..];
    }
    out.push_str(rest);
    out
}

/// Byte offsets of every `{` that opens a dict or struct literal (where a line break
/// between entries is allowed).
fn dict_braces(program: &Program) -> HashSet<u32> {
    let mut out = HashSet::new();
    crate::ast_walk::walk_exprs(&program.items, &mut |e| {
        if matches!(e.kind, ExprKind::Dict(_)) {
            out.insert(e.span.start);
        }
    });
    out
}

/// Formats `source`.
pub fn format_source(source: &str, options: &FormatOptions) -> Result<String, FormatError> {
    let parsed = parse(source);
    if parsed.has_errors() {
        let errors = parsed
            .diagnostics
            .into_iter()
            .filter(|d| d.is_error())
            .collect();
        return Err(FormatError::Syntax(errors));
    }
    let dicts = dict_braces(&parsed.program);
    let (shebang, body) = match source.strip_prefix("#!") {
        Some(_) => {
            let end = source.find('\n').map_or(source.len(), |i| i + 1);
            source.split_at(end)
        }
        None => ("", source),
    };
    let base = shebang.len();
    let tokens = lex(source).tokens;
    let pieces = lines::pieces(source, base, &tokens, &dicts);
    let mut out = String::from(shebang);
    if !shebang.is_empty() && !shebang.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&lines::render(&pieces, options.width));
    let _ = body;
    let reparsed = parse(&out);
    if reparsed.has_errors() {
        let first = reparsed.first_error().unwrap_or("a syntax error");
        return Err(FormatError::Unstable(format!(
            "the formatted text does not parse ({first})"
        )));
    }
    if shape(&reparsed.program) != shape(&parsed.program) {
        return Err(FormatError::Unstable(
            "the formatted text parses to a different tree".into(),
        ));
    }
    Ok(out)
}

/// Whether two adjacent token texts lex back to exactly these two tokens (so the
/// space between them can go).
pub(crate) fn joins_safely(a: &str, b: &str, ta: &Tok, tb: &Tok) -> bool {
    let joined = format!("{a}{b}");
    let lexed = lex(&joined);
    lexed.errors.is_empty()
        && lexed.tokens.len() == 2
        && lexed.tokens[0].tok == *ta
        && lexed.tokens[1].tok == *tb
}
