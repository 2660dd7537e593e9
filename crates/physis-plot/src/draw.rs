//! Shared drawing pieces: dispatch, palette, fonts, line segments, marks.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::error::{PlotError, drawing};
use crate::field;
use crate::figure::{Figure, MarkKind};
use crate::series;

/// Font family every text uses (registered from the bundled DejaVu Sans).
pub const FAMILY: &str = "sans-serif";
/// Title size.
pub const TITLE: u32 = 22;
/// Axis description size.
pub const AXIS: u32 = 16;
/// Tick label size.
pub const TICKS: u32 = 13;

/// Line colours (Tableau 10), cycled by column index.
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// Colour of column `i`.
pub fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Colour of a time mark: red for the end, grey for events.
pub fn mark_colour(kind: MarkKind) -> RGBColor {
    match kind {
        MarkKind::End => RGBColor(214, 39, 40),
        _ => RGBColor(120, 120, 120),
    }
}

/// A number with four significant digits, for legends and titles.
pub fn short(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let mag = v.abs().log10().floor() as i32;
    if (-3..6).contains(&mag) {
        let decimals = (3 - mag).max(0) as usize;
        let s = format!("{v:.decimals$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    } else {
        format!("{v:.3e}")
    }
}

/// Draws `figure` on `root` (filled white first).
pub fn figure<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    figure: &Figure,
) -> Result<(), PlotError> {
    root.fill(&WHITE).map_err(drawing)?;
    match figure {
        Figure::TimeSeries(ts) => series::time_series(root, ts),
        Figure::Phase(p) => series::phase(root, p),
        Figure::HeatMap(h) => field::heat_map(root, h),
        Figure::Frame(f) => field::frame(root, f),
        Figure::Bands(b) => series::bands(root, b),
    }
}

/// Splits `(x[i], y[i])` into runs of finite points, so a NaN breaks the line.
pub fn segments(x: &[f64], y: &[f64]) -> Vec<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    let mut run = Vec::new();
    for (&a, &b) in x.iter().zip(y) {
        if a.is_finite() && b.is_finite() {
            run.push((a, b));
        } else if !run.is_empty() {
            out.push(std::mem::take(&mut run));
        }
    }
    if !run.is_empty() {
        out.push(run);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_numbers() {
        assert_eq!(short(4.0517), "4.052");
        assert_eq!(short(60.0), "60");
        assert_eq!(short(0.01), "0.01");
        assert_eq!(short(1.5e-7), "1.500e-7");
        assert_eq!(short(0.0), "0");
    }

    #[test]
    fn nan_breaks_segments() {
        let s = segments(&[0.0, 1.0, 2.0, 3.0], &[1.0, f64::NAN, 2.0, 3.0]);
        assert_eq!(s, vec![vec![(0.0, 1.0)], vec![(2.0, 2.0), (3.0, 3.0)]]);
    }
}
