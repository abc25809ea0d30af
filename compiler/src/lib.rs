//! harn-compiler: the Harn frontend.
//!
//! Owns the lexer (`logos`), the layout pass, the recursive-descent parser and its AST,
//! diagnostics (rendered with `ariadne`), and source positions. Later phases (the type
//! checker and its types, the manifest model and the bytecode compiler) live here too,
//! as does the builtin environment: every builtin's declaration (name, signature,
//! capability tag, profile membership, doc) and the one denylist.
//!
//! **Must not depend on** the VM, tokio, salsa, the language server or anything that does
//! I/O: the frontend is pure data in, data out, and never panics on any input.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod ast;
pub mod ast_dump;
pub mod ast_walk;
pub mod builtins;
pub mod bytecode;
pub mod compile;
pub mod diagnostic;
pub mod format;
pub mod layout;
pub mod lexer;
pub mod manifest;
mod name_print;
pub mod parser;
pub mod pipeline;
pub mod snippet;
pub mod source;
pub mod stack;
pub mod std_modules;
pub mod suggest;
pub mod typecheck;
pub mod types;
pub mod validate;

pub use diagnostic::{Diagnostic, Severity};
pub use parser::{Parsed, parse};
pub use source::LineIndex;
