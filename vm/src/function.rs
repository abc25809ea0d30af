//! Functions at run time: a compiled prototype with its constants turned into values,
//! and closures (a function plus the snapshot of the variables it captured).

use std::cell::{Cell, OnceCell};
use std::rc::Rc;

use harn_compiler::bytecode::{Op, Proto};

use crate::value::Value;

/// A compiled function ready to run: its prototype and its constants as values.
#[derive(Debug)]
pub struct Function {
    pub proto: Rc<Proto>,
    /// A copy of `proto.code`, one pointer from the closure instead of two: the
    /// instruction loop loads it at every switch between frames (each call and each
    /// return between two functions), where the extra dependent load through `proto`
    /// was on the critical path.
    pub code: Box<[Op]>,
    pub consts: Box<[Value]>,
    /// For each constant that names a builtin installed in the VM's profile, its id.
    pub builtin_ids: Box<[Option<u32>]>,
    /// For each constant that names a builtin of one argument the loop fast lane may
    /// run (`Implementation::Number`), its function.
    pub number_fns: Box<[Option<crate::native::NumberFn>]>,
    /// Nested function prototypes, loaded the same way.
    pub children: Box<[Rc<Function>]>,
    /// Whether a parameter is `...rest` (precomputed for the call path).
    pub has_rest: bool,
    /// Whether any parameter has a type checked at call time.
    pub has_checks: bool,
    /// Per parameter, the kinds of value its check accepts as bits
    /// (`interp::call::kind_bit`): every kind for an unchecked one, none (`0`, "run the
    /// full check") for a check that is not a union of simple types.
    pub check_masks: Box<[u32]>,
    /// Checks, but only simple ones, no rest parameter and no captures: a call with
    /// every argument given only tests each against its mask.
    pub simple_checks: bool,
    /// Declared parameters (including a rest parameter).
    pub nparams: usize,
    /// No rest parameter, no checks and no captures: a call with every argument given
    /// only needs a frame (the call path's fast case).
    pub plain: bool,
    /// No rest parameter and no checks, but captures: a call with every argument given
    /// only copies the captured values into their registers (a closure's common case).
    pub captures_only: bool,
    /// Stack slots a frame of this function occupies: every register its code names
    /// is below this (`Proto::register_window`; the VM's register accesses rely on it).
    pub window: usize,
    /// Per instruction: whether a back edge landing there enters the loop fast lane
    /// (`hot::entry_points`).
    pub lane_entry: Box<[bool]>,
    /// Per instruction: where in a small dict the key of a field read (`GetField`) was
    /// found last time (`Dict::field_hinted`). Only a hint: a wrong one costs one
    /// comparison, never a wrong answer.
    pub key_hints: Box<[Cell<u8>]>,
    /// Per constant: the dict key a field store (`SetField`) names, made the first time
    /// the store adds it to a dict and shared by every later one, so a record literal
    /// in a loop allocates no keys.
    pub field_keys: Box<[OnceCell<crate::dict::Key>]>,
}

/// A closure: capture is by value (a snapshot taken when the closure is created).
#[derive(Debug)]
pub struct Closure {
    pub function: Rc<Function>,
    pub captures: Box<[Value]>,
}
