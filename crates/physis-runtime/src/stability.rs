//! Spectral-radius estimate of the rate's Jacobian, for the stability check before the
//! first step. Power iteration with a two-dimensional Rayleigh–Ritz projection on the last
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

/// Largest modulus of the eigenvalues of `[[a, b], [c, d]]`.
fn eig2_modulus(a: f64, b: f64, c: f64, d: f64) -> f64 {
    let tr = 0.5 * (a + d);
    let det = a * d - b * c;
    let disc = tr * tr - det;
    if disc >= 0.0 {
        let r = disc.sqrt();
        (tr + r).abs().max((tr - r).abs())
    } else {
        det.abs().sqrt()
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
fn small(n: usize, apply: &mut impl FnMut(&[f64], &mut [f64])) -> Option<f64> {
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
        col[0][0].abs()
    } else {
        // Column c holds J·e_c: J = [[col0[0], col1[0]], [col0[1], col1[1]]].
        eig2_modulus(col[0][0], col[1][0], col[0][1], col[1][1])
    })
}

/// Estimates the spectral radius of the linear map `apply` (`out = J·v`) on `R^n`.
/// Returns `None` when the map produces non-finite values.
pub(crate) fn spectral_radius(n: usize, mut apply: impl FnMut(&[f64], &mut [f64])) -> Option<f64> {
    if n == 0 {
        return Some(0.0);
    }
    if n <= 2 {
        return small(n, &mut apply);
    }
    let mut v = vec![0.0; n];
    let mut w = vec![0.0; n];
    let mut u = vec![0.0; n];
    let mut z = vec![0.0; n];
    start_vector(&mut v);
    let nv = norm(&v);
    v.iter_mut().for_each(|x| *x /= nv);
    apply(&v, &mut w);
    let mut last = f64::NAN;
    let mut settled = 0;
    for it in 0..MAX_ITER {
        let nw = norm(&w);
        if !nw.is_finite() {
            return None;
        }
        if nw == 0.0 {
            return Some(0.0);
        }
        for (ui, wi) in u.iter_mut().zip(&w) {
            *ui = wi / nw;
        }
        apply(&u, &mut z);
        if !norm(&z).is_finite() {
            return None;
        }
        // Orthonormal basis q1 = v, q2 ∝ u − (v·u)v; J q1 = w, J q2 = (z − (v·u) w)/‖·‖.
        let c = dot(&v, &u);
        let mut q2n = 0.0;
        for (ui, vi) in u.iter().zip(&v) {
            let x = ui - c * vi;
            q2n += x * x;
        }
        q2n = q2n.sqrt();
        let est = if q2n < 1e-10 {
            // u ∥ v: a real dominant eigenvalue already found.
            nw
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
            eig2_modulus(h11, h12, h21, h22).max(0.0)
        };
        if it > 3 && (est - last).abs() <= SETTLE * est {
            settled += 1;
            if settled >= 3 {
                return Some(est);
            }
        } else {
            settled = 0;
        }
        last = est;
        std::mem::swap(&mut v, &mut u);
        std::mem::swap(&mut w, &mut z);
    }
    Some(last)
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
}
