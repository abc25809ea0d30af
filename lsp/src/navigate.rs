//! Go to definition, references, rename and document highlight, all read from the
//! checker's table of name uses and the declarations they resolve to.

use std::collections::HashMap;

use harn_compiler::ast::Span;
use tower_lsp_server::ls_types::{
    DocumentHighlight, DocumentHighlightKind, Range, TextEdit, Uri, WorkspaceEdit,
};

use crate::complete::is_keyword;
use crate::document::Document;
use crate::syntax::word_at;

/// The declaration of the name at `offset` (a use or the declaration itself).
pub fn declaration_at(doc: &Document<'_>, offset: usize) -> Option<Span> {
    if let Some((_, def)) = doc.definition_at(offset) {
        return Some(def);
    }
    let (span, _) = word_at(doc.text, offset)?;
    doc.findings
        .checked
        .definitions
        .iter()
        .any(|(_, d)| *d == span)
        .then_some(span)
        .or_else(|| {
            // A declaration nobody uses yet.
            crate::scope::visible_at(&doc.parsed.program, doc.text, usize::MAX)
                .into_iter()
                .find(|l| l.decl == span)
                .map(|l| l.decl)
        })
}

/// The range of the declaration of the name at `offset`.
pub fn definition(doc: &Document<'_>, offset: usize) -> Option<Range> {
    let (use_span, def) = doc.definition_at(offset)?;
    if use_span == def {
        return None;
    }
    Some(doc.index.range(doc.text, def))
}

/// The declaration and every use of the name at `offset`, declaration first.
pub fn occurrences(doc: &Document<'_>, offset: usize) -> Vec<Span> {
    let Some(def) = declaration_at(doc, offset) else {
        return Vec::new();
    };
    let mut spans = vec![def];
    for (u, d) in &doc.findings.checked.definitions {
        if *d == def && *u != def && !spans.contains(u) {
            spans.push(*u);
        }
    }
    spans
}

pub fn references(doc: &Document<'_>, offset: usize, include_declaration: bool) -> Vec<Range> {
    occurrences(doc, offset)
        .into_iter()
        .enumerate()
        .filter(|(i, _)| include_declaration || *i > 0)
        .map(|(_, s)| doc.index.range(doc.text, s))
        .collect()
}

pub fn highlights(doc: &Document<'_>, offset: usize) -> Vec<DocumentHighlight> {
    occurrences(doc, offset)
        .into_iter()
        .enumerate()
        .map(|(i, s)| DocumentHighlight {
            range: doc.index.range(doc.text, s),
            kind: Some(if i == 0 {
                DocumentHighlightKind::WRITE
            } else {
                DocumentHighlightKind::READ
            }),
        })
        .collect()
}

/// The range a rename at `offset` would change, if the name there can be renamed.
pub fn prepare_rename(doc: &Document<'_>, offset: usize) -> Option<Range> {
    declaration_at(doc, offset)?;
    let (span, _) = word_at(doc.text, offset)?;
    Some(doc.index.range(doc.text, span))
}

/// Why a new name is refused.
pub fn invalid_name(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let ok_start = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !ok_start || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Some(format!("`{name}` is not an identifier"));
    }
    if is_keyword(name) {
        return Some(format!("`{name}` is a reserved word"));
    }
    None
}

/// The edits renaming the name at `offset` to `new_name`.
pub fn rename(
    doc: &Document<'_>,
    uri: &Uri,
    offset: usize,
    new_name: &str,
) -> Result<Option<WorkspaceEdit>, String> {
    if let Some(why) = invalid_name(new_name) {
        return Err(why);
    }
    let spans = occurrences(doc, offset);
    if spans.is_empty() {
        return Ok(None);
    }
    let edits = spans
        .into_iter()
        .map(|s| TextEdit::new(doc.index.range(doc.text, s), new_name.to_string()))
        .collect();
    Ok(Some(WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..WorkspaceEdit::default()
    }))
}
