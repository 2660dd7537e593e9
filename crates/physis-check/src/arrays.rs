//! Arrays of vectors (`state q : Length[7][2]`), expanded at check time like the indexed
//! forms of [`crate::sums`]. Such a state or param is stored as one flat vector, row by row
//! (`q[j][k]` is component `j·2 + k`), so the symbolic layer, lowering, the interpreter and
//! generated code see nothing new. The checker alone knows the rows:
//!
//! - `q[j]` is the 2-vector of row `j` (a vector literal of components), `q[j][k]` and
//!   `q[j, k]` one component;
//! - a bare `q` is refused (PH0109): whether `norm(q)` meant one body or all seven is not for
//!   the checker to guess;
//! - an initial value or param default is written as rows, `[[3 m, 3 m], [−1 m, 2 m], …]`;
//! - a per-index law `law q[i]'' = e` takes one row per index: `e` is a 2-vector.

use crate::expr::{Expr, ExprKind, Shape};
use crate::infer::{CResult, Cx};
use physis_syntax::ast;
use physis_syntax::{Code, Diagnostic, Span};

/// The flat size of `rows` vectors of `width` components, if within `limit`.
pub(crate) fn flat_size(rows: usize, width: usize, limit: usize) -> Option<usize> {
    rows.checked_mul(width).filter(|&n| n <= limit)
}

/// A literal written as rows (`[[a, b], [c, d]]`) as the flat literal it stands for
/// (`[a, b, c, d]`), keeping spans; `Ok(None)` when `e` is not written as rows at all (it is
/// then checked as it stands), an error when the rows do not fit `rows × width`.
pub(crate) fn flatten_rows(
    e: &ast::Expr,
    rows: usize,
    width: usize,
) -> Result<Option<ast::Expr>, Diagnostic> {
    let ast::ExprKind::Vector(items) = &e.kind else {
        return Ok(None);
    };
    let as_rows: Vec<&[ast::Expr]> = items
        .iter()
        .filter_map(|i| match &i.kind {
            ast::ExprKind::Vector(row) => Some(row.as_slice()),
            _ => None,
        })
        .collect();
    if as_rows.is_empty() {
        return Ok(None);
    }
    if as_rows.len() != items.len() || items.len() != rows {
        return Err(Diagnostic::error(
            Code::ShapeMismatch,
            e.span,
            format!(
                "an array of {rows} vectors is written as {rows} rows `[a, b]`, found {} item(s)",
                items.len()
            ),
        )
        .with_label(format!("{rows} vectors of {width} components expected"))
        .with_hint("e.g. `[[3 m, 3 m], [−1 m, 2 m], …]`, one row per vector"));
    }
    let mut flat = Vec::with_capacity(rows * width);
    for (row, item) in as_rows.iter().zip(items) {
        if row.len() != width {
            return Err(Diagnostic::error(
                Code::ShapeMismatch,
                item.span,
                format!(
                    "each vector of this array has {width} components, this one has {}",
                    row.len()
                ),
            )
            .with_label(format!("{width} components expected")));
        }
        flat.extend(row.iter().cloned());
    }
    Ok(Some(ast::Expr {
        kind: ast::ExprKind::Vector(flat),
        span: e.span,
    }))
}

/// Component `k` of a checked vector expression: pushed through vector literals, negations
/// and arithmetic (a scalar side is kept whole), so a per-index law's components stay as
/// small as if each were written by hand; other forms are indexed.
pub(crate) fn component(e: &Expr, k: usize) -> Expr {
    let scalar = |kind| Expr {
        kind,
        dim: e.dim,
        shape: Shape::Scalar,
        span: e.span,
    };
    let part = |x: &Expr| {
        if x.shape == Shape::Scalar {
            x.clone()
        } else {
            component(x, k)
        }
    };
    match &e.kind {
        ExprKind::Vector(items) if k < items.len() => items[k].clone(),
        ExprKind::Neg(x) => scalar(ExprKind::Neg(Box::new(part(x)))),
        ExprKind::Binary { op, lhs, rhs } => scalar(ExprKind::Binary {
            op: *op,
            lhs: Box::new(part(lhs)),
            rhs: Box::new(part(rhs)),
        }),
        _ => scalar(ExprKind::Index {
            base: Box::new(e.clone()),
            index: vec![k],
        }),
    }
}

