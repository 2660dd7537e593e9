//! A checked `scheme` declaration to a [`SchemeDef`]: bindings by position, outputs by
//! role, and `next` read in its own binding (or before it) as the implicit unknown.

use physis_check::{
    ArithOp, Builtin, CheckedScheme, Expr, ExprKind, LocalId, SchemeFn, SchemeInput,
};

use physis_syntax::{Code, Diagnostic};

use super::LowerError;
use physis_runtime::StageKind;

use crate::ir::{BinOp, UnOp};
use crate::scheme::{Role, SBinding, SExpr, SchemeDef};

/// Lowers a checked scheme.
pub fn scheme_def(s: &CheckedScheme) -> Result<SchemeDef, LowerError> {
    let out = &s.outputs;
    let role = |id: LocalId| {
        if Some(id) == out.next {
            Role::Next
        } else if Some(id) == out.error {
            Role::Error
        } else if Some(id) == out.next_x {
            Role::NextX
        } else if Some(id) == out.next_v {
            Role::NextV
        } else {
            Role::Local
        }
    };
    let mut def = SchemeDef::new(&s.name);
    def.stable = s.stable;
    def.order = s.adaptive;
    let mut bound: Vec<Option<usize>> = vec![None; s.locals.len()];
    // Where each local is bound: a stage may read a later one of its group (stages that
    // read each other, which the checker has allowed).
    let mut at: Vec<Option<usize>> = vec![None; s.locals.len()];
    for (pos, step) in s.body.iter().enumerate() {
        if let Some(slot) = at.get_mut(step.target.0) {
            *slot = Some(pos);
        }
    }
    for (pos, step) in s.body.iter().enumerate() {
        let cx = Cx {
            scheme: s,
            bound: &bound,
            at: &at,
            next: out.next,
            current: (step.target, pos),
        };
        let value = cx.expr(&step.expr)?;
        let name = s.locals.get(step.target.0).cloned().unwrap_or_default();
        let kind = if step.expr.dim == physis_check::scheme::Y {
            StageKind::State
        } else if physis_check::scheme::is_rate(step.expr.dim) {
            StageKind::Rate
        } else {
            StageKind::Other
        };
        def.bindings.push(SBinding {
            name,
            role: role(step.target),
            value,
            kind,
        });
        if let Some(slot) = bound.get_mut(step.target.0) {
            *slot = Some(pos);
        }
    }
    check_radius(s, &mut def)?;
    if s.builtin {
        def.dense = crate::prelude::continuous_extension(&def);
        def.bdf = crate::prelude::is_bdf(&def);
    }
    Ok(def)
}

/// Relative slack between a declared radius and the derived one (the declared number is
/// usually rounded down, `rk4 stable 2.78` beside 2.7853).
const RADIUS_SLACK: f64 = 1e-6;

/// Compares a declared `stable r` with the radius of the scheme's own amplification
/// polynomial: a declaration past it is refused (the run's stability check would let
/// unstable steps through); a fixed-step scheme that declares none gets the derived one.
fn check_radius(s: &CheckedScheme, def: &mut SchemeDef) -> Result<(), LowerError> {
    let Some(derived) = crate::amplification::derived_radius(def) else {
        return Ok(());
    };
    match def.stable {
        Some(r) if r > derived * (1.0 + RADIUS_SLACK) => {
            let message = format!(
                "scheme `{}` declares `stable {r}`, but its own text is stable on the negative \
                 real axis only up to h·|λ| = {derived:.6} (|R(h·λ)| ≤ 1 for its \
                 amplification polynomial R)",
                s.name
            );
            Err(LowerError::Symbolic {
                diagnostic: Box::new(
                    Diagnostic::error(Code::SchemeShape, s.span, message)
                        .with_label("this scheme overclaims its stability radius"),
                ),
            })
        }
        None if !def.is_adaptive() => {
            def.stable = Some(derived);
            Ok(())
        }
        _ => Ok(()),
    }
}

