//! What a built-in scheme must give on `z' = A·z`, exactly: one step is a matrix `R(hA)`
//! read off the scheme's formulas (the Taylor polynomial of the explicit Runge–Kutta
//! methods of order ≤ 4, the rational functions of the implicit ones, the kick and drift
//! maps of verlet and leapfrog), so `N` steps give `R^N·z₀` up to rounding.

use crate::expm::Matrix;
use crate::scheme::Scheme;

/// The one-step matrix of `scheme` with step `h` on `z' = A·z`, or `None` for the adaptive
/// scheme. For verlet and leapfrog, `velocity_of[i]` names the velocity component of
/// position `i` (and `None` for a velocity), which the kick and drift maps need; the last
/// component is the constant 1 of [`crate::linear::LinearModel`].
pub fn step_matrix(
    scheme: Scheme,
    a: &Matrix,
    h: f64,
    velocity_of: &[Option<usize>],
) -> Option<Matrix> {
    let n = a.n;
    let id = Matrix::identity(n);
    let ha = a.scaled(h);
    let taylor = |p: u32| {
        let (mut sum, mut term) = (id.clone(), id.clone());
        for k in 1..=p {
            term = term.mul(&ha).scaled(1.0 / f64::from(k));
            sum = sum.plus(1.0, &term);
        }
        sum
    };
    Some(match scheme {
        Scheme::Euler => taylor(1),
        Scheme::Midpoint => taylor(2),
        Scheme::Rk4 => taylor(4),
        Scheme::Rk45 => return None,
        Scheme::BackwardEuler => id.plus(-1.0, &ha).solve(&id)?,
        Scheme::CrankNicolson => id.plus(-0.5, &ha).solve(&id.plus(0.5, &ha))?,
        Scheme::Verlet => {
            // x₁ = x + h·v + h²/2·a(x); v₁ = v + h/2·(a(x) + a(x₁)).
            let (drift, kick) = maps(a, velocity_of);
            let x1 = positions(n, velocity_of)
                .plus(h, &drift)
                .plus(0.5 * h * h, &drift.mul(&kick));
            let v1 = velocities(n, velocity_of)
                .plus(0.5 * h, &kick)
                .plus(0.5 * h, &kick.mul(&x1));
            x1.plus(1.0, &v1)
        }
        Scheme::Leapfrog => {
            // x½ = x + h/2·v; v₁ = v + h·a(x½); x₁ = x½ + h/2·v₁.
            let (drift, kick) = maps(a, velocity_of);
            let xm = positions(n, velocity_of).plus(0.5 * h, &drift);
            let v1 = velocities(n, velocity_of).plus(h, &kick.mul(&xm));
            let x1 = xm.plus(0.5 * h, &drift.mul(&v1));
            x1.plus(1.0, &v1)
        }
    })
}

/// The projection onto positions (identity on position rows, zero elsewhere). The last
/// component, the constant 1 that carries the laws' constant terms, counts as a position
/// that never moves, so the kicks read it.
fn positions(n: usize, velocity_of: &[Option<usize>]) -> Matrix {
    let mut p = Matrix::zeros(n);
    for (i, v) in velocity_of.iter().enumerate() {
        if v.is_some() || i + 1 == n {
            p.set(i, i, 1.0);
        }
    }
    p
}

/// The projection onto velocities.
fn velocities(n: usize, velocity_of: &[Option<usize>]) -> Matrix {
    Matrix::identity(n).plus(-1.0, &positions(n, velocity_of))
}

/// `drift` puts each velocity into its position's row (`x += h·v`), `kick` the
/// accelerations into the velocity rows (rows of `A` of the velocities).
fn maps(a: &Matrix, velocity_of: &[Option<usize>]) -> (Matrix, Matrix) {
    let n = a.n;
    let (mut drift, mut kick) = (Matrix::zeros(n), Matrix::zeros(n));
    for (i, v) in velocity_of.iter().enumerate() {
        match v {
            Some(j) => drift.set(i, *j, 1.0),
            None if i + 1 == n => {}
            None => {
                for j in 0..n {
                    kick.set(i, j, a.get(i, j));
                }
            }
        }
    }
    (drift, kick)
}

/// `m^k`, by repeated squaring.
pub fn power(m: &Matrix, mut k: u64) -> Matrix {
    let mut base = m.clone();
    let mut out = Matrix::identity(m.n);
    while k > 0 {
        if k & 1 == 1 {
            out = out.mul(&base);
        }
        base = base.mul(&base);
        k >>= 1;
    }
    out
}
