//! Fields on grids: node coordinates, stencils with their boundary, node indexing.
//!
//! Conventions (a field holds one value per node, ends included):
//! - `grid (x) : Q[N] from a to b` has nodes `x_i = a + i·Δ`, `Δ = (b − a)/(N − 1)`,
//!   `i = 0..N−1`; `grid (x, y) : Q[N, M]` is row-major (`u[i, j]` is node `i·M + j`,
//!   `x` along `i`, `y` along `j`).
//! - `dirichlet v`: the boundary nodes hold `v` from the start and their rate is zero; a
//!   stencil at an interior node reads them as its neighbours, which is the IR stencil's
//!   Dirichlet ghost-node convention applied to the interior nodes (`N − 2` interior
//!   nodes with spacing `1/(N − 1)`). Stencil values at the boundary nodes themselves are
//!   not part of the equations.
//! - `neumann g` (the default `g = 0`): `g` is the outward normal derivative at the edge
//!   node, which lies on the boundary. The ghost node beyond an edge mirrors the node
//!   inside it, plus `2Δ·g`, so the central difference at the edge is `g` (second order);
//!   with `g = 0` the Laplacian conserves the trapezoidal integral of `u` (edge nodes
//!   weighted ½) exactly, and `sum(u)` to second order.
//! - `periodic`: the node after the last is the first, so the period is `b − a` and the
//!   nodes are `x_i = a + i·(b − a)/N` (`b` itself is node 0 again).
//! - periodic fields beside fields with ends (Dirichlet or Neumann) on one grid: the grid
//!   has one set of nodes, and it keeps its ends, `x_i = a + i·(b − a)/(N − 1)` from `a` to
//!   `b` as the manual's `from a to b` reads, so the fields with ends keep their boundary
//!   at `a` and `b`. A periodic field there still has period `b − a`: its last node (at
//!   `b`) is its first node again and always holds the same value, so it has `N − 1`
//!   distinct nodes along each axis, its stencils wrap over those, and `sum` and `mean`
//!   of it count each distinct node once.
//!
//! A stencil of an expression takes the boundary of the fields it reads: exact for
//! periodic fields (when every field it reads is periodic), mirror (zero gradient)
//! otherwise. A non-zero Neumann gradient is applied to a stencil of the field itself.

use physis_check::{BoundaryCondition, Builtin, CheckedModel, Expr, ExprKind};

use super::LowerError;
use super::expr::{self, Comps, Ctx};
use crate::builder::Builder;
use crate::ir::{Bc, Grid, Stencil, StencilOp, Ty, ValueId};

/// What expressions over fields need to know about the grid.
#[derive(Debug)]
pub(crate) struct GridCx<'m> {
    /// Extents.
    pub grid: Grid,
    /// Node spacing per axis (the same twice on a line).
    pub spacing: [f64; 2],
    /// Coordinate of node 0 per axis.
    pub from: [f64; 2],
    /// Every field wraps around (nodes placed over one period).
    pub periodic: bool,
    /// Some fields wrap and others have ends: the grid keeps its ends, and a periodic
    /// field's last node along each axis is its first again.
    pub mixed: bool,
    /// Per state: its boundary if it is a field.
    pub fields: Vec<Option<&'m BoundaryCondition>>,
}