struct Cx<'a> {
    scheme: &'a CheckedScheme,
    bound: &'a [Option<usize>],
    /// Position of every local's binding.
    at: &'a [Option<usize>],
    next: Option<LocalId>,
    /// The binding being lowered and its position: reading itself makes it implicit.
    current: (LocalId, usize),
}

impl Cx<'_> {
    fn expr(&self, e: &Expr) -> Result<SExpr, LowerError> {
        let bx = |x: SExpr| Box::new(x);
        Ok(match &e.kind {
            ExprKind::Const(v) | ExprKind::Constant { value: v, .. } => SExpr::Num(*v),
            ExprKind::SchemeInput(i) => match i {
                SchemeInput::T => SExpr::T,
                SchemeInput::H => SExpr::H,
                SchemeInput::Y => SExpr::Y,
                SchemeInput::X => SExpr::X,
                SchemeInput::V => SExpr::V,
                SchemeInput::DW => SExpr::Dw,
                SchemeInput::J => SExpr::J,
                SchemeInput::Ft => SExpr::Ft,
            },
            ExprKind::Local(id) => match self.bound.get(id.0).copied().flatten() {
                Some(pos) => SExpr::Var(pos),
                None if Some(*id) == self.next => SExpr::Next,
                None if *id == self.current.0 => SExpr::Var(self.current.1),
                None if Some(*id) != self.scheme.outputs.error
                    && Some(*id) != self.scheme.outputs.next_x
                    && Some(*id) != self.scheme.outputs.next_v
                    && self.at.get(id.0).copied().flatten().is_some() =>
                {
                    SExpr::Var(self.at[id.0].unwrap_or_default())
                }
                None => {
                    return Err(LowerError::NotYetSupported {
                        feature: "a scheme output other than `next` read before its binding",
                    });
                }
            },
            ExprKind::Neg(a) => SExpr::Unary(UnOp::Neg, bx(self.expr(a)?)),
            ExprKind::Binary { op, lhs, rhs } => {
                let op = match op {
                    ArithOp::Add => BinOp::Add,
                    ArithOp::Sub => BinOp::Sub,
                    ArithOp::Mul => BinOp::Mul,
                    ArithOp::Div => BinOp::Div,
                };
                SExpr::Binary(op, bx(self.expr(lhs)?), bx(self.expr(rhs)?))
            }
            ExprKind::Pow { base, exponent } => {
                SExpr::Binary(BinOp::Pow, bx(self.expr(base)?), bx(self.expr(exponent)?))
            }
            ExprKind::Call { func, args } => {
                let op = match func {
                    Builtin::Sqrt => UnOp::Sqrt,
                    Builtin::Abs => UnOp::Abs,
                    Builtin::Exp => UnOp::Exp,
                    Builtin::Log => UnOp::Log,
                    _ => {
                        return Err(LowerError::NotYetSupported {
                            feature: "this function inside a scheme",
                        });
                    }
                };
                let [a] = &args[..] else {
                    return Err(self.bad("a one-argument function with another count"));
                };
                SExpr::Unary(op, bx(self.expr(a)?))
            }
            ExprKind::SchemeCall { func, args } => {
                let [t, y] = &args[..] else {
                    return Err(self.bad("a model function without (time, state)"));
                };
                let (t, y) = (bx(self.expr(t)?), bx(self.expr(y)?));
                match func {
                    SchemeFn::F => SExpr::F(t, y),
                    SchemeFn::A => SExpr::A(t, y),
                    SchemeFn::G => SExpr::G(t, y),
                }
            }
            _ => return Err(self.bad("an expression a scheme cannot hold")),
        })
    }

    fn bad(&self, what: &str) -> LowerError {
        LowerError::Invalid {
            problem: format!("scheme `{}`: {what}", self.scheme.name),
        }
    }
}
