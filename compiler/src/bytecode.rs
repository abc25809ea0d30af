//! The Harn bytecode: instruction set, function prototypes and the disassembler.
//!
//! # Format (version 8)
//!
//! A program is a tree of [`Proto`]s (function prototypes); the root is the program's
//! entry (script body, or top-level lets + declarations + entry pipeline). Each proto has
//! a flat `code` array of [`Op`]s, a parallel `lines` array (source line of each
//! instruction), a constant pool, and its nested protos.
//!
//! The machine is register based. A call frame is a window of `max_regs` slots on one
//! value stack: parameters occupy registers `0..params`, captured variables the next
//! `captures.len()` registers (copied in at each call: capture is by value), then
//! locals and temporaries. Operand names: `dst`/`a`/`b`/`src` are registers (u16),
//! `k` a constant-pool index (u16), `proto` an index into `children`, `slot` a global
//! slot, `offset` a jump distance in instructions relative to the *next* instruction.
//!
//! Limits: 65,535 registers, constants, globals and nested protos per function; jumps
//! of ±2^31 instructions. The compiler reports an error rather than exceed them.
//!
//! Calls place the callee value at `base` and arguments in `base+1..`; the result
//! replaces the callee at `base`. `CallSelf` (direct recursion) leaves `base` empty: the
//! callee is the running closure. Version 2 added `CallSelf`,
//! `CallLocal` and `SubInt`, and `Proto::local_names`; version 6 added `TailSelf`;
//! version 7 made `CallLocal` read its callee from the local's own register (`src`),
//! gave `NewDict` the number of entries to make room for (`cap`) and added `MulInt`;
//! version 8 added `SetNested`; version 9 added `TakeItem`; version 10 added `ClearRegs`; version 11 added
//! `JumpIfNotK`.

use crate::ast::Name;
use std::fmt::Write as _;

mod registers;

/// Bytecode format version; bumped on any incompatible change to [`Op`].
pub const FORMAT_VERSION: u32 = 11;

/// The operands of [`Op::SetNested`]: `obj[outer][inner] = src`, where either key is a
/// register holding a subscript or, when its bit of `fields` is set, the constant of a
/// field name. Registers `src + 1 ..= src + clear` (the right-hand side's temporaries)
/// are emptied first, so that none of them still shares the nested container.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NestedStore {
    pub obj: u16,
    pub outer: u16,
    pub inner: u16,
    pub src: u16,
    fields: u8,
    pub clear: u8,
}

impl NestedStore {
    const OUTER_FIELD: u8 = 1;
    const INNER_FIELD: u8 = 2;

    /// Each key as its operand and whether that operand is a field-name constant.
    pub fn new(obj: u16, outer: (u16, bool), inner: (u16, bool), src: u16, clear: u8) -> Self {
        let bit = |(_, field): (u16, bool), b: u8| if field { b } else { 0 };
        NestedStore {
            obj,
            outer: outer.0,
            inner: inner.0,
            src,
            fields: bit(outer, Self::OUTER_FIELD) | bit(inner, Self::INNER_FIELD),
            clear,
        }
    }

    pub fn outer_is_field(&self) -> bool {
        self.fields & Self::OUTER_FIELD != 0
    }

    pub fn inner_is_field(&self) -> bool {
        self.fields & Self::INNER_FIELD != 0
    }
}

impl Op {
    /// The jump distance of a jumping instruction (relative to the next instruction).
    pub fn jump_offset(&self) -> Option<i32> {
        match self {
            Op::Jump { offset }
            | Op::JumpIfFalse { offset, .. }
            | Op::JumpIfTrue { offset, .. }
            | Op::JumpIfNotNil { offset, .. }
            | Op::JumpIfNotLt { offset, .. }
            | Op::JumpIfNotLtImm { offset, .. }
            | Op::JumpIfNot { offset, .. }
            | Op::JumpIfNotImm { offset, .. }
            | Op::JumpIfNotK { offset, .. }
            | Op::ForPrep { offset, .. }
            | Op::ForLoop { offset, .. }
            | Op::TryBegin { offset, .. }
            | Op::JumpIfArgGiven { offset, .. } => Some(*offset),
            _ => None,
        }
    }

