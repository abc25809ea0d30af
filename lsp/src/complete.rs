//! Completion: argument keys and enum values inside `binding({ ... })`, fields and
//! methods after `.`, and otherwise the names in scope, the manifest's bindings, the
//! profile's helpers and the keywords.
//!
//! The cursor's context is read from tokens, and the names and receiver types from an
//! analysis of the text with a placeholder identifier at the cursor, so a half-typed
//! `x.` or `let y = ` still yields a tree with every local in it.

use std::collections::HashSet;

use harn_compiler::ast::{Program, Span, StmtKind};
use harn_compiler::builtins::methods::{Receiver, methods_of};
use harn_compiler::builtins::{BuiltinDecl, BuiltinEnv};
use harn_compiler::lexer::Keyword;
use harn_compiler::pipeline::analyze_parsed;
use harn_compiler::types::Ty;
use serde_json::json;
use tower_lsp_server::ls_types::{
    CompletionItem, CompletionItemKind, CompletionItemLabelDetails, CompletionTextEdit,
    Documentation, MarkupContent, MarkupKind, TextEdit,
};

use crate::document::{BindingInfo, Document};
use crate::scope::{LocalKind, visible_at};
use crate::syntax::{DictPosition, dict_context, prefix_span};

/// The identifier inserted at the cursor for the completion analysis.
const PLACEHOLDER: &str = "__harn_cursor";

/// The completion items at byte `offset`.
pub fn complete(doc: &Document<'_>, offset: usize) -> Vec<CompletionItem> {
    let offset = offset.min(doc.text.len());
    if let Some(ctx) = dict_context(doc.text, offset)
        && let Some(binding) = doc.bindings.get(&ctx.callee)
    {
        if ctx.path.is_empty() {
            return match ctx.position {
                DictPosition::Key => argument_keys(doc, binding, &ctx.present, offset),
                DictPosition::StringValue { key, span } => enum_values(doc, binding, &key, span),
                DictPosition::Value => names(doc, offset),
            };
        }
        let Some(Ty::Shape(fields, _)) = nested_type(&binding.input, &ctx.path) else {
            return names(doc, offset);
        };
        return match ctx.position {
            DictPosition::Key => nested_keys(doc, &fields, &ctx.present, offset),
            DictPosition::StringValue { key, span } => {
                match fields.iter().find(|f| f.name == key) {
                    Some(f) => literal_items(doc, &key, &f.ty, span),
                    None => Vec::new(),
                }
            }
            DictPosition::Value => names(doc, offset),
        };
    }
    let prefix = prefix_span(doc.text, offset);
    let before = doc.text.get(..prefix.start as usize).unwrap_or("");
    if let Some(receiver_end) = before.strip_suffix('.').map(str::len) {
        let receiver_end = receiver_end - usize::from(before.ends_with("?."));
        return members(doc, receiver_end, offset, prefix);
    }
    names(doc, offset)
}

fn edit(doc: &Document<'_>, span: Span, new_text: String) -> Option<CompletionTextEdit> {
    Some(CompletionTextEdit::Edit(TextEdit::new(
        doc.index.range(doc.text, span),
        new_text,
    )))
}

fn markdown(text: String) -> Option<Documentation> {
    Some(Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value: text,
    }))
}

fn argument_keys(
    doc: &Document<'_>,
    binding: &BindingInfo,
    present: &[String],
    offset: usize,
) -> Vec<CompletionItem> {
    let prefix = prefix_span(doc.text, offset);
    // Required keys first, each group in the schema's order.
    let mut fields: Vec<_> = binding.fields.iter().collect();
    fields.sort_by_key(|f| f.optional);
    fields
        .into_iter()
        .filter(|f| !present.contains(&f.name))
        .map(|f| {
            let required = !f.optional;
            let insert = format!("{}: ", f.name);
            CompletionItem {
                label: f.name.clone(),
                kind: Some(CompletionItemKind::FIELD),
                detail: Some(format!(
                    "{}{}: {}",
                    f.name,
                    if required { "" } else { "?" },
                    f.ty
                )),
                label_details: Some(CompletionItemLabelDetails {
                    detail: Some(format!(": {}", f.ty)),
                    description: Some(if required { "required" } else { "optional" }.into()),
                }),
                documentation: f.doc.clone().and_then(markdown),
                sort_text: Some(format!("{}{}", if required { 0 } else { 1 }, f.name)),
                text_edit: edit(doc, prefix, insert),
                ..CompletionItem::default()
            }
        })
        .collect()
}

