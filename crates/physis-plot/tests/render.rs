//! Figures rendered as a user gets them: SVG that parses as XML with the labelled axes and
//! the expected structure, PNG that decodes at the asked size, refusals of bad input.

use physis_plot::{
    Band, Bands, FieldFrame, Figure, Format, GridAxis, HeatMap, Mark, MarkKind, Phase, PlotError,
    Series, TimeSeries, render,
};

fn series(name: &str, unit: &str, values: Vec<f64>) -> Series {
    Series {
        name: name.into(),
        quantity: String::new(),
        unit: unit.into(),
        values,
    }
}

/// A small model's run: height and depth in metres, speed in m/s, one event, a stop.
fn small() -> Figure {
    let time: Vec<f64> = (0..=20).map(|k| f64::from(k) * 0.1).collect();
    let h = time.iter().map(|t| 10.0 * t - 4.9 * t * t).collect();
    let d = time.iter().map(|t| -t).collect();
    let v = time.iter().map(|t| (10.0 - 9.8 * t).abs()).collect();
    Figure::TimeSeries(TimeSeries {
        title: "Small".into(),
        time,
        series: vec![
            series("height", "m", h),
            series("speed", "m/s", v),
            series("depth", "m", d),
        ],
        marks: vec![
            Mark {
                t: 1.0,
                label: "event".into(),
                kind: MarkKind::Event,
            },
            Mark {
                t: 2.0,
                label: "when: t ≥ 2 s".into(),
                kind: MarkKind::End,
            },
        ],
    })
}

fn svg(figure: &Figure) -> String {
    let bytes = render(figure, Format::Svg, (800, 600)).expect("renders");
    String::from_utf8(bytes).expect("SVG is UTF-8")
}

/// Every `<text>` content of a parsed SVG.
fn texts(doc: &roxmltree::Document<'_>) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let s: String = n
                .descendants()
                .filter(|d| d.is_text())
                .filter_map(|d| d.text())
                .collect();
            s.trim().to_string()
        })
        .collect()
}

fn count(texts: &[String], s: &str) -> usize {
    texts.iter().filter(|t| t.as_str() == s).count()
}

#[test]
fn golden_structure_of_a_small_time_series() {
    let text = svg(&small());
    let doc = roxmltree::Document::parse(&text).expect("SVG parses as XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("width"), Some("800"));
    assert_eq!(root.attribute("height"), Some("600"));
    let t = texts(&doc);
    // Two units, two panels: each with its own time axis and vertical axis label.
    assert_eq!(count(&t, "Small"), 1);
    assert_eq!(count(&t, "t [s]"), 2);
    assert_eq!(count(&t, "height, depth [m]"), 1);
    assert_eq!(count(&t, "speed [m/s]"), 1);
    // Legends: series names and the marks, on each panel that shows them.
    assert_eq!(count(&t, "height"), 1);
    assert_eq!(count(&t, "depth"), 1);
    assert_eq!(count(&t, "speed"), 1);
    assert_eq!(count(&t, "event at t = 1 s"), 2);
    assert_eq!(count(&t, "when: t ≥ 2 s at t = 2 s"), 2);
    // One polyline per series, plus one per mark per panel (dashes are drawn as
    // separate short lines, so count the series lines by their colour instead).
    let polylines: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("polyline"))
        .collect();
    let with_points = |n: usize| {
        polylines
            .iter()
            .filter(|p| {
                p.attribute("points")
                    .is_some_and(|pts| pts.split_whitespace().count() == n)
            })
            .count()
    };
    assert_eq!(with_points(21), 3, "one 21-point line per series");
}

#[test]
fn nan_values_break_lines_instead_of_failing() {
    let mut fig = small();
    if let Figure::TimeSeries(ts) = &mut fig {
        ts.series[0].values[5] = f64::NAN;
    }
    let text = svg(&fig);
    roxmltree::Document::parse(&text).expect("SVG parses as XML");
}

#[test]
fn png_decodes_at_the_asked_size() {
    let bytes = render(&small(), Format::Png, (640, 480)).expect("renders");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut buf).expect("PNG data");
    assert_eq!((frame.width, frame.height), (640, 480));
    let pixels = &buf[..frame.buffer_size()];
    // Mostly white background, with drawn (non-white, non-grey) line pixels.
    let white = pixels.chunks(3).filter(|p| p == &[255, 255, 255]).count();
    let coloured = pixels
        .chunks(3)
        .filter(|p| p[0].abs_diff(p[1]) > 40 || p[1].abs_diff(p[2]) > 40)
        .count();
    assert!(white > pixels.len() / 6, "background is white");
    assert!(coloured > 500, "lines are drawn in colour: {coloured}");
}

