//! Axis ranges from data: finite values only, padded, never empty.

use std::ops::Range;

/// The span of the finite values of every slice, padded by 5 % (a constant column gets
/// ±1 or ±10 % of its value); `0..1` when nothing is finite.
pub fn padded<'a>(columns: impl IntoIterator<Item = &'a [f64]>) -> Range<f64> {
    let (lo, hi) = bounds(columns);
    pad(lo, hi, 0.05)
}

/// The span of the finite values of every slice, unpadded; `0..1` when nothing is finite,
/// widened as in [`padded`] when constant.
pub fn tight<'a>(columns: impl IntoIterator<Item = &'a [f64]>) -> Range<f64> {
    let (lo, hi) = bounds(columns);
    pad(lo, hi, 0.0)
}

fn bounds<'a>(columns: impl IntoIterator<Item = &'a [f64]>) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for c in columns {
        for &v in c.iter().filter(|v| v.is_finite()) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    (lo, hi)
}

fn pad(lo: f64, hi: f64, fraction: f64) -> Range<f64> {
    if !(lo.is_finite() && hi.is_finite()) {
        return 0.0..1.0;
    }
    if hi - lo <= f64::EPSILON * lo.abs().max(hi.abs()) {
        let d = if lo == 0.0 { 1.0 } else { 0.1 * lo.abs() };
        return (lo - d)..(hi + d);
    }
    let d = (hi - lo) * fraction;
    (lo - d)..(hi + d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_skip_non_finite_and_never_collapse() {
        let r = tight([&[1.0, f64::NAN, 3.0][..], &[f64::INFINITY, 2.0][..]]);
        assert_eq!(r, 1.0..3.0);
        let r = padded([&[0.0, 10.0][..]]);
        assert_eq!(r, -0.5..10.5);
        assert_eq!(padded([&[0.0, 0.0][..]]), -1.0..1.0);
        assert_eq!(padded([&[5.0][..]]), 4.5..5.5);
        assert_eq!(padded([&[f64::NAN][..]]), 0.0..1.0);
        assert_eq!(padded(std::iter::empty::<&[f64]>()), 0.0..1.0);
    }
}
