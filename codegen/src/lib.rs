//! harn-codegen: binding manifest to `.harn` wrappers, TypeScript declarations and a
//! compact prompt form, all through the compiler's single JSON Schema lowering.
//!
//! **Must not depend on** the VM, the standard library or the language server.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
