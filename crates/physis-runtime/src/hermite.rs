//! The dense output of one accepted step, used for samples, event and stop location: the
//! cubic Hermite interpolant of its ends, plus the scheme's own continuous extension when
//! it has one (Dormand–Prince: `θ²(1−θ)²·q`, which makes it fourth order). Both match the
//! state and the rate at the two ends, so the dense output is continuous with slope across
//! steps; Hermite alone is exact for piecewise-cubic motion.

/// The two ends of an accepted step.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Segment<'a> {
    pub ta: f64,
    pub tb: f64,
    pub ya: &'a [f64],
    pub fa: &'a [f64],
    pub yb: &'a [f64],
    pub fb: &'a [f64],
    /// The scheme's continuous extension `q`, if it has one.
    pub q: Option<&'a [f64]>,
}

impl Segment<'_> {
    /// State at `tau` into `y`; exact copies at the two ends.
    pub fn state(&self, tau: f64, y: &mut [f64]) {
        if tau == self.ta {
            y.copy_from_slice(self.ya);
            return;
        }
        if tau == self.tb {
            y.copy_from_slice(self.yb);
            return;
        }
        // ya + sΔ + s(s−1)[(1−2s)Δ + (s−1)h·fa + s·h·fb]: exact for a constant state.
        let h = self.tb - self.ta;
        let s = (tau - self.ta) / h;
        let a = s * (s - 1.0);
        let (b, c, e) = (1.0 - 2.0 * s, (s - 1.0) * h, s * h);
        for (i, out) in y.iter_mut().enumerate() {
            let d = self.yb[i] - self.ya[i];
            *out = self.ya[i] + s * d + a * (b * d + c * self.fa[i] + e * self.fb[i]);
        }
        if let Some(q) = self.q {
            let w = a * a;
            for (out, qi) in y.iter_mut().zip(q) {
                *out += w * qi;
            }
        }
    }

    /// Slope of the interpolant at `tau` into `d`; exact copies of the rates at the ends.
    pub fn slope(&self, tau: f64, d: &mut [f64]) {
        if tau == self.ta {
            d.copy_from_slice(self.fa);
            return;
        }
        if tau == self.tb {
            d.copy_from_slice(self.fb);
            return;
        }
        let h = self.tb - self.ta;
        let s = (tau - self.ta) / h;
        let dy = 6.0 * s * (1.0 - s) / h;
        let g10 = (3.0 * s - 4.0) * s + 1.0;
        let g11 = (3.0 * s - 2.0) * s;
        for (i, out) in d.iter_mut().enumerate() {
            *out = dy * (self.yb[i] - self.ya[i]) + g10 * self.fa[i] + g11 * self.fb[i];
        }
        if let Some(q) = self.q {
            // d/dτ of θ²(1−θ)² is 2θ(1−θ)(1−2θ)/h.
            let w = 2.0 * s * (1.0 - s) * (1.0 - 2.0 * s) / h;
            for (out, qi) in d.iter_mut().zip(q) {
                *out += w * qi;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_stays_exact() {
        let seg = Segment {
            ta: 0.0,
            tb: 0.7,
            ya: &[0.1],
            fa: &[0.0],
            yb: &[0.1],
            fb: &[0.0],
            q: None,
        };
        for k in 0..=100 {
            let mut v = [0.0];
            seg.state(0.007 * f64::from(k), &mut v);
            assert_eq!(v[0], 0.1);
        }
    }

    #[test]
    fn exact_for_a_cubic() {
        // y = t³ − 2t + 1 on [0.5, 2]: a cubic is reproduced exactly.
        let y = |t: f64| t * t * t - 2.0 * t + 1.0;
        let f = |t: f64| 3.0 * t * t - 2.0;
        let (ta, tb) = (0.5, 2.0);
        let seg = Segment {
            ta,
            tb,
            ya: &[y(ta)],
            fa: &[f(ta)],
            yb: &[y(tb)],
            fb: &[f(tb)],
            q: None,
        };
        for k in 0..=10 {
            let t = ta + (tb - ta) * f64::from(k) / 10.0;
            let (mut v, mut d) = ([0.0], [0.0]);
            seg.state(t, &mut v);
            seg.slope(t, &mut d);
            assert!((v[0] - y(t)).abs() < 1e-14);
            assert!((d[0] - f(t)).abs() < 1e-13);
        }
    }
}
