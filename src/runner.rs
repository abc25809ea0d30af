//! Compile and run one Harn source text: the pipeline shared by `harnc run` and
//! `harnc test`.

use std::rc::Rc;
use std::time::{Duration, Instant};

use harn_compiler::compile::compile_program;
use harn_compiler::parse;
use harn_vm::registry::{Profile, global};
use harn_vm::{Limits, Value, Vm};

/// The result of running a program.
pub struct Outcome {
    /// Everything written by `log`, `print`, `println`.
    pub output: String,
    /// The program's value, or the one-line error text (`language.md` 1.6).
    pub result: Result<Value, String>,
    /// A `?` ended the entry level with this `Err` payload (a quiet stop).
    pub quiet_err: Option<Value>,
}

/// Lexes, parses, compiles and runs `source` on a fresh VM.
pub fn run_source(source: &str, profile: Profile, timeout: Option<Duration>) -> Outcome {
    harn_vm::registry::init(crate::register_builtins);
    let parsed = parse(source);
    if let Some(first) = parsed.first_error() {
        return Outcome {
            output: String::new(),
            result: Err(first.to_string()),
            quiet_err: None,
        };
    }
    let proto = match compile_program(&parsed.program, source) {
        Ok(p) => Rc::new(p),
        Err(e) => {
            return Outcome {
                output: String::new(),
                result: Err(e.to_string()),
                quiet_err: None,
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
            };
        }
    };
    Outcome {
        output: vm.take_output(),
        result: result.map_err(|e| e.report()),
        quiet_err: vm.quiet_err.take(),
    }
}
