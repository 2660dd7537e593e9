//! The syntax tree: what the parser hands to the checker. Every node carries its span; names are
//! normalised (`v₀` and `v0` are the same text) and keep their primes apart (`y''` is `y` with
//! two primes).
//!
//! The enums are deliberately exhaustive: the checker matches every form, so a new form must
//! break its build rather than fall into a catch-all arm.

use crate::span::Span;

/// A name as written: normalised text plus trailing primes.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    /// Normalised text without primes (`v0` for `v₀`).
    pub text: String,
    /// Trailing primes: `y'` has 1.
    pub primes: u8,
    /// Where, primes included.
    pub span: Span,
}

impl Name {
    /// The name with its primes, as a key: `y'`.
    pub fn key(&self) -> String {
        let mut s = self.text.clone();
        for _ in 0..self.primes {
            s.push('\'');
        }
        s
    }
}

/// A whole `.hph` file.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct File {
    /// Top-level items in source order.
    pub items: Vec<Item>,
}

/// A top-level item.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `open Physis.Constants`
    Open(Open),
    /// `simulate Name { ... }`
    Simulate(Simulate),
    /// `scheme name [stable r] [<order>] { ... }`
    Scheme(SchemeDecl),
    /// `module A.B { fn ..., const ..., scheme ... }`
    Module(ModuleDecl),
}

/// `module A.B { ... }`: functions, constants and schemes shared under a dotted name.
#[derive(Clone, Debug, PartialEq)]
pub struct ModuleDecl {
    /// The dotted name.
    pub path: Vec<Name>,
    /// Its items in source order; items that failed to parse are left out.
    pub items: Vec<ModuleItem>,
    /// From `module` to the closing brace.
    pub span: Span,
}

impl ModuleDecl {
    /// The dotted name as one string: `Physis.Thermal`.
    pub fn name(&self) -> String {
        let parts: Vec<&str> = self.path.iter().map(|n| n.text.as_str()).collect();
        parts.join(".")
    }
}

/// An item of a module.
#[derive(Clone, Debug, PartialEq)]
pub enum ModuleItem {
    /// `fn f(x : Kind, y) [: Kind] ≔ e`
    Fn(FnDecl),
    /// `const c ≔ e`
    Const(ConstDecl),
    /// `scheme name { ... }`
    Scheme(SchemeDecl),
}

/// `fn f(x : Kind, y) [: Kind] ≔ e`: a function, inlined and checked at each use.
#[derive(Clone, Debug, PartialEq)]
pub struct FnDecl {
    /// Its name.
    pub name: Name,
    /// Its parameters in order.
    pub params: Vec<FnParam>,
    /// The declared kind of its value, checked at each use.
    pub ret: Option<TypeExpr>,
    /// The body.
    pub body: Expr,
    /// From `fn` to the end of the body.
    pub span: Span,
}

/// A function parameter: `x : Kind` is checked at each use; a bare `x` takes any dimension
/// and shape (the body is checked with the argument's).
#[derive(Clone, Debug, PartialEq)]
pub struct FnParam {
    /// Its name.
    pub name: Name,
    /// Its declared kind and size, if any.
    pub ty: Option<TypeExpr>,
}

/// `const c ≔ e`: a named constant of a module.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstDecl {
    /// Its name.
    pub name: Name,
    /// Its value (literals and constants only).
    pub value: Expr,
    /// From `const` to the end of the value.
    pub span: Span,
}

/// `open A.B`.
#[derive(Clone, Debug, PartialEq)]
pub struct Open {
    /// The dotted path.
    pub path: Vec<Name>,
    /// The whole clause.
    pub span: Span,
}

/// A `simulate` declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Simulate {
    /// Its name (the generated type's name).
    pub name: Name,
    /// Clauses in source order; clauses that failed to parse are left out.
    pub clauses: Vec<Clause>,
    /// From `simulate` to the closing brace.
    pub span: Span,
}

/// A `scheme` declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemeDecl {
    /// Its name, used by `integrate`.
    pub name: Name,
    /// `stable r`: the stability radius of a fixed explicit scheme.
    pub stable: Option<(f64, Span)>,
    /// `<p>`: an adaptive scheme whose `error` is of order `p − 1` (the step is scaled by
    /// `‖error‖^(−1/p)`); for an embedded pair that is the scheme's order.
    pub order: Option<(f64, Span)>,
    /// The body's bindings in order.
    pub body: Vec<Binding>,
    /// The whole declaration.
    pub span: Span,
}

