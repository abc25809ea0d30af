//! The interpreter: a register machine over one value stack.
//!
//! The loop is synchronous. It yields only when an asynchronous builtin is called: the
//! VM state lives in the `Vm` value, so [`Vm::run`] awaits the builtin's future and
//! resumes the loop where it stopped. Errors unwind to the innermost `try` handler;
//! limit errors cannot be caught.

mod bounded;
mod call;
mod exec;
mod fused;
mod generator;
mod hot;
mod items;
mod params;
mod replay;
mod stack;
mod window;

pub(crate) use hot::entry_points as lane_entry_points;
pub(crate) use params::check_mask;
pub(crate) use stack::{Reg, Stack};

use std::cell::Cell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

use harn_compiler::bytecode::Proto;

use crate::error::{ErrorKind, Limit, VmError};
use crate::function::{Closure, Function};
use crate::load::load;
use crate::native::NativeFuture;
use crate::registry::{Profile, Registry};
use crate::value::Value;

pub use generator::Generator;

/// Frames deeper than this are `Stack overflow: too many nested calls`.
pub const MAX_FRAMES: usize = 512;

/// Optional resource limits for a run.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Instruction fuel.
    pub max_instructions: Option<u64>,
    /// Wall-clock deadline.
    pub deadline: Option<(Instant, u64)>,
    /// Captured output bytes.
    pub max_output_bytes: Option<usize>,
    /// Frames (overrides [`MAX_FRAMES`] when lower).
    pub max_call_depth: Option<usize>,
    /// Default width of `map_bounded` (16 when unset).
    pub max_concurrent: Option<u64>,
    /// Output entries (`log`/`print`/`println` calls) kept; later ones are dropped.
    pub max_log_entries: Option<u64>,
    /// Longer entries are cut at a UTF-8 boundary and end with `…`.
    pub max_log_entry_bytes: Option<usize>,
    /// Live bytes the run may add (needs the metered allocator, [`crate::meter`]).
    pub max_memory_bytes: Option<u64>,
    /// Largest single string or bytes value.
    pub max_string_bytes: Option<usize>,
    /// Largest single list, dict or set.
    pub max_collection_len: Option<usize>,
}

fn frame_cap(limits: &Limits) -> usize {
    limits
        .max_call_depth
        .map_or(MAX_FRAMES, |n| n.min(MAX_FRAMES))
}

/// Runs Harn callables for a builtin while its caller waits: each call runs in a VM
/// forked from the caller (same program, globals, limits and fuel), and what the
/// callbacks print is added to the caller's output when the builtin settles.
pub struct Callbacks {
    template: Vm,
    output: Rc<std::cell::RefCell<String>>,
}

impl crate::native::CallbackRunner for Callbacks {
    fn call(&self, f: Value, args: Vec<Value>) -> NativeFuture {
        let mut vm = self.template.fork();
        let output = self.output.clone();
        Box::pin(async move {
            let result = vm.run_callable(f, args).await;
            output.borrow_mut().push_str(&vm.take_output());
            result
        })
    }
}

/// Counts of output entries (`code-mode.md` 4.12).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogStats {
    pub entries: u64,
    pub dropped: u64,
    pub truncated: u64,
}

pub(crate) struct Frame {
    pub closure: Rc<Closure>,
    pub pc: usize,
    pub base: usize,
    pub nargs: usize,
    /// Absolute stack slot that receives the return value.
    pub ret: usize,
    /// The loop returns to its caller when this frame returns (native re-entry).
    pub stop_here: bool,
}

