//! [`NamePrint`]: a name's first eight bytes and its length, for the scope tables of the
//! checker, the validator and the compiler, which search short lists of names by print
//! instead of hashing.

/// A name's first eight bytes (zero-padded) and its length, for scope tables that
/// search a short list of names instead of hashing: two names of up to eight bytes are
/// equal exactly when their prints are (names hold no NUL byte); longer names with
/// equal prints still have to be compared in full ([`NamePrint::matches`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamePrint {
    head: u64,
    len: usize,
}

impl NamePrint {
    #[inline]
    pub fn of(name: &str) -> NamePrint {
        NamePrint {
            head: head_of(name.as_bytes()),
            len: name.len(),
        }
    }

    /// Whether `name`, whose print is `self`, is `other` (with print `other_print`).
    #[inline]
    pub fn matches(self, name: &str, other_print: NamePrint, other: &str) -> bool {
        self == other_print && (self.len <= 8 || name == other)
    }
}

/// The first eight bytes of `bytes` as a little-endian number, zero-padded, read with
/// whole loads: a copy of a variable-length prefix into a buffer is a call to `memcpy`,
/// and every scope lookup of the checker, the validator and the compiler makes one.
#[inline]
fn head_of(bytes: &[u8]) -> u64 {
    let len = bytes.len();
    if let Some(chunk) = bytes.first_chunk::<8>() {
        return u64::from_le_bytes(*chunk);
    }
    let byte = |i: usize| bytes.get(i).map_or(0, |&b| u64::from(b));
    let word = |i: usize| {
        bytes
            .get(i..i + 4)
            .and_then(|w| w.first_chunk::<4>())
            .map_or(0, |w| u64::from(u32::from_le_bytes(*w)))
    };
    if len >= 4 {
        // Two four-byte words that overlap (or meet) cover all of the 4 to 7 bytes; the
        // overlapping bytes are the same in both, so or-ing them is exact.
        word(0) | word(len - 4) << (8 * (len - 4))
    } else if len > 0 {
        // The first, middle and last of 1 to 3 bytes (some of them the same byte).
        byte(0) | byte(len / 2) << (8 * (len / 2)) | byte(len - 1) << (8 * (len - 1))
    } else {
        0
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::{NamePrint, head_of};

    #[test]
    fn head_of_is_the_zero_padded_prefix() {
        let text = "abcdefghijkl";
        for len in 0..=text.len() {
            let bytes = &text.as_bytes()[..len];
            let mut padded = [0u8; 8];
            let n = len.min(8);
            padded[..n].copy_from_slice(&bytes[..n]);
            assert_eq!(head_of(bytes), u64::from_le_bytes(padded), "{len} bytes");
        }
        // Names differing in one byte, at each position, have different prints.
        for at in 0..7 {
            let mut other = *b"abcdefg";
            other[at] = b'z';
            assert_ne!(
                NamePrint::of("abcdefg"),
                NamePrint::of(std::str::from_utf8(&other).unwrap()),
                "byte {at}"
            );
        }
    }
}
