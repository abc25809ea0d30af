//! Generators (`language.md` 7.12): calling a function whose body yields runs only its
//! `GenStart` prologue, which copies the new frame into a forked VM; each `next` resumes
//! that VM until its next `yield` (a value) or its end.

use std::rc::Rc;

use super::{Frame, Stop, Vm};
use crate::error::VmError;
use crate::function::Closure;
use crate::value::Value;

impl Vm {
    /// A generator for the frame running now (a generator function just called): a
    /// forked VM holding a copy of the frame's registers, positioned at `body_pc`.
    pub(crate) fn start_generator(
        &mut self,
        closure: &Rc<Closure>,
        base: usize,
        body_pc: usize,
    ) -> Value {
        let mut g = self.fork();
        let regs = closure.function.window;
        let nargs = self.frames.last().map_or(0, |f| f.nargs);
        g.stack.push(Value::Nil);
        g.stack
            .extend((base..base + regs).map(|i| self.stack.get(i).cloned().unwrap_or_default()));
        g.frames.push(Frame {
            closure: closure.clone(),
            pc: body_pc,
            base: 1,
            nargs,
            ret: 0,
            stop_here: false,
        });
        crate::iter::new_iter(crate::iter::Iter::Generator(Box::new(Generator {
            vm: g,
            done: false,
        })))
    }
}

/// A paused generator body (`language.md` 7.12): its own VM, resumed one `yield` at a time.
pub struct Generator {
    vm: Vm,
    done: bool,
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.done {
            "<generator done>"
        } else {
            "<generator>"
        })
    }
}

impl crate::iter::Resume for Generator {
    /// Runs the body to its next `yield` (the value) or its end (`None`). What the body
    /// printed joins the consumer's output.
    fn resume(&mut self, host: &mut dyn crate::native::Host) -> Result<Option<Value>, VmError> {
        if self.done {
            return Ok(None);
        }
        let stop = self.vm.execute(0);
        let printed = self.vm.take_output();
        let printed = host.append_output(&printed);
        let result = match stop {
            Ok(Stop::Yielded(v)) => Ok(Some(v)),
            Ok(Stop::Returned(_)) => Ok(None),
            Ok(Stop::Suspended(..)) => Err(VmError::must_wait(
                "a generator cannot wait (a tool call or an asynchronous builtin) while it is consumed",
            )),
            Err(e) => Err(e),
        };
        if !matches!(result, Ok(Some(_))) {
            self.done = true;
        }
        printed?;
        result
    }
}
