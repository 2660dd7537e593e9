//! Scheme descriptions: a scheme as the mathematics the language states it in, a list of
//! bindings over `t`, `h`, `y`, `f(·,·)` (or `x`, `v`, `a(·,·)`, or `g(·,·)`, `dW`).
//!
//! A lowering pass turns a checked `scheme` declaration into a [`SchemeDef`] (one
//! [`SExpr`] per binding, names resolved to earlier bindings by position), and
//! [`crate::specialise`] inlines it onto a model's rate. The prelude's schemes are built
//! the same way ([`crate::prelude`]); the operators on [`SExpr`] keep those recipes
//! readable.

use std::ops::{Add, Div, Mul, Neg, Sub};

use physis_runtime::StageKind;

use crate::ir::{BinOp, UnOp};

/// An expression of a scheme body.
#[derive(Clone, Debug, PartialEq)]
pub enum SExpr {
    /// The step's start time `t`.
    T,
    /// The step `h`.
    H,
    /// The state `y` at the step's start (first-order schemes).
    Y,
    /// The positions `x` (second-order schemes).
    X,
    /// The velocities `v` (second-order schemes).
    V,
    /// The Wiener increments `dW` (stochastic schemes).
    Dw,
    /// The unknown `next` read on its own right side: the scheme is implicit.
    Next,
    /// The rate's Jacobian `∂f/∂y` at the step's start `(t, y)`: a linear operator, only
    /// multiplied by scalars and applied to a state-shaped value on its right (`h·J·k₁`).
    J,
    /// The rate's time derivative `∂f/∂t` at `(t, y)` (state-shaped).
    Ft,
    /// A number.
    Num(f64),
    /// An earlier binding, by position in [`SchemeDef::bindings`]; a binding reading its
    /// own position is an implicit stage, solved by Newton.
    Var(usize),
    /// `op a`.
    Unary(UnOp, Box<SExpr>),
    /// `a op b`.
    Binary(BinOp, Box<SExpr>, Box<SExpr>),
    /// The rate `f(t′, y′)`.
    F(Box<SExpr>, Box<SExpr>),
    /// The acceleration `a(t′, x′)`.
    A(Box<SExpr>, Box<SExpr>),
    /// The diffusion `g(t′, y′)` (multiplied by `dW` it gives the noise term).
    G(Box<SExpr>, Box<SExpr>),
}

impl SExpr {
    /// `f(t, y)`.
    pub fn f(t: SExpr, y: SExpr) -> SExpr {
        SExpr::F(Box::new(t), Box::new(y))
    }

    /// `a(t, x)`.
    pub fn a(t: SExpr, x: SExpr) -> SExpr {
        SExpr::A(Box::new(t), Box::new(x))
    }

    /// `g(t, y)`.
    pub fn g(t: SExpr, y: SExpr) -> SExpr {
        SExpr::G(Box::new(t), Box::new(y))
    }

    /// `√a`.
    pub fn sqrt(a: SExpr) -> SExpr {
        SExpr::Unary(UnOp::Sqrt, Box::new(a))
    }

    /// A number.
    pub fn num(v: f64) -> SExpr {
        SExpr::Num(v)
    }

    /// True when the expression reads `next` (directly; bindings are checked by the caller).
    pub fn reads(&self, pred: &impl Fn(&SExpr) -> bool) -> bool {
        if pred(self) {
            return true;
        }
        match self {
            SExpr::Unary(_, a) => a.reads(pred),
            SExpr::Binary(_, a, b) | SExpr::F(a, b) | SExpr::A(a, b) | SExpr::G(a, b) => {
                a.reads(pred) || b.reads(pred)
            }
            _ => false,
        }
    }
}

macro_rules! sexpr_op {
    ($tr:ident, $m:ident, $op:expr) => {
        impl $tr for SExpr {
            type Output = SExpr;
            fn $m(self, rhs: SExpr) -> SExpr {
                SExpr::Binary($op, Box::new(self), Box::new(rhs))
            }
        }
        impl $tr<f64> for SExpr {
            type Output = SExpr;
            fn $m(self, rhs: f64) -> SExpr {
                SExpr::Binary($op, Box::new(self), Box::new(SExpr::Num(rhs)))
            }
        }
        impl $tr<SExpr> for f64 {
            type Output = SExpr;
            fn $m(self, rhs: SExpr) -> SExpr {
                SExpr::Binary($op, Box::new(SExpr::Num(self)), Box::new(rhs))
            }
        }
    };
}

sexpr_op!(Add, add, BinOp::Add);
sexpr_op!(Sub, sub, BinOp::Sub);
sexpr_op!(Mul, mul, BinOp::Mul);
sexpr_op!(Div, div, BinOp::Div);

impl Neg for SExpr {
    type Output = SExpr;
    fn neg(self) -> SExpr {
        SExpr::Unary(UnOp::Neg, Box::new(self))
    }
}

/// What a binding is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// An intermediate (`k₁`).
    Local,
    /// `next`: the state at `t + h`.
    Next,
    /// `error`: the embedded error estimate of an adaptive scheme.
    Error,
    /// `nextX`: positions at `t + h` (second order).
    NextX,
    /// `nextV`: velocities at `t + h` (second order).
    NextV,
}

