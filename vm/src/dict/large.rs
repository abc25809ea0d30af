//! A large dict: entries in a vector, found through a hash table of their positions, put
//! in key order only when something iterates.
//!
//! Why not a B-tree: the idiom that builds a big dict is a loop of inserts of new keys
//! followed by one pass over the result. A B-tree insert compares the key with about 27
//! others, each a `memcmp` call, about 1,500 instructions an insert at 200k entries; a
//! hash probe compares once. The key order a pass needs is worked out once, by sorting
//! positions (most comparisons settled by the keys' first eight bytes as one word), and
//! kept until the next change, so a loop of lookups, or of passes over an unchanged
//! dict, never sorts again.
//!
//! The hash is seeded per process, so keys chosen to collide cannot be written ahead of
//! time; the table stays correct under collisions, only slower.

use std::cell::OnceCell;
use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};

use super::Key;
use crate::value::Value;

#[derive(Clone, Default)]
pub(super) struct Large {
    /// Keys unique. In key order when `sorted`, else in the order they came.
    entries: Vec<(Key, Value)>,
    /// The position in `entries` of every entry, hashed by its key.
    table: HashTable<usize>,
    hasher: DefaultHashBuilder,
    /// Whether `entries` is in key order (built from a sorted dict, or keys that came in
    /// increasing order, or put in order by a mutable pass).
    sorted: bool,
    /// When not `sorted`: the positions of `entries` in key order, worked out by the
    /// first pass since the last change.
    order: OnceCell<Box<[usize]>>,
}

/// The first eight bytes of a key as a big-endian word, zeros past its end: ordering two
/// keys by their words agrees with byte-wise order whenever the words differ.
fn prefix_word(key: &str) -> u64 {
    let mut word = [0u8; 8];
    let bytes = key.as_bytes();
    let n = bytes.len().min(8);
    if let (Some(to), Some(from)) = (word.get_mut(..n), bytes.get(..n)) {
        to.copy_from_slice(from);
    }
    u64::from_be_bytes(word)
}

impl Large {
    /// A large dict of `entries`, which are in strictly increasing key order.
    pub(super) fn from_sorted(entries: Vec<(Key, Value)>) -> Self {
        let mut large = Large {
            entries,
            sorted: true,
            ..Large::default()
        };
        large.reindex();
        large
    }

    fn hash(&self, key: &str) -> u64 {
        self.hasher.hash_one(key)
    }

    /// Builds `table` afresh from `entries`.
    fn reindex(&mut self) {
        let Large {
            entries,
            table,
            hasher,
            ..
        } = self;
        table.clear();
        table.reserve(entries.len(), |&at| hash_at(hasher, entries, at));
        for (at, (key, _)) in entries.iter().enumerate() {
            table.insert_unique(hasher.hash_one(key.as_str()), at, |&at| {
                hash_at(hasher, entries, at)
            });
        }
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.find(self.hash(key), key)
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        let at = self.position(key)?;
        self.entries.get(at).map(|(_, v)| v)
    }