    /// Whether execution never goes on to the next instruction after this one: it
    /// returns, jumps, or raises.
    pub fn never_falls_through(&self) -> bool {
        matches!(
            self,
            Op::Return { .. }
                | Op::TailCall { .. }
                | Op::TailSelf { .. }
                | Op::Jump { .. }
                | Op::Throw { .. }
                | Op::Rethrow { .. }
                | Op::NoMatch
                | Op::Unreachable
                | Op::ImmutableError { .. }
                | Op::UndefinedError { .. }
                | Op::RedeclareError { .. }
        )
    }
}

impl Proto {
    /// Whether control cannot leave this function's code except by its instructions:
    /// every jump lands on an instruction, and the last instruction never falls through.
    /// Then every position execution reaches is inside `code`; the VM's loop fast lane
    /// runs only closed code, and fetches without a bounds check.
    pub fn is_closed(&self) -> bool {
        let len = self.code.len() as i64;
        let lands = self.code.iter().enumerate().all(|(at, op)| {
            op.jump_offset()
                .is_none_or(|offset| (0..len).contains(&(at as i64 + 1 + i64::from(offset))))
        });
        lands && self.code.last().is_some_and(Op::never_falls_through)
    }
}

/// A compile-time constant.
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    Int(i64),
    Float(f64),
    /// Shared, so that loading a program hands each string constant to the VM as it
    /// is (the VM's strings are `Rc<String>` too) instead of copying it into two new
    /// allocations on every run.
    Str(std::rc::Rc<String>),
    Duration(i64),
}

/// Where a closure's captured variable is copied from when the closure is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaptureFrom {
    /// A register of the creating frame.
    Register(u16),
    /// A global slot (top-level binding); undefined globals capture as "undefined".
    Global(u16),
}

/// A captured variable: its name, where it comes from in the creating frame, and the
/// register it is copied into at each call.
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    pub name: String,
    pub from: CaptureFrom,
    pub reg: u16,
}

/// Declared type of a parameter, checked at call time (`language.md` 6.2).
#[derive(Clone, Debug, PartialEq)]
pub enum ParamCheck {
    None,
    /// Simple types and unions of them (`int`, `string|nil`).
    Simple(Vec<String>),
    /// `list<T>` of a simple element type.
    ListOf(String),
    /// A shape: required and optional fields with simple types.
    Shape(Vec<(String, bool, String)>),
    /// A union of string and int literals (`"fast" | "slow"`, `0 | 1`).
    Literals(Vec<ParamLiteral>),
}

/// One member of a literal-union parameter type.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamLiteral {
    Str(String),
    Int(i64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ParamInfo {
    pub name: String,
    pub check: ParamCheck,
    /// Register holding the default-value thunk result is computed by code at
    /// `default_pc` when the argument is omitted (`None`: no default).
    pub default_pc: Option<u32>,
    pub rest: bool,
}

/// A compiled function.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Proto {
    pub name: String,
    pub params: Vec<ParamInfo>,
    /// Parameter names, for `<fn(a, b)>` display.
    pub param_names: Vec<Name>,
    pub captures: Vec<Capture>,
    /// Closures return their last expression; `fn` declarations return `nil`.
    pub is_closure: bool,
    /// The body contains `yield`: calling the function makes a generator.
    pub is_generator: bool,
    pub max_regs: u16,
    pub code: Vec<Op>,
    pub lines: Vec<u32>,
    pub consts: Vec<Const>,
    /// Shared, so loading a program never copies a nested prototype.
    pub children: Vec<std::rc::Rc<Proto>>,
    /// Names of the program's global slots (root proto only).
    pub globals: Vec<Name>,
    /// Every name declared in the function (parameters, locals, captures), for the
    /// "did you mean" of a run-time `Undefined builtin`.
    pub local_names: Vec<Name>,
}

/// The comparison a fused compare-and-branch ([`Op::JumpIfNot`]) tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl std::fmt::Display for Cmp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        })
    }
}

