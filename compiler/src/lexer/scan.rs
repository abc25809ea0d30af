//! Hand-written scanners for the lexical forms a regular automaton cannot handle:
//! numbers with duration suffixes, strings with nested `${...}` holes, triple-quoted
//! strings with indentation stripping, and nesting block comments.

use super::{LexErrorKind, Number, StrSeg, StrValue};

/// Length in bytes of a block comment body after its opening `/*`, including the closing
/// `*/`; `None` when the comment is not terminated. Comments nest.
pub(super) fn block_comment_len(rest: &str) -> Option<usize> {
    let bytes = rest.as_bytes();
    let mut depth = 1usize;
    let mut i = 0;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'/', b'*') => {
                depth += 1;
                i += 2;
            }
            (b'*', b'/') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => i += 1,
        }
    }
    None
}

fn is_alnum(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric())
}

/// Scans a number starting at the beginning of `text` (which starts with a digit).
/// Returns the token and its length in bytes.
/// How each byte continues a word: 0 not at all, 1 as an ASCII letter, digit or `_`,
/// 2 as a byte of a non-ASCII character (which the driver then checks).
const WORD_BYTE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = if byte >= 0x80 {
            2
        } else if byte.is_ascii_alphanumeric() || byte == b'_' {
            1
        } else {
            0
        };
        b += 1;
    }
    table
};

/// Length of the rest of a word after its first character, and whether it holds a
/// non-ASCII character.
pub(super) fn word_rest(rest: &str) -> (usize, bool) {
    // By bytes: every byte of a non-ASCII character is >= 0x80, so the word ends at an
    // ASCII byte, which is a character boundary.
    let mut kinds = 0u8;
    for (i, &b) in rest.as_bytes().iter().enumerate() {
        let kind = WORD_BYTE[usize::from(b)];
        if kind == 0 {
            return (i, kinds & 2 != 0);
        }
        kinds |= kind;
    }
    (rest.len(), kinds & 2 != 0)
}

/// Length of the run of plain string text at the start of `bytes`: up to the first
/// quote, backslash, `$` or newline (each ASCII, so the run ends on a character
/// boundary).
fn plain_run(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| matches!(b, b'"' | b'\\' | b'$' | b'\n'))
        .unwrap_or(bytes.len())
}

