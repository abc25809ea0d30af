//! Per-function compile state: registers, lexical scopes, captures, loops.

use crate::ast::Name;
use crate::bytecode::{Capture, CaptureFrom, Const, Op, Proto};

#[derive(Clone, Debug)]
pub(crate) struct Local {
    pub name: Name,
    pub reg: u16,
    pub mutable: bool,
    /// Whether the register was allocated for this local (rather than an existing
    /// register given a name, like a catch variable).
    pub owned: bool,
    /// How many `try`s (and `retry`s) were open where it was declared: a `catch` of
    /// one of them sees it, one opened later does not (`moves.rs`).
    pub try_depth: usize,
}

#[derive(Default)]
pub(crate) struct LoopCtx {
    pub breaks: Vec<usize>,
    pub continues: Vec<usize>,
    /// Number of enclosing `try` handlers when the loop started.
    pub try_depth: usize,
    /// The `ClearRegs` emitted in the body (`moves.rs`), widened when the body ends to
    /// every register it used: what a statement after one of them leaves behind is still
    /// there when the next pass reaches it.
    pub clears: Vec<usize>,
}

/// A `try` that is open while compiling its body: how many handlers are active and
/// the `finally` block to run on early exits (break/continue/return).
#[derive(Clone, Copy)]
pub(crate) struct TryCtx<'a> {
    pub finally: Option<&'a crate::ast::Block>,
}

pub(crate) struct FnState<'a> {
    pub proto: Proto,
    pub scopes: Vec<Vec<Local>>,
    pub next_reg: u16,
    /// The highest `next_reg` since it was last reset ([`Self::reset_peak`]): which
    /// temporaries an expression used.
    pub peak: u16,
    pub loops: Vec<LoopCtx>,
    pub tries: Vec<TryCtx<'a>>,
    /// The function's own name (for `LoadSelf`), if it is a named declaration.
    pub self_name: Option<Name>,
    /// The register `LoadSelf` fills at entry, when the body names the function.
    pub self_reg: Option<u16>,
    /// Whether the self register is read as a value (not only called through
    /// `CallSelf`); when it never is, the entry `LoadSelf` is dropped.
    pub self_read: std::cell::Cell<bool>,
    /// Where the entry `LoadSelf` is (first, or after a generator's prologue).
    pub self_load_at: usize,
    /// `defer` blocks of this function in source order, each with the register that
    /// records whether its `defer` statement ran.
    pub defers: Vec<(&'a crate::ast::Block, u16)>,
    /// How many `defer` statements have been compiled so far.
    pub defers_seen: usize,
    /// A closure's body, whose last expression is its result: the frame ends right
    /// after it, so it may consume the function's locals (`moves.rs`).
    pub result_block: Option<&'a crate::ast::Block>,
    /// The function's own body: a statement directly in it runs at most once per call,
    /// and the body's later statements are all that can read a local after it
    /// (`moves.rs`, `rebinding_move`).
    pub body_block: Option<&'a crate::ast::Block>,
    /// Set by a frame-ending sum that left its result in a local's own register
    /// (`moves.rs`, `acc + x`): the register to return instead of the one asked for.
    /// Read, and cleared, right where the frame's `Return` is emitted.
    pub frame_result: Option<u16>,
    /// Where each constant is in `proto.consts`, once the table is past [`SCAN_LIMIT`]
    /// (a program may have tens of thousands; a linear search made compiling
    /// quadratic). Numbers are keyed by kind and bit pattern.
    str_index: rustc_hash::FxHashMap<Box<str>, u16>,
    num_index: rustc_hash::FxHashMap<(u8, u64), u16>,
    /// How many constants the two indexes cover.
    indexed: usize,
}

/// Constant tables up to this size are searched in place: most functions have a few
/// constants, and hashing them would cost more than it saves.
const SCAN_LIMIT: usize = 32;

/// A constant as a lookup sees it: text borrowed, numbers by kind and bits (so `0.0`
/// and `-0.0` are two constants).
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum ConstProbe<'s> {
    Str(&'s str),
    Num(u8, u64),
}

impl<'s> ConstProbe<'s> {
    pub fn of(k: &'s Const) -> Self {
        match k {
            Const::Str(text) => ConstProbe::Str(text),
            Const::Int(n) => ConstProbe::Num(0, *n as u64),
            Const::Float(x) => ConstProbe::Num(1, x.to_bits()),
            Const::Duration(ms) => ConstProbe::Num(2, *ms as u64),
        }
    }
}

impl<'a> FnState<'a> {
    /// A function's state; `ops` is a guess at its instruction count, so that its code
    /// and line table seldom grow (each growth copies both).
    pub fn new(name: &str, is_closure: bool, ops: usize) -> Self {
        FnState {
            proto: Proto {
                name: name.to_string(),
                is_closure,
                code: Vec::with_capacity(ops),
                lines: Vec::with_capacity(ops),
                ..Proto::default()
            },
            scopes: vec![Vec::new()],
            next_reg: 0,
            peak: 0,
            loops: Vec::new(),
            tries: Vec::new(),
            self_name: None,
            self_reg: None,
            self_read: std::cell::Cell::new(false),
            self_load_at: 0,
            defers: Vec::new(),
            defers_seen: 0,
            result_block: None,
            body_block: None,
            frame_result: None,
            str_index: rustc_hash::FxHashMap::default(),
            num_index: rustc_hash::FxHashMap::default(),
            indexed: 0,
        }
    }

