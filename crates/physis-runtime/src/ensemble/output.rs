//! Writers for an ensemble's result: the series as CSV or JSON, the members as CSV, and the
//! one-object summary.
//!
//! Series columns are `t`, then for each observe `<name>_mean`, `<name>_std` and one
//! `<name>_qNN` per quantile (`q05`, `q50`, `q95`; `q025` for 0.025), then `n`, the members
//! contributing at that time. Numbers are the shortest decimals that read back to the same
//! `f64`; JSON writes non-finite numbers (a standard deviation of one member) as `null`.

use std::io::Write;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::info::StateInfo;
use crate::stats::Moments;
use crate::write::Shaped;

use super::{EnsembleError, EnsembleResult};

/// Column label of quantile `p`: its decimal digits, at least two (`0.05` → `q05`,
/// `0.5` → `q50`, `0.025` → `q025`, `1` → `q100`).
pub fn quantile_label(p: f64) -> String {
    if p >= 1.0 {
        return "q100".into();
    }
    let text = format!("{p}");
    let digits = text.strip_prefix("0.").unwrap_or("");
    format!("q{digits:0<2}")
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// Names of every state slot: `x` for a scalar, `x[1]` for a vector, `u[1,2]` for a grid.
fn slot_names(states: &[StateInfo]) -> Vec<String> {
    let mut names = Vec::new();
    for s in states {
        match s.shape.as_slice() {
            [] => names.push(s.name.clone()),
            [n] => names.extend((0..*n).map(|i| format!("{}[{i}]", s.name))),
            shape => {
                for flat in 0..s.len() {
                    let mut rest = flat;
                    let mut idx = vec![0; shape.len()];
                    for (slot, &n) in idx.iter_mut().zip(shape).rev() {
                        *slot = rest % n;
                        rest /= n;
                    }
                    let idx: Vec<String> = idx.iter().map(usize::to_string).collect();
                    names.push(format!("{}[{}]", s.name, idx.join(",")));
                }
            }
        }
    }
    names
}

impl EnsembleResult {
    /// Column names of the series (`t`, `<obs>_mean`, `<obs>_std`, `<obs>_qNN`..., `n`).
    pub fn series_header(&self) -> Vec<String> {
        let mut h = vec!["t".to_owned()];
        for o in &self.info.observes {
            h.push(format!("{}_mean", o.name));
            h.push(format!("{}_std", o.name));
            for &p in &self.quantiles {
                h.push(format!("{}_{}", o.name, quantile_label(p)));
            }
        }
        h.push("n".into());
        h
    }

    /// One row of the series per grid time, values in [`EnsembleResult::series_header`]
    /// order.
    fn series_rows(&self) -> Result<Vec<Vec<f64>>, EnsembleError> {
        let s = self.series()?;
        Ok((0..s.t.len())
            .map(|k| {
                let mut row = vec![s.t[k]];
                for c in &s.columns {
                    row.push(c.mean[k]);
                    row.push(c.std[k]);
                    row.extend(c.quantiles.iter().map(|q| q[k]));
                }
                row.push(s.n[k] as f64);
                row
            })
            .collect())
    }

    /// Writes the series as CSV. Fails with [`EnsembleError::NoSeries`] when the members
    /// share no grid.
    pub fn write_csv(&self, mut out: impl Write) -> Result<(), EnsembleError> {
        let rows = self.series_rows()?;
        let header: Vec<String> = self.series_header().iter().map(|h| csv_field(h)).collect();
        writeln!(out, "{}", header.join(","))?;
        for row in rows {
            // The last column is the member count, written as an integer.
            let (n, values) = row.split_last().unwrap_or((&0.0, &[]));
            for v in values {
                write!(out, "{v:?},")?;
            }
            writeln!(out, "{}", *n as u64)?;
        }
        out.flush()?;
        Ok(())
    }

    /// The series as a CSV string.
    pub fn to_csv(&self) -> Result<String, EnsembleError> {
        let mut buf = Vec::new();
        self.write_csv(&mut buf)?;
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }

    /// Writes the series as a JSON array of objects keyed like the CSV columns, one per
    /// line.
    pub fn write_json(&self, mut out: impl Write) -> Result<(), EnsembleError> {
        let rows = self.series_rows()?;
        let header = self.series_header();
        write!(out, "[")?;
        for (k, row) in rows.iter().enumerate() {
            write!(out, "{}\n{{", if k == 0 { "" } else { "," })?;
            for (i, (name, v)) in header.iter().zip(row).enumerate() {
                let sep = if i == 0 { "" } else { "," };
                write!(out, "{sep}")?;
                serde_json::to_writer(&mut out, name).map_err(std::io::Error::from)?;
                write!(out, ":")?;
                if name == "n" {
                    write!(out, "{}", *v as u64)?;
                } else {
                    serde_json::to_writer(&mut out, v).map_err(std::io::Error::from)?;
                }
            }
            write!(out, "}}")?;
        }
        writeln!(out, "\n]")?;
        out.flush()?;
        Ok(())
    }

    /// Writes one row per member: `member`, each swept parameter, `reason`, `steps`, `t`,
    /// every state slot, every observe (final values).
    pub fn write_members_csv(&self, mut out: impl Write) -> Result<(), EnsembleError> {
        let params: Vec<String> = self
            .members
            .first()
            .map(|m| m.params.iter().map(|(n, _)| n.to_owned()).collect())
            .unwrap_or_default();
        let mut header = vec!["member".to_owned()];
        header.extend(params.iter().cloned());
        header.extend(["reason", "steps", "t"].map(String::from));
        header.extend(slot_names(&self.info.states));
        header.extend(self.info.observes.iter().map(|o| o.name.clone()));
        let header: Vec<String> = header.iter().map(|h| csv_field(h)).collect();
        writeln!(out, "{}", header.join(","))?;
        for m in &self.members {
            write!(out, "{}", m.index)?;
            for (_, v) in m.params.iter() {
                write!(out, ",{v:?}")?;
            }
            let e = &m.end;
            write!(
                out,
                ",{},{},{:?}",
                e.reason.kind.as_str(),
                e.stats.steps,
                e.t
            )?;
            for v in e.state.iter().chain(&e.observe) {
                write!(out, ",{v:?}")?;
            }
            writeln!(out)?;
        }
        out.flush()?;
        Ok(())
    }

    /// The summary as one line of JSON: `{"simulation", "members", "reasons": {"when": n,
    /// ...}, "excluded", "series", "final": {"mean": {...}, "std": {...}, "quantiles":
    /// {"0.05": {...}, ...}}}`; the `final` maps hold `t`, every state (vector states as
    /// arrays) and every observe, in declaration order. `series` is
    /// `{"grid": "record"|"step", "every": Δ, "points": K}` or `{"none": "why"}`. Last,
    /// `"backend"` when [`EnsembleResult::backend`] is set.
    pub fn summary_json(&self) -> String {
        serde_json::to_string(&SummaryJson(self)).unwrap_or_default()
    }
}

struct SummaryJson<'a>(&'a EnsembleResult);

