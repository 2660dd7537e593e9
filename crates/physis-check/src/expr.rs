//! Checked expressions: every name resolved to an id, every node annotated with its dimension
//! and shape, every literal already in SI base units.

use physis_syntax::Span;
use units::Dimension;

/// Index of a param in [`crate::CheckedModel::params`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ParamId(pub usize);

/// Index of a state (fields included) in [`crate::CheckedModel::states`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateId(pub usize);

/// Index of a noise in [`crate::CheckedModel::noises`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NoiseId(pub usize);

/// Index of an observe in [`crate::CheckedModel::observes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObserveId(pub usize);

/// Index of a local binding in [`crate::CheckedScheme::locals`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalId(pub usize);

/// The shape of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Shape {
    /// One number.
    Scalar,
    /// `n` components (`Length[3]`); products of two vectors are component by component.
    Vector(usize),
    /// One number per node of the simulation's grid ([`crate::Grid::sizes`]).
    Field,
}

impl Shape {
    /// Number of components given the grid's node count (1 for a scalar).
    pub fn len(self, grid_nodes: usize) -> usize {
        match self {
            Shape::Scalar => 1,
            Shape::Vector(n) => n,
            Shape::Field => grid_nodes,
        }
    }

    /// How the shape reads in messages.
    pub fn describe(self) -> String {
        match self {
            Shape::Scalar => "a single number".into(),
            Shape::Vector(n) => format!("{n} components"),
            Shape::Field => "a field".into(),
        }
    }
}

/// A checked expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What it computes.
    pub kind: ExprKind,
    /// Its dimension (in a scheme body, relative to the placeholder [`crate::scheme::Y`]).
    pub dim: Dimension,
    /// Its shape.
    pub shape: Shape,
    /// Where it was written.
    pub span: Span,
}

/// Checked expression forms. Exhaustive, like the operators and functions below, so a new
/// form is a compile error in the lowering and every other reader of a checked model.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A number in SI base units (`10 ms` is `0.01`).
    Const(f64),
    /// A constant of Physis.Constants, in SI base units.
    Constant {
        /// Its ASCII name (`g0`).
        name: &'static str,
        /// Its value in SI base units.
        value: f64,
    },
    /// The time `t`.
    Time,
    /// A param.
    Param(ParamId),
    /// A state's value (for a velocity state `y'`, the velocity).
    State(StateId),
    /// The rate of a first-order state: the right side of its law (`u'` in `maxAbs(u')`).
    Rate(StateId),
    /// The node coordinate along grid axis `0` (x) or `1` (y), shape [`Shape::Field`].
    GridCoord(usize),
    /// A white noise (dimension Time^-1/2); only in laws, linearly.
    Noise(NoiseId),
    /// The energy: the hamiltonian, or Σ q̇·∂L/∂q̇ − L from the lagrangian.
    Hamiltonian,
    /// A vector literal.
    Vector(Vec<Expr>),
    /// Negation.
    Neg(Box<Expr>),
    /// Arithmetic (component by component for two vectors or fields).
    Binary {
        /// Which.
        op: ArithOp,
        /// Left operand.
        lhs: Box<Expr>,
        /// Right operand.
        rhs: Box<Expr>,
    },
    /// A power; `exponent` is a pure number (a constant when `base` has a dimension).
    Pow {
        /// Base.
        base: Box<Expr>,
        /// Exponent.
        exponent: Box<Expr>,
    },
    /// A built-in function (`√x` is [`Builtin::Sqrt`]).
    Call {
        /// Which.
        func: Builtin,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// A component: `x[1]`, or a node `u[25]` / `u[i, j]`, indices checked in bounds.
    Index {
        /// The indexed value.
        base: Box<Expr>,
        /// Zero-based indices (one, or two for a 2-D field).
        index: Vec<usize>,
    },
    /// A scheme input (scheme bodies only).
    SchemeInput(SchemeInput),
    /// A scheme's earlier binding or output (scheme bodies only).
    Local(LocalId),
    /// A call of the model's rate `f`, acceleration `a` or diffusion `g` (scheme bodies only).
    SchemeCall {
        /// Which.
        func: SchemeFn,
        /// `(time, state)` arguments.
        args: Vec<Expr>,
    },
}