/// `frames.push(frame)`, with each field stored straight into the vector's spare slot.
///
/// `Vec::push` assembled the frame on the stack (one store per field) and copied it with
/// 16-byte loads that straddle those stores; the CPU cannot forward such a load and
/// waits for the stores to retire, which cost a sixth of a recursive call's time.
#[inline(always)]
pub(crate) fn push_in_place(frames: &mut Vec<Frame>, frame: Frame) {
    let Frame {
        closure,
        pc,
        base,
        nargs,
        ret,
        stop_here,
    } = frame;
    frames.reserve(1);
    let len = frames.len();
    // SAFETY: `reserve(1)` left room for a frame at `len`; every field of it is written
    // (each exactly once, nothing read) before `set_len` makes it part of the vector.
    unsafe {
        let slot = frames.as_mut_ptr().add(len);
        std::ptr::addr_of_mut!((*slot).closure).write(closure);
        std::ptr::addr_of_mut!((*slot).pc).write(pc);
        std::ptr::addr_of_mut!((*slot).base).write(base);
        std::ptr::addr_of_mut!((*slot).nargs).write(nargs);
        std::ptr::addr_of_mut!((*slot).ret).write(ret);
        std::ptr::addr_of_mut!((*slot).stop_here).write(stop_here);
        frames.set_len(len + 1);
    }
}

pub(crate) struct Handler {
    pub frame: usize,
    pub pc: usize,
    /// Absolute slot receiving the caught value.
    pub slot: usize,
}

#[derive(Clone)]
struct Global {
    value: Value,
    mutable: bool,
}

/// Why the loop stopped.
pub(crate) enum Stop {
    Returned(Value),
    /// Waiting for an asynchronous builtin; its result goes to the slot.
    Suspended(NativeFuture, usize),
    /// A generator's body handed out a value (`yield`) and paused.
    Yielded(Value),
}

/// One running program.
pub struct Vm {
    pub(crate) stack: Stack,
    pub(crate) frames: Vec<Frame>,
    pub(crate) handlers: Vec<Handler>,
    globals: Vec<Option<Global>>,
    global_names: Rc<[harn_compiler::ast::Name]>,
    /// `impl` methods: (struct name, method name) -> closure.
    pub(crate) methods: HashMap<(String, String), Value>,
    /// Errors caught by a handler, by the slot holding the caught value (for rethrow).
    pub(crate) caught: HashMap<usize, VmError>,
    pub(crate) registry: &'static Registry,
    pub(crate) profile: Profile,
    pub(crate) out: String,
    pub(crate) limits: Limits,
    /// Most frames allowed at once: [`MAX_FRAMES`], or `max_call_depth` when lower.
    pub(crate) frame_cap: usize,
    /// Instructions used, shared with the VMs forked for `map_bounded` items.
    pub(crate) fuel_used: Rc<Cell<u64>>,
    /// Output entry counts, shared with forked VMs.
    pub(crate) log_stats: Rc<Cell<LogStats>>,
    /// This thread's live bytes when the limits were set (`max_memory_bytes` baseline).
    pub(crate) memory_base: Option<i64>,
    /// The deepest frame stack seen.
    pub(crate) depth_peak: usize,
    /// Set when `?` ended the entry level with an `Err` (a quiet, successful stop).
    pub quiet_err: Option<Value>,
    /// Nested synchronous runs (callbacks from builtins); asynchronous builtins cannot
    /// suspend inside one.
    pub(crate) native_depth: usize,
    /// The arguments of the method call being made, moved off the stack; kept between
    /// calls so that a call allocates nothing for them (a nested call finds it taken and
    /// uses a vector of its own).
    pub(crate) method_args: Vec<Value>,
    entry: Option<Rc<Function>>,
    /// Where tool calls go (code mode); `None` outside code mode.
    pub(crate) egress: Option<Rc<dyn crate::egress::Egress>>,
    /// Output printed by `map_bounded` items while this VM waits; appended to `out`
    /// when the call settles.
    pub(crate) pending_output: Option<Rc<std::cell::RefCell<String>>>,
    /// Set while this VM re-runs a builtin whose callbacks wait: answers for the
    /// callbacks already run (`replay.rs`).
    pub(crate) replay: Option<replay::Replay>,
    /// Bindings used as values, made once per name.
    pub(crate) binding_values: HashMap<String, Value>,
    /// Whether the styling builtins (`color`, `bold`, …) emit ANSI escapes; off until
    /// `set_color_mode("always")`, since a run's output is a buffer, not a terminal.
    pub(crate) color: bool,
}

