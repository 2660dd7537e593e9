//! Sample statistics for ensembles: mean, sample standard deviation (`n − 1`) and
//! quantiles by linear interpolation between order statistics (Hyndman and Fan's type 7,
//! the default of R and NumPy). Sums run in the order given, so the same members in the
//! same order give the same bits.

/// Mean, or NaN for no values.
pub fn mean(x: &[f64]) -> f64 {
    if x.is_empty() {
        return f64::NAN;
    }
    // Summing deviations from the first value: equal members give that value exactly (and
    // a spread of exactly zero), and large offsets cancel less.
    let x0 = x[0];
    x0 + x.iter().map(|v| v - x0).sum::<f64>() / x.len() as f64
}

/// Sample standard deviation `√(Σ(x − x̄)²/(n − 1))` (two passes), or NaN below two values.
pub fn std_dev(x: &[f64]) -> f64 {
    if x.len() < 2 {
        return f64::NAN;
    }
    let m = mean(x);
    let ss: f64 = x.iter().map(|v| (v - m) * (v - m)).sum();
    (ss / (x.len() - 1) as f64).sqrt()
}

/// Quantile `p` of values sorted ascending, type 7: with `h = (n − 1)·p`,
/// `x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋ + 1] − x[⌊h⌋])`. NaN for no values.
pub fn quantile_sorted(sorted: &[f64], p: f64) -> f64 {
    let n = sorted.len();
    if n == 0 {
        return f64::NAN;
    }
    let h = (n - 1) as f64 * p;
    let lo = h.floor();
    // `p` in [0, 1] keeps `lo` in [0, n − 1].
    let i = (lo as usize).min(n - 1);
    let frac = h - lo;
    match sorted.get(i + 1) {
        Some(&next) if frac > 0.0 => sorted[i] + frac * (next - sorted[i]),
        _ => sorted[i],
    }
}

/// Mean, standard deviation and the requested quantiles of one quantity over the members.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Moments {
    /// Number of values.
    pub n: usize,
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation (`n − 1`).
    pub std: f64,
    /// One value per requested probability, in the order requested.
    pub quantiles: Vec<f64>,
}

impl Moments {
    /// Statistics of `values` (reordered in place by the sort).
    pub fn of(values: &mut [f64], probabilities: &[f64]) -> Self {
        let mean = mean(values);
        let std = std_dev(values);
        values.sort_unstable_by(f64::total_cmp);
        Self {
            n: values.len(),
            mean,
            std,
            quantiles: probabilities
                .iter()
                .map(|&p| quantile_sorted(values, p))
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_values_have_their_value_as_mean_and_no_spread() {
        let x = [0.838_998_471_605_32; 3];
        assert_eq!(mean(&x), x[0]);
        assert_eq!(std_dev(&x), 0.0);
        let y = [1e9 + 1.0, 1e9 + 2.0, 1e9 + 3.0];
        assert_eq!(mean(&y), 1e9 + 2.0);
        assert_eq!(std_dev(&y), 1.0);
    }

    #[test]
    fn type_7_quantiles_match_numpy() {
        // numpy.quantile([1, 2, 3, 4, 10], [0, .05, .25, .5, .9, 1]) =
        // [1, 1.2, 2, 3, 7.6, 10].
        let x = [1.0, 2.0, 3.0, 4.0, 10.0];
        let q: Vec<f64> = [0.0, 0.05, 0.25, 0.5, 0.9, 1.0]
            .iter()
            .map(|&p| quantile_sorted(&x, p))
            .collect();
        let want = [1.0, 1.2, 2.0, 3.0, 7.6, 10.0];
        for (a, b) in q.iter().zip(want) {
            assert!((a - b).abs() < 1e-12, "{q:?}");
        }
        assert_eq!(quantile_sorted(&[5.0], 0.95), 5.0);
        assert!(quantile_sorted(&[], 0.5).is_nan());
    }

    #[test]
    fn sample_moments() {
        let mut x = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        // Population sd is 2; sample sd is 2·√(8/7).
        let m = Moments::of(&mut x, &[0.5]);
        assert_eq!(m.mean, 5.0);
        assert!((m.std - 2.0 * (8.0f64 / 7.0).sqrt()).abs() < 1e-14);
        assert_eq!(m.quantiles, vec![4.5]);
        assert_eq!(m.n, 8);
        assert!(std_dev(&[1.0]).is_nan());
        assert!(mean(&[]).is_nan());
    }
}
