//! What a plot shows: plain data with names, quantity kinds and SI units, independent of
//! how it is drawn.

/// One named column of values with its quantity and SI unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Column name (`height`, `x[0]`).
    pub name: String,
    /// Quantity kind (`Length`), empty when unknown.
    pub quantity: String,
    /// SI unit text (`m`, `m/s`, `1` for a pure number), empty when unknown.
    pub unit: String,
    /// The values, one per sample.
    pub values: Vec<f64>,
}

impl Series {
    /// The axis label: `height [m]`, or the bare name for a pure number.
    pub fn label(&self) -> String {
        label(&self.name, &self.unit)
    }
}

/// `name [unit]`, or `name` alone for an unknown unit or a pure number (unit `1`).
pub fn label(name: &str, unit: &str) -> String {
    if unit.is_empty() || unit == "1" {
        name.to_string()
    } else {
        format!("{name} [{unit}]")
    }
}

/// What a vertical time marker stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum MarkKind {
    /// Where the run ended (its reason is the mark's label).
    End,
    /// An event firing.
    Event,
}

/// A time marked on every panel: the run's end or an event firing.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    /// Time (s).
    pub t: f64,
    /// Text shown beside the line (`when`, `event`).
    pub label: String,
    /// End or event.
    pub kind: MarkKind,
}

impl Mark {
    /// Legend text: `when at t = 4.052 s`.
    pub fn text(&self) -> String {
        format!("{} at t = {} s", self.label, crate::draw::short(self.t))
    }
}

/// Observed columns over time, one panel per distinct unit.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeSeries {
    /// Title above the first panel.
    pub title: String,
    /// Sample times (s).
    pub time: Vec<f64>,
    /// Columns, each as long as `time`.
    pub series: Vec<Series>,
    /// Run end and event times.
    pub marks: Vec<Mark>,
}

/// One column against another (a trajectory in a phase or configuration plane).
#[derive(Debug, Clone, PartialEq)]
pub struct Phase {
    /// Title.
    pub title: String,
    /// Horizontal column.
    pub x: Series,
    /// Vertical columns, each as long as `x`, drawn as separate curves.
    pub y: Vec<Series>,
    /// Label of the last point (how the run ended), if any.
    pub end: Option<String>,
}

/// A grid axis: name, unit and node coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct GridAxis {
    /// Coordinate name (`x`).
    pub name: String,
    /// SI unit of the coordinate.
    pub unit: String,
    /// Node coordinates, increasing.
    pub nodes: Vec<f64>,
}

/// A 1-D field over time: node coordinate across, time up, colour for the value.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatMap {
    /// Title.
    pub title: String,
    /// The grid axis.
    pub axis: GridAxis,
    /// Sample times (s), increasing.
    pub time: Vec<f64>,
    /// One row of node values per sample time.
    pub rows: Vec<Vec<f64>>,
    /// Name of the field (`u`).
    pub value: String,
    /// SI unit of the field.
    pub unit: String,
    /// Run end and event times, drawn as horizontal lines.
    pub marks: Vec<Mark>,
}

/// A 2-D field at one time: first axis across, second up, colour for the value.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldFrame {
    /// Title.
    pub title: String,
    /// First grid axis (slowest index in `values`).
    pub x: GridAxis,
    /// Second grid axis (fastest index).
    pub y: GridAxis,
    /// Row-major values: `values[i * y.nodes.len() + j]` at `(x[i], y[j])`.
    pub values: Vec<f64>,
    /// Name of the field.
    pub value: String,
    /// SI unit of the field.
    pub unit: String,
    /// Time of the frame (s).
    pub t: f64,
}

/// Mean and a quantile band of one column over an ensemble.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// Column name, quantity and unit; `values` holds the mean.
    pub mean: Series,
    /// Lower quantile per sample time.
    pub lower: Vec<f64>,
    /// Upper quantile per sample time.
    pub upper: Vec<f64>,
}

/// Ensemble statistics over time, one panel per distinct unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Bands {
    /// Title.
    pub title: String,
    /// The shared sample times (s).
    pub time: Vec<f64>,
    /// One band per column.
    pub bands: Vec<Band>,
    /// Legend text of the band (`5-95 %`).
    pub band_label: String,
    /// Marks (e.g. the common end time).
    pub marks: Vec<Mark>,
}

/// Any figure this crate draws.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Figure {
    /// Columns over time.
    TimeSeries(TimeSeries),
    /// Columns against a column.
    Phase(Phase),
    /// A 1-D field over time.
    HeatMap(HeatMap),
    /// A 2-D field at one time.
    Frame(FieldFrame),
    /// Ensemble mean and quantile band over time.
    Bands(Bands),
}
