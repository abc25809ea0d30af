//! `Dict`: the map behind dict and struct values: string keys, iterated in byte-wise key
//! order (`language.md` 8), with the API of the `BTreeMap` it wraps.
//!
//! Why not the `BTreeMap` alone: most dicts a snippet touches are records of a few fields
//! (`{id: 1, name: "a"}`, a tool's result), read field by field in loops. A B-tree search
//! compares the key with each entry through `memcmp`, about 100 instructions for a field
//! of a 3-key dict. Up to [`SMALL_MAX`] entries a dict is instead a vector sorted by key,
//! searched by length before any byte comparison, which for a short key is two word
//! compares rather than a `memcmp` call; past that it becomes the B-tree, whose
//! searches are logarithmic. Both keep the same order, so nothing that iterates can
//! tell them apart.

mod key;
mod large;

use std::cell::Cell;
use std::collections::BTreeMap;
use std::iter::FusedIterator;

use crate::value::Value;
pub use key::Key;
use large::{Large, Ordered};

/// Most entries held in the sorted vector; the entry after this one moves the dict into
/// a B-tree. A record dict rarely has more fields, and a linear scan filtered by length
/// and first byte stays cheaper than a B-tree search up to here.
pub const SMALL_MAX: usize = 16;

/// String keys kept in byte-wise key order.
#[derive(Clone, Default)]
pub struct Dict(Repr);

#[derive(Clone)]
enum Repr {
    /// Sorted by key, at most [`SMALL_MAX`] entries, keys unique.
    Small(Vec<(Key, Value)>),
    /// Past [`SMALL_MAX`] entries: hashed, put in key order when iterated. Boxed: a
    /// large dict's parts are several times a vector's size, and every small dict (the
    /// common kind) would otherwise be as big.
    Large(Box<Large>),
}

// Every record dict carries this size: a large dict's parts stay behind a box.
const _: () = assert!(std::mem::size_of::<Dict>() <= 32);

impl Default for Repr {
    fn default() -> Self {
        Repr::Small(Vec::new())
    }
}

/// The position of `key` in a small dict's entries: length first, then the bytes.
#[inline]
fn position(entries: &[(Key, Value)], key: &str) -> Option<usize> {
    let key = key.as_bytes();
    entries.iter().position(|(k, _)| {
        let k = k.as_bytes();
        k.len() == key.len() && same_bytes(k, key)
    })
}

/// Whether two byte strings of the same length are equal. Up to 16 bytes (record keys)
/// they are compared as two overlapping words of 1, 2, 4 or 8 bytes, inline; a `memcmp`
/// call would cost more than the comparison itself.
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    match n {
        0 => true,
        1 => a.first() == b.first(),
        2..=3 => same_ends::<2>(a, b, n),
        4..=7 => same_ends::<4>(a, b, n),
        8..=16 => same_ends::<8>(a, b, n),
        _ => a == b,
    }
}

/// Whether the first and the last `W` bytes of `a` and `b` (each `n` long, `W <= n`)
/// agree.
#[inline(always)]
fn same_ends<const W: usize>(a: &[u8], b: &[u8], n: usize) -> bool {
    let word = |s: &[u8], at: usize| -> Option<[u8; W]> { s.get(at..at + W)?.try_into().ok() };
    word(a, 0) == word(b, 0) && word(a, n - W) == word(b, n - W)
}

/// A small dict's position as a hint: below [`SMALL_MAX`], so it always fits.
#[inline(always)]
fn small_position(at: usize) -> u8 {
    u8::try_from(at).unwrap_or(u8::MAX)
}

/// A large dict's search, out of line so that an inlined small-dict search stays small
/// (and needs few registers saved).
#[inline(never)]
fn large_get<'a>(map: &'a Large, key: &str) -> Option<&'a Value> {
    map.get(key)
}

impl Dict {
    pub const fn new() -> Self {
        Dict(Repr::Small(Vec::new()))
    }

    /// An empty dict with room for `n` entries without growing, up to [`SMALL_MAX`]
    /// (past that it becomes the large kind, sized as it fills).
    pub fn with_capacity(n: usize) -> Self {
        Dict(Repr::Small(Vec::with_capacity(n.min(SMALL_MAX))))
    }

