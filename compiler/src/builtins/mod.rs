//! The builtin environment: one declaration per builtin (name, signature, capability
//! tag, one-line doc, sandbox visibility), the profiles that choose which capabilities
//! a VM gets, and the one denylist.
//!
//! The declarations live in `table/`, one file per family. The VM's registry
//! registers each implementation against the declaration of the same name, so this
//! crate (and anything depending on it alone, such as the language server) knows every
//! builtin without the VM.

mod denied;
mod env;
pub mod methods;
mod table;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests;

pub use denied::{DENIED_NAMES, DENIED_PREFIXES, denied_family, is_denied_name};
pub use env::BuiltinEnv;

/// The value of a builtin constant read as a name (`pi * 2`): the reference's `pi` and `e`
/// are numbers, not functions. Calling one (`pi()`) still reaches its builtin.
pub fn constant_value(name: &str) -> Option<f64> {
    match name {
        "pi" => Some(std::f64::consts::PI),
        "e" => Some(std::f64::consts::E),
        _ => None,
    }
}

/// The groups of the reference's capability object (`harness.stdio.println(x)`,
/// `harness.crypto.sha256(s)`): a call through one is the builtin of the method's name,
/// so the sandbox rules that govern the builtin govern the call.
pub const HARNESS_GROUPS: &[&str] = &["stdio", "crypto", "random", "net", "clock", "time"];

/// The builtin a `harness.<group>.<method>(...)` call names, when `receiver` is
/// `harness.<group>`.
pub fn harness_builtin<'a>(receiver: &crate::ast::Expr, method: &'a str) -> Option<&'a str> {
    use crate::ast::ExprKind;
    let ExprKind::Member { object, name, .. } = &receiver.kind else {
        return None;
    };
    let ExprKind::Ident(root) = &object.kind else {
        return None;
    };
    (root == "harness" && HARNESS_GROUPS.contains(&name.name.as_str())).then_some(method)
}

/// Roots of the namespaced builtins (`language.md` 6: a builtin whose name has a dot,
/// called as `stream.map(xs, f)` when no variable of that name is in scope).
pub const NAMESPACES: &[&str] = &["stream"];

/// The namespaced builtin a `root.method(...)` call names, when `receiver` is the bare
/// name of a namespace (whether a variable shadows it is the caller's question).
pub fn namespaced_builtin(receiver: &crate::ast::Expr, method: &str) -> Option<String> {
    let crate::ast::ExprKind::Ident(root) = &receiver.kind else {
        return None;
    };
    NAMESPACES
        .contains(&root.as_str())
        .then(|| format!("{root}.{method}"))
}

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
    /// Every tag, in declaration order.
    pub const ALL: [Capability; 11] = [
        Capability::Pure,
        Capability::ToolEgress,
        Capability::IoFs,
        Capability::IoNet,
        Capability::IoProcess,
        Capability::IoEnv,
        Capability::Host,
        Capability::Llm,
        Capability::Secret,
        Capability::Clock,
        Capability::Random,
    ];

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

    /// The tag [`as_str`](Self::as_str) prints, read back.
    pub fn parse(s: &str) -> Option<Capability> {
        Capability::ALL.into_iter().find(|c| c.as_str() == s)
    }
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
    /// Every profile, narrowest first.
    pub const ALL: [Profile; 3] = [Profile::CodeMode, Profile::Default, Profile::Trusted];

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

    /// The profile rule: a builtin is installed iff the profile allows its capability
    /// and its name is not denied ([`is_denied_name`]) — except that the trusted profile
    /// keeps a denied name that carries a host-tier tag (it exists to run host I/O, so
    /// `exec` is there and nowhere else). A host builtin registered with the wrong tag
    /// under a denied name therefore reaches no profile.
    pub fn installs(self, name: &str, cap: Capability) -> bool {
        self.installs_checked(is_denied_name(name), cap)
    }

    /// [`Profile::installs`] for a name already looked up in the denylist.
    pub fn installs_checked(self, denied: bool, cap: Capability) -> bool {
        self.allows(cap) && (!denied || (self == Profile::Trusted && cap.is_host_tier()))
    }
}

/// One builtin's declaration: everything known about it except its implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinDecl {
    pub name: &'static str,
    /// Signature in Harn type syntax, e.g. `fn(s: string, n?: int) -> string`; parsed by
    /// [`BuiltinEnv::signature`].
    pub signature: &'static str,
    pub capability: Capability,
    /// One line of documentation.
    pub doc: &'static str,
    /// Listed by `code-mode.md` 4.5 as visible inside the sandbox (the pure helpers,
    /// output, tool egress, `map_bounded`, `Ok`, `Err`): part of the binding names'
    /// reserved set (1.7).
    pub sandbox_visible: bool,
}

/// A table row.
pub(crate) const fn decl(
    name: &'static str,
    signature: &'static str,
    capability: Capability,
    doc: &'static str,
) -> BuiltinDecl {
    BuiltinDecl {
        name,
        signature,
        capability,
        doc,
        sandbox_visible: false,
    }
}

/// A table row for a name visible inside the sandbox (`code-mode.md` 4.5).
pub(crate) const fn visible(
    name: &'static str,
    signature: &'static str,
    capability: Capability,
    doc: &'static str,
) -> BuiltinDecl {
    BuiltinDecl {
        sandbox_visible: true,
        ..decl(name, signature, capability, doc)
    }
}
