//! Time series (one panel per unit), ensemble bands and phase plots.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use crate::draw::{AXIS, FAMILY, TICKS, TITLE, colour, mark_colour, segments};
use crate::error::{PlotError, drawing};
use crate::figure::{Bands, Mark, MarkKind, Phase, Series, TimeSeries};
use crate::range::{padded, tight};

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// Column indices grouped by unit, groups in order of first appearance: one panel each.
pub fn panels(series: &[Series]) -> Vec<Vec<usize>> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, s) in series.iter().enumerate() {
        match groups.iter_mut().find(|(u, _)| *u == s.unit) {
            Some((_, g)) => g.push(i),
            None => groups.push((s.unit.clone(), vec![i])),
        }
    }
    groups.into_iter().map(|(_, g)| g).collect()
}

/// The vertical axis text of a panel: `height [m]`, `height, depth [m]`.
fn panel_label<'s>(series: impl IntoIterator<Item = &'s Series>) -> String {
    let mut names = Vec::new();
    let mut unit = None;
    for s in series {
        names.push(s.name.as_str());
        unit.get_or_insert(s.unit.as_str());
    }
    crate::figure::label(&names.join(", "), unit.unwrap_or(""))
}

fn chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    x: Range<f64>,
    y: Range<f64>,
    x_desc: &str,
    y_desc: &str,
) -> Result<Chart<'a, DB>, PlotError> {
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(84)
        .build_cartesian_2d(x, y)
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .axis_desc_style((FAMILY, AXIS))
        .label_style((FAMILY, TICKS))
        .draw()
        .map_err(drawing)?;
    Ok(chart)
}

fn legend<'a, DB: DrawingBackend + 'a>(chart: &mut Chart<'a, DB>) -> Result<(), PlotError> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.5))
        .label_font((FAMILY, TICKS))
        .draw()
        .map_err(drawing)
}

/// Draws `values` over `x` as a line broken at non-finite points; labelled once.
fn line<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    x: &[f64],
    values: &[f64],
    colour: RGBColor,
    label: Option<String>,
) -> Result<(), PlotError> {
    let mut label = label;
    for seg in segments(x, values) {
        let anno = chart
            .draw_series(LineSeries::new(seg, colour.stroke_width(2)))
            .map_err(drawing)?;
        if let Some(text) = label.take() {
            anno.label(text).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
        }
    }
    Ok(())
}

/// Vertical dashed lines at the marks within the time range; the end and the first event
/// get a legend entry.
fn marks<'a, DB: DrawingBackend + 'a>(
    chart: &mut Chart<'a, DB>,
    marks: &[Mark],
    t: &Range<f64>,
    y: &Range<f64>,
) -> Result<(), PlotError> {
    let mut event_named = false;
    for m in marks.iter().filter(|m| m.t.is_finite()) {
        if m.t < t.start || m.t > t.end {
            continue;
        }
        let c = mark_colour(m.kind);
        let path = vec![(m.t, y.start), (m.t, y.end)];
        let anno = chart
            .draw_series(std::iter::once(DashedPathElement::new(
                path,
                6,
                4,
                c.stroke_width(1),
            )))
            .map_err(drawing)?;
        let named = match m.kind {
            MarkKind::Event => std::mem::replace(&mut event_named, true),
            _ => false,
        };
        if !named {
            anno.label(m.text()).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(1))
            });
        }
    }
    Ok(())
}

/// Columns over time, one panel per distinct unit, marks on every panel.
pub fn time_series<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    ts: &TimeSeries,
) -> Result<(), PlotError> {
    let area = root.titled(&ts.title, (FAMILY, TITLE)).map_err(drawing)?;
    let groups = panels(&ts.series);
    let t = tight([ts.time.as_slice()]);
    for (group, panel) in groups.iter().zip(area.split_evenly((groups.len(), 1))) {
        let cols: Vec<(usize, &Series)> = group.iter().map(|&i| (i, &ts.series[i])).collect();
        let y = padded(cols.iter().map(|(_, s)| s.values.as_slice()));
        let ylab = panel_label(cols.iter().map(|(_, s)| *s));
        let mut chart = chart(&panel, t.clone(), y.clone(), "t [s]", &ylab)?;
        for (i, s) in &cols {
            line(
                &mut chart,
                &ts.time,
                &s.values,
                colour(*i),
                Some(s.name.clone()),
            )?;
        }
        marks(&mut chart, &ts.marks, &t, &y)?;
        legend(&mut chart)?;
    }
    Ok(())
}

