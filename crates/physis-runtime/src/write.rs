//! Writers for samples (CSV, JSON) and the one-object run summary.
//!
//! Columns are `t` then each observe in declaration order, in SI base units. Numbers are
//! printed as the shortest decimal that reads back to the same `f64`, so the same run gives
//! the same bytes.

use std::io::Write;

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::info::{ModelInfo, StateInfo};
use crate::sample::{RunEnd, Sample, SampleSink};

/// Quotes a CSV field when it needs it.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// Writes a float as the shortest round-tripping decimal (`0.1`, `1e-7`, `NaN`, `inf`).
fn csv_number(w: &mut impl Write, v: f64) -> std::io::Result<()> {
    write!(w, "{v:?}")
}

/// Streams samples as CSV: a header `t,<observe>...` then one row per sample.
#[derive(Debug)]
pub struct CsvWriter<W: Write> {
    out: W,
}

impl<W: Write> CsvWriter<W> {
    /// A writer over `out` (buffer it if it is a file).
    pub fn new(out: W) -> Self {
        Self { out }
    }

    /// Gives the output back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> SampleSink for CsvWriter<W> {
    fn begin(&mut self, info: &ModelInfo) -> std::io::Result<()> {
        write!(self.out, "t")?;
        for o in &info.observes {
            write!(self.out, ",{}", csv_field(&o.name))?;
        }
        writeln!(self.out)
    }

    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        csv_number(&mut self.out, s.t)?;
        for v in s.observe {
            write!(self.out, ",")?;
            csv_number(&mut self.out, *v)?;
        }
        writeln!(self.out)
    }

    fn end(&mut self, _end: &RunEnd) -> std::io::Result<()> {
        self.out.flush()
    }
}

/// Streams samples as a JSON array of objects `{"t":…,"<observe>":…}`, one per line.
/// Non-finite numbers are written as `null`.
#[derive(Debug)]
pub struct JsonWriter<W: Write> {
    out: W,
    names: Vec<String>,
    first: bool,
}

impl<W: Write> JsonWriter<W> {
    /// A writer over `out`.
    pub fn new(out: W) -> Self {
        Self {
            out,
            names: Vec::new(),
            first: true,
        }
    }

    /// Gives the output back.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> SampleSink for JsonWriter<W> {
    fn begin(&mut self, info: &ModelInfo) -> std::io::Result<()> {
        self.names = info.observes.iter().map(|o| o.name.clone()).collect();
        write!(self.out, "[")
    }

    fn sample(&mut self, s: &Sample<'_>) -> std::io::Result<()> {
        write!(self.out, "{}\n{{\"t\":", if self.first { "" } else { "," })?;
        self.first = false;
        serde_json::to_writer(&mut self.out, &s.t)?;
        for (name, v) in self.names.iter().zip(s.observe) {
            write!(self.out, ",")?;
            serde_json::to_writer(&mut self.out, name)?;
            write!(self.out, ":")?;
            serde_json::to_writer(&mut self.out, v)?;
        }
        write!(self.out, "}}")
    }

    fn end(&mut self, _end: &RunEnd) -> std::io::Result<()> {
        writeln!(self.out, "\n]")?;
        self.out.flush()
    }
}

/// The `--summary` object: `{"simulation", "run", "reason":{"kind","clause","line"},
/// "samples", "steps", "rejected", "rejected_newton", "evaluations", "events", "jacobians",
/// "factorisations", "final":{"t","state":{...},"observe":{...}}, "backend"}`, keys in that
/// order, states and observes in declaration order. `rejected` counts step attempts refused
/// (error too large or Newton failure), `rejected_newton` those of them whose Newton did not
/// converge, `evaluations` every rate evaluation (stages, residuals, the end-of-step rate,
/// located crossings), which is what SciPy's `nfev` counts.
#[derive(Debug, Clone, Copy)]
pub struct Summary<'a> {
    /// The model's description.
    pub info: &'a ModelInfo,
    /// The named run (`Steep`), or `None` for the defaults.
    pub run: Option<&'a str>,
    /// How the run ended.
    pub end: &'a RunEnd,
    /// What computed it: `interpreter`, `generated`, or the JIT's report (`jit: rate, step
    /// (compile 1.20 ms)`), as the caller that chose it says.
    pub backend: &'a str,
}

impl Summary<'_> {
    /// The summary as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

struct Reason<'a>(&'a crate::reason::Reason);

impl Serialize for Reason<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("reason", 3)?;
        m.serialize_field("kind", self.0.kind.as_str())?;
        m.serialize_field("clause", &self.0.clause)?;
        m.serialize_field("line", &self.0.line)?;
        m.end()
    }
}

/// One state's value: a number, an array, or nested arrays for a 2-D field (row-major).
pub(crate) struct Shaped<'a>(pub(crate) &'a [f64], pub(crate) &'a [usize]);

impl Serialize for Shaped<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        match self.1 {
            [] => self.0.first().copied().unwrap_or(f64::NAN).serialize(s),
            [_] => self.0.serialize(s),
            [n, rest @ ..] => {
                let inner: usize = rest.iter().product();
                let mut q = s.serialize_seq(Some(*n))?;
                for k in 0..*n {
                    let part = self.0.get(k * inner..(k + 1) * inner).unwrap_or(&[]);
                    q.serialize_element(&Shaped(part, rest))?;
                }
                q.end()
            }
        }
    }
}

struct States<'a>(&'a [StateInfo], &'a [f64]);

impl Serialize for States<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for st in self.0 {
            let part = self.1.get(st.offset..st.offset + st.len()).unwrap_or(&[]);
            m.serialize_entry(&st.name, &Shaped(part, &st.shape))?;
        }
        m.end()
    }
}

struct Observes<'a>(&'a ModelInfo, &'a [f64]);

impl Serialize for Observes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.observes.len()))?;
        for (o, v) in self.0.observes.iter().zip(self.1) {
            m.serialize_entry(&o.name, v)?;
        }
        m.end()
    }
}

struct Final<'a>(&'a ModelInfo, &'a RunEnd);

impl Serialize for Final<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("final", 3)?;
        m.serialize_field("t", &self.1.t)?;
        m.serialize_field("state", &States(&self.0.states, &self.1.state))?;
        m.serialize_field("observe", &Observes(self.0, &self.1.observe))?;
        m.end()
    }
}

impl Serialize for Summary<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("summary", 12)?;
        m.serialize_field("simulation", &self.info.name)?;
        m.serialize_field("run", &self.run)?;
        m.serialize_field("reason", &Reason(&self.end.reason))?;
        m.serialize_field("samples", &self.end.stats.samples)?;
        m.serialize_field("steps", &self.end.stats.steps)?;
        // Work beside the accepted steps, comparable with SciPy's `nfev` (docs/oracle.md).
        m.serialize_field("rejected", &self.end.stats.rejections)?;
        m.serialize_field("rejected_newton", &self.end.stats.newton_rejections)?;
        m.serialize_field("evaluations", &self.end.stats.evaluations)?;
        m.serialize_field("events", &self.end.stats.events)?;
        m.serialize_field("jacobians", &self.end.stats.jacobians)?;
        m.serialize_field("factorisations", &self.end.stats.factorisations)?;
        m.serialize_field("final", &Final(self.info, self.end))?;
        m.serialize_field("backend", self.backend)?;
        m.end()
    }
}