    pub(super) fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        let at = self.position(key)?;
        self.entries.get_mut(at).map(|(_, v)| v)
    }

    /// Sets `key` to `value`, returning the value it replaces (the key kept is the first
    /// one inserted).
    pub(super) fn insert(&mut self, key: Key, value: Value) -> Option<Value> {
        let hash = self.hash(&key);
        match self.find(hash, &key) {
            Some(at) => self
                .entries
                .get_mut(at)
                .map(|(_, v)| std::mem::replace(v, value)),
            None => {
                self.push_new(hash, (key, value));
                None
            }
        }
    }

    /// [`Self::insert`], copying the key only when it is new.
    pub(super) fn set(&mut self, key: &str, value: Value) {
        let hash = self.hash(key);
        match self.find(hash, key).and_then(|at| self.entries.get_mut(at)) {
            Some((_, v)) => *v = value,
            None => {
                self.push_new(hash, (Key::from(key), value));
            }
        }
    }

    /// The value of `key`, inserting `make()` first if the key is absent.
    pub(super) fn get_or_insert_with(
        &mut self,
        key: &str,
        make: impl FnOnce() -> Value,
    ) -> &mut Value {
        let hash = self.hash(key);
        let at = match self.find(hash, key) {
            Some(at) => at,
            None => self.push_new(hash, (Key::from(key), make())),
        };
        // A position the table gave, or the one just pushed: inside `entries`.
        &mut self.entries[at].1
    }

    /// The position of `key`, whose hash is `hash`.
    fn find(&self, hash: u64, key: &str) -> Option<usize> {
        let entries = &self.entries;
        self.table
            .find(hash, |&at| entries.get(at).is_some_and(|(k, _)| k == key))
            .copied()
    }

    /// Adds `entry`, whose key (hashed to `hash`) is not in the dict, at the end;
    /// answers its position.
    fn push_new(&mut self, hash: u64, entry: (Key, Value)) -> usize {
        let Large {
            entries,
            table,
            hasher,
            sorted,
            order,
        } = self;
        if *sorted
            && let Some((last, _)) = entries.last()
            && last.as_str() > entry.0.as_str()
        {
            *sorted = false;
        }
        order.take();
        let at = entries.len();
        entries.push(entry);
        table.insert_unique(hash, at, |&at| hash_at(hasher, entries, at));
        at
    }

    pub(super) fn remove(&mut self, key: &str) -> Option<Value> {
        let hash = self.hash(key);
        let at = self.find(hash, key)?;
        if let Ok(slot) = self.table.find_entry(hash, |&p| p == at) {
            slot.remove();
        }
        self.order.take();
        let last = self.entries.len().checked_sub(1)?;
        if at != last {
            // The last entry moves into the gap: its position in the table follows it.
            self.sorted = false;
            let moved = hash_at(&self.hasher, &self.entries, last);
            if let Some(slot) = self.table.find_mut(moved, |&p| p == last) {
                *slot = at;
            }
        }
        Some(self.entries.swap_remove(at).1)
    }

    /// Puts `entries` in key order (for a pass that may change values, or consumes the
    /// dict), moving the table's positions with them.
    fn make_sorted(&mut self) {
        if self.sorted {
            return;
        }
        let order = match self.order.take() {
            Some(order) => order,
            None => sort_positions(&self.entries),
        };
        let mut taken: Vec<Option<(Key, Value)>> = std::mem::take(&mut self.entries)
            .into_iter()
            .map(Some)
            .collect();
        self.entries = order
            .iter()
            .filter_map(|&at| taken.get_mut(at).and_then(Option::take))
            .collect();
        self.sorted = true;
        self.reindex();
    }

    pub(super) fn retain(&mut self, mut keep: impl FnMut(&Key, &mut Value) -> bool) {
        self.make_sorted();
        let before = self.entries.len();
        self.entries.retain_mut(|(k, v)| keep(k, v));
        if self.entries.len() != before {
            self.reindex();
        }
    }

    /// The entries in key order.
    pub(super) fn iter(&self) -> Ordered<'_> {
        if self.sorted {
            return Ordered::Sorted(self.entries.iter());
        }
        let order = self.order.get_or_init(|| sort_positions(&self.entries));
        Ordered::ByPosition {
            entries: &self.entries,
            order: order.iter(),
        }
    }

    /// Entry `i` in key order (the order is worked out on the first call since the last
    /// change, as for [`Self::iter`]).
    pub(super) fn entry_at(&self, i: usize) -> Option<(&Key, &Value)> {
        let at = if self.sorted {
            i
        } else {
            *self
                .order
                .get_or_init(|| sort_positions(&self.entries))
                .get(i)?
        };
        self.entries.get(at).map(|(k, v)| (k, v))
    }

    /// The entries in key order, values mutable.
    pub(super) fn iter_mut(&mut self) -> std::slice::IterMut<'_, (Key, Value)> {
        self.make_sorted();
        self.entries.iter_mut()
    }

    /// The entries in key order, owned.
    pub(super) fn into_sorted(mut self) -> Vec<(Key, Value)> {
        self.make_sorted();
        self.entries
    }

    /// The entries in no particular order, owned: for freeing them, where order does
    /// not matter and sorting 200k keys first cost more than the frees.
    pub(super) fn into_entries(self) -> Vec<(Key, Value)> {
        self.entries
    }
}

/// The hash of the key at position `at` (0 for a position past the end, which the
/// table never holds).
fn hash_at(hasher: &DefaultHashBuilder, entries: &[(Key, Value)], at: usize) -> u64 {
    entries
        .get(at)
        .map_or(0, |(k, _)| hasher.hash_one(k.as_str()))
}