/// One instruction. See the module docs for operand conventions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    // ---- loads and moves ----
    LoadNil {
        dst: u16,
    },
    LoadBool {
        dst: u16,
        value: bool,
    },
    LoadInt {
        dst: u16,
        value: i32,
    },
    LoadConst {
        dst: u16,
        k: u16,
    },
    /// The builtin named by constant `k` as a value; if there is none, `Undefined
    /// variable` with the message in constant `msg_k`.
    LoadBuiltin {
        dst: u16,
        k: u16,
        msg_k: u16,
    },
    Move {
        dst: u16,
        src: u16,
    },
    /// `len(src)` as the core builtin answers it, without a call: `len` is installed in
    /// every profile, and a loop condition such as `i < len(xs)` runs it each time.
    Len {
        dst: u16,
        src: u16,
    },
    /// Move and leave `nil` behind (lets a uniquely owned collection be updated in place).
    Take {
        dst: u16,
        src: u16,
    },
    // ---- globals (top-level bindings) ----
    GetGlobal {
        dst: u16,
        slot: u16,
    },
    SetGlobal {
        slot: u16,
        src: u16,
    },
    /// Fails with `Cannot assign to immutable binding` if the global is a `let`.
    AssignGlobal {
        slot: u16,
        src: u16,
    },
    /// Defines a global as immutable (`let`, `fn`) or mutable (`var`).
    DefineGlobal {
        slot: u16,
        src: u16,
        mutable: bool,
    },
    // ---- closures ----
    MakeClosure {
        dst: u16,
        proto: u16,
    },
    /// The closure of the running frame (a named function's reference to itself).
    LoadSelf {
        dst: u16,
    },
    // ---- arithmetic and logic ----
    Add {
        dst: u16,
        a: u16,
        b: u16,
    },
    Sub {
        dst: u16,
        a: u16,
        b: u16,
    },
    Mul {
        dst: u16,
        a: u16,
        b: u16,
    },
    Div {
        dst: u16,
        a: u16,
        b: u16,
    },
    Mod {
        dst: u16,
        a: u16,
        b: u16,
    },
    Pow {
        dst: u16,
        a: u16,
        b: u16,
    },
    /// `a + imm` for a small integer constant.
    AddInt {
        dst: u16,
        a: u16,
        imm: i16,
    },
    /// `a - imm` for a small integer constant (its own op so a failure says "subtract").
    SubInt {
        dst: u16,
        a: u16,
        imm: i16,
    },
    /// `a * imm` for a small integer constant (`x * 2`, `i * 3`): one instruction where a
    /// register load and `Mul` were two.
    MulInt {
        dst: u16,
        a: u16,
        imm: i16,
    },
    /// `a % imm` for a small non-zero integer constant (`i % 100`, `x % 2`): one
    /// instruction where a register load and `Mod` were two.
    ModInt {
        dst: u16,
        a: u16,
        imm: i16,
    },
    /// `a <cmp> imm` as a bool, for an integer constant (`x % 2 == 0`, `x > 10`): the
    /// value form of `JumpIfNotImm`, with the same semantics as the comparison op.
    CmpInt {
        dst: u16,
        a: u16,
        cmp: Cmp,
        imm: i32,
    },
    Neg {
        dst: u16,
        src: u16,
    },
    Not {
        dst: u16,
        src: u16,
    },
    Eq {
        dst: u16,
        a: u16,
        b: u16,
    },
    Ne {
        dst: u16,
        a: u16,
        b: u16,
    },
    Lt {
        dst: u16,
        a: u16,
        b: u16,
    },
    Le {
        dst: u16,
        a: u16,
        b: u16,
    },
    Gt {
        dst: u16,
        a: u16,
        b: u16,
    },
    Ge {
        dst: u16,
        a: u16,
        b: u16,
    },
    In {
        dst: u16,
        a: u16,
        b: u16,
    },
    /// Truthiness as a bool (`&&`/`||` results).
    ToBool {
        dst: u16,
        src: u16,
    },
    // ---- control flow ----
    Jump {
        offset: i32,
    },
    JumpIfFalse {
        cond: u16,
        offset: i32,
    },
    JumpIfTrue {
        cond: u16,
        offset: i32,
    },
    JumpIfNotNil {
        src: u16,
        offset: i32,
    },
    /// Jumps unless `a < b`: [`Op::JumpIfNot`] for the loop bound, as an instruction of
    /// its own so the VM loops do not dispatch on the comparison a second time.
    JumpIfNotLt {
        a: u16,
        b: u16,
        offset: i32,
    },
    /// Jumps unless `a < imm` (the [`Op::JumpIfNotImm`] of `<`).
    JumpIfNotLtImm {
        a: u16,
        imm: i32,
        offset: i32,
    },
    /// Jumps unless `a cmp b` (a fused compare-and-branch: `if` and `while` conditions).
    JumpIfNot {
        cmp: Cmp,
        a: u16,
        b: u16,
        offset: i32,
    },
    /// Jumps unless `a cmp imm` (the right side a small integer literal).
    JumpIfNotImm {
        cmp: Cmp,
        a: u16,
        imm: i32,
        offset: i32,
    },
    // ---- calls ----
    /// Calls the value at `base` with `nargs` arguments after it.
    Call {
        base: u16,
        nargs: u16,
    },
    /// First instruction of a generator function: moves the new frame (its arguments)
    /// into a generator that will run the body from the instruction after the next one,
    /// and puts the generator in `dst` (the next instruction returns it).
    GenStart {
        dst: u16,
    },
    /// Inside a generator: hands `src` to the consumer and pauses; when resumed, `dst`
    /// (the value of the `yield` expression) is nil.
    Yield {
        dst: u16,
        src: u16,
    },
    /// Calls the local variable named by constant `k`, read where it lives (register
    /// `src`, not copied to `base` first: the copy was a whole instruction of a call
    /// through a local or a parameter); the result lands at `base`. A value that is not
    /// callable is `Undefined builtin: <name>` (7.8).
    CallLocal {
        base: u16,
        nargs: u16,
        k: u16,
        src: u16,
    },
    /// Calls the running closure itself (direct recursion) with `nargs` arguments after
    /// `base`; `base` receives the result and never holds the callee.
    CallSelf {
        base: u16,
        nargs: u16,
    },
    /// Calls a name not bound locally: the global `slot` if defined, else the builtin of
    /// the same name, else `Undefined builtin`.
    CallGlobal {
        base: u16,
        nargs: u16,
        slot: u16,
    },
    /// Calls the builtin whose name is constant `k` (resolved when the program loads).
    CallBuiltin {
        base: u16,
        nargs: u16,
        k: u16,
    },
    /// Calls method constant `k` on the receiver at `base`.
    CallMethod {
        base: u16,
        nargs: u16,
        k: u16,
        optional: bool,
    },
    /// Like the call forms, but the single argument list is the list in `base + 1`
    /// (spread calls): `kind` 0 = value, 1 = global slot `slot`, 2 = builtin `k`,
    /// 3 = method `k`.
    CallSpread {
        base: u16,
        kind: u8,
        slot: u16,
        k: u16,
    },
    /// `value |> f`: like `Call` with one argument, but a non-callable is
    /// `cannot pipe into <type>`.
    CallPipe {
        base: u16,
    },
    Return {
        src: u16,
    },
    /// `return f(args)`: like `Call` (`global` = None) or `CallGlobal`, but a closure
    /// callee replaces the current frame instead of growing the stack.
    TailCall {
        base: u16,
        nargs: u16,
        global: Option<u16>,
    },
    /// `return f(args)` inside `f` itself: `CallSelf` in tail position. The running
    /// closure is the callee, so nothing is loaded into `base` first; a plain function
    /// given every argument starts over in the same frame.
    TailSelf {
        base: u16,
        nargs: u16,
    },
    // ---- values ----
    /// A list of `count` registers starting at `start`.
    NewList {
        dst: u16,
        start: u16,
        count: u16,
    },
    ListPush {
        list: u16,
        src: u16,
    },
    /// Appends the items of a list (`...xs`); anything else is a destructure error.
    ListExtend {
        list: u16,
        src: u16,
    },
    /// An empty dict with room for `cap` entries (the named and computed pairs of a
    /// literal, so that building a record allocates its entries once).
    NewDict {
        dst: u16,
        cap: u16,
    },
    /// `dict[display(key)] = value`
    DictInsert {
        dict: u16,
        key: u16,
        value: u16,
    },
    DictSpread {
        dict: u16,
        src: u16,
    },
    /// Concatenates the display of `count` registers from `start`.
    Concat {
        dst: u16,
        start: u16,
        count: u16,
    },
    MakeRange {
        dst: u16,
        start: u16,
        end: u16,
        inclusive: bool,
    },
    /// `Enum.Variant(args...)` with `count` payload registers from `start`; constants
    /// `enum_k` and `variant_k` name it.
    MakeEnum {
        dst: u16,
        enum_k: u16,
        variant_k: u16,
        start: u16,
        count: u16,
    },
    /// `Name { ... }` from the dict in `fields`.
    MakeStruct {
        dst: u16,
        name_k: u16,
        fields: u16,
    },
    GetField {
        dst: u16,
        obj: u16,
        k: u16,
        optional: bool,
    },
    SetField {
        obj: u16,
        k: u16,
        src: u16,
    },
    GetIndex {
        dst: u16,
        obj: u16,
        index: u16,
        optional: bool,
    },
    SetIndex {
        obj: u16,
        index: u16,
        src: u16,
    },
    /// `obj[outer][inner] = src` ([`NestedStore`]): the nested container is updated
    /// inside its parent. Fetched into a register and written back, it was shared with
    /// the parent and copied whole by every assignment.
    SetNested(NestedStore),
    /// `obj[start:end]`; a `nil` bound means "from the start" / "to the end".
    Slice {
        dst: u16,
        obj: u16,
        start: u16,
        end: u16,
    },
    /// Registers method `closure` under struct name `type_k`, method name `name_k`.
    DefineMethod {
        type_k: u16,
        name_k: u16,
        closure: u16,
    },
    // ---- errors ----
    Throw {
        src: u16,
    },
    /// Installs a handler: an error jumps to `offset` with the caught value in `dst`.
    TryBegin {
        dst: u16,
        offset: i32,
    },
    TryEnd,
    /// Re-raises the error held in `src` (after a `finally` block ran).
    Rethrow {
        src: u16,
    },
    /// Postfix `?`: unwraps `Ok`, returns an `Err` from the function, type error else.
    Propagate {
        dst: u16,
        src: u16,
    },
    /// Bare `try { }`: wraps the value in `Ok` unless it already is a Result.
    WrapOk {
        dst: u16,
        src: u16,
    },
    WrapErr {
        dst: u16,
        src: u16,
    },
    /// `match` failure: throws `No match arm matched the value`.
    NoMatch,
    /// Checks a typed `catch (e: T)`: if `src` is not an enum named constant `k`,
    /// re-raises it.
    CatchFilter {
        src: u16,
        k: u16,
    },
    // ---- iteration ----
    /// Prepares `for` over `src` and loads the first element into `dst`, or jumps
    /// `offset` (past the loop) when there is none. `base` and `base + 1` hold the
    /// loop state: for an int range the next value and the end (both unboxed ints, a
    /// counted loop), otherwise the sequence and the position.
    ForPrep {
        base: u16,
        src: u16,
        dst: u16,
        offset: i32,
    },
    /// At the bottom of the loop: the next element into `dst` and a jump `offset` back
    /// to the body (charging one unit of fuel), or fall through when done.
    ForLoop {
        base: u16,
        dst: u16,
        offset: i32,
    },
    // ---- match patterns ----
    /// `dst = src is Enum.Variant` (constants `enum_k`, `variant_k`).
    IsVariant {
        dst: u16,
        src: u16,
        enum_k: u16,
        variant_k: u16,
    },
    /// `dst = payload field `index` of the enum in `src` (nil when absent).
    EnumField {
        dst: u16,
        src: u16,
        index: u16,
    },
    /// `dst = type_of(src) == <type>`: `type_code` 0 = dict, 1 = list.
    TypeIs {
        dst: u16,
        src: u16,
        type_code: u8,
    },
    /// `dst = len(src) >= n` (list patterns).
    LenAtLeast {
        dst: u16,
        src: u16,
        n: u16,
    },
    // ---- destructuring and checks ----
    /// Type error unless `src` is a dict (`kind` 0) or list (`kind` 1).
    CheckDestructure {
        src: u16,
        kind: u8,
    },
    /// `dst = src[k]` for dict patterns (missing → nil).
    DictGet {
        dst: u16,
        src: u16,
        k: u16,
    },
    /// `dst = src` without the keys listed in the list constant... (dict rest): the keys
    /// are the string registers `start..start+count`.
    DictRest {
        dst: u16,
        src: u16,
        start: u16,
        count: u16,
    },
    /// `dst = src[index]` for list patterns (missing → nil).
    ListGet {
        dst: u16,
        src: u16,
        index: u16,
    },
    /// `dst = src[from:]`
    ListRest {
        dst: u16,
        src: u16,
        from: u16,
    },
    /// Pair pattern: `first` (`which` 0) or `second` (1) of `src`.
    PairGet {
        dst: u16,
        src: u16,
        which: u8,
    },
    /// Sets the error message name for an immutable-binding assignment.
    ImmutableError {
        k: u16,
    },
    /// Undefined variable error for the name (with any suggestion) in constant `k`.
    UndefinedError {
        k: u16,
    },
    /// `Cannot redeclare immutable variable '<k>' in the same scope ...`
    RedeclareError {
        k: u16,
    },
    /// Jumps unless argument `index` was omitted by the caller (parameter defaults).
    JumpIfArgGiven {
        index: u16,
        offset: i32,
    },
    /// Never emitted by the compiler: the VM puts one after every function's code, and
    /// runs it alone in place of code that is not closed ([`Proto::is_closed`]), so
    /// running past the end of a function stops with an error there.
    Unreachable,
    Nop,
    // Last, so that adding it renumbered no other instruction.
    /// `dst = obj.k` (`field`, `key` a constant) or `dst = obj[key]`, the element moved
    /// out and nil left in its place, for a call that consumes it
    /// (`st.items = st.items.push(x)`: the statement then stores the result back).
    TakeItem {
        dst: u16,
        obj: u16,
        key: u16,
        field: bool,
    },
    /// Empties registers `start .. start + count`: free temporaries that an earlier
    /// statement, or the same loop's last pass, may have left sharing an element the
    /// statement after this moves out to change in place (`if groups[k] == nil { .. }`
    /// then `groups[k] = groups[k].push(v)`). Shared, the element was copied by every
    /// change, and such a loop took time quadratic in the element's length.
    ClearRegs {
        start: u16,
        count: u16,
    },
    /// Jumps unless `a cmp k`, the right side the constant `k` (a string literal:
    /// `c == "a"`, `c >= "0"` in a scanning loop, a `match` arm's string pattern). One
    /// instruction where a `LoadConst` and `JumpIfNot` were two, and the constant is
    /// compared where it lives, with no count taken on it.
    JumpIfNotK {
        cmp: Cmp,
        a: u16,
        k: u16,
        offset: i32,
    },
}

