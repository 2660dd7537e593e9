//! A hand-written Dormand–Prince 5(4) on stack arrays: the floor the generated code is
//! measured against (no driver, no samples, no events; the rate is an inlined closure).
//!
//! Step control as in Hairer–Nørsett–Wanner's DOPRI5: the error is the root mean square of
//! `err_i / (atol + rtol·max(|y_i|, |y_new_i|))`, the next step is `h·min(10, max(0.2,
//! 0.9·err^(−1/5)))` (no growth right after a rejection), FSAL reuses the last stage, and the
//! first step follows the book's two-evaluation estimate.

/// Work counts of one hand run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dp5Stats {
    /// Accepted steps.
    pub steps: u64,
    /// Rejected attempts.
    pub rejections: u64,
    /// Rate evaluations.
    pub evaluations: u64,
}

// Dormand–Prince coefficients (Hairer I, table 5.2).
const C2: f64 = 1.0 / 5.0;
const C3: f64 = 3.0 / 10.0;
const C4: f64 = 4.0 / 5.0;
const C5: f64 = 8.0 / 9.0;
const A21: f64 = 1.0 / 5.0;
const A31: f64 = 3.0 / 40.0;
const A32: f64 = 9.0 / 40.0;
const A41: f64 = 44.0 / 45.0;
const A42: f64 = -56.0 / 15.0;
const A43: f64 = 32.0 / 9.0;
const A51: f64 = 19372.0 / 6561.0;
const A52: f64 = -25360.0 / 2187.0;
const A53: f64 = 64448.0 / 6561.0;
const A54: f64 = -212.0 / 729.0;
const A61: f64 = 9017.0 / 3168.0;
const A62: f64 = -355.0 / 33.0;
const A63: f64 = 46732.0 / 5247.0;
const A64: f64 = 49.0 / 176.0;
const A65: f64 = -5103.0 / 18656.0;
const A71: f64 = 35.0 / 384.0;
const A73: f64 = 500.0 / 1113.0;
const A74: f64 = 125.0 / 192.0;
const A75: f64 = -2187.0 / 6784.0;
const A76: f64 = 11.0 / 84.0;
// Fifth minus fourth order weights.
const E1: f64 = 71.0 / 57600.0;
const E3: f64 = -71.0 / 16695.0;
const E4: f64 = 71.0 / 1920.0;
const E5: f64 = -17253.0 / 339200.0;
const E6: f64 = 22.0 / 525.0;
const E7: f64 = -1.0 / 40.0;

/// Integrates `y' = f(t, y)` from `t0` to exactly `t_end` and returns the final state.
pub fn integrate<const N: usize>(
    f: impl Fn(f64, &[f64; N], &mut [f64; N]),
    t0: f64,
    y0: [f64; N],
    t_end: f64,
    rtol: f64,
    atol: f64,
) -> ([f64; N], Dp5Stats) {
    let mut stats = Dp5Stats::default();
    let mut t = t0;
    let mut y = y0;
    let mut k1 = [0.0; N];
    f(t, &y, &mut k1);
    stats.evaluations += 1;
    let mut h = first_step(&f, t, &y, &k1, rtol, atol, &mut stats).min(t_end - t);
    let (mut k2, mut k3, mut k4, mut k5, mut k6, mut k7) =
        ([0.0; N], [0.0; N], [0.0; N], [0.0; N], [0.0; N], [0.0; N]);
    let mut tmp = [0.0; N];
    let mut y_new = [0.0; N];
    let mut rejected = false;
    while t < t_end {
        let last = t + h >= t_end;
        if last {
            h = t_end - t;
        }
        for i in 0..N {
            tmp[i] = y[i] + h * A21 * k1[i];
        }
        f(t + C2 * h, &tmp, &mut k2);
        for i in 0..N {
            tmp[i] = y[i] + h * (A31 * k1[i] + A32 * k2[i]);
        }
        f(t + C3 * h, &tmp, &mut k3);
        for i in 0..N {
            tmp[i] = y[i] + h * (A41 * k1[i] + A42 * k2[i] + A43 * k3[i]);
        }
        f(t + C4 * h, &tmp, &mut k4);
        for i in 0..N {
            tmp[i] = y[i] + h * (A51 * k1[i] + A52 * k2[i] + A53 * k3[i] + A54 * k4[i]);
        }
        f(t + C5 * h, &tmp, &mut k5);
        for i in 0..N {
            tmp[i] =
                y[i] + h * (A61 * k1[i] + A62 * k2[i] + A63 * k3[i] + A64 * k4[i] + A65 * k5[i]);
        }
        f(t + h, &tmp, &mut k6);
        for i in 0..N {
            y_new[i] =
                y[i] + h * (A71 * k1[i] + A73 * k3[i] + A74 * k4[i] + A75 * k5[i] + A76 * k6[i]);
        }
        f(t + h, &y_new, &mut k7);
        stats.evaluations += 6;
        let mut sum = 0.0;
        for i in 0..N {
            let e =
                h * (E1 * k1[i] + E3 * k3[i] + E4 * k4[i] + E5 * k5[i] + E6 * k6[i] + E7 * k7[i]);
            let sc = atol + rtol * y[i].abs().max(y_new[i].abs());
            sum += (e / sc) * (e / sc);
        }
        let err = (sum / N as f64).sqrt();
        if err <= 1.0 {
            stats.steps += 1;
            t = if last { t_end } else { t + h };
            y = y_new;
            k1 = k7;
            let grow = if rejected { 1.0 } else { 10.0 };
            h *= (0.9 * err.max(1e-10).powf(-0.2)).clamp(0.2, grow);
            rejected = false;
        } else {
            stats.rejections += 1;
            h *= (0.9 * err.powf(-0.2)).max(0.2);
            rejected = true;
        }
    }
    (y, stats)
}

