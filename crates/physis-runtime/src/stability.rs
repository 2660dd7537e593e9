//! Spectral-radius estimate of the rate's Jacobian, for the stability check before the
//! first step and along the run. Power iteration with a two-dimensional Rayleigh–Ritz projection on the last
//! two iterates, so a dominant complex pair or a `±λ` pair (which plain power iteration
//! never settles on) is captured exactly; one Jacobian-vector product per iteration and
//! no dense matrix, so it scales to large grids.

/// Iterations at most; the estimate usually settles far earlier.
const MAX_ITER: usize = 300;
/// Relative change under which the estimate counts as settled.
const SETTLE: f64 = 1e-7;

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// The dominant eigenvalue of a map: its modulus (the spectral radius) and real part.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Dominant {
    /// Largest modulus of the eigenvalues.
    pub(crate) modulus: f64,
    /// Real part of an eigenvalue of that modulus (the larger one on a tie).
    pub(crate) re: f64,
}

impl Dominant {
    fn real(x: f64) -> Self {
        Self {
            modulus: x.abs(),
            re: x,
        }
    }
}

/// The dominant eigenvalue of `[[a, b], [c, d]]`.
fn eig2(a: f64, b: f64, c: f64, d: f64) -> Dominant {
    let tr = 0.5 * (a + d);
    let det = a * d - b * c;
    let disc = tr * tr - det;
    if disc >= 0.0 {
        let r = disc.sqrt();
        let (p, m) = (tr + r, tr - r);
        Dominant::real(if p.abs() >= m.abs() { p } else { m })
    } else {
        Dominant {
            modulus: det.abs().sqrt(),
            re: tr,
        }
    }
}

