//! Feature tests as data: each `data/<feature>/*.harn` file holds a snippet with a cursor
//! marker `$0` (optional for whole-document features) and, on its first line, an
//! optional `// manifest: NAME.json` naming a manifest of `../shared/manifests/`. The
//! snapshot renders the source with the feature's answer under it, the way a reviewer
//! reads an editor session.

use std::fmt::Write as _;
use std::path::Path;

use harn_lsp::db::Db;
use harn_lsp::document::Document;
use harn_lsp::{actions, complete, hover, navigate, outline, signature, tokens};
use tower_lsp_server::ls_types::{
    CompletionItem, Documentation, ParameterLabel, Position, Range, Uri,
};

fn manifest_of(source: &str) -> Option<harn_compiler::manifest::Manifest> {
    let name = source.lines().next()?.strip_prefix("// manifest:")?.trim();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/manifests")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    Some(harn_lsp::manifest_source::from_value(&value).unwrap().0)
}

fn range_text(doc: &Document<'_>, r: &Range) -> String {
    let span = doc.index.span(doc.text, *r);
    format!(
        "{}:{}-{}:{} `{}`",
        r.start.line + 1,
        r.start.character + 1,
        r.end.line + 1,
        r.end.character + 1,
        doc.text.get(span.range()).unwrap_or("").replace('\n', "⏎")
    )
}

fn doc_text(d: &Option<Documentation>) -> String {
    match d {
        Some(Documentation::String(s)) => s.clone(),
        Some(Documentation::MarkupContent(m)) => m.value.clone(),
        None => String::new(),
    }
}

/// Completion as a client shows it: filtered by the word typed, in `sortText` order,
/// the first 30.
fn render_completion(doc: &Document<'_>, offset: usize, out: &mut String) {
    let prefix = harn_lsp::syntax::prefix_span(doc.text, offset);
    let typed = doc.text.get(prefix.range()).unwrap_or("").to_lowercase();
    let mut items: Vec<CompletionItem> = complete::complete(doc, offset)
        .into_iter()
        .filter(|i| i.label.to_lowercase().starts_with(&typed) || typed.is_empty())
        .collect();
    items.sort_by(|a, b| {
        (a.sort_text.as_ref().unwrap_or(&a.label), &a.label)
            .cmp(&(b.sort_text.as_ref().unwrap_or(&b.label), &b.label))
    });
    let total = items.len();
    for i in items.iter().take(30) {
        let kind = i.kind.map(|k| format!("{k:?}")).unwrap_or_default();
        let desc = i
            .label_details
            .as_ref()
            .and_then(|d| d.description.clone())
            .unwrap_or_default();
        writeln!(
            out,
            "{} [{}] {}{}",
            i.label,
            kind,
            i.detail.clone().unwrap_or_default(),
            if desc.is_empty() {
                String::new()
            } else {
                format!(" ({desc})")
            }
        )
        .unwrap();
    }
    if total > 30 {
        writeln!(out, "... {} more", total - 30).unwrap();
    }
}

