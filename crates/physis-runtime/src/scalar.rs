//! Scalar routines whose exact order of operations the IR interpreter and generated code
//! share, so that both back ends give the same bits.

/// `aⁿ`.
#[inline]
pub fn powi(a: f64, n: i32) -> f64 {
    a.powi(n)
}

/// `c ≠ 0 ? a : b`.
#[inline]
pub fn select(c: f64, a: f64, b: f64) -> f64 {
    if c != 0.0 { a } else { b }
}

/// Sign with zero kept at zero (the derivative of `|x|` taken as 0 at 0).
#[inline]
pub fn sign(a: f64) -> f64 {
    if a > 0.0 {
        1.0
    } else if a < 0.0 {
        -1.0
    } else {
        a
    }
}

/// Smallest pivot magnitude [`solve_in_place`] accepts; below it the matrix counts as
/// singular.
pub const SOLVE_MIN_PIVOT: f64 = 1e-300;

/// Solves `M·x = b` in place for the operation `Op::Solve` of the IR:
/// `a` holds `M` row-major (`n²` entries, destroyed), `x` holds `b` on entry and the
/// solution on return, `n = x.len()`.
///
/// Gaussian elimination with partial pivoting, in exactly this order (a back end must
/// emit the same operations to produce the same bits; no fused multiply-add):
/// for each column `k`, the pivot row `p` is the first row `i ≥ k` of largest `|a[i][k]|`
/// (a later row replaces it only when strictly larger); when that magnitude is NaN,
/// infinite or below [`SOLVE_MIN_PIVOT`], every `x[i]` becomes NaN and the solve ends.
/// Otherwise rows `k` and `p` of `a` and `x` swap, and for each `i > k`:
/// `l = a[i][k] / a[k][k]`, `a[i][j] = a[i][j] − l·a[k][j]` for `j > k` in order, and
/// `x[i] = x[i] − l·x[k]`. Back substitution for `i` from `n − 1` down to 0:
/// `s = x[i]`, `s = s − a[i][j]·x[j]` for `j > i` in order, `x[i] = s / a[i][i]`.
pub fn solve_in_place(a: &mut [f64], x: &mut [f64]) {
    let n = x.len();
    if a.len() != n * n {
        x.fill(f64::NAN);
        return;
    }
    for k in 0..n {
        let mut p = k;
        let mut best = a[k * n + k].abs();
        for i in k + 1..n {
            let v = a[i * n + k].abs();
            if v > best {
                best = v;
                p = i;
            }
        }
        if !(best >= SOLVE_MIN_PIVOT && best.is_finite()) {
            x.fill(f64::NAN);
            return;
        }
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
            x.swap(k, p);
        }
        let d = a[k * n + k];
        for i in k + 1..n {
            let l = a[i * n + k] / d;
            for j in k + 1..n {
                a[i * n + j] -= l * a[k * n + j];
            }
            x[i] -= l * x[k];
        }
    }
    for i in (0..n).rev() {
        let mut s = x[i];
        for j in i + 1..n {
            s -= a[i * n + j] * x[j];
        }
        x[i] = s / a[i * n + i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_pivots_and_matches_a_hand_solution() {
        // [[0, 2], [3, 1]]·x = [4, 5]: needs a row swap; x = (1, 2).
        let mut a = [0.0, 2.0, 3.0, 1.0];
        let mut x = [4.0, 5.0];
        solve_in_place(&mut a, &mut x);
        assert_eq!(x, [1.0, 2.0]);
        // A 3×3 with a known solution (1, −2, 3).
        let m = [2.0, 1.0, -1.0, -3.0, -1.0, 2.0, -2.0, 1.0, 2.0];
        let mut a = m;
        let mut x = [2.0 - 2.0 - 3.0, -3.0 + 2.0 + 6.0, -2.0 - 2.0 + 6.0];
        solve_in_place(&mut a, &mut x);
        for (got, want) in x.iter().zip([1.0, -2.0, 3.0]) {
            assert!((got - want).abs() < 1e-14, "{got} vs {want}");
        }
    }

    #[test]
    fn singular_or_non_finite_matrices_give_nan() {
        let mut a = [1.0, 1.0, 1.0, 1.0];
        let mut x = [1.0, 2.0];
        solve_in_place(&mut a, &mut x);
        assert!(x.iter().all(|v| v.is_nan()));
        let mut a = [1.0, f64::NAN, 0.0, 1.0];
        let mut x = [1.0, 2.0];
        solve_in_place(&mut a, &mut x);
        assert!(x.iter().all(|v| v.is_nan()));
        let mut a = [1.0, 2.0];
        let mut x = [1.0, 2.0];
        solve_in_place(&mut a, &mut x);
        assert!(x.iter().all(|v| v.is_nan()));
    }
}