fn axis(name: &str, n: usize) -> GridAxis {
    GridAxis {
        name: name.into(),
        unit: "m".into(),
        nodes: (0..n).map(|k| k as f64 / (n - 1) as f64).collect(),
    }
}

fn rects(text: &str) -> usize {
    let doc = roxmltree::Document::parse(text).expect("SVG parses as XML");
    doc.descendants().filter(|n| n.has_tag_name("rect")).count()
}

#[test]
fn heat_map_draws_one_cell_per_node_and_time_and_a_colour_bar() {
    let time: Vec<f64> = (0..10).map(f64::from).collect();
    let rows = time
        .iter()
        .map(|t| (0..5).map(|j| t * f64::from(j)).collect())
        .collect();
    let fig = Figure::HeatMap(HeatMap {
        title: "Rod".into(),
        axis: axis("x", 5),
        time,
        rows,
        value: "u".into(),
        unit: "K".into(),
        marks: vec![],
    });
    let text = svg(&fig);
    // 50 cells, 64 colour-bar steps, the background and the plotting areas' frames.
    let n = rects(&text);
    assert!((50 + 64..50 + 64 + 6).contains(&n), "{n} rects");
    let t = texts(&roxmltree::Document::parse(&text).expect("XML"));
    for label in ["x [m]", "t [s]", "u [K]", "Rod"] {
        assert_eq!(count(&t, label), 1, "{label} in {t:?}");
    }
}

#[test]
fn frame_of_a_2d_field() {
    let values = (0..12).map(f64::from).collect();
    let fig = Figure::Frame(FieldFrame {
        title: "Plate".into(),
        x: axis("x", 3),
        y: axis("y", 4),
        values,
        value: "φ".into(),
        unit: "1".into(),
        t: 2.5,
    });
    let text = svg(&fig);
    let n = rects(&text);
    assert!((12 + 64..12 + 64 + 6).contains(&n), "{n} rects");
    let t = texts(&roxmltree::Document::parse(&text).expect("XML"));
    for label in ["x [m]", "y [m]", "φ", "Plate at t = 2.5 s"] {
        assert_eq!(count(&t, label), 1, "{label} in {t:?}");
    }
}

#[test]
fn bands_and_phase() {
    let time = vec![0.0, 1.0, 2.0];
    let fig = Figure::Bands(Bands {
        title: "OU".into(),
        time,
        bands: vec![Band {
            mean: series("v", "m/s", vec![0.0, 0.5, 0.6]),
            lower: vec![0.0, -0.5, -0.6],
            upper: vec![0.0, 1.5, 1.8],
        }],
        band_label: "5-95 %".into(),
        marks: vec![],
    });
    let text = svg(&fig);
    let doc = roxmltree::Document::parse(&text).expect("SVG parses as XML");
    assert!(doc.descendants().any(|n| n.has_tag_name("polygon")));
    let t = texts(&doc);
    for label in ["v [m/s]", "v mean", "v 5-95 %", "t [s]"] {
        assert_eq!(count(&t, label), 1, "{label} in {t:?}");
    }
    let fig = Figure::Phase(Phase {
        title: "Path".into(),
        x: series("x[0]", "m", vec![0.0, 1.0, 2.0]),
        y: vec![series("x[1]", "m", vec![0.0, 1.0, 0.0])],
        end: Some("when at t = 2 s".into()),
    });
    let t = texts(&roxmltree::Document::parse(&svg(&fig)).expect("XML"));
    for label in ["x[0] [m]", "x[1] [m]", "when at t = 2 s"] {
        assert_eq!(count(&t, label), 1, "{label} in {t:?}");
    }
}

#[test]
fn bad_input_is_refused() {
    let fig = small();
    assert!(matches!(
        render(&fig, Format::Svg, (0, 10)),
        Err(PlotError::Size { .. })
    ));
    let mut short = fig.clone();
    if let Figure::TimeSeries(ts) = &mut short {
        ts.series[1].values.pop();
    }
    assert!(matches!(
        render(&short, Format::Png, (100, 100)),
        Err(PlotError::Length { .. })
    ));
    let empty = Figure::TimeSeries(TimeSeries {
        title: String::new(),
        time: vec![],
        series: vec![],
        marks: vec![],
    });
    assert!(matches!(
        render(&empty, Format::Svg, (100, 100)),
        Err(PlotError::Empty)
    ));
    assert!(Format::from_path(std::path::Path::new("a.jpeg")).is_err());
    assert_eq!(
        Format::from_path(std::path::Path::new("a.SVG")).ok(),
        Some(Format::Svg)
    );
}
