//! Message digests as lowercase hex: `sha256` (the `sha2` crate) and `md5` (a small
//! RFC 1321 implementation; for checksums and compatibility, not for security).

use harn_vm::VmError;
use harn_vm::native::Host;
use harn_vm::registry::RegistryBuilder;
use harn_vm::value::Value;
use sha2::{Digest, Sha256};

use crate::bytes::{hex_of, raw};
use crate::util::charge;

const S: [u32; 64] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9,
    14, 20, 5, 9, 14, 20, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15,
    21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
];

/// MD5 of `data` (RFC 1321).
pub fn md5_of(data: &[u8]) -> [u8; 16] {
    let k: Vec<u32> = (0..64)
        .map(|i: i32| ((f64::from(i) + 1.0).sin().abs() * 4_294_967_296.0) as u32)
        .collect();
    let mut msg = data.to_vec();
    let bit_len = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bit_len.to_le_bytes());
    let (mut a0, mut b0, mut c0, mut d0) = (
        0x6745_2301u32,
        0xefcd_ab89u32,
        0x98ba_dcfeu32,
        0x1032_5476u32,
    );
    for chunk in msg.chunks(64) {
        let m: Vec<u32> = chunk
            .chunks(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .collect();
        let (mut a, mut b, mut c, mut d) = (a0, b0, c0, d0);
        for i in 0..64 {
            let (f, g) = match i / 16 {
                0 => ((b & c) | (!b & d), i),
                1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
                2 => (b ^ c ^ d, (3 * i + 5) % 16),
                _ => (c ^ (b | !d), (7 * i) % 16),
            };
            let f = f.wrapping_add(a).wrapping_add(k[i]).wrapping_add(m[g]);
            a = d;
            d = c;
            c = b;
            b = b.wrapping_add(f.rotate_left(S[i]));
        }
        a0 = a0.wrapping_add(a);
        b0 = b0.wrapping_add(b);
        c0 = c0.wrapping_add(c);
        d0 = d0.wrapping_add(d);
    }
    let mut out = [0u8; 16];
    for (i, w) in [a0, b0, c0, d0].iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
    }
    out
}

fn sha256(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = raw(args, 0)?;
    charge(host, data.len() / 64 + 1)?;
    Ok(Value::str(hex_of(&Sha256::digest(&data))))
}

fn md5(host: &mut dyn Host, args: &[Value]) -> Result<Value, VmError> {
    let data = raw(args, 0)?;
    charge(host, data.len() / 64 + 1)?;
    Ok(Value::str(hex_of(&md5_of(&data))))
}

pub fn register(b: &mut RegistryBuilder) {
    b.sync("sha256", sha256);
    b.sync("md5", md5);
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_host::{call, s};

    #[test]
    fn digests() {
        assert_eq!(
            call(sha256, &[s("abc")]),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            call(sha256, &[s("hello")]),
            "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
        );
        assert_eq!(call(md5, &[s("hello")]), "5d41402abc4b2a76b9719d911017c592");
        assert_eq!(call(md5, &[s("")]), "d41d8cd98f00b204e9800998ecf8427e");
        assert_eq!(
            call(md5, &[s("The quick brown fox jumps over the lazy dog")]),
            "9e107d9d372bb6826bd81d3542a419d6"
        );
        let digits = "1234567890".repeat(8);
        assert_eq!(call(md5, &[s(&digits)]), "57edf4a22be3c955ac49da2e2107b67a");
    }
}
