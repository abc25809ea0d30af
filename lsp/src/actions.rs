//! Diagnostics in protocol form, and the quick-fixes their fixes become.

use harn_compiler::Severity;
use harn_compiler::diagnostic::Diagnostic;
use serde_json::json;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic as LspDiagnostic,
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Range, TextEdit,
    Uri, WorkspaceEdit,
};

use crate::document::Document;

/// The document's diagnostics in protocol form. A fix travels in `data` so a code action
/// request can offer it without re-analysing.
pub fn diagnostics(doc: &Document<'_>, uri: &Uri) -> Vec<LspDiagnostic> {
    doc.findings
        .diagnostics
        .iter()
        .map(|d| to_lsp(doc, uri, d))
        .collect()
}

fn to_lsp(doc: &Document<'_>, uri: &Uri, d: &Diagnostic) -> LspDiagnostic {
    let mut message = d.message.clone();
    // A fix is offered as a quick-fix; its hint would only repeat the message.
    if let Some(h) = d.hint.as_ref().filter(|_| d.fix.is_none()) {
        message.push_str("\nhint: ");
        message.push_str(h);
    }
    let related: Vec<DiagnosticRelatedInformation> = d
        .secondary
        .iter()
        .map(|l| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), doc.index.range(doc.text, l.span)),
            message: l.message.clone(),
        })
        .collect();
    LspDiagnostic {
        range: doc.index.range(doc.text, d.primary.span),
        severity: Some(match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        source: Some("harnc".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        data: d.fix.as_ref().map(|f| {
            json!({
                "fix": {
                    "range": doc.index.range(doc.text, f.span),
                    "replacement": f.replacement,
                }
            })
        }),
        ..LspDiagnostic::default()
    }
}

fn overlaps(a: &Range, b: &Range) -> bool {
    a.start <= b.end && b.start <= a.end
}

/// Quick-fixes for the document's diagnostics that overlap `range`.
pub fn code_actions(doc: &Document<'_>, uri: &Uri, range: Range) -> Vec<CodeActionOrCommand> {
    let mut out = Vec::new();
    for d in &doc.findings.diagnostics {
        let Some(fix) = &d.fix else { continue };
        let lsp = to_lsp(doc, uri, d);
        if !overlaps(&lsp.range, &range) {
            continue;
        }
        let edit = TextEdit::new(doc.index.range(doc.text, fix.span), fix.replacement.clone());
        let title = if fix.replacement.is_empty() {
            "Remove".to_string()
        } else {
            format!("Change to `{}`", fix.replacement)
        };
        out.push(CodeActionOrCommand::CodeAction(CodeAction {
            title,
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![lsp]),
            edit: Some(WorkspaceEdit {
                changes: Some(std::collections::HashMap::from([(uri.clone(), vec![edit])])),
                ..WorkspaceEdit::default()
            }),
            is_preferred: Some(true),
            ..CodeAction::default()
        }));
    }
    out
}
