//! Character positions in long strings, found without walking from the start each time.
//!
//! Harn counts and indexes strings by character (`len(s)`, `s[i]`, `s[a:b]`,
//! `substring`, `char_at`), and a UTF-8 string finds character `i` only by walking to it.
//! A loop such as `for i in 0 to len(s) exclusive { s[i] }` therefore took time quadratic
//! in the length of `s` (200,000 characters: 2.7 s, against 0.01 s for Lua's `s:sub(i, i)`).
//!
//! One cursor per thread remembers the last long string read by position: whether it is
//! all ASCII (then character `i` is byte `i`), how many characters it has, and the last
//! character position found, from which the next one (usually nearby) is walked. Short
//! strings are scanned directly: the scan costs less than the bookkeeping.
//!
//! The cursor holds a [`Weak`] reference, never a counted one, so it neither keeps a
//! string's text alive nor makes `s + x` copy a string it could extend in place. While it
//! is held no other string can be allocated at the same address, and the text behind it
//! cannot change (`Rc::get_mut` refuses and `Rc::make_mut` moves the text to a new
//! allocation while a `Weak` exists), so a pointer match means the same text.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use crate::value::Value;

/// Strings shorter than this (in bytes) are scanned each time, not remembered.
const REMEMBER_FROM: usize = 256;

struct Cursor {
    text: Weak<String>,
    ascii: bool,
    chars: usize,
    /// The last position found: character `at_char` starts at byte `at_byte`.
    at_char: usize,
    at_byte: usize,
}

thread_local! {
    static CURSOR: RefCell<Option<Cursor>> = const { RefCell::new(None) };
}

/// The number of characters in `s`.
pub fn count(s: &Rc<String>) -> usize {
    if s.len() < REMEMBER_FROM {
        return s.chars().count();
    }
    with_cursor(s, |_, cursor| cursor.chars).unwrap_or_else(|| s.chars().count())
}

/// The byte offset where character `i` starts; the byte length for `i` equal to the
/// character count; `None` past it.
pub fn byte_offset(s: &Rc<String>, i: usize) -> Option<usize> {
    if s.len() < REMEMBER_FROM {
        return walk_from(s, 0, 0, i);
    }
    match with_cursor(s, |text, cursor| seek(text, cursor, i)) {
        Some(found) => found,
        None => walk_from(s, 0, 0, i),
    }
}

/// Character `i` of `s` as a slice of it, if there is one.
pub fn char_at(s: &Rc<String>, i: usize) -> Option<&str> {
    let start = byte_offset(s, i)?;
    let rest = s.get(start..)?;
    let len = rest.chars().next()?.len_utf8();
    rest.get(..len)
}

/// Character `i` of `s` as a value (`s[i]`), if there is one.
pub fn char_value(s: &Rc<String>, i: usize) -> Option<Value> {
    char_at(s, i).map(text_value)
}

thread_local! {
    /// The one-character strings of ASCII, each made the first time it is needed and
    /// shared from then on: reading a string character by character (`s[i]`,
    /// `for c in s`, `s.chars()`) made two allocations per character, more than the
    /// rest of the read. Strings are values, so sharing one is never seen.
    static ASCII_CHARS: [Cell<Option<Rc<String>>>; 128] =
        const { [const { Cell::new(None) }; 128] };
}

/// `text` as a string value; a single ASCII character is shared, not allocated.
pub fn text_value(text: &str) -> Value {
    if let &[byte] = text.as_bytes()
        && let Ok(Some(shared)) = ASCII_CHARS.try_with(|table| {
            let slot = table.get(usize::from(byte))?;
            let text = slot.take().unwrap_or_else(|| Rc::new(text.to_string()));
            let value = Rc::clone(&text);
            slot.set(Some(text));
            Some(value)
        })
    {
        return Value::Str(shared);
    }
    Value::str(text)
}

/// The character `c` as a string value (see [`text_value`]).
pub fn char_value_of(c: char) -> Value {
    text_value(c.encode_utf8(&mut [0; 4]))
}

/// Characters `start..end` of `s` (both at most the character count, `start <= end`).
pub fn char_range(s: &Rc<String>, start: usize, end: usize) -> Option<&str> {
    let from = byte_offset(s, start)?;
    let to = byte_offset(s, end)?;
    s.get(from..to)
}

/// Appends to `text` through `grow`, which may only add to its end (it may stop part
/// way, on an error). When the cursor remembers `text`, it is carried over to the grown
/// string with the new characters counted, so `len(s)` in a loop that also extends `s`
/// costs the appended part, not the whole string (quadratic before: the append leaves a
/// new allocation whenever a cursor's `Weak` exists, and the cursor forgot it).
pub fn extend_text<T>(text: &mut Rc<String>, grow: impl FnOnce(&mut String) -> T) -> T {
    let before = Rc::as_ptr(text);
    let old_len = text.len();
    let remembered = old_len >= REMEMBER_FROM && remembers(before);
    let out = grow(Rc::make_mut(text));
    if remembered {
        carry_over(text, old_len);
    }
    out
}

/// Whether the cursor is for the string at `text`.
fn remembers(text: *const String) -> bool {
    CURSOR
        .try_with(|cell| {
            cell.try_borrow()
                .is_ok_and(|slot| slot.as_ref().is_some_and(|c| c.text.as_ptr() == text))
        })
        .unwrap_or(false)
}

/// Moves the cursor to `text`, the string it was for with bytes added from `old_len` on
/// (its characters and positions up to there are unchanged).
fn carry_over(text: &Rc<String>, old_len: usize) {
    let _ = CURSOR.try_with(|cell| {
        let Ok(mut slot) = cell.try_borrow_mut() else {
            return;
        };
        let (Some(cursor), Some(tail)) = (slot.as_mut(), text.get(old_len..)) else {
            *slot = None;
            return;
        };
        let tail_ascii = tail.is_ascii();
        cursor.chars += if tail_ascii {
            tail.len()
        } else {
            tail.chars().count()
        };
        cursor.ascii &= tail_ascii;
        cursor.text = Rc::downgrade(text);
    });
}

