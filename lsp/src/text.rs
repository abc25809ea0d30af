//! Byte offsets ↔ protocol positions. The protocol counts columns in UTF-16 code units
//! (the default `positionEncoding`); the compiler counts bytes.

use tower_lsp_server::ls_types::{Position, Range};

use harn_compiler::ast::Span;

/// Line starts of one text, for converting in both directions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
    /// Whether the text is pure ASCII (then columns are byte counts).
    ascii: bool,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex {
            starts,
            ascii: text.is_ascii(),
        }
    }

    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The protocol position of byte `offset` (clamped to the text).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let offset = clamp_to_char(text, offset.min(text.len()));
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts.get(line).copied().unwrap_or(0);
        let col = if self.ascii {
            offset - start
        } else {
            text.get(start..offset)
                .map(|s| s.encode_utf16().count())
                .unwrap_or(0)
        };
        Position::new(to_u32(line), to_u32(col))
    }

    /// The byte offset of a protocol position; a column past the end of its line is the
    /// end of that line, a line past the end is the end of the text.
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map(|&e| e - 1)
            .unwrap_or(text.len());
        let line = text.get(start..end).unwrap_or("");
        let line = line.strip_suffix('\r').unwrap_or(line);
        if self.ascii {
            return start + (position.character as usize).min(line.len());
        }
        let mut units = 0usize;
        for (i, c) in line.char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line.len()
    }

    pub fn range(&self, text: &str, span: Span) -> Range {
        Range::new(
            self.position(text, span.start as usize),
            self.position(text, span.end as usize),
        )
    }

    /// The byte span of a protocol range.
    pub fn span(&self, text: &str, range: Range) -> Span {
        Span::new(self.offset(text, range.start), self.offset(text, range.end))
    }
}

fn clamp_to_char(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Applies one protocol content change (a range edit, or the whole text when `range`
/// is absent) to `text`.
pub fn apply_change(text: &mut String, range: Option<Range>, new_text: &str) {
    match range {
        None => *text = new_text.to_string(),
        Some(range) => {
            let index = LineIndex::new(text);
            let start = index.offset(text, range.start);
            let end = index.offset(text, range.end).max(start);
            text.replace_range(start..end, new_text);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn utf16_columns_round_trip() {
        let text = "let é = \"𝄞x\"\nlet b = 2\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        let p = index.position(text, x);
        // `let é = "` is 9 UTF-16 units, the clef two more.
        assert_eq!(p, Position::new(0, 11));
        assert_eq!(index.offset(text, p), x);
        let b = text.find('b').unwrap();
        assert_eq!(index.position(text, b), Position::new(1, 4));
        assert_eq!(index.offset(text, Position::new(1, 99)), text.len() - 1);
        assert_eq!(index.offset(text, Position::new(9, 0)), text.len());
    }

    #[test]
    fn range_edits_apply_in_place() {
        let mut text = "let a = 1\nlet b = 2\n".to_string();
        apply_change(
            &mut text,
            Some(Range::new(Position::new(1, 4), Position::new(1, 5))),
            "count",
        );
        assert_eq!(text, "let a = 1\nlet count = 2\n");
        apply_change(&mut text, None, "x");
        assert_eq!(text, "x");
    }
}
