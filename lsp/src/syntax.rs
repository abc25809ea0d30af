//! Syntax helpers the features share: the tree walk (the compiler's `ast_walk`), and the
//! token-level context of a cursor (the call or argument dict it is in), which still works where the
//! tree could not be recovered.

use harn_compiler::ast::Span;
pub use harn_compiler::ast_walk::{Node, expr_children, stmt_children, walk_exprs};
use harn_compiler::lexer::{StrValue, Tok, Token, lex, string_value};

/// The tokens of a text (lexical errors dropped: the parse reports them).
pub fn tokens(text: &str) -> Vec<Token> {
    lex(text).tokens
}

/// Whether `b` is an identifier character.
pub fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The identifier characters just before `offset`: the word being typed.
pub fn prefix_span(text: &str, offset: usize) -> Span {
    let bytes = text.as_bytes();
    let mut start = offset.min(bytes.len());
    while start > 0 && bytes.get(start - 1).copied().is_some_and(is_ident_byte) {
        start -= 1;
    }
    Span::new(start, offset)
}

/// The whole identifier around `offset`, if there is one.
pub fn word_at(text: &str, offset: usize) -> Option<(Span, &str)> {
    let bytes = text.as_bytes();
    let mut start = offset.min(bytes.len());
    while start > 0 && bytes.get(start - 1).copied().is_some_and(is_ident_byte) {
        start -= 1;
    }
    let mut end = offset.min(bytes.len());
    while bytes.get(end).copied().is_some_and(is_ident_byte) {
        end += 1;
    }
    let word = text.get(start..end)?;
    if word.is_empty() || word.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    Some((Span::new(start, end), word))
}

/// An unclosed call around the cursor: `callee(arg, arg, |`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallContext {
    pub callee: String,
    pub callee_span: Span,
    /// A method call (`x.callee(`): not a binding or helper.
    pub is_method: bool,
    /// The index of the argument the cursor is in.
    pub active: usize,
}

/// An argument dict of a call around the cursor: `callee({key: v, |`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DictContext {
    pub callee: String,
    /// From the argument dict to the dict the cursor is in: a key whose value holds it,
    /// or `[]` for an element of a list (empty: the argument dict itself).
    pub path: Vec<String>,
    /// Keys written in the dict (before and after the cursor).
    pub present: Vec<String>,
    pub position: DictPosition,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DictPosition {
    /// Where a key goes (possibly half typed).
    Key,
    /// Inside the string value of `key`; `span` is the string's contents.
    StringValue { key: String, span: Span },
    /// Elsewhere in a value.
    Value,
}

fn opener(t: &Tok) -> bool {
    matches!(
        t,
        Tok::LParen | Tok::LBracket | Tok::LBrace | Tok::ClosureBrace
    )
}

fn closer(t: &Tok) -> bool {
    matches!(t, Tok::RParen | Tok::RBracket | Tok::RBrace)
}

/// The index of the innermost bracket opened before `offset` and not closed before it,
/// with the number of top-level commas between it and `offset`.
fn enclosing(tokens: &[Token], offset: usize) -> Option<(usize, usize)> {
    let before = tokens.partition_point(|t| (t.span.end as usize) <= offset);
    let mut depth = 0usize;
    let mut commas = 0usize;
    for i in (0..before).rev() {
        let t = &tokens[i].tok;
        if closer(t) {
            depth += 1;
        } else if opener(t) {
            if depth == 0 {
                return Some((i, commas));
            }
            depth -= 1;
        } else if depth == 0 && *t == Tok::Comma {
            commas += 1;
        }
    }
    None
}

fn callee_before(text: &str, tokens: &[Token], paren: usize) -> Option<(String, Span, bool)> {
    let prev = tokens.get(paren.checked_sub(1)?)?;
    if prev.tok != Tok::Ident {
        return None;
    }
    let name = prev.text(text);
    let is_method = paren >= 2
        && matches!(
            tokens.get(paren - 2).map(|t| &t.tok),
            Some(Tok::Dot | Tok::QuestionDot)
        );
    Some((name.to_string(), prev.span, is_method))
}

/// The call whose argument list holds `offset`, if any.
pub fn call_context(text: &str, offset: usize) -> Option<CallContext> {
    let tokens = tokens(text);
    let mut at = offset;
    // Look through enclosing dicts and lists to the call they are an argument of.
    loop {
        let (open, commas) = enclosing(&tokens, at)?;
        if tokens[open].tok == Tok::LParen {
            let (callee, callee_span, is_method) = callee_before(text, &tokens, open)?;
            return Some(CallContext {
                callee,
                callee_span,
                is_method,
                active: commas,
            });
        }
        at = tokens[open].span.start as usize;
    }
}

