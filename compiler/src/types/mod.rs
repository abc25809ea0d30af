//! Types as the checker sees them (`language.md` 10.2): [`Ty`], lowered from annotation
//! syntax by [`lower`], and builtin [`Signature`]s parsed from their declaration text.
//!
//! `Ty` is the checker's representation; it has no error variant: text that does not
//! denote a type fails to lower with a [`LowerError`] instead.

pub mod check;
mod lower;
mod schema;
mod signature;
mod ty;

pub use lower::{LowerError, lower};
pub use schema::{SchemaField, schema_fields, schema_type};
pub use signature::{Param, Signature, SignatureError};
pub use ty::{Field, Ty};

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests;
