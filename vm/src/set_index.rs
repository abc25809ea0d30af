//! A hashed index of the set most recently searched, so `seen.contains(x)` and
//! `seen = seen.add(x)` in a loop cost one lookup each, not a scan of the set.
//!
//! A set is a vector in insertion order, searched element by element; a loop that keeps
//! a set of seen values (deduplication, a visited set) was quadratic: 50,000 adds and
//! lookups took 7.3 s, against 0.003 s for Lua's table. One index per thread maps each
//! element of the last set searched to its position. It is built (one pass) when a set of
//! at least [`INDEX_FROM`] elements is searched, kept up to date by `add`, and dropped by
//! anything else.
//!
//! Only sets of simple values (nil, bools, numbers, durations, strings) are indexed: for
//! them "identical" (`same_value`) is equality of variant and payload (a float by its
//! bits), which the key below reproduces exactly. A set holding anything else is
//! searched element by element as before.
//!
//! The index holds a [`Weak`] to its set: while it does, no other set can be allocated
//! at that address, and the elements cannot change in place (`Rc::get_mut` refuses and
//! `Rc::make_mut` moves them to a new allocation while a `Weak` exists), so a matching
//! address means the same elements. `add` takes the index out before it pushes
//! ([`detach`]), so the push happens in place, and puts it back with the new element.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

/// Seeded per process, as large dicts' tables are (`dict::large`): the elements are the
/// program's, so a keyed hash keeps crafted collisions from turning one charged lookup
/// into a long probe.
type Positions = hashbrown::HashMap<Key, usize>;

use crate::value::Value;

/// Sets smaller than this are scanned: the scan costs less than building an index.
const INDEX_FROM: usize = 16;

/// An element of a simple set, hashed and compared as `same_value` compares them.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key {
    Nil,
    Bool(bool),
    Int(i64),
    Float(u64),
    Duration(i64),
    Str(Rc<String>),
}

impl Key {
    fn of(v: &Value) -> Option<Key> {
        Some(match v {
            Value::Nil => Key::Nil,
            Value::Bool(b) => Key::Bool(*b),
            Value::Int(n) => Key::Int(*n),
            Value::Float(x) => Key::Float(x.to_bits()),
            Value::Duration(ms) => Key::Duration(*ms),
            Value::Str(s) => Key::Str(Rc::clone(s)),
            _ => return None,
        })
    }
}

/// The index of one set.
pub(crate) struct Index {
    set: Weak<Vec<Value>>,
    positions: Positions,
    /// Whether an element is a float: only then can an int equal (`==`) an element it
    /// is not identical to (`1 == 1.0`).
    has_float: bool,
}

thread_local! {
    static INDEX: RefCell<Option<Index>> = const { RefCell::new(None) };
}

/// What a search of a set found.
pub(crate) enum Found {
    /// The position of the element identical to the needle, or none.
    Answer(Option<usize>),
    /// The set is small or not simple: search it element by element.
    Scan,
}

/// Searches `items` through its index, built first if it is for another set. Charges
/// one unit of fuel per lookup and, when it builds, one per element (as the scan it
/// replaces would).
pub(crate) fn find(
    host: &mut dyn crate::native::Host,
    items: &Rc<Vec<Value>>,
    needle: &Value,
) -> Result<Found, crate::error::VmError> {
    if items.len() < INDEX_FROM {
        return Ok(Found::Scan);
    }
    // A needle that is not simple is identical to no element of a simple set.
    let built = with_index(items, |index| {
        Some(Key::of(needle).and_then(|key| index.positions.get(&key).copied()))
    });
    match built {
        Some((Some(at), fresh)) => {
            let units = if fresh { items.len() + 1 } else { 1 };
            host.charge(u64::try_from(units).unwrap_or(u64::MAX))?;
            Ok(Found::Answer(at))
        }
        Some((None, _)) | None => Ok(Found::Scan),
    }
}

/// `needle in items` (`==`, not identity) where the index settles it: a string, bool or
/// nil equals exactly the identical element, and an int equals only an identical one
/// when the set holds no float. `None`: scan.
pub(crate) fn contains_equal(items: &Rc<Vec<Value>>, needle: &Value) -> Option<bool> {
    if items.len() < INDEX_FROM {
        return None;
    }
    let conclusive = |index: &Index| match needle {
        Value::Str(_) | Value::Bool(_) | Value::Nil => true,
        Value::Int(_) => !index.has_float,
        _ => false,
    };
    with_index(items, |index| {
        let found = Key::of(needle).is_some_and(|key| index.positions.contains_key(&key));
        // Found identical is equal; not found settles it only where `conclusive`.
        (found || conclusive(index)).then_some(found)
    })
    .and_then(|(answer, _)| answer)
}