impl Proto {
    /// A readable listing of this proto and its children.
    pub fn disassemble(&self) -> String {
        let mut out = String::new();
        self.disassemble_into(&mut out, "");
        out
    }

    fn disassemble_into(&self, out: &mut String, path: &str) {
        let name = match (self.name.is_empty(), path.is_empty()) {
            (false, _) => self.name.as_str(),
            (true, true) => "<main>",
            (true, false) => "<closure>",
        };
        let _ = writeln!(
            out,
            "fn {path}{name}({}) regs={} captures=[{}]",
            self.param_names.join(", "),
            self.max_regs,
            self.captures
                .iter()
                .map(|c| match c.from {
                    CaptureFrom::Register(r) => format!("{}=r{r}", c.name),
                    CaptureFrom::Global(g) => format!("{}=g{g}", c.name),
                })
                .collect::<Vec<_>>()
                .join(", ")
        );
        for (i, k) in self.consts.iter().enumerate() {
            let _ = writeln!(out, "  k{i} = {k:?}");
        }
        let mut last_line = 0;
        for (pc, op) in self.code.iter().enumerate() {
            let line = self.lines.get(pc).copied().unwrap_or(0);
            let line_col = if line != last_line {
                last_line = line;
                format!("{line:>4}")
            } else {
                "   |".to_string()
            };
            let _ = writeln!(out, "  {pc:>4} {line_col}  {}", self.op_text(pc, op));
        }
        for (i, child) in self.children.iter().enumerate() {
            out.push('\n');
            child.disassemble_into(out, &format!("{path}{name}/{i}:"));
        }
    }

