//! Adaptive step control after Hairer, Nørsett & Wanner (Solving ODEs I, §II.4):
//! the mixed absolute/relative RMS error norm, the step-size update and the initial step.
//! The absolute tolerance is per slot (`crate::tolerance`); a slot whose absolute and
//! relative scale are both zero (a state still exactly at zero) counts as no error when its
//! error is zero and as an infinite one otherwise.

/// Safety factor on the optimal step.
pub(crate) const SAFETY: f64 = 0.9;
/// Smallest factor a rejected or accepted step may be scaled by.
pub(crate) const MIN_GROWTH: f64 = 0.2;
/// Largest factor an accepted step may grow by (1 right after a rejection).
pub(crate) const MAX_GROWTH: f64 = 10.0;
/// Consecutive rejections of one step after which the run is declared diverged.
pub(crate) const MAX_REJECTIONS: u32 = 60;

/// `v / sc` for a scale `sc ≥ 0`: zero over a zero scale is no error, anything else over it
/// an infinite one.
#[inline]
fn ratio(v: f64, sc: f64) -> f64 {
    if sc > 0.0 {
        v / sc
    } else if v == 0.0 {
        0.0
    } else {
        f64::INFINITY
    }
}

/// `sqrt(mean((e_i / (atol_i + rtol·max(|y_i|, |n_i|)))²))` over the free slots (`free`
/// empty: every slot; see [`crate::ModelInfo::free_slots`]); NaN or infinite becomes `+∞`.
#[inline]
pub(crate) fn error_norm(
    err: &[f64],
    y: &[f64],
    next: &[f64],
    rtol: f64,
    atol: &[f64],
    free: &[bool],
) -> f64 {
    error_norm_finite(err, y, next, rtol, atol, free).0
}

/// [`error_norm`], and whether every slot of `next` is finite, in one pass over the slots
/// (the driver's finiteness check of an accepted step rides on its error norm).
#[inline]
pub(crate) fn error_norm_finite(
    err: &[f64],
    y: &[f64],
    next: &[f64],
    rtol: f64,
    atol: &[f64],
    free: &[bool],
) -> (f64, bool) {
    let mut s = 0.0;
    let mut count = 0usize;
    let (mut finite, mut seen) = (true, 0usize);
    for (i, (((e, a), b), at)) in err.iter().zip(y).zip(next).zip(atol).enumerate() {
        finite &= b.is_finite();
        seen += 1;
        if free.get(i) == Some(&false) {
            continue;
        }
        let r = ratio(*e, at + rtol * a.abs().max(b.abs()));
        s += r * r;
        count += 1;
    }
    if seen != next.len() {
        finite = next.iter().all(|x| x.is_finite());
    }
    if count == 0 {
        return (0.0, finite);
    }
    let n = (s / count as f64).sqrt();
    (if n.is_finite() { n } else { f64::INFINITY }, finite)
}

/// Factor to scale `h` by given the error norm of the attempt and the scheme's order.
#[inline]
pub(crate) fn step_factor(err: f64, order: u32, max_growth: f64) -> f64 {
    if err == 0.0 {
        return max_growth;
    }
    if !err.is_finite() {
        return MIN_GROWTH;
    }
    let f = SAFETY * err.powf(-1.0 / f64::from(order.max(1)));
    f.clamp(MIN_GROWTH, max_growth)
}

/// Gustafsson's predictive step-size factor (Hairer & Wanner, Solving ODEs II, §IV.8, eq.
/// (8.21); RADAU5's `PRED`): from the accepted step `h` with error norm `err` and the
/// previous accepted step `h_prev` with `err_prev`,
/// `0.9·(h/h_prev)·(err_prev/err²)^(1/order)`, within `[MIN_GROWTH, max_growth]`. The
/// caller takes the smaller of it and [`step_factor`]: where the error grows from step to
/// step (a stiff component waking up) it shrinks the step before the error test fails,
/// which the plain factor only does after a rejection.
#[inline]
pub(crate) fn predictive_factor(
    h: f64,
    err: f64,
    (h_prev, err_prev): (f64, f64),
    order: u32,
    max_growth: f64,
) -> f64 {
    let f = SAFETY * (h / h_prev) * (err_prev / (err * err)).powf(1.0 / f64::from(order.max(1)));
    // An error of zero gives +∞ (the largest growth); NaN cannot arise from the positive,
    // finite inputs an accepted step has, but is kept at the smallest factor if it does.
    if f.is_nan() {
        MIN_GROWTH
    } else {
        f.clamp(MIN_GROWTH, max_growth)
    }
}

/// RMS of `v_i / (atol_i + rtol·|y_i|)` over the free slots (`free` empty: every slot); a
/// slot with a zero scale (a state still exactly at zero) adds nothing: it does not
/// constrain the first step.
fn scaled_rms(v: &[f64], y: &[f64], rtol: f64, atol: &[f64], free: &[bool]) -> f64 {
    let (mut s, mut count) = (0.0, 0usize);
    for (i, ((a, b), at)) in v.iter().zip(y).zip(atol).enumerate() {
        if free.get(i) != Some(&false) {
            let sc = at + rtol * b.abs();
            if sc > 0.0 {
                s += (a / sc).powi(2);
            }
            count += 1;
        }
    }
    if count == 0 {
        0.0
    } else {
        (s / count as f64).sqrt()
    }
}