/// Hairer's starting step: from the sizes of `y`, `f(y)` and a difference quotient of `f`.
fn first_step<const N: usize>(
    f: &impl Fn(f64, &[f64; N], &mut [f64; N]),
    t: f64,
    y: &[f64; N],
    k1: &[f64; N],
    rtol: f64,
    atol: f64,
    stats: &mut Dp5Stats,
) -> f64 {
    let rms = |v: &dyn Fn(usize) -> f64| -> f64 {
        ((0..N).map(|i| v(i) * v(i)).sum::<f64>() / N as f64).sqrt()
    };
    let sc = |i: usize| atol + rtol * y[i].abs();
    let d0 = rms(&|i| y[i] / sc(i));
    let d1 = rms(&|i| k1[i] / sc(i));
    let h0 = if d0 < 1e-5 || d1 < 1e-5 {
        1e-6
    } else {
        0.01 * d0 / d1
    };
    let mut y1 = [0.0; N];
    for i in 0..N {
        y1[i] = y[i] + h0 * k1[i];
    }
    let mut k = [0.0; N];
    f(t + h0, &y1, &mut k);
    stats.evaluations += 1;
    let d2 = rms(&|i| (k[i] - k1[i]) / sc(i)) / h0;
    let h1 = if d1.max(d2) <= 1e-15 {
        (h0 * 1e-3).max(1e-6)
    } else {
        (0.01 / d1.max(d2)).powf(0.2)
    };
    (100.0 * h0).min(h1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponential_decay_matches_its_closed_form() {
        let (y, s) = integrate(
            |_, y: &[f64; 1], d: &mut [f64; 1]| d[0] = -y[0],
            0.0,
            [1.0],
            5.0,
            1e-10,
            1e-12,
        );
        assert!((y[0] - (-5.0f64).exp()).abs() < 1e-10, "{y:?}");
        assert!(s.steps > 10 && s.evaluations == 6 * (s.steps + s.rejections) + 2);
    }

    #[test]
    fn harmonic_oscillator_returns_after_one_period() {
        let tau = 2.0 * std::f64::consts::PI;
        let (y, _) = integrate(
            |_, y: &[f64; 2], d: &mut [f64; 2]| {
                d[0] = y[1];
                d[1] = -y[0];
            },
            0.0,
            [1.0, 0.0],
            tau,
            1e-10,
            1e-10,
        );
        assert!((y[0] - 1.0).abs() < 1e-8 && y[1].abs() < 1e-8, "{y:?}");
    }
}
