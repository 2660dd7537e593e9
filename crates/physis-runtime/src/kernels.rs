//! Whole-array kernels: stencils and reductions over grid fields, one loop each. The IR
//! interpreter and generated code both call these, so both produce the same bits.

/// Reductions of an array to a scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduceOp {
    /// Σ uᵢ (in index order)
    Sum,
    /// Σ uᵢ / n
    Mean,
    /// max |uᵢ|
    MaxAbs,
}

/// Which difference a stencil takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StencilOp {
    /// `(u[i+1] − u[i−1]) / 2Δ` along an axis (0 = x, 1 = y).
    Central(u8),
    /// `(u[i] − u[i−1]) / Δ` along an axis.
    Backward(u8),
    /// `(u[i+1] − u[i]) / Δ` along an axis.
    Forward(u8),
    /// `Σ_axes (u[i+1] − 2u[i] + u[i−1]) / Δ²`.
    Laplacian,
}

/// Extents of a grid: `[n]` or `[n, m]` (row-major, the last index fastest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    /// Nodes along x.
    pub nx: u32,
    /// Nodes along y (1 for a 1-D grid).
    pub ny: u32,
}

impl Grid {
    /// A 1-D grid of `n` nodes.
    pub fn line(n: u32) -> Self {
        Grid { nx: n, ny: 1 }
    }

    /// A 2-D grid of `nx × ny` nodes.
    pub fn plane(nx: u32, ny: u32) -> Self {
        Grid { nx, ny }
    }

    /// Number of nodes.
    pub fn len(self) -> usize {
        self.nx as usize * self.ny as usize
    }

    /// True when the grid has no node.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Number of axes (1 or 2).
    pub fn axes(self) -> u8 {
        if self.ny > 1 { 2 } else { 1 }
    }
}

/// A boundary with its value already read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BcValue {
    /// Ghost value.
    Dirichlet(f64),
    /// Derivative along the axis at both ends.
    Neumann(f64),
    /// Wrap around.
    Periodic,
}

/// The value past the low end of a line whose second node is `inner` (`wrap`: its last).
/// Neumann mirrors `inner` through the edge node, which sits on the boundary, so the
/// central difference across the edge is `g`: second order, and the trapezoidal integral
/// of the field is conserved by the Laplacian when `g = 0`.
#[inline]
fn ghost_lo(bc: BcValue, delta: f64, inner: f64, wrap: f64) -> f64 {
    match bc {
        BcValue::Dirichlet(v) => v,
        BcValue::Neumann(g) => inner - 2.0 * delta * g,
        BcValue::Periodic => wrap,
    }
}

/// The value past the high end of a line whose last but one node is `inner` (`wrap`: its
/// first); the mirror of [`ghost_lo`].
#[inline]
fn ghost_hi(bc: BcValue, delta: f64, inner: f64, wrap: f64) -> f64 {
    match bc {
        BcValue::Dirichlet(v) => v,
        BcValue::Neumann(g) => inner + 2.0 * delta * g,
        BcValue::Periodic => wrap,
    }
}

/// `o[j] = acc(o[j], f(left, centre, right))` along one contiguous line; the interior runs
/// without boundary tests, the two ends take their ghosts.
#[inline]
fn line_pass(
    row: &[f64],
    o: &mut [f64],
    delta: f64,
    bc: BcValue,
    f: impl Fn(f64, f64, f64) -> f64,
    acc: impl Fn(f64, f64) -> f64,
) {
    let n = row.len().min(o.len());
    let (row, o) = (&row[..n], &mut o[..n]);
    let (Some(&first), Some(&last)) = (row.first(), row.last()) else {
        return;
    };
    // A line of one node mirrors itself.
    let (second, before_last) = (
        row.get(1).copied().unwrap_or(first),
        row[n.saturating_sub(2)],
    );
    let lo = ghost_lo(bc, delta, second, last);
    let hi = ghost_hi(bc, delta, before_last, first);
    if n == 1 {
        o[0] = acc(o[0], f(lo, first, hi));
        return;
    }
    o[0] = acc(o[0], f(lo, first, row[1]));
    for (oj, w) in o[1..n - 1].iter_mut().zip(row.windows(3)) {
        *oj = acc(*oj, f(w[0], w[1], w[2]));
    }
    o[n - 1] = acc(o[n - 1], f(row[n - 2], last, hi));
}