#[inline(never)]
pub(super) fn number(text: &str) -> (Number, usize) {
    let bytes = text.as_bytes();
    // Most literals are a few decimal digits followed by an operator, a separator or a
    // space: read those in one pass. Anything else (a radix prefix, a fraction, an
    // exponent, a unit, more digits than an i64 always holds) takes the general path.
    let run = bytes
        .iter()
        .take(18)
        .take_while(|b| b.is_ascii_digit())
        .count();
    let plain = run > 0
        && !(run > 1 && bytes[0] == b'0')
        && bytes
            .get(run)
            .is_none_or(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'.'));
    if plain {
        let value = bytes[..run]
            .iter()
            .fold(0i64, |acc, &d| acc * 10 + i64::from(d - b'0'));
        return (Number::Int(value), run);
    }
    let digits_end = |from: usize, radix: u32| {
        let mut i = from;
        while i < bytes.len() && (bytes[i] as char).is_digit(radix) {
            i += 1;
        }
        i
    };
    // Radix prefixes (harnc extension: the reference splits `0x10` into `0` and `x10`).
    if bytes.len() > 2 && bytes[0] == b'0' {
        let radix = match bytes[1] {
            b'x' | b'X' => 16,
            b'o' | b'O' => 8,
            b'b' | b'B' => 2,
            _ => 0,
        };
        if radix != 0 {
            let end = digits_end(2, radix);
            if end > 2 {
                let digits = &text[2..end];
                let tok = match i64::from_str_radix(digits, radix) {
                    Ok(n) => Number::Int(n),
                    Err(_) => Number::Float(
                        digits
                            .chars()
                            .filter_map(|c| c.to_digit(radix))
                            .fold(0f64, |acc, d| acc * f64::from(radix) + f64::from(d)),
                    ),
                };
                return (tok, end);
            }
        }
    }
    let int_end = digits_end(0, 10);
    let mut end = int_end;
    let mut is_float = false;
    if end + 1 < bytes.len() && bytes[end] == b'.' && bytes[end + 1].is_ascii_digit() {
        end = digits_end(end + 1, 10);
        is_float = true;
    }
    // Exponent (harnc extension): `1e5`, `1.5e-7`, `2E+3`.
    if end < bytes.len() && (bytes[end] == b'e' || bytes[end] == b'E') {
        let mut j = end + 1;
        if j < bytes.len() && (bytes[j] == b'+' || bytes[j] == b'-') {
            j += 1;
        }
        if j < bytes.len() && bytes[j].is_ascii_digit() {
            end = digits_end(j, 10);
            is_float = true;
        }
    }
    let literal = &text[..end];
    if is_float {
        return (Number::Float(literal.parse().unwrap_or(f64::NAN)), end);
    }
    // Duration suffixes apply to integer literals only.
    let rest = &text[end..];
    let mut chars = rest.chars();
    let unit = chars.next();
    let after = chars.next();
    let value: i64 = literal.parse().unwrap_or(i64::MAX);
    let duration =
        |mult: i64, len: usize| (Number::Duration(value.saturating_mul(mult)), end + len);
    if rest.starts_with("ms") {
        return duration(1, 2);
    }
    match unit {
        Some('s') if !is_alnum(after) => return duration(1_000, 1),
        Some('m') if !is_alnum(after) => return duration(60_000, 1),
        Some('h') if !is_alnum(after) => return duration(3_600_000, 1),
        Some('d') if !is_alnum(after) => return duration(86_400_000, 1),
        Some('w') if !is_alnum(after) => return duration(604_800_000, 1),
        _ => {}
    }
    let tok = match literal.parse::<i64>() {
        Ok(n) => Number::Int(n),
        Err(_) => Number::Float(literal.parse().unwrap_or(f64::INFINITY)),
    };
    (tok, end)
}

/// A scanned string literal's value.
pub(super) enum Literal {
    /// The value is the source text in this byte range (no escapes, no holes): nothing
    /// was allocated.
    Slice(usize, usize),
    Value(StrValue),
}

impl Literal {
    pub(super) fn has_holes(&self) -> bool {
        matches!(self, Literal::Value(StrValue::Segments(_)))
    }

    pub(super) fn into_value(self, source: &str) -> StrValue {
        match self {
            Literal::Slice(start, end) => {
                StrValue::Text(source.get(start..end).unwrap_or("").to_string())
            }
            Literal::Value(value) => value,
        }
    }
}

/// The outcome of scanning a string literal that starts at byte `start` of the source.
pub(super) struct Scanned {
    /// `None` when the literal was not terminated.
    pub lit: Option<Literal>,
    /// Byte offset just past the literal (or past the consumed text on error).
    pub end: usize,
    pub errors: Vec<(LexErrorKind, usize, usize)>,
}

/// Finds the `}` closing a hole whose body starts at `from`, counting braces over raw
/// characters. Returns the index of that `}`; `None` if the hole is not closed before
/// the end of input (or before a newline when `single_line`).
fn hole_end(source: &str, from: usize, single_line: bool) -> Option<usize> {
    let mut depth = 1usize;
    for (i, c) in source[from..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(from + i);
                }
            }
            '\n' if single_line => return None,
            _ => {}
        }
    }
    None
}

fn finish(segs: Vec<StrSeg>) -> Literal {
    if segs.iter().any(|s| matches!(s, StrSeg::Hole { .. })) {
        Literal::Value(StrValue::Segments(segs))
    } else {
        let mut text = String::new();
        for seg in segs {
            if let StrSeg::Text(t) = seg {
                text.push_str(&t);
            }
        }
        Literal::Value(StrValue::Text(text))
    }
}

