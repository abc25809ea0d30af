//! Compile and run one Harn source text: the pipeline shared by `harnc run` and
//! `harnc test`.

use std::rc::Rc;
use std::time::{Duration, Instant};

use harn_compiler::pipeline::{Env, compile_source, script_error_text};
use harn_vm::global;
use harn_vm::registry::Profile;
use harn_vm::{Limits, Value, Vm};

/// The result of running a program.
pub struct Outcome {
    /// Everything written by `log`, `print`, `println`.
    pub output: String,
    /// The program's value, or the one-line error text (`language.md` 1.6).
    pub result: Result<Value, String>,
    /// A `?` ended the entry level with this `Err` payload (a quiet stop).
    pub quiet_err: Option<Value>,
    /// The machine after the run, holding everything the program built (`None` when it
    /// did not compile or did not start). Dropping it frees each value one by one; a
    /// caller about to exit may leak it instead (see `cmd::run`).
    pub machine: Option<Vm>,
}

/// Lexes, parses, compiles and runs `source` on a fresh VM.
pub fn run_source(source: &str, profile: Profile, timeout: Option<Duration>) -> Outcome {
    harn_vm::init(crate::register_builtins);
    let proto = match compile_source(source, &Env::Script) {
        (Some(p), _) => Rc::new(p),
        (None, diagnostics) => {
            let first = diagnostics.iter().find(|d| d.is_error());
            return Outcome {
                output: String::new(),
                result: Err(first.map_or_else(
                    || "Compile error".to_string(),
                    |d| script_error_text(d, source),
                )),
                quiet_err: None,
                machine: None,
            };
        }
    };
    let mut vm = Vm::new(global(), profile);
    vm.load(proto);
    vm.set_limits(Limits {
        deadline: timeout.map(|t| (Instant::now() + t, t.as_millis() as u64)),
        ..Limits::default()
    });
    let result = match tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
    {
        Ok(rt) => rt.block_on(vm.run()),
        Err(e) => {
            return Outcome {
                output: String::new(),
                result: Err(format!("cannot start the async runtime: {e}")),
                quiet_err: None,
                machine: None,
            };
        }
    };
    Outcome {
        output: vm.take_output(),
        result: result.map_err(|e| e.report()),
        quiet_err: vm.quiet_err.take(),
        machine: Some(vm),
    }
}