fn render(feature: &str, doc: &Document<'_>, offset: Option<usize>) -> String {
    let uri: Uri = "file:///test.harn".parse().unwrap();
    let mut out = String::new();
    let need = || offset.expect("this feature needs a $0 cursor");
    match feature {
        "completion" => render_completion(doc, need(), &mut out),
        "hover" => match hover::hover(doc, need()) {
            Some(h) => {
                let value = match h.contents {
                    tower_lsp_server::ls_types::HoverContents::Markup(m) => m.value,
                    other => format!("{other:?}"),
                };
                writeln!(out, "range {}", range_text(doc, &h.range.unwrap())).unwrap();
                out.push_str(&value);
                out.push('\n');
            }
            None => out.push_str("(no hover)\n"),
        },
        "signature" => match signature::signature_help(doc, need()) {
            Some(help) => {
                for s in &help.signatures {
                    writeln!(out, "{}", s.label).unwrap();
                    if let (Some(ps), Some(a)) = (&s.parameters, s.active_parameter)
                        && let Some(p) = ps.get(a as usize)
                        && let ParameterLabel::LabelOffsets([start, end]) = p.label
                    {
                        let label: Vec<u16> = s.label.encode_utf16().collect();
                        let active = String::from_utf16_lossy(&label[start as usize..end as usize]);
                        writeln!(out, "active parameter {a}: {active}").unwrap();
                    }
                    let d = doc_text(&s.documentation);
                    if let Some(first) = d
                        .split("```")
                        .last()
                        .and_then(|rest| rest.lines().find(|l| !l.trim().is_empty()))
                    {
                        writeln!(out, "doc: {first}").unwrap();
                    }
                }
            }
            None => out.push_str("(no signature help)\n"),
        },
        "definition" => match navigate::definition(doc, need()) {
            Some(r) => writeln!(out, "definition {}", range_text(doc, &r)).unwrap(),
            None => out.push_str("(no definition)\n"),
        },
        "references" => {
            for r in navigate::references(doc, need(), true) {
                writeln!(out, "reference {}", range_text(doc, &r)).unwrap();
            }
            for h in navigate::highlights(doc, need()) {
                writeln!(
                    out,
                    "highlight {:?} {}",
                    h.kind.unwrap(),
                    range_text(doc, &h.range)
                )
                .unwrap();
            }
        }
        "rename" => match navigate::rename(doc, &uri, need(), "renamed") {
            Ok(Some(edit)) => {
                let mut edits = edit.changes.unwrap().remove(&uri).unwrap();
                edits.sort_by_key(|e| (e.range.start.line, e.range.start.character));
                for e in edits {
                    writeln!(out, "edit {} -> {}", range_text(doc, &e.range), e.new_text).unwrap();
                }
            }
            Ok(None) => out.push_str("(nothing to rename)\n"),
            Err(e) => writeln!(out, "error: {e}").unwrap(),
        },
        "symbols" => {
            fn walk(
                doc: &Document<'_>,
                s: &[tower_lsp_server::ls_types::DocumentSymbol],
                depth: usize,
                out: &mut String,
            ) {
                for x in s {
                    writeln!(
                        out,
                        "{}{:?} {} {} sel {}",
                        "  ".repeat(depth),
                        x.kind,
                        x.name,
                        x.detail.clone().unwrap_or_default(),
                        range_text(doc, &x.selection_range)
                    )
                    .unwrap();
                    walk(doc, x.children.as_deref().unwrap_or(&[]), depth + 1, out);
                }
            }
            walk(doc, &outline::document_symbols(doc), 0, &mut out);
            for f in outline::folding_ranges(doc) {
                writeln!(
                    out,
                    "fold {}-{} {:?}",
                    f.start_line + 1,
                    f.end_line + 1,
                    f.kind
                )
                .unwrap();
            }
        }
        "tokens" => {
            let legend = tokens::legend();
            let t = tokens::semantic_tokens(doc);
            let (mut line, mut col) = (0u32, 0u32);
            for tok in t.data {
                if tok.delta_line > 0 {
                    line += tok.delta_line;
                    col = tok.delta_start;
                } else {
                    col += tok.delta_start;
                }
                let start = Position::new(line, col);
                let end = Position::new(line, col + tok.length);
                let text = range_text(doc, &Range::new(start, end));
                let mods: Vec<String> = legend
                    .token_modifiers
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| tok.token_modifiers_bitset & (1 << i) != 0)
                    .map(|(_, m)| m.as_str().to_string())
                    .collect();
                writeln!(
                    out,
                    "{} {} {}",
                    text,
                    legend.token_types[tok.token_type as usize].as_str(),
                    mods.join(",")
                )
                .unwrap();
            }
        }
        "diagnostics" => {
            for d in actions::diagnostics(doc, &uri) {
                writeln!(
                    out,
                    "{:?} {} {}: {}",
                    d.severity.unwrap(),
                    range_text(doc, &d.range),
                    match d.code {
                        Some(tower_lsp_server::ls_types::NumberOrString::String(c)) => c,
                        _ => String::new(),
                    },
                    d.message.replace('\n', " / ")
                )
                .unwrap();
            }
            let whole = Range::new(
                Position::new(0, 0),
                doc.index.position(doc.text, doc.text.len()),
            );
            for a in actions::code_actions(doc, &uri, whole) {
                if let tower_lsp_server::ls_types::CodeActionOrCommand::CodeAction(a) = a {
                    let edits = a.edit.unwrap().changes.unwrap().remove(&uri).unwrap();
                    for e in edits {
                        writeln!(
                            out,
                            "quick-fix \"{}\": {} -> {}",
                            a.title,
                            range_text(doc, &e.range),
                            e.new_text
                        )
                        .unwrap();
                    }
                }
            }
        }
        other => panic!("unknown feature directory {other}"),
    }
    if out.is_empty() {
        out.push_str("(empty)\n");
    }
    out
}

/// The source with the cursor line marked, then the answer.
fn show(source: &str, offset: Option<usize>, answer: &str) -> String {
    let mut out = String::new();
    let mut at = 0usize;
    for line in source.lines() {
        out.push_str(line);
        out.push('\n');
        if let Some(o) = offset
            && o >= at
            && o <= at + line.len()
        {
            let col = source[at..o].chars().count();
            writeln!(out, "{}^ $0", " ".repeat(col)).unwrap();
        }
        at += line.len() + 1;
    }
    out.push_str("---\n");
    out.push_str(answer);
    out
}

#[test]
fn feature_data() {
    insta::glob!("data/**/*.harn", |path| {
        let raw = std::fs::read_to_string(path).unwrap();
        let offset = raw.find("$0");
        let source = raw.replacen("$0", "", 1);
        let feature = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        let mut db = Db::default();
        db.set_manifest(manifest_of(&source).map(std::sync::Arc::new));
        let file = db.open(source.clone());
        let doc = db.document(file);
        let answer = render(feature, &doc, offset);
        insta::assert_snapshot!(show(&source, offset, &answer));
    });
}
