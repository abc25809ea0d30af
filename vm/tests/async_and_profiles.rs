//! The VM yields at asynchronous builtins and resumes; several VMs share one runtime;
//! profiles and the denylist decide which builtins a VM can reach.

use std::cell::RefCell;
use std::rc::Rc;

use harn_compiler::compile::compile_program;
use harn_compiler::parse;
use harn_vm::registry::{BuiltinDecl, Capability, Implementation, Profile, RegistryBuilder};
use harn_vm::{Value, Vm, global};

fn vm_for(src: &str, profile: Profile) -> Vm {
    let parsed = parse(src);
    assert!(!parsed.has_errors(), "{:?}", parsed.first_error());
    let proto = compile_program(&parsed.program, src).unwrap_or_else(|e| panic!("{e:?}"));
    let mut vm = Vm::new(global(), profile);
    vm.load(Rc::new(proto));
    vm
}

#[tokio::test(start_paused = true)]
async fn an_async_builtin_suspends_and_resumes_the_program() {
    let mut vm = vm_for(
        "log(\"before\")\nsleep(25)\nlog(\"after\")\n",
        Profile::Default,
    );
    let start = tokio::time::Instant::now();
    vm.run().await.unwrap_or_else(|e| panic!("{}", e.report()));
    assert_eq!(vm.output(), "[harn] before\n[harn] after\n");
    // The paused clock advanced by exactly the sleep: the program really waited.
    assert_eq!(start.elapsed().as_millis(), 25);
}

#[tokio::test(start_paused = true)]
async fn several_vms_run_concurrently_on_one_runtime() {
    let local = tokio::task::LocalSet::new();
    let finished: Rc<RefCell<Vec<&'static str>>> = Rc::default();
    let start = tokio::time::Instant::now();
    for (name, delay) in [("slow", 100), ("fast", 10)] {
        let finished = finished.clone();
        let src = format!("sleep({delay})\nlog(\"{name}\")\n");
        local.spawn_local(async move {
            let mut vm = vm_for(&src, Profile::Default);
            vm.run().await.unwrap_or_else(|e| panic!("{}", e.report()));
            assert_eq!(vm.output(), format!("[harn] {name}\n"));
            finished.borrow_mut().push(name);
        });
    }
    local.await;
    assert_eq!(*finished.borrow(), vec!["fast", "slow"]);
    // Overlapped, not sequential: the total is the longest sleep, not the sum.
    assert_eq!(start.elapsed().as_millis(), 100);
}

#[test]
fn sleeping_inside_a_callback_waits_and_a_lazy_iterator_is_a_clear_error() {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut vm = vm_for(
        "log([1, 2].map({ x -> sleep(1)\n x * 2 }))\n",
        Profile::Default,
    );
    let ok = rt.block_on(vm.run());
    assert!(ok.is_ok(), "{:?}", ok.err().map(|e| e.report()));
    assert_eq!(vm.output(), "[harn] [2, 4]\n");
    // A lazy iterator is consumed while it runs: it cannot be run again to wait.
    let mut vm = vm_for(
        "range(0, 2).map({ x -> sleep(1) }).to_list()\n",
        Profile::Default,
    );
    let err = rt
        .block_on(vm.run())
        .err()
        .map(|e| e.report())
        .unwrap_or_default();
    assert!(err.contains("cannot wait inside a callback"), "{err}");
}

#[test]
fn code_mode_installs_only_pure_and_tool_egress_builtins() {
    let registry = global();
    let installed: Vec<_> = registry.for_profile(Profile::CodeMode).collect();
    assert!(!installed.is_empty());
    for b in installed {
        assert!(
            matches!(b.capability, Capability::Pure | Capability::ToolEgress),
            "{} ({}) must not be in the code-mode profile",
            b.name,
            b.capability.as_str()
        );
    }
    // `sleep` is a clock builtin: in the default profile, not in code mode.
    assert!(registry.lookup("sleep", Profile::Default).is_some());
    assert!(registry.lookup("sleep", Profile::CodeMode).is_none());
}