    /// `{k1: v1, k2: v2}` with two different keys, in one allocation and without a search:
    /// what a `for` loop over a dict or `enumerate()` makes per element. Equal keys keep
    /// `v2`, as two inserts would.
    pub fn two(k1: &str, v1: Value, k2: &str, v2: Value) -> Self {
        let mut entries = Vec::with_capacity(2);
        match k1.cmp(k2) {
            std::cmp::Ordering::Less => {
                entries.push((Key::of(k1), v1));
                entries.push((Key::of(k2), v2));
            }
            std::cmp::Ordering::Greater => {
                entries.push((Key::of(k2), v2));
                entries.push((Key::of(k1), v1));
            }
            std::cmp::Ordering::Equal => entries.push((Key::of(k1), v2)),
        }
        Dict(Repr::Small(entries))
    }

    /// A dict of `entries`, taken as they are when they are already in strictly
    /// increasing key order (a JSON object read through serde_json's sorted map, a
    /// small dict's own entries) and few enough for a small dict: no search and no
    /// shifting per entry. Any other input is inserted entry by entry.
    pub fn from_sorted(entries: Vec<(Key, Value)>) -> Self {
        let sorted = entries
            .windows(2)
            .all(|w| w[0].0.as_bytes() < w[1].0.as_bytes());
        if sorted && entries.len() <= SMALL_MAX {
            Dict(Repr::Small(entries))
        } else {
            entries.into_iter().collect()
        }
    }

    /// The two values of a dict that is exactly `{k1: _, k2: _}` (`k1 < k2`), for
    /// refilling it in place; `None` for any other dict.
    pub(crate) fn values_of_two(&mut self, k1: &str, k2: &str) -> Option<(&mut Value, &mut Value)> {
        match &mut self.0 {
            Repr::Small(entries) => match entries.as_mut_slice() {
                [(a, v1), (b, v2)] if a == k1 && b == k2 => Some((v1, v2)),
                _ => None,
            },
            Repr::Large(_) => None,
        }
    }

    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Small(entries) => entries.len(),
            Repr::Large(map) => map.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether this is a small dict none of whose values holds a container: a record of
    /// numbers and strings, which its own drop frees without recursing, so dropping it
    /// needs no work list (`value::Value`'s `Drop`).
    #[inline]
    pub(crate) fn is_flat(&self) -> bool {
        match &self.0 {
            Repr::Small(entries) => !entries.iter().any(|(_, v)| crate::value::is_container(v)),
            Repr::Large(_) => false,
        }
    }

