//! Whole-array kernels: stencils and reductions, one loop each. The interpreter calls them
//! and a code generator must emit the same arithmetic in the same order.

use crate::ir::{Grid, ReduceOp, StencilOp};

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

/// One axis through a node: where it starts, its stride, length, spacing and boundary.
struct Line<'a> {
    u: &'a [f64],
    base: usize,
    stride: usize,
    n: usize,
    delta: f64,
    bc: BcValue,
}

impl Line<'_> {
    /// `u[j]` along the axis, `j` possibly one past either end (then the ghost value
    /// seen from the edge node `i`).
    #[inline]
    fn at(&self, i: usize, j: isize) -> f64 {
        if j >= 0 && (j as usize) < self.n {
            return self.u[self.base + j as usize * self.stride];
        }
        let edge = self.u[self.base + i * self.stride];
        match self.bc {
            BcValue::Dirichlet(v) => v,
            BcValue::Neumann(g) => {
                if j < 0 {
                    edge - self.delta * g
                } else {
                    edge + self.delta * g
                }
            }
            BcValue::Periodic => {
                let w = if j < 0 { self.n - 1 } else { 0 };
                self.u[self.base + w * self.stride]
            }
        }
    }
}

/// Applies a stencil: `out[k]` for every node `k` of `grid`.
pub fn stencil(
    op: StencilOp,
    grid: Grid,
    u: &[f64],
    spacing: [f64; 2],
    bc: BcValue,
    out: &mut [f64],
) {
    let (nx, ny) = (grid.nx as usize, (grid.ny as usize).max(1));
    // Axis 0 runs over rows (stride ny), axis 1 within a row (stride 1).
    let line = |a: u8, r: usize, c: usize| {
        let (n, stride, i) = if a == 0 { (nx, ny, r) } else { (ny, 1, c) };
        let k = r * ny + c;
        (
            Line {
                u,
                base: k - i * stride,
                stride,
                n,
                delta: spacing[a as usize],
                bc,
            },
            i,
        )
    };
    for r in 0..nx {
        for c in 0..ny {
            let k = r * ny + c;
            out[k] = match op {
                StencilOp::Central(a) | StencilOp::Backward(a) | StencilOp::Forward(a) => {
                    let (l, i) = line(a, r, c);
                    let ii = i as isize;
                    match op {
                        StencilOp::Central(_) => {
                            (l.at(i, ii + 1) - l.at(i, ii - 1)) / (2.0 * l.delta)
                        }
                        StencilOp::Backward(_) => (u[k] - l.at(i, ii - 1)) / l.delta,
                        _ => (l.at(i, ii + 1) - u[k]) / l.delta,
                    }
                }
                StencilOp::Laplacian => {
                    let mut s = 0.0;
                    for a in 0..grid.axes() {
                        let (l, i) = line(a, r, c);
                        let ii = i as isize;
                        s += (l.at(i, ii + 1) - 2.0 * u[k] + l.at(i, ii - 1)) / (l.delta * l.delta);
                    }
                    s
                }
            };
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
        (Some(x), Some(d)) => crate::eval::sign(*x) * d,
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
