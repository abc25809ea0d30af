//! [`BuiltinEnv`]: the declarations, indexed once per process.

use rustc_hash::FxHashMap as HashMap;
use std::collections::hash_map::Entry;
use std::sync::OnceLock;

use super::{BuiltinDecl, Profile, is_denied_name, table};
use crate::types::Signature;

/// Every declared builtin, by name, with profile membership and parsed signatures.
pub struct BuiltinEnv {
    decls: Vec<&'static BuiltinDecl>,
    by_name: HashMap<&'static str, usize>,
    /// Per profile (in [`Profile::ALL`] order): whether each builtin is installed.
    installed: [Vec<bool>; 3],
    /// Whether each builtin is on the denylist (asked once per process).
    denied: Vec<bool>,
    /// Parsed on first use; `None` if the text does not parse (a unit test rules that
    /// out). In chunks allocated on first use: a program calls a handful of the ~700
    /// builtins, and one flat table of cells was ~45 KB written at every process start
    /// (about ten fresh pages, each a page fault).
    signatures: Box<[SignatureChunk]>,
}

/// How many signature cells one lazily allocated chunk holds.
const SIGNATURE_CHUNK: usize = 16;

type SignatureChunk = OnceLock<Box<[OnceLock<Option<Signature>>; SIGNATURE_CHUNK]>>;

fn profile_index(p: Profile) -> usize {
    match p {
        Profile::CodeMode => 0,
        Profile::Default => 1,
        Profile::Trusted => 2,
    }
}

static ENV: OnceLock<BuiltinEnv> = OnceLock::new();

impl BuiltinEnv {
    /// The process-wide environment, built from the tables on first use.
    pub fn global() -> &'static BuiltinEnv {
        ENV.get_or_init(|| BuiltinEnv::new(table::FAMILIES))
    }

    /// Built at every process start: the tables are sized for every row up front, so
    /// nothing regrows or rehashes.
    fn new(families: &'static [&'static [BuiltinDecl]]) -> BuiltinEnv {
        let rows: usize = families.iter().map(|f| f.len()).sum();
        let mut decls: Vec<&'static BuiltinDecl> = Vec::with_capacity(rows);
        let mut by_name = HashMap::with_capacity_and_hasher(rows, Default::default());
        for d in families.iter().flat_map(|f| f.iter()) {
            // A duplicate name is a table error (a unit test rules it out); keep the first.
            if let Entry::Vacant(slot) = by_name.entry(d.name) {
                slot.insert(decls.len());
                decls.push(d);
            }
        }
        let denied: Vec<bool> = decls.iter().map(|d| is_denied_name(d.name)).collect();
        let installed = Profile::ALL.map(|p| {
            decls
                .iter()
                .zip(&denied)
                .map(|(d, &denied)| p.installs_checked(denied, d.capability))
                .collect()
        });
        let signatures = (0..decls.len().div_ceil(SIGNATURE_CHUNK))
            .map(|_| OnceLock::new())
            .collect();
        BuiltinEnv {
            decls,
            by_name,
            installed,
            denied,
            signatures,
        }
    }

    /// How many builtins are declared.
    pub fn len(&self) -> usize {
        self.decls.len()
    }

    pub fn is_empty(&self) -> bool {
        self.decls.is_empty()
    }

    /// A declaration's position in table order (`0..len()`), its declaration and
    /// whether its name is on the denylist ([`is_denied_name`], already asked when the
    /// environment was built). The position lets the VM's registry index its own
    /// tables by declaration instead of hashing every name a second time.
    pub fn lookup(&self, name: &str) -> Option<(usize, &'static BuiltinDecl, bool)> {
        let &i = self.by_name.get(name)?;
        Some((
            i,
            *self.decls.get(i)?,
            self.denied.get(i).copied().unwrap_or(true),
        ))
    }

    /// The position of a declared name in table order (see [`BuiltinEnv::lookup`]).
    pub fn position(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    pub fn get(&self, name: &str) -> Option<&'static BuiltinDecl> {
        self.by_name
            .get(name)
            .and_then(|&i| self.decls.get(i).copied())
    }

    /// Every declaration, in table order.
    pub fn all(&self) -> impl Iterator<Item = &'static BuiltinDecl> + '_ {
        self.decls.iter().copied()
    }

    /// Whether `name` is declared and `profile` installs it ([`Profile::installs`]).
    pub fn installed(&self, name: &str, profile: Profile) -> bool {
        self.by_name.get(name).is_some_and(|&i| {
            self.installed[profile_index(profile)]
                .get(i)
                .copied()
                .unwrap_or(false)
        })
    }

    /// The declarations a profile installs, in table order.
    pub fn for_profile(&self, profile: Profile) -> impl Iterator<Item = &'static BuiltinDecl> + '_ {
        let table = &self.installed[profile_index(profile)];
        self.decls
            .iter()
            .zip(table)
            .filter(|(_, on)| **on)
            .map(|(d, _)| *d)
    }

    /// The parsed signature of a declared builtin.
    pub fn signature(&self, name: &str) -> Option<&Signature> {
        let &i = self.by_name.get(name)?;
        let decl = self.decls.get(i)?;
        let chunk = self
            .signatures
            .get(i / SIGNATURE_CHUNK)?
            .get_or_init(|| Box::new(std::array::from_fn(|_| OnceLock::new())));
        chunk
            .get(i % SIGNATURE_CHUNK)?
            .get_or_init(|| Signature::parse(decl.signature).ok())
            .as_ref()
    }
}