/// One difference along `axis` of an `nx × ny` row-major grid, combined into `out`.
#[allow(clippy::too_many_arguments)] // the kernel's whole state, passed once per call
#[inline]
fn axis_pass(
    axis: u8,
    (nx, ny): (usize, usize),
    u: &[f64],
    out: &mut [f64],
    delta: f64,
    bc: BcValue,
    f: impl Fn(f64, f64, f64) -> f64 + Copy,
    acc: impl Fn(f64, f64) -> f64 + Copy,
) {
    if axis == 0 && ny == 1 {
        // A 1-D grid is one contiguous line.
        line_pass(u, out, delta, bc, f, acc);
        return;
    }
    if axis != 0 {
        for (row, o) in u.chunks_exact(ny).zip(out.chunks_exact_mut(ny)) {
            line_pass(row, o, delta, bc, f, acc);
        }
        return;
    }
    // Across rows: neighbours are whole rows, ghosts only in the first and last row.
    let row = |r: usize| &u[r * ny..(r + 1) * ny];
    let periodic = bc == BcValue::Periodic;
    for (r, o) in out.chunks_exact_mut(ny).enumerate().take(nx) {
        let mid = row(r);
        let up = match r {
            0 if periodic => Some(row(nx - 1)),
            0 => None,
            _ => Some(row(r - 1)),
        };
        let down = match r + 1 {
            x if x < nx => Some(row(x)),
            _ if periodic => Some(row(0)),
            _ => None,
        };
        if let (Some(a), Some(b)) = (up, down) {
            for (((oj, &l), &c), &rr) in o.iter_mut().zip(a).zip(mid).zip(b) {
                *oj = acc(*oj, f(l, c, rr));
            }
        } else {
            // The mirror of the first row is the second, of the last the last but one.
            let inner_lo = row(1.min(nx - 1));
            let inner_hi = row(nx.saturating_sub(2));
            for (j, (oj, &c)) in o.iter_mut().zip(mid).enumerate() {
                let l = up.map_or_else(|| ghost_lo(bc, delta, inner_lo[j], c), |a| a[j]);
                let rr = down.map_or_else(|| ghost_hi(bc, delta, inner_hi[j], c), |b| b[j]);
                *oj = acc(*oj, f(l, c, rr));
            }
        }
    }
}

/// Applies a stencil: `out[k]` for every node `k` of `grid`. Each axis is one pass whose
/// interior needs no boundary test; the Laplacian sums its axes in order from zero.
pub fn stencil(
    op: StencilOp,
    grid: Grid,
    u: &[f64],
    spacing: [f64; 2],
    bc: BcValue,
    out: &mut [f64],
) {
    let (nx, ny) = (grid.nx as usize, (grid.ny as usize).max(1));
    let len = nx * ny;
    let (u, out) = (&u[..len], &mut out[..len]);
    let dims = (nx, ny);
    let set = |_: f64, v: f64| v;
    match op {
        StencilOp::Central(a) => {
            let d = spacing[a as usize];
            axis_pass(a, dims, u, out, d, bc, |l, _, r| (r - l) / (2.0 * d), set);
        }
        StencilOp::Backward(a) => {
            let d = spacing[a as usize];
            axis_pass(a, dims, u, out, d, bc, |l, c, _| (c - l) / d, set);
        }
        StencilOp::Forward(a) => {
            let d = spacing[a as usize];
            axis_pass(a, dims, u, out, d, bc, |_, c, r| (r - c) / d, set);
        }
        StencilOp::Laplacian => {
            for a in 0..grid.axes() {
                let d = spacing[a as usize];
                let term = |l: f64, c: f64, r: f64| (r - 2.0 * c + l) / (d * d);
                if a == 0 {
                    axis_pass(a, dims, u, out, d, bc, term, |_, v| 0.0 + v);
                } else {
                    axis_pass(a, dims, u, out, d, bc, term, |o, v| o + v);
                }
            }
        }
    }
}