impl Vm {
    /// A fresh VM for a profile. Cheap: the registry is shared and nothing proportional
    /// to the number of builtins is built.
    pub fn new(registry: &'static Registry, profile: Profile) -> Vm {
        // A VM without limits walks values freely until `set_limits` says otherwise.
        crate::walk::arm(None, None);
        Vm {
            stack: Stack::with_capacity(256),
            frames: Vec::with_capacity(16),
            handlers: Vec::new(),
            globals: Vec::new(),
            global_names: Rc::from(Vec::new()),
            methods: HashMap::new(),
            caught: HashMap::new(),
            registry,
            profile,
            out: String::new(),
            limits: Limits::default(),
            frame_cap: MAX_FRAMES,
            fuel_used: Rc::new(Cell::new(0)),
            log_stats: Rc::new(Cell::new(LogStats::default())),
            memory_base: None,
            depth_peak: 0,
            quiet_err: None,
            native_depth: 0,
            method_args: Vec::new(),
            entry: None,
            egress: None,
            pending_output: None,
            replay: None,
            binding_values: HashMap::new(),
            color: false,
        }
    }

    /// Adds the value walks counted since the last settlement to the fuel used (the
    /// total is returned) and allows the next walks the fuel left.
    pub(crate) fn settle_walk(&self) -> u64 {
        let used = self.fuel_used.get().saturating_add(crate::walk::take());
        self.fuel_used.set(used);
        let allowance = self
            .limits
            .max_instructions
            .map(|max| (max.saturating_sub(used), max));
        crate::walk::arm(allowance, self.limits.deadline);
        used
    }

    /// Routes tool calls (bindings and `call_tool`) to `egress`.
    pub fn set_egress(&mut self, egress: Rc<dyn crate::egress::Egress>) {
        self.egress = Some(egress);
    }

    pub fn set_limits(&mut self, limits: Limits) {
        crate::meter::reset_peak();
        self.memory_base = crate::meter::live_bytes();
        self.frame_cap = frame_cap(&limits);
        self.limits = limits;
        self.settle_walk();
    }

    /// The single-value caps (`max_string_bytes`, `max_collection_len`), checked on
    /// every value a builtin, method or operator builds.
    #[inline]
    pub(crate) fn guard(&self, v: &Value) -> Result<(), VmError> {
        let (len, cap, name) = match v {
            Value::Str(s) => (s.len(), self.limits.max_string_bytes, "max_string_bytes"),
            Value::Bytes(b) => (b.len(), self.limits.max_string_bytes, "max_string_bytes"),
            Value::List(l) => (
                l.len(),
                self.limits.max_collection_len,
                "max_collection_len",
            ),
            Value::Dict(d) => (
                d.len(),
                self.limits.max_collection_len,
                "max_collection_len",
            ),
            Value::Set(s) => (
                s.len(),
                self.limits.max_collection_len,
                "max_collection_len",
            ),
            _ => (0, None, ""),
        };
        if let Some(max) = cap
            && len > max
        {
            return Err(VmError::limit(Limit::Memory(format!("{name}={max}"))));
        }
        self.check_memory()
    }

    /// `max_memory_bytes`: the growth of this thread's live bytes since the run began.
    pub(crate) fn check_memory(&self) -> Result<(), VmError> {
        if let (Some(max), Some(base)) = (self.limits.max_memory_bytes, self.memory_base)
            && let Some(live) = crate::meter::live_bytes()
            && live.saturating_sub(base) > i64::try_from(max).unwrap_or(i64::MAX)
        {
            return Err(VmError::limit(Limit::Memory(format!(
                "max_memory_bytes={max}"
            ))));
        }
        Ok(())
    }