/// Runs `look` on the index of `items`, built first if the index is for another set;
/// also whether it was just built. `None` if the set is not simple (or the index is in
/// use further up the stack, which nothing here allows).
fn with_index<T>(
    items: &Rc<Vec<Value>>,
    look: impl FnOnce(&Index) -> Option<T>,
) -> Option<(Option<T>, bool)> {
    INDEX.with(|cell| {
        let Ok(mut slot) = cell.try_borrow_mut() else {
            return None;
        };
        let current = slot
            .as_ref()
            .is_some_and(|index| std::ptr::eq(index.set.as_ptr(), Rc::as_ptr(items)));
        let fresh = !current;
        if fresh {
            *slot = Some(build(items)?);
        }
        let index = slot.as_ref()?;
        Some((look(index), fresh))
    })
}

/// The index of `items`, if every element is simple (the first of identical elements
/// keeps its position, as a scan finds it).
fn build(items: &Rc<Vec<Value>>) -> Option<Index> {
    let mut positions = Positions::default();
    positions.reserve(items.len());
    let mut has_float = false;
    for (i, item) in items.iter().enumerate() {
        let key = Key::of(item)?;
        has_float |= matches!(key, Key::Float(_));
        positions.entry(key).or_insert(i);
    }
    Some(Index {
        set: Rc::downgrade(items),
        positions,
        has_float,
    })
}

/// `items.add(needle)` through the index, in one lookup: `Some(true)` if the needle was
/// pushed (in place when nothing else holds the set), `Some(false)` if an identical
/// element is there, `None` if the index cannot settle it (a small set, or a set or
/// needle that is not simple), before anything is charged. Charges what [`find`] does.
pub(crate) fn insert(
    host: &mut dyn crate::native::Host,
    items: &mut Rc<Vec<Value>>,
    needle: &Value,
) -> Result<Option<bool>, crate::error::VmError> {
    if items.len() < INDEX_FROM {
        return Ok(None);
    }
    let Some(key) = Key::of(needle) else {
        return Ok(None);
    };
    INDEX.with(|cell| {
        let Ok(mut slot) = cell.try_borrow_mut() else {
            return Ok(None);
        };
        let current = slot
            .as_ref()
            .is_some_and(|index| std::ptr::eq(index.set.as_ptr(), Rc::as_ptr(items)));
        if !current {
            *slot = build(items);
        }
        let Some(index) = slot.as_mut() else {
            return Ok(None);
        };
        let units = if current { 1 } else { items.len() + 1 };
        host.charge(u64::try_from(units).unwrap_or(u64::MAX))?;
        let is_float = matches!(key, Key::Float(_));
        match index.positions.entry(key) {
            hashbrown::hash_map::Entry::Occupied(_) => Ok(Some(false)),
            hashbrown::hash_map::Entry::Vacant(position) => {
                // The index lets go of the set while it grows, so the push happens in
                // place when the program holds the set once.
                index.set = Weak::new();
                let at = items.len();
                Rc::make_mut(items).push(needle.clone());
                position.insert(at);
                index.has_float |= is_float;
                index.set = Rc::downgrade(items);
                Ok(Some(true))
            }
        }
    })
}

/// An index taken out of its set by [`detach`]: its positions, without the `Weak`
/// (which would make the push move the set).
pub(crate) struct Detached(Positions, bool);

/// Takes the index out if it is `items`'s (so that a push can happen in place); drops
/// any other.
pub(crate) fn detach(items: &Rc<Vec<Value>>) -> Option<Detached> {
    INDEX.with(|cell| {
        let mut slot = cell.try_borrow_mut().ok()?;
        let index = slot.take()?;
        std::ptr::eq(index.set.as_ptr(), Rc::as_ptr(items))
            .then_some(Detached(index.positions, index.has_float))
    })
}

