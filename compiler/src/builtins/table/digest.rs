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
    decl(
        "blake3",
        "fn(data: string | bytes) -> string",
        Pure,
        "The BLAKE3 hash (32 bytes) as lowercase hex.",
    ),
    decl(
        "ed25519_keypair",
        "fn() -> {public: string, private: string}",
        Random,
        "A fresh Ed25519 key pair from the OS random source, each key 32 bytes of hex.",
    ),
    decl(
        "ed25519_sign",
        "fn(private: string, message: string | bytes) -> string",
        Pure,
        "The Ed25519 signature (64 bytes, hex) of a message under a hex private key.",
    ),
    decl(
        "ed25519_verify",
        "fn(public: string, message: string | bytes, signature: string) -> bool",
        Pure,
        "Whether a hex signature is valid for the message under a hex public key.",
    ),
    decl(
        "x25519_keypair",
        "fn() -> {public: string, private: string}",
        Random,
        "A fresh X25519 key pair from the OS random source, each key 32 bytes of hex.",
    ),
    decl(
        "x25519_agree",
        "fn(private: string, public: string) -> string",
        Pure,
        "The X25519 shared secret (32 bytes, hex) of a private key and a peer's public key.",
    ),
];
