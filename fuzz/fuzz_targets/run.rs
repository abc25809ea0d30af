//! Compile and run generated programs in code mode under tight limits with the mock
//! host: every run must end with a report (a category, never a panic) within its
//! deadline plus a margin. Programs come from a small grammar (`arbitrary` over an
//! AST printed to Harn), so most of them parse and reach the VM; raw bytes are tried
//! as a snippet too.
#![no_main]

use std::fmt::Write as _;
use std::rc::Rc;
use std::sync::Once;
use std::time::{Duration, Instant};

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
enum Expr {
    Int(i8),
    Big(i64),
    Float(i8),
    Str(u8),
    Bool(bool),
    Nil,
    Var(u8),
    Bin(Box<Expr>, BinOp, Box<Expr>),
    Not(Box<Expr>),
    List(Vec<Expr>),
    Dict(Vec<(u8, Expr)>),
    Index(Box<Expr>, Box<Expr>),
    Field(Box<Expr>, u8),
    Method(Box<Expr>, Method, Vec<Expr>),
    Builtin(Builtin, Vec<Expr>),
    Tool(Tool, Box<Expr>),
    Closure(u8, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Interp(Box<Expr>),
    Range(Box<Expr>, Box<Expr>),
    Try(Box<Expr>, Box<Expr>),
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    And,
    Or,
    Coalesce,
    Pow,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Method {
    Map,
    Filter,
    Push,
    Sort,
    Join,
    Split,
    Keys,
    Len,
    Reduce,
    Contains,
    Slice,
    Sum,
    Upper,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Builtin {
    Len,
    JsonParse,
    JsonStringify,
    ToString,
    ToInt,
    Keys,
    TypeOf,
    Log,
    MapBounded,
    Range,
    Repeat,
    Format,
    Sha256,
    Throw,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Tool {
    Search,
    Read,
    Write,
}

#[derive(Arbitrary, Debug)]
enum Stmt {
    Let(u8, Expr),
    Var(u8, Expr),
    Assign(u8, Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    For(u8, Expr, Vec<Stmt>),
    While(Expr, Vec<Stmt>),
    Fn(u8, Vec<u8>, Vec<Stmt>),
    Return(Expr),
    Throw(Expr),
    Expr(Expr),
    Break,
    Continue,
}

#[derive(Arbitrary, Debug)]
struct Program {
    stmts: Vec<Stmt>,
}

const MAX_DEPTH: u32 = 6;

fn name(n: u8) -> String {
    format!("v{}", n % 6)
}

fn expr(out: &mut String, e: &Expr, depth: u32) {
    if depth > MAX_DEPTH {
        out.push('1');
        return;
    }
    let d = depth + 1;
    match e {
        Expr::Int(n) => {
            let _ = write!(out, "{n}");
        }
        Expr::Big(n) => {
            let _ = write!(out, "({n})");
        }
        Expr::Float(n) => {
            let _ = write!(out, "{}.5", n);
        }
        Expr::Str(n) => {
            let _ = write!(out, "\"s{}\"", n % 8);
        }
        Expr::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Expr::Nil => out.push_str("nil"),
        Expr::Var(n) => out.push_str(&name(*n)),
        Expr::Bin(a, op, b) => {
            out.push('(');
            expr(out, a, d);
            out.push_str(match op {
                BinOp::Add => " + ",
                BinOp::Sub => " - ",
                BinOp::Mul => " * ",
                BinOp::Div => " / ",
                BinOp::Mod => " % ",
                BinOp::Eq => " == ",
                BinOp::Ne => " != ",
                BinOp::Lt => " < ",
                BinOp::Le => " <= ",
                BinOp::And => " && ",
                BinOp::Or => " || ",
                BinOp::Coalesce => " ?? ",
                BinOp::Pow => " ** ",
            });
            expr(out, b, d);
            out.push(')');
        }
        Expr::Not(a) => {
            out.push('!');
            expr(out, a, d);
        }
        Expr::List(items) => {
            out.push('[');
            list(out, items, d);
            out.push(']');
        }
        Expr::Dict(fields) => {
            out.push('{');
            for (i, (k, v)) in fields.iter().take(4).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "k{}: ", k % 4);
                expr(out, v, d);
            }
            out.push('}');
        }
        Expr::Index(a, i) => {
            expr(out, a, d);
            out.push('[');
            expr(out, i, d);
            out.push(']');
        }
        Expr::Field(a, f) => {
            expr(out, a, d);
            let _ = write!(out, ".k{}", f % 4);
        }
        Expr::Method(r, m, args) => {
            expr(out, r, d);
            let m = match m {
                Method::Map => "map",
                Method::Filter => "filter",
                Method::Push => "push",
                Method::Sort => "sort",
                Method::Join => "join",
                Method::Split => "split",
                Method::Keys => "keys",
                Method::Len => "len",
                Method::Reduce => "reduce",
                Method::Contains => "contains",
                Method::Slice => "slice",
                Method::Sum => "sum",
                Method::Upper => "upper",
            };
            call(out, ".", m, args, d);
        }
        Expr::Builtin(b, args) => {
            let b = match b {
                Builtin::Len => "len",
                Builtin::JsonParse => "json_parse",
                Builtin::JsonStringify => "json_stringify",
                Builtin::ToString => "to_string",
                Builtin::ToInt => "to_int",
                Builtin::Keys => "keys",
                Builtin::TypeOf => "type_of",
                Builtin::Log => "log",
                Builtin::MapBounded => "map_bounded",
                Builtin::Range => "range",
                Builtin::Repeat => "repeat",
                Builtin::Format => "format",
                Builtin::Sha256 => "sha256",
                Builtin::Throw => "throw_error",
            };
            call(out, "", b, args, d);
        }
        Expr::Tool(t, arg) => {
            out.push_str(match t {
                Tool::Search => "search({query: ",
                Tool::Read => "read_file({path: ",
                Tool::Write => "write_file({path: \"x\", content: ",
            });
            expr(out, arg, d);
            out.push_str("})");
        }
        Expr::Closure(p, body) => {
            let _ = write!(out, "{{ {} -> ", name(*p));
            expr(out, body, d);
            out.push_str(" }");
        }
        Expr::Call(f, args) => {
            expr(out, f, d);
            out.push('(');
            list(out, args, d);
            out.push(')');
        }
        Expr::Ternary(c, a, b) => {
            out.push('(');
            expr(out, c, d);
            out.push_str(" ? ");
            expr(out, a, d);
            out.push_str(" : ");
            expr(out, b, d);
            out.push(')');
        }
        Expr::Interp(a) => {
            out.push_str("\"i ${");
            expr(out, a, d);
            out.push_str("}\"");
        }
        Expr::Range(a, b) => {
            out.push('(');
            expr(out, a, d);
            out.push_str(" to ");
            expr(out, b, d);
            out.push(')');
        }
        Expr::Try(a, b) => {
            out.push_str("try { ");
            expr(out, a, d);
            out.push_str(" } catch (e) { ");
            expr(out, b, d);
            out.push_str(" }");
        }
    }
}

/// `<prefix><name>(<args>)`: a method (`.name(...)`) or a builtin call.
fn call(out: &mut String, prefix: &str, name: &str, args: &[Expr], depth: u32) {
    let _ = write!(out, "{prefix}{name}(");
    list(out, args, depth);
    out.push(')');
}

fn list(out: &mut String, items: &[Expr], depth: u32) {
    for (i, e) in items.iter().take(4).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        expr(out, e, depth);
    }
}

fn block(out: &mut String, stmts: &[Stmt], depth: u32) {
    out.push_str("{\n");
    for s in stmts.iter().take(6) {
        stmt(out, s, depth + 1);
    }
    out.push_str("}\n");
}

fn stmt(out: &mut String, s: &Stmt, depth: u32) {
    if depth > MAX_DEPTH {
        return;
    }
    match s {
        Stmt::Let(n, e) => {
            let _ = write!(out, "let {} = ", name(*n));
            expr(out, e, depth);
        }
        Stmt::Var(n, e) => {
            let _ = write!(out, "var {} = ", name(*n));
            expr(out, e, depth);
        }
        Stmt::Assign(n, e) => {
            let _ = write!(out, "{} = ", name(*n));
            expr(out, e, depth);
        }
        Stmt::If(c, a, b) => {
            out.push_str("if ");
            expr(out, c, depth);
            out.push(' ');
            block(out, a, depth);
            out.push_str(" else ");
            block(out, b, depth);
        }
        Stmt::For(n, e, body) => {
            let _ = write!(out, "for {} in ", name(*n));
            expr(out, e, depth);
            out.push(' ');
            block(out, body, depth);
        }
        Stmt::While(c, body) => {
            out.push_str("while ");
            expr(out, c, depth);
            out.push(' ');
            block(out, body, depth);
        }
        Stmt::Fn(n, params, body) => {
            let params: Vec<String> = params.iter().take(3).map(|p| name(*p)).collect();
            let _ = write!(out, "fn f{}({}) ", n % 3, params.join(", "));
            block(out, body, depth);
        }
        Stmt::Return(e) => {
            out.push_str("return ");
            expr(out, e, depth);
        }
        Stmt::Throw(e) => {
            out.push_str("throw ");
            expr(out, e, depth);
        }
        Stmt::Expr(e) => expr(out, e, depth),
        Stmt::Break => out.push_str("break"),
        Stmt::Continue => out.push_str("continue"),
    }
    out.push('\n');
}

const TOOLS: &str = r#"{"tools": [
  {"name": "search", "inputSchema": {"type": "object", "properties": {"query": {}}},
   "annotations": {"readOnlyHint": true, "openWorldHint": false}},
  {"name": "read_file", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
   "annotations": {"readOnlyHint": true, "openWorldHint": false}},
  {"name": "write_file", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": false}}
]}"#;

fn run(snippet: &str) {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        harn_vm::init(harn_stdlib::register);
    });
    let surface: serde_json::Value = serde_json::from_str(TOOLS).unwrap_or_default();
    let options = harn_compiler::manifest::BuildOptions::from_value(
        &serde_json::json!({"include_denied": true}),
    )
    .unwrap_or_default();
    let manifest = harn_compiler::manifest::build_manifest(&surface, &options).manifest;
    let limits = serde_json::json!({
        "timeout_ms": 200, "max_instructions": 200000, "max_operations": 16,
        "max_output_bytes": 4096, "max_string_bytes": 65536, "max_collection_len": 10000,
        "max_call_depth": 64, "run_id": "fuzz",
    });
    let Ok(options) = harn_codemode::Options::from_json(&limits) else {
        return;
    };
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
    else {
        return;
    };
    let started = Instant::now();
    let report = runtime.block_on(harn_codemode::execute(
        snippet,
        &manifest,
        &options,
        Rc::new(harn_codemode::MockHost),
    ));
    let elapsed = started.elapsed();
    assert!(
        elapsed < Duration::from_millis(200 + 2000),
        "the run took {elapsed:?} against a 200 ms deadline:\n{snippet}"
    );
    // Report integrity: one result per call, a category exactly when not ok.
    assert_eq!(
        report.child_calls.len(),
        report.child_results.len(),
        "{snippet}"
    );
    assert_eq!(
        report.ok,
        report.run.failure_category.is_none(),
        "{snippet}"
    );
}

fuzz_target!(|data: &[u8]| {
    if let Some((&first, rest)) = data.split_first()
        && first == b'#'
    {
        // Raw bytes as a snippet.
        run(&String::from_utf8_lossy(rest));
        return;
    }
    let mut u = arbitrary::Unstructured::new(data);
    let Ok(program) = Program::arbitrary(&mut u) else {
        return;
    };
    let mut source = String::new();
    for s in program.stmts.iter().take(12) {
        stmt(&mut source, s, 0);
    }
    run(&source);
});
