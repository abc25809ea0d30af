//! Document symbols (functions, types, top-level bindings, methods of `impl` blocks)
//! and folding ranges (multi-line blocks and literals, block comments, runs of line
//! comments).

use harn_compiler::ast::{FnDecl, Ident, Pattern, Span, Stmt, StmtKind};
use tower_lsp_server::ls_types::{DocumentSymbol, FoldingRange, FoldingRangeKind, SymbolKind};

use crate::document::Document;
use crate::scope::{blocks, fn_signature};

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
fn symbol(
    doc: &Document<'_>,
    name: String,
    detail: Option<String>,
    kind: SymbolKind,
    whole: Span,
    name_span: Span,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    DocumentSymbol {
        name,
        detail,
        kind,
        tags: None,
        deprecated: None,
        range: doc.index.range(doc.text, whole.to(name_span)),
        selection_range: doc.index.range(doc.text, name_span),
        children: (!children.is_empty()).then_some(children),
    }
}

/// A symbol named by a declaration's identifier.
fn named(
    doc: &Document<'_>,
    id: &Ident,
    kind: SymbolKind,
    whole: Span,
    detail: Option<String>,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    symbol(
        doc,
        id.name.to_string(),
        detail,
        kind,
        whole,
        id.span,
        children,
    )
}

fn fn_detail(doc: &Document<'_>, f: &FnDecl) -> Option<String> {
    Some(format!(
        "fn{}",
        fn_signature(&f.params, f.ret.as_ref(), doc.text)
    ))
}

fn stmt_symbols(doc: &Document<'_>, s: &Stmt, top: bool, out: &mut Vec<DocumentSymbol>) {
    let sym = match &s.kind {
        StmtKind::Fn(f) => {
            let mut children = Vec::new();
            for inner in &f.body.stmts {
                stmt_symbols(doc, inner, false, &mut children);
            }
            named(
                doc,
                &f.name,
                SymbolKind::FUNCTION,
                s.span,
                fn_detail(doc, f),
                children,
            )
        }
        StmtKind::Struct(d) => {
            let fields = d.fields.iter();
            let fields =
                fields.map(|f| named(doc, &f.name, SymbolKind::FIELD, f.span, None, vec![]));
            named(
                doc,
                &d.name,
                SymbolKind::STRUCT,
                s.span,
                None,
                fields.collect(),
            )
        }
        StmtKind::Enum(d) => {
            let variants = d.variants.iter();
            let variants = variants
                .map(|v| named(doc, &v.name, SymbolKind::ENUM_MEMBER, v.span, None, vec![]));
            named(
                doc,
                &d.name,
                SymbolKind::ENUM,
                s.span,
                None,
                variants.collect(),
            )
        }
        StmtKind::Interface(d) => named(doc, &d.name, SymbolKind::INTERFACE, s.span, None, vec![]),
        StmtKind::TypeAlias(d) => named(
            doc,
            &d.name,
            SymbolKind::TYPE_PARAMETER,
            s.span,
            None,
            vec![],
        ),
        StmtKind::Impl(i) => {
            let methods = i.methods.iter();
            let methods = methods.map(|f| {
                named(
                    doc,
                    &f.name,
                    SymbolKind::METHOD,
                    f.span,
                    fn_detail(doc, f),
                    vec![],
                )
            });
            let name = format!("impl {}", i.target.name);
            symbol(
                doc,
                name,
                None,
                SymbolKind::CLASS,
                s.span,
                i.target.span,
                methods.collect(),
            )
        }
        StmtKind::Let {
            pattern: Pattern::Ident(id),
            ..
        } if top => named(doc, id, SymbolKind::VARIABLE, s.span, None, vec![]),
        _ => return,
    };
    out.push(sym);
}

pub fn document_symbols(doc: &Document<'_>) -> Vec<DocumentSymbol> {
    let mut out = Vec::new();
    for s in &doc.parsed.program.items {
        stmt_symbols(doc, s, true, &mut out);
    }
    out
}

fn fold(doc: &Document<'_>, span: Span, kind: Option<FoldingRangeKind>) -> Option<FoldingRange> {
    let start = doc.index.position(doc.text, span.start as usize).line;
    let end = doc.index.position(doc.text, span.end as usize).line;
    (end > start).then(|| FoldingRange {
        start_line: start,
        start_character: None,
        end_line: end.saturating_sub(1).max(start),
        end_character: None,
        kind,
        collapsed_text: None,
    })
}

pub fn folding_ranges(doc: &Document<'_>) -> Vec<FoldingRange> {
    let items = doc.parsed.program.items.iter().map(|s| s.span);
    let mut out: Vec<FoldingRange> = blocks(&doc.parsed.program)
        .into_iter()
        .chain(items)
        .filter_map(|s| fold(doc, s, None))
        .collect();
    out.extend(comment_folds(doc));
    out.sort_by_key(|f| (f.start_line, f.end_line));
    out.dedup_by_key(|f| (f.start_line, f.end_line));
    out
}

/// Block comments over several lines, and runs of two or more `//` lines.
fn comment_folds(doc: &Document<'_>) -> Vec<FoldingRange> {
    let comment = |start_line, end_line| FoldingRange {
        start_line,
        end_line,
        kind: Some(FoldingRangeKind::Comment),
        ..FoldingRange::default()
    };
    let mut out = Vec::new();
    let mut run: Option<(u32, u32)> = None;
    let mut block_start: Option<u32> = None;
    for (line_no, line) in (0u32..).zip(doc.text.lines()) {
        let t = line.trim_start();
        if block_start.is_none() && t.starts_with("/*") && !t.contains("*/") {
            block_start = Some(line_no);
        } else if let Some(start) = block_start
            && t.contains("*/")
        {
            out.push(comment(start, line_no));
            block_start = None;
        }
        if t.starts_with("//") {
            run = Some(run.map_or((line_no, line_no), |(s, _)| (s, line_no)));
            continue;
        }
        if let Some((s, e)) = run.take().filter(|(s, e)| e > s) {
            out.push(comment(s, e));
        }
    }
    if let Some((s, e)) = run.filter(|(s, e)| e > s) {
        out.push(comment(s, e));
    }
    out
}
