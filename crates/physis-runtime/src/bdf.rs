//! The history of the built-in variable-order BDF: the numerical differentiation formulas
//! (NDF) of orders 1–5 in quasi-constant step size form, as Shampine and Reichelt describe
//! them ("The MATLAB ODE suite", SIAM J. Sci. Comput. 18, 1997) and MATLAB's `ode15s` and
//! SciPy's `BDF` use them.
//!
//! The past is held as modified divided differences `D₀ … D₇` of the states on an equally
//! spaced grid of the current step `h` (`D₀ = yₙ`, `Dⱼ = ∇ʲyₙ`). A change of step rescales
//! them (`Dᵢ ← (R·U)ᵀ D`), so the formulas always see equal steps. The step itself is an
//! implicit solve of the backward-Euler shape `y − base − c·f(t + h, y) = 0` with
//! `c = h/αₖ` and `base` the predictor minus `ψ`; the driver hands it to the model's own
//! residual (`driver/bdf.rs`).

/// Highest order.
pub(crate) const MAX_ORDER: usize = 5;
/// Rows of the difference table: orders up to 5, the new difference and the one beyond
/// (for the error estimate of order `k + 1`).
const ROWS: usize = MAX_ORDER + 3;

/// NDF coefficients κₖ (Shampine & Reichelt, table 1; κ₅ = 0: order 5 is plain BDF).
const KAPPA: [f64; MAX_ORDER + 1] = [0.0, -0.1850, -1.0 / 9.0, -0.0823, -0.0415, 0.0];

/// `γₖ = Σⱼ₌₁ᵏ 1/j`.
fn gamma(k: usize) -> f64 {
    (1..=k).map(|j| 1.0 / j as f64).sum()
}

/// `αₖ = (1 − κₖ)·γₖ`: the step solves `y = base + (h/αₖ)·f`.
pub(crate) fn alpha(k: usize) -> f64 {
    (1.0 - KAPPA[k]) * gamma(k)
}

/// The error constant of order `k`: the local error is `Cₖ·(yₙ₊₁ − predictor)`.
pub(crate) fn error_constant(k: usize) -> f64 {
    let kappa = KAPPA.get(k).copied().unwrap_or(0.0);
    kappa * gamma(k) + 1.0 / (k + 1) as f64
}

/// The difference table of one run, with the order and step it stands for.
#[derive(Debug, Clone)]
pub(crate) struct History {
    n: usize,
    /// `D₀ … D₇`, row `j` at `j·n..(j+1)·n`.
    d: Vec<f64>,
    /// Order in force.
    pub order: usize,
    /// Step the differences are spaced by.
    pub h: f64,
    /// Accepted steps since the step or the order last changed.
    pub equal_steps: usize,
    /// Time of `D₀`.
    pub t: f64,
    /// Scratch for a rescale: the `(k+1)²` matrix and the rows it mixes.
    mat: Vec<f64>,
    rows: Vec<f64>,
}

/// `R(k, ρ)`: row `i` column `j` is `Πᵣ₌₁ⁱ (r − 1 − ρj)/r` (row 0 all ones).
fn r_matrix(k: usize, rho: f64, out: &mut [f64]) {
    let m = k + 1;
    out[..m].fill(1.0);
    for i in 1..m {
        for j in 0..m {
            let step = if j == 0 {
                0.0
            } else {
                (i as f64 - 1.0 - rho * j as f64) / i as f64
            };
            out[i * m + j] = out[(i - 1) * m + j] * step;
        }
    }
}

impl History {
    /// An empty history for `n` slots.
    pub fn new(n: usize) -> Self {
        let m = MAX_ORDER + 1;
        Self {
            n,
            d: vec![0.0; ROWS * n],
            order: 1,
            h: 0.0,
            equal_steps: 0,
            t: f64::NAN,
            mat: vec![0.0; 3 * m * m],
            rows: vec![0.0; m * n],
        }
    }

    /// Row `j` of the table.
    pub fn row(&self, j: usize) -> &[f64] {
        &self.d[j * self.n..(j + 1) * self.n]
    }

    /// True when the table is at `(t, y)`: the run has not moved elsewhere (an event, a
    /// reset) since the last step.
    pub fn at(&self, t: f64, y: &[f64]) -> bool {
        self.t == t && self.row(0) == y
    }

    /// Starts again at order 1 from `(t, y)` with rate `f` and step `h`.
    pub fn restart(&mut self, t: f64, y: &[f64], f: &[f64], h: f64) {
        self.d.fill(0.0);
        let n = self.n;
        self.d[..n].copy_from_slice(y);
        for (d, fi) in self.d[n..2 * n].iter_mut().zip(f) {
            *d = h * fi;
        }
        self.order = 1;
        self.h = h;
        self.equal_steps = 0;
        self.t = t;
    }