    /// Loads a compiled program (its root prototype) as the entry point.
    pub fn load(&mut self, root: Rc<Proto>) {
        self.global_names = Rc::from(root.globals.clone());
        self.globals = (0..root.globals.len()).map(|_| None).collect();
        self.entry = Some(load(root, self.registry, self.profile));
    }

    /// The output buffer (`log`, `print`, `println`).
    pub fn output(&self) -> &str {
        &self.out
    }

    pub fn take_output(&mut self) -> String {
        std::mem::take(&mut self.out)
    }

    /// A callback runner for the builtin being called now; its callbacks' output joins
    /// this VM's output when the builtin's future settles.
    pub fn callbacks(&mut self) -> Callbacks {
        let output = Rc::new(std::cell::RefCell::new(String::new()));
        self.pending_output = Some(output.clone());
        Callbacks {
            template: self.fork(),
            output,
        }
    }

    /// The most bytes the run's values held at once (needs the metered allocator).
    pub fn peak_memory_bytes(&self) -> Option<u64> {
        let (base, peak) = (self.memory_base?, crate::meter::peak_bytes()?);
        u64::try_from(peak.saturating_sub(base)).ok()
    }

    /// The deepest the frame stack went.
    pub fn max_depth_used(&self) -> usize {
        self.depth_peak
    }

    pub fn log_stats(&self) -> LogStats {
        self.log_stats.get()
    }

    pub fn instructions_used(&self) -> u64 {
        self.fuel_used.get()
    }

    /// A VM that shares this one's program, globals, methods, limits, fuel and egress
    /// but has its own stack and output: it runs one `map_bounded` item.
    pub(crate) fn fork(&self) -> Vm {
        let mut limits = self.limits.clone();
        let depth_limit = limits.max_call_depth.unwrap_or(MAX_FRAMES).min(MAX_FRAMES);
        limits.max_call_depth = Some(depth_limit.saturating_sub(self.frames.len()).max(1));
        Vm {
            stack: Stack::with_capacity(64),
            frames: Vec::with_capacity(8),
            handlers: Vec::new(),
            globals: self.globals.clone(),
            global_names: self.global_names.clone(),
            methods: self.methods.clone(),
            caught: HashMap::new(),
            registry: self.registry,
            profile: self.profile,
            out: String::new(),
            frame_cap: frame_cap(&limits),
            limits,
            fuel_used: self.fuel_used.clone(),
            log_stats: self.log_stats.clone(),
            memory_base: self.memory_base,
            depth_peak: 0,
            quiet_err: None,
            native_depth: 0,
            method_args: Vec::new(),
            entry: None,
            egress: self.egress.clone(),
            pending_output: None,
            replay: None,
            binding_values: HashMap::new(),
            color: self.color,
        }
    }

    /// Runs the loaded program to completion, awaiting asynchronous builtins.
    pub async fn run(&mut self) -> Result<Value, VmError> {
        let Some(entry) = self.entry.clone() else {
            return Ok(Value::Nil);
        };
        let closure = Rc::new(Closure {
            function: entry,
            captures: Box::new([]),
        });
        self.push_frame(closure, 0, 0, 0, false)?;
        let stop = self.execute(0);
        self.drive(stop).await
    }

    /// Calls `f` with `args` on this VM's empty stack and runs it to completion,
    /// awaiting asynchronous builtins (a forked VM running a `map_bounded` item).
    pub(crate) async fn run_callable(
        &mut self,
        f: Value,
        args: Vec<Value>,
    ) -> Result<Value, VmError> {
        let nargs = args.len();
        self.stack.clear();
        self.stack.push(f.clone());
        self.stack.extend(args);
        match &f {
            Value::Closure(c) => {
                self.push_frame(c.clone(), 1, nargs, 0, false)?;
                let stop = self.execute(0);
                self.drive(stop).await
            }
            Value::Builtin(id) => match self.call_builtin(*id, 0, nargs)? {
                None => Ok(self.stack.first().cloned().unwrap_or_default()),
                Some(stop) => self.drive(Ok(stop)).await,
            },
            other => Err(VmError::type_error(format!(
                "cannot call value of type {}",
                other.type_name()
            ))),
        }
    }

