//! The Harn abstract syntax tree.
//!
//! Every node carries a byte [`Span`] into the source it was parsed from. The tree is
//! produced by [`crate::parser`] even for broken input: nodes that could not be parsed
//! are represented by the `Error` variants, so later phases (the checker, the language
//! server) always have a tree to work on.

use std::fmt;

/// A half-open byte range `start..end` into the source text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        }
    }

    /// The smallest span covering both `self` and `other`.
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Moves the span right by `offset` bytes (used for string-interpolation holes, which
    /// are parsed from a substring of the file).
    pub fn shifted(self, offset: u32) -> Span {
        Span {
            start: self.start.saturating_add(offset),
            end: self.end.saturating_add(offset),
        }
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}..{}", self.start, self.end)
    }
}

/// The text of a name in the tree: names up to 23 bytes (nearly all) are stored inline,
/// so building a tree and copying its names into the checker's and compiler's tables
/// allocates nothing for them. It reads as a `&str` (`Deref`), compares with `&str` and
/// `String`, and prints like a `String`.
pub type Name = smol_str::SmolStr;

pub use crate::name_print::NamePrint;

/// A name for the tree. Short names are copied into the inline form byte by byte where
/// the name is built (`SmolStr::new` copied them into a buffer with `memcpy` and read
/// the buffer straight back, a load the processor cannot serve from the stores still in
/// flight: a tenth of a parse's time went to that wait).
#[inline]
pub fn name_of(text: &str) -> Name {
    if text.len() <= 23 {
        Name::new_inline(text)
    } else {
        Name::new(text)
    }
}

/// A name as written in the source.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: Name,
    pub span: Span,
}

/// A whole source file: its top-level items in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub items: Vec<Stmt>,
    pub span: Span,
}

/// `{ stmt* }`
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

/// `@name` or `@name(args)` before a declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub name: Ident,
    pub args: Vec<AttrArg>,
    pub span: Span,
}

