use std::collections::HashSet;

use super::*;
use crate::types::Ty;

fn env() -> &'static BuiltinEnv {
    BuiltinEnv::global()
}

#[test]
fn names_are_unique_and_rows_well_formed() {
    let mut seen = HashSet::new();
    let rows: Vec<_> = table::FAMILIES.iter().flat_map(|t| t.iter()).collect();
    for d in &rows {
        assert!(seen.insert(d.name), "{} is declared twice", d.name);
        assert!(
            d.signature.starts_with("fn("),
            "{}: {}",
            d.name,
            d.signature
        );
        assert!(!d.doc.is_empty() && !d.doc.contains('\n'), "{}", d.name);
    }
    assert_eq!(env().all().count(), rows.len());
}

#[test]
fn every_signature_parses_to_types() {
    for d in env().all() {
        let sig = env()
            .signature(d.name)
            .unwrap_or_else(|| panic!("{}: `{}` does not parse", d.name, d.signature));
        // Whatever is not a primitive must be one of the builtin type names.
        let mut check = |t: &Ty| {
            if let Ty::Named { name, .. } = t {
                assert!(
                    ["Result", "iter", "pair", "number"].contains(&name.as_str()),
                    "{}: unexpected type name {name}",
                    d.name
                );
            }
        };
        for p in &sig.params {
            p.ty.walk(&mut check);
        }
        sig.ret.walk(&mut check);
    }
    assert!(env().signature("no_such_builtin").is_none());
}

#[test]
fn capability_tags_read_back() {
    for c in Capability::ALL {
        assert_eq!(Capability::parse(c.as_str()), Some(c));
    }
    assert_eq!(Capability::parse("io"), None);
}

#[test]
fn one_matching_rule_for_denied_names() {
    for name in [
        "exec",
        "http_get",
        "fs_read",
        "shell_run",
        "__host_x",
        "spawn",
        "secret",
    ] {
        assert!(is_denied_name(name), "{name}");
    }
    // Exact names and prefixes only: no substring matches.
    for name in [
        "exec_helper",
        "my_secret_reader",
        "json_parse",
        "composition_execute",
    ] {
        assert!(!is_denied_name(name), "{name}");
    }
}

/// The profile tables, pinned: which builtins each profile installs.
#[test]
fn profile_membership_is_pinned() {
    let count = |p| env().for_profile(p).count();
    assert_eq!(count(Profile::CodeMode), 318);
    assert_eq!(count(Profile::Default), 340);
    assert_eq!(count(Profile::Trusted), env().all().count());
    assert_eq!(env().all().count(), 357);
    for d in env().all() {
        let code = env().installed(d.name, Profile::CodeMode);
        let default = env().installed(d.name, Profile::Default);
        assert!(env().installed(d.name, Profile::Trusted), "{}", d.name);
        assert_eq!(
            code,
            matches!(d.capability, Capability::Pure | Capability::ToolEgress),
            "{}",
            d.name
        );
        assert_eq!(default, !d.capability.is_host_tier(), "{}", d.name);
        // A denied name is declared only with a host-tier tag.
        assert!(
            !is_denied_name(d.name) || d.capability.is_host_tier(),
            "{}",
            d.name
        );
    }
    assert!(!env().installed("no_such_builtin", Profile::Trusted));
}

#[test]
fn sandbox_visible_names_are_the_spec_list() {
    let visible: Vec<_> = env()
        .all()
        .filter(|d| d.sandbox_visible)
        .map(|d| d.name)
        .collect();
    assert_eq!(visible.len(), 65, "{visible:?}");
    for d in env().all().filter(|d| d.sandbox_visible) {
        assert!(env().installed(d.name, Profile::CodeMode), "{}", d.name);
    }
}

#[test]
fn the_prefix_sets_agree_with_plain_prefix_matching() {
    let candidates = [
        "fs_",
        "fs",
        "fs_read",
        "http_get",
        "httpx",
        "net_",
        "process_kill",
        "processes",
        "shell",
        "shellx",
        "she",
        "host_",
        "hostlib_x",
        "hostlibx",
        "llm_call",
        "mcp_",
        "secret_get",
        "secrets",
        "env_get",
        "environ",
        "__host_x",
        "__hostx",
        "_host_",
        "keychain_read",
        "socket_open",
        "shared_map",
        "shared",
        "x_fs_",
        "a",
        "",
    ];
    let declared = env().all().map(|d| d.name);
    for name in candidates
        .into_iter()
        .chain(DENIED_NAMES.iter().copied())
        .chain(declared)
    {
        let plain = DENIED_PREFIXES.iter().any(|p| name.starts_with(p));
        assert_eq!(denied::has_denied_prefix(name), plain, "{name}");
        // The first-byte filter never turns away a name the plain rule denies.
        let exact = DENIED_NAMES.contains(&name);
        assert_eq!(is_denied_name(name), exact || plain, "{name}");
    }
}
