//! The `digest` family, implemented in `harn-stdlib` (`stdlib/src/digest.rs`).

use crate::builtins::Capability::*;
use crate::builtins::{BuiltinDecl, decl};

const fn hash(name: &'static str, doc: &'static str) -> BuiltinDecl {
    decl(name, "fn(data: string | bytes) -> string", Pure, doc)
}

const fn hmac(name: &'static str, doc: &'static str) -> BuiltinDecl {
    decl(
        name,
        "fn(key: string | bytes, message: string | bytes) -> string",
        Pure,
        doc,
    )
}

pub(crate) const TABLE: &[BuiltinDecl] = &[
    hash("md5", "MD5 digest as lowercase hex (not for security)."),
    hash("sha1", "SHA-1 digest as lowercase hex (not for security)."),
    hash("sha224", "SHA-224 digest as lowercase hex."),
    hash("sha256", "SHA-256 digest as lowercase hex."),
    hash(
        "sha256_hex",
        "SHA-256 digest as lowercase hex (`sha256` under its explicit name).",
    ),
    hash("sha384", "SHA-384 digest as lowercase hex."),
    hash("sha512", "SHA-512 digest as lowercase hex."),
    hash("sha512_256", "SHA-512/256 digest as lowercase hex."),
    hash("sha3_256", "SHA3-256 digest as lowercase hex."),
    hash("sha3_512", "SHA3-512 digest as lowercase hex."),
    hmac(
        "hmac_sha1",
        "HMAC-SHA1 of the message under the key, as lowercase hex.",
    ),
    hmac(
        "hmac_sha256",
        "HMAC-SHA256 of the message under the key, as lowercase hex.",
    ),
    hmac(
        "hmac_sha384",
        "HMAC-SHA384 of the message under the key, as lowercase hex.",
    ),
    hmac(
        "hmac_sha512",
        "HMAC-SHA512 of the message under the key, as lowercase hex.",
    ),
    hmac(
        "hmac_sha256_base64",
        "HMAC-SHA256 of the message under the key, as padded standard base64.",
    ),
    decl(
        "constant_time_eq",
        "fn(a: string | bytes, b: string | bytes) -> bool",
        Pure,
        "Equality in time that depends only on the lengths (for comparing secrets).",
    ),
    decl(
        "uuid_v4",
        "fn() -> string",
        Random,
        "A random version-4 UUID.",
    ),
    decl(
        "uuid_v7",
        "fn() -> string",
        Clock,
        "A time-ordered version-7 UUID.",
    ),
    decl(
        "uuid_v5",
        "fn(namespace: string, name: string | bytes) -> string",
        Pure,
        "The name-based (SHA-1) UUID of a name in a namespace: a UUID or dns/url/oid/x500.",
    ),
    decl(
        "uuid_parse",
        "fn(text: string) -> string | nil",
        Pure,
        "The canonical lowercase form of a UUID, or nil when the text is not one.",
    ),
    decl("uuid_nil", "fn() -> string", Pure, "The all-zero UUID."),
];