/// Hairer's starting step: from the sizes of `y0`, `f0` and a finite-difference estimate of
/// the second derivative (one extra rate evaluation through `rate`), measured over the
/// free slots as the error norm is.
#[allow(clippy::too_many_arguments)]
pub(crate) fn initial_step(
    t0: f64,
    y0: &[f64],
    f0: &[f64],
    order: u32,
    rtol: f64,
    atol: &[f64],
    hmax: f64,
    free: &[bool],
    scratch_y: &mut [f64],
    scratch_f: &mut [f64],
    mut rate: impl FnMut(f64, &[f64], &mut [f64]),
) -> f64 {
    let d0 = scaled_rms(y0, y0, rtol, atol, free);
    let d1 = scaled_rms(f0, y0, rtol, atol, free);
    let mut h0 = if d0 < 1e-5 || d1 < 1e-5 {
        1e-6
    } else {
        0.01 * d0 / d1
    };
    h0 = h0.min(hmax);
    for ((s, y), f) in scratch_y.iter_mut().zip(y0).zip(f0) {
        *s = y + h0 * f;
    }
    rate(t0 + h0, scratch_y, scratch_f);
    for (d, f) in scratch_f.iter_mut().zip(f0) {
        *d -= f;
    }
    let d2 = scaled_rms(scratch_f, y0, rtol, atol, free) / h0;
    let m = d1.max(d2);
    let h1 = if m <= 1e-15 || !m.is_finite() {
        (h0 * 1e-3).max(1e-6)
    } else {
        (0.01 / m).powf(1.0 / f64::from(order.max(1)))
    };
    let h = (100.0 * h0).min(h1).min(hmax);
    if h.is_finite() && h > 0.0 {
        h
    } else {
        1e-6f64.min(hmax)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn norm_mixes_absolute_and_relative() {
        // tol 1e-3: scale 1e-3 + 1e-3·2 = 3e-3 for the first, 1e-3 for the second.
        let atol = [1e-3, 1e-3, 1e-3];
        let n = error_norm(&[3e-3, 1e-3], &[2.0, 0.0], &[1.0, 0.0], 1e-3, &atol, &[]);
        assert!((n - 1.0).abs() < 1e-12);
        assert_eq!(
            error_norm(&[f64::NAN], &[0.0], &[0.0], 1e-3, &atol, &[]),
            f64::INFINITY
        );
    }

    #[test]
    fn a_slot_with_no_scale_is_exact_or_infinitely_wrong() {
        let n = error_norm(&[0.0, 1e-3], &[0.0, 1.0], &[0.0, 1.0], 1e-3, &[0.0; 2], &[]);
        assert!((n - 0.5f64.sqrt()).abs() < 1e-12, "{n}");
        let n = error_norm(&[1e-300], &[0.0], &[0.0], 1e-3, &[0.0], &[]);
        assert_eq!(n, f64::INFINITY);
    }

    #[test]
    fn norm_leaves_out_fixed_slots() {
        // The fixed middle slot neither adds to the sum nor to the count: the norm is that
        // of the two free slots alone.
        let free = [true, false, true];
        let atol = [1e-3; 3];
        let n = error_norm(
            &[3e-3, 0.0, 1e-3],
            &[2.0, 1.0, 0.0],
            &[1.0, 1.0, 0.0],
            1e-3,
            &atol,
            &free,
        );
        assert!((n - 1.0).abs() < 1e-12, "{n}");
        assert_eq!(
            error_norm(&[5.0], &[0.0], &[0.0], 1e-3, &atol, &[false]),
            0.0
        );
        let rms = scaled_rms(&[1e-3, 7.0], &[0.0, 0.0], 1e-3, &atol, &[true, false]);
        assert!((rms - 1.0).abs() < 1e-12);
    }

    #[test]
    fn factor_is_bounded() {
        assert_eq!(step_factor(0.0, 5, MAX_GROWTH), MAX_GROWTH);
        assert_eq!(step_factor(1e12, 5, MAX_GROWTH), MIN_GROWTH);
        let f = step_factor(0.5f64.powi(5), 5, MAX_GROWTH);
        assert!((f - 1.8).abs() < 1e-12);
    }

    #[test]
    fn the_predictive_factor_shrinks_a_step_whose_error_grows() {
        // Same step, error up from 0.1 to 0.5: the plain factor still grows the step
        // (0.9·0.5^(−1/4) ≈ 1.07); the predictive one foresees the next error, ≈ 2.5, and
        // shrinks it to 0.9·(0.1/0.25)^(1/4) ≈ 0.716.
        let plain = step_factor(0.5, 4, MAX_GROWTH);
        let pred = predictive_factor(1.0, 0.5, (1.0, 0.1), 4, MAX_GROWTH);
        assert!(plain > 1.0, "{plain}");
        assert!((pred - 0.9 * 0.4f64.powf(0.25)).abs() < 1e-14, "{pred}");
        // A steady error at a steady step: the same as the plain factor.
        let steady = predictive_factor(2.0, 0.3, (2.0, 0.3), 4, MAX_GROWTH);
        assert!((steady - step_factor(0.3, 4, MAX_GROWTH)).abs() < 1e-14);
        assert_eq!(predictive_factor(1.0, 0.0, (1.0, 0.1), 4, 1.0), 1.0);
        assert_eq!(predictive_factor(1.0, 1e9, (1.0, 0.01), 4, 8.0), MIN_GROWTH);
    }

    #[test]
    fn initial_step_of_exponential_decay() {
        // y' = −y, y0 = 1: d0 = d1 ≈ 1/(2·tol) so h0 = 0.01; the result stays small and positive.
        let mut sy = [0.0];
        let mut sf = [0.0];
        let h = initial_step(
            0.0,
            &[1.0],
            &[-1.0],
            5,
            1e-6,
            &[1e-6],
            f64::INFINITY,
            &[],
            &mut sy,
            &mut sf,
            |_, y, f| {
                f[0] = -y[0];
            },
        );
        assert!(h > 1e-4 && h <= 1.0, "{h}");
    }
}
