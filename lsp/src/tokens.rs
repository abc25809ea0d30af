//! Semantic tokens: keywords, literals, operators from the lexer; names classified by
//! what they resolve to (a parameter, a function, a binding, a helper, a property).

use harn_compiler::ast::Span;
use harn_compiler::lexer::{StrSeg, StrValue, Tok, Token, lex_fragment, string_value};
use tower_lsp_server::ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
};

use crate::document::Document;
use crate::scope::LocalKind;
use crate::syntax::tokens;

const TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::KEYWORD,
    SemanticTokenType::STRING,
    SemanticTokenType::NUMBER,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::PARAMETER,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::TYPE,
    SemanticTokenType::METHOD,
];

const MODIFIERS: &[SemanticTokenModifier] = &[
    SemanticTokenModifier::DECLARATION,
    SemanticTokenModifier::DEFAULT_LIBRARY,
];

const KEYWORD: u32 = 0;
const STRING: u32 = 1;
const NUMBER: u32 = 2;
const OPERATOR: u32 = 3;
const VARIABLE: u32 = 4;
const PARAMETER: u32 = 5;
const FUNCTION: u32 = 6;
const PROPERTY: u32 = 7;
const TYPE: u32 = 8;
const METHOD: u32 = 9;
const DECLARATION: u32 = 1;
const DEFAULT_LIBRARY: u32 = 2;

pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: MODIFIERS.to_vec(),
    }
}

struct Raw {
    span: Span,
    kind: u32,
    modifiers: u32,
}

fn classify_ident(
    doc: &Document<'_>,
    tokens: &[Token],
    i: usize,
    name: &str,
    locals: &[crate::scope::Local],
) -> (u32, u32) {
    let span = tokens[i].span;
    let prev = i.checked_sub(1).and_then(|p| tokens.get(p)).map(|t| &t.tok);
    let next = tokens.get(i + 1).map(|t| &t.tok);
    if matches!(prev, Some(Tok::Dot | Tok::QuestionDot)) {
        return if next == Some(&Tok::LParen) {
            (METHOD, 0)
        } else {
            (PROPERTY, 0)
        };
    }
    let starts_entry = matches!(
        prev,
        Some(Tok::LBrace | Tok::ClosureBrace | Tok::Comma | Tok::Newline)
    );
    if starts_entry && next == Some(&Tok::Colon) {
        return (PROPERTY, 0);
    }
    let def = doc
        .definition_at(span.start as usize)
        .map(|(_, d)| d)
        .unwrap_or(span);
    if let Some(local) = locals.iter().find(|l| l.decl == def) {
        let modifiers = if def == span { DECLARATION } else { 0 };
        let kind = match local.kind {
            LocalKind::Parameter => PARAMETER,
            LocalKind::Function => FUNCTION,
            LocalKind::Struct | LocalKind::Enum | LocalKind::Interface | LocalKind::TypeAlias => {
                TYPE
            }
            LocalKind::Variable | LocalKind::Constant => VARIABLE,
        };
        return (kind, modifiers);
    }
    if doc.bindings.get(name).is_some() || doc.helper(name).is_some() {
        return (FUNCTION, DEFAULT_LIBRARY);
    }
    if name.starts_with(|c: char| c.is_ascii_uppercase()) {
        return (TYPE, 0);
    }
    (VARIABLE, 0)
}

fn push_token(
    doc: &Document<'_>,
    tokens: &[Token],
    i: usize,
    locals: &[crate::scope::Local],
    out: &mut Vec<Raw>,
) {
    let t = &tokens[i];
    let (kind, modifiers) = match &t.tok {
        Tok::Kw(_) | Tok::TryStar => (KEYWORD, 0),
        Tok::Int | Tok::Float | Tok::Duration => (NUMBER, 0),
        Tok::Str | Tok::RawStr => (STRING, 0),
        Tok::IStr(_) => {
            if let Some(StrValue::Segments(segs)) = string_value(doc.text, t.span) {
                interpolated(doc, t.span, &segs, locals, out);
            }
            return;
        }
        Tok::Ident => classify_ident(doc, tokens, i, t.text(doc.text), locals),
        t if t.is_operator() => (OPERATOR, 0),
        _ => return,
    };
    out.push(Raw {
        span: t.span,
        kind,
        modifiers,
    });
}

/// A string with holes: the text parts as strings, each hole's tokens as code.
fn interpolated(
    doc: &Document<'_>,
    span: Span,
    segs: &[StrSeg],
    locals: &[crate::scope::Local],
    out: &mut Vec<Raw>,
) {
    let mut at = span.start;
    for seg in segs {
        if let StrSeg::Hole { text, offset, .. } = seg {
            // `${` before the hole's text, `}` after it.
            let hole_start = offset.saturating_sub(2);
            if hole_start > at {
                out.push(Raw {
                    span: Span {
                        start: at,
                        end: hole_start,
                    },
                    kind: STRING,
                    modifiers: 0,
                });
            }
            let inner = lex_fragment(text, *offset).tokens;
            for i in 0..inner.len() {
                push_token(doc, &inner, i, locals, out);
            }
            at = offset + u32::try_from(text.len()).unwrap_or(0) + 1;
        }
    }
    if span.end > at {
        out.push(Raw {
            span: Span {
                start: at,
                end: span.end,
            },
            kind: STRING,
            modifiers: 0,
        });
    }
}

/// Every semantic token of the document, delta-encoded; tokens over several lines are
/// split per line.
pub fn semantic_tokens(doc: &Document<'_>) -> SemanticTokens {
    let toks = tokens(doc.text);
    let locals = visible_all(doc);
    let mut raw = Vec::new();
    for i in 0..toks.len() {
        push_token(doc, &toks, i, &locals, &mut raw);
    }
    raw.sort_by_key(|r| r.span.start);
    let mut data = Vec::with_capacity(raw.len());
    let (mut prev_line, mut prev_col) = (0u32, 0u32);
    for r in raw {
        let mut start = r.span.start as usize;
        let end = r.span.end as usize;
        while start < end {
            let line_end = doc
                .text
                .get(start..end)
                .and_then(|s| s.find('\n'))
                .map_or(end, |i| start + i);
            let p = doc.index.position(doc.text, start);
            let q = doc.index.position(doc.text, line_end);
            let length = q.character.saturating_sub(p.character);
            if length > 0 {
                let delta_line = p.line - prev_line;
                let delta_start = if delta_line == 0 {
                    p.character - prev_col
                } else {
                    p.character
                };
                data.push(SemanticToken {
                    delta_line,
                    delta_start,
                    length,
                    token_type: r.kind,
                    token_modifiers_bitset: r.modifiers,
                });
                prev_line = p.line;
                prev_col = p.character;
            }
            start = line_end + 1;
        }
    }
    SemanticTokens {
        result_id: None,
        data,
    }
}

/// Every declaration of the file, whatever its scope (for classifying names).
fn visible_all(doc: &Document<'_>) -> Vec<crate::scope::Local> {
    crate::scope::declarations(&doc.parsed.program, doc.text)
}
