//! Plots of physis runs, drawn with `plotters` and a bundled DejaVu Sans font (so nothing
//! depends on the fonts of the machine).
//!
//! **Takes in** a [`Figure`]: plain data with names, quantity kinds and SI units (time
//! series with the run's end and event times, a phase plot, a 1-D field over time, a 2-D
//! field frame, ensemble means with quantile bands). **Hands on** SVG or PNG bytes
//! ([`render`]) or a file ([`render_to_path`], format from the extension). Axes are
//! labelled `name [unit]`, time as `t [s]`; time series get one panel per distinct unit.
//! This crate knows nothing of models or runs: the CLI turns samples into figures.

mod colour;
mod draw;
mod error;
mod field;
mod figure;
mod range;
mod series;

use std::path::Path;
use std::sync::OnceLock;

use plotters::prelude::*;
use plotters::style::FontStyle;

pub use error::PlotError;
pub use figure::{
    Band, Bands, FieldFrame, Figure, GridAxis, HeatMap, Mark, MarkKind, Phase, Series, TimeSeries,
    label,
};

/// Largest accepted width or height, in pixels.
pub const MAX_SIDE: u32 = 8192;

/// Output encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Scalable vector graphics (text stays text).
    Svg,
    /// An 8-bit RGB PNG image.
    Png,
}

impl Format {
    /// The format named by a path's extension (`.svg`, `.png`, any case).
    pub fn from_path(path: &Path) -> Result<Format, PlotError> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            _ => Err(PlotError::Extension {
                path: path.display().to_string(),
            }),
        }
    }
}

/// Registers DejaVu Sans as the `sans-serif` family once per process.
fn fonts() -> Result<(), PlotError> {
    static DONE: OnceLock<bool> = OnceLock::new();
    let ok = *DONE.get_or_init(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .is_ok()
            && plotters::style::register_font("sans-serif", FontStyle::Bold, dejavu::sans::bold())
                .is_ok()
    });
    if ok { Ok(()) } else { Err(PlotError::Font) }
}

/// Draws `figure` at `width × height` pixels and encodes it.
pub fn render(
    figure: &Figure,
    format: Format,
    (width, height): (u32, u32),
) -> Result<Vec<u8>, PlotError> {
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return Err(PlotError::Size { width, height });
    }
    fonts()?;
    figure_check(figure)?;
    match format {
        Format::Svg => {
            let mut text = String::new();
            {
                let root = SVGBackend::with_string(&mut text, (width, height)).into_drawing_area();
                draw::figure(&root, figure)?;
                root.present().map_err(error::drawing)?;
            }
            Ok(text.into_bytes())
        }
        Format::Png => {
            let mut rgb = vec![0u8; width as usize * height as usize * 3];
            {
                let root =
                    BitMapBackend::with_buffer(&mut rgb, (width, height)).into_drawing_area();
                draw::figure(&root, figure)?;
                root.present().map_err(error::drawing)?;
            }
            encode_png(&rgb, width, height)
        }
    }
}

/// Draws `figure` into `path`, SVG or PNG by its extension.
pub fn render_to_path(figure: &Figure, path: &Path, size: (u32, u32)) -> Result<(), PlotError> {
    let format = Format::from_path(path)?;
    let bytes = render(figure, format, size)?;
    std::fs::write(path, bytes).map_err(|source| PlotError::Write {
        path: path.display().to_string(),
        source,
    })
}

/// A sensible default size for a figure: taller for several time-series panels, near
/// square for a 2-D frame.
pub fn default_size(figure: &Figure) -> (u32, u32) {
    let panels = match figure {
        Figure::Frame(_) => return (820, 720),
        Figure::TimeSeries(ts) => series::panels(&ts.series).len(),
        Figure::Bands(b) => {
            let means: Vec<Series> = b.bands.iter().map(|b| b.mean.clone()).collect();
            series::panels(&means).len()
        }
        _ => 1,
    } as u32;
    (900, 120 + 320 * panels.clamp(1, 8))
}

fn encode_png(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, PlotError> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(error::encoding)?;
    writer.write_image_data(rgb).map_err(error::encoding)?;
    writer.finish().map_err(error::encoding)?;
    Ok(out)
}

/// Lengths agree and there is something to draw.
fn figure_check(figure: &Figure) -> Result<(), PlotError> {
    let same = |what: &str, len: usize, expected: usize| {
        if len == expected {
            Ok(())
        } else {
            Err(PlotError::Length {
                what: what.to_string(),
                len,
                expected,
            })
        }
    };
    match figure {
        Figure::TimeSeries(ts) => {
            if ts.series.is_empty() {
                return Err(PlotError::Empty);
            }
            for s in &ts.series {
                same(&s.name, s.values.len(), ts.time.len())?;
            }
        }
        Figure::Phase(p) => {
            if p.y.is_empty() {
                return Err(PlotError::Empty);
            }
            for s in &p.y {
                same(&s.name, s.values.len(), p.x.values.len())?;
            }
        }
        Figure::HeatMap(h) => {
            if h.rows.is_empty() || h.axis.nodes.is_empty() {
                return Err(PlotError::Empty);
            }
            same("heat-map rows", h.rows.len(), h.time.len())?;
            for r in &h.rows {
                same(&h.value, r.len(), h.axis.nodes.len())?;
            }
        }
        Figure::Frame(f) => {
            if f.x.nodes.is_empty() || f.y.nodes.is_empty() {
                return Err(PlotError::Empty);
            }
            same(&f.value, f.values.len(), f.x.nodes.len() * f.y.nodes.len())?;
        }
        Figure::Bands(b) => {
            if b.bands.is_empty() {
                return Err(PlotError::Empty);
            }
            for band in &b.bands {
                let n = b.time.len();
                same(&band.mean.name, band.mean.values.len(), n)?;
                same(&band.mean.name, band.lower.len(), n)?;
                same(&band.mean.name, band.upper.len(), n)?;
            }
        }
    }
    Ok(())
}
