//! Substring search for the string methods, builtins and operators (`contains`,
//! `index_of`, `last_index_of`, `replace`, `in`).
//!
//! The standard library's `str::contains` and `str::replace` set up a two-way searcher
//! on every call: about 300 instructions before the first byte is compared, most of a
//! `name.contains("x")` over a short field, the commonest string test snippets make.
//! A haystack under 64 bytes is searched for the needle's first byte with `memchr`'s
//! SSE2 routine (see [`find_byte`]), each hit compared in full: at most 64 compares of
//! under 64 bytes, however the needle is made. A longer one goes to `memchr::memmem`, a vectorised prefilter over a
//! two-way search, linear in the worst case, so no needle makes a search quadratic.

use memchr::memmem;

/// Haystacks shorter than this are searched by first byte (module doc).
const SHORT: usize = 64;

/// Which end of the haystack a byte search reports: the first match or the last.
#[derive(Clone, Copy)]
enum End {
    First,
    Last,
}

/// The first or last `byte` in `hay`. On x86-64 through `memchr`'s SSE2 routine, which
/// that architecture always has, rather than through `memchr::memchr`, whose first call
/// asks the CPU which vector extensions it has: about ten `cpuid` instructions, each a
/// trip to the hypervisor on a virtual machine (3.6 µs each on the one this was
/// measured on, about 2% of a short snippet's whole run). Long haystacks still take
/// `memmem`, whose one such question is then spread over a long search.
#[inline]
fn find_byte(byte: u8, hay: &[u8], end: End) -> Option<usize> {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if let Some(one) = memchr::arch::x86_64::sse2::memchr::One::new(byte) {
        return match end {
            End::First => one.find(hay),
            End::Last => one.rfind(hay),
        };
    }
    match end {
        End::First => memchr::memchr(byte, hay),
        End::Last => memchr::memrchr(byte, hay),
    }
}

/// Looks for `needle` in `hay`: in a short haystack with `scan`, given the needle's
/// first byte, the bytes after it and the last offset a match can start at; in a long
/// one (or for an empty needle) with `long`.
#[inline]
fn search(
    hay: &str,
    needle: &str,
    long: fn(&[u8], &[u8]) -> Option<usize>,
    scan: impl FnOnce(&[u8], u8, &[u8], usize) -> Option<usize>,
) -> Option<usize> {
    let (hay, needle) = (hay.as_bytes(), needle.as_bytes());
    match needle.split_first() {
        Some((&first, tail)) if hay.len() < SHORT => {
            scan(hay, first, tail, hay.len().checked_sub(needle.len())?)
        }
        _ => long(hay, needle),
    }
}

/// The byte offset of the first `needle` in `hay` (`Some(0)` for an empty needle).
#[inline]
pub fn find(hay: &str, needle: &str) -> Option<usize> {
    search(hay, needle, memmem::find, |hay, first, tail, last_start| {
        let mut from = 0;
        while let Some(at) = find_byte(first, &hay[from..=last_start], End::First) {
            let start = from + at;
            if hay[start + 1..=start + tail.len()] == *tail {
                return Some(start);
            }
            from = start + 1;
            if from > last_start {
                return None;
            }
        }
        None
    })
}

/// The byte offset of the last `needle` in `hay` (`Some(hay.len())` for an empty needle).
#[inline]
pub fn rfind(hay: &str, needle: &str) -> Option<usize> {
    search(
        hay,
        needle,
        memmem::rfind,
        |hay, first, tail, last_start| {
            let mut end = last_start + 1;
            while let Some(start) = find_byte(first, &hay[..end], End::Last) {
                if hay[start + 1..=start + tail.len()] == *tail {
                    return Some(start);
                }
                end = start;
            }
            None
        },
    )
}

/// Whether `needle` occurs in `hay`.
#[inline]
pub fn contains(hay: &str, needle: &str) -> bool {
    find(hay, needle).is_some()
}

/// `hay` with every `from` replaced by `to`, as `str::replace` gives it (an empty `from`
/// matches before each character and at the end). `None` when `from` does not occur,
/// so the caller can keep the original string.
pub fn replace(hay: &str, from: &str, to: &str) -> Option<String> {
    if from.is_empty() {
        return Some(hay.replace(from, to));
    }
    let first = find(hay, from)?;
    let mut out = String::with_capacity(hay.len());
    out.push_str(&hay[..first]);
    out.push_str(to);
    let mut rest = first + from.len();
    if hay.len() - rest < SHORT {
        while let Some(at) = find(&hay[rest..], from) {
            out.push_str(&hay[rest..rest + at]);
            out.push_str(to);
            rest += at + from.len();
        }
    } else {
        // One searcher for the whole string: building one per match would cost its
        // set-up once per occurrence.
        let base = rest;
        let finder = memmem::Finder::new(from.as_bytes());
        for at in finder.find_iter(&hay.as_bytes()[base..]) {
            // `find_iter` reports non-overlapping matches left to right, at offsets
            // into the slice it was given.
            let at = base + at;
            out.push_str(&hay[rest..at]);
            out.push_str(to);
            rest = at + from.len();
        }
    }
    out.push_str(&hay[rest..]);
    Some(out)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    /// `find` and `rfind` give the standard library's answers for `needle` in `hay`.
    fn finds_as_std(hay: &str, needle: &str) {
        assert_eq!(
            find(hay, needle),
            hay.find(needle),
            "find {needle:?} in {hay:?}"
        );
        assert_eq!(
            rfind(hay, needle),
            hay.rfind(needle),
            "rfind {needle:?} in {hay:?}"
        );
    }

    /// Every search agrees with the standard library's, on short and long haystacks,
    /// overlapping candidates, multi-byte characters and empty needles.
    #[test]
    fn agrees_with_std() {
        let long = "abcab".repeat(40) + "é—x" + &"ab".repeat(30);
        let hays = [
            "",
            "a",
            "aaaa",
            "abcabcab",
            "héllo wörld",
            "xyxyxyx",
            long.as_str(),
        ];
        let needles = [
            "", "a", "ab", "aa", "aaa", "cab", "ö", "wörld", "xyx", "é—x", "zz",
        ];
        for hay in hays {
            for needle in needles {
                finds_as_std(hay, needle);
                assert_eq!(contains(hay, needle), hay.contains(needle));
                for to in ["", "-", "<long replacement>"] {
                    let expected = hay.replace(needle, to);
                    let got = replace(hay, needle, to).unwrap_or_else(|| hay.to_string());
                    assert_eq!(got, expected, "replace {needle:?} by {to:?} in {hay:?}");
                    assert_eq!(
                        replace(hay, needle, to).is_some(),
                        needle.is_empty() || hay.contains(needle)
                    );
                }
            }
        }
    }

    /// Every piece of a few strings, searched for in each of them and in their
    /// repetitions past the short-haystack length: first and last matches at either
    /// end, partial matches cut off by the end, single bytes.
    #[test]
    fn every_piece_is_found_where_std_finds_it() {
        let words = ["abaabab", "xyzzyx", "aé€b", "abcabcabd"];
        let mut hays: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        hays.extend(words.iter().map(|w| w.repeat(12)));
        for hay in &hays {
            for word in words {
                let cuts: Vec<usize> = (0..=word.len())
                    .filter(|&i| word.is_char_boundary(i))
                    .collect();
                for (n, &i) in cuts.iter().enumerate() {
                    for &j in &cuts[n..] {
                        let needle = &word[i..j];
                        finds_as_std(hay, needle);
                    }
                }
            }
        }
    }
}