/// The positions of `entries` in key order: sorted by each key's first eight bytes,
/// with the whole keys compared only where those agree.
fn sort_positions(entries: &[(Key, Value)]) -> Box<[usize]> {
    let mut keyed: Vec<(u64, usize)> = entries
        .iter()
        .enumerate()
        .map(|(at, (k, _))| (prefix_word(k), at))
        .collect();
    let key = |at: usize| entries.get(at).map(|(k, _)| k.as_bytes());
    if keyed.len() < RADIX_FROM {
        keyed.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| key(a.1).cmp(&key(b.1))));
    } else {
        radix_sort_by_word(&mut keyed);
        // Runs of equal words (keys that agree on their first eight bytes, or a short
        // key and the same key followed by NUL bytes) are put in order by the bytes.
        for run in keyed.chunk_by_mut(|a, b| a.0 == b.0) {
            if run.len() > 1 {
                run.sort_unstable_by(|a, b| key(a.1).cmp(&key(b.1)));
            }
        }
    }
    keyed.into_iter().map(|(_, at)| at).collect()
}

/// From this many entries the words are radix sorted: a comparison sort of 200k keys
/// cost about 260 instructions a key, most of them comparisons the digits avoid.
const RADIX_FROM: usize = 512;

/// Sorts `keyed` by its words, least significant byte first, one counting pass per
/// byte; a byte that is the same in every word (the `k` of `k1`, `k2`, ...) is skipped.
/// The eight bytes' counts are taken in one pass over the words, not one pass each.
fn radix_sort_by_word(keyed: &mut Vec<(u64, usize)>) {
    let n = keyed.len();
    let mut counts = vec![[0usize; 256]; 8];
    for &(w, _) in keyed.iter() {
        for (byte, count) in counts.iter_mut().enumerate() {
            count[((w >> (8 * byte)) & 0xff) as usize] += 1;
        }
    }
    let mut spare = vec![(0u64, 0usize); n];
    for (byte, count) in counts.iter_mut().enumerate() {
        if count.contains(&n) {
            continue;
        }
        let mut next = 0;
        for c in count.iter_mut() {
            let here = *c;
            *c = next;
            next += here;
        }
        let shift = 8 * byte;
        for &(w, at) in keyed.iter() {
            let c = &mut count[((w >> shift) & 0xff) as usize];
            if let Some(slot) = spare.get_mut(*c) {
                *slot = (w, at);
                *c += 1;
            }
        }
        std::mem::swap(keyed, &mut spare);
    }
}

/// Borrowing iteration of a large dict in key order.
#[derive(Clone)]
pub enum Ordered<'a> {
    /// The entries are in key order as they lie.
    Sorted(std::slice::Iter<'a, (Key, Value)>),
    /// The entries at the positions `order` gives.
    ByPosition {
        entries: &'a [(Key, Value)],
        order: std::slice::Iter<'a, usize>,
    },
}

impl<'a> Ordered<'a> {
    fn at(entries: &'a [(Key, Value)], at: usize) -> Option<(&'a Key, &'a Value)> {
        entries.get(at).map(|(k, v)| (k, v))
    }
}

impl<'a> Iterator for Ordered<'a> {
    type Item = (&'a Key, &'a Value);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Ordered::Sorted(it) => it.next().map(|(k, v)| (k, v)),
            Ordered::ByPosition { entries, order } => Self::at(entries, *order.next()?),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Ordered::Sorted(it) => it.size_hint(),
            Ordered::ByPosition { order, .. } => order.size_hint(),
        }
    }
}

impl DoubleEndedIterator for Ordered<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        match self {
            Ordered::Sorted(it) => it.next_back().map(|(k, v)| (k, v)),
            Ordered::ByPosition { entries, order } => Self::at(entries, *order.next_back()?),
        }
    }
}