    /// Resumes the loop after each suspension until the program returns.
    async fn drive(&mut self, mut stop: Result<Stop, VmError>) -> Result<Value, VmError> {
        loop {
            match stop {
                Ok(Stop::Returned(v)) => return Ok(v),
                Ok(Stop::Yielded(_)) => return Err(VmError::runtime("yield outside a generator")),
                Ok(Stop::Suspended(fut, slot)) => {
                    let result = match self.limits.deadline {
                        Some((at, ms)) => {
                            let left = at.saturating_duration_since(Instant::now());
                            match tokio::time::timeout(left, fut).await {
                                Ok(r) => r,
                                Err(_) => Err(VmError::limit(Limit::Timeout(ms))),
                            }
                        }
                        None => fut.await,
                    };
                    if let Some(printed) = self.pending_output.take() {
                        self.out.push_str(&printed.borrow());
                    }
                    stop = match result {
                        Ok(v) => {
                            if let Some(s) = self.stack.get_mut(slot) {
                                *s = v;
                            }
                            self.execute(0)
                        }
                        Err(e) => match self.unwind(e, 0) {
                            Ok(()) => self.execute(0),
                            Err(e) => Err(e),
                        },
                    };
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Runs synchronously (no asynchronous builtin may be awaited).
    pub fn run_sync(&mut self) -> Result<Value, VmError> {
        let Some(entry) = self.entry.clone() else {
            return Ok(Value::Nil);
        };
        let closure = Rc::new(Closure {
            function: entry,
            captures: Box::new([]),
        });
        self.push_frame(closure, 0, 0, 0, false)?;
        match self.execute(0)? {
            Stop::Returned(v) => Ok(v),
            Stop::Yielded(_) => Err(VmError::runtime("yield outside a generator")),
            Stop::Suspended(..) => Err(VmError::runtime(
                "an asynchronous builtin was called outside an async runtime",
            )),
        }
    }

    pub(crate) fn global_name(&self, slot: u16) -> &str {
        self.global_names
            .get(slot as usize)
            .map_or("?", harn_compiler::ast::Name::as_str)
    }

    pub(crate) fn get_global(&self, slot: u16) -> Option<&Value> {
        self.globals
            .get(slot as usize)
            .and_then(|g| g.as_ref())
            .map(|g| &g.value)
    }

    pub(crate) fn define_global(&mut self, slot: u16, value: Value, mutable: bool) {
        if let Some(g) = self.globals.get_mut(slot as usize) {
            *g = Some(Global { value, mutable });
        }
    }

    pub(crate) fn assign_global(&mut self, slot: u16, value: Value) -> Result<(), VmError> {
        let name = self.global_name(slot).to_string();
        match self.globals.get_mut(slot as usize) {
            Some(Some(g)) if g.mutable => {
                g.value = value;
                Ok(())
            }
            Some(Some(_)) => Err(VmError::new(ErrorKind::ImmutableAssign(name))),
            _ => Err(VmError::new(ErrorKind::UndefinedVariable(name))),
        }
    }

    /// Unwinds to the innermost handler at or above frame `floor`; errors that cannot
    /// be caught (or with no handler) are returned.
    pub(crate) fn unwind(&mut self, err: VmError, floor: usize) -> Result<(), VmError> {
        if !err.catchable() {
            return Err(err);
        }
        let Some(h) = self.handlers.last() else {
            return Err(err);
        };
        if h.frame < floor {
            return Err(err);
        }
        let frame = h.frame;
        let pc = h.pc;
        let slot = h.slot;
        self.handlers.pop();
        self.frames.truncate(frame + 1);
        if let Some(f) = self.frames.last_mut() {
            f.pc = pc;
        }
        if let Some(s) = self.stack.get_mut(slot) {
            *s = err.caught_value();
        }
        self.caught.insert(slot, err);
        Ok(())
    }
}
