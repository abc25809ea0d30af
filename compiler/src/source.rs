//! Byte offsets to 1-based line and column numbers (columns in Unicode scalar values).

/// Line starts of one source text, for turning byte offsets into `L:C` positions.
#[derive(Clone, Debug)]
pub struct LineIndex {
    text: String,
    line_starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        LineIndex {
            text: text.to_string(),
            line_starts: line_starts(text),
        }
    }

    /// 1-based line and column of the byte offset (clamped to the text).
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(n) => n,
            Err(n) => n.saturating_sub(1),
        };
        let start = self.line_starts.get(line).copied().unwrap_or(0);
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// Line starts only, for line numbers (`line`); columns are then counted in bytes.
    /// Avoids copying the text when only lines are needed (the compiler's line table).
    pub fn lines_only(text: &str) -> Self {
        LineIndex {
            text: String::new(),
            line_starts: line_starts(text),
        }
    }

    /// 1-based line number of the byte offset.
    pub fn line(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(n) => n + 1,
            Err(n) => n.max(1),
        }
    }

    /// [`line`](Self::line), trying the line `near` (1-based) first: a caller walking
    /// the text in order (the compiler) mostly asks about the line it asked about last,
    /// and checking it costs two comparisons instead of a binary search.
    pub fn line_near(&self, offset: usize, near: usize) -> usize {
        let at = near.saturating_sub(1);
        match (self.line_starts.get(at), self.line_starts.get(at + 1)) {
            (Some(&start), next) if start <= offset && next.is_none_or(|&end| offset < end) => {
                at + 1
            }
            _ => self.line(offset),
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }
}

/// The offset of each line's start: 0, and the offset just past each `\n`.
fn line_starts(text: &str) -> Vec<usize> {
    // Sized for lines of about 32 bytes.
    let mut starts = Vec::with_capacity(text.len() / 32 + 2);
    starts.push(0);
    push_line_starts(text.as_bytes(), &mut starts);
    starts
}

/// Appends the offset just past each `\n` of `bytes`. Eight bytes are tested at once, so
/// text between line breaks costs about one instruction per byte instead of several.
fn push_line_starts(bytes: &[u8], out: &mut Vec<usize>) {
    const NEWLINES: u64 = u64::from_le_bytes([b'\n'; 8]);
    const LOW7: u64 = u64::from_le_bytes([0x7f; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let Ok(word) = <[u8; 8]>::try_from(chunk) else {
            break;
        };
        let x = u64::from_le_bytes(word) ^ NEWLINES;
        // The high bit of each byte of `x` that is zero, i.e. each newline (no carry
        // crosses a byte: 0x7f + 0x7f < 0x100).
        let mut newlines = !(((x & LOW7).wrapping_add(LOW7)) | x) & HIGH;
        while newlines != 0 {
            out.push(at + (newlines.trailing_zeros() / 8) as usize + 1);
            newlines &= newlines - 1;
        }
        at += 8;
    }
    for (j, &b) in chunks.remainder().iter().enumerate() {
        if b == b'\n' {
            out.push(at + j + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::line_starts;

    #[test]
    fn line_starts_match_a_plain_scan() {
        let texts = [
            String::new(),
            "\n".to_string(),
            "a\nb".to_string(),
            "1234567\n".to_string(),
            "12345678\n".to_string(),
            "\n\n\n\n\n\n\n\n\n\n".to_string(),
            "é\u{1F600}\r\nx\n\u{2028}\n".repeat(7),
            "let x = 1\n  log(x)\n\n".repeat(13),
            "\x0a\x0b\x09\u{8a}\x0a".repeat(5),
        ];
        for text in &texts {
            let mut plain = vec![0];
            plain.extend(
                text.bytes()
                    .enumerate()
                    .filter(|&(_, b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            );
            assert_eq!(line_starts(text), plain, "{text:?}");
        }
    }

    /// Whatever line it is told to try first, `line_near` agrees with `line`.
    #[test]
    fn line_near_agrees_with_line_from_any_guess() {
        let text = "a\n\nbc\nd\n";
        let index = super::LineIndex::lines_only(text);
        for offset in 0..=text.len() + 3 {
            for near in 0..8 {
                assert_eq!(
                    index.line_near(offset, near),
                    index.line(offset),
                    "{offset} {near}"
                );
            }
        }
    }
}
