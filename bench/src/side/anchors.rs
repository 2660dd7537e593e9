//! The anchor problems of the side-by-side harness (`/work/shared/ANCHORS.md` A1–A4, A10–A12)
//! as plain numbers and rate functions for the hand-written and peer runs, their
//! independent references (closed forms, or SciPy Radau at rtol 1e-13 committed with its
//! script), and [`Outcome`], what every contender's run hands back.

/// A1 parameters (a, b, c, d).
pub const LV_PARAMS: (f64, f64, f64, f64) = (2.0 / 3.0, 4.0 / 3.0, 1.0, 1.0);
/// A1 end time (s).
pub const LV_T_END: f64 = 10.0;
/// A1 rate, for the hand-written Dormand–Prince.
pub fn lv_rate(_t: f64, u: &[f64; 2], du: &mut [f64; 2]) {
    let (a, b, c, d) = LV_PARAMS;
    du[0] = a * u[0] - b * u[0] * u[1];
    du[1] = -c * u[1] + d * u[0] * u[1];
}

/// A3 gravity (m/s²).
pub const BALL_G: f64 = 9.81;
/// A3 restitution.
pub const BALL_E: f64 = 0.8;
/// A3 drop height (m).
pub const BALL_H0: f64 = 10.0;
/// A3 end time (s): seven bounces happen before it.
pub const BALL_T_END: f64 = 10.0;

/// A3 exact bounce times before [`BALL_T_END`]: `t₁ = √(2h/g)`, `t_{k+1} = t_k + 2eᵏv₁/g`.
pub fn ball_bounces() -> Vec<f64> {
    let v1 = (2.0 * BALL_G * BALL_H0).sqrt();
    let mut t = (2.0 * BALL_H0 / BALL_G).sqrt();
    let mut out = Vec::new();
    let mut k = 1;
    while t < BALL_T_END {
        out.push(t);
        t += 2.0 * BALL_E.powi(k) * v1 / BALL_G;
        k += 1;
    }
    out
}

/// A2 rate constants (k₁, k₂, k₃).
pub const ROBERTSON_K: (f64, f64, f64) = (0.04, 3e7, 1e4);
/// A2 end time (s).
pub const ROBERTSON_T_END: f64 = 1e11;
/// A10 stiffness μ.
pub const VDP_MU: f64 = 1000.0;
/// A10 end time (s).
pub const VDP_T_END: f64 = 3000.0;
/// A11 end time (s).
pub const HIRES_T_END: f64 = 321.8122;
/// A11 initial state.
pub const HIRES_Y0: [f64; 8] = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0057];

/// A11 rate (Hairer–Wanner II, the HIRES problem).
pub fn hires_rate(y: &[f64; 8], f: &mut [f64; 8]) {
    f[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007;
    f[1] = 1.71 * y[0] - 8.75 * y[1];
    f[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4];
    f[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3];
    f[4] = -1.745 * y[4] + 0.43 * y[5] + 0.43 * y[6];
    f[5] = -280.0 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6];
    f[6] = 280.0 * y[5] * y[7] - 1.81 * y[6];
    f[7] = -280.0 * y[5] * y[7] + 1.81 * y[6];
}

/// A11 Jacobian times `v`.
pub fn hires_jvp(y: &[f64; 8], v: &[f64; 8], f: &mut [f64; 8]) {
    let r = 280.0 * (y[7] * v[5] + y[5] * v[7]);
    f[0] = -1.71 * v[0] + 0.43 * v[1] + 8.32 * v[2];
    f[1] = 1.71 * v[0] - 8.75 * v[1];
    f[2] = -10.03 * v[2] + 0.43 * v[3] + 0.035 * v[4];
    f[3] = 8.32 * v[1] + 1.71 * v[2] - 1.12 * v[3];
    f[4] = -1.745 * v[4] + 0.43 * v[5] + 0.43 * v[6];
    f[5] = -r + 0.69 * v[3] + 1.71 * v[4] - 0.43 * v[5] + 0.69 * v[6];
    f[6] = r - 1.81 * v[6];
    f[7] = -r + 1.81 * v[6];
}

/// A4 interior nodes.
pub const HEAT_N: usize = 100;
/// A4 end time (s).
pub const HEAT_T_END: f64 = 0.1;
/// A4 node spacing `1/(N + 1)`.
pub fn heat_h() -> f64 {
    1.0 / (HEAT_N + 1) as f64
}
/// A4 interior initial values `sin(π xᵢ)`.
pub fn heat_initial() -> Vec<f64> {
    (1..=HEAT_N)
        .map(|i| (std::f64::consts::PI * i as f64 * heat_h()).sin())
        .collect()
}
/// A4 semi-discrete exact solution at [`HEAT_T_END`]: `sin(π xᵢ)·exp(λT)`,
/// `λ = −(4/h²) sin²(πh/2)`.
pub fn heat_exact() -> Vec<f64> {
    let h = heat_h();
    let lam = -(4.0 / (h * h)) * (std::f64::consts::PI * h / 2.0).sin().powi(2);
    let decay = (lam * HEAT_T_END).exp();
    heat_initial().iter().map(|v| v * decay).collect()
}

