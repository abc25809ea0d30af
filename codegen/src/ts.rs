//! The TypeScript `.d.ts` (3.4).

use harn_compiler::manifest::{Binding, Manifest};

use crate::doc::{clean_lines, header, not_callable_lines, provenance_lines};
use crate::lower::{Target, Ty};
use crate::plan::{Planned, plan};

/// A JSON string literal with U+2028 / U+2029 escaped (valid in TypeScript).
pub fn ts_string(s: &str) -> String {
    Value::String(s.to_string())
        .to_string()
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

use serde_json::Value;

fn is_ident(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A property name: bare when an identifier, else a string literal.
pub fn ts_key(key: &str) -> String {
    if is_ident(key) {
        key.to_string()
    } else {
        ts_string(key)
    }
}

const INDEX: &str = "[key: string]: JsonValue | undefined";

/// Prints a lowered type in TypeScript syntax.
pub fn ts_type(ty: &Ty) -> String {
    match ty {
        Ty::Json => "JsonValue".into(),
        Ty::Never => "never".into(),
        Ty::Str => "string".into(),
        Ty::Int | Ty::Float => "number".into(),
        Ty::Bool => "boolean".into(),
        Ty::Nil => "null".into(),
        Ty::StrLit(s) => ts_string(s),
        Ty::IntLit(n) => n.to_string(),
        Ty::NumLit(n) => n.clone(),
        Ty::BoolLit(b) => b.to_string(),
        Ty::Named(n) => n.clone(),
        Ty::List(t) => match **t {
            Ty::Union(_) => format!("({})[]", ts_type(t)),
            _ => format!("{}[]", ts_type(t)),
        },
        Ty::Dict(t) => format!("{{ [key: string]: {} }}", ts_type(t)),
        Ty::Union(ms) => {
            let mut parts: Vec<String> = Vec::new();
            for m in ms {
                let p = ts_type(m);
                if !parts.contains(&p) {
                    parts.push(p);
                }
            }
            parts.join(" | ")
        }
        Ty::Inter(ms) => {
            let parts: Vec<String> = ms
                .iter()
                .map(|m| match m {
                    Ty::Union(_) => format!("({})", ts_type(m)),
                    _ => ts_type(m),
                })
                .collect();
            format!("({})", parts.join(" & "))
        }
        Ty::Record(r) => {
            let mut parts: Vec<String> = r
                .fields
                .iter()
                .map(|f| {
                    format!(
                        "{}{}: {}",
                        ts_key(&f.key),
                        if f.optional { "?" } else { "" },
                        ts_type(&f.ty)
                    )
                })
                .collect();
            if r.open {
                parts.push(INDEX.to_string());
            }
            if parts.is_empty() {
                "{}".into()
            } else {
                format!("{{ {} }}", parts.join("; "))
            }
        }
    }
}

fn jsdoc(lines: &[String], indent: &str) -> Vec<String> {
    if lines.len() == 1 {
        return vec![format!("{indent}/** {} */", lines[0])];
    }
    let mut out = vec![format!("{indent}/**")];
    for l in lines {
        if l.is_empty() {
            out.push(format!("{indent} *"));
        } else {
            out.push(format!("{indent} * {l}"));
        }
    }
    out.push(format!("{indent} */"));
    out
}

fn doc_lines(b: &Binding) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(d) = &b.description {
        lines.extend(clean_lines(d));
        lines.push(String::new());
    }
    lines.extend(provenance_lines(b));
    lines
}

/// `export interface` for records, `export type` otherwise.
fn declare(name: &str, ty: &Ty) -> Vec<String> {
    match ty {
        Ty::Record(r) => {
            let mut out = vec![format!("export interface {name} {{")];
            for f in &r.fields {
                if let Some(d) = &f.doc {
                    let lines = clean_lines(d);
                    out.extend(jsdoc(&lines, "  "));
                }
                out.push(format!(
                    "  {}{}: {};",
                    ts_key(&f.key),
                    if f.optional { "?" } else { "" },
                    ts_type(&f.ty)
                ));
            }
            if r.open {
                out.push(format!("  {INDEX};"));
            }
            out.push("}".into());
            out
        }
        other => vec![format!("export type {name} = {};", ts_type(other))],
    }
}

/// The `.d.ts` of a manifest.
pub fn emit_ts(m: &Manifest) -> String {
    let mut out = Vec::new();
    out.push(header(&m.hash()));
    out.push("export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };".into());
    out.push("export type CompositionToolResult = JsonValue;".into());
    if m.state.is_some() {
        out.push(String::new());
        out.push("export interface CompositionState { get(key: string): Promise<JsonValue>; put(key: string, value: JsonValue): Promise<void>; list(): Promise<string[]>; delete(key: string): Promise<boolean>; }".into());
        out.push("export declare const state: CompositionState;".into());
    }
    let plan = plan(m, Target::Ts);
    for Planned {
        binding: b,
        args_name,
        args,
        result,
    } in &plan.callable
    {
        out.push(String::new());
        for (alias, ty) in &args.aliases {
            out.push(format!("export type {alias} = {};", ts_type(ty)));
        }
        out.extend(jsdoc(&doc_lines(b), ""));
        out.extend(declare(args_name, &args.ty));
        let result = match result {
            Some((result_name, lowered)) => {
                for (alias, ty) in &lowered.aliases {
                    out.push(format!("export type {alias} = {};", ts_type(ty)));
                }
                out.extend(declare(result_name, &lowered.ty));
                result_name.clone()
            }
            None => "CompositionToolResult".to_string(),
        };
        out.push(format!(
            "export declare function {}(args: {args_name}): Promise<{result}>;",
            b.binding
        ));
    }
    if !plan.others.is_empty() {
        out.push(String::new());
        out.push("// Not callable (no declaration):".into());
        out.extend(
            not_callable_lines(&plan.others)
                .into_iter()
                .map(|l| format!("// {l}")),
        );
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}
