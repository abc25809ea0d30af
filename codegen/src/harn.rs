//! The `.harn` API (3.3).

use harn_compiler::manifest::{Binding, Manifest};

use crate::doc::{
    clean_lines, clean_one_line, header, not_callable_lines, provenance_comment, provenance_lines,
};
use crate::lower::{Lowered, Target, Ty, doc_of};
use crate::plan::{Planned, plan};

/// A Harn string literal: `\` `"` `$` newline and tab escaped.
pub fn harn_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '$' => out.push_str("\\$"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Prints a lowered type in Harn syntax.
pub fn harn_type(ty: &Ty) -> String {
    match ty {
        Ty::Json => "JsonValue".into(),
        Ty::Never => "never".into(),
        Ty::Str => "string".into(),
        Ty::Int => "int".into(),
        Ty::Float | Ty::NumLit(_) => "float".into(),
        Ty::Bool | Ty::BoolLit(_) => "bool".into(),
        Ty::Nil => "nil".into(),
        Ty::StrLit(s) => harn_string(s),
        Ty::IntLit(n) => n.to_string(),
        Ty::List(t) => format!("list<{}>", harn_type(t)),
        Ty::Dict(t) => format!("dict<string, {}>", harn_type(t)),
        Ty::Union(ms) => {
            let mut parts: Vec<String> = Vec::new();
            for m in ms {
                let p = harn_type(m);
                if !parts.contains(&p) {
                    parts.push(p);
                }
            }
            parts.join(" | ")
        }
        Ty::Inter(_) | Ty::Named(_) => "JsonValue".into(),
        Ty::Record(r) => {
            let fields: Vec<String> = r
                .fields
                .iter()
                .map(|f| {
                    format!(
                        "{}{}: {}",
                        f.key,
                        if f.optional { "?" } else { "" },
                        harn_type(&f.ty)
                    )
                })
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
    }
}

fn doc_block(b: &Binding, args: &Lowered) -> Vec<String> {
    let mut lines = Vec::new();
    if let Some(d) = &b.description {
        lines.extend(clean_lines(d));
        lines.push(String::new());
    }
    lines.extend(provenance_lines(b));
    if let Some(props) = b.input_schema.get("properties").and_then(|p| p.as_object()) {
        let mut props: Vec<_> = props.iter().collect();
        props.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        for (key, v) in props {
            if let Some(d) = doc_of(v) {
                lines.push(clean_one_line(&format!("- {key}: {d}")));
            }
        }
    }
    if !args.omitted.is_empty() {
        let names: Vec<String> = args.omitted.iter().map(|k| harn_string(k)).collect();
        lines.push(clean_one_line(&format!(
            "Also accepts: {}",
            names.join(", ")
        )));
    }
    lines
        .into_iter()
        .map(|l| {
            if l.is_empty() {
                "///".to_string()
            } else {
                format!("/// {l}")
            }
        })
        .collect()
}

/// The `.harn` API of a manifest.
pub fn emit_harn(m: &Manifest) -> String {
    let mut out = vec![
        header(&m.hash()),
        "// Each function below is a governed tool call. For concurrent fan-out use".into(),
        "// map_bounded(items, { item -> ... }, {concurrency: N}).".into(),
        String::new(),
        "type JsonValue = any".into(),
    ];
    if m.state.is_some() {
        out.push(String::new());
        out.push("type CompositionState = {get: fn(string) -> JsonValue, put: fn(string, JsonValue) -> nil, list: fn() -> list<string>, delete: fn(string) -> bool}".into());
        out.push("// `state: CompositionState` is provided by the executor.".into());
    }
    let plan = plan(m, Target::Harn);
    for Planned {
        binding: b,
        args_name,
        args,
        result,
    } in &plan.callable
    {
        out.push(String::new());
        out.extend(doc_block(b, args));
        out.push(format!("type {args_name} = {}", harn_type(&args.ty)));
        let result = match result {
            Some((result_name, lowered)) => {
                out.push(format!("type {result_name} = {}", harn_type(&lowered.ty)));
                result_name.clone()
            }
            None => "JsonValue".to_string(),
        };
        if let Some(p) = provenance_comment(b) {
            out.push(format!("// {p}"));
        }
        out.push(format!(
            "fn {}(args: {args_name}) -> {result} {{",
            b.binding
        ));
        out.push(format!(
            "  return call_tool({}, args)",
            harn_string(&b.name)
        ));
        out.push("}".into());
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