fn offset_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A `"..."` string: escapes, `${...}` holes, no raw newlines.
pub(super) fn string(source: &str, start: usize) -> Scanned {
    // Most literals are plain text up to the closing quote: one slice, one allocation.
    let body = start + 1;
    let run = source.as_bytes().get(body..).map_or(0, plain_run);
    if source.as_bytes().get(body + run) == Some(&b'"') {
        return Scanned {
            lit: Some(Literal::Slice(body, body + run)),
            end: body + run + 1,
            errors: Vec::new(),
        };
    }
    let mut segs = Vec::new();
    let mut text = String::new();
    let mut errors = Vec::new();
    let mut i = start + 1;
    let unterminated = |errors: Vec<(LexErrorKind, usize, usize)>, end: usize| {
        let mut errors = errors;
        errors.push((LexErrorKind::UnterminatedString, start, start + 1));
        Scanned {
            lit: None,
            end,
            errors,
        }
    };
    loop {
        let Some(c) = source[i..].chars().next() else {
            return unterminated(errors, source.len());
        };
        match c {
            '"' => {
                i += 1;
                break;
            }
            '\n' => return unterminated(errors, i),
            '\\' => {
                let next = source[i + 1..].chars().next();
                match next {
                    Some('n') => text.push('\n'),
                    Some('t') => text.push('\t'),
                    Some('\\') => text.push('\\'),
                    Some('"') => text.push('"'),
                    Some('$') => text.push('$'),
                    Some('\n') | None => {
                        text.push('\\');
                        i += 1;
                        continue;
                    }
                    Some(other) => {
                        text.push('\\');
                        text.push(other);
                    }
                }
                i += 1 + next.map_or(0, char::len_utf8);
            }
            '$' if source[i + 1..].starts_with('{') => {
                let body = i + 2;
                let Some(close) = hole_end(source, body, true) else {
                    let line_end = source[i..].find('\n').map_or(source.len(), |n| i + n);
                    return unterminated(errors, line_end);
                };
                let hole = &source[body..close];
                if hole.trim().is_empty() {
                    errors.push((LexErrorKind::UnexpectedChar('}'), close + 1, close + 1));
                }
                segs.push(StrSeg::Text(std::mem::take(&mut text)));
                segs.push(StrSeg::Hole {
                    text: hole.to_string(),
                    offset: offset_u32(body),
                });
                i = close + 1;
            }
            c => {
                // A run of plain text at once; at least this character (a `$` that
                // opens no hole stops the run at itself).
                let run = plain_run(&source.as_bytes()[i..]).max(c.len_utf8());
                text.push_str(&source[i..i + run]);
                i += run;
            }
        }
    }
    segs.push(StrSeg::Text(text));
    Scanned {
        lit: Some(finish(segs)),
        end: i,
        errors,
    }
}

/// `r"..."`: no escapes, no interpolation, no newline, cannot contain `"`.
pub(super) fn raw_string(source: &str, start: usize) -> Scanned {
    let body = start + 2;
    for (n, c) in source[body..].char_indices() {
        match c {
            '"' => {
                return Scanned {
                    lit: Some(Literal::Slice(body, body + n)),
                    end: body + n + 1,
                    errors: Vec::new(),
                };
            }
            '\n' => {
                return Scanned {
                    lit: None,
                    end: body + n,
                    errors: vec![(LexErrorKind::UnterminatedString, start + 1, start + 2)],
                };
            }
            _ => {}
        }
    }
    Scanned {
        lit: None,
        end: source.len(),
        errors: vec![(LexErrorKind::UnterminatedString, start + 1, start + 2)],
    }
}

/// A line of a triple-quoted string, as text pieces and holes.
#[derive(Default)]
struct Line {
    pieces: Vec<StrSeg>,
}

