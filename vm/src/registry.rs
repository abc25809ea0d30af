//! The builtin registry: every builtin registered once with its name, signature,
//! capability tag, docs and implementation; profiles that choose which capabilities a
//! VM gets; and a name denylist applied to every profile as a backstop.
//!
//! The registry is built once per process and shared immutably; a profile's view is a
//! precomputed table, so creating a VM for a profile costs nothing proportional to the
//! number of builtins.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::native::{AsyncNativeFn, NativeFn};

/// What a builtin can reach. Only `Pure` and `ToolEgress` exist in code mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capability {
    Pure,
    ToolEgress,
    IoFs,
    IoNet,
    IoProcess,
    IoEnv,
    Host,
    Llm,
    Secret,
    Clock,
    Random,
}

impl Capability {
    /// I/O and host capabilities: never in a sandboxed profile.
    pub fn is_host_tier(self) -> bool {
        !matches!(
            self,
            Capability::Pure | Capability::ToolEgress | Capability::Clock | Capability::Random
        )
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Capability::Pure => "pure",
            Capability::ToolEgress => "tool_egress",
            Capability::IoFs => "io.fs",
            Capability::IoNet => "io.net",
            Capability::IoProcess => "io.process",
            Capability::IoEnv => "io.env",
            Capability::Host => "host",
            Capability::Llm => "llm",
            Capability::Secret => "secret",
            Capability::Clock => "clock",
            Capability::Random => "random",
        }
    }
}

#[derive(Clone, Copy)]
pub enum Implementation {
    Sync(NativeFn),
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

/// One registered builtin.
#[derive(Clone)]
pub struct Builtin {
    pub name: &'static str,
    /// Signature in Harn type syntax, e.g. `fn(value: any) -> int`.
    pub signature: &'static str,
    pub capability: Capability,
    pub doc: &'static str,
    pub imp: Implementation,
}

/// Name families removed from every profile whatever their tag — a backstop against a
/// host builtin registered with the wrong tag. The one exception: a builtin with a
/// host-tier tag (I/O, host, llm, secret) in the trusted profile, which exists to run
/// host I/O (so `exec` and `composition_execute` are available there, and nowhere else).
pub const DENYLIST: &[&str] = &[
    "host_call",
    "process",
    "spawn",
    "exec",
    "shell",
    "socket",
    "fetch",
    "secret",
    "keychain",
    "hostlib_",
    "llm_call",
    "__host_",
];

pub fn denied_by_name(name: &str) -> bool {
    DENYLIST.iter().any(|d| name.contains(d))
}

/// Which capabilities a VM gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Code mode: pure helpers and tool egress only.
    CodeMode,
    /// Plain `harnc run`: pure helpers plus clock and random; no I/O.
    Default,
    /// `harnc run --profile trusted`: everything, including host I/O.
    Trusted,
}

impl Profile {
    pub fn allows(self, cap: Capability) -> bool {
        match self {
            Profile::CodeMode => matches!(cap, Capability::Pure | Capability::ToolEgress),
            Profile::Default => matches!(
                cap,
                Capability::Pure | Capability::ToolEgress | Capability::Clock | Capability::Random
            ),
            Profile::Trusted => true,
        }
    }

    pub fn parse(s: &str) -> Option<Profile> {
        match s {
            "code-mode" | "code_mode" => Some(Profile::CodeMode),
            "default" => Some(Profile::Default),
            "trusted" => Some(Profile::Trusted),
            _ => None,
        }
    }
}

/// Collects registrations before the registry is frozen.
/// One row of a builtin table: name, signature, doc, implementation.
pub type SyncEntry = (&'static str, &'static str, &'static str, NativeFn);

#[derive(Default)]
pub struct RegistryBuilder {
    builtins: Vec<Builtin>,
}

impl RegistryBuilder {
    /// Registers a synchronous builtin. A later registration of the same name replaces
    /// the earlier one.
    pub fn sync(
        &mut self,
        name: &'static str,
        signature: &'static str,
        capability: Capability,
        doc: &'static str,
        f: NativeFn,
    ) -> &mut Self {
        self.entry(name, signature, capability, doc, Implementation::Sync(f))
    }

    /// Registers a table of synchronous builtins with one capability tag.
    pub fn sync_table(&mut self, capability: Capability, table: &[SyncEntry]) -> &mut Self {
        for &(name, signature, doc, f) in table {
            self.sync(name, signature, capability, doc, f);
        }
        self
    }

    /// Registers an asynchronous builtin.
    pub fn asynchronous(
        &mut self,
        name: &'static str,
        signature: &'static str,
        capability: Capability,
        doc: &'static str,
        f: AsyncNativeFn,
    ) -> &mut Self {
        self.entry(name, signature, capability, doc, Implementation::Async(f))
    }

    /// Registers an asynchronous builtin that receives the calling VM.
    pub fn with_vm(
        &mut self,
        name: &'static str,
        signature: &'static str,
        capability: Capability,
        doc: &'static str,
        f: crate::native::VmNativeFn,
    ) -> &mut Self {
        self.entry(name, signature, capability, doc, Implementation::WithVm(f))
    }

    fn entry(
        &mut self,
        name: &'static str,
        signature: &'static str,
        capability: Capability,
        doc: &'static str,
        imp: Implementation,
    ) -> &mut Self {
        self.add(Builtin {
            name,
            signature,
            capability,
            doc,
            imp,
        })
    }

    pub fn add(&mut self, b: Builtin) -> &mut Self {
        if let Some(existing) = self.builtins.iter_mut().find(|x| x.name == b.name) {
            *existing = b;
        } else {
            self.builtins.push(b);
        }
        self
    }

    pub fn build(self) -> Registry {
        let by_name = self
            .builtins
            .iter()
            .enumerate()
            .map(|(i, b)| (b.name, u32::try_from(i).unwrap_or(u32::MAX)))
            .collect();
        // Once per builtin, not per profile: this runs at every process start.
        let denied: Vec<bool> = self
            .builtins
            .iter()
            .map(|b| denied_by_name(b.name))
            .collect();
        let tables = [Profile::CodeMode, Profile::Default, Profile::Trusted].map(|p| {
            self.builtins
                .iter()
                .zip(&denied)
                .map(|(b, &denied)| {
                    p.allows(b.capability)
                        && (!denied || (p == Profile::Trusted && b.capability.is_host_tier()))
                })
                .collect::<Vec<bool>>()
        });
        Registry {
            builtins: self.builtins,
            by_name,
            tables,
        }
    }
}

pub struct Registry {
    builtins: Vec<Builtin>,
    by_name: HashMap<&'static str, u32>,
    /// Per profile (in `Profile` order): whether each builtin is installed.
    tables: [Vec<bool>; 3],
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
        self.by_name.get(name).copied()
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

/// Installs the process registry: the core builtins plus whatever `extend` registers
/// (the standard library). Only the first call has an effect.
pub fn init(extend: impl FnOnce(&mut RegistryBuilder)) -> &'static Registry {
    REGISTRY.get_or_init(|| {
        let mut b = RegistryBuilder::default();
        crate::builtins::register_core(&mut b);
        extend(&mut b);
        b.build()
    })
}

/// The process registry (core builtins only if nothing was installed first).
pub fn global() -> &'static Registry {
    init(|_| {})
}

/// The name of a builtin value, for display.
pub fn builtin_name(id: u32) -> &'static str {
    global().get(id).map_or("?", |b| b.name)
}
