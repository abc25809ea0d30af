//! harn-lsp: the Harn language server (`harnc lsp`). It speaks the protocol over stdio
//! with `tower-lsp-server`, keeps its analysis incremental with `salsa` (all of it in
//! [`db`]), and knows the tool manifest: completion, hover and signature help of
//! bindings come from the same JSON Schema lowering that codegen and the checker use.
//!
//! Feature modules ([`complete`], [`hover`], [`signature`], [`navigate`], [`outline`],
//! [`tokens`], [`actions`], [`format`]) are plain functions from an analysed document and a byte
//! offset to protocol types, so they are tested in process without a client.
//!
//! **Must not depend on** the VM, the code-mode executor or MCP transports: it reads the
//! compiler (parser, checker, the builtin declaration table `harn_compiler::builtins`)
//! and nothing that runs a program.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod actions;
pub mod complete;
pub mod db;
pub mod document;
pub mod format;
pub mod hover;
pub mod manifest_source;
pub mod navigate;
pub mod outline;
pub mod scope;
mod server;
pub mod signature;
pub mod syntax;
pub mod text;
pub mod tokens;
mod transport;

pub use server::{Backend, serve_stdio};