impl Line {
    fn push_char(&mut self, c: char) {
        if let Some(StrSeg::Text(t)) = self.pieces.last_mut() {
            t.push(c);
        } else {
            self.pieces.push(StrSeg::Text(c.to_string()));
        }
    }

    fn has_hole(&self) -> bool {
        self.pieces.iter().any(|p| matches!(p, StrSeg::Hole { .. }))
    }

    /// Leading spaces and tabs of the first text piece.
    fn indent(&self) -> usize {
        match self.pieces.first() {
            Some(StrSeg::Text(t)) => t.chars().take_while(|c| *c == ' ' || *c == '\t').count(),
            _ => 0,
        }
    }

    /// Whether every literal character is a space or tab.
    fn text_is_blank(&self) -> bool {
        self.pieces.iter().all(|p| match p {
            StrSeg::Text(t) => t.chars().all(|c| c == ' ' || c == '\t'),
            StrSeg::Hole { .. } => true,
        })
    }

    fn strip_indent(&mut self, n: usize) {
        if let Some(StrSeg::Text(t)) = self.pieces.first_mut() {
            let cut: usize = t
                .chars()
                .take(n)
                .take_while(|c| *c == ' ' || *c == '\t')
                .map(char::len_utf8)
                .sum();
            t.drain(..cut);
        }
    }
}

/// `"""..."""`: multi-line, no escapes, holes allowed; indentation is stripped.
pub(super) fn triple_string(source: &str, start: usize) -> Scanned {
    let mut i = start + 3;
    if source[i..].starts_with("\r\n") {
        i += 2;
    } else if source[i..].starts_with('\n') {
        i += 1;
    }
    let mut lines = vec![Line::default()];
    loop {
        if source[i..].starts_with("\"\"\"") {
            i += 3;
            break;
        }
        let Some(c) = source[i..].chars().next() else {
            return Scanned {
                lit: None,
                end: source.len(),
                errors: vec![(LexErrorKind::UnterminatedString, start, start + 1)],
            };
        };
        if c == '$' && source[i + 1..].starts_with('{') {
            let body = i + 2;
            let Some(close) = hole_end(source, body, false) else {
                return Scanned {
                    lit: None,
                    end: source.len(),
                    errors: vec![(LexErrorKind::UnterminatedString, start, start + 1)],
                };
            };
            if let Some(line) = lines.last_mut() {
                line.pieces.push(StrSeg::Hole {
                    text: source[body..close].to_string(),
                    offset: offset_u32(body),
                });
            }
            i = close + 1;
            continue;
        }
        if c == '\n' {
            lines.push(Line::default());
        } else if (c != '\r' || !source[i + 1..].starts_with('\n'))
            && let Some(line) = lines.last_mut()
        {
            line.push_char(c);
        }
        i += c.len_utf8();
    }
    // Common indentation over lines with literal content (hole-only and blank lines do
    // not count).
    let indent = lines
        .iter()
        .filter(|l| !l.text_is_blank())
        .map(Line::indent)
        .min()
        .unwrap_or(0);
    let mut segs = Vec::new();
    let mut text = String::new();
    let count = lines.len();
    for (n, mut line) in lines.into_iter().enumerate() {
        if !line.has_hole() && line.text_is_blank() {
            line.pieces.clear();
        } else {
            line.strip_indent(indent);
        }
        for piece in line.pieces {
            match piece {
                StrSeg::Text(t) => text.push_str(&t),
                hole => {
                    segs.push(StrSeg::Text(std::mem::take(&mut text)));
                    segs.push(hole);
                }
            }
        }
        if n + 1 < count {
            text.push('\n');
        }
    }
    // One trailing newline (usually the line holding the closing quotes) is dropped.
    if text.ends_with('\n') {
        text.pop();
    }
    segs.push(StrSeg::Text(text));
    Scanned {
        lit: Some(finish(segs)),
        end: i,
        errors: Vec::new(),
    }
}
