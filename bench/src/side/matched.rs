//! Comparisons at equal accuracy: a peer's work (steps or seconds) at the error one of our
//! runs reached, read off the peer's work-precision curve by linear interpolation of
//! log(work) in log(error) between the two runs whose errors bracket ours. Outside the
//! peer's range of errors there is no figure (no extrapolation).

/// One run of a work-precision curve: the error it reached and the work it did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Error against the reference (positive, finite).
    pub error: f64,
    /// Steps, or seconds.
    pub work: f64,
}

/// Where an error falls against a curve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AtError {
    /// The curve's work at that error, interpolated.
    Work(f64),
    /// The error is below every error on the curve (more accurate than the peer's
    /// tightest run).
    BelowRange,
    /// The error is above every error on the curve (less accurate than the peer's
    /// loosest run).
    AboveRange,
    /// The curve has fewer than two usable runs.
    NoCurve,
}

/// The work of `curve` at `error` (see the module documentation). Runs with a non-finite
/// or non-positive error or work are left out. Where the curve is not monotone, the first
/// bracketing pair in order of error is used.
pub fn work_at(curve: &[Point], error: f64) -> AtError {
    let mut pts: Vec<Point> = curve
        .iter()
        .copied()
        .filter(|p| p.error.is_finite() && p.error > 0.0 && p.work.is_finite() && p.work > 0.0)
        .collect();
    if pts.len() < 2 || !(error.is_finite() && error > 0.0) {
        return AtError::NoCurve;
    }
    pts.sort_by(|a, b| a.error.total_cmp(&b.error));
    if error < pts[0].error {
        return AtError::BelowRange;
    }
    if error > pts[pts.len() - 1].error {
        return AtError::AboveRange;
    }
    for w in pts.windows(2) {
        let (a, b) = (w[0], w[1]);
        if error >= a.error && error <= b.error {
            if a.error == b.error {
                return AtError::Work(a.work.min(b.work));
            }
            let s = (error.ln() - a.error.ln()) / (b.error.ln() - a.error.ln());
            return AtError::Work((a.work.ln() + s * (b.work.ln() - a.work.ln())).exp());
        }
    }
    AtError::NoCurve
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(error: f64, work: f64) -> Point {
        Point { error, work }
    }

    #[test]
    fn a_power_law_is_interpolated_exactly() {
        // work = error^(-1/4): the log-log line through any two points is the law itself.
        let curve: Vec<Point> = [1e-4, 1e-6, 1e-8]
            .iter()
            .map(|e: &f64| p(*e, e.powf(-0.25)))
            .collect();
        let AtError::Work(w) = work_at(&curve, 1e-7) else {
            panic!("in range")
        };
        assert!((w - 1e-7f64.powf(-0.25)).abs() < 1e-9 * w);
    }

    #[test]
    fn outside_the_curve_there_is_no_figure() {
        let curve = [p(1e-4, 100.0), p(1e-6, 300.0)];
        assert_eq!(work_at(&curve, 1e-8), AtError::BelowRange);
        assert_eq!(work_at(&curve, 1e-2), AtError::AboveRange);
        assert_eq!(work_at(&curve[..1], 1e-5), AtError::NoCurve);
        assert_eq!(
            work_at(&[p(f64::INFINITY, 1.0), p(1e-4, 2.0)], 1e-4),
            AtError::NoCurve
        );
    }
}