fn noop(_: &mut dyn harn_vm::native::Host, _: &[Value]) -> Result<Value, harn_vm::VmError> {
    Ok(Value::Nil)
}

#[test]
fn denylisted_names_are_removed_from_every_profile_whatever_their_tag() {
    let mut b = RegistryBuilder::default();
    let decl = |name, capability| BuiltinDecl {
        name,
        signature: "fn() -> nil",
        capability,
        doc: "test",
        sandbox_visible: false,
    };
    let noop = Implementation::Sync(noop);
    b.declare(decl("shell_helper", Capability::Pure), noop);
    b.declare(decl("exec", Capability::IoProcess), noop);
    b.declare(decl("secret_reader", Capability::Pure), noop);
    b.declare(decl("safe_helper", Capability::Pure), noop);
    let registry = b.build();
    for profile in [Profile::CodeMode, Profile::Default, Profile::Trusted] {
        assert!(registry.lookup("shell_helper", profile).is_none());
        assert!(registry.lookup("secret_reader", profile).is_none());
        assert!(registry.lookup("safe_helper", profile).is_some());
    }
    // A correctly tagged host builtin with a denylisted name exists only where host
    // I/O is allowed.
    assert!(registry.lookup("exec", Profile::Trusted).is_some());
    assert!(registry.lookup("exec", Profile::Default).is_none());
    assert!(registry.lookup("exec", Profile::CodeMode).is_none());
}

#[test]
fn a_builtin_outside_the_profile_is_undefined_at_run_time() {
    let mut vm = vm_for("sleep(1)\n", Profile::CodeMode);
    let err = vm.run_sync().err().map(|e| e.report()).unwrap_or_default();
    assert_eq!(err, "Runtime error: Undefined builtin: sleep (line 1)");
}

/// A stand-in for the code-mode executor: echoes the input after a short wait and
/// records every call.
struct EchoEgress {
    calls: RefCell<Vec<String>>,
}

impl harn_vm::egress::Egress for EchoEgress {
    fn binding_tool(&self, name: &str) -> Option<String> {
        (name == "search").then(|| name.to_string())
    }

    fn call(
        &self,
        name: &str,
        args: Value,
    ) -> Result<harn_vm::native::NativeFuture, harn_vm::VmError> {
        self.calls.borrow_mut().push(name.to_string());
        if name == "denied_tool" {
            return Ok(Box::pin(async {
                Err(harn_vm::VmError::runtime(
                    "composition binding 'denied_tool' denied: test",
                ))
            }));
        }
        Ok(Box::pin(async move {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            Ok(args)
        }))
    }
}

#[tokio::test(start_paused = true)]
async fn tool_calls_route_to_the_egress_and_resume() {
    let src = "let r = search({q: 1})\nlog(r.q)\nlog(call_tool(\"search\", {q: 2}).q)\nlet e = try { call_tool(\"denied_tool\") } catch (err) { \"caught: ${err}\" }\nlog(e)\n";
    let mut vm = vm_for(src, Profile::CodeMode);
    let egress = Rc::new(EchoEgress {
        calls: RefCell::new(Vec::new()),
    });
    vm.set_egress(egress.clone());
    vm.run().await.unwrap_or_else(|e| panic!("{}", e.report()));
    assert_eq!(
        vm.output(),
        "[harn] 1\n[harn] 2\n[harn] caught: Runtime error: composition binding 'denied_tool' denied: test\n"
    );
    assert_eq!(
        *egress.calls.borrow(),
        vec!["search", "search", "denied_tool"]
    );
}

#[test]
fn call_tool_without_an_egress_is_a_clear_error() {
    let mut vm = vm_for("call_tool(\"x\", {})\n", Profile::CodeMode);
    let err = vm.run_sync().err().map(|e| e.report()).unwrap_or_default();
    assert!(err.contains("only callable in code mode"), "{err}");
}
