//! The builtin registry: the implementation of every builtin, registered by name against
//! its declaration in `harn_compiler::builtins` (which holds the signature, capability
//! tag, doc and profile membership), and the per-profile tables a VM resolves names in.
//!
//! The registry is built once per process and shared immutably; a profile's view is a
//! precomputed table, so creating a VM for a profile costs nothing proportional to the
//! number of builtins.

use rustc_hash::FxHashMap as HashMap;
use std::sync::OnceLock;

pub use harn_compiler::builtins::{BuiltinDecl, BuiltinEnv, Capability, Profile};

use crate::native::{AsyncNativeFn, NativeFn, NumberFn};

#[derive(Clone, Copy)]
pub enum Implementation {
    Sync(NativeFn),
    /// A synchronous builtin of one argument that the loop fast lane may run.
    Number(NumberFn),
    Async(AsyncNativeFn),
    /// Routed by the VM to its installed egress (`call_tool`): tool egress is the one
    /// capability that needs the executor's state.
    Egress,
    /// An asynchronous builtin that needs the calling VM (to run callbacks in VMs
    /// forked from it): `composition_execute` with a dispatcher closure.
    WithVm(crate::native::VmNativeFn),
    /// `map_bounded`: run by the VM itself, which forks a child VM per item so that
    /// items can wait on tool calls concurrently.
    MapBounded,
}

/// One registered builtin: its declaration's fields and its implementation.
#[derive(Clone)]
pub struct Builtin {
    pub name: &'static str,
    /// Signature in Harn type syntax, e.g. `fn(value: any) -> int`.
    pub signature: &'static str,
    pub capability: Capability,
    pub doc: &'static str,
    pub imp: Implementation,
}

/// Whether a name is on the one denylist (`harn_compiler::builtins::is_denied_name`).
pub use harn_compiler::builtins::is_denied_name as denied_by_name;

/// One row of an implementation table: a declared builtin's name and its function.
pub type SyncEntry = (&'static str, NativeFn);

/// Collects implementations before the registry is frozen.
pub struct RegistryBuilder {
    builtins: Vec<Builtin>,
    /// Whether each builtin's name is on the denylist, beside `builtins`.
    denied: Vec<bool>,
    /// Slots (ids): see [`Slots`].
    slots: Slots,
    /// Names registered without a declaration (not installed in any profile).
    undeclared: Vec<&'static str>,
}

/// Where each registered name is in the builtin table (its id). Registration runs at
/// every process start, so finding a name must not scan; and a declared name (nearly
/// all of them) is found by its position in [`BuiltinEnv`], which hashed every name
/// already, rather than through a second table of ~700 names.
struct Slots {
    /// By declaration position; [`NO_SLOT`] where that builtin has no implementation.
    declared: Vec<u32>,
    /// Names outside [`BuiltinEnv`], registered with their own declaration
    /// ([`RegistryBuilder::declare`]).
    other: HashMap<&'static str, u32>,
}

const NO_SLOT: u32 = u32::MAX;

/// Which table of [`Slots`] holds a name.
#[derive(Clone, Copy)]
enum Key<'a> {
    Declared(usize),
    Other(&'a str),
}

impl Key<'_> {
    fn of(name: &str) -> Key<'_> {
        match BuiltinEnv::global().position(name) {
            Some(i) => Key::Declared(i),
            None => Key::Other(name),
        }
    }
}

impl Slots {
    fn get(&self, key: Key<'_>) -> Option<u32> {
        match key {
            Key::Declared(i) => self.declared.get(i).copied().filter(|&s| s != NO_SLOT),
            Key::Other(name) => self.other.get(name).copied(),
        }
    }

    fn set(&mut self, key: Key<'static>, slot: u32) {
        match key {
            Key::Declared(i) => {
                if let Some(cell) = self.declared.get_mut(i) {
                    *cell = slot;
                }
            }
            Key::Other(name) => {
                self.other.insert(name, slot);
            }
        }
    }
}

impl Default for RegistryBuilder {
    /// Sized for every declared builtin, so registration never regrows its tables.
    fn default() -> Self {
        let declared = BuiltinEnv::global().len();
        RegistryBuilder {
            builtins: Vec::with_capacity(declared),
            denied: Vec::with_capacity(declared),
            slots: Slots {
                declared: vec![NO_SLOT; declared],
                other: HashMap::default(),
            },
            undeclared: Vec::new(),
        }
    }
}

