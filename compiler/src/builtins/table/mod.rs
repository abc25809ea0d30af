//! The declaration tables: one file per family, one row per builtin, in the order the
//! implementations register. A row is `decl(name, signature, capability, doc)`, or
//! `visible(...)` for the names `code-mode.md` 4.5 lists as visible inside the sandbox.

use super::BuiltinDecl;

mod bytes;
mod case;
mod collections;
mod composition;
mod core;
mod dates;
mod digest;
mod encodings;
mod formats;
mod hash;
mod hostio;
mod http;
mod jq;
mod json;
mod math;
mod output;
mod paths;
mod random;
mod regex;
mod results;
mod schema;
mod shaping;
mod streams;
mod strings;
mod styling;
mod template;
mod urls;
mod web;

/// Every family's table, in registration order.
pub(crate) const FAMILIES: &[&[BuiltinDecl]] = &[
    core::TABLE,
    strings::TABLE,
    case::TABLE,
    paths::TABLE,
    regex::TABLE,
    json::TABLE,
    jq::TABLE,
    schema::TABLE,
    collections::TABLE,
    shaping::TABLE,
    hash::TABLE,
    math::TABLE,
    random::TABLE,
    bytes::TABLE,
    encodings::TABLE,
    urls::TABLE,
    formats::TABLE,
    web::TABLE,
    template::TABLE,
    styling::TABLE,
    streams::TABLE,
    digest::TABLE,
    dates::TABLE,
    results::TABLE,
    output::TABLE,
    hostio::TABLE,
    http::TABLE,
    composition::TABLE,
];