impl Role {
    /// The role a binding's name gives it.
    pub fn of_name(name: &str) -> Role {
        match name {
            "next" => Role::Next,
            "error" => Role::Error,
            "nextX" => Role::NextX,
            "nextV" => Role::NextV,
            _ => Role::Local,
        }
    }
}

/// One `name ≔ value` of a scheme body.
#[derive(Clone, Debug, PartialEq)]
pub struct SBinding {
    /// The name as written (for listings).
    pub name: String,
    /// Its role, from the name.
    pub role: Role,
    /// The right side.
    pub value: SExpr,
    /// What the binding is beside the state (a rate, a state): for an implicit stage, where
    /// Newton starts and how it measures convergence.
    pub kind: StageKind,
}

/// A scheme: `scheme name [stable r] [<order>] { bindings }`.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemeDef {
    /// Its name.
    pub name: String,
    /// `stable r`: the stability radius of a fixed explicit scheme.
    pub stable: Option<f64>,
    /// `<p>`: the order of an adaptive scheme (the order of `next`).
    pub order: Option<u32>,
    /// The body in order.
    pub bindings: Vec<SBinding>,
    /// The scheme's own continuous extension, if it has one: a state-shaped `q` over the
    /// bindings such that the state inside the step is the cubic Hermite interpolant of
    /// its ends plus `θ²(1−θ)²·q` (`θ` the fraction of the step). Only built-in schemes
    /// carry one (Dormand–Prince's free fourth-order interpolant); the language has no
    /// syntax for it, so a scheme of the user's own is interpolated by Hermite alone.
    pub dense: Option<SExpr>,
    /// True for the built-in `bdf`: the runtime's variable-order BDF steps it, solving
    /// each step through this text (backward Euler) at the base and step its history sets
    /// (see [`crate::prelude::is_bdf`]).
    pub bdf: bool,
}

impl SchemeDef {
    /// A scheme with no bindings yet.
    pub fn new(name: &str) -> Self {
        SchemeDef {
            name: name.to_string(),
            stable: None,
            order: None,
            bindings: Vec::new(),
            dense: None,
            bdf: false,
        }
    }

    /// Declares the stability radius.
    pub fn stable(mut self, r: f64) -> Self {
        self.stable = Some(r);
        self
    }

    /// Declares the adaptive order.
    pub fn order(mut self, p: u32) -> Self {
        self.order = Some(p);
        self
    }

    /// Appends `name ≔ value` and returns an expression reading it.
    pub fn bind(&mut self, name: &str, value: SExpr) -> SExpr {
        let role = Role::of_name(name);
        let kind = match role {
            Role::Local => StageKind::Rate,
            Role::NextV => StageKind::Other,
            _ => StageKind::State,
        };
        self.bindings.push(SBinding {
            name: name.to_string(),
            role,
            value,
            kind,
        });
        SExpr::Var(self.bindings.len() - 1)
    }

    /// True when some binding reads `pred` (e.g. `next`, `dW`).
    pub fn reads(&self, pred: impl Fn(&SExpr) -> bool) -> bool {
        self.bindings.iter().any(|b| b.value.reads(&pred))
    }

    /// True when a binding has this role.
    pub fn binds(&self, role: Role) -> bool {
        self.bindings.iter().any(|b| b.role == role)
    }

    /// True for a scheme over `x`, `v`, `a(·,·)`.
    pub fn is_second_order(&self) -> bool {
        self.binds(Role::NextX) || self.binds(Role::NextV)
    }

    /// True for a scheme that reads `dW` or `g(·,·)`.
    pub fn is_stochastic(&self) -> bool {
        self.reads(|e| matches!(e, SExpr::Dw | SExpr::G(..)))
    }

    /// True when `next` appears on its own right side.
    pub fn is_implicit(&self) -> bool {
        self.reads(|e| matches!(e, SExpr::Next))
    }

    /// Positions of the implicit stages, in order: the bindings that read themselves,
    /// directly or through others.
    pub fn implicit_stages(&self) -> Vec<usize> {
        self.implicit_groups().into_iter().flatten().collect()
    }

    /// The implicit stages grouped into the sets that read each other (the strongly
    /// connected components of the reads among bindings that lie on a cycle), each in
    /// binding order, the groups ordered by their first binding. A stage that reads only
    /// itself is a group of one; Radau IIA's three stages are one group of three.
    pub fn implicit_groups(&self) -> Vec<Vec<usize>> {
        let n = self.bindings.len();
        // reach[i][j]: binding i reads binding j, directly or through others.
        let mut reach = vec![vec![false; n]; n];
        for (i, row) in reach.iter_mut().enumerate() {
            for (j, r) in row.iter_mut().enumerate() {
                *r = self.bindings[i].value.reads(&|e| *e == SExpr::Var(j));
            }
        }
        physis_check::scheme::cycles(reach)
    }

    /// True when the scheme binds `error`.
    pub fn is_adaptive(&self) -> bool {
        self.binds(Role::Error)
    }
}
