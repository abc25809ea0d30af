//! Hover: a binding's description, argument and result types, side-effect level and
//! policy; a helper's signature and doc; a method's; a local's inferred type; an
//! argument key's type and description.

use harn_compiler::ast::Span;
use harn_compiler::builtins::methods::method;
use tower_lsp_server::ls_types::{Hover, HoverContents, MarkupContent, MarkupKind};

use crate::complete::{receivers_of, strip_nil};
use crate::document::{BindingInfo, Document};
use crate::scope::visible_at;
use crate::syntax::{DictPosition, dict_context, word_at};

/// The markdown shown for a binding (hover and completion documentation).
pub fn binding_markdown(b: &BindingInfo) -> String {
    let mut out = format!("```harn\n{}\n```\n", b.signature());
    if let Some(d) = &b.description {
        out.push_str(d.trim());
        out.push_str("\n\n");
    }
    out.push_str(&format!(
        "side effect: `{}` · policy: `{}`",
        b.level, b.disposition
    ));
    if let Some(r) = &b.reason {
        out.push_str(&format!(" ({r})"));
    }
    if b.name != b.binding {
        out.push_str(&format!(" · tool `{}`", b.name));
    }
    out.push('\n');
    if !b.fields.is_empty() {
        out.push_str("\n**arguments**\n");
        for f in &b.fields {
            out.push_str(&format!(
                "- `{}{}: {}`",
                f.name,
                if f.optional { "?" } else { "" },
                f.ty
            ));
            if let Some(d) = &f.doc {
                out.push_str(&format!(" — {}", d.trim()));
            }
            out.push('\n');
        }
    }
    out.push_str(&format!("\n**returns** `{}`\n", b.output));
    out
}

fn hover_of(doc: &Document<'_>, span: Span, value: String) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(doc.index.range(doc.text, span)),
    }
}

/// The hover at byte `offset`, if there is anything to say.
pub fn hover(doc: &Document<'_>, offset: usize) -> Option<Hover> {
    let (span, word) = word_at(doc.text, offset)?;
    let before = doc.text.get(..span.start as usize).unwrap_or("");
    // An argument key of a binding call.
    if let Some(ctx) = dict_context(doc.text, span.start as usize)
        && ctx.position == DictPosition::Key
        && let Some(b) = doc.bindings.get(&ctx.callee)
        && let Some(f) = b.field(word)
    {
        let mut text = format!(
            "```harn\n{}{}: {}\n```\n",
            f.name,
            if f.optional { "?" } else { "" },
            f.ty
        );
        if let Some(d) = &f.doc {
            text.push_str(d.trim());
        }
        return Some(hover_of(doc, span, text));
    }
    if before.ends_with('.') {
        return member_hover(doc, span, word);
    }
    if let Some((use_span, def)) = doc.definition_at(offset) {
        let ty = doc.type_at(use_span).or_else(|| doc.type_at(def));
        let local = visible_at(&doc.parsed.program, doc.text, offset)
            .into_iter()
            .rev()
            .find(|l| l.decl == def);
        let text = match (local.and_then(|l| l.params), ty) {
            (Some(params), _) => format!("```harn\nfn {word}{params}\n```"),
            (None, Some(t)) => format!("```harn\n{word}: {t}\n```"),
            (None, None) => format!("```harn\n{word}\n```"),
        };
        return Some(hover_of(doc, span, text));
    }
    if let Some(b) = doc.bindings.get(word) {
        return Some(hover_of(doc, span, binding_markdown(b)));
    }
    if let Some(d) = doc.helper(word) {
        let text = format!(
            "```harn\n{}{}\n```\n{}\n\ncapability: `{}`",
            d.name,
            d.signature.strip_prefix("fn").unwrap_or(d.signature),
            d.doc,
            d.capability.as_str()
        );
        return Some(hover_of(doc, span, text));
    }
    // A declaration itself: the type the checker gave it.
    if let Some(t) = doc.type_at(span) {
        return Some(hover_of(doc, span, format!("```harn\n{word}: {t}\n```")));
    }
    None
}

fn member_hover(doc: &Document<'_>, span: Span, word: &str) -> Option<Hover> {
    let receiver_end = span.start.saturating_sub(1);
    let receiver_end = if doc.text.get(..receiver_end as usize)?.ends_with('?') {
        receiver_end - 1
    } else {
        receiver_end
    };
    let receiver = doc
        .findings
        .checked
        .types
        .iter()
        .filter(|(s, _)| s.end == receiver_end)
        .max_by_key(|(s, _)| s.end - s.start)
        .map(|(_, t)| strip_nil(t));
    // The whole member expression's type, when the checker knows it.
    let whole = doc
        .findings
        .checked
        .types
        .iter()
        .filter(|(s, _)| s.end == span.end && s.start < span.start)
        .min_by_key(|(s, _)| s.end - s.start)
        .map(|(_, t)| t.clone());
    // An unknown receiver may be any kind: every method of that name is shown.
    let receiver = receiver.unwrap_or(harn_compiler::types::Ty::Any);
    let found: Vec<_> = receivers_of(&receiver)
        .into_iter()
        .filter_map(|r| method(r, word).map(|m| (r, m)))
        .collect();
    if let Some((_, first)) = found.first() {
        let lines: Vec<String> = found
            .iter()
            .map(|(r, m)| {
                format!(
                    "{}.{}{}",
                    r.as_str(),
                    m.name,
                    m.signature.strip_prefix("fn").unwrap_or(m.signature)
                )
            })
            .collect();
        let text = format!("```harn\n{}\n```\n{}", lines.join("\n"), first.doc);
        return Some(hover_of(doc, span, text));
    }
    let t = whole?;
    Some(hover_of(doc, span, format!("```harn\n{word}: {t}\n```")))
}