/// Puts back an index taken by [`detach`], now for `items`, whose last element was just
/// pushed. An index that no longer matches (the set was copied, or the element is not
/// simple) is dropped.
pub(crate) fn attach(detached: Option<Detached>, items: &Rc<Vec<Value>>) {
    let Some(Detached(mut positions, mut has_float)) = detached else {
        return;
    };
    let (Some(last), Some(at)) = (items.last(), items.len().checked_sub(1)) else {
        return;
    };
    let Some(key) = Key::of(last) else {
        return;
    };
    if positions.len() != at {
        return;
    }
    has_float |= matches!(key, Key::Float(_));
    positions.entry(key).or_insert(at);
    let index = Index {
        set: Rc::downgrade(items),
        positions,
        has_float,
    };
    INDEX.with(|cell| {
        if let Ok(mut slot) = cell.try_borrow_mut() {
            *slot = Some(index);
        }
    });
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::test_support::TestHost;

    fn set_of(n: i64) -> Rc<Vec<Value>> {
        Rc::new((0..n).map(Value::Int).collect())
    }

    fn answer(found: Found) -> Option<usize> {
        match found {
            Found::Answer(at) => at,
            Found::Scan => panic!("expected the index to answer"),
        }
    }

    #[test]
    fn finds_what_a_scan_finds() {
        let mut host = TestHost::default();
        let items = set_of(40);
        for n in [0, 17, 39] {
            let at = answer(find(&mut host, &items, &Value::Int(n)).unwrap_or(Found::Scan));
            assert_eq!(at, Some(n as usize));
        }
        let missing = [
            Value::Int(40),
            Value::Float(3.0),
            Value::str("3"),
            Value::Nil,
        ];
        for v in missing {
            assert_eq!(
                answer(find(&mut host, &items, &v).unwrap_or(Found::Scan)),
                None
            );
        }
    }

    #[test]
    fn small_or_mixed_sets_are_scanned() {
        let mut host = TestHost::default();
        assert!(matches!(
            find(&mut host, &set_of(3), &Value::Int(1)),
            Ok(Found::Scan)
        ));
        let mut mixed: Vec<Value> = (0..20).map(Value::Int).collect();
        mixed.push(Value::list(vec![Value::Int(1)]));
        let mixed = Rc::new(mixed);
        assert!(matches!(
            find(&mut host, &mixed, &Value::Int(1)),
            Ok(Found::Scan)
        ));
    }

    #[test]
    fn an_add_keeps_the_index_and_a_copy_drops_it() {
        let mut host = TestHost::default();
        let mut items = set_of(20);
        assert_eq!(
            answer(find(&mut host, &items, &Value::Int(20)).unwrap_or(Found::Scan)),
            None
        );
        let before = Rc::as_ptr(&items);
        let index = detach(&items);
        Rc::make_mut(&mut items).push(Value::Int(20));
        assert_eq!(Rc::as_ptr(&items), before, "pushed in place");
        attach(index, &items);
        assert_eq!(
            answer(find(&mut host, &items, &Value::Int(20)).unwrap_or(Found::Scan)),
            Some(20)
        );
        // A shared set is copied by the push: the index follows the copy, and the
        // original is indexed afresh when searched.
        let shared = Rc::clone(&items);
        let index = detach(&items);
        Rc::make_mut(&mut items).push(Value::Int(21));
        attach(index, &items);
        assert_eq!(
            answer(find(&mut host, &items, &Value::Int(21)).unwrap_or(Found::Scan)),
            Some(21)
        );
        assert_eq!(
            answer(find(&mut host, &shared, &Value::Int(21)).unwrap_or(Found::Scan)),
            None
        );
    }

    #[test]
    fn an_insert_looks_up_once_and_pushes_in_place() {
        let mut host = TestHost::default();
        let mut items = set_of(20);
        let before = Rc::as_ptr(&items);
        assert_eq!(
            insert(&mut host, &mut items, &Value::Int(5)).ok(),
            Some(Some(false))
        );
        assert_eq!(
            insert(&mut host, &mut items, &Value::Int(20)).ok(),
            Some(Some(true))
        );
        assert_eq!(Rc::as_ptr(&items), before, "pushed in place");
        assert_eq!(items.len(), 21);
        // Identity, not equality: a float equal to an int element is another element,
        // and after it an int no longer settles `==` by the index.
        assert_eq!(
            insert(&mut host, &mut items, &Value::Float(5.0)).ok(),
            Some(Some(true))
        );
        assert!(matches!(items.last(), Some(Value::Float(x)) if *x == 5.0));
        assert_eq!(contains_equal(&items, &Value::Int(99)), None);
        // A shared set is copied; the other holder keeps what it had.
        let shared = Rc::clone(&items);
        assert_eq!(
            insert(&mut host, &mut items, &Value::str("x")).ok(),
            Some(Some(true))
        );
        assert_eq!((items.len(), shared.len()), (23, 22));
        assert_eq!(
            answer(find(&mut host, &items, &Value::str("x")).unwrap_or(Found::Scan)),
            Some(22)
        );
        assert_eq!(
            answer(find(&mut host, &shared, &Value::str("x")).unwrap_or(Found::Scan)),
            None
        );
        // What the index cannot settle is left to the scan, with nothing charged.
        let charged = host.fuel;
        let list = Value::list(vec![Value::Int(1)]);
        assert_eq!(insert(&mut host, &mut items, &list).ok(), Some(None));
        assert_eq!(
            insert(&mut host, &mut set_of(3), &Value::Int(9)).ok(),
            Some(None)
        );
        assert_eq!(host.fuel, charged);
    }
}
