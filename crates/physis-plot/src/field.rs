//! Fields: a 1-D field over time as a heat-map, a 2-D field at one time as a frame, each
//! with a colour bar labelled with the field and its unit.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use crate::colour::viridis;
use crate::draw::{AXIS, FAMILY, TICKS, TITLE, mark_colour, short};
use crate::error::{PlotError, drawing};
use crate::figure::{FieldFrame, HeatMap, MarkKind, label};
use crate::range::tight;

/// Most time rows a heat-map draws; longer runs are sampled down (nearest sample).
pub const MAX_ROWS: usize = 240;
/// Width of the colour bar area, pixels.
const BAR: u32 = 130;

/// Cell edges around sorted node coordinates: midpoints, half a spacing beyond the ends.
fn edges(nodes: &[f64]) -> Vec<f64> {
    match nodes {
        [] => vec![],
        [x] => vec![x - 0.5, x + 0.5],
        _ => {
            let n = nodes.len();
            let mut e = Vec::with_capacity(n + 1);
            e.push(nodes[0] - (nodes[1] - nodes[0]) / 2.0);
            e.extend(nodes.windows(2).map(|w| (w[0] + w[1]) / 2.0));
            e.push(nodes[n - 1] + (nodes[n - 1] - nodes[n - 2]) / 2.0);
            e
        }
    }
}

/// Indices of at most `max` rows spread evenly over `time` (nearest sample to each target).
fn pick_rows(time: &[f64], max: usize) -> Vec<usize> {
    if time.len() <= max {
        return (0..time.len()).collect();
    }
    let (t0, t1) = (time[0], time[time.len() - 1]);
    let mut out: Vec<usize> = (0..max)
        .map(|k| {
            let target = t0 + (t1 - t0) * k as f64 / (max - 1) as f64;
            let i = time.partition_point(|&t| t < target).min(time.len() - 1);
            if i > 0 && (target - time[i - 1]) < (time[i] - target) {
                i - 1
            } else {
                i
            }
        })
        .collect();
    out.dedup();
    out
}

/// Splits off the colour bar and draws it: `lo..hi` upwards, labelled `name [unit]`.
fn colour_bar<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    values: &Range<f64>,
    text: &str,
) -> Result<(), PlotError> {
    let mut bar = ChartBuilder::on(area)
        .margin_top(12)
        .margin_bottom(56)
        .margin_right(8)
        .y_label_area_size(84)
        .build_cartesian_2d(0.0..1.0, values.clone())
        .map_err(drawing)?;
    bar.configure_mesh()
        .disable_x_mesh()
        .disable_y_mesh()
        .disable_x_axis()
        .y_desc(text)
        .axis_desc_style((FAMILY, AXIS))
        .label_style((FAMILY, TICKS))
        .draw()
        .map_err(drawing)?;
    let steps = 64;
    let h = (values.end - values.start) / steps as f64;
    bar.draw_series((0..steps).map(|k| {
        let a = values.start + h * k as f64;
        let c = viridis(a + h / 2.0, values.start, values.end);
        Rectangle::new([(0.0, a), (1.0, a + h)], c.filled())
    }))
    .map_err(drawing)?;
    Ok(())
}

