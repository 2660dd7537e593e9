//! Where a scheme may write `J`, the rate's Jacobian `∂f/∂y` at the step's start: only
//! applied to a state-shaped value on its right, possibly scaled by scalars on either side
//! (`h·J·k₁`, `γ·h·J·(k₁ − k₂)`, `J·k₁/2`). `J` has dimension `T⁻¹`, so dimensions already
//! check (`h·J` is dimensionless, `J·k` has `k`'s dimension over time); this pass refuses the
//! uses that have a dimension but no meaning as a matrix–vector product (`J + 1/h`, `√(h·J)`,
//! `k₁·J`, `J·J·k`, a bare `J`), with one diagnostic per binding.

use crate::expr::{ArithOp, Expr, ExprKind, SchemeInput};
use physis_syntax::{Code, Diagnostic, Span};
use units::Base;

/// True for a value of the state's shape (its dimension holds the state placeholder).
fn state_like(e: &Expr) -> bool {
    !e.dim.exponent(Base::Amount).is_zero()
}

/// Why a use of `J` is refused, and where.
struct Misuse {
    span: Span,
    what: &'static str,
}

/// Whether `e` is an operator (`J` scaled by scalars) rather than a value.
fn operator(e: &Expr) -> Result<bool, Misuse> {
    let bad = |span, what| Err(Misuse { span, what });
    match &e.kind {
        ExprKind::SchemeInput(SchemeInput::J) => Ok(true),
        ExprKind::Neg(a) => operator(a),
        ExprKind::Binary { op, lhs, rhs } => {
            let (l, r) = (operator(lhs)?, operator(rhs)?);
            match op {
                ArithOp::Mul => match (l, r) {
                    (true, true) => bad(e.span, "`J` times `J`: a scheme applies `J` once"),
                    (true, false) => Ok(!state_like(rhs)),
                    (false, true) if state_like(lhs) => bad(
                        e.span,
                        "`J` stands right of the value it would be applied to",
                    ),
                    (false, true) => Ok(true),
                    (false, false) => Ok(false),
                },
                ArithOp::Div if r => bad(rhs.span, "`J` in a divisor"),
                ArithOp::Div if l && state_like(rhs) => {
                    bad(e.span, "`J` divided by a state-shaped value")
                }
                ArithOp::Div => Ok(l),
                _ if l || r => bad(
                    e.span,
                    "`J` added to a value: a scheme applies `J` to a state-shaped value, \
                     `I − γ·h·J` is written as an implicit stage",
                ),
                _ => Ok(false),
            }
        }
        ExprKind::Pow { base, exponent } => {
            if operator(base)? || operator(exponent)? {
                return bad(e.span, "a power of `J`");
            }
            Ok(false)
        }
        ExprKind::Call { args, .. }
        | ExprKind::SchemeCall { args, .. }
        | ExprKind::Vector(args) => {
            for a in args {
                if operator(a)? {
                    return bad(a.span, "`J` as an argument");
                }
            }
            Ok(false)
        }
        ExprKind::Index { base, .. } => {
            if operator(base)? {
                return bad(e.span, "a component of `J`");
            }
            Ok(false)
        }
        _ => Ok(false),
    }
}

/// The diagnostic of a binding's right side that uses `J` other than applied to a
/// state-shaped value on its right; `None` when every use is such an application.
pub(crate) fn misuse(value: &Expr) -> Option<Diagnostic> {
    let found = match operator(value) {
        Ok(true) => Misuse {
            span: value.span,
            what: "`J` not applied to anything",
        },
        Ok(false) => return None,
        Err(m) => m,
    };
    Some(
        Diagnostic::error(Code::SchemeShape, found.span, found.what)
            .with_label("not `J` applied to a state-shaped value")
            .with_hint(
                "`J` is the rate's Jacobian ∂f/∂y at (t, y); write it applied to a state-shaped \
             value on its right, as in `k₁ ≔ f(t, y) + γ·h·J·k₁`",
            ),
    )
}