impl<'m> GridCx<'m> {
    /// The grid of a checked model (`None` without one).
    pub fn new(m: &'m CheckedModel) -> Result<Option<Self>, LowerError> {
        let Some(g) = &m.grid else { return Ok(None) };
        let fields: Vec<Option<&BoundaryCondition>> = m
            .states
            .iter()
            .map(|s| {
                s.is_field.then_some(
                    s.boundary
                        .as_ref()
                        .unwrap_or(&BoundaryCondition::Neumann(None)),
                )
            })
            .collect();
        let periodic = fields
            .iter()
            .flatten()
            .filter(|b| matches!(b, BoundaryCondition::Periodic))
            .count();
        let count = fields.iter().flatten().count();
        let mixed = periodic != 0 && periodic != count;
        let periodic = periodic != 0 && !mixed;
        let (nx, ny) = match g.sizes[..] {
            [n] => (n, 1),
            [n, m] => (n, m),
            _ => return Err(super::invalid("a grid of neither one nor two axes")),
        };
        if nx < 2 || (g.sizes.len() == 2 && ny < 2) || nx * ny > u32::MAX as usize / 2 {
            return Err(super::invalid(
                "a grid with fewer than two nodes along an axis",
            ));
        }
        if mixed && (nx < 3 || (g.sizes.len() == 2 && ny < 3)) {
            return Err(LowerError::NotYetSupported {
                feature: "a periodic field beside fields with ends on a grid of fewer than three nodes along an axis",
            });
        }
        let step = |axis: usize, n: usize| -> Result<f64, LowerError> {
            let (a, b) = (
                *g.from
                    .get(axis)
                    .or(g.from.first())
                    .ok_or_else(|| super::invalid("a grid without ends"))?,
                *g.to
                    .get(axis)
                    .or(g.to.first())
                    .ok_or_else(|| super::invalid("a grid without ends"))?,
            );
            let d = (b - a) / if periodic { n as f64 } else { (n - 1) as f64 };
            if d.is_finite() && d != 0.0 {
                Ok(d)
            } else {
                Err(super::invalid("a grid whose ends coincide"))
            }
        };
        let dx = step(0, nx)?;
        let dy = if g.sizes.len() == 2 { step(1, ny)? } else { dx };
        let from = [
            g.from.first().copied().unwrap_or(0.0),
            g.from.get(1).or(g.from.first()).copied().unwrap_or(0.0),
        ];
        let grid = if g.sizes.len() == 2 {
            Grid::plane(nx as u32, ny as u32)
        } else {
            Grid::line(nx as u32)
        };
        Ok(Some(GridCx {
            grid,
            spacing: [dx, dy],
            from,
            periodic,
            mixed,
            fields,
        }))
    }

    /// True for a periodic field on a grid whose other fields have ends: its last node
    /// along each axis repeats its first.
    pub fn repeats(&self, i: usize) -> bool {
        self.mixed
            && matches!(
                self.fields.get(i).copied().flatten(),
                Some(BoundaryCondition::Periodic)
            )
    }

    /// True when `e` reads fields, all of them repeating periodic ones (see
    /// [`GridCx::repeats`]): its stencils wrap over the distinct nodes.
    pub fn wraps(&self, e: &Expr) -> bool {
        if !self.mixed {
            return false;
        }
        let mut read = Vec::new();
        fields_read(e, &mut read);
        let mut fields = read
            .into_iter()
            .filter(|i| self.fields.get(*i).copied().flatten().is_some())
            .peekable();
        fields.peek().is_some() && fields.all(|i| self.repeats(i))
    }

    /// The grid of a repeating periodic field's distinct nodes (one fewer per axis).
    fn distinct_grid(&self) -> Grid {
        if self.grid.axes() == 2 {
            Grid::plane(self.grid.nx - 1, self.grid.ny - 1)
        } else {
            Grid::line(self.grid.nx - 1)
        }
    }

    /// The distinct nodes of a repeating periodic field, row-major.
    pub fn distinct(&self, b: &mut Builder, u: ValueId) -> Result<ValueId, LowerError> {
        let d = self.distinct_grid();
        let ny = self.grid.ny as usize;
        let idx = (0..d.len())
            .map(|k| {
                let (r, c) = (k / d.ny as usize, k % d.ny as usize);
                (r * ny + c) as u32
            })
            .collect();
        Ok(b.gather(u, idx)?)
    }

    /// A value on the distinct nodes spread back over the whole grid, the last node along
    /// each axis taking the first's value.
    pub fn repeat(&self, b: &mut Builder, v: ValueId) -> Result<ValueId, LowerError> {
        let d = self.distinct_grid();
        let (dx, dy) = (d.nx as usize, d.ny as usize);
        let idx = (0..self.len())
            .map(|k| {
                let (r, c) = self.node(k);
                ((r % dx) * dy + c % dy) as u32
            })
            .collect();
        Ok(b.gather(v, idx)?)
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.grid.len()
    }

    /// Grid extents as the run reports a field's shape.
    pub fn shape(&self) -> Vec<usize> {
        if self.grid.axes() == 2 || self.grid.ny > 1 {
            vec![self.grid.nx as usize, self.grid.ny as usize]
        } else {
            vec![self.grid.nx as usize]
        }
    }

    /// `(row, column)` of node `k`.
    fn node(&self, k: usize) -> (usize, usize) {
        let ny = self.grid.ny.max(1) as usize;
        (k / ny, k % ny)
    }

    /// True at a node on the grid's edge (where a Dirichlet value holds): the runtime's
    /// rule, which also leaves those nodes out of the step control's error norm.
    fn on_edge(&self, k: usize) -> bool {
        physis_runtime::on_edge(&self.shape(), k)
    }