/// Arithmetic operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    /// `+`
    Add,
    /// `−`
    Sub,
    /// `·`
    Mul,
    /// `/`
    Div,
}

/// Inputs a scheme reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SchemeInput {
    /// `t`: the time at the start of the step.
    T,
    /// `h`: the step.
    H,
    /// `y`: the state (first-order schemes).
    Y,
    /// `x`: the positions (second-order schemes).
    X,
    /// `v`: the velocities (second-order schemes).
    V,
    /// `dW`: the Wiener increment over the step (stochastic schemes), dimension Time^1/2.
    DW,
    /// `J`: the Jacobian `∂f/∂y` of the rate at the step's start `(t, y)`, dimension
    /// `T⁻¹` beside the state; it only stands applied to a state-shaped value on its right
    /// (`h·J·k₁`), which the checker enforces.
    J,
    /// `ft`: the rate's time derivative `∂f/∂t` at `(t, y)`, dimension `[y]·T⁻²`.
    Ft,
}

/// The model functions a scheme may call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SchemeFn {
    /// `f(t, y)`: the rate (drift for stochastic laws).
    F,
    /// `a(t, x)`: the acceleration.
    A,
    /// `g(t, y)`: the diffusion (coefficient of the noise).
    G,
}

/// Comparison operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
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
}

/// A checked condition (stop and event clauses).
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// Two scalars of one dimension compared.
    Compare {
        /// Which comparison.
        op: CmpOp,
        /// Left side.
        lhs: Box<Expr>,
        /// Right side.
        rhs: Box<Expr>,
    },
    /// Both hold.
    And(Box<Cond>, Box<Cond>),
    /// Either holds.
    Or(Box<Cond>, Box<Cond>),
    /// Does not hold.
    Not(Box<Cond>),
}

/// Built-in functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)] // the names are the functions'
pub enum Builtin {
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
    Sinh,
    Cosh,
    Tanh,
    Exp,
    Log,
    Log10,
    Sqrt,
    Abs,
    Sign,
    Floor,
    Ceil,
    Min,
    Max,
    Atan2,
    Hypot,
    Norm,
    Dot,
    Cross,
    Dx,
    Dy,
    DxBackward,
    DxForward,
    DyBackward,
    DyForward,
    Laplacian,
    Sum,
    Mean,
    MaxAbs,
}

impl Builtin {
    /// Every name [`Builtin::from_name`] knows, for completion.
    pub const NAMES: &[&str] = &[
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "atan",
        "sinh",
        "cosh",
        "tanh",
        "exp",
        "log",
        "ln",
        "log10",
        "sqrt",
        "abs",
        "sign",
        "floor",
        "ceil",
        "min",
        "max",
        "atan2",
        "hypot",
        "norm",
        "dot",
        "cross",
        "dx",
        "dy",
        "dxBackward",
        "dxForward",
        "dyBackward",
        "dyForward",
        "laplacian",
        "sum",
        "mean",
        "maxAbs",
    ];

    /// Look a function up by name (`log` and `ln` are both the natural logarithm).
    pub fn from_name(name: &str) -> Option<Builtin> {
        use Builtin::*;
        Some(match name {
            "sin" => Sin,
            "cos" => Cos,
            "tan" => Tan,
            "asin" => Asin,
            "acos" => Acos,
            "atan" => Atan,
            "sinh" => Sinh,
            "cosh" => Cosh,
            "tanh" => Tanh,
            "exp" => Exp,
            "log" | "ln" => Log,
            "log10" => Log10,
            "sqrt" => Sqrt,
            "abs" => Abs,
            "sign" => Sign,
            "floor" => Floor,
            "ceil" => Ceil,
            "min" => Min,
            "max" => Max,
            "atan2" => Atan2,
            "hypot" => Hypot,
            "norm" => Norm,
            "dot" => Dot,
            "cross" => Cross,
            "dx" => Dx,
            "dy" => Dy,
            "dxBackward" => DxBackward,
            "dxForward" => DxForward,
            "dyBackward" => DyBackward,
            "dyForward" => DyForward,
            "laplacian" => Laplacian,
            "sum" => Sum,
            "mean" => Mean,
            "maxAbs" => MaxAbs,
            _ => return None,
        })
    }