impl RegistryBuilder {
    /// Registers the implementation of the declared builtin `name`. A later registration
    /// of the same name replaces the earlier one. A name without a declaration in
    /// [`BuiltinEnv`] is recorded ([`Registry::undeclared`]) and installed nowhere.
    pub fn implement(&mut self, name: &'static str, imp: Implementation) -> &mut Self {
        match BuiltinEnv::global().lookup(name) {
            Some((i, decl, denied)) => {
                self.insert(Key::Declared(i), Self::builtin(*decl, imp), denied)
            }
            None => {
                if !self.undeclared.contains(&name) {
                    self.undeclared.push(name);
                }
                self
            }
        }
    }

    /// Registers a synchronous builtin.
    pub fn sync(&mut self, name: &'static str, f: NativeFn) -> &mut Self {
        self.implement(name, Implementation::Sync(f))
    }

    /// Registers a pure builtin of one argument (`NumberFn`).
    pub fn number(&mut self, name: &'static str, f: NumberFn) -> &mut Self {
        self.implement(name, Implementation::Number(f))
    }

    /// Registers a table of synchronous builtins.
    pub fn sync_table(&mut self, table: &[SyncEntry]) -> &mut Self {
        for &(name, f) in table {
            self.sync(name, f);
        }
        self
    }

    /// Registers an asynchronous builtin.
    pub fn asynchronous(&mut self, name: &'static str, f: AsyncNativeFn) -> &mut Self {
        self.implement(name, Implementation::Async(f))
    }

    /// Registers an asynchronous builtin that receives the calling VM.
    pub fn with_vm(&mut self, name: &'static str, f: crate::native::VmNativeFn) -> &mut Self {
        self.implement(name, Implementation::WithVm(f))
    }

    /// Registers a builtin the VM routes to its installed egress.
    pub fn egress(&mut self, name: &'static str) -> &mut Self {
        self.implement(name, Implementation::Egress)
    }

    /// Registers an implementation with its own declaration, which need not be in
    /// [`BuiltinEnv`] (for embedders and tests); the same profile rule applies.
    pub fn declare(&mut self, decl: BuiltinDecl, imp: Implementation) -> &mut Self {
        self.add(Self::builtin(decl, imp))
    }

    fn builtin(decl: BuiltinDecl, imp: Implementation) -> Builtin {
        Builtin {
            name: decl.name,
            signature: decl.signature,
            capability: decl.capability,
            doc: decl.doc,
            imp,
        }
    }

    pub fn add(&mut self, b: Builtin) -> &mut Self {
        let denied = denied_by_name(b.name);
        self.insert(Key::of(b.name), b, denied)
    }

    fn insert(&mut self, key: Key<'static>, b: Builtin, denied: bool) -> &mut Self {
        if !self.undeclared.is_empty() {
            self.undeclared.retain(|n| *n != b.name);
        }
        match self.slots.get(key) {
            Some(slot) => {
                let i = slot as usize;
                if let (Some(existing), Some(flag)) =
                    (self.builtins.get_mut(i), self.denied.get_mut(i))
                {
                    *existing = b;
                    *flag = denied;
                }
            }
            // Ids are u32 (an instruction operand): a registry past that many names
            // keeps the first u32::MAX - 1.
            None => {
                if let Some(id) = u32::try_from(self.builtins.len())
                    .ok()
                    .filter(|&id| id != NO_SLOT)
                {
                    self.slots.set(key, id);
                    self.builtins.push(b);
                    self.denied.push(denied);
                }
            }
        }
        self
    }

    pub fn build(self) -> Registry {
        let slots = self.slots;
        // The profile rule of the builtin environment (`Profile::installs`), once per
        // builtin and profile: this runs at every process start.
        let denied = self.denied;
        let tables = [Profile::CodeMode, Profile::Default, Profile::Trusted].map(|p| {
            self.builtins
                .iter()
                .zip(&denied)
                .map(|(b, &denied)| p.installs_checked(denied, b.capability))
                .collect::<Vec<bool>>()
        });
        Registry {
            builtins: self.builtins,
            slots,
            tables,
            undeclared: self.undeclared,
        }
    }
}

pub struct Registry {
    builtins: Vec<Builtin>,
    slots: Slots,
    /// Per profile (in `Profile` order): whether each builtin is installed.
    tables: [Vec<bool>; 3],
    undeclared: Vec<&'static str>,
}

fn table_index(p: Profile) -> usize {
    match p {
        Profile::CodeMode => 0,
        Profile::Default => 1,
        Profile::Trusted => 2,
    }
}

impl Registry {
    pub fn get(&self, id: u32) -> Option<&Builtin> {
        self.builtins.get(id as usize)
    }

    pub fn id(&self, name: &str) -> Option<u32> {
        self.slots.get(Key::of(name))
    }

    /// The builtin's id if `name` exists and `profile` installs it.
    pub fn lookup(&self, name: &str, profile: Profile) -> Option<u32> {
        let id = self.id(name)?;
        self.installed(id, profile).then_some(id)
    }