    /// `1` at interior nodes, `0` on the edge.
    pub fn interior_mask(&self, b: &mut Builder) -> Result<ValueId, LowerError> {
        let m: Vec<f64> = (0..self.len())
            .map(|k| if self.on_edge(k) { 0.0 } else { 1.0 })
            .collect();
        const_array(b, &m)
    }

    /// The Dirichlet value of state `i`, if it has one.
    pub fn dirichlet(&self, i: usize) -> Option<&'m Expr> {
        match self.fields.get(i).copied().flatten() {
            Some(BoundaryCondition::Dirichlet(v)) => Some(v),
            _ => None,
        }
    }
}

/// An array of constants: distinct values packed once and gathered per node, so a big
/// grid's coordinates or mask stay a few instructions.
pub(crate) fn const_array(b: &mut Builder, vals: &[f64]) -> Result<ValueId, LowerError> {
    let mut distinct: Vec<u64> = Vec::new();
    let mut idx = Vec::with_capacity(vals.len());
    for v in vals {
        let bits = v.to_bits();
        let k = match distinct.iter().position(|d| *d == bits) {
            Some(k) => k,
            None => {
                distinct.push(bits);
                distinct.len() - 1
            }
        };
        idx.push(k as u32);
        if distinct.len() > 4096 {
            // Mostly distinct: pack them all.
            let cs = vals.iter().map(|v| b.constant(*v)).collect();
            return Ok(b.pack(cs)?);
        }
    }
    let cs = distinct
        .iter()
        .map(|d| b.constant(f64::from_bits(*d)))
        .collect();
    let p = b.pack(cs)?;
    if distinct.len() == vals.len() && idx.iter().enumerate().all(|(i, k)| *k as usize == i) {
        return Ok(p);
    }
    Ok(b.gather(p, idx)?)
}

/// A scalar spread over the grid; an array passes through.
pub(crate) fn to_field(b: &mut Builder, g: &GridCx<'_>, v: ValueId) -> Result<ValueId, LowerError> {
    match b.ty(v)? {
        Ty::Scalar => Ok(b.splat(v, g.len() as u32)?),
        Ty::Array(n) if n as usize == g.len() => Ok(v),
        Ty::Array(n) => Err(LowerError::Invalid {
            problem: format!("a field of {n} values on a grid of {} nodes", g.len()),
        }),
    }
}

/// Node coordinates along `axis`.
pub(crate) fn coord(b: &mut Builder, g: &GridCx<'_>, axis: usize) -> Result<ValueId, LowerError> {
    if axis >= g.grid.axes() as usize {
        return Err(super::invalid(
            "a coordinate of an axis the grid does not have",
        ));
    }
    let xs: Vec<f64> = (0..g.len())
        .map(|k| {
            let (r, c) = g.node(k);
            let i = if axis == 0 { r } else { c };
            g.from[axis] + i as f64 * g.spacing[axis]
        })
        .collect();
    const_array(b, &xs)
}

/// A node of a field: `u[i]` or `u[i, j]`.
pub(crate) fn index(
    b: &mut Builder,
    g: &GridCx<'_>,
    u: ValueId,
    idx: &[usize],
) -> Result<ValueId, LowerError> {
    let k = match (idx, g.grid.axes()) {
        ([i], 1) => *i,
        ([i, j], 2) if *j < g.grid.ny as usize => i * g.grid.ny as usize + j,
        _ => return Err(super::invalid("a node index that does not fit the grid")),
    };
    let u = to_field(b, g, u)?;
    Ok(b.index(u, k as u32)?)
}

/// How a stencil's argument is continued past the edge.
enum Edge<'e> {
    Periodic,
    /// Ghost = the node inside the edge, mirrored.
    Mirror,
    /// Ghost = the mirrored node + 2Δ·g (outward).
    Gradient(&'e Expr),
}