/// The argument dict of a call `name({ ... })` that holds `offset`, if any.
pub fn dict_context(text: &str, offset: usize) -> Option<DictContext> {
    let tokens = tokens(text);
    // Inside a string token, the dict is around the string.
    let in_string = tokens
        .iter()
        .find(|t| (t.span.start as usize) < offset && offset < t.span.end as usize);
    let (open, _) = enclosing(&tokens, offset)?;
    if !matches!(tokens[open].tok, Tok::LBrace | Tok::ClosureBrace) {
        return None;
    }
    let (callee, path) = dict_owner(text, &tokens, open)?;
    let present = keys_of_dict(text, &tokens, open);
    // The entry the cursor is in: the tokens after the last top-level comma.
    let before = tokens.partition_point(|t| (t.span.end as usize) <= offset);
    let mut depth = 0usize;
    let mut entry_start = open + 1;
    for i in (open + 1..before).rev() {
        let t = &tokens[i].tok;
        if closer(t) {
            depth += 1;
        } else if opener(t) {
            depth = depth.saturating_sub(1);
        } else if depth == 0 && *t == Tok::Comma {
            entry_start = i + 1;
            break;
        }
    }
    let entry = tokens.get(entry_start..before).unwrap_or(&[]);
    let colon = entry.iter().position(|t| t.tok == Tok::Colon);
    let position = match (colon, in_string) {
        (None, None) => DictPosition::Key,
        (None, Some(_)) => DictPosition::Value,
        (Some(c), Some(s)) if c == 1 && s.tok == Tok::Str => DictPosition::StringValue {
            key: key_name(text, &entry[0]).unwrap_or_default(),
            span: Span::new(
                s.span.start as usize + 1,
                (s.span.end as usize).saturating_sub(1),
            ),
        },
        _ => DictPosition::Value,
    };
    Some(DictContext {
        callee,
        path,
        present,
        position,
    })
}

/// The call whose argument dict (possibly several dicts and lists out) is opened at
/// `open`, with the path of keys from that argument to `open`.
fn dict_owner(text: &str, tokens: &[Token], open: usize) -> Option<(String, Vec<String>)> {
    let mut path = Vec::new();
    let mut at = open;
    // Each step moves one bracket out; nesting is capped by the parser's limit anyway.
    for _ in 0..256 {
        let prev = tokens.get(at.checked_sub(1)?)?;
        match &prev.tok {
            Tok::LParen if matches!(tokens[at].tok, Tok::LBrace | Tok::ClosureBrace) => {
                let (callee, _, is_method) = callee_before(text, tokens, at - 1)?;
                if is_method {
                    return None;
                }
                path.reverse();
                return Some((callee, path));
            }
            Tok::Colon => {
                let key_token = tokens.get(at.checked_sub(2)?)?;
                path.push(key_name(text, key_token)?);
                let (outer, _) = enclosing(tokens, key_token.span.start as usize)?;
                if !matches!(tokens[outer].tok, Tok::LBrace | Tok::ClosureBrace) {
                    return None;
                }
                at = outer;
            }
            Tok::Comma | Tok::LBracket | Tok::Newline => {
                let (outer, _) = enclosing(tokens, tokens[at].span.start as usize)?;
                if tokens[outer].tok != Tok::LBracket {
                    return None;
                }
                path.push("[]".into());
                at = outer;
            }
            _ => return None,
        }
    }
    None
}

fn key_name(text: &str, t: &Token) -> Option<String> {
    match t.tok {
        Tok::Ident => Some(t.text(text).to_string()),
        Tok::Str => match string_value(text, t.span)? {
            StrValue::Text(value) => Some(value),
            StrValue::Segments(_) => None,
        },
        Tok::Kw(k) => Some(k.as_str().to_string()),
        _ => None,
    }
}

/// The keys written at the top level of the dict opened at `open`.
fn keys_of_dict(text: &str, tokens: &[Token], open: usize) -> Vec<String> {
    let mut keys = Vec::new();
    let mut depth = 0usize;
    let mut at_entry_start = true;
    let mut i = open + 1;
    while let Some(t) = tokens.get(i) {
        if closer(&t.tok) {
            if depth == 0 {
                break;
            }
            depth -= 1;
        } else if opener(&t.tok) {
            depth += 1;
        } else if depth == 0 {
            if at_entry_start
                && tokens.get(i + 1).map(|n| &n.tok) == Some(&Tok::Colon)
                && let Some(k) = key_name(text, t)
            {
                keys.push(k);
            }
            at_entry_start = t.tok == Tok::Comma || t.tok == Tok::Newline;
            i += 1;
            continue;
        }
        at_entry_start = false;
        i += 1;
    }
    keys
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn at(src: &str) -> (String, usize) {
        let offset = src.find("$0").unwrap();
        (src.replace("$0", ""), offset)
    }

    #[test]
    fn call_context_counts_arguments_through_dicts() {
        let (text, offset) = at("let x = f(1, {a: [2, 3$0");
        let c = call_context(&text, offset).unwrap();
        assert_eq!((c.callee.as_str(), c.active), ("f", 1));
        let (text, offset) = at("xs.map(1, $0)");
        let c = call_context(&text, offset).unwrap();
        assert!(c.is_method);
        assert_eq!(c.active, 1);
    }

    #[test]
    fn dict_context_finds_keys_and_string_values() {
        let (text, offset) = at("read({path: \"a\", $0})");
        let c = dict_context(&text, offset).unwrap();
        assert_eq!(c.callee, "read");
        assert_eq!(c.present, vec!["path".to_string()]);
        assert_eq!(c.position, DictPosition::Key);
        let (text, offset) = at("read({mode: \"r$0\"})");
        let c = dict_context(&text, offset).unwrap();
        assert!(matches!(c.position, DictPosition::StringValue { ref key, .. } if key == "mode"));
        let (text, offset) = at("read({path: x$0})");
        assert_eq!(
            dict_context(&text, offset).unwrap().position,
            DictPosition::Value
        );
        assert!(dict_context("xs.map({x -> x})", 9).is_none());
        let (text, offset) = at("create({entities: [{name: \"a\"}, {$0}]})");
        let c = dict_context(&text, offset).unwrap();
        assert_eq!(c.path, vec!["entities".to_string(), "[]".to_string()]);
        assert!(c.present.is_empty());
    }
}