impl Serialize for SummaryJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut m = s.serialize_map(Some(6 + usize::from(r.backend.is_some())))?;
        m.serialize_entry("simulation", &r.info.name)?;
        m.serialize_entry("members", &r.members.len())?;
        m.serialize_entry("reasons", &Reasons(r))?;
        m.serialize_entry("excluded", &r.excluded())?;
        m.serialize_entry("series", &SeriesNote(r))?;
        m.serialize_entry("final", &Final(r))?;
        if let Some(backend) = &r.backend {
            m.serialize_entry("backend", backend)?;
        }
        m.end()
    }
}

struct Reasons<'a>(&'a EnsembleResult);

impl Serialize for Reasons<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let counts = self.0.reasons();
        let mut m = s.serialize_map(Some(counts.len()))?;
        for (k, n) in counts {
            m.serialize_entry(k.as_str(), &n)?;
        }
        m.end()
    }
}

struct SeriesNote<'a>(&'a EnsembleResult);

impl Serialize for SeriesNote<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (&self.0.series, &self.0.no_series) {
            (Some(series), _) => {
                let mut m = s.serialize_map(Some(3))?;
                let grid = if series.record { "record" } else { "step" };
                m.serialize_entry("grid", grid)?;
                m.serialize_entry("every", &series.every)?;
                m.serialize_entry("points", &series.t.len())?;
                m.end()
            }
            (None, why) => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("none", why.as_deref().unwrap_or(""))?;
                m.end()
            }
        }
    }
}

struct Final<'a>(&'a EnsembleResult);

impl Serialize for Final<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("mean", &Named(r, &|x: &Moments| x.mean))?;
        m.serialize_entry("std", &Named(r, &|x: &Moments| x.std))?;
        m.serialize_entry("quantiles", &Quantiles(r))?;
        m.end()
    }
}

struct Quantiles<'a>(&'a EnsembleResult);

impl Serialize for Quantiles<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let mut m = s.serialize_map(Some(r.quantiles.len()))?;
        for (q, p) in r.quantiles.iter().enumerate() {
            let pick = move |x: &Moments| x.quantiles.get(q).copied().unwrap_or(f64::NAN);
            m.serialize_entry(&format!("{p}"), &Named(r, &pick))?;
        }
        m.end()
    }
}

/// `{"t": …, <state>: … or [...], <observe>: …}` with one statistic picked from each.
struct Named<'a>(&'a EnsembleResult, &'a dyn Fn(&Moments) -> f64);

impl Serialize for Named<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (r, pick) = (self.0, self.1);
        let f = &r.finals;
        let info = &r.info;
        let mut m = s.serialize_map(Some(1 + info.states.len() + info.observes.len()))?;
        m.serialize_entry("t", &pick(&f.t))?;
        for st in &info.states {
            let vals: Vec<f64> = f
                .state
                .get(st.offset..st.offset + st.len())
                .unwrap_or(&[])
                .iter()
                .map(pick)
                .collect();
            m.serialize_entry(&st.name, &Shaped(&vals, &st.shape))?;
        }
        for (o, x) in info.observes.iter().zip(&f.observe) {
            m.serialize_entry(&o.name, &pick(x))?;
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_labels() {
        assert_eq!(quantile_label(0.05), "q05");
        assert_eq!(quantile_label(0.5), "q50");
        assert_eq!(quantile_label(0.95), "q95");
        assert_eq!(quantile_label(0.025), "q025");
        assert_eq!(quantile_label(0.0), "q00");
        assert_eq!(quantile_label(1.0), "q100");
    }

    #[test]
    fn slot_names_follow_shapes() {
        let st = |name: &str, offset, shape: Vec<usize>| StateInfo {
            name: name.into(),
            offset,
            shape,
            fixed_edge: false,
        };
        let names = slot_names(&[
            st("x", 0, vec![]),
            st("v", 1, vec![2]),
            st("u", 3, vec![2, 2]),
        ]);
        assert_eq!(
            names,
            ["x", "v[0]", "v[1]", "u[0,0]", "u[0,1]", "u[1,0]", "u[1,1]"]
        );
    }
}