/// `name ≔ value` (scheme bodies, observes, resets).
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    /// The bound name.
    pub name: Name,
    /// The right side.
    pub value: Expr,
}

/// `Kind` or `Kind[n, m]`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    /// The quantity kind.
    pub kind: Name,
    /// Extents in brackets, empty for a scalar.
    pub extents: Vec<Extent>,
    /// The whole type.
    pub span: Span,
}

/// One extent in `Q[...]`.
#[derive(Clone, Debug, PartialEq)]
pub enum Extent {
    /// A literal size (checked to be a positive whole number later).
    Number(f64, Span),
    /// A name: a symbolic extent, refused with PH0106.
    Name(Name),
}

/// A clause of a simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct Clause {
    /// What kind of clause, with its parts.
    pub kind: ClauseKind,
    /// The whole clause (one line, or more when brackets span lines).
    pub span: Span,
}

/// The clauses of a simulation.
#[derive(Clone, Debug, PartialEq)]
pub enum ClauseKind {
    /// `param p : Q = value`
    Param {
        /// Name.
        name: Name,
        /// Kind and size.
        ty: TypeExpr,
        /// Default value.
        default: Expr,
    },
    /// `state y : Q [conjugate q] = value`
    State {
        /// Name; `y'` declares a velocity state.
        name: Name,
        /// Kind and size.
        ty: TypeExpr,
        /// `conjugate q`: this state is the momentum of coordinate q.
        conjugate: Option<Name>,
        /// Initial value.
        init: Expr,
    },
    /// `law y' = e` or `law y'' = e`
    Law {
        /// The derivative on the left, primes included.
        target: Name,
        /// The right side.
        value: Expr,
    },
    /// `integrate scheme [step Δ] [tolerance ε] [abs [target] a]… [limit n] [seed n]`
    Integrate {
        /// The scheme's name.
        scheme: Name,
        /// Settings in source order.
        settings: Vec<Setting>,
    },
    /// `record every Δ`
    Record {
        /// The sampling interval.
        every: Expr,
    },
    /// `observe o ≔ e`
    Observe(Binding),
    /// `let r ≔ e`: a local name for an expression, read by later clauses.
    Let(Binding),
    /// `stop when c`
    Stop {
        /// The condition.
        when: Expr,
    },
    /// `run Name with p = v, ...`
    Run {
        /// Scenario name.
        name: Name,
        /// Param overrides.
        overrides: Vec<Binding>,
    },
    /// `lagrangian ≔ L`
    Lagrangian(Expr),
    /// `hamiltonian ≔ H`
    Hamiltonian(Expr),
    /// `dissipation ≔ D`
    Dissipation(Expr),
    /// `effort q ≔ Q`
    Effort(Binding),
    /// `conserve o within ε`
    Conserve {
        /// The observe watched.
        name: Name,
        /// Relative tolerance.
        within: Expr,
    },
    /// `grid (x, y) : Q[N, M] from a to b`
    Grid {
        /// Coordinate names.
        coords: Vec<Name>,
        /// Coordinate kind and node counts.
        ty: TypeExpr,
        /// Lower end.
        from: Expr,
        /// Upper end.
        to: Expr,
    },
    /// `field u : Q = e`
    Field {
        /// Name.
        name: Name,
        /// Kind (no extents: the grid gives the size).
        ty: TypeExpr,
        /// Initial value per node.
        init: Expr,
    },
    /// `boundary u dirichlet v | neumann [g] | periodic`
    Boundary {
        /// The field.
        field: Name,
        /// The condition.
        condition: Boundary,
    },
    /// `on c do s ≔ e, ...`
    On {
        /// The event condition.
        when: Expr,
        /// Resets, applied together.
        resets: Vec<Binding>,
    },
    /// `noise w, ...`
    Noise {
        /// White-noise names.
        names: Vec<Name>,
    },
    /// `law x[i]'' = e` (or `law x''[i] = e`): one law per component of an array state, `i`
    /// running over its indices.
    LawEach {
        /// The derivative, primes included (`x''`); its span is the name's.
        target: Name,
        /// The index name bound in `value`.
        index: Name,
        /// The right side, for one component.
        value: Expr,
    },
}

/// A boundary condition.
#[derive(Clone, Debug, PartialEq)]
pub enum Boundary {
    /// Fixed value at both ends.
    Dirichlet(Expr),
    /// Fixed normal derivative (zero when absent).
    Neumann(Option<Expr>),
    /// Ends wrap around.
    Periodic,
}