/// Ensemble means with their quantile bands over time, one panel per distinct unit.
pub fn bands<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    b: &Bands,
) -> Result<(), PlotError> {
    let area = root.titled(&b.title, (FAMILY, TITLE)).map_err(drawing)?;
    let means: Vec<Series> = b.bands.iter().map(|band| band.mean.clone()).collect();
    let groups = panels(&means);
    let t = tight([b.time.as_slice()]);
    for (group, panel) in groups.iter().zip(area.split_evenly((groups.len(), 1))) {
        let y = padded(group.iter().flat_map(|&i| {
            let band = &b.bands[i];
            [
                band.mean.values.as_slice(),
                band.lower.as_slice(),
                band.upper.as_slice(),
            ]
        }));
        let ylab = panel_label(group.iter().map(|&i| &b.bands[i].mean));
        let mut chart = chart(&panel, t.clone(), y.clone(), "t [s]", &ylab)?;
        for &i in group {
            let band = &b.bands[i];
            let c = colour(i);
            let upper = b.time.iter().zip(&band.upper);
            let lower = b.time.iter().zip(&band.lower).rev();
            let outline: Vec<(f64, f64)> = upper
                .chain(lower)
                .filter(|(t, v)| t.is_finite() && v.is_finite())
                .map(|(t, v)| (*t, *v))
                .collect();
            if outline.len() >= 3 {
                let fill = c.mix(0.25);
                chart
                    .draw_series(std::iter::once(Polygon::new(outline, fill.filled())))
                    .map_err(drawing)?
                    .label(format!("{} {}", band.mean.name, b.band_label))
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 20, y + 5)], fill.filled())
                    });
            }
            let label = format!("{} mean", band.mean.name);
            line(&mut chart, &b.time, &band.mean.values, c, Some(label))?;
        }
        marks(&mut chart, &b.marks, &t, &y)?;
        legend(&mut chart)?;
    }
    Ok(())
}

/// Columns against a column: the trajectory, a dot at its start and a cross at its end.
pub fn phase<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    p: &Phase,
) -> Result<(), PlotError> {
    let area = root.titled(&p.title, (FAMILY, TITLE)).map_err(drawing)?;
    let x = padded([p.x.values.as_slice()]);
    let y = padded(p.y.iter().map(|s| s.values.as_slice()));
    let ylab = if p.y.iter().all(|s| s.unit == p.y[0].unit) {
        panel_label(&p.y)
    } else {
        p.y.iter().map(Series::label).collect::<Vec<_>>().join(", ")
    };
    let mut chart = chart(&area, x, y, &p.x.label(), &ylab)?;
    for (i, s) in p.y.iter().enumerate() {
        let c = colour(i);
        line(&mut chart, &p.x.values, &s.values, c, Some(s.name.clone()))?;
        let segs = segments(&p.x.values, &s.values);
        if let Some(&start) = segs.first().and_then(|s| s.first()) {
            chart
                .draw_series(std::iter::once(Circle::new(start, 4, c.filled())))
                .map_err(drawing)?;
        }
        if let Some(&end) = segs.last().and_then(|s| s.last()) {
            let anno = chart
                .draw_series(std::iter::once(Cross::new(end, 6, c.stroke_width(2))))
                .map_err(drawing)?;
            if let (0, Some(text)) = (i, &p.end) {
                anno.label(text.clone())
                    .legend(move |(x, y)| Cross::new((x + 10, y), 5, c.stroke_width(2)));
            }
        }
    }
    legend(&mut chart)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(name: &str, unit: &str) -> Series {
        Series {
            name: name.into(),
            quantity: String::new(),
            unit: unit.into(),
            values: vec![],
        }
    }

    #[test]
    fn one_panel_per_unit_in_order() {
        let cols = [s("h", "m"), s("v", "m/s"), s("d", "m"), s("n", "1")];
        assert_eq!(panels(&cols), vec![vec![0, 2], vec![1], vec![3]]);
        assert_eq!(panel_label([&cols[0], &cols[2]]), "h, d [m]");
    }
}