/// An attribute argument: `value` or `key: value`.
#[derive(Clone, Debug, PartialEq)]
pub struct AttrArg {
    pub name: Option<Ident>,
    pub value: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingKind {
    Let,
    Var,
    /// `const NAME = ...` (harnc extension; immutable like `let`).
    Const,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Assign,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl AssignOp {
    pub fn as_str(self) -> &'static str {
        match self {
            AssignOp::Assign => "=",
            AssignOp::Add => "+=",
            AssignOp::Sub => "-=",
            AssignOp::Mul => "*=",
            AssignOp::Div => "/=",
            AssignOp::Mod => "%=",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Let {
        kind: BindingKind,
        pattern: Pattern,
        /// Boxed: most bindings have no annotation, and inline it made every statement
        /// 40 bytes larger (statements are moved into their lists by value).
        ty: Option<Box<TypeExpr>>,
        value: Expr,
    },
    Assign {
        target: Expr,
        op: AssignOp,
        value: Expr,
    },
    Expr(Expr),
    Return(Option<Expr>),
    Throw(Expr),
    Break,
    Continue,
    For {
        pattern: Pattern,
        iterable: Expr,
        body: Block,
    },
    While {
        cond: Expr,
        body: Block,
    },
    Guard {
        cond: Expr,
        else_block: Block,
    },
    Require {
        cond: Expr,
        message: Option<Expr>,
    },
    Defer(Block),
    Retry {
        attempts: Expr,
        body: Block,
    },
    Fn(Box<FnDecl>),
    Pipeline(Box<PipelineDecl>),
    Struct(StructDecl),
    Enum(EnumDecl),
    Impl(ImplDecl),
    Interface(InterfaceDecl),
    TypeAlias(TypeAliasDecl),
    Tool(Box<ToolDecl>),
    Skill(SkillDecl),
    EvalPack(EvalPackDecl),
    Import(ImportDecl),
    /// `override name(params) { ... }` inside a pipeline that `extends` another.
    Override(Box<FnDecl>),
    /// A statement that failed to parse; the error is reported separately.
    Error,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variance {
    Invariant,
    In,
    Out,
}

/// `T`, `in T`, `out T` in a generic parameter list.
#[derive(Clone, Debug, PartialEq)]
pub struct GenericParam {
    pub name: Ident,
    pub variance: Variance,
}

/// `where T: Bound`
#[derive(Clone, Debug, PartialEq)]
pub struct WhereBound {
    pub param: Ident,
    pub bound: TypeExpr,
}

/// A function, closure or enum-payload parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: Ident,
    pub ty: Option<TypeExpr>,
    pub default: Option<Expr>,
    /// `...name`: collects the remaining arguments into a list.
    pub rest: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FnDecl {
    pub name: Ident,
    pub is_pub: bool,
    /// `gen fn`: a stream-producing function.
    pub is_gen: bool,
    pub generics: Vec<GenericParam>,
    pub params: Vec<Param>,
    pub ret: Option<TypeExpr>,
    pub where_bounds: Vec<WhereBound>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PipelineDecl {
    pub name: Ident,
    pub is_pub: bool,
    pub params: Vec<Ident>,
    pub ret: Option<TypeExpr>,
    pub extends: Option<Ident>,
    pub body: Block,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StructField {
    pub name: Ident,
    pub optional: bool,
    pub ty: Option<TypeExpr>,
    pub default: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StructDecl {
    pub name: Ident,
    pub is_pub: bool,
    pub generics: Vec<GenericParam>,
    pub fields: Vec<StructField>,
}

/// One payload slot of an enum variant: `x`, `x: int` or a bare type such as `float`.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantField {
    pub name: Option<Ident>,
    pub ty: Option<TypeExpr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnumVariant {
    pub name: Ident,
    /// `None` for a unit variant `A`; `Some(vec![])` for `A()`.
    pub fields: Option<Vec<VariantField>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct EnumDecl {
    pub name: Ident,
    pub is_pub: bool,
    pub generics: Vec<GenericParam>,
    pub variants: Vec<EnumVariant>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ImplDecl {
    pub target: Ident,
    pub type_args: Vec<TypeExpr>,
    pub methods: Vec<FnDecl>,
}

/// A method signature inside an `interface`.
#[derive(Clone, Debug, PartialEq)]
pub struct FnSig {
    pub name: Ident,
    pub generics: Vec<GenericParam>,
    pub params: Vec<Param>,
    pub ret: Option<TypeExpr>,
    pub span: Span,
}

/// `type Item` or `type Item = T` inside an `interface`.
#[derive(Clone, Debug, PartialEq)]
pub struct AssocType {
    pub name: Ident,
    pub default: Option<TypeExpr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct InterfaceDecl {
    pub name: Ident,
    pub is_pub: bool,
    pub generics: Vec<GenericParam>,
    pub assoc_types: Vec<AssocType>,
    pub methods: Vec<FnSig>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypeAliasDecl {
    pub name: Ident,
    pub is_pub: bool,
    pub generics: Vec<GenericParam>,
    pub ty: TypeExpr,
}

/// `tool name(params) -> R { description "..." body }`
#[derive(Clone, Debug, PartialEq)]
pub struct ToolDecl {
    pub name: Ident,
    pub is_pub: bool,
    pub params: Vec<Param>,
    pub ret: Option<TypeExpr>,
    pub description: Option<Expr>,
    pub body: Block,
}

/// `name expr` inside a `skill` or `eval_pack`.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: Ident,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SkillDecl {
    pub name: Ident,
    pub is_pub: bool,
    pub fields: Vec<Field>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum EvalPackItem {
    /// `name: expr`, a manifest field.
    Field(Field),
    /// `summarize { ... }`
    Summarize(Block),
    /// Any other statement: part of the pack's executable body.
    Stmt(Box<Stmt>),
}

/// `eval_pack NAME ["id"] { ... }` or `eval_pack "id" { ... }`.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalPackDecl {
    /// The binding name; for a string-only header, the id itself.
    pub name: Ident,
    pub id: Option<String>,
    pub is_pub: bool,
    pub items: Vec<EvalPackItem>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ImportDecl {
    pub is_pub: bool,
    /// `import { a, b } from "path"`; `None` for `import "path"`.
    pub names: Option<Vec<Ident>>,
    pub path: String,
    pub path_span: Span,
}

/// Binding patterns of `let`, `var`, `for` and destructuring.
#[derive(Clone, Debug, PartialEq)]
pub enum Pattern {
    Ident(Ident),
    /// `_`
    Wildcard(Span),
    Dict {
        fields: Vec<DictPatternField>,
        rest: Option<Ident>,
        span: Span,
    },
    List {
        elems: Vec<ListPatternElem>,
        rest: Option<Ident>,
        span: Span,
    },
    /// `(a, b)`: reads `first` and `second` of a pair.
    Pair(Ident, Ident, Span),
}

impl Pattern {
    pub fn span(&self) -> Span {
        match self {
            Pattern::Ident(id) => id.span,
            Pattern::Wildcard(s) => *s,
            Pattern::Dict { span, .. } | Pattern::List { span, .. } | Pattern::Pair(_, _, span) => {
                *span
            }
        }
    }
}

/// `key`, `key: alias`, `key: _`, each with an optional `= default`.
#[derive(Clone, Debug, PartialEq)]
pub struct DictPatternField {
    pub key: Ident,
    /// The name bound; `None` for `key: _`.
    pub binding: Option<Ident>,
    pub default: Option<Expr>,
    pub span: Span,
}

/// `name` or `_`, with an optional `= default`.
#[derive(Clone, Debug, PartialEq)]
pub struct ListPatternElem {
    /// `None` for `_`.
    pub binding: Option<Ident>,
    pub default: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    In,
    NotIn,
    And,
    Or,
    Coalesce,
}

impl BinOp {
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::In => "in",
            BinOp::NotIn => "not in",
            BinOp::And => "&&",
            BinOp::Or => "||",
            BinOp::Coalesce => "??",
        }
    }
}

/// A piece of an interpolated string.
#[derive(Clone, Debug, PartialEq)]
pub enum StrPart {
    Lit(String),
    Expr(Expr),
}

/// A call argument: `expr` or `...expr`.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Positional(Expr),
    Spread(Expr),
}

/// A list-literal element: `expr` or `...expr`.
pub type ListElem = Arg;

#[derive(Clone, Debug, PartialEq)]
pub enum DictKey {
    /// `name: v` or `"name": v`.
    Name(Name, Span),
    /// `[expr]: v`
    Computed(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub enum DictEntry {
    Pair { key: DictKey, value: Expr },
    Spread(Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Closure {
    pub params: Vec<Param>,
    pub ret: Option<TypeExpr>,
    pub body: Block,
    /// `fn(x) { ... }` rather than `{ x -> ... }`.
    pub is_fn_expr: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ElseBranch {
    Block(Block),
    If(Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct MatchArm {
    /// Alternatives separated by `|`; each is an expression interpreted as a pattern.
    pub patterns: Vec<Expr>,
    pub guard: Option<Expr>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CatchClause {
    pub var: Option<Ident>,
    pub ty: Option<TypeExpr>,
    pub body: Block,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParallelKind {
    /// `parallel N { i -> ... }`
    Count,
    /// `parallel each xs { x -> ... }`
    Each,
    /// `parallel settle xs { x -> ... }`
    Settle,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SelectArm {
    Recv {
        var: Ident,
        channel: Expr,
        body: Block,
    },
    Timeout {
        duration: Expr,
        body: Block,
    },
    Default {
        body: Block,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A duration literal, in milliseconds.
    Duration(i64),
    /// A string literal without holes (short ones are stored inline, see [`Name`]).
    Str(Name),
    InterpStr(Vec<StrPart>),
    Ident(Name),
    List(Vec<ListElem>),
    Dict(Vec<DictEntry>),
    Closure(Box<Closure>),
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `value |> f`; `_` placeholders on the right are resolved by the compiler.
    Pipe {
        value: Box<Expr>,
        func: Box<Expr>,
    },
    Ternary {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    Range {
        start: Box<Expr>,
        end: Box<Expr>,
        inclusive: bool,
    },
    /// `f(args)` / `f<T>(args)`: calls only ever have a bare name as the callee.
    Call {
        callee: Ident,
        type_args: Vec<TypeExpr>,
        args: Vec<Arg>,
    },
    MethodCall {
        receiver: Box<Expr>,
        method: Ident,
        args: Vec<Arg>,
        optional: bool,
    },
    Member {
        object: Box<Expr>,
        name: Ident,
        optional: bool,
    },
    Index {
        object: Box<Expr>,
        index: Box<Expr>,
        optional: bool,
    },
    Slice {
        object: Box<Expr>,
        start: Option<Box<Expr>>,
        end: Option<Box<Expr>>,
    },
    /// Postfix `expr?` on a Result.
    Propagate(Box<Expr>),
    /// `try* expr`
    TryStar(Box<Expr>),
    /// `Name { field: value, ... }`
    StructLit {
        name: Ident,
        fields: Vec<DictEntry>,
    },
    If {
        cond: Box<Expr>,
        then: Block,
        otherwise: Option<ElseBranch>,
    },
    Match {
        scrutinee: Box<Expr>,
        arms: Vec<MatchArm>,
    },
    /// `try { } catch ... finally { }`; with neither catch nor finally it is the
    /// Result-producing try expression.
    Try {
        body: Block,
        catch: Option<Box<CatchClause>>,
        finally: Option<Block>,
    },
    Spawn(Block),
    Parallel {
        kind: ParallelKind,
        subject: Box<Expr>,
        options: Option<Box<Expr>>,
        param: Option<Ident>,
        body: Block,
    },
    Select(Vec<SelectArm>),
    Mutex(Block),
    Deadline {
        duration: Box<Expr>,
        body: Block,
    },
    Yield(Option<Box<Expr>>),
    Emit(Box<Expr>),
    /// An expression that failed to parse; the error is reported separately.
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ShapeField {
    pub name: String,
    pub optional: bool,
    pub ty: TypeExpr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    /// `int`, `list<int>`, `Result<T, E>`, `Point`, `nil`, ...
    Named {
        name: Ident,
        args: Vec<TypeExpr>,
    },
    /// `[T]`
    List(Box<TypeExpr>),
    /// `{a: int, b?: string}`
    Shape(Vec<ShapeField>),
    Union(Vec<TypeExpr>),
    StrLit(String),
    IntLit(i64),
    /// `fn(int, string) -> bool`
    Fn {
        params: Vec<TypeExpr>,
        ret: Option<Box<TypeExpr>>,
    },
    Error,
}