/// `dx`, `dy`, `laplacian` and the one-sided differences of a field.
pub(crate) fn stencil(
    b: &mut Builder,
    cx: &Ctx<'_>,
    func: Builtin,
    args: &[Expr],
    vals: &[Comps],
) -> Result<Comps, LowerError> {
    let g = cx.grid.ok_or(LowerError::NotYetSupported {
        feature: "fields without a grid",
    })?;
    let ([arg], [v]) = (args, vals) else {
        return Err(super::invalid("a stencil with another argument count"));
    };
    let [u] = v[..] else {
        return Err(super::invalid("a stencil of something that is not a field"));
    };
    use Builtin as F;
    let op = match func {
        F::Dx => StencilOp::Central(0),
        F::Dy => StencilOp::Central(1),
        F::DxBackward => StencilOp::Backward(0),
        F::DxForward => StencilOp::Forward(0),
        F::DyBackward => StencilOp::Backward(1),
        F::DyForward => StencilOp::Forward(1),
        F::Laplacian => StencilOp::Laplacian,
        _ => return Err(super::invalid("a stencil the IR does not know")),
    };
    let u = to_field(b, g, u)?;
    if g.wraps(arg) {
        // A periodic field on a grid with ends: wrap over its distinct nodes.
        let d = g.distinct(b, u)?;
        let spacing = [b.constant(g.spacing[0]), b.constant(g.spacing[1])];
        let s = b.stencil(Stencil {
            op,
            grid: g.distinct_grid(),
            u: d,
            spacing,
            bc: Bc::Periodic,
        })?;
        return Ok(vec![g.repeat(b, s)?]);
    }
    let edge = edge_of(g, arg)?;
    let spacing = [b.constant(g.spacing[0]), b.constant(g.spacing[1])];
    let bc = match edge {
        Edge::Periodic => Bc::Periodic,
        _ => Bc::Neumann(b.constant(0.0)),
    };
    let mut s = b.stencil(Stencil {
        op,
        grid: g.grid,
        u,
        spacing,
        bc,
    })?;
    if let Edge::Gradient(ge) = edge {
        let gv = expr::lower(b, cx, ge)?;
        let [gv] = gv[..] else {
            return Err(super::invalid("a neumann gradient that is not one number"));
        };
        if b.const_of(gv) != Some(0.0) {
            let w = const_array(b, &outward_weights(g, op))?;
            let t = b.mul(w, gv)?;
            s = b.add(s, t)?;
        }
    }
    Ok(vec![s])
}

/// What the stencil of `arg` reads past the edge.
fn edge_of<'e>(g: &GridCx<'e>, arg: &'e Expr) -> Result<Edge<'e>, LowerError> {
    if g.periodic {
        return Ok(Edge::Periodic);
    }
    let gradient = |bc: Option<&'e BoundaryCondition>| match bc {
        Some(BoundaryCondition::Neumann(Some(e))) => match physis_check::eval::constant(e) {
            Some(physis_check::Value::Scalar(0.0)) => None,
            _ => Some(e),
        },
        _ => None,
    };
    if let ExprKind::State(id) = arg.kind {
        return Ok(match gradient(g.fields.get(id.0).copied().flatten()) {
            Some(e) => Edge::Gradient(e),
            None => Edge::Mirror,
        });
    }
    let mut read = Vec::new();
    fields_read(arg, &mut read);
    if read
        .iter()
        .any(|id| gradient(g.fields.get(*id).copied().flatten()).is_some())
    {
        return Err(LowerError::NotYetSupported {
            feature: "a stencil of an expression over a field with a non-zero neumann gradient",
        });
    }
    Ok(Edge::Mirror)
}

/// States an expression reads.
fn fields_read(e: &Expr, out: &mut Vec<usize>) {
    e.walk(&mut |x| {
        if let ExprKind::State(id) | ExprKind::Rate(id) = x.kind {
            out.push(id.0);
        }
    });
}

/// What a unit outward gradient adds to the mirror stencil at each node (see the module
/// notes): the ghost moves by `2Δ`, times the stencil's weight on it.
fn outward_weights(g: &GridCx<'_>, op: StencilOp) -> Vec<f64> {
    let (nx, ny) = (g.grid.nx as usize, g.grid.ny.max(1) as usize);
    (0..g.len())
        .map(|k| {
            let (r, c) = g.node(k);
            let ends = |axis: u8| {
                let (i, n) = if axis == 0 { (r, nx) } else { (c, ny) };
                (f64::from(u8::from(i == 0)), f64::from(u8::from(i + 1 == n)))
            };
            match op {
                StencilOp::Central(a) => {
                    let (lo, hi) = ends(a);
                    hi - lo
                }
                StencilOp::Backward(a) => -2.0 * ends(a).0,
                StencilOp::Forward(a) => 2.0 * ends(a).1,
                StencilOp::Laplacian => (0..g.grid.axes())
                    .map(|a| {
                        let (lo, hi) = ends(a);
                        2.0 * (lo + hi) / g.spacing[a as usize]
                    })
                    .sum(),
            }
        })
        .collect()
}