    #[inline]
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.field(key)
    }

    /// [`Self::get`], always inlined: for the VM's own field and index reads, where a
    /// call would cost about as much as the search of a small dict.
    #[inline(always)]
    pub(crate) fn field(&self, key: &str) -> Option<&Value> {
        match &self.0 {
            Repr::Small(entries) => position(entries, key)
                .and_then(|i| entries.get(i))
                .map(|(_, v)| v),
            Repr::Large(map) => large_get(map, key),
        }
    }

    /// [`Self::field`] for an instruction that reads the same key again and again: `hint`
    /// is that instruction's memory of where the key sat last time (`Function::key_hints`).
    /// A small dict whose entry at the hint has the key answers with one comparison; any
    /// other answer is the full search, which moves the hint. Records built the same way
    /// keep their keys at the same positions, so one hint serves every one of them.
    #[inline(always)]
    pub(crate) fn field_hinted(&self, key: &str, hint: &Cell<u8>) -> Option<&Value> {
        match &self.0 {
            Repr::Small(entries) => {
                if let Some((k, v)) = entries.get(usize::from(hint.get()))
                    && k.len() == key.len()
                    && same_bytes(k.as_bytes(), key.as_bytes())
                {
                    return Some(v);
                }
                let at = position(entries, key)?;
                hint.set(small_position(at));
                entries.get(at).map(|(_, v)| v)
            }
            Repr::Large(map) => large_get(map, key),
        }
    }

    /// [`Self::set`] with an instruction's hint, as [`Self::field_hinted`] reads.
    pub(crate) fn set_hinted(&mut self, key: &str, value: Value, hint: &Cell<u8>) {
        if let Repr::Small(entries) = &mut self.0 {
            let at = usize::from(hint.get());
            let at = match entries.get(at) {
                Some((k, _))
                    if k.len() == key.len() && same_bytes(k.as_bytes(), key.as_bytes()) =>
                {
                    Some(at)
                }
                _ => position(entries, key),
            };
            if let Some(at) = at
                && let Some((_, v)) = entries.get_mut(at)
            {
                hint.set(small_position(at));
                *v = value;
                return;
            }
        }
        self.set(key, value);
    }

    #[inline]
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        match &mut self.0 {
            Repr::Small(entries) => match position(entries, key) {
                Some(i) => entries.get_mut(i).map(|(_, v)| v),
                None => None,
            },
            Repr::Large(map) => map.get_mut(key),
        }
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key` to `value`, returning the value it replaces (the key kept is the first
    /// one inserted, as with `BTreeMap`).
    pub fn insert(&mut self, key: impl Into<Key>, value: Value) -> Option<Value> {
        let key = key.into();
        match &mut self.0 {
            Repr::Small(entries) => {
                if let Some(i) = position(entries, &key) {
                    return entries.get_mut(i).map(|(_, v)| std::mem::replace(v, value));
                }
                if entries.len() < SMALL_MAX {
                    let at = entries.partition_point(|(k, _)| k.as_str() < key.as_str());
                    entries.insert(at, (key, value));
                    return None;
                }
                let mut map = Box::new(Large::from_sorted(std::mem::take(entries)));
                map.insert(key, value);
                self.0 = Repr::Large(map);
                None
            }
            Repr::Large(map) => map.insert(key, value),
        }
    }

    /// Sets `key` to `value`, copying the key only when it is new.
    pub fn set(&mut self, key: &str, value: Value) {
        self.set_with(key, value, || Key::from(key));
    }

    /// Sets `key` to `value`; when the key is new, the entry's key is `make_key()` (which
    /// must be `key`), so that a key shared by many dicts is not copied for each.
    pub fn set_with(&mut self, key: &str, value: Value, make_key: impl FnOnce() -> Key) {
        match &mut self.0 {
            Repr::Small(entries) => {
                if let Some((_, v)) = position(entries, key).and_then(|i| entries.get_mut(i)) {
                    *v = value;
                    return;
                }
                if entries.len() < SMALL_MAX {
                    // Known absent: placed by order without a second search.
                    let at = entries.partition_point(|(k, _)| k.as_str() < key);
                    entries.insert(at, (make_key(), value));
                    return;
                }
                self.insert(make_key(), value);
            }
            Repr::Large(map) => map.set(key, value),
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<Value> {
        match &mut self.0 {
            Repr::Small(entries) => position(entries, key).map(|i| entries.remove(i).1),
            Repr::Large(map) => map.remove(key),
        }
    }

    /// The value of `key`, inserting `make()` first if the key is absent.
    pub fn get_or_insert_with(&mut self, key: &str, make: impl FnOnce() -> Value) -> &mut Value {
        if let Repr::Small(entries) = &mut self.0
            && position(entries, key).is_none()
            && entries.len() == SMALL_MAX
        {
            self.0 = Repr::Large(Box::new(Large::from_sorted(std::mem::take(entries))));
        }
        match &mut self.0 {
            Repr::Small(entries) => {
                let at = match position(entries, key) {
                    Some(at) => at,
                    None => {
                        let at = entries.partition_point(|(k, _)| k.as_str() < key);
                        entries.insert(at, (Key::from(key), make()));
                        at
                    }
                };
                &mut entries[at].1
            }
            Repr::Large(map) => map.get_or_insert_with(key, make),
        }
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&Key, &mut Value) -> bool) {
        match &mut self.0 {
            Repr::Small(entries) => entries.retain_mut(|(k, v)| keep(k, v)),
            Repr::Large(map) => map.retain(|k, v| keep(k, v)),
        }
    }

    pub fn iter(&self) -> Iter<'_> {
        match &self.0 {
            Repr::Small(entries) => Iter::Small(entries.iter()),
            Repr::Large(map) => Iter::Large(map.iter()),
        }
    }

    pub fn iter_mut(&mut self) -> IterMut<'_> {
        match &mut self.0 {
            Repr::Small(entries) => IterMut::Small(entries.iter_mut()),
            Repr::Large(map) => IterMut::Small(map.iter_mut()),
        }
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Key> + ExactSizeIterator {
        self.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator {
        self.iter().map(|(_, v)| v)
    }

    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut Value> + ExactSizeIterator {
        self.iter_mut().map(|(_, v)| v)
    }

    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = Key> + ExactSizeIterator {
        self.into_iter().map(|(k, _)| k)
    }

    pub fn into_values(self) -> impl DoubleEndedIterator<Item = Value> + ExactSizeIterator {
        self.into_iter().map(|(_, v)| v)
    }

    /// The values in no particular order: what freeing a dict needs. A large dict keeps
    /// its entries in the order they came and would be sorted by [`Self::into_values`].
    pub(crate) fn into_values_unordered(self) -> impl Iterator<Item = Value> {
        let entries = match self.0 {
            Repr::Small(entries) => entries,
            Repr::Large(map) => map.into_entries(),
        };
        entries.into_iter().map(|(_, v)| v)
    }

    /// Entry `i` in key order: a `for` loop's step over a dict it holds, without a copy
    /// of the entries made before the loop starts.
    pub(crate) fn entry_at(&self, i: usize) -> Option<(&Key, &Value)> {
        match &self.0 {
            Repr::Small(entries) => entries.get(i).map(|(k, v)| (k, v)),
            Repr::Large(map) => map.entry_at(i),
        }
    }

    pub fn first_key_value(&self) -> Option<(&Key, &Value)> {
        self.iter().next()
    }

    pub fn last_key_value(&self) -> Option<(&Key, &Value)> {
        self.iter().next_back()
    }
}

/// Printed as the map it is, whichever the representation.
impl std::fmt::Debug for Dict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Borrowing iteration in key order.
pub enum Iter<'a> {
    Small(std::slice::Iter<'a, (Key, Value)>),
    Large(Ordered<'a>),
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Key, &'a Value);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Small(it) => it.next().map(|(k, v)| (k, v)),
            Iter::Large(it) => it.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Iter::Small(it) => it.size_hint(),
            Iter::Large(it) => it.size_hint(),
        }
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Iter::Small(it) => it.next_back().map(|(k, v)| (k, v)),
            Iter::Large(it) => it.next_back(),
        }
    }
}

impl ExactSizeIterator for Iter<'_> {}
impl FusedIterator for Iter<'_> {}

/// Iteration in key order with the values mutable (a large dict is put in key order
/// first, so both kinds are a slice).
pub enum IterMut<'a> {
    Small(std::slice::IterMut<'a, (Key, Value)>),
}

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a Key, &'a mut Value);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            IterMut::Small(it) => it.next().map(|(k, v)| (&*k, v)),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            IterMut::Small(it) => it.size_hint(),
        }
    }
}

impl DoubleEndedIterator for IterMut<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            IterMut::Small(it) => it.next_back().map(|(k, v)| (&*k, v)),
        }
    }
}

impl ExactSizeIterator for IterMut<'_> {}
impl FusedIterator for IterMut<'_> {}

/// Owning iteration in key order (a large dict is put in key order first, so both
/// kinds are a vector).
pub enum IntoIter {
    Small(std::vec::IntoIter<(Key, Value)>),
}

impl Iterator for IntoIter {
    type Item = (Key, Value);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            IntoIter::Small(it) => it.next(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            IntoIter::Small(it) => it.size_hint(),
        }
    }
}

impl DoubleEndedIterator for IntoIter {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            IntoIter::Small(it) => it.next_back(),
        }
    }
}

impl ExactSizeIterator for IntoIter {}
impl FusedIterator for IntoIter {}

impl IntoIterator for Dict {
    type Item = (Key, Value);
    type IntoIter = IntoIter;

    fn into_iter(self) -> IntoIter {
        match self.0 {
            Repr::Small(entries) => IntoIter::Small(entries.into_iter()),
            Repr::Large(map) => IntoIter::Small(map.into_sorted().into_iter()),
        }
    }
}

impl<'a> IntoIterator for &'a Dict {
    type Item = (&'a Key, &'a Value);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Dict {
    type Item = (&'a Key, &'a mut Value);
    type IntoIter = IterMut<'a>;

    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl<K: Into<Key>> Extend<(K, Value)> for Dict {
    fn extend<I: IntoIterator<Item = (K, Value)>>(&mut self, items: I) {
        for (k, v) in items {
            self.insert(k, v);
        }
    }
}

impl<K: Into<Key>> FromIterator<(K, Value)> for Dict {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(items: I) -> Self {
        let mut dict = Dict::new();
        dict.extend(items);
        dict
    }
}

impl<K: Into<Key>, const N: usize> From<[(K, Value); N]> for Dict {
    fn from(items: [(K, Value); N]) -> Self {
        items.into_iter().collect()
    }
}

impl From<BTreeMap<String, Value>> for Dict {
    fn from(map: BTreeMap<String, Value>) -> Self {
        if map.len() <= SMALL_MAX {
            Dict(Repr::Small(
                map.into_iter().map(|(k, v)| (Key::from(k), v)).collect(),
            ))
        } else {
            Dict(Repr::Large(Box::new(Large::from_sorted(
                map.into_iter().map(|(k, v)| (Key::from(k), v)).collect(),
            ))))
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// Sorted entries are taken as they are; anything else (out of order, a repeated
    /// key, more than a small dict holds) ends up as entry-by-entry inserts would leave it.
    #[test]
    fn from_sorted_agrees_with_inserting_each_entry() {
        let entry = |k: &str, n: i64| (k.to_string(), Value::Int(n));
        let many: Vec<_> = (0..40).map(|i| entry(&format!("k{i:02}"), i)).collect();
        let cases = [
            vec![],
            vec![entry("a", 1), entry("b", 2), entry("c", 3)],
            vec![entry("b", 1), entry("a", 2)],
            vec![entry("a", 1), entry("a", 2)],
            vec![entry("é", 1), entry("z", 2)],
            many,
        ];
        for entries in cases {
            let built = Dict::from_sorted(
                entries
                    .iter()
                    .map(|(k, v)| (Key::from(k), v.clone()))
                    .collect(),
            );
            let mut inserted = Dict::new();
            for (k, v) in entries {
                inserted.insert(k, v);
            }
            let pairs = |d: &Dict| -> Vec<(String, String)> {
                d.iter()
                    .map(|(k, v)| (k.to_string(), format!("{v:?}")))
                    .collect()
            };
            assert_eq!(pairs(&built), pairs(&inserted));
        }
    }

    fn keys(d: &Dict) -> Vec<&str> {
        d.keys().map(Key::as_str).collect()
    }

    /// The word-wise comparison agrees with `==` at every length it handles and past it,
    /// whichever byte differs.
    #[test]
    fn short_keys_compare_as_slices_do() {
        for n in 0..=24usize {
            let a: Vec<u8> = (0..n as u8).map(|i| b'a' + i % 26).collect();
            assert!(same_bytes(&a, &a.clone()), "length {n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!same_bytes(&a, &b), "length {n}, differing at {at}");
            }
        }
    }

    /// One hint shared by reads and writes of different dicts (other key sets, other
    /// positions, absent keys, a large dict) gives the answers of the plain search.
    #[test]
    fn hinted_access_answers_as_the_search_does() {
        let build = |keys: &[&str]| {
            let mut d = Dict::new();
            for (i, k) in keys.iter().enumerate() {
                d.insert((*k).to_owned(), Value::Int(i as i64));
            }
            d
        };
        let large: Vec<String> = (0..40).map(|i| format!("f{i}")).collect();
        let large: Vec<&str> = large.iter().map(String::as_str).collect();
        let mut dicts = vec![
            build(&["x", "y", "z"]),
            build(&["y", "z"]),
            build(&["a", "x", "yy", "z"]),
            build(&[]),
            build(&["z"]),
            build(&large),
        ];
        let hint = Cell::new(0);
        for round in 0..3 {
            for key in ["x", "y", "z", "yy", "f7", "w", ""] {
                for d in &mut dicts {
                    let plain = d.get(key).map(|v| format!("{v:?}"));
                    let hinted = d.field_hinted(key, &hint).map(|v| format!("{v:?}"));
                    assert_eq!(hinted, plain, "{key} in {:?}", keys(d));
                    if round == 1 {
                        let mut expected = d.clone();
                        expected.set(key, Value::Int(100));
                        d.set_hinted(key, Value::Int(100), &hint);
                        assert_eq!(format!("{d:?}"), format!("{expected:?}"), "set {key}");
                    }
                }
            }
        }
        // An out-of-range hint (a dict smaller than the last one) is only a miss.
        hint.set(u8::MAX);
        let small = build(&["x", "y", "z"]);
        assert_eq!(
            small.field_hinted("z", &hint).map(|v| format!("{v:?}")),
            Some("Int(2)".into())
        );
        assert_eq!(hint.get(), 2);
    }

    /// `Dict::two` is the dict two inserts make, whichever key sorts first.
    #[test]
    fn two_is_two_inserts() {
        for (k1, k2) in [("key", "value"), ("value", "key"), ("a", "a"), ("", "b")] {
            let made = Dict::two(k1, Value::Int(1), k2, Value::Int(2));
            let mut inserted = Dict::new();
            inserted.insert(k1.to_owned(), Value::Int(1));
            inserted.insert(k2.to_owned(), Value::Int(2));
            assert_eq!(keys(&made), keys(&inserted));
            assert_eq!(format!("{made:?}"), format!("{inserted:?}"));
            assert_eq!(
                made.get(k2).map(|v| format!("{v:?}")),
                Some("Int(2)".into())
            );
        }
    }

    /// Drives a small-then-large dict and a `BTreeMap` with the same operations and
    /// requires the same answers at every step, across the change of representation.
    #[test]
    fn behaves_as_a_btree_map_across_the_switch() {
        let mut dict = Dict::new();
        let mut model: BTreeMap<String, Value> = BTreeMap::new();
        // Keys sharing lengths and first bytes, inserted out of order, some twice.
        let names: Vec<String> = (0..60u32)
            .map(|i| {
                let n = (i * 37) % 41;
                match n % 3 {
                    0 => format!("k{n}"),
                    1 => format!("a{}", n % 7),
                    _ => "é".repeat((n % 4) as usize),
                }
            })
            .collect();
        for (i, name) in names.iter().enumerate() {
            let v = Value::Int(i as i64);
            let old_d = dict
                .insert(name.clone(), v.clone())
                .map(|v| format!("{v:?}"));
            let old_m = model.insert(name.clone(), v).map(|v| format!("{v:?}"));
            assert_eq!(old_d, old_m, "insert {name}");
            assert_eq!(dict.len(), model.len());
            assert_eq!(
                keys(&dict),
                model.keys().map(String::as_str).collect::<Vec<_>>()
            );
            for probe in ["k0", "a3", "", "é", "zz", name.as_str()] {
                assert_eq!(
                    dict.get(probe).map(|v| format!("{v:?}")),
                    model.get(probe).map(|v| format!("{v:?}")),
                    "get {probe}"
                );
            }
            if i % 5 == 4 {
                assert_eq!(
                    dict.remove(name).map(|v| format!("{v:?}")),
                    model.remove(name).map(|v| format!("{v:?}"))
                );
            }
        }
        assert!(
            dict.len() > SMALL_MAX,
            "the test must cross into the B-tree"
        );
        let back: Vec<_> = dict.iter().rev().map(|(k, _)| k.clone()).collect();
        let want: Vec<_> = model.keys().rev().cloned().collect();
        assert_eq!(back, want);
    }

    #[test]
    fn set_keeps_order_and_replaces() {
        let mut d = Dict::new();
        for k in ["b", "a", "c", "a"] {
            d.set(k, Value::Int(k.len() as i64));
        }
        assert_eq!(keys(&d), ["a", "b", "c"]);
        let slot = d.get_or_insert_with("aa", || Value::Int(7));
        assert!(matches!(slot, Value::Int(7)));
        assert_eq!(keys(&d), ["a", "aa", "b", "c"]);
        d.retain(|k, _| k != "b");
        assert_eq!(keys(&d), ["a", "aa", "c"]);
        assert_eq!(d.first_key_value().map(|(k, _)| k.as_str()), Some("a"));
        assert_eq!(d.last_key_value().map(|(k, _)| k.as_str()), Some("c"));
    }

    /// Freeing a dict reads its values through `into_values_unordered`: every value,
    /// each once, for a small dict and for a large one built out of key order.
    #[test]
    fn unordered_values_are_every_value_once() {
        for n in [3i64, 40] {
            let mut d = Dict::new();
            for i in (0..n).rev() {
                d.set(&format!("k{i}"), Value::Int(i));
            }
            let mut got: Vec<i64> = d
                .into_values_unordered()
                .map(|v| match v {
                    Value::Int(i) => i,
                    _ => -1,
                })
                .collect();
            got.sort_unstable();
            assert_eq!(got, (0..n).collect::<Vec<_>>());
        }
    }
}