    /// Whether the symbolic stage has a derivative rule for it (PH0112 otherwise).
    pub fn is_differentiable(self) -> bool {
        use Builtin::*;
        !matches!(
            self,
            Abs | Sign
                | Floor
                | Ceil
                | Min
                | Max
                | MaxAbs
                | Dx
                | Dy
                | DxBackward
                | DxForward
                | DyBackward
                | DyForward
                | Laplacian
                | Sum
                | Mean
        )
    }

    /// Whether it is a spatial difference stencil over the grid.
    pub fn is_stencil(self) -> bool {
        use Builtin::*;
        matches!(
            self,
            Dx | Dy | DxBackward | DxForward | DyBackward | DyForward | Laplacian
        )
    }
}

impl Expr {
    /// Each direct sub-expression, in order. Exhaustive over the forms, so every walk
    /// below learns of a new form by a compile error.
    pub fn for_each_child<'a>(&'a self, mut f: impl FnMut(&'a Expr)) {
        match &self.kind {
            ExprKind::Vector(items) => items.iter().for_each(f),
            ExprKind::Neg(e) => f(e),
            ExprKind::Binary { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            ExprKind::Pow { base, exponent } => {
                f(base);
                f(exponent);
            }
            ExprKind::Call { args, .. } | ExprKind::SchemeCall { args, .. } => {
                args.iter().for_each(f)
            }
            ExprKind::Index { base, .. } => f(base),
            ExprKind::Const(_)
            | ExprKind::Constant { .. }
            | ExprKind::Time
            | ExprKind::Param(_)
            | ExprKind::State(_)
            | ExprKind::Rate(_)
            | ExprKind::GridCoord(_)
            | ExprKind::Noise(_)
            | ExprKind::Hamiltonian
            | ExprKind::SchemeInput(_)
            | ExprKind::Local(_) => {}
        }
    }

    /// Each direct sub-expression, mutably, in the order of [`Expr::for_each_child`].
    pub fn for_each_child_mut(&mut self, mut f: impl FnMut(&mut Expr)) {
        match &mut self.kind {
            ExprKind::Vector(items) => items.iter_mut().for_each(f),
            ExprKind::Neg(e) => f(e),
            ExprKind::Binary { lhs, rhs, .. } => {
                f(lhs);
                f(rhs);
            }
            ExprKind::Pow { base, exponent } => {
                f(base);
                f(exponent);
            }
            ExprKind::Call { args, .. } | ExprKind::SchemeCall { args, .. } => {
                args.iter_mut().for_each(f)
            }
            ExprKind::Index { base, .. } => f(base),
            ExprKind::Const(_)
            | ExprKind::Constant { .. }
            | ExprKind::Time
            | ExprKind::Param(_)
            | ExprKind::State(_)
            | ExprKind::Rate(_)
            | ExprKind::GridCoord(_)
            | ExprKind::Noise(_)
            | ExprKind::Hamiltonian
            | ExprKind::SchemeInput(_)
            | ExprKind::Local(_) => {}
        }
    }

    /// Visit this expression and every sub-expression, parents first.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        self.for_each_child(|e| e.walk(f));
    }

    /// Visit this expression and every sub-expression mutably, parents first; where `f`
    /// returns false (it replaced the node, say) the walk does not descend.
    pub fn walk_mut(&mut self, f: &mut impl FnMut(&mut Expr) -> bool) {
        if f(self) {
            self.for_each_child_mut(|e| e.walk_mut(f));
        }
    }

    /// Whether any node satisfies `pred`.
    pub fn any(&self, mut pred: impl FnMut(&Expr) -> bool) -> bool {
        let mut found = false;
        self.walk(&mut |e| found |= pred(e));
        found
    }
}

impl Cond {
    /// Visit every expression of the condition.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        match self {
            Cond::Compare { lhs, rhs, .. } => {
                lhs.walk(f);
                rhs.walk(f);
            }
            Cond::And(a, b) | Cond::Or(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            Cond::Not(c) => c.walk(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Builtin;

    #[test]
    fn every_listed_function_name_is_known() {
        for name in Builtin::NAMES {
            assert!(Builtin::from_name(name).is_some(), "{name}");
        }
    }
}
