//! The AST to bytecode compiler.
//!
//! One [`FnState`] per function being compiled (a stack: closures nest). Locals live
//! in registers; temporaries are allocated above them and released at the end of each
//! statement. Capture is by value: before a function body is compiled, the names it
//! uses that are visible as locals of the enclosing function become captures, copied
//! into the closure when it is created and into registers at each call. Top-level `fn`
//! and `struct` declarations are globals (defined when execution reaches them), so
//! calls between top-level functions resolve at call time.

mod expr;
mod moves;
pub(crate) mod names;
mod pattern;
mod schema;
mod scope;
mod stmt;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::ast::{Block, Name, Program, Span, Stmt, StmtKind};
use crate::bytecode::{Const, Op, Proto};
use crate::source::LineIndex;
use scope::ConstProbe;
use scope::FnState;

/// A compile error: `Compile error at line N: <message>`, at the span of the statement
/// or expression being compiled.
#[derive(Clone, Debug, PartialEq)]
pub struct CompileError {
    pub message: String,
    pub line: u32,
    pub span: Span,
}

impl CompileError {
    pub fn to_diagnostic(&self) -> crate::diagnostic::Diagnostic {
        crate::diagnostic::Diagnostic::error(
            crate::diagnostic::codes::COMPILE,
            &self.message,
            self.span,
            "cannot be compiled",
        )
    }
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Compile error at line {}: {}", self.line, self.message)
    }
}

pub(crate) type CResult<T> = Result<T, CompileError>;

