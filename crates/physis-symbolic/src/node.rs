//! The node types of the expression DAG.

use crate::number::Number;

/// Index of a node in one [`Graph`](crate::Graph). Children always have smaller ids than their
/// parents, so ascending id order is a topological order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub(crate) u32);

impl NodeId {
    /// The position in the arena.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An opaque name for a symbol (a state, a param, a noise) declared in a graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymbolId(pub(crate) u32);

impl SymbolId {
    /// The declaration index (0 for the first declared symbol).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// An opaque construct the caller owns (a grid stencil, a reduction): evaluated elsewhere,
/// never differentiated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpaqueId(pub(crate) u32);

/// One scalar component of a symbol: component 0 of a scalar, `x[i]` of a vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol {
    /// Which symbol.
    pub id: SymbolId,
    /// Which component (0-based).
    pub component: u32,
}

/// Something to differentiate with respect to: a symbol component or the time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Var {
    /// A symbol component.
    Symbol(Symbol),
    /// The time `t`.
    Time,
}

impl From<Symbol> for Var {
    fn from(s: Symbol) -> Var {
        Var::Symbol(s)
    }
}

/// A scalar function with a fixed arity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Func {
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// Tangent.
    Tan,
    /// Inverse sine.
    Asin,
    /// Inverse cosine.
    Acos,
    /// Inverse tangent.
    Atan,
    /// Hyperbolic sine.
    Sinh,
    /// Hyperbolic cosine.
    Cosh,
    /// Hyperbolic tangent.
    Tanh,
    /// Natural exponential.
    Exp,
    /// Natural logarithm.
    Log,
    /// Absolute value (a kink at 0).
    Abs,
    /// Sign: -1, 0 or 1 (a jump at 0).
    Sign,
    /// Largest integer not above (jumps at integers).
    Floor,
    /// Smallest integer not below (jumps at integers).
    Ceil,
    /// `atan2(y, x)`: the angle of the point (x, y).
    Atan2,
    /// Smaller of two (a kink where they meet).
    Min,
    /// Larger of two (a kink where they meet).
    Max,
}

impl Func {
    /// Number of arguments.
    pub fn arity(self) -> usize {
        match self {
            Func::Atan2 | Func::Min | Func::Max => 2,
            _ => 1,
        }
    }

    /// The name as written in the language.
    pub fn name(self) -> &'static str {
        match self {
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Asin => "asin",
            Func::Acos => "acos",
            Func::Atan => "atan",
            Func::Sinh => "sinh",
            Func::Cosh => "cosh",
            Func::Tanh => "tanh",
            Func::Exp => "exp",
            Func::Log => "log",
            Func::Abs => "abs",
            Func::Sign => "sign",
            Func::Floor => "floor",
            Func::Ceil => "ceil",
            Func::Atan2 => "atan2",
            Func::Min => "min",
            Func::Max => "max",
        }
    }

    /// Whether the function has a kink or a jump, so its derivative exists only almost
    /// everywhere (see [`Kinks`](crate::Kinks)).
    pub fn has_kink(self) -> bool {
        matches!(
            self,
            Func::Abs | Func::Sign | Func::Floor | Func::Ceil | Func::Min | Func::Max
        )
    }

    /// Apply to floats, by the runtime's function of the operation (`physis_runtime::scalar`,
    /// where every back end reads its meaning), so a folded derivation computes the bits
    /// a run would.
    pub fn apply(self, args: &[f64]) -> f64 {
        use physis_runtime::scalar;
        let a = args.first().copied().unwrap_or(f64::NAN);
        let b = args.get(1).copied().unwrap_or(f64::NAN);
        match self {
            Func::Sin => scalar::sin(a),
            Func::Cos => scalar::cos(a),
            Func::Tan => scalar::tan(a),
            Func::Asin => scalar::asin(a),
            Func::Acos => scalar::acos(a),
            Func::Atan => scalar::atan(a),
            Func::Sinh => scalar::sinh(a),
            Func::Cosh => scalar::cosh(a),
            Func::Tanh => scalar::tanh(a),
            Func::Exp => scalar::exp(a),
            Func::Log => scalar::log(a),
            Func::Abs => scalar::abs(a),
            Func::Sign => scalar::sign(a),
            Func::Floor => scalar::floor(a),
            Func::Ceil => scalar::ceil(a),
            Func::Atan2 => scalar::atan2(a, b),
            Func::Min => scalar::min(a, b),
            Func::Max => scalar::max(a, b),
        }
    }
}

/// One node of the DAG. Build nodes through [`Graph`](crate::Graph)'s constructors, which keep
/// them canonical; [`Graph::intern`](crate::Graph::intern) stores a node as given.
///
/// Canonical forms: subtraction is `a + (−1)·b`, division `a·b^(−1)`, `√x` is `x^(1/2)`; a
/// product keeps its numeric coefficient first and its other factors sorted by id; a sum keeps
/// its constant first and its other terms sorted by id.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Node {
    /// A constant.
    Const(Number),
    /// A symbol component.
    Symbol(Symbol),
    /// The time `t`.
    Time,
    /// A sum of two or more terms.
    Add(Box<[NodeId]>),
    /// A product of two or more factors.
    Mul(Box<[NodeId]>),
    /// `[base, exponent]`: `base^exponent`.
    Pow([NodeId; 2]),
    /// A function applied to its arguments.
    Call(Func, Box<[NodeId]>),
    /// An opaque construct of the caller applied to its arguments.
    Opaque(OpaqueId, Box<[NodeId]>),
}

impl Node {
    /// The children, in order.
    pub fn children(&self) -> &[NodeId] {
        match self {
            Node::Const(_) | Node::Symbol(_) | Node::Time => &[],
            Node::Add(xs) | Node::Mul(xs) | Node::Call(_, xs) | Node::Opaque(_, xs) => xs,
            Node::Pow(be) => be,
        }
    }
}
