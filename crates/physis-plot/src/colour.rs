//! A perceptually ordered colour scale (viridis, sampled at nine stops and interpolated).

use plotters::style::RGBColor;

const STOPS: [(u8, u8, u8); 9] = [
    (68, 1, 84),
    (71, 44, 122),
    (59, 81, 139),
    (44, 113, 142),
    (33, 144, 141),
    (39, 173, 129),
    (92, 200, 99),
    (170, 220, 50),
    (253, 231, 37),
];

/// The colour of `v` on a scale from `lo` (dark purple) to `hi` (yellow); grey for NaN.
pub fn viridis(v: f64, lo: f64, hi: f64) -> RGBColor {
    if !v.is_finite() {
        return RGBColor(160, 160, 160);
    }
    let x = if hi > lo {
        ((v - lo) / (hi - lo)).clamp(0.0, 1.0)
    } else {
        0.5
    };
    let pos = x * (STOPS.len() - 1) as f64;
    let i = (pos.floor() as usize).min(STOPS.len() - 2);
    let f = pos - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |p: u8, q: u8| (f64::from(p) + f * (f64::from(q) - f64::from(p))).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_and_middle() {
        assert_eq!(viridis(0.0, 0.0, 1.0), RGBColor(68, 1, 84));
        assert_eq!(viridis(1.0, 0.0, 1.0), RGBColor(253, 231, 37));
        assert_eq!(viridis(2.0, 0.0, 1.0), RGBColor(253, 231, 37));
        assert_eq!(viridis(0.5, 0.0, 1.0), RGBColor(33, 144, 141));
        assert_eq!(viridis(f64::NAN, 0.0, 1.0), RGBColor(160, 160, 160));
    }
}