impl ExactSizeIterator for Ordered<'_> {}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn show(v: &Value) -> String {
        format!("{v:?}")
    }

    fn pairs<'a, K: AsRef<str> + 'a>(
        it: impl Iterator<Item = (&'a K, &'a Value)>,
    ) -> Vec<(String, String)> {
        it.map(|(k, v)| (k.as_ref().to_string(), show(v))).collect()
    }

    /// One xorshift step: the tests' reproducible stream of choices.
    fn next_seed(seed: &mut u64) {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
    }

    /// Keys that share their first eight bytes, hold NUL bytes, are shorter and longer
    /// than a word, and are not ASCII: the cases where the word order must defer to the
    /// bytes.
    fn awkward_key(n: u64) -> String {
        match n % 6 {
            0 => format!("k{n}"),
            1 => format!("prefix__{}", n % 13),
            2 => format!("prefix__\0{}", n % 5),
            3 => "a\0".repeat((n % 4) as usize),
            4 => format!("é{}", n % 7),
            _ => format!("{:x}", n.wrapping_mul(0x9e37_79b9) % 997),
        }
    }

    /// Past `RADIX_FROM` entries the order comes from the radix sort: the same order as
    /// a `BTreeMap`'s, for keys that share their first eight bytes, differ in any one of
    /// them, end in NUL bytes, are empty, long or not ASCII, inserted out of order.
    #[test]
    fn radix_order_agrees_with_a_btree_map() {
        let mut large = Large::from_sorted(Vec::new());
        let mut model: BTreeMap<String, Value> = BTreeMap::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..5000i64 {
            next_seed(&mut seed);
            let key = match i % 5 {
                0 => awkward_key(seed % 100_000),
                4 => format!(
                    "{}bcdef{:02}",
                    char::from(b'a' + (seed % 26) as u8),
                    seed % 100
                ),
                1 => format!("same_prefix_{}", seed % 1000),
                2 => "z\0".repeat((seed % 5) as usize) + &(seed % 3).to_string(),
                _ => format!("k{}", seed % 50_000),
            };
            large.insert(Key::from(&key), Value::Int(i));
            model.insert(key, Value::Int(i));
        }
        assert!(large.len() > RADIX_FROM);
        assert_eq!(pairs(large.iter()), pairs(model.iter()));
    }

    /// Drives a large dict and a `BTreeMap` with the same long run of inserts, sets,
    /// removes, in-place updates and passes, and requires the same answers and the same
    /// order after every step, in both directions.
    #[test]
    fn agrees_with_a_btree_map() {
        let mut large = Large::from_sorted(Vec::new());
        let mut model: BTreeMap<String, Value> = BTreeMap::new();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for step in 0..3000i64 {
            next_seed(&mut seed);
            let key = awkward_key(seed % 97);
            match seed % 11 {
                0..=3 => {
                    let old = large
                        .insert(Key::from(&key), Value::Int(step))
                        .map(|v| show(&v));
                    let want = model
                        .insert(key.clone(), Value::Int(step))
                        .map(|v| show(&v));
                    assert_eq!(old, want, "insert {key:?}");
                }
                4 | 5 => {
                    large.set(&key, Value::Int(-step));
                    model.insert(key.clone(), Value::Int(-step));
                }
                6 | 7 => {
                    let got = large.remove(&key).map(|v| show(&v));
                    assert_eq!(got, model.remove(&key).map(|v| show(&v)), "remove {key:?}");
                }
                8 => {
                    *large.get_or_insert_with(&key, || Value::Int(7)) = Value::Int(step * 2);
                    *model.entry(key.clone()).or_insert(Value::Int(7)) = Value::Int(step * 2);
                }
                9 => {
                    for (_, v) in large.iter_mut() {
                        if let Value::Int(n) = v {
                            *n += 1;
                        }
                    }
                    for v in model.values_mut() {
                        if let Value::Int(n) = v {
                            *n += 1;
                        }
                    }
                }
                _ => {
                    let drop_odd =
                        |_: &Key, v: &mut Value| !matches!(v, Value::Int(n) if *n % 2 != 0);
                    if step % 7 == 0 {
                        large.retain(drop_odd);
                        model.retain(|k, v| drop_odd(&Key::from(k), v));
                    }
                }
            }
            assert_eq!(large.len(), model.len());
            assert_eq!(
                large.get(&key).map(show),
                model.get(&key).map(show),
                "get {key:?}"
            );
            if step % 5 == 0 {
                assert_eq!(pairs(large.iter()), pairs(model.iter()), "step {step}");
                let back: Vec<_> = large.iter().rev().map(|(k, _)| k.clone()).collect();
                let want: Vec<_> = model.keys().rev().cloned().collect();
                assert_eq!(back, want);
            }
        }
        assert!(model.len() > 20, "the run must keep a large dict");
        let copy = large.clone();
        large.set("zzz", Value::Int(1));
        assert!(
            copy.get("zzz").is_none(),
            "a copy does not see later changes"
        );
        let owned: Vec<_> = copy.into_sorted().into_iter().map(|(k, _)| k).collect();
        assert_eq!(owned, model.keys().cloned().collect::<Vec<_>>());
    }

    /// Ordering by the first eight bytes as a word agrees with byte-wise order whenever
    /// the words differ.
    #[test]
    fn prefix_words_order_as_bytes_do() {
        let keys: Vec<String> = (0..200)
            .map(awkward_key)
            .chain(["".into(), "\0".into()])
            .collect();
        for a in &keys {
            for b in &keys {
                let (wa, wb) = (prefix_word(a), prefix_word(b));
                if wa != wb {
                    assert_eq!(wa.cmp(&wb), a.as_bytes().cmp(b.as_bytes()), "{a:?} {b:?}");
                }
            }
        }
    }
}