/// A fixed, portable start vector with no special structure (SplitMix64 bits in [−1, 1]).
fn start_vector(v: &mut [f64]) {
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    for x in v.iter_mut() {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        *x = (z >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
    }
}

/// The spectral radius of a map on `R` or `R²`, exactly, from its columns (one or two
/// products instead of the iteration's seven or more). `None` for non-finite columns.
fn small(n: usize, apply: &mut impl FnMut(&[f64], &mut [f64])) -> Option<Dominant> {
    let mut col = [[0.0; 2]; 2];
    for (c, out) in col.iter_mut().enumerate().take(n) {
        let mut e = [0.0; 2];
        e[c] = 1.0;
        apply(&e[..n], &mut out[..n]);
    }
    if !col.iter().flatten().all(|x| x.is_finite()) {
        return None;
    }
    Some(if n == 1 {
        Dominant::real(col[0][0])
    } else {
        // Column c holds J·e_c: J = [[col0[0], col1[0]], [col0[1], col1[1]]].
        eig2(col[0][0], col[1][0], col[0][1], col[1][1])
    })
}

#[cfg(test)]
/// Estimates the spectral radius of the linear map `apply` (`out = J·v`) on `R^n`.
/// Returns `None` when the map produces non-finite values.
pub(crate) fn spectral_radius(n: usize, apply: impl FnMut(&[f64], &mut [f64])) -> Option<f64> {
    Power::new(n).settle(apply).map(|d| d.modulus)
}

/// Weight of the fixed start vector mixed into a warm start, so that a direction the last
/// iterate lost (a mode that was small and becomes dominant) is always present.
const MIX: f64 = 1e-3;

/// Power iteration that keeps its last iterate, so an estimate along a run continues from
/// the previous one: a few products per check instead of a fresh iteration.
#[derive(Debug, Clone)]
pub(crate) struct Power {
    /// The start vector, unit length.
    start: Vec<f64>,
    /// The current iterate, unit length (the start vector before any iteration).
    v: Vec<f64>,
    w: Vec<f64>,
    u: Vec<f64>,
    z: Vec<f64>,
    /// The iterate before the last refinement, to measure how far it turned.
    before: Vec<f64>,
    /// How far the last refinement moved the iterate's plane: the squared part of the
    /// iterate it started from that lies outside the plane of its last two iterates. Near 0
    /// once the dominant mode (or the plane of a dominant complex pair, in which the iterate
    /// keeps rotating) is found; large while a new mode is still taking over.
    turned: f64,
}

impl Power {
    /// Buffers for maps on `R^n`.
    pub(crate) fn new(n: usize) -> Self {
        let mut start = vec![0.0; n];
        start_vector(&mut start);
        let ns = norm(&start);
        if ns > 0.0 {
            start.iter_mut().for_each(|x| *x /= ns);
        }
        let z = vec![0.0; n];
        Self {
            v: start.clone(),
            start,
            w: z.clone(),
            u: z.clone(),
            before: z.clone(),
            z,
            turned: 0.0,
        }
    }

    /// Forgets the iterate (a new run).
    pub(crate) fn reset(&mut self) {
        self.v.copy_from_slice(&self.start);
        self.turned = 0.0;
    }

    /// The spectral radius from the start vector, iterated until it settles.
    pub(crate) fn settle(&mut self, apply: impl FnMut(&[f64], &mut [f64])) -> Option<Dominant> {
        self.v.copy_from_slice(&self.start);
        self.converge(apply)
    }

    /// The spectral radius from the last iterate, iterated until it settles: confirms a
    /// warm estimate (a few iterations can sit above or below the radius while a mode is
    /// still taking over) at the cost of more products, so it runs only when a warm
    /// estimate would decide something.
    pub(crate) fn converge(
        &mut self,
        mut apply: impl FnMut(&[f64], &mut [f64]),
    ) -> Option<Dominant> {
        let n = self.v.len();
        if n <= 2 {
            return small(n, &mut apply);
        }
        self.iterate(MAX_ITER, true, &mut apply)
    }

    /// How far the iterate turned in the last refinement (`1 − |cos θ|`).
    pub(crate) fn turned(&self) -> f64 {
        self.turned
    }

    /// An estimate from the last iterate (with a little of the start vector mixed in) after
    /// `iters` iterations (`iters + 1` products); exact on `R` and `R²`. A lower bound for a
    /// symmetric map, which rises towards the radius over successive calls.
    pub(crate) fn refine(
        &mut self,
        iters: usize,
        mut apply: impl FnMut(&[f64], &mut [f64]),
    ) -> Option<Dominant> {
        let n = self.v.len();
        if n <= 2 {
            return small(n, &mut apply);
        }
        for (v, s) in self.v.iter_mut().zip(&self.start) {
            *v += MIX * s;
        }
        let nv = norm(&self.v);
        if nv.is_finite() && nv > 0.0 {
            self.v.iter_mut().for_each(|x| *x /= nv);
        } else {
            self.v.copy_from_slice(&self.start);
        }
        self.before.copy_from_slice(&self.v);
        let est = self.iterate(iters.max(1), false, &mut apply);
        self.turned = self.outside_last_plane();
        est
    }

    /// `1 − ‖P·b‖²` for the iterate `b` a refinement started from and `P` the projection on
    /// the plane of the last two iterates (`v`, and `u` after the iteration's swap); both
    /// iterates are unit vectors.
    fn outside_last_plane(&self) -> f64 {
        let (b, v, u) = (&self.before, &self.v, &self.u);
        let c = dot(v, u);
        let bv = dot(b, v);
        let q2n = (1.0 - c * c).max(0.0).sqrt();
        let inside = if q2n < 1e-10 {
            bv * bv
        } else {
            let bq2 = (dot(b, u) - c * bv) / q2n;
            bv * bv + bq2 * bq2
        };
        (1.0 - inside).clamp(0.0, 1.0)
    }

    /// Power iteration from the unit vector `v`, with a two-dimensional Rayleigh–Ritz
    /// projection on the last two iterates; leaves the last iterate in `v`.
    fn iterate(
        &mut self,
        max_iter: usize,
        settle: bool,
        apply: &mut impl FnMut(&[f64], &mut [f64]),
    ) -> Option<Dominant> {
        let n = self.v.len();
        let Self { v, w, u, z, .. } = self;
        apply(v, w);
        let mut last = Dominant {
            modulus: f64::NAN,
            re: f64::NAN,
        };
        let mut settled = 0;
        for it in 0..max_iter {
            let nw = norm(w);
            if !nw.is_finite() {
                return None;
            }
            if nw == 0.0 {
                return Some(Dominant::real(0.0));
            }
            for (ui, wi) in u.iter_mut().zip(w.iter()) {
                *ui = wi / nw;
            }
            apply(u, z);
            if !norm(z).is_finite() {
                return None;
            }
            // Orthonormal basis q1 = v, q2 ∝ u − (v·u)v; J q1 = w, J q2 = (z − (v·u) w)/‖·‖.
            let c = dot(v, u);
            let mut q2n = 0.0;
            for (ui, vi) in u.iter().zip(v.iter()) {
                let x = ui - c * vi;
                q2n += x * x;
            }
            q2n = q2n.sqrt();
            let est = if q2n < 1e-10 {
                // u ∥ v: a real dominant eigenvalue already found, of the sign of v·u.
                Dominant::real(nw.copysign(c))
            } else {
                let (mut h11, mut h12, mut h21, mut h22) = (0.0, 0.0, 0.0, 0.0);
                for i in 0..n {
                    let q2 = (u[i] - c * v[i]) / q2n;
                    let jq2 = (z[i] - c * w[i]) / q2n;
                    h11 += v[i] * w[i];
                    h12 += v[i] * jq2;
                    h21 += q2 * w[i];
                    h22 += q2 * jq2;
                }
                eig2(h11, h12, h21, h22)
            };
            std::mem::swap(v, u);
            std::mem::swap(w, z);
            if settle && it > 3 && (est.modulus - last.modulus).abs() <= SETTLE * est.modulus {
                settled += 1;
                if settled >= 3 {
                    return Some(est);
                }
            } else {
                settled = 0;
            }
            last = est;
        }
        Some(last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matvec(a: &[&[f64]], v: &[f64], out: &mut [f64]) {
        for (o, row) in out.iter_mut().zip(a) {
            *o = dot(row, v);
        }
    }

    #[test]
    fn real_dominant_eigenvalue() {
        let a: [&[f64]; 3] = [&[-1.0, 0.0, 0.0], &[0.0, -50.0, 1.0], &[0.0, 0.0, -3.0]];
        let r = spectral_radius(3, |v, o| matvec(&a, v, o)).unwrap_or(0.0);
        assert!((r - 50.0).abs() < 1e-6, "{r}");
    }

    #[test]
    fn one_and_two_dimensions_are_exact() {
        let r = spectral_radius(1, |v, o| o[0] = -4.5 * v[0]);
        assert_eq!(r, Some(4.5));
        assert_eq!(
            Power::new(1)
                .settle(|v, o| o[0] = -4.5 * v[0])
                .map(|d| d.re),
            Some(-4.5)
        );
        // [[1, 2], [3, 4]]: eigenvalues (5 ± √33)/2.
        let a: [&[f64]; 2] = [&[1.0, 2.0], &[3.0, 4.0]];
        let r = spectral_radius(2, |v, o| matvec(&a, v, o)).unwrap_or(0.0);
        assert!((r - (5.0 + 33f64.sqrt()) / 2.0).abs() < 1e-12, "{r}");
        assert_eq!(spectral_radius(1, |_, o| o[0] = f64::NAN), None);
    }

    #[test]
    fn complex_pair_of_an_oscillator() {
        // x' = v, v' = −ω²x: eigenvalues ±iω with ω = 7.
        let a: [&[f64]; 2] = [&[0.0, 1.0], &[-49.0, 0.0]];
        let r = spectral_radius(2, |v, o| matvec(&a, v, o)).unwrap_or(0.0);
        assert!((r - 7.0).abs() < 1e-9, "{r}");
    }

    #[test]
    fn plus_minus_pair() {
        let a: [&[f64]; 3] = [&[0.0, 2.0, 0.0], &[2.0, 0.0, 0.0], &[0.0, 0.0, 0.5]];
        let r = spectral_radius(3, |v, o| matvec(&a, v, o)).unwrap_or(0.0);
        assert!((r - 2.0).abs() < 1e-9, "{r}");
    }

    #[test]
    fn heat_stencil_of_ten_thousand_nodes() {
        // 1-D Laplacian / h², n = 10⁴: ρ = 4/h²·sin²(nπ/(2(n+1))).
        let n = 10_000;
        let h = 1.0 / (n as f64 + 1.0);
        let k = 1.0 / (h * h);
        let r = spectral_radius(n, |v, o| {
            for i in 0..n {
                let l = if i > 0 { v[i - 1] } else { 0.0 };
                let rr = if i + 1 < n { v[i + 1] } else { 0.0 };
                o[i] = k * (l - 2.0 * v[i] + rr);
            }
        })
        .unwrap_or(0.0);
        let exact = 4.0
            * k
            * (n as f64 * std::f64::consts::PI / (2.0 * (n as f64 + 1.0)))
                .sin()
                .powi(2);
        assert!(
            r <= exact * (1.0 + 1e-9) && r > 0.98 * exact,
            "{r} vs {exact}"
        );
    }

    #[test]
    fn a_warm_estimate_rises_to_a_new_dominant_mode() {
        // diag(−1, −2, −3, −4): settled on 4; then the first entry grows to −40, a mode the
        // iterate had all but lost; a few warm refinements find it from below.
        let mut d = [-1.0, -2.0, -3.0, -4.0];
        let mut p = Power::new(4);
        let diag = |d: [f64; 4]| {
            move |v: &[f64], o: &mut [f64]| {
                for i in 0..4 {
                    o[i] = d[i] * v[i];
                }
            }
        };
        let r = p.settle(diag(d)).map_or(0.0, |e| e.modulus);
        assert!((r - 4.0).abs() < 1e-6, "{r}");
        d[0] = -40.0;
        let mut seen = Vec::new();
        for _ in 0..4 {
            let e = p.refine(4, diag(d)).unwrap_or(Dominant::real(0.0));
            assert!(e.modulus <= 40.0 * (1.0 + 1e-12), "never above: {e:?}");
            assert!(e.re < 0.0, "a decaying mode: {e:?}");
            seen.push(e.modulus);
        }
        assert!((seen[3] - 40.0).abs() < 1e-6, "{seen:?}");
        p.reset();
        assert_eq!(p.refine(1, |_, o| o.fill(f64::NAN)), None);
    }
}
