//! `Key`: a dict's key, a shared immutable string.
//!
//! Why shared: dicts are values, so a record is copied whenever it is changed while
//! another binding holds it (`let a = bs[i]` then `bs[i].vx = ...`), and each copy of a
//! record with `String` keys allocated and copied every key, then freed them all when
//! the copy was dropped. A shared key is copied by a count increment. A lookup is as
//! cheap as before: the length sits in the key itself, beside the pointer to the bytes.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::rc::Rc;

/// A dict key: compared, ordered and hashed as the string it holds.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Key(Rc<str>);

impl Key {
    #[inline(always)]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The key `name`, shared rather than allocated for the names of the entry dicts
    /// that loops and `enumerate()` make per element (`{key, value}`, `{index, value}`).
    pub fn of(name: &str) -> Key {
        thread_local! {
            static COMMON: [Key; 3] = [Key::from("index"), Key::from("key"), Key::from("value")];
        }
        let at = match name {
            "index" => 0,
            "key" => 1,
            "value" => 2,
            _ => return Key::from(name),
        };
        COMMON.with(|common| common[at].clone())
    }
}

impl Deref for Key {
    type Target = str;

    #[inline(always)]
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Self {
        Key(Rc::from(s))
    }
}

impl From<String> for Key {
    fn from(s: String) -> Self {
        Key(Rc::from(s))
    }
}

impl From<&String> for Key {
    fn from(s: &String) -> Self {
        Key(Rc::from(s.as_str()))
    }
}

impl From<&Key> for Key {
    fn from(k: &Key) -> Self {
        k.clone()
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Key {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Key> for str {
    fn eq(&self, other: &Key) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Key> for &str {
    fn eq(&self, other: &Key) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Key> for String {
    fn eq(&self, other: &Key) -> bool {
        **self == *other.0
    }
}