/// A12 nodes per axis (periodic: `x_i = i/N`).
pub const BRUSS_N: usize = 64;
/// A12 constants (A, B, α).
pub const BRUSS_ABC: (f64, f64, f64) = (1.0, 3.4, 0.002);
/// A12 end time (s).
pub const BRUSS_T_END: f64 = 11.5;

/// A12 initial state: `u` on every node, then `v` (node `i·N + j` is `(x_i, y_j)`), with
/// `u₀ = 22·y·(1 − y)^1.5`, `v₀ = 27·x·(1 − x)^1.5`.
pub fn bruss_initial() -> Vec<f64> {
    let n = BRUSS_N;
    let d = 1.0 / n as f64;
    let bump = |s: f64, c: f64| c * s * (1.0 - s).powf(1.5);
    let u = (0..n * n).map(|k| bump((k % n) as f64 * d, 22.0));
    let v = (0..n * n).map(|k| bump((k / n) as f64 * d, 27.0));
    u.chain(v).collect()
}

/// A12 rate: `u' = A + u²v − (B + 1)u + α∇²u`, `v' = Bu − u²v + α∇²v`, periodic
/// five-point Laplacian. With `seed`, the Jacobian times `seed` instead.
pub fn bruss_rate(
    y: &dyn Fn(usize) -> f64,
    seed: Option<&dyn Fn(usize) -> f64>,
    out: &mut dyn FnMut(usize, f64),
) {
    let n = BRUSS_N;
    let m = n * n;
    let (a, b, alpha) = BRUSS_ABC;
    let c = alpha * (n * n) as f64;
    let lap = |w: &dyn Fn(usize) -> f64, k: usize| {
        let (i, j) = (k / n, k % n);
        let at = |i: usize, j: usize| w(i * n + j);
        (at((i + n - 1) % n, j) + at((i + 1) % n, j) + at(i, (j + n - 1) % n) + at(i, (j + 1) % n)
            - 4.0 * w(k))
            * c
    };
    for k in 0..m {
        let (u, v) = (y(k), y(m + k));
        match seed {
            None => {
                let uuv = u * u * v;
                out(k, a + uuv - (b + 1.0) * u + lap(y, k));
                out(m + k, b * u - uuv + lap(&|q| y(m + q), k));
            }
            Some(s) => {
                let (du, dv) = (s(k), s(m + k));
                let cross = 2.0 * u * v * du + u * u * dv;
                out(k, cross - (b + 1.0) * du + lap(s, k));
                out(m + k, b * du - cross + lap(&|q| s(m + q), k));
            }
        }
    }
}

/// What one run of any contender hands back.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Outcome {
    /// Final state (interior nodes only for A4).
    pub state: Vec<f64>,
    /// Accepted steps.
    pub steps: u64,
    /// Rate evaluations (0 where the contender does not count them).
    pub evaluations: u64,
    /// Rejected step attempts (`None` where the contender does not count them).
    pub rejected: Option<u64>,
    /// Event times, in order (A3).
    pub events: Vec<f64>,
    /// Why the run failed, if it did.
    pub failure: Option<String>,
}

impl Outcome {
    /// A failed run.
    pub fn failed(why: String) -> Self {
        Self {
            failure: Some(why),
            ..Self::default()
        }
    }
}

/// Largest absolute difference, or infinity when the lengths differ.
pub fn max_abs_error(got: &[f64], want: &[f64]) -> f64 {
    if got.len() != want.len() {
        return f64::INFINITY;
    }
    got.iter()
        .zip(want)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
}

/// Largest componentwise relative difference (components whose reference is 0 compare
/// absolutely), or infinity when the lengths differ.
pub fn max_rel_error(got: &[f64], want: &[f64]) -> f64 {
    if got.len() != want.len() {
        return f64::INFINITY;
    }
    got.iter()
        .zip(want)
        .map(|(a, b)| {
            let d = (a - b).abs();
            if *b == 0.0 { d } else { d / b.abs() }
        })
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seven_bounces_match_the_anchor_table() {
        let b = ball_bounces();
        assert_eq!(b.len(), 7);
        assert!((b[0] - 1.4278431229).abs() < 1e-9 && (b[6] - 9.8561840454).abs() < 1e-9);
    }

    #[test]
    fn hires_jvp_is_the_derivative_of_the_rate() {
        let y = [0.7, 0.1, 0.05, 0.2, 0.01, 0.3, 0.02, 0.004];
        let v = [1.0, -0.5, 0.25, 2.0, -1.0, 0.5, 0.3, -0.7];
        let (mut f0, mut f1, mut j) = ([0.0; 8], [0.0; 8], [0.0; 8]);
        let eps = 1e-7;
        hires_rate(&std::array::from_fn(|i| y[i] - eps * v[i]), &mut f0);
        hires_rate(&std::array::from_fn(|i| y[i] + eps * v[i]), &mut f1);
        hires_jvp(&y, &v, &mut j);
        for i in 0..8 {
            assert!(
                ((f1[i] - f0[i]) / (2.0 * eps) - j[i]).abs() < 1e-6,
                "row {i}"
            );
        }
    }
}
