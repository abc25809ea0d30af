//! harn-stdlib: the Harn builtins — pure helpers tagged `pure`, and host I/O families
//! tagged with their capability (`io.fs`, `io.net`, ...) — each registered once with its
//! name, signature, capability, docs and implementation.
//!
//! **Must not depend on** codegen, the language server or the CLI.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