/// One `integrate` setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    /// Which.
    pub kind: SettingKind,
    /// The keyword's span.
    pub keyword: Span,
    /// What an `abs` setting applies to: a state or a quantity kind (`abs x 1 mm`,
    /// `abs Length 1 µm`, each entry of `abs x: 1 mm, v: 1 mm/s`); `None` for every other
    /// setting and for a bare `abs 1 mm`.
    pub target: Option<Name>,
    /// The value.
    pub value: Expr,
}

/// The settings of `integrate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SettingKind {
    /// `step Δ` (a Time)
    Step,
    /// `tolerance ε` (a pure number): the relative tolerance
    Tolerance,
    /// `abs [target] a`: an absolute tolerance with the unit of the states it applies to
    Absolute,
    /// `limit n` (accepted steps)
    Limit,
    /// `seed n`
    Seed,
}

impl SettingKind {
    /// The keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            SettingKind::Step => "step",
            SettingKind::Tolerance => "tolerance",
            SettingKind::Absolute => "abs",
            SettingKind::Limit => "limit",
            SettingKind::Seed => "seed",
        }
    }
}

/// An expression with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// Expression forms.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A number with an optional unit: `9.81 m/s²`.
    Number {
        /// The literal's value as written (not yet scaled by the unit).
        value: f64,
        /// The unit that follows it.
        unit: Option<UnitText>,
    },
    /// A name, possibly primed: `v₀`, `y'`, `t`, `hamiltonian`.
    Name(Name),
    /// A prefix operator.
    Unary {
        /// Which.
        op: UnOp,
        /// Operand.
        operand: Box<Expr>,
    },
    /// An infix operator.
    Binary {
        /// Which.
        op: BinOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// `base^exponent` or `base²`.
    Power {
        /// Base.
        base: Box<Expr>,
        /// Exponent.
        exponent: Box<Expr>,
    },
    /// `f(a, b)`.
    Call {
        /// The function's name.
        callee: Name,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// `x[i]` or `u[i, j]`.
    Index {
        /// The indexed expression.
        base: Box<Expr>,
        /// Indices.
        indices: Vec<Expr>,
    },
    /// `[a, b, c]`.
    Vector(Vec<Expr>),
    /// `Σ j in a..b, c: e` (ASCII `sum j in a..b, c: e`): `e` summed over the whole numbers
    /// `a ≤ j < b` for which the optional condition `c` holds.
    Sum(Box<SumExpr>),
    /// `a..b` as an index (`m[1..3]`): the components `a ≤ k < b`.
    Range {
        /// First index.
        from: Box<Expr>,
        /// One past the last index.
        to: Box<Expr>,
    },
    /// A value that failed to parse (already reported); kept so its declaration survives.
    Error,
}

/// The parts of a sum `Σ j in from..to, filter: body`.
#[derive(Clone, Debug, PartialEq)]
pub struct SumExpr {
    /// The index name, bound in `filter` and `body`.
    pub index: Name,
    /// First value of the index.
    pub from: Expr,
    /// One past the last value.
    pub to: Expr,
    /// Which values take part (all when absent).
    pub filter: Option<Expr>,
    /// The summand.
    pub body: Expr,
}

/// The text of a unit after a number, e.g. `m/s²`, for `units::parse_unit`.
#[derive(Clone, Debug, PartialEq)]
pub struct UnitText {
    /// The unit as written, without spaces.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `−x`
    Neg,
    /// `√x` (or the call `sqrt(x)`, which the checker treats alike)
    Sqrt,
    /// `¬c` / `not c`
    Not,
}

/// Infix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `+`
    Add,
    /// `−`
    Sub,
    /// `·`
    Mul,
    /// `/`
    Div,
    /// `<`
    Lt,
    /// `≤`
    Le,
    /// `>`
    Gt,
    /// `≥`
    Ge,
    /// `==`
    Eq,
    /// `≠`
    Ne,
    /// `∧`
    And,
    /// `∨`
    Or,
}

impl BinOp {
    /// The Unicode spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "−",
            BinOp::Mul => "·",
            BinOp::Div => "/",
            BinOp::Lt => "<",
            BinOp::Le => "≤",
            BinOp::Gt => ">",
            BinOp::Ge => "≥",
            BinOp::Eq => "==",
            BinOp::Ne => "≠",
            BinOp::And => "∧",
            BinOp::Or => "∨",
        }
    }

    /// Whether the operator compares two quantities.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        )
    }

    /// Whether the operator joins conditions.
    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::And | BinOp::Or)
    }
}
