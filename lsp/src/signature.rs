//! Signature help: the call around the cursor (a binding, a helper, a method or a
//! function of the file) with its parameters and the active one.

use harn_compiler::ast::StmtKind;
use harn_compiler::builtins::methods::{METHODS, MethodDecl};
use harn_compiler::builtins::{BuiltinDecl, BuiltinEnv};
use tower_lsp_server::ls_types::{
    Documentation, MarkupContent, MarkupKind, ParameterInformation, ParameterLabel, SignatureHelp,
    SignatureInformation,
};

use crate::document::Document;
use crate::syntax::call_context;

/// A signature as a label plus the label's parameter parts.
struct Sig {
    label: String,
    params: Vec<String>,
    doc: Option<String>,
}

impl Sig {
    fn new(name: &str, params: Vec<String>, ret: Option<&str>, doc: Option<String>) -> Sig {
        let mut label = format!("{name}({})", params.join(", "));
        if let Some(r) = ret {
            label.push_str(" -> ");
            label.push_str(r);
        }
        Sig { label, params, doc }
    }

    fn info(self, active: usize) -> SignatureInformation {
        let mut at = self.label.find('(').map_or(0, |i| i + 1);
        let mut parameters = Vec::new();
        for p in &self.params {
            let start = utf16_len(&self.label[..at]);
            let end = start + utf16_len(p);
            parameters.push(ParameterInformation {
                label: ParameterLabel::LabelOffsets([start, end]),
                documentation: None,
            });
            at += p.len() + 2;
        }
        let last = parameters.len().saturating_sub(1);
        let rest = self.params.last().is_some_and(|p| p.starts_with("..."));
        let active = if rest { active.min(last) } else { active };
        SignatureInformation {
            label: self.label,
            documentation: self.doc.map(|value| {
                Documentation::MarkupContent(MarkupContent {
                    kind: MarkupKind::Markdown,
                    value,
                })
            }),
            parameters: Some(parameters),
            active_parameter: u32::try_from(active).ok(),
        }
    }
}

fn utf16_len(s: &str) -> u32 {
    u32::try_from(s.encode_utf16().count()).unwrap_or(u32::MAX)
}

/// Splits `fn(a: T, b?: U) -> R` into its parameter texts and return type.
fn split_signature(sig: &str) -> (Vec<String>, Option<String>) {
    let body = sig.strip_prefix("fn").unwrap_or(sig);
    let Some(open) = body.find('(') else {
        return (Vec::new(), None);
    };
    let mut depth = 0i32;
    let mut close = body.len();
    let mut params = Vec::new();
    let mut start = open + 1;
    for (i, c) in body.char_indices().skip(open) {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' if !(c == '>' && body[..i].ends_with('-')) => {
                depth -= 1;
                if depth == 0 {
                    close = i;
                    break;
                }
            }
            ',' if depth == 1 => {
                params.push(body[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    let last = body.get(start..close).unwrap_or("").trim();
    if !last.is_empty() {
        params.push(last.to_string());
    }
    let ret = body
        .get(close + 1..)
        .and_then(|r| r.trim().strip_prefix("->"))
        .map(|r| r.trim().to_string());
    (params, ret)
}

fn helper_sig(d: &BuiltinDecl) -> Sig {
    let (params, ret) = split_signature(d.signature);
    Sig::new(d.name, params, ret.as_deref(), Some(d.doc.to_string()))
}

fn method_sig(m: &MethodDecl) -> Sig {
    let (params, ret) = split_signature(m.signature);
    let name = format!("{}.{}", m.receiver.as_str(), m.name);
    Sig::new(&name, params, ret.as_deref(), Some(m.doc.to_string()))
}

/// The signature help at byte `offset`.
pub fn signature_help(doc: &Document<'_>, offset: usize) -> Option<SignatureHelp> {
    let ctx = call_context(doc.text, offset)?;
    let sigs: Vec<Sig> = if ctx.is_method {
        METHODS
            .iter()
            .filter(|m| m.name == ctx.callee)
            .map(method_sig)
            .collect()
    } else if let Some(b) = doc.bindings.get(&ctx.callee) {
        vec![Sig::new(
            &b.binding,
            vec![b.parameter()],
            Some(&b.output.to_string()),
            Some(crate::hover::binding_markdown(b)),
        )]
    } else if let Some(f) = doc.parsed.program.items.iter().find_map(|s| match &s.kind {
        StmtKind::Fn(f) if f.name.name == ctx.callee => Some(f),
        _ => None,
    }) {
        let params = f
            .params
            .iter()
            .map(|p| {
                doc.text
                    .get(p.span.range())
                    .unwrap_or(&p.name.name)
                    .to_string()
            })
            .collect();
        let ret = f.ret.as_ref().and_then(|t| doc.text.get(t.span.range()));
        vec![Sig::new(&ctx.callee, params, ret, None)]
    } else if let Some(d) = doc.helper(&ctx.callee) {
        vec![helper_sig(d)]
    } else if let Some(d) = BuiltinEnv::global().get(&ctx.callee) {
        vec![helper_sig(d)]
    } else {
        return None;
    };
    if sigs.is_empty() {
        return None;
    }
    Some(SignatureHelp {
        signatures: sigs.into_iter().map(|s| s.info(ctx.active)).collect(),
        active_signature: Some(0),
        active_parameter: u32::try_from(ctx.active).ok(),
    })
}

#[cfg(test)]
mod tests {
    use super::split_signature;

    #[test]
    fn signatures_split_at_top_level_commas() {
        let (p, r) = split_signature("fn(xs: list<int>, f: fn(int, int) -> int, n?: int) -> int");
        assert_eq!(
            p,
            vec!["xs: list<int>", "f: fn(int, int) -> int", "n?: int"]
        );
        assert_eq!(r.as_deref(), Some("int"));
        let (p, r) = split_signature("fn()");
        assert!(p.is_empty());
        assert_eq!(r, None);
    }
}
