//! harn-stdlib: the implementations of the Harn builtins beyond the core — pure helpers
//! tagged `pure`, and host I/O families tagged with their capability (`io.fs`,
//! `io.net`, ...) — each registered once by name against its declaration (signature,
//! capability, doc) in `harn_compiler::builtins`.
//!
//! Entry point: [`register`], passed to `harn_vm::init` once per process.
//!
//! **Must not depend on** codegen, the language server or the CLI.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use harn_vm::registry::RegistryBuilder;

mod bytes;
mod case;
mod collections;
mod dates;
mod digest;
mod encodings;
mod formats;
mod hash;
mod hostio;
mod http;
mod jq;
pub mod json;
mod json_pointer;
mod keys;
mod math;
mod output;
mod paths;
mod random;
mod regex;
mod results;
mod schema;
mod schema_engine;
mod schema_ops;
mod shaping;
mod streams;
mod strings;
mod styling;
mod template;
mod unicode;
mod urls;
mod util;
mod web;

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cloned_ref_to_slice_refs
)]
mod test_host;
#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cloned_ref_to_slice_refs
)]
mod tests;

/// Registers every standard-library builtin.
pub fn register(b: &mut RegistryBuilder) {
    strings::register(b);
    streams::register(b);
    case::register(b);
    paths::register(b);
    regex::register(b);
    json::register(b);
    json_pointer::register(b);
    jq::register(b);
    schema::register(b);
    schema_ops::register(b);
    collections::register(b);
    shaping::register(b);
    hash::register(b);
    math::register(b);
    random::register(b);
    bytes::register(b);
    encodings::register(b);
    urls::register(b);
    unicode::register(b);
    formats::register(b);
    web::register(b);
    template::register(b);
    styling::register(b);
    digest::register(b);
    keys::register(b);
    dates::register(b);
    results::register(b);
    output::register(b);
    hostio::register(b);
    http::register(b);
}
