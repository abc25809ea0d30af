//! The one denylist: names that must never be callable in a sandboxed profile, whatever
//! their capability tag (`code-mode.md` 4.4).
//!
//! **One matching rule**: a name is denied iff it equals an entry of [`DENIED_NAMES`] or
//! starts with an entry of [`DENIED_PREFIXES`]. The static validator refuses such names
//! in snippets; the profile rule ([`super::Profile::installs`]) keeps them out of every
//! profile except as host-tier builtins of the trusted profile.

/// Denied exact names: the spec's list (4.4), plus the bare words of families that have
/// no spec prefix (`spawn`, `socket`, `fetch`, `secret`, `keychain`, `process`).
pub const DENIED_NAMES: &[&str] = &[
    "append_file",
    "append_file_locked",
    "ask_user",
    "connector_call",
    "copy_file",
    "delete_file",
    "dual_control",
    "escalate_to",
    "event_log_emit",
    "event_log.emit",
    "exec",
    "host_call",
    "host_tool_call",
    "http_delete",
    "http_download",
    "http_get",
    "http_patch",
    "http_post",
    "http_put",
    "http_request",
    "llm_call",
    "mcp_call",
    "mcp_connect",
    "pg_execute",
    "pg_query",
    "request_approval",
    "secret_get",
    "write_file",
    "write_file_bytes",
    "replace_file",
    "replace_file_result",
    "replace_file_bytes",
    "replace_file_bytes_result",
    // Not in the spec's list: the reference's process and shared-state builtins, and
    // the registry's former name families, as exact names.
    "exit",
    "fetch",
    "keychain",
    "process",
    "secret",
    "socket",
    "spawn",
];

/// Denied name prefixes: the spec's list (4.4), plus `keychain_` and `socket_`.
pub const DENIED_PREFIXES: &[&str] = &[
    "fs_",
    "http_",
    "net_",
    "process_",
    "shell",
    "host_",
    "hostlib_",
    "llm_",
    "mcp_",
    "secret_",
    "env_",
    "__host_",
    "keychain_",
    "socket_",
    "shared_",
];

/// The family a denied name belongs to, as a refusal names it (`exit` → process
/// control); `None` for a name that is not denied.
pub fn denied_family(name: &str) -> Option<&'static str> {
    if !is_denied_name(name) {
        return None;
    }
    const FAMILIES: &[(&[&str], &str)] = &[
        (
            &["exit", "exec", "spawn", "process", "process_", "shell"],
            "process control",
        ),
        (&["shared_"], "state shared between runs"),
        (
            &["http_", "net_", "fetch", "socket", "socket_"],
            "network access",
        ),
        (
            &[
                "fs_",
                "append_file",
                "copy_file",
                "delete_file",
                "write_file",
                "replace_file",
            ],
            "file system access",
        ),
        (&["secret", "secret_", "keychain", "keychain_"], "secrets"),
        (&["env_"], "environment access"),
        (&["llm_"], "model calls"),
        (&["mcp_"], "MCP transports"),
        (&["pg_"], "database access"),
        (
            &[
                "ask_user",
                "request_approval",
                "dual_control",
                "escalate_to",
            ],
            "human interaction",
        ),
    ];
    let family = FAMILIES.iter().find(|(names, _)| {
        names.iter().any(|n| {
            if n.ends_with('_') {
                name.starts_with(n)
            } else {
                name == *n || name.starts_with(&format!("{n}_"))
            }
        })
    });
    Some(family.map_or("host access", |(_, f)| *f))
}

/// Whether `name` is on the denylist (see the module doc for the rule). A `const fn`
/// over the two lists themselves, so the rule is written once; asked of every declared
/// builtin at each process start, it turns most names away by their first byte and
/// length alone, before comparing any text.
pub const fn is_denied_name(name: &str) -> bool {
    let bytes = name.as_bytes();
    let Some(&first) = bytes.first() else {
        return false;
    };
    if NAME_LENGTHS[first as usize] & length_bit(bytes.len()) != 0 {
        let mut i = 0;
        while i < DENIED_NAMES.len() {
            let entry = DENIED_NAMES[i].as_bytes();
            if entry.len() == bytes.len() && starts_with(bytes, entry) {
                return true;
            }
            i += 1;
        }
    }
    PREFIX_FIRST_BYTES[first as usize] && has_denied_prefix(name)
}

/// `name` starts with an entry of [`DENIED_PREFIXES`].
pub(super) const fn has_denied_prefix(name: &str) -> bool {
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < DENIED_PREFIXES.len() {
        if starts_with(bytes, DENIED_PREFIXES[i].as_bytes()) {
            return true;
        }
        i += 1;
    }
    false
}

const fn starts_with(text: &[u8], prefix: &[u8]) -> bool {
    if prefix.len() > text.len() {
        return false;
    }
    let mut i = 0;
    while i < prefix.len() {
        if text[i] != prefix[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A length's bit in a [`NAME_LENGTHS`] mask; lengths of 63 and more share the top bit.
const fn length_bit(len: usize) -> u64 {
    1 << if len < 63 { len } else { 63 }
}

/// For each first byte, the lengths ([`length_bit`]) of the denied names that start
/// with it: worked out from the list when compiling, so it cannot drift from it.
const NAME_LENGTHS: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut i = 0;
    while i < DENIED_NAMES.len() {
        let name = DENIED_NAMES[i].as_bytes();
        table[name[0] as usize] |= length_bit(name.len());
        i += 1;
    }
    table
};

/// Whether some denied prefix starts with each byte, from the list when compiling.
const PREFIX_FIRST_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < DENIED_PREFIXES.len() {
        table[DENIED_PREFIXES[i].as_bytes()[0] as usize] = true;
        i += 1;
    }
    table
};