pub(crate) struct Compiler<'a> {
    fns: Vec<FnState<'a>>,
    index: LineIndex,
    line: u32,
    /// The span of the statement or expression being compiled (for errors).
    span: Span,
    /// Errors found so far: compilation goes on after one, so every error is reported.
    errors: Vec<CompileError>,
    globals: Vec<Name>,
    global_index: HashMap<Name, u16>,
    /// Declared enums and their variants (including the builtin `Result`).
    enums: HashMap<Name, Vec<Name>>,
    structs: HashSet<Name>,
    /// Each struct's fields with a default value (`struct P { x: int = 3 }`), filled in
    /// when a construction leaves them out.
    struct_defaults: HashMap<String, Vec<(&'a str, &'a crate::ast::Expr)>>,
    /// Global slots that mirror a top-level `let` (`mirror_late_lets`).
    mirrored: HashSet<u16>,
    /// `type` aliases lowered to schema literals (read as values, they are schemas).
    schemas: &'a HashMap<String, crate::ast::Expr>,
    /// `state.op(...)` is a state operation (a snippet whose manifest grants state).
    state_ops: bool,
    /// Whether a per-function limit (constants, registers) has been reported: once is
    /// enough, the program is refused either way.
    limit_reported: bool,
    /// Set just before an expression is compiled into a register that holds nothing
    /// yet and is the topmost one (a call argument, a temporary): a call compiled
    /// there can use it as its window's base, so its result lands in place.
    fresh_dst: Option<u16>,
    /// A call argument to take from its local's register instead of copying it, and
    /// that register (`moves.rs`).
    move_arg: Option<(&'a crate::ast::Expr, u16)>,
    /// A literal that consumes a local it also reads after its leading spread or first
    /// part (`moves.rs`), named by the address of its items, and that local's register:
    /// emptied just before the literal's one store, once everything it reads is read.
    clear_late: Option<(*const (), u16)>,
    /// A method call whose receiver `moves.rs` moves into it, and the move: a field of
    /// a local in a frame-ending record literal (`consuming_record`).
    record_move: Option<(*const crate::ast::Expr, moves::Moved<'a>)>,
    /// A call's argument that consumes the named local (`moves::consuming_call`),
    /// compiled through `consuming_call` when `expr_into` reaches it.
    consume_arg: Option<(*const crate::ast::Expr, &'a str)>,
    /// While the second statement of a binding-then-store pair compiles, the local the
    /// first bound and the element it was read from (`moves::ItemAlias`).
    item_alias: Option<moves::ItemAlias<'a>>,
}

/// Compiles a parsed program into its root prototype, or reports every compile error.
pub fn compile_program(program: &Program, source: &str) -> Result<Proto, Vec<CompileError>> {
    compile_program_with(program, source, false)
}

/// [`compile_program`] for a code-mode snippet: with `state_ops` (the manifest grants
/// state, `code-mode.md` 1.14), `state.op(key, value)` on the undeclared name `state`
/// becomes a governed `__composition_call("state.op", {key, value})`.
pub fn compile_program_with(
    program: &Program,
    source: &str,
    state_ops: bool,
) -> Result<Proto, Vec<CompileError>> {
    let schemas = schema::alias_schemas(&program.items);
    let mut c = Compiler {
        // About four instructions per top-level item, at least a few dozen.
        fns: vec![FnState::new("", false, 32 + 4 * program.items.len())],
        index: LineIndex::lines_only(source),
        line: 1,
        span: Span::new(0, 0),
        errors: Vec::new(),
        globals: Vec::new(),
        global_index: HashMap::default(),
        enums: HashMap::from_iter([(Name::new_static("Result"), vec!["Ok".into(), "Err".into()])]),
        structs: HashSet::default(),
        struct_defaults: HashMap::default(),
        schemas: &schemas,
        mirrored: HashSet::default(),
        state_ops,
        limit_reported: false,
        fresh_dst: None,
        move_arg: None,
        clear_late: None,
        record_move: None,
        consume_arg: None,
        item_alias: None,
    };
    c.collect_declarations(&program.items);
    let pipelines: Vec<&crate::ast::PipelineDecl> = program
        .items
        .iter()
        .filter_map(|s| match &s.kind {
            StmtKind::Pipeline(p) => Some(&**p),
            _ => None,
        })
        .collect();
    if pipelines.is_empty() {
        c.mirror_late_lets(&program.items);
        c.setup_defers(&program.items);
        c.script(&program.items).map_err(|e| vec![e])?;
    } else {
        if let Some(entry) = pipelines
            .iter()
            .find(|p| p.name.name == "default")
            .or_else(|| pipelines.first())
        {
            c.setup_defers(&entry.body.stmts);
        }
        c.pipeline_mode(&program.items, &pipelines)
            .map_err(|e| vec![e])?;
    }
    c.run_defers().map_err(|e| vec![e])?;
    if !c.errors.is_empty() {
        return Err(c.errors);
    }
    let line = c.line;
    let r = c.cur().alloc();
    c.cur().emit(Op::LoadNil { dst: r }, line);
    c.cur().emit(Op::Return { src: r }, line);
    let mut root = c.fns.pop().map(|f| f.proto).unwrap_or_default();
    root.globals = c.globals;
    Ok(root)
}

impl<'a> Compiler<'a> {
    pub(crate) fn cur(&mut self) -> &mut FnState<'a> {
        let last = self.fns.len() - 1;
        &mut self.fns[last]
    }

    pub(crate) fn cur_ref(&self) -> &FnState<'a> {
        &self.fns[self.fns.len() - 1]
    }

    pub(crate) fn set_line(&mut self, span: Span) {
        self.span = span;
        let line = self
            .index
            .line_near(span.start as usize, self.line as usize);
        self.line = u32::try_from(line).unwrap_or(u32::MAX);
    }

    /// Records an error at the current span; the caller goes on as if the construct
    /// compiled to nothing (the program is refused as a whole).
    pub(crate) fn record_error(&mut self, message: impl Into<String>) {
        self.errors.push(CompileError {
            message: message.into(),
            line: self.line,
            span: self.span,
        });
    }

    pub(crate) fn emit(&mut self, op: Op) -> usize {
        let line = self.line;
        self.cur().emit(op, line)
    }

    pub(crate) fn konst(&mut self, k: Const) -> u16 {
        let probe = match &k {
            Const::Str(text) => return self.str_const(text),
            other => ConstProbe::of(other),
        };
        if let Some(i) = self.cur().find_const(probe) {
            return i;
        }
        self.push_const(k).unwrap_or(0)
    }

    pub(crate) fn str_const(&mut self, s: &str) -> u16 {
        if let Some(i) = self.cur().find_const(ConstProbe::Str(s)) {
            return i;
        }
        self.push_const(Const::Str(std::rc::Rc::new(s.to_string())))
            .unwrap_or(0)
    }

    /// Appends a constant the caller has not found in the table; `None` (and the limit
    /// reported) when the table is full.
    fn push_const(&mut self, k: Const) -> Option<u16> {
        let consts = &mut self.cur().proto.consts;
        match u16::try_from(consts.len()) {
            Ok(i) if i < u16::MAX => {
                consts.push(k);
                Some(i)
            }
            _ => {
                self.limit_exceeded("constants in one function", usize::from(u16::MAX));
                None
            }
        }
    }

    /// Reports (once) that one function needs more of something than an instruction
    /// operand can name. The program is refused, so the operand given back is moot.
    pub(crate) fn limit_exceeded(&mut self, what: &str, limit: usize) {
        if !self.limit_reported {
            self.limit_reported = true;
            self.record_error(format!(
                "Too many {what} (the limit is {limit}); split it up"
            ));
        }
    }

    /// `n` consecutive registers for a call's arguments or a literal's items; returns
    /// the first.
    pub(crate) fn alloc_n(&mut self, n: usize) -> u16 {
        let count = u16::try_from(n).unwrap_or(u16::MAX);
        let first = self.cur().alloc_n(count);
        self.check_registers();
        first
    }

    /// `n` as a 16-bit operand (an element index, a count, a child function), or the
    /// limit reported (once) when it does not fit.
    pub(crate) fn operand(&mut self, n: usize, what: &str) -> u16 {
        match u16::try_from(n) {
            Ok(v) if v < u16::MAX => v,
            _ => {
                self.limit_exceeded(what, usize::from(u16::MAX) - 1);
                0
            }
        }
    }

    /// Register `first + i` of a block from [`Compiler::alloc_n`].
    pub(crate) fn nth(first: u16, i: usize) -> u16 {
        first.saturating_add(u16::try_from(i).unwrap_or(u16::MAX))
    }

    fn check_registers(&mut self) {
        if self.cur_ref().next_reg == u16::MAX {
            self.limit_exceeded("registers in one function", usize::from(u16::MAX) - 1);
        }
    }

    pub(crate) fn alloc(&mut self) -> u16 {
        let r = self.cur().alloc();
        self.check_registers();
        r
    }

    pub(crate) fn here(&self) -> usize {
        self.cur_ref().here()
    }

    /// Sets the jump at `at` to land on the current position.
    pub(crate) fn patch(&mut self, at: usize) {
        let target = self.here();
        self.patch_to(at, target);
    }

    pub(crate) fn patch_to(&mut self, at: usize, target: usize) {
        let offset = i32::try_from(target as i64 - at as i64 - 1).unwrap_or(0);
        if let Some(
            Op::Jump { offset: o }
            | Op::JumpIfFalse { offset: o, .. }
            | Op::JumpIfTrue { offset: o, .. }
            | Op::JumpIfNotNil { offset: o, .. }
            | Op::JumpIfNotLt { offset: o, .. }
            | Op::JumpIfNotLtImm { offset: o, .. }
            | Op::JumpIfNot { offset: o, .. }
            | Op::JumpIfNotImm { offset: o, .. }
            | Op::JumpIfNotK { offset: o, .. }
            | Op::ForPrep { offset: o, .. }
            | Op::ForLoop { offset: o, .. }
            | Op::TryBegin { offset: o, .. }
            | Op::JumpIfArgGiven { offset: o, .. },
        ) = self.cur().proto.code.get_mut(at)
        {
            *o = offset;
        }
    }

    pub(crate) fn global_slot(&mut self, name: &str) -> u16 {
        if let Some(&slot) = self.global_index.get(name) {
            return slot;
        }
        let slot = match u16::try_from(self.globals.len()) {
            Ok(slot) if slot < u16::MAX => slot,
            _ => {
                self.limit_exceeded("top-level names in one program", usize::from(u16::MAX));
                return 0;
            }
        };
        let name = crate::ast::name_of(name);
        self.globals.push(name.clone());
        self.global_index.insert(name, slot);
        slot
    }

    /// Enums and structs (declared anywhere: `E.V` and `Name { }` work anywhere in the
    /// file) and top-level functions (globals), known before any code is compiled.
    fn collect_declarations(&mut self, items: &'a [Stmt]) {
        for item in items {
            if let StmtKind::Fn(f) = &item.kind {
                self.global_slot(&f.name.name);
            }
        }
        self.collect_types(items);
    }

    /// Script mode: a top-level `let` named inside a top-level `fn` body is also kept
    /// as a global. Inside a `fn` declared above the `let` the name is not visible, and
    /// a call through it is resolved when the call runs (6.2): the global is defined
    /// once the `let` has run, and before that the call is `Undefined builtin`.
    fn mirror_late_lets(&mut self, items: &[Stmt]) {
        let mut used = HashSet::default();
        for item in items {
            if let StmtKind::Fn(f) = &item.kind {
                names::names_in_block(&f.body, &mut used);
            }
        }
        for item in items {
            if let StmtKind::Let {
                kind: crate::ast::BindingKind::Let,
                pattern: crate::ast::Pattern::Ident(id),
                ..
            } = &item.kind
                && used.contains(id.name.as_str())
                && !self.global_index.contains_key(id.name.as_str())
            {
                let slot = self.global_slot(&id.name);
                self.mirrored.insert(slot);
            }
        }
    }

    fn collect_types(&mut self, stmts: &'a [Stmt]) {
        for item in stmts {
            match &item.kind {
                StmtKind::Enum(e) => {
                    let variants = e.variants.iter().map(|v| v.name.name.clone()).collect();
                    self.enums.insert(e.name.name.clone(), variants);
                }
                StmtKind::Struct(s) => {
                    self.structs.insert(s.name.name.clone());
                    let defaults: Vec<_> = s
                        .fields
                        .iter()
                        .filter_map(|f| f.default.as_ref().map(|d| (f.name.name.as_str(), d)))
                        .collect();
                    if !defaults.is_empty() {
                        self.struct_defaults
                            .insert(s.name.name.to_string(), defaults);
                    }
                }
                StmtKind::Fn(f) | StmtKind::Override(f) => self.collect_types(&f.body.stmts),
                StmtKind::Pipeline(p) => self.collect_types(&p.body.stmts),
                StmtKind::Impl(i) => {
                    for m in &i.methods {
                        self.collect_types(&m.body.stmts);
                    }
                }
                _ => {}
            }
        }
    }

    fn script(&mut self, items: &'a [Stmt]) -> CResult<()> {
        for item in items {
            self.stmt(item, true)?;
        }
        // The reference's entry point `fn main(harness)`: called once the script's own
        // statements have run. Only that shape is an entry point, so a script's own
        // `main()` is left to the script.
        let entry = items.iter().any(|s| {
            matches!(&s.kind, StmtKind::Fn(f) if f.name.name == "main"
                && f.params.len() == 1 && f.params[0].name.name == "harness")
        });
        if entry {
            let r = self.cur().alloc();
            self.call("main", expr::CallArgs::List(&[]), r, false)?;
        }
        Ok(())
    }

    /// Pipeline mode (`language.md` 1.5): top-level `let`/`var` in order, then every
    /// declaration, then the entry pipeline's body (its parent's body first).
    fn pipeline_mode(
        &mut self,
        items: &'a [Stmt],
        pipelines: &[&'a crate::ast::PipelineDecl],
    ) -> CResult<()> {
        for item in items {
            if matches!(item.kind, StmtKind::Let { .. }) {
                self.stmt(item, true)?;
            }
        }
        for item in items {
            if matches!(
                item.kind,
                StmtKind::Fn(_)
                    | StmtKind::Struct(_)
                    | StmtKind::Enum(_)
                    | StmtKind::Impl(_)
                    | StmtKind::Interface(_)
                    | StmtKind::TypeAlias(_)
                    | StmtKind::Tool(_)
                    | StmtKind::Skill(_)
                    | StmtKind::EvalPack(_)
            ) {
                self.stmt(item, true)?;
            }
        }
        let entry = pipelines
            .iter()
            .find(|p| p.name.name == "default")
            .or_else(|| pipelines.first());
        if let Some(entry) = entry {
            let mut chain: Vec<&Block> = Vec::new();
            let mut current = Some(*entry);
            let mut guard = 0;
            while let Some(p) = current {
                chain.push(&p.body);
                guard += 1;
                current = p.extends.as_ref().and_then(|parent| {
                    pipelines
                        .iter()
                        .find(|q| q.name.name == parent.name)
                        .copied()
                });
                if guard > pipelines.len() {
                    break;
                }
            }
            self.cur().push_scope();
            // The reference passes its capability object as a `harness` parameter; its
            // calls are compiled to builtin calls, so the name itself holds nil.
            if entry.params.iter().any(|p| p.name == "harness") {
                let line = self.line;
                let r = self.cur().declare("harness", false);
                self.cur().emit(Op::LoadNil { dst: r }, line);
            }
            for body in chain.iter().rev() {
                for s in &body.stmts {
                    self.stmt(s, false)?;
                }
            }
            self.cur().pop_scope();
        }
        Ok(())
    }
}
