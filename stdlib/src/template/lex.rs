//! Splitting a template into literal text and directive bodies. Comments (`{{# #}}`)
//! are dropped here, `{{ raw }}` blocks become text, and the trim markers (`{{-`, `-}}`)
//! are applied to the neighbouring text, so the parser sees only text and directives.

use harn_vm::VmError;

use super::{At, fail};

pub(super) enum Token {
    /// Literal text, already trimmed by any adjacent trim markers.
    Text(String),
    /// The body of a `{{ ... }}` directive (markers and surrounding whitespace removed)
    /// and where its `{{` stands.
    Directive { body: String, at: At },
}

/// Line and column (both from 1, columns in characters) of byte offsets visited in
/// increasing order, so a template with many directives is scanned once.
struct Lines<'a> {
    src: &'a str,
    offset: usize,
    at: At,
}

impl Lines<'_> {
    fn at(&mut self, offset: usize) -> At {
        let end = offset.min(self.src.len());
        if end > self.offset {
            for ch in self.src.get(self.offset..end).unwrap_or("").chars() {
                if ch == '\n' {
                    self.at.line += 1;
                    self.at.col = 1;
                } else {
                    self.at.col += 1;
                }
            }
            self.offset = end;
        }
        self.at
    }
}

fn find_from(s: &str, from: usize, pat: &str) -> Option<usize> {
    s.get(from..)?.find(pat).map(|i| i + from)
}

/// The offset of the `}}` closing a directive whose body starts at `start`, skipping
/// quoted strings (so `"}}"` inside a literal does not close it), and whether a `-`
/// trim marker stands right before it.
fn directive_close(s: &str, start: usize) -> Option<(usize, bool)> {
    let bytes = s.as_bytes();
    let mut i = start;
    let mut quote: Option<u8> = None;
    while i + 1 < bytes.len() {
        let b = bytes[i];
        if let Some(q) = quote {
            if b == b'\\' {
                i += 2;
                continue;
            }
            if b == q {
                quote = None;
            }
        } else if b == b'"' || b == b'\'' {
            quote = Some(b);
        } else if b == b'}' && bytes[i + 1] == b'}' {
            return Some((i, i > start && bytes[i - 1] == b'-'));
        }
        i += 1;
    }
    None
}

/// Whether the directive body starting at `start` is the `raw` keyword; the offset just
/// past the keyword when it is.
fn raw_keyword(s: &str, start: usize) -> Option<usize> {
    let rest = s.get(start..)?;
    let trimmed = rest.trim_start_matches([' ', '\t']);
    let kw = start + (rest.len() - trimmed.len());
    let after = trimmed.strip_prefix("raw")?;
    let ends = after.is_empty()
        || after.starts_with([' ', '\t', '\n', '\r'])
        || after.starts_with("}}")
        || after.starts_with("-}}");
    ends.then_some(kw + 3)
}

/// The `{{ endraw }}` closing a raw block whose content starts at `from`: the offsets
/// of its `{{` and just past its `}}`. Raw content is not scanned for quotes.
fn endraw(s: &str, from: usize) -> Option<(usize, usize)> {
    let mut cursor = from;
    while let Some(open) = find_from(s, cursor, "{{") {
        let rest = s.get(open + 2..).unwrap_or("");
        let body = rest.strip_prefix('-').unwrap_or(rest).trim_start();
        if let Some(after) = body.strip_prefix("endraw") {
            let after = after.trim_start();
            let after = after.strip_prefix('-').unwrap_or(after);
            if after.starts_with("}}") {
                let close = s.len() - after.len() + 2;
                return Some((open, close));
            }
        }
        cursor = open + 2;
    }
    None
}

/// Drops leading spaces and tabs, then one line break (what a `-}}` removes after it).
fn trim_leading_line(s: &str) -> &str {
    let t = s.trim_start_matches([' ', '\t']);
    t.strip_prefix("\r\n")
        .or_else(|| t.strip_prefix('\n'))
        .or_else(|| t.strip_prefix('\r'))
        .unwrap_or(t)
}

/// Drops trailing spaces and tabs, then one line break (what a `{{-` removes before it).
fn trim_trailing_line(s: &str) -> &str {
    let t = s.trim_end_matches([' ', '\t']);
    match t.strip_suffix('\n') {
        Some(u) => u.strip_suffix('\r').unwrap_or(u),
        None => t,
    }
}

pub(super) fn tokenize(src: &str) -> Result<Vec<Token>, VmError> {
    let bytes = src.as_bytes();
    let mut lines = Lines {
        src,
        offset: 0,
        at: At { line: 1, col: 1 },
    };
    let mut tokens = Vec::new();
    let mut cursor = 0;
    let mut trim_next = false;
    while cursor < src.len() {
        let open = find_from(src, cursor, "{{");
        let text_end = open.unwrap_or(src.len());
        let trim_before = open.is_some_and(|o| bytes.get(o + 2) == Some(&b'-'));
        let mut text = src.get(cursor..text_end).unwrap_or("");
        if std::mem::take(&mut trim_next) {
            text = trim_leading_line(text);
        }
        if trim_before {
            text = trim_trailing_line(text);
        }
        if !text.is_empty() {
            tokens.push(Token::Text(text.to_owned()));
        }
        let Some(open) = open else { break };
        let at = lines.at(open);
        let body_start = open + 2 + usize::from(trim_before);

        if bytes.get(body_start) == Some(&b'#') {
            let close = find_from(src, body_start + 1, "#}}")
                .ok_or_else(|| fail(at, "unterminated comment"))?;
            cursor = close + 3;
            continue;
        }

        if let Some(kw_end) = raw_keyword(src, body_start) {
            let (close, _) =
                directive_close(src, kw_end).ok_or_else(|| fail(at, "unterminated directive"))?;
            let content_start = close + 2;
            let (end_open, end_close) = endraw(src, content_start)
                .ok_or_else(|| fail(at, "unterminated `{{ raw }}` block"))?;
            let content = src.get(content_start..end_open).unwrap_or("");
            if !content.is_empty() {
                tokens.push(Token::Text(content.to_owned()));
            }
            cursor = end_close;
            continue;
        }

        let (close, trim_after) =
            directive_close(src, body_start).ok_or_else(|| fail(at, "unterminated directive"))?;
        let body_end = if trim_after { close - 1 } else { close };
        let body = src.get(body_start..body_end).unwrap_or("").trim();
        tokens.push(Token::Directive {
            body: body.to_owned(),
            at,
        });
        cursor = close + 2;
        trim_next = trim_after;
    }
    Ok(tokens)
}