/// Reduces an array to one number (a NaN element makes `maxAbs` NaN).
pub fn reduce(op: ReduceOp, u: &[f64]) -> f64 {
    match op {
        ReduceOp::Sum => u.iter().sum(),
        ReduceOp::Mean => u.iter().sum::<f64>() / u.len() as f64,
        ReduceOp::MaxAbs => {
            let mut m = 0.0f64;
            for x in u {
                if x.is_nan() {
                    return f64::NAN;
                }
                m = m.max(x.abs());
            }
            m
        }
    }
}

/// `sign(u[k])·du[k]` at the first `k` of largest `|u[k]|`.
pub fn pick_max_abs(u: &[f64], du: &[f64]) -> f64 {
    let mut best = 0;
    for (k, x) in u.iter().enumerate() {
        if x.abs() > u[best].abs() {
            best = k;
        }
    }
    match (u.get(best), du.get(best)) {
        (Some(x), Some(d)) => crate::scalar::sign(*x) * d,
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The node-by-node definition (every neighbour through a boundary test), which the
    /// pass-wise kernel must reproduce bit for bit.
    fn reference(op: StencilOp, grid: Grid, u: &[f64], sp: [f64; 2], bc: BcValue) -> Vec<f64> {
        let (nx, ny) = (grid.nx as usize, (grid.ny as usize).max(1));
        let at = |a: u8, r: usize, c: usize, step: isize| -> f64 {
            let (n, stride, i) = if a == 0 { (nx, ny, r) } else { (ny, 1, c) };
            let base = r * ny + c - i * stride;
            let j = i as isize + step;
            if j >= 0 && (j as usize) < n {
                return u[base + j as usize * stride];
            }
            // The mirror image of the node past the edge.
            let m = (2 * i as isize - j).clamp(0, n as isize - 1) as usize;
            let inner = u[base + m * stride];
            match bc {
                BcValue::Dirichlet(v) => v,
                BcValue::Neumann(g) if j < 0 => inner - 2.0 * sp[a as usize] * g,
                BcValue::Neumann(g) => inner + 2.0 * sp[a as usize] * g,
                BcValue::Periodic => u[base + if j < 0 { n - 1 } else { 0 } * stride],
            }
        };
        let mut out = vec![0.0; nx * ny];
        for r in 0..nx {
            for c in 0..ny {
                let k = r * ny + c;
                out[k] = match op {
                    StencilOp::Central(a) => {
                        (at(a, r, c, 1) - at(a, r, c, -1)) / (2.0 * sp[a as usize])
                    }
                    StencilOp::Backward(a) => (u[k] - at(a, r, c, -1)) / sp[a as usize],
                    StencilOp::Forward(a) => (at(a, r, c, 1) - u[k]) / sp[a as usize],
                    StencilOp::Laplacian => {
                        let mut s = 0.0;
                        for a in 0..grid.axes() {
                            let d = sp[a as usize];
                            s += (at(a, r, c, 1) - 2.0 * u[k] + at(a, r, c, -1)) / (d * d);
                        }
                        s
                    }
                };
            }
        }
        out
    }

    proptest! {
        #[test]
        fn passes_match_the_node_by_node_definition(
            nx in 1u32..9,
            ny in 1u32..9,
            which in 0usize..7,
            bck in 0usize..3,
            g in -3.0f64..3.0,
            seed in any::<u64>(),
        ) {
            let grid = Grid::plane(nx, ny);
            let op = [
                StencilOp::Laplacian,
                StencilOp::Central(0),
                StencilOp::Central(1),
                StencilOp::Backward(0),
                StencilOp::Backward(1),
                StencilOp::Forward(0),
                StencilOp::Forward(1),
            ][which];
            let bc = [BcValue::Dirichlet(g), BcValue::Neumann(g), BcValue::Periodic][bck];
            let mut s = seed | 1;
            let u: Vec<f64> = (0..grid.len())
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    (s >> 11) as f64 / (1u64 << 53) as f64 * 4.0 - 2.0
                })
                .collect();
            let sp = [0.3, 0.7];
            let mut out = vec![f64::NAN; grid.len()];
            stencil(op, grid, &u, sp, bc, &mut out);
            let want = reference(op, grid, &u, sp, bc);
            for (o, w) in out.iter().zip(&want) {
                prop_assert_eq!(o.to_bits(), w.to_bits());
            }
        }
    }

    #[test]
    fn laplacian_of_a_sine_is_its_discrete_eigenvalue() {
        // N interior nodes, spacing 1/(N+1), Dirichlet 0: sin(πx) is an eigenvector with
        // eigenvalue −(4/Δ²)·sin²(πΔ/2) (ANCHORS A4).
        let n = 100;
        let d = 1.0 / (n as f64 + 1.0);
        let u: Vec<f64> = (1..=n)
            .map(|i| (std::f64::consts::PI * i as f64 * d).sin())
            .collect();
        let mut out = vec![0.0; n];
        stencil(
            StencilOp::Laplacian,
            Grid::line(n as u32),
            &u,
            [d, d],
            BcValue::Dirichlet(0.0),
            &mut out,
        );
        let lam = -(4.0 / (d * d)) * (std::f64::consts::PI * d / 2.0).sin().powi(2);
        for (o, x) in out.iter().zip(&u) {
            assert!((o - lam * x).abs() < 1e-9 * lam.abs(), "{o} vs {}", lam * x);
        }
    }

    #[test]
    fn differences_of_a_line_and_boundaries() {
        let u = [1.0, 3.0, 5.0, 7.0];
        let mut out = [0.0; 4];
        stencil(
            StencilOp::Central(0),
            Grid::line(4),
            &u,
            [2.0, 2.0],
            BcValue::Neumann(1.0),
            &mut out,
        );
        assert_eq!(out, [1.0; 4]);
        stencil(
            StencilOp::Backward(0),
            Grid::line(4),
            &u,
            [2.0, 2.0],
            BcValue::Periodic,
            &mut out,
        );
        assert_eq!(out, [-3.0, 1.0, 1.0, 1.0]);
        stencil(
            StencilOp::Forward(0),
            Grid::line(4),
            &u,
            [2.0, 2.0],
            BcValue::Dirichlet(0.0),
            &mut out,
        );
        assert_eq!(out, [1.0, 1.0, 1.0, -3.5]);
    }

    #[test]
    fn laplacian_2d_of_a_quadratic_is_constant() {
        // u = x² + 3y² on a periodic-free interior: check an interior node only.
        let (nx, ny) = (5usize, 4usize);
        let (dx, dy) = (0.5, 0.25);
        let u: Vec<f64> = (0..nx * ny)
            .map(|k| {
                let (x, y) = ((k / ny) as f64 * dx, (k % ny) as f64 * dy);
                x * x + 3.0 * y * y
            })
            .collect();
        let mut out = vec![0.0; nx * ny];
        stencil(
            StencilOp::Laplacian,
            Grid::plane(nx as u32, ny as u32),
            &u,
            [dx, dy],
            BcValue::Dirichlet(0.0),
            &mut out,
        );
        assert!((out[2 * ny + 1] - 8.0).abs() < 1e-12);
        stencil(
            StencilOp::Central(1),
            Grid::plane(nx as u32, ny as u32),
            &u,
            [dx, dy],
            BcValue::Dirichlet(0.0),
            &mut out,
        );
        // ∂u/∂y = 6y at y = 0.25.
        assert!((out[2 * ny + 1] - 1.5).abs() < 1e-12);
    }

    #[test]
    fn reductions() {
        let u = [1.0, -4.0, 2.0];
        assert_eq!(reduce(ReduceOp::Sum, &u), -1.0);
        assert_eq!(reduce(ReduceOp::Mean, &u), -1.0 / 3.0);
        assert_eq!(reduce(ReduceOp::MaxAbs, &u), 4.0);
        assert!(reduce(ReduceOp::MaxAbs, &[1.0, f64::NAN]).is_nan());
        assert_eq!(pick_max_abs(&u, &[10.0, 20.0, 30.0]), -20.0);
    }
}
