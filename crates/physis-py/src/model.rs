//! `physis._native.Model`: one simulation of a source, checked and lowered once, with its
//! params, named runs, observes and diagnostics, and the methods that run it.

use physis_ir::IrModel;
use physis_syntax::{Code, Diagnostic};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use crate::ensemble::{self, Job};
use crate::error::{Failure, diagnostic_dict};
use crate::prepare::{self, Settings, Slot};
use crate::run;
use physis_ir::front::SelectError;

/// A checked, lowered simulation (pickled as its source, so worker processes rebuild it).
#[pyclass(frozen, module = "physis._native")]
pub struct Model {
    pub(crate) source: String,
    pub(crate) file: String,
    pub(crate) sim: Option<String>,
    pub(crate) ir: IrModel,
    pub(crate) slots: Vec<Slot>,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl Model {
    fn build(source: String, file: String, sim: Option<String>) -> Result<Self, Failure> {
        // The front door every physis tool comes in by: check, choose, lower once.
        let mut checked = physis_ir::front::check(source, &file);
        if checked.has_errors() {
            return Err(Failure::diagnostics(checked.diagnostics, &checked.source));
        }
        let index = checked.select(sim.as_deref()).map_err(|e| {
            Failure::physis(
                Code::UnknownName,
                match e {
                    SelectError::Several { file, names } => format!(
                        "{file} declares several simulations; choose one with sim=: {}",
                        names.join(", ")
                    ),
                    other => other.to_string(),
                },
            )
        })?;
        let ir = match checked.take(index) {
            Ok(ir) => ir,
            Err(refused) => {
                let d = refused.error.to_diagnostic(checked.model(index));
                return Err(Failure::diagnostics(vec![d], &checked.source));
            }
        };
        let slots = checked.param_slots(index, &ir);
        Ok(Self {
            diagnostics: checked.diagnostics,
            source: checked.source,
            file,
            sim,
            ir,
            slots,
        })
    }

    fn slot(&self, name: &str) -> Result<&Slot, Failure> {
        prepare::slot(&self.ir.info.name, &self.slots, name)
    }
}

#[pymethods]
impl Model {
    /// Checks and lowers `source` (named `file` in messages), picking simulation `sim`
    /// when the source declares several.
    #[new]
    #[pyo3(signature = (source, file = "<string>".to_owned(), sim = None))]
    fn new(py: Python<'_>, source: String, file: String, sim: Option<String>) -> PyResult<Self> {
        py.detach(|| Self::build(source, file, sim))
            .map_err(|f| f.into_pyerr(py))
    }

    /// Pickled as `Model(source, file, sim)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let args = (me.source.clone(), me.file.clone(), me.sim.clone());
        (slf.get_type(), args).into_pyobject(py)
    }

    /// The simulation's name.
    #[getter]
    fn name(&self) -> String {
        self.ir.info.name.clone()
    }

    /// The file name given at compile time.
    #[getter]
    fn file(&self) -> String {
        self.file.clone()
    }

    /// The source text.
    #[getter]
    fn source(&self) -> String {
        self.source.clone()
    }

    /// The simulation picked (`None` when the source has one).
    #[getter]
    fn sim(&self) -> Option<String> {
        self.sim.clone()
    }

    /// Every param the run reads: name, key, SI unit, dimension, default values (SI).
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let defaults = self.ir.default_params();
        let out = PyList::empty(py);
        for s in &self.slots {
            let d = PyDict::new(py);
            d.set_item("name", &s.name)?;
            d.set_item("key", &s.key)?;
            d.set_item("unit", s.dim.si_unit())?;
            d.set_item("dimension", units::describe(&s.dim))?;
            d.set_item("default", defaults[s.offset..s.offset + s.len].to_vec())?;
            d.set_item("len", s.len)?;
            out.append(d)?;
        }
        Ok(out)
    }

    /// The named runs: name and `{param: values}` overrides (SI).
    fn runs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for r in &self.ir.runs {
            let overrides = PyDict::new(py);
            for (index, values) in &r.overrides {
                let name = self.ir.params.get(*index).map_or("?", |p| p.name.as_str());
                overrides.set_item(name, values.clone())?;
            }
            out.append((r.name.clone(), overrides))?;
        }
        Ok(out)
    }

    /// The observed columns: `(name, SI unit, quantity kind)`.
    fn observes(&self) -> Vec<(String, String, String)> {
        (self.ir.info.observes.iter())
            .map(|o| (o.name.clone(), o.unit.clone(), o.quantity.clone()))
            .collect()
    }

    /// The states: `(name, shape)`.
    fn states(&self) -> Vec<(String, Vec<usize>)> {
        (self.ir.info.states.iter())
            .map(|s| (s.name.clone(), s.shape.clone()))
            .collect()
    }

    /// Every diagnostic of checking the source (warnings; errors never reach a model).
    fn diagnostics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for d in &self.diagnostics {
            out.append(diagnostic_dict(py, d, Some(&self.source))?)?;
        }
        Ok(out)
    }

    /// The SI values of `text` (`"50 m/s"`, `"[1 m, 2 m]"`) for param `name`.
    fn quantity(&self, py: Python<'_>, name: &str, text: &str) -> PyResult<Vec<f64>> {
        let s = self.slot(name).map_err(|f| f.into_pyerr(py))?;
        prepare::quantities(text, s.dim, &s.name).map_err(|f| f.into_pyerr(py))
    }

    /// The time `text` (`"1 ms"`) in seconds.
    #[staticmethod]
    fn seconds(py: Python<'_>, text: &str) -> PyResult<f64> {
        prepare::quantity(text, units::dims::TIME, "time").map_err(|f| f.into_pyerr(py))
    }

    /// Runs once; the GIL is released while it runs.
    fn run<'py>(&self, py: Python<'py>, settings: Settings) -> PyResult<Bound<'py, PyDict>> {
        let out = py
            .detach(|| run::run(self, &settings))
            .map_err(|f| f.into_pyerr(py))?;
        out.into_dict(py, &self.ir.info)
    }

    /// Runs members `start..end` of the ensemble `job` describes; the part as bytes.
    fn ensemble_part<'py>(
        &self,
        py: Python<'py>,
        job: Job,
        start: usize,
        end: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = py
            .detach(|| ensemble::part(self, &job, start, end))
            .map_err(|f| f.into_pyerr(py))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Gathers encoded parts covering every member of `job` into the ensemble's result.
    fn ensemble_gather<'py>(
        &self,
        py: Python<'py>,
        job: Job,
        parts: Vec<Vec<u8>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let gathered = py
            .detach(|| ensemble::gather(self, &job, parts))
            .map_err(|f| f.into_pyerr(py))?;
        gathered.into_dict(py, &self.ir.info)
    }

    fn __repr__(&self) -> String {
        format!("<physis.Model {} from {}>", self.ir.info.name, self.file)
    }
}

/// The settings' parameter vector and options, for this model.
pub(crate) fn configure(
    model: &Model,
    settings: &Settings,
) -> Result<(Vec<f64>, physis_runtime::RunOptions), Failure> {
    prepare::configure(&model.ir, &model.slots, settings)
}
