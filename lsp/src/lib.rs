//! harn-lsp: the Harn language server (tower-lsp-server) with incremental analysis
//! (salsa) and manifest-aware completion.
//!
//! **Must not depend on** the VM's execution machinery or MCP transports; it reads the
//! compiler (including every builtin's declaration, `harn_compiler::builtins`) and
//! codegen.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
