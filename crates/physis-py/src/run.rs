//! One run: the interpreter over the model, its samples collected as columns and handed to
//! Python as NumPy arrays that take over the columns' memory (no copy).

use numpy::IntoPyArray;
use physis_ir::TapeModel;
use physis_runtime::{Columns, EnsembleError, ModelInfo, Reason, RunEnd, RunError};
use physis_syntax::Code;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::error::Failure;
use crate::model::{Model, configure};
use crate::prepare::Settings;

/// A finished run, built without the GIL.
pub struct RunOut {
    end: RunEnd,
    columns: Columns,
}

/// Runs `model` with `settings`.
pub fn run(model: &Model, settings: &Settings) -> Result<RunOut, Failure> {
    let (params, options) = configure(model, settings)?;
    let tapes = TapeModel::with_params(&model.ir, params).map_err(|e| {
        Failure::physis(
            Code::Internal,
            format!("the interpreter cannot compile the model: {e}"),
        )
    })?;
    let mut columns = Columns::default();
    let end = physis_runtime::run_into(tapes, &options, &mut columns).map_err(run_failure)?;
    Ok(RunOut { end, columns })
}

/// The code of a driver's refusal (the CLI's `refusal` module gives the same codes).
pub fn run_failure(e: RunError) -> Failure {
    let code = match e {
        RunError::MissingStep { .. } => Code::MissingStep,
        RunError::BadSetting { .. } => Code::BadSetting,
        RunError::Unsupported { .. } => Code::NotYetSupported,
        _ => Code::Internal,
    };
    Failure::physis(code, e.to_string())
}

/// The code of an ensemble's failure: a member's refusal keeps its driver code.
pub fn ensemble_failure(e: EnsembleError) -> Failure {
    let code = match e {
        EnsembleError::Run { source, .. } => return run_failure(source),
        EnsembleError::NoMembers
        | EnsembleError::TooMany { .. }
        | EnsembleError::BadQuantile { .. }
        | EnsembleError::DuplicateQuantile { .. }
        | EnsembleError::BadRange { .. }
        | EnsembleError::Parts { .. }
        | EnsembleError::BadPart { .. }
        | EnsembleError::NoThreads => Code::BadArgument,
        _ => Code::Internal,
    };
    Failure::physis(code, e.to_string())
}

/// A reason as a dict: kind, clause, line, hint.
pub fn reason_dict<'py>(py: Python<'py>, r: &Reason) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("kind", r.kind.as_str())?;
    d.set_item("clause", r.clause.clone())?;
    d.set_item("line", r.line)?;
    d.set_item("hint", r.hint())?;
    Ok(d)
}

impl RunOut {
    /// The result dict: `reason`, `t`, `state`, `observe`, `stats`, `time` and `columns`
    /// (one `(name, unit, array)` per observe).
    pub fn into_dict<'py>(self, py: Python<'py>, info: &ModelInfo) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("reason", reason_dict(py, &self.end.reason)?)?;
        d.set_item("t", self.end.t)?;
        d.set_item("state", self.end.state.into_pyarray(py))?;
        d.set_item("observe", self.end.observe.into_pyarray(py))?;
        let s = &self.end.stats;
        let stats = PyDict::new(py);
        stats.set_item("steps", s.steps)?;
        stats.set_item("rejections", s.rejections)?;
        stats.set_item("newton_rejections", s.newton_rejections)?;
        stats.set_item("evaluations", s.evaluations)?;
        stats.set_item("events", s.events)?;
        stats.set_item("samples", s.samples)?;
        d.set_item("stats", stats)?;
        d.set_item("time", self.columns.time.into_pyarray(py))?;
        let mut cols = self.columns.columns;
        cols.resize(info.observes.len(), Vec::new());
        let list = pyo3::types::PyList::empty(py);
        for (o, c) in info.observes.iter().zip(cols) {
            list.append((o.name.clone(), o.unit.clone(), c.into_pyarray(py)))?;
        }
        d.set_item("columns", list)?;
        Ok(d)
    }
}