/// A row literal: components `j·width .. (j + 1)·width` of the flat `whole`.
fn row(whole: &Expr, j: usize, width: usize, span: Span) -> Expr {
    let items = (0..width)
        .map(|k| Expr {
            kind: ExprKind::Index {
                base: Box::new(whole.clone()),
                index: vec![j * width + k],
            },
            dim: whole.dim,
            shape: Shape::Scalar,
            span,
        })
        .collect();
    Expr {
        kind: ExprKind::Vector(items),
        dim: whole.dim,
        shape: Shape::Vector(width),
        span,
    }
}

impl Cx<'_> {
    /// A bare read of an array of vectors: refused.
    pub(crate) fn whole_array(&mut self, name: &ast::Name, width: usize) -> crate::infer::Reported {
        let key = name.key();
        self.fail(
            Diagnostic::error(
                Code::ShapeMismatch,
                name.span,
                format!("`{key}` is an array of vectors and is read one vector at a time"),
            )
            .with_label(format!("vectors of {width} components"))
            .with_hint(format!(
                "read a vector with `{key}[j]`, a component with `{key}[j][0]`"
            )),
        )
    }

    /// `q[j]`, `q[j][k]` or `q[j, k]` of the array of vectors `name` (`width` components
    /// each): `indices` are all the indices written, outer ones last.
    pub(crate) fn array_index(
        &mut self,
        name: &ast::Name,
        width: usize,
        indices: &[&ast::Expr],
        span: Span,
    ) -> CResult<Expr> {
        let whole = crate::inline::name(self, name)?;
        let Shape::Vector(total) = whole.shape else {
            return Err(self.whole_array(name, width));
        };
        let rows = total / width.max(1);
        let mut at = Vec::with_capacity(indices.len());
        for i in indices {
            at.push(self.constant_index(i)?);
        }
        let bad = |this: &mut Self, e: &ast::Expr, i: usize, n: usize, what: &str| {
            this.fail(
                Diagnostic::error(
                    Code::ShapeMismatch,
                    e.span,
                    format!("index {i} is out of bounds for {n} {what}"),
                )
                .with_label(format!("valid indices are 0 to {}", n.saturating_sub(1))),
            )
        };
        match (at.as_slice(), indices) {
            ([j], [e]) => {
                if *j >= rows {
                    return Err(bad(self, e, *j, rows, "vectors"));
                }
                Ok(row(&whole, *j, width, span))
            }
            ([j, k], [ej, ek]) => {
                if *j >= rows {
                    return Err(bad(self, ej, *j, rows, "vectors"));
                }
                if *k >= width {
                    return Err(bad(self, ek, *k, width, "components"));
                }
                Ok(Expr {
                    kind: ExprKind::Index {
                        base: Box::new(whole.clone()),
                        index: vec![j * width + k],
                    },
                    dim: whole.dim,
                    shape: Shape::Scalar,
                    span,
                })
            }
            _ => Err(self.fail(
                Diagnostic::error(
                    Code::ShapeMismatch,
                    span,
                    format!(
                        "an array of vectors takes one or two indices, found {}",
                        indices.len()
                    ),
                )
                .with_hint(format!(
                    "`{0}[j]` is a vector, `{0}[j][k]` a component",
                    name.key()
                )),
            )),
        }
    }

    /// A per-index law's rows (each `width` components) as the flat vector of the state.
    pub(crate) fn flatten_law(&mut self, items: Vec<Expr>, width: usize) -> CResult<Vec<Expr>> {
        let mut flat = Vec::with_capacity(items.len() * width);
        for item in items {
            if item.shape != Shape::Vector(width) {
                return Err(self.fail(
                    Diagnostic::error(
                        Code::ShapeMismatch,
                        item.span,
                        format!(
                            "a per-index law of an array of vectors gives one vector of {width} \
                             components, found {}",
                            item.shape.describe()
                        ),
                    )
                    .with_label(format!("not {width} components")),
                ));
            }
            flat.extend((0..width).map(|k| component(&item, k)));
        }
        Ok(flat)
    }
}
