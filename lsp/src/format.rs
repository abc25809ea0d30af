//! Document and range formatting: `harnc fmt`'s formatter, answered as the smallest
//! edit that turns the document into its formatted text (a range request keeps only
//! the changed lines inside the range).

use harn_compiler::format::{FormatOptions, format_source};
use tower_lsp_server::ls_types::{Position, Range, TextEdit};

use crate::document::Document;

/// Lines as the protocol counts them (a trailing newline ends the last line).
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// The edits formatting the whole document; `None` when it has syntax errors.
pub fn format_document(doc: &Document<'_>, width: usize) -> Option<Vec<TextEdit>> {
    let formatted = format_source(doc.text, &FormatOptions { width }).ok()?;
    Some(diff(doc.text, &formatted, None))
}

/// The edits formatting the lines of `range`.
pub fn format_range(doc: &Document<'_>, range: Range, width: usize) -> Option<Vec<TextEdit>> {
    let formatted = format_source(doc.text, &FormatOptions { width }).ok()?;
    Some(diff(
        doc.text,
        &formatted,
        Some((range.start.line, range.end.line)),
    ))
}

fn position(line: usize) -> Position {
    Position::new(u32::try_from(line).unwrap_or(u32::MAX), 0)
}

/// One edit replacing the differing middle of `old` by that of `new` (common leading
/// and trailing lines are left alone). With `within`, the edit is made only when the
/// changed lines of `old` lie inside those lines (otherwise nothing changes).
fn diff(old: &str, new: &str, within: Option<(u32, u32)>) -> Vec<TextEdit> {
    let (a, b) = (lines(old), lines(new));
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (old_end, new_end) = (a.len() - suffix, b.len() - suffix);
    if prefix == old_end && prefix == new_end {
        return Vec::new();
    }
    if let Some((first, last)) = within {
        let (first, last) = (first as usize, last as usize);
        // Narrow to the changed lines inside the range when the line counts agree.
        if old_end - prefix == new_end - prefix {
            let mut edits = Vec::new();
            for i in prefix.max(first)..old_end.min(last + 1) {
                if a[i] != b[i] {
                    edits.push(TextEdit::new(
                        Range::new(position(i), position(i + 1)),
                        b[i].to_string(),
                    ));
                }
            }
            return edits;
        }
        if prefix < first || old_end > last + 1 {
            return Vec::new();
        }
    }
    vec![TextEdit::new(
        Range::new(position(prefix), position(old_end)),
        b[prefix..new_end].concat(),
    )]
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn apply(old: &str, edits: &[TextEdit]) -> String {
        let mut text = old.to_string();
        for e in edits.iter().rev() {
            crate::text::apply_change(&mut text, Some(e.range), &e.new_text);
        }
        text
    }

    #[test]
    fn whole_document_edits_give_the_formatted_text() {
        let old = "let  a=1\nlet b = 2\nlog( a )\n";
        let new = "let a = 1\nlet b = 2\nlog(a)\n";
        assert_eq!(apply(old, &diff(old, new, None)), new);
        assert!(diff(new, new, None).is_empty());
    }

    #[test]
    fn range_edits_touch_only_lines_in_the_range() {
        let old = "let  a=1\nlet b = 2\nlog( a )\n";
        let new = "let a = 1\nlet b = 2\nlog(a)\n";
        let edits = diff(old, new, Some((2, 2)));
        assert_eq!(apply(old, &edits), "let  a=1\nlet b = 2\nlog(a)\n");
    }
}