    pub fn installed(&self, id: u32, profile: Profile) -> bool {
        self.tables[table_index(profile)]
            .get(id as usize)
            .copied()
            .unwrap_or(false)
    }

    /// Names registered without a declaration in [`BuiltinEnv`] (installed nowhere).
    pub fn undeclared(&self) -> &[&'static str] {
        &self.undeclared
    }

    /// Declarations in [`BuiltinEnv`] that have no implementation here.
    pub fn unimplemented(&self) -> Vec<&'static str> {
        BuiltinEnv::global()
            .all()
            .filter(|d| self.id(d.name).is_none())
            .map(|d| d.name)
            .collect()
    }

    /// Every builtin, in registration order.
    pub fn all(&self) -> &[Builtin] {
        &self.builtins
    }

    /// The builtins a profile installs.
    pub fn for_profile(&self, profile: Profile) -> impl Iterator<Item = &Builtin> {
        self.builtins
            .iter()
            .enumerate()
            .filter(move |(i, _)| self.tables[table_index(profile)][*i])
            .map(|(_, b)| b)
    }
}

static REGISTRY: OnceLock<Registry> = OnceLock::new();

/// Installs the registry `build` makes as the process registry; only the first call
/// builds one. What goes in it is decided above this module (`crate::init`: the core
/// builtins plus the embedder's), so the registry never reaches up to the builtins.
pub fn install(build: impl FnOnce() -> Registry) -> &'static Registry {
    REGISTRY.get_or_init(|| {
        let registry = build();
        crate::builtin_names::record(registry.all().iter().map(|b| b.name).collect());
        registry
    })
}

/// The process registry, if one was installed.
pub fn installed() -> Option<&'static Registry> {
    REGISTRY.get()
}

pub use crate::builtin_names::name as builtin_name;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::value::Value;

    fn noop(_: &mut dyn crate::native::Host, _: &[Value]) -> Result<Value, crate::VmError> {
        Ok(Value::Nil)
    }

    #[test]
    fn an_undeclared_registration_is_recorded_and_installed_nowhere() {
        let mut b = RegistryBuilder::default();
        b.sync("no_such_builtin", noop).sync("len", noop);
        let reg = b.build();
        assert_eq!(reg.undeclared(), ["no_such_builtin"]);
        assert!(reg.id("no_such_builtin").is_none());
        let len = reg.lookup("len", Profile::CodeMode).unwrap();
        let len = reg.get(len).unwrap();
        assert_eq!(
            len.signature,
            BuiltinEnv::global().get("len").unwrap().signature
        );
        assert_eq!(len.capability, Capability::Pure);
        let missing = reg.unimplemented();
        assert!(!missing.contains(&"len") && missing.contains(&"split"));
    }

    fn own_decl(name: &'static str) -> BuiltinDecl {
        BuiltinDecl {
            name,
            signature: "fn() -> nil",
            capability: Capability::Pure,
            doc: "",
            sandbox_visible: false,
        }
    }

    /// Declared names take their id from their position in `BuiltinEnv`, others from
    /// their own table; a second registration of either replaces the first in place.
    #[test]
    fn ids_stay_put_across_replacements_of_both_kinds_of_name() {
        let mut b = RegistryBuilder::default();
        b.sync("len", noop).sync("split", noop);
        b.declare(own_decl("embedder_helper"), Implementation::Sync(noop));
        b.sync("later_declared", noop);
        b.declare(own_decl("later_declared"), Implementation::Sync(noop));
        // Replacements: a declared name through `add`, an embedder's name again.
        b.add(Builtin {
            doc: "replaced",
            ..RegistryBuilder::builtin(
                *BuiltinEnv::global().get("len").unwrap(),
                Implementation::Egress,
            )
        });
        b.declare(own_decl("embedder_helper"), Implementation::Egress);
        let reg = b.build();
        let ids: Vec<u32> = ["len", "split", "embedder_helper", "later_declared"]
            .iter()
            .map(|n| reg.id(n).unwrap_or_else(|| panic!("{n} has no id")))
            .collect();
        assert_eq!(ids, [0, 1, 2, 3]);
        assert_eq!(reg.all().len(), 4);
        assert_eq!(reg.get(0).unwrap().doc, "replaced");
        assert!(matches!(reg.get(0).unwrap().imp, Implementation::Egress));
        assert!(matches!(reg.get(2).unwrap().imp, Implementation::Egress));
        assert!(reg.undeclared().is_empty(), "{:?}", reg.undeclared());
        // Declared but not implemented here, and unknown everywhere.
        assert!(reg.id("json_parse").is_none());
        assert!(reg.id("nothing_by_this_name").is_none());
        assert!(reg.lookup("embedder_helper", Profile::CodeMode).is_some());
    }
}
