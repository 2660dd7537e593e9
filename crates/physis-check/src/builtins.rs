//! Dimension and shape rules of the built-in functions.

use crate::expr::{Builtin, Expr, ExprKind, Shape};
use crate::infer::{CResult, Cx, Reported};
use physis_syntax::{Code, Diagnostic, Span};
use units::{Dimension, Exponent};

fn name(func: Builtin) -> String {
    format!("{func:?}")
        .chars()
        .enumerate()
        .map(|(i, c)| if i == 0 { c.to_ascii_lowercase() } else { c })
        .collect()
}

fn arity(func: Builtin) -> usize {
    use Builtin::*;
    match func {
        Min | Max | Atan2 | Hypot | Dot | Cross => 2,
        _ => 1,
    }
}

/// Check `func(args)`.
pub(crate) fn check(cx: &mut Cx<'_>, func: Builtin, args: Vec<Expr>, span: Span) -> CResult<Expr> {
    use Builtin::*;
    let fname = name(func);
    if args.len() != arity(func) {
        return Err(cx.fail(Diagnostic::error(
            Code::BadArgument,
            span,
            format!(
                "`{fname}` takes {} argument(s), found {}",
                arity(func),
                args.len()
            ),
        )));
    }
    let a = &args[0];
    let (dim, shape) = match func {
        Sin | Cos | Tan | Asin | Acos | Atan | Sinh | Cosh | Tanh | Exp | Log | Log10 | Floor
        | Ceil => {
            pure(cx, &fname, a)?;
            (Dimension::NONE, a.shape)
        }
        Sqrt => (a.dim.pow(half()), a.shape),
        Abs => (a.dim, a.shape),
        Sign => (Dimension::NONE, a.shape),
        Min | Max | Hypot | Atan2 => {
            let b = &args[1];
            if a.dim != b.dim {
                return Err(cx.mismatch(&format!("take `{fname}` of"), a, b));
            }
            let shape = cx.broadcast(a, b, span)?;
            let dim = if func == Atan2 {
                Dimension::NONE
            } else {
                a.dim
            };
            (dim, shape)
        }
        Norm => {
            sized(cx, &fname, a, None)?;
            (a.dim, Shape::Scalar)
        }
        Dot => {
            let b = &args[1];
            let shape = sized(cx, &fname, a, None)?;
            sized(cx, &fname, b, Some(shape))?;
            (a.dim * b.dim, Shape::Scalar)
        }
        Cross => {
            let b = &args[1];
            vector(cx, &fname, a, Some(3))?;
            vector(cx, &fname, b, Some(3))?;
            (a.dim * b.dim, Shape::Vector(3))
        }
        Dx | Dy | DxBackward | DxForward | DyBackward | DyForward | Laplacian => {
            let grid = field(cx, &fname, a)?;
            let needs_y = matches!(func, Dy | DyBackward | DyForward);
            if needs_y && grid.sizes.len() < 2 {
                return Err(cx.fail(
                    Diagnostic::error(
                        Code::GridOperator,
                        span,
                        format!("`{fname}` needs a two-dimensional grid"),
                    )
                    .with_hint("declare `grid (x, y) : Q[N, M] from a to b`"),
                ));
            }
            let per = if func == Laplacian {
                grid.dim.powi(2)
            } else {
                grid.dim
            };
            (a.dim / per, Shape::Field)
        }
        Sum | Mean | MaxAbs => {
            if a.shape == Shape::Scalar {
                return Err(cx.fail(
                    Diagnostic::error(
                        Code::GridOperator,
                        a.span,
                        format!("`{fname}` reduces a field or vector, found a single number"),
                    )
                    .with_label("a single number"),
                ));
            }
            (a.dim, Shape::Scalar)
        }
    };
    Ok(Expr {
        kind: ExprKind::Call { func, args },
        dim,
        shape,
        span,
    })
}

fn half() -> Exponent {
    Exponent::new(1, 2).unwrap_or(Exponent::ONE)
}

fn pure(cx: &mut Cx<'_>, fname: &str, a: &Expr) -> CResult<()> {
    if a.dim.is_dimensionless() {
        return Ok(());
    }
    let found = cx.dim_text(a.dim);
    Err(cx.fail(
        Diagnostic::error(
            Code::BadArgument,
            a.span,
            format!("`{fname}` needs a pure number, found {found}"),
        )
        .with_label(found)
        .with_hint("divide by a reference quantity to make the argument dimensionless"),
    ))
}

/// Require a vector (of size `n` when given); returns its size.
fn vector(cx: &mut Cx<'_>, fname: &str, a: &Expr, n: Option<usize>) -> CResult<usize> {
    match (a.shape, n) {
        (Shape::Vector(m), None) => Ok(m),
        (Shape::Vector(m), Some(n)) if m == n => Ok(m),
        (shape, n) => {
            let want = match n {
                Some(n) => format!("{n} components"),
                None => "a vector".into(),
            };
            Err(cx.fail(
                Diagnostic::error(
                    Code::ShapeMismatch,
                    a.span,
                    format!("`{fname}` takes {want}, found {}", shape.describe()),
                )
                .with_label(shape.describe()),
            ))
        }
    }
}

/// Require a vector or a field (of the shape `want` when given): what `norm` and `dot`
/// reduce. A field is sized by the simulation's one grid, so two fields always fit.
fn sized(cx: &mut Cx<'_>, fname: &str, a: &Expr, want: Option<Shape>) -> CResult<Shape> {
    match (a.shape, want) {
        (Shape::Field, None | Some(Shape::Field)) => {
            field(cx, fname, a)?;
            Ok(Shape::Field)
        }
        (Shape::Vector(_), None) => Ok(a.shape),
        (Shape::Vector(m), Some(Shape::Vector(n))) if m == n => Ok(a.shape),
        (shape, want) => {
            let want = match want {
                Some(Shape::Vector(n)) => format!("{n} components"),
                Some(Shape::Field) => "a field".into(),
                _ => "a vector or a field".into(),
            };
            Err(cx.fail(
                Diagnostic::error(
                    Code::ShapeMismatch,
                    a.span,
                    format!("`{fname}` takes {want}, found {}", shape.describe()),
                )
                .with_label(shape.describe()),
            ))
        }
    }
}

fn field(cx: &mut Cx<'_>, fname: &str, a: &Expr) -> Result<crate::infer::GridInfo, Reported> {
    match (a.shape, cx.grid()) {
        (Shape::Field, Some(grid)) => Ok(grid),
        (shape, _) => Err(cx.fail(
            Diagnostic::error(
                Code::GridOperator,
                a.span,
                format!("`{fname}` acts on a field, found {}", shape.describe()),
            )
            .with_label("not a field")
            .with_hint("declare it with `field u : Q = value` on a `grid`"),
        )),
    }
}
