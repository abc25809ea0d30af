//! Registry-level tests: every stdlib builtin is registered once with a signature and a
//! doc, and the code-mode profile holds nothing beyond `pure` and `tool_egress`.

use harn_vm::registry::{Capability, Profile, RegistryBuilder};

fn build() -> harn_vm::registry::Registry {
    let mut b = RegistryBuilder::default();
    harn_vm::builtins::register_core(&mut b);
    crate::register(&mut b);
    b.build()
}

#[test]
fn code_mode_is_pure_or_egress_only() {
    // Another test of this binary may have installed the process registry first (core
    // only), so the profile check runs on registries built here.
    for reg in [build(), build()] {
        assert!(reg.id("json_parse").is_some(), "the stdlib is registered");
        let mut n = 0;
        for b in reg.for_profile(Profile::CodeMode) {
            assert!(
                matches!(b.capability, Capability::Pure | Capability::ToolEgress),
                "{} is tagged {} but installed in code mode",
                b.name,
                b.capability.as_str()
            );
            n += 1;
        }
        assert!(n > 100, "only {n} builtins in code mode");
    }
}

#[test]
fn code_mode_helper_list_is_installed() {
    let reg = build();
    // Every name `code-mode.md` 4.5 makes visible in the sandbox (the compiler's table
    // marks them), except the executor's own egress, is installed in code mode.
    let visible: Vec<_> = harn_vm::registry::BuiltinEnv::global()
        .all()
        .filter(|d| d.sandbox_visible)
        .collect();
    assert!(visible.len() > 50, "{}", visible.len());
    for d in visible {
        assert!(
            reg.lookup(d.name, Profile::CodeMode).is_some(),
            "{} missing from code mode",
            d.name
        );
    }
    for name in [
        "read_file",
        "write_file",
        "env",
        "run_command",
        "uuid",
        "random_int",
        "now",
        "date_now",
        "log_info",
    ] {
        assert!(
            reg.lookup(name, Profile::CodeMode).is_none(),
            "{name} must not be in code mode"
        );
    }
    for name in ["uuid", "random_int", "now", "log_info"] {
        assert!(
            reg.lookup(name, Profile::Default).is_some(),
            "{name} missing from default"
        );
    }
    for name in ["read_file", "env", "run_command"] {
        assert!(
            reg.lookup(name, Profile::Default).is_none(),
            "{name} must not be in default"
        );
        assert!(
            reg.lookup(name, Profile::Trusted).is_some(),
            "{name} missing from trusted"
        );
    }
}

#[test]
fn every_builtin_is_documented_and_allowed_by_name() {
    let mut core = RegistryBuilder::default();
    harn_vm::builtins::register_core(&mut core);
    let core = core.build();
    let mut b = RegistryBuilder::default();
    crate::register(&mut b);
    let reg = b.build();
    for bi in reg.all() {
        assert!(
            bi.signature.starts_with("fn("),
            "{}: {}",
            bi.name,
            bi.signature
        );
        assert!(!bi.doc.is_empty() && !bi.doc.contains('\n'), "{}", bi.name);
        // A denylisted name may only exist as a host-tier builtin (trusted profile).
        assert!(
            !harn_vm::registry::denied_by_name(bi.name) || bi.capability.is_host_tier(),
            "{} is denylisted but tagged {:?}",
            bi.name,
            bi.capability
        );
        assert!(
            core.id(bi.name).is_none(),
            "{} duplicates a core builtin",
            bi.name
        );
    }
}

/// Calls every pure/clock/random stdlib builtin with many argument shapes: each call
/// must return a value or a clean error, never panic.
#[test]
fn no_builtin_panics_on_odd_arguments() {
    use crate::test_host::TestHost;
    use harn_vm::registry::Implementation;
    use harn_vm::value::{Dict, Value};
    use std::rc::Rc;

    let mut host = TestHost::new();
    let cb = host.func(|a| Ok(a.first().cloned().unwrap_or_default()));
    let mut d = Dict::new();
    d.insert("a", Value::Int(1));
    d.insert("mode", Value::str("bar"));
    d.insert("type", Value::str("object"));
    let samples = vec![
        Value::Nil,
        Value::Bool(true),
        Value::Int(0),
        Value::Int(-1),
        Value::Int(i64::MAX),
        Value::Int(i64::MIN),
        Value::Float(f64::NAN),
        Value::Float(-0.5),
        Value::Float(1e300),
        Value::str(""),
        Value::str("é{}}{x}[]\"\\"),
        Value::str("2024-02-30T25:61:61Z"),
        Value::str("/"),
        Value::str("(?P<n>a)|["),
        Value::str(".[] | select(.a"),
        Value::list(vec![Value::Int(1), Value::str("x"), Value::Nil]),
        Value::Set(Rc::new(vec![Value::Int(1)])),
        Value::dict(d),
        Value::Duration(-1),
        Value::Bytes(Rc::new(vec![0xff, 0x00])),
        cb,
    ];
    let mut b = RegistryBuilder::default();
    crate::register(&mut b);
    let reg = b.build();
    for bi in reg.all() {
        if !matches!(
            bi.capability,
            Capability::Pure | Capability::Clock | Capability::Random
        ) {
            continue;
        }
        let f = match bi.imp {
            Implementation::Sync(f) => f,
            Implementation::Number(f) => {
                let _ = f(&Value::Nil);
                for a in &samples {
                    let _ = f(a);
                }
                continue;
            }
            _ => continue,
        };
        let _ = f(&mut host, &[]);
        for a in &samples {
            let _ = f(&mut host, std::slice::from_ref(a));
            for c in &samples {
                let _ = f(&mut host, &[a.clone(), c.clone()]);
                let _ = f(&mut host, &[a.clone(), c.clone(), Value::Int(3)]);
                let _ = f(&mut host, &[a.clone(), Value::Int(2), c.clone()]);
            }
        }
    }
}
