//! Byte offsets to 1-based line and column numbers (columns in Unicode scalar values).

/// Line starts of one source text, for turning byte offsets into `L:C` positions.
#[derive(Clone, Debug)]
pub struct LineIndex {
    text: String,
    line_starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex {
            text: text.to_string(),
            line_starts,
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
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter_map(|(i, b)| (b == b'\n').then_some(i + 1)),
        );
        LineIndex {
            text: String::new(),
            line_starts,
        }
    }

    /// 1-based line number of the byte offset.
    pub fn line(&self, offset: usize) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(n) => n + 1,
            Err(n) => n.max(1),
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }
}