/// The string literals a type allows (an enum of the schema).
pub fn literal_strings(ty: &Ty) -> Vec<String> {
    match ty {
        Ty::StrLit(s) => vec![s.to_string()],
        Ty::Union(members) => members.iter().flat_map(literal_strings).collect(),
        _ => Vec::new(),
    }
}

/// The type at `path` inside an argument type: a key's value, or `[]` a list's element.
pub fn nested_type(ty: &Ty, path: &[String]) -> Option<Ty> {
    let mut ty = strip_nil(ty);
    for step in path {
        ty = match (&ty, step.as_str()) {
            (Ty::List(item), "[]") => strip_nil(item),
            (Ty::Shape(fields, _), key) => strip_nil(&fields.iter().find(|f| f.name == key)?.ty),
            _ => return None,
        };
    }
    Some(ty)
}

fn nested_keys(
    doc: &Document<'_>,
    fields: &[harn_compiler::types::Field],
    present: &[String],
    offset: usize,
) -> Vec<CompletionItem> {
    let prefix = prefix_span(doc.text, offset);
    let mut fields: Vec<_> = fields
        .iter()
        .filter(|f| !present.iter().any(|p| *p == f.name))
        .collect();
    fields.sort_by_key(|f| f.optional);
    fields
        .into_iter()
        .map(|f| CompletionItem {
            label: f.name.to_string(),
            kind: Some(CompletionItemKind::FIELD),
            detail: Some(format!(
                "{}{}: {}",
                f.name,
                if f.optional { "?" } else { "" },
                f.ty
            )),
            sort_text: Some(format!("{}{}", u8::from(f.optional), f.name)),
            text_edit: edit(doc, prefix, format!("{}: ", f.name)),
            ..CompletionItem::default()
        })
        .collect()
}

fn literal_items(doc: &Document<'_>, key: &str, ty: &Ty, contents: Span) -> Vec<CompletionItem> {
    literal_strings(ty)
        .into_iter()
        .map(|v| CompletionItem {
            label: v.clone(),
            kind: Some(CompletionItemKind::ENUM_MEMBER),
            detail: Some(format!("{key}: {ty}")),
            text_edit: edit(doc, contents, v),
            ..CompletionItem::default()
        })
        .collect()
}

fn enum_values(
    doc: &Document<'_>,
    binding: &BindingInfo,
    key: &str,
    contents: Span,
) -> Vec<CompletionItem> {
    match binding.field(key) {
        Some(field) => literal_items(doc, key, &field.ty, contents),
        None => Vec::new(),
    }
}

/// The text with the placeholder at `offset` (unless a word is already being typed),
/// parsed and checked.
fn patched(
    doc: &Document<'_>,
    offset: usize,
) -> (Program, harn_compiler::pipeline::Findings, String) {
    let prefix = prefix_span(doc.text, offset);
    let mut text = doc.text.to_string();
    if prefix.start == prefix.end {
        text.insert_str(offset, PLACEHOLDER);
    }
    let parsed = harn_compiler::parse(&text);
    let findings = analyze_parsed(&parsed, text.len(), doc.manifest);
    (parsed.program, findings, text)
}

fn members(
    doc: &Document<'_>,
    receiver_end: usize,
    offset: usize,
    prefix: Span,
) -> Vec<CompletionItem> {
    let (program, findings, _) = patched(doc, offset);
    let receiver = findings
        .checked
        .types
        .iter()
        .filter(|(s, _)| s.end as usize == receiver_end)
        .max_by_key(|(s, _)| s.end - s.start)
        .map(|(_, t)| t.clone())
        .unwrap_or(Ty::Any);
    let mut items = Vec::new();
    let ty = strip_nil(&receiver);
    for (name, field_ty, optional) in fields_of(&program, &ty) {
        items.push(CompletionItem {
            label: name.clone(),
            kind: Some(CompletionItemKind::FIELD),
            detail: Some(format!(
                "{name}{}: {field_ty}",
                if optional { "?" } else { "" }
            )),
            sort_text: Some(format!("0{name}")),
            text_edit: edit(doc, prefix, name),
            ..CompletionItem::default()
        });
    }
    let receivers = receivers_of(&ty);
    let mut seen = HashSet::new();
    for r in receivers {
        for m in methods_of(r) {
            if !seen.insert(m.name) {
                continue;
            }
            items.push(CompletionItem {
                label: m.name.to_string(),
                kind: Some(CompletionItemKind::METHOD),
                detail: Some(format!("{}.{}{}", r.as_str(), m.name, &m.signature[2..])),
                documentation: markdown(m.doc.to_string()),
                sort_text: Some(format!("1{}", m.name)),
                text_edit: edit(doc, prefix, m.name.to_string()),
                ..CompletionItem::default()
            });
        }
    }
    items
}