    /// Where a constant equal to `probe` already is in the table.
    pub fn find_const(&mut self, probe: ConstProbe<'_>) -> Option<u16> {
        let consts = &self.proto.consts;
        if consts.len() <= SCAN_LIMIT {
            let i = match probe {
                // Length, then first and last byte, before the bytes themselves: a
                // table's names are short and often of one length, and a `memcmp`
                // call for each of them cost more than the whole scan otherwise does.
                ConstProbe::Str(text) => consts.iter().position(|c| match c {
                    Const::Str(s) => {
                        let (a, b) = (s.as_bytes(), text.as_bytes());
                        a.len() == b.len()
                            && a.first() == b.first()
                            && a.last() == b.last()
                            && a == b
                    }
                    _ => false,
                })?,
                ConstProbe::Num(..) => consts.iter().position(|c| ConstProbe::of(c) == probe)?,
            };
            return u16::try_from(i).ok();
        }
        while let Some(k) = consts.get(self.indexed) {
            let at = u16::try_from(self.indexed).unwrap_or(u16::MAX);
            match ConstProbe::of(k) {
                ConstProbe::Str(text) => self.str_index.entry(text.into()).or_insert(at),
                ConstProbe::Num(kind, bits) => self.num_index.entry((kind, bits)).or_insert(at),
            };
            self.indexed += 1;
        }
        match probe {
            ConstProbe::Str(text) => self.str_index.get(text),
            ConstProbe::Num(kind, bits) => self.num_index.get(&(kind, bits)),
        }
        .copied()
    }

    pub fn alloc(&mut self) -> u16 {
        let r = self.next_reg;
        self.next_reg = self.next_reg.saturating_add(1);
        if self.next_reg > self.proto.max_regs {
            self.proto.max_regs = self.next_reg;
        }
        self.peak = self.peak.max(self.next_reg);
        r
    }

    /// Starts measuring the registers used from here; returns the peak so far, for
    /// [`Self::restore_peak`].
    pub fn reset_peak(&mut self) -> u16 {
        std::mem::replace(&mut self.peak, self.next_reg)
    }

    /// The peak since [`Self::reset_peak`]; the measure then goes on from `before`.
    pub fn restore_peak(&mut self, before: u16) -> u16 {
        let during = self.peak;
        self.peak = before.max(during);
        during
    }

    /// `n` consecutive registers; returns the first.
    pub fn alloc_n(&mut self, n: u16) -> u16 {
        let first = self.next_reg;
        for _ in 0..n {
            self.alloc();
        }
        first
    }

    pub fn declare(&mut self, name: &str, mutable: bool) -> u16 {
        self.note_name(name);
        let reg = self.alloc();
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(Local {
                name: crate::ast::name_of(name),
                reg,
                mutable,
                owned: true,
                try_depth: self.tries.len(),
            });
        }
        reg
    }

    /// Names a register this scope allocated (it is released with the scope).
    pub fn adopt(&mut self, name: &str, reg: u16, mutable: bool) {
        self.bind(name, reg, mutable);
        if let Some(l) = self.scopes.last_mut().and_then(|s| s.last_mut()) {
            l.owned = true;
        }
    }

    /// Gives a name to an existing register owned elsewhere (a catch variable).
    pub fn bind(&mut self, name: &str, reg: u16, mutable: bool) {
        self.note_name(name);
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(Local {
                name: crate::ast::name_of(name),
                reg,
                mutable,
                owned: false,
                try_depth: self.tries.len(),
            });
        }
    }

    fn note_name(&mut self, name: &str) {
        if !self.proto.local_names.iter().any(|n| n == name) {
            self.proto.local_names.push(crate::ast::name_of(name));
        }
    }

    /// The innermost local named `name`. Finding the self binding counts as reading it.
    pub fn lookup(&self, name: &str) -> Option<&Local> {
        let found = self.lookup_quiet(name);
        if found.is_some_and(|l| Some(l.reg) == self.self_reg) {
            self.self_read.set(true);
        }
        found
    }

    pub fn lookup_quiet(&self, name: &str) -> Option<&Local> {
        self.scopes
            .iter()
            .rev()
            .find_map(|scope| scope.iter().rev().find(|l| l.name == name))
    }

    /// Whether `name` resolves to the function's own (immutable) self binding.
    pub fn is_self(&self, name: &str) -> bool {
        self.self_reg.is_some() && self.lookup_quiet(name).map(|l| l.reg) == self.self_reg
    }

    /// Drops the entry `LoadSelf` when nothing read the self register. Nothing before
    /// it jumps, and later jumps are relative, so removing it moves nothing else.
    pub fn drop_unread_self(&mut self) {
        let at = self.self_load_at;
        if self.self_reg.is_some()
            && !self.self_read.get()
            && matches!(self.proto.code.get(at), Some(Op::LoadSelf { .. }))
        {
            self.proto.code.remove(at);
            self.proto.lines.remove(at);
        }
    }

    /// Whether `name` is declared in the innermost scope.
    pub fn in_current_scope(&self, name: &str) -> Option<&Local> {
        self.scopes
            .last()
            .and_then(|scope| scope.iter().rev().find(|l| l.name == name))
    }

    pub fn push_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    /// Closes a scope and frees its registers (registers are allocated stack-wise).
    pub fn pop_scope(&mut self) {
        if let Some(scope) = self.scopes.pop()
            && let Some(first) = scope.iter().filter(|l| l.owned).map(|l| l.reg).min()
        {
            self.next_reg = self.next_reg.min(first);
        }
    }

    pub fn add_capture(&mut self, name: &str, from: CaptureFrom, mutable: bool) -> u16 {
        let reg = self.alloc();
        self.proto.captures.push(Capture {
            name: name.to_string(),
            from,
            reg,
        });
        self.adopt(name, reg, mutable);
        reg
    }

    pub fn emit(&mut self, op: Op, line: u32) -> usize {
        self.proto.code.push(op);
        self.proto.lines.push(line);
        self.proto.code.len() - 1
    }

    pub fn here(&self) -> usize {
        self.proto.code.len()
    }
}