    fn op_text(&self, pc: usize, op: &Op) -> String {
        let target = |offset: i32| pc as i64 + 1 + i64::from(offset);
        let k = |i: u16| match self.consts.get(i as usize) {
            Some(Const::Str(s)) => format!("{s:?}"),
            Some(c) => format!("{c:?}"),
            None => format!("k{i}?"),
        };
        match *op {
            Op::Jump { offset } => format!("Jump -> {}", target(offset)),
            Op::JumpIfFalse { cond, offset } => {
                format!("JumpIfFalse r{cond} -> {}", target(offset))
            }
            Op::JumpIfTrue { cond, offset } => format!("JumpIfTrue r{cond} -> {}", target(offset)),
            Op::JumpIfNotNil { src, offset } => {
                format!("JumpIfNotNil r{src} -> {}", target(offset))
            }
            Op::JumpIfNotLt { a, b, offset } => {
                format!("JumpIfNotLt r{a} r{b} -> {}", target(offset))
            }
            Op::JumpIfNotLtImm { a, imm, offset } => {
                format!("JumpIfNotLtImm r{a} {imm} -> {}", target(offset))
            }
            Op::JumpIfNot { cmp, a, b, offset } => {
                format!("JumpIfNot r{a} {cmp} r{b} -> {}", target(offset))
            }
            Op::JumpIfNotImm {
                cmp,
                a,
                imm,
                offset,
            } => {
                format!("JumpIfNotImm r{a} {cmp} {imm} -> {}", target(offset))
            }
            Op::JumpIfNotK {
                cmp,
                a,
                k: c,
                offset,
            } => {
                format!("JumpIfNotK r{a} {cmp} {} -> {}", k(c), target(offset))
            }
            Op::ForPrep {
                base,
                src,
                dst,
                offset,
            } => {
                format!(
                    "ForPrep r{base} over r{src} -> r{dst} else -> {}",
                    target(offset)
                )
            }
            Op::ForLoop { base, dst, offset } => {
                format!("ForLoop r{base} -> r{dst} again -> {}", target(offset))
            }
            Op::TryBegin { dst, offset } => format!("TryBegin catch r{dst} -> {}", target(offset)),
            Op::LoadConst { dst, k: c } => format!("LoadConst r{dst} {}", k(c)),
            Op::CallBuiltin { base, nargs, k: c } => {
                format!("CallBuiltin r{base} {} nargs={nargs}", k(c))
            }
            Op::CallMethod {
                base,
                nargs,
                k: c,
                optional,
            } => format!(
                "CallMethod r{base} {}{} nargs={nargs}",
                if optional { "?." } else { "." },
                k(c)
            ),
            Op::GetField {
                dst,
                obj,
                k: c,
                optional,
            } => format!(
                "GetField r{dst} r{obj}{}{}",
                if optional { "?." } else { "." },
                k(c)
            ),
            Op::SetField { obj, k: c, src } => format!("SetField r{obj}.{} r{src}", k(c)),
            Op::TakeItem {
                dst,
                obj,
                key,
                field,
            } => {
                if field {
                    format!("TakeItem r{dst} r{obj}.{}", k(key))
                } else {
                    format!("TakeItem r{dst} r{obj}[r{key}]")
                }
            }
            Op::ClearRegs { start, count } => {
                format!(
                    "ClearRegs r{start}..r{}",
                    u32::from(start) + u32::from(count)
                )
            }
            Op::SetNested(n) => {
                let key = |r: u16, field: bool| {
                    if field {
                        format!(".{}", k(r))
                    } else {
                        format!("[r{r}]")
                    }
                };
                format!(
                    "SetNested r{}{}{} r{} clear={}",
                    n.obj,
                    key(n.outer, n.outer_is_field()),
                    key(n.inner, n.inner_is_field()),
                    n.src,
                    n.clear
                )
            }
            other => format!("{other:?}"),
        }
    }
}
