//! Public-key primitives and BLAKE3: Ed25519 signatures (`ed25519-dalek`), X25519 key
//! agreement (`x25519-dalek`) and the BLAKE3 hash (`blake3`). Keys, signatures and
//! shared secrets travel as lowercase hex: a key pair is `{public, private}` (32 bytes
//! each), a signature 64 bytes. Generating a key pair reads the OS's random source and
//! is tagged `random`; everything else is pure.

use ed25519_dalek::{Signer, Verifier};
use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;

use crate::bytes::raw;
use crate::encodings::{hex_of, unhex};
use crate::util::{charge, text};

/// 32 bytes from the operating system's random source.
fn secret_bytes(name: &str) -> Result<[u8; 32], VmError> {
    let mut seed = [0u8; 32];
    getrandom::fill(&mut seed)
        .map_err(|e| VmError::thrown_str(format!("{name}: no random source: {e}")))?;
    Ok(seed)
}

/// A fixed-size value given as hex in argument `i`.
fn hex_arg<const N: usize>(
    args: &[Value],
    i: usize,
    name: &str,
    what: &str,
) -> Result<[u8; N], VmError> {
    let s = text(args, i)?;
    unhex(&s)
        .and_then(|b| <[u8; N]>::try_from(b).ok())
        .ok_or_else(|| {
            VmError::thrown_str(format!("{name}: {what} must be {} hex characters", N * 2))
        })
}

fn key_pair(public: &[u8], private: &[u8]) -> Value {
    Value::dict(
        [
            ("private".to_owned(), Value::str(hex_of(private))),
            ("public".to_owned(), Value::str(hex_of(public))),
        ]
        .into_iter()
        .collect(),
    )
}

fn ed25519_keypair(_: &mut dyn Host, _: &[Value]) -> Result<Value, VmError> {
    let key = ed25519_dalek::SigningKey::from_bytes(&secret_bytes("ed25519_keypair")?);
    Ok(key_pair(key.verifying_key().as_bytes(), &key.to_bytes()))
}

fn ed25519_sign(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let private = hex_arg::<32>(args, 0, "ed25519_sign", "the private key")?;
    let message = raw(args, 1)?;
    charge(host, message.len() / 64 + 1)?;
    let key = ed25519_dalek::SigningKey::from_bytes(&private);
    Ok(Value::str(hex_of(&key.sign(&message).to_bytes())))
}

fn ed25519_verify(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let public = hex_arg::<32>(args, 0, "ed25519_verify", "the public key")?;
    let message = raw(args, 1)?;
    charge(host, message.len() / 64 + 1)?;
    // A malformed signature or a public key off the curve verifies nothing.
    let Some(signature) = unhex(&text(args, 2)?).and_then(|b| <[u8; 64]>::try_from(b).ok()) else {
        return Ok(Value::Bool(false));
    };
    let Ok(key) = ed25519_dalek::VerifyingKey::from_bytes(&public) else {
        return Ok(Value::Bool(false));
    };
    let signature = ed25519_dalek::Signature::from_bytes(&signature);
    Ok(Value::Bool(key.verify(&message, &signature).is_ok()))
}

fn x25519_keypair(_: &mut dyn Host, _: &[Value]) -> Result<Value, VmError> {
    let secret = x25519_dalek::StaticSecret::from(secret_bytes("x25519_keypair")?);
    let public = x25519_dalek::PublicKey::from(&secret);
    Ok(key_pair(public.as_bytes(), secret.as_bytes()))
}

fn x25519_agree(_: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let private = hex_arg::<32>(args, 0, "x25519_agree", "the private key")?;
    let public = hex_arg::<32>(args, 1, "x25519_agree", "the peer's public key")?;
    let secret = x25519_dalek::StaticSecret::from(private);
    let shared = secret.diffie_hellman(&x25519_dalek::PublicKey::from(public));
    Ok(Value::str(hex_of(shared.as_bytes())))
}

fn blake3_hex(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = raw(args, 0)?;
    charge(host, data.len() / 64 + 1)?;
    Ok(Value::str(hex_of(blake3::hash(&data).as_bytes())))
}

pub fn register(b: &mut RegistryBuilder) {
    let table: &[harn_vm::registry::SyncEntry] = &[
        ("blake3", blake3_hex),
        ("ed25519_keypair", ed25519_keypair),
        ("ed25519_sign", ed25519_sign),
        ("ed25519_verify", ed25519_verify),
        ("x25519_keypair", x25519_keypair),
        ("x25519_agree", x25519_agree),
    ];
    b.sync_table(table);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, s};

    #[test]
    fn rfc8032_test_vector_one_signs_and_verifies() {
        // RFC 8032 section 7.1, TEST 1: the empty message.
        let private = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
        let public = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
        let sig = call(ed25519_sign, &[s(private), s("")]);
        assert_eq!(
            sig,
            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
        );
        assert_eq!(call(ed25519_verify, &[s(public), s(""), s(&sig)]), "true");
        assert_eq!(call(ed25519_verify, &[s(public), s("x"), s(&sig)]), "false");
    }

    #[test]
    fn rfc7748_x25519_agreement() {
        // RFC 7748 section 6.1.
        let alice = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
        let bob_public = "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f";
        assert_eq!(
            call(x25519_agree, &[s(alice), s(bob_public)]),
            "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
        );
    }
}