/// A 1-D field over time: node coordinate across, time up, colour for the value.
pub fn heat_map<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    h: &HeatMap,
) -> Result<(), PlotError> {
    let area = root.titled(&h.title, (FAMILY, TITLE)).map_err(drawing)?;
    let (main, bar_area) = area.split_horizontally(area.dim_in_pixel().0.saturating_sub(BAR));
    let values = tight(h.rows.iter().map(Vec::as_slice));
    let xe = edges(&h.axis.nodes);
    let rows = pick_rows(&h.time, MAX_ROWS);
    let times: Vec<f64> = rows.iter().map(|&i| h.time[i]).collect();
    let te = edges(&times);
    let x = tight([xe.as_slice()]);
    let t = tight([te.as_slice()]);
    let mut chart = ChartBuilder::on(&main)
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(84)
        .build_cartesian_2d(x, t.clone())
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_y_mesh()
        .x_desc(label(&h.axis.name, &h.axis.unit))
        .y_desc("t [s]")
        .axis_desc_style((FAMILY, AXIS))
        .label_style((FAMILY, TICKS))
        .draw()
        .map_err(drawing)?;
    for (k, &i) in rows.iter().enumerate() {
        let (ta, tb) = (te[k], te[k + 1]);
        chart
            .draw_series(h.rows[i].iter().enumerate().map(|(j, &v)| {
                let c = viridis(v, values.start, values.end);
                Rectangle::new([(xe[j], ta), (xe[j + 1], tb)], c.filled())
            }))
            .map_err(drawing)?;
    }
    let (x0, x1) = (xe[0], xe[xe.len() - 1]);
    let mut labelled = false;
    for m in h.marks.iter().filter(|m| m.t >= t.start && m.t <= t.end) {
        let c = mark_colour(m.kind);
        let anno = chart
            .draw_series(std::iter::once(DashedPathElement::new(
                vec![(x0, m.t), (x1, m.t)],
                6,
                4,
                c.stroke_width(2),
            )))
            .map_err(drawing)?;
        if m.kind == MarkKind::End || !std::mem::replace(&mut labelled, true) {
            anno.label(m.text()).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
            });
        }
    }
    if !h.marks.is_empty() {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::LowerRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.5))
            .label_font((FAMILY, TICKS))
            .draw()
            .map_err(drawing)?;
    }
    colour_bar(&bar_area, &values, &label(&h.value, &h.unit))
}

/// A 2-D field at one time: first axis across, second up, colour for the value.
pub fn frame<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    f: &FieldFrame,
) -> Result<(), PlotError> {
    let title = format!("{} at t = {} s", f.title, short(f.t));
    let area = root.titled(&title, (FAMILY, TITLE)).map_err(drawing)?;
    let (main, bar_area) = area.split_horizontally(area.dim_in_pixel().0.saturating_sub(BAR));
    let values = tight([f.values.as_slice()]);
    let (xe, ye) = (edges(&f.x.nodes), edges(&f.y.nodes));
    let mut chart = ChartBuilder::on(&main)
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(84)
        .build_cartesian_2d(tight([xe.as_slice()]), tight([ye.as_slice()]))
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .disable_y_mesh()
        .x_desc(label(&f.x.name, &f.x.unit))
        .y_desc(label(&f.y.name, &f.y.unit))
        .axis_desc_style((FAMILY, AXIS))
        .label_style((FAMILY, TICKS))
        .draw()
        .map_err(drawing)?;
    let m = f.y.nodes.len();
    chart
        .draw_series(f.values.iter().enumerate().map(|(k, &v)| {
            let (i, j) = (k / m, k % m);
            let c = viridis(v, values.start, values.end);
            Rectangle::new([(xe[i], ye[j]), (xe[i + 1], ye[j + 1])], c.filled())
        }))
        .map_err(drawing)?;
    colour_bar(&bar_area, &values, &label(&f.value, &f.unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_edges_surround_nodes() {
        assert_eq!(edges(&[0.0, 1.0, 3.0]), vec![-0.5, 0.5, 2.0, 4.0]);
        assert_eq!(edges(&[2.0]), vec![1.5, 2.5]);
        assert!(edges(&[]).is_empty());
    }

    #[test]
    fn rows_are_sampled_down_evenly() {
        let time: Vec<f64> = (0..1000).map(f64::from).collect();
        let rows = pick_rows(&time, 11);
        assert_eq!(
            rows,
            vec![0, 100, 200, 300, 400, 500, 599, 699, 799, 899, 999]
        );
        assert_eq!(pick_rows(&time[..5], 11), vec![0, 1, 2, 3, 4]);
    }
}