    /// Changes the step to `ρ·h`, rescaling `D₀ … Dₖ` (`k` the order in force).
    pub fn rescale(&mut self, rho: f64) {
        if rho == 1.0 {
            return;
        }
        let (k, n) = (self.order, self.n);
        let m = k + 1;
        let (r, rest) = self.mat.split_at_mut(m * m);
        let (u, ru) = rest.split_at_mut(m * m);
        r_matrix(k, rho, r);
        r_matrix(k, 1.0, u);
        for i in 0..m {
            for j in 0..m {
                ru[i * m + j] = (0..m).map(|l| r[i * m + l] * u[l * m + j]).sum();
            }
        }
        // D[j] ← Σᵢ RU[i][j]·D[i].
        let rows = &mut self.rows[..m * n];
        rows.fill(0.0);
        for j in 0..m {
            for i in 0..m {
                let c = ru[i * m + j];
                let (out, src) = (&mut rows[j * n..(j + 1) * n], &self.d[i * n..(i + 1) * n]);
                for (o, s) in out.iter_mut().zip(src) {
                    *o += c * s;
                }
            }
        }
        self.d[..m * n].copy_from_slice(rows);
        self.h *= rho;
        self.equal_steps = 0;
    }

    /// The predictor `Σⱼ₌₀ᵏ Dⱼ` into `pred` and the base `pred − ψ` of the implicit solve
    /// into `base`, `ψ = Σⱼ₌₁ᵏ γⱼDⱼ / αₖ`. Returns `c = h/αₖ`.
    pub fn predict(&self, pred: &mut [f64], base: &mut [f64]) -> f64 {
        let k = self.order;
        let a = alpha(k);
        pred.copy_from_slice(self.row(0));
        base.fill(0.0);
        for j in 1..=k {
            let g = gamma(j);
            for ((p, b), d) in pred.iter_mut().zip(base.iter_mut()).zip(self.row(j)) {
                *p += d;
                *b += g * d;
            }
        }
        for (b, p) in base.iter_mut().zip(pred.iter()) {
            *b = p - *b / a;
        }
        self.h / a
    }

    /// Takes the accepted step to `t`, whose solution is `y` with `d = y − predictor`.
    pub fn accept(&mut self, t: f64, y: &[f64], d: &[f64]) {
        let (k, n) = (self.order, self.n);
        // D_{k+2} = d − D_{k+1}, D_{k+1} = d, then Dᵢ += Dᵢ₊₁ downwards.
        let (lo, hi) = self.d.split_at_mut((k + 2) * n);
        let (last, next) = (&mut lo[(k + 1) * n..], &mut hi[..n]);
        for ((l, x), di) in last.iter_mut().zip(next.iter_mut()).zip(d) {
            *x = di - *l;
            *l = *di;
        }
        for j in (0..=k).rev() {
            let (lo, hi) = self.d.split_at_mut((j + 1) * n);
            for (a, b) in lo[j * n..].iter_mut().zip(&hi[..n]) {
                *a += b;
            }
        }
        // The accepted state itself, not its sum of differences (they differ in rounding).
        self.d[..n].copy_from_slice(y);
        self.t = t;
        self.equal_steps += 1;
    }

    /// The state at `tau` of the interpolating polynomial of the last accepted step (call
    /// after [`History::accept`], before a change of order or step), into `out`.
    pub fn interpolate(&self, tau: f64, out: &mut [f64]) {
        out.copy_from_slice(self.row(0));
        let mut p = 1.0;
        for j in 1..=self.order {
            let m = (j - 1) as f64;
            p *= (tau - (self.t - m * self.h)) / (j as f64 * self.h);
            for (o, d) in out.iter_mut().zip(self.row(j)) {
                *o += p * d;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values of `y(t) = t³` on the grid `t, t − h, …` give differences whose predictor and
    /// interpolant reproduce the cubic exactly at orders ≥ 3, before and after a rescale.
    #[test]
    fn the_table_holds_a_cubic_through_rescales() {
        let cube = |t: f64| t * t * t;
        let (t0, h) = (1.0, 0.1);
        let mut hist = History::new(1);
        hist.order = 3;
        hist.h = h;
        hist.t = t0;
        // Backward differences of t³ at t0 on spacing h.
        let v: Vec<f64> = (0..4).map(|m| cube(t0 - m as f64 * h)).collect();
        hist.d[0] = v[0];
        hist.d[1] = v[0] - v[1];
        hist.d[2] = v[0] - 2.0 * v[1] + v[2];
        hist.d[3] = v[0] - 3.0 * v[1] + 3.0 * v[2] - v[3];
        let (mut pred, mut base) = ([0.0], [0.0]);
        hist.predict(&mut pred, &mut base);
        assert!((pred[0] - cube(t0 + h)).abs() < 1e-14, "{pred:?}");
        let mut out = [0.0];
        hist.interpolate(t0 - 0.25 * h, &mut out);
        assert!((out[0] - cube(t0 - 0.25 * h)).abs() < 1e-14);
        for rho in [0.37, 2.5] {
            hist.rescale(rho);
            hist.predict(&mut pred, &mut base);
            let want = cube(t0 + hist.h);
            assert!(
                (pred[0] - want).abs() < 1e-13,
                "{rho}: {} vs {want}",
                pred[0]
            );
        }
    }

    /// The coefficients of Shampine & Reichelt's table: BDF's αₖ = γₖ and error constant
    /// `1/(k+1)` at κ = 0, and α₁ = 1.185 for NDF1.
    #[test]
    fn coefficients_match_the_ndf_table() {
        assert!((alpha(1) - 1.185).abs() < 1e-15);
        assert!((alpha(5) - 137.0 / 60.0).abs() < 1e-15);
        assert!((error_constant(5) - 1.0 / 6.0).abs() < 1e-15);
        assert!((error_constant(1) - (0.5 - 0.185)).abs() < 1e-15);
    }
}