/// `T | nil` read as `T` (an optional value, after `?.`).
pub fn strip_nil(ty: &Ty) -> Ty {
    match ty {
        Ty::Union(members) => {
            let rest: Vec<Ty> = members.iter().filter(|m| **m != Ty::Nil).cloned().collect();
            Ty::union(rest)
        }
        other => other.clone(),
    }
}

/// The fields of a shape, or of a struct declared in `program`.
pub fn fields_of(program: &Program, ty: &Ty) -> Vec<(String, Ty, bool)> {
    match ty {
        Ty::Shape(fields, _) => fields
            .iter()
            .map(|f| (f.name.to_string(), f.ty.clone(), f.optional))
            .collect(),
        Ty::Named { name, .. } => program
            .items
            .iter()
            .find_map(|s| match &s.kind {
                StmtKind::Struct(d) if d.name.name == *name => Some(
                    d.fields
                        .iter()
                        .map(|f| {
                            let ty =
                                f.ty.as_ref()
                                    .and_then(|t| harn_compiler::types::lower(t).ok())
                                    .unwrap_or(Ty::Any);
                            (f.name.name.to_string(), ty, f.optional)
                        })
                        .collect(),
                ),
                _ => None,
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// The method tables a value of type `ty` may use (all of them when it is unknown).
pub fn receivers_of(ty: &Ty) -> Vec<Receiver> {
    match ty {
        Ty::String | Ty::StrLit(_) => vec![Receiver::String],
        Ty::List(_) => vec![Receiver::List],
        Ty::Dict(..) | Ty::Shape(..) => vec![Receiver::Dict],
        Ty::Set => vec![Receiver::Set],
        // Ranges also take the lazy iterator methods.
        Ty::Range => vec![Receiver::Range, Receiver::Iter],
        Ty::Named { name, .. } if matches!(name.as_str(), "iter" | "Generator" | "Stream") => {
            vec![Receiver::Iter]
        }
        Ty::Any | Ty::Unknown => Receiver::ALL.to_vec(),
        _ => Vec::new(),
    }
}

fn local_kind(kind: LocalKind) -> CompletionItemKind {
    match kind {
        LocalKind::Variable => CompletionItemKind::VARIABLE,
        LocalKind::Constant => CompletionItemKind::CONSTANT,
        LocalKind::Parameter => CompletionItemKind::VARIABLE,
        LocalKind::Function => CompletionItemKind::FUNCTION,
        LocalKind::Struct => CompletionItemKind::STRUCT,
        LocalKind::Enum => CompletionItemKind::ENUM,
        LocalKind::Interface => CompletionItemKind::INTERFACE,
        LocalKind::TypeAlias => CompletionItemKind::TYPE_PARAMETER,
    }
}

/// A binding's completion item: signature, policy and description.
pub fn binding_item(b: &BindingInfo) -> CompletionItem {
    CompletionItem {
        label: b.binding.clone(),
        kind: Some(CompletionItemKind::FUNCTION),
        detail: Some(b.signature()),
        label_details: Some(CompletionItemLabelDetails {
            detail: Some(format!("({})", b.parameter())),
            description: Some(b.policy_line()),
        }),
        documentation: markdown(crate::hover::binding_markdown(b)),
        sort_text: Some(format!("1{}", b.binding)),
        data: Some(json!({"binding": b.binding})),
        ..CompletionItem::default()
    }
}

fn helper_item(d: &BuiltinDecl) -> CompletionItem {
    CompletionItem {
        label: d.name.to_string(),
        kind: Some(CompletionItemKind::FUNCTION),
        detail: Some(format!(
            "{}{}",
            d.name,
            d.signature.strip_prefix("fn").unwrap_or(d.signature)
        )),
        label_details: Some(CompletionItemLabelDetails {
            detail: None,
            description: Some(d.capability.as_str().to_string()),
        }),
        sort_text: Some(format!("2{}", d.name)),
        data: Some(json!({"helper": d.name})),
        ..CompletionItem::default()
    }
}

fn names(doc: &Document<'_>, offset: usize) -> Vec<CompletionItem> {
    let (program, findings, text) = patched(doc, offset);
    let mut items = Vec::new();
    let mut seen = HashSet::new();
    let mut locals = visible_at(&program, &text, offset);
    if doc.parsed.has_errors() {
        // Names the recovered tree lost (an unclosed block before the cursor).
        let lexical = crate::scope::lexical_locals(doc.text, offset);
        let known: HashSet<String> = locals.iter().map(|l| l.name.clone()).collect();
        let lost = lexical.into_iter().filter(|l| !known.contains(&l.name));
        locals.splice(0..0, lost);
    }
    for local in locals.iter().rev() {
        if local.name == PLACEHOLDER || !seen.insert(local.name.clone()) {
            continue;
        }
        let ty = findings
            .checked
            .types
            .iter()
            .find(|(s, _)| *s == local.decl)
            .map(|(_, t)| t.to_string());
        let detail = match (&local.params, ty) {
            (Some(p), _) => Some(format!("fn {}{p}", local.name)),
            (None, Some(t)) => Some(format!("{}: {t}", local.name)),
            (None, None) => None,
        };
        items.push(CompletionItem {
            label: local.name.clone(),
            kind: Some(local_kind(local.kind)),
            detail,
            sort_text: Some(format!("0{}", local.name)),
            ..CompletionItem::default()
        });
    }
    for b in &doc.bindings.bindings {
        if seen.insert(b.binding.clone()) {
            items.push(binding_item(b));
        }
    }
    for d in BuiltinEnv::global().for_profile(doc.profile()) {
        // `__` names are the runtime's own plumbing, never written by hand.
        if !d.name.starts_with("__") && seen.insert(d.name.to_string()) {
            items.push(helper_item(d));
        }
    }
    for kw in KEYWORDS {
        if seen.insert(kw.to_string()) {
            items.push(CompletionItem {
                label: kw.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                sort_text: Some(format!("3{kw}")),
                ..CompletionItem::default()
            });
        }
    }
    items
}

/// The keywords offered as completions: the statement and expression starters.
const KEYWORDS: &[&str] = &[
    "let",
    "var",
    "const",
    "fn",
    "if",
    "else",
    "for",
    "in",
    "while",
    "match",
    "return",
    "try",
    "catch",
    "finally",
    "throw",
    "guard",
    "require",
    "break",
    "continue",
    "true",
    "false",
    "nil",
    "struct",
    "enum",
    "type",
    "to",
    "exclusive",
    "parallel",
    "defer",
    "retry",
];

/// Whether a word is a reserved word (never a completion of a name).
pub fn is_keyword(word: &str) -> bool {
    Keyword::from_word(word).is_some()
}

/// Fills in the documentation of a completion item the client chose
/// (`completionItem/resolve`): a helper's one-line doc and signature.
pub fn resolve(
    doc_bindings: &crate::document::BindingTable,
    mut item: CompletionItem,
) -> CompletionItem {
    if item.documentation.is_some() {
        return item;
    }
    let data = item.data.clone().unwrap_or_default();
    if let Some(name) = data.get("helper").and_then(|v| v.as_str())
        && let Some(d) = BuiltinEnv::global().get(name)
    {
        item.documentation = markdown(format!(
            "```harn\n{}{}\n```\n{}\n\ncapability: `{}`",
            d.name,
            d.signature.strip_prefix("fn").unwrap_or(d.signature),
            d.doc,
            d.capability.as_str()
        ));
    } else if let Some(name) = data.get("binding").and_then(|v| v.as_str())
        && let Some(b) = doc_bindings.get(name)
    {
        item.documentation = markdown(crate::hover::binding_markdown(b));
    }
    item
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::document::BindingTable;

    #[test]
    fn resolve_fills_a_helpers_documentation() {
        let item = helper_item(BuiltinEnv::global().get("json_parse").unwrap());
        assert!(item.documentation.is_none());
        let resolved = resolve(&BindingTable::default(), item);
        let Some(Documentation::MarkupContent(m)) = resolved.documentation else {
            panic!("no documentation");
        };
        assert!(m.value.contains("json_parse(text: string)"), "{}", m.value);
        assert!(m.value.contains("capability: `pure`"));
    }

    #[test]
    fn nested_types_follow_keys_and_list_elements() {
        let ty = harn_compiler::types::schema_type(&serde_json::json!({
            "type": "object",
            "properties": {"xs": {"type": "array", "items": {"type": "object",
                "properties": {"mode": {"enum": ["a", "b"]}}}}}
        }));
        let inner = nested_type(&ty, &["xs".into(), "[]".into()]).unwrap();
        let Ty::Shape(fields, _) = inner else {
            panic!("not a shape")
        };
        assert_eq!(literal_strings(&fields[0].ty), vec!["a", "b"]);
        assert!(nested_type(&ty, &["nope".into()]).is_none());
    }
}
