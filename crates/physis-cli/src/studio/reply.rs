//! `POST /api/run`'s answer: how the run ended (reason, its clause and hint), the final
//! state and observes with their SI units, work counts, and the figure as SVG (drawn by
//! `physis_plot`, as `physis plot` draws a time series).

use physis_plot::Figure;
use serde::Serialize;

use super::error::ApiError;
use super::job::Finished;
use crate::cmd::columns::state_unit;
use crate::cmd::plot::{marks, series};

/// A named value with its unit.
#[derive(Serialize, Debug)]
pub struct Value {
    /// `x`, `height`.
    pub name: String,
    /// One number per component, in `unit`.
    pub value: Vec<f64>,
    /// SI unit (`m/s`; empty for a pure number).
    pub unit: String,
}

/// The answer.
#[derive(Serialize, Debug)]
pub struct RunReply {
    /// The simulation.
    pub simulation: String,
    /// The named run, if one was chosen.
    pub run: Option<String>,
    /// `when`, `limit`, `diverged`, `unstable`, ...
    pub reason: &'static str,
    /// The stop clause responsible, as written.
    pub clause: Option<String>,
    /// Its line.
    pub line: Option<u32>,
    /// What to do about it, when the reason suggests something.
    pub hint: Option<String>,
    /// Final time (s).
    pub t: f64,
    /// Accepted steps.
    pub steps: u64,
    /// Event firings.
    pub events: u64,
    /// The final state.
    pub state: Vec<Value>,
    /// The observes at the final state.
    pub observe: Vec<Value>,
    /// The figure.
    pub svg: String,
}

/// How `finished` ended, with its figure.
pub fn summary(finished: &Finished) -> Result<RunReply, ApiError> {
    let prepared = &finished.prepared;
    let info = &prepared.ir.info;
    let end = &finished.end;
    let model = prepared.checked_model();
    let state = (info.states.iter())
        .map(|s| Value {
            name: s.name.clone(),
            value: (end.state.get(s.offset..s.offset + s.len()))
                .map(<[f64]>::to_vec)
                .unwrap_or_default(),
            unit: state_unit(model, &s.name).0,
        })
        .collect();
    let observe = (info.observes.iter().zip(&end.observe))
        .map(|(o, v)| Value {
            name: o.name.clone(),
            value: vec![*v],
            unit: o.unit.clone(),
        })
        .collect();
    let svg = match &finished.plot {
        Some(plotted) if !plotted.specs.is_empty() => {
            let figure = Figure::TimeSeries(physis_plot::TimeSeries {
                title: crate::cmd::plot::title(prepared),
                time: plotted.time.clone(),
                series: (plotted.specs.iter().zip(&plotted.values))
                    .map(|(s, v)| series(s, v.clone()))
                    .collect(),
                marks: marks(end, &plotted.events),
            });
            let size = physis_plot::default_size(&figure);
            let bytes = physis_plot::render(&figure, physis_plot::Format::Svg, size)
                .map_err(|e| ApiError::internal(format!("the plot failed: {e}")))?;
            String::from_utf8_lossy(&bytes).into_owned()
        }
        _ => String::new(),
    };
    Ok(RunReply {
        simulation: info.name.clone(),
        run: prepared.scenario.clone(),
        reason: end.reason.kind.as_str(),
        clause: end.reason.clause.clone(),
        line: end.reason.line,
        hint: end.reason.hint(),
        t: end.t,
        steps: end.stats.steps,
        events: end.stats.events,
        state,
        observe,
        svg,
    })
}