/// Runs `f` on the cursor for `s`, made for it if it was for another string. `None`
/// only if the cursor is in use further up the stack (it never is: nothing here calls
/// back into the interpreter).
fn with_cursor<T>(s: &Rc<String>, f: impl FnOnce(&str, &mut Cursor) -> T) -> Option<T> {
    CURSOR.with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        let same = slot
            .as_ref()
            .is_some_and(|c| std::ptr::eq(c.text.as_ptr(), Rc::as_ptr(s)));
        if !same {
            let ascii = s.is_ascii();
            *slot = Some(Cursor {
                text: Rc::downgrade(s),
                ascii,
                chars: if ascii { s.len() } else { s.chars().count() },
                at_char: 0,
                at_byte: 0,
            });
        }
        slot.as_mut().map(|cursor| f(s.as_str(), cursor))
    })
}

/// The byte offset of character `target`, walked from the nearest known position (the
/// start, the cursor or the end), which the cursor then moves to.
fn seek(s: &str, cursor: &mut Cursor, target: usize) -> Option<usize> {
    if target > cursor.chars {
        return None;
    }
    if cursor.ascii {
        return Some(target);
    }
    let (mut from_char, mut from_byte) = (cursor.at_char, cursor.at_byte);
    if target < from_char && target < from_char - target {
        (from_char, from_byte) = (0, 0);
    } else if target > from_char && cursor.chars - target < target - from_char {
        (from_char, from_byte) = (cursor.chars, s.len());
    }
    let byte = if target >= from_char {
        walk_from(s, from_char, from_byte, target)?
    } else {
        let before = s.get(..from_byte)?;
        before
            .char_indices()
            .rev()
            .nth(from_char - target - 1)
            .map(|(at, _)| at)?
    };
    cursor.at_char = target;
    cursor.at_byte = byte;
    Some(byte)
}

/// The byte offset of character `target`, walking forward from character `from_char`
/// at byte `from_byte` (`target >= from_char`).
fn walk_from(s: &str, from_char: usize, from_byte: usize, target: usize) -> Option<usize> {
    let rest = s.get(from_byte..)?;
    let steps = target.checked_sub(from_char)?;
    match rest.char_indices().nth(steps) {
        Some((at, _)) => Some(from_byte + at),
        // Just past the last character: the end of the string.
        None if rest.chars().count() == steps => Some(s.len()),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Rc<String> {
        Rc::new(s.to_owned())
    }

    /// Every position of `s`, in an order that moves the cursor both ways, agrees with a
    /// plain scan.
    fn agrees(s: &Rc<String>) {
        let chars: Vec<char> = s.chars().collect();
        assert_eq!(count(s), chars.len());
        let mut order: Vec<usize> = (0..=chars.len()).collect();
        order.extend((0..=chars.len()).rev());
        order.extend(
            (0..=chars.len())
                .step_by(7)
                .chain((0..chars.len()).step_by(3).rev()),
        );
        for i in order {
            let expected: String = chars.iter().take(i).collect();
            assert_eq!(byte_offset(s, i), Some(expected.len()), "offset of {i}");
            let c = chars.get(i).map(|c| c.to_string());
            assert_eq!(char_at(s, i).map(str::to_owned), c, "character {i}");
        }
        assert_eq!(byte_offset(s, chars.len() + 1), None);
        assert_eq!(char_at(s, chars.len()), None);
    }

    #[test]
    fn short_and_long_ascii_and_not() {
        agrees(&text("héllo wörld"));
        agrees(&text(&"abcdefghij".repeat(40)));
        agrees(&text(&"aé€😀b".repeat(80)));
        agrees(&text(""));
    }

    #[test]
    fn two_strings_in_turn() {
        let a = text(&"x€".repeat(300));
        let b = text(&"y".repeat(300));
        for i in 0..300 {
            assert_eq!(char_at(&a, 2 * i + 1), Some("€"));
            assert_eq!(char_at(&b, i), Some("y"));
        }
        assert_eq!(char_range(&a, 1, 4), Some("€x€"));
    }

    #[test]
    fn a_string_extended_in_place_is_read_afresh() {
        let mut s = text(&"a".repeat(300));
        assert_eq!(count(&s), 300);
        // With only the cursor's `Weak` left, `make_mut` moves the text rather than
        // copying it; the new allocation is a new string to the cursor.
        Rc::make_mut(&mut s).push_str("ééé");
        assert_eq!(count(&s), 303);
        assert_eq!(char_at(&s, 301), Some("é"));
    }

    /// A remembered string grown through `extend_text` keeps its cursor, with the added
    /// characters counted: ASCII, then not, then after a copy (the text was shared), and
    /// a string the cursor does not remember is counted afresh.
    #[test]
    fn growth_through_extend_text_is_counted() {
        let mut s = text(&"a".repeat(300));
        assert_eq!(count(&s), 300);
        extend_text(&mut s, |t| t.push_str("bc"));
        assert_eq!(count(&s), 302);
        extend_text(&mut s, |t| t.push_str("é€"));
        agrees(&s);
        let shared = Rc::clone(&s);
        extend_text(&mut s, |t| t.push_str("xyz"));
        assert_eq!(count(&s), 307);
        assert_eq!(count(&shared), 304);
        let mut other = text(&"q".repeat(400));
        extend_text(&mut other, |t| t.push('€'));
        assert_eq!(count(&other), 401);
        agrees(&other);
    }
}
