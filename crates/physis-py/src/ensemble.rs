//! Ensembles from Python: members run in parts (on this process or, through Dask, on any
//! worker) and gathered into statistics that do not depend on the split, plus each
//! member's observes on the shared grid (member × time) for xarray.

use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayMethods};
use physis_ir::interpreter::lanes::WIDTH;
use physis_ir::{LaneProgram, TapeModel};
use physis_runtime::{
    Ensemble, EnsemblePart, EnsembleResult, LaneKernel, ModelInfo, Moments, ParamSet, Sweep,
};
use physis_syntax::Code;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::error::Failure;
use crate::model::{Model, configure};
use crate::prepare::{self, Settings};
use crate::run::{ensemble_failure, reason_dict};

/// Most members one ensemble runs (the CLI's limit).
const MAX_MEMBERS: usize = 1_000_000;

/// An ensemble as Python describes it (a dict; the same dict on every worker).
#[derive(Debug, Clone, FromPyObject)]
#[pyo3(from_item_all)]
pub struct Job {
    /// Settings of every member (params, named run, step, seed, ...).
    pub settings: Settings,
    /// Members per parameter set.
    pub count: usize,
    /// Swept params: `(name, SI values)`, their product is the parameter sets.
    pub sweep: Vec<(String, Vec<f64>)>,
    /// Quantiles reported.
    pub quantiles: Vec<f64>,
    /// Worker threads on this process (`None`: one per core).
    pub threads: Option<usize>,
    /// Keep every member's observes on the grid (member × time), not only statistics.
    pub member_series: bool,
}

enum Op {
    Part(usize, usize),
    Gather(Vec<EnsemblePart>),
}

enum Done {
    Part(EnsemblePart),
    Gathered(Box<EnsembleResult>, Option<MemberGrid>),
}

/// Every member's observes on the shared grid: `values[(o * members + m) * len + k]`,
/// NaN where member `m` did not reach grid point `k`.
struct MemberGrid {
    len: usize,
    values: Vec<f64>,
}

/// Runs members `start..end`: the part's bytes.
pub fn part(model: &Model, job: &Job, start: usize, end: usize) -> Result<Vec<u8>, Failure> {
    match with_ensemble(model, job, Op::Part(start, end))? {
        Done::Part(p) => Ok(p.encode()),
        Done::Gathered(..) => unreachable_failure(),
    }
}

/// Decodes and gathers parts.
pub fn gather(model: &Model, job: &Job, parts: Vec<Vec<u8>>) -> Result<Gathered, Failure> {
    let parts = parts
        .iter()
        .map(|b| EnsemblePart::decode(b))
        .collect::<Result<Vec<_>, _>>()
        .map_err(ensemble_failure)?;
    match with_ensemble(model, job, Op::Gather(parts))? {
        Done::Gathered(result, grid) => Ok(Gathered { result, grid }),
        Done::Part(_) => unreachable_failure(),
    }
}

fn unreachable_failure<T>() -> Result<T, Failure> {
    Err(Failure::physis(
        Code::Internal,
        "an ensemble step answered out of turn",
    ))
}

fn with_ensemble(model: &Model, job: &Job, op: Op) -> Result<Done, Failure> {
    let (base, options) = configure(model, &job.settings)?;
    let name = &model.ir.info.name;
    let mut sweep = Sweep::new();
    let mut offsets = Vec::new();
    for (pname, values) in &job.sweep {
        let s = prepare::slot(name, &model.slots, pname)?;
        if s.len != 1 {
            return Err(Failure::physis(
                Code::BadArgument,
                format!(
                    "param `{}` has {} components; only scalars sweep",
                    s.name, s.len
                ),
            ));
        }
        if offsets.contains(&s.offset) {
            return Err(Failure::physis(
                Code::BadArgument,
                format!("param `{}` is swept twice", s.name),
            ));
        }
        if let Some(v) = values.iter().find(|v| !v.is_finite()) {
            return Err(Failure::physis(
                Code::BadArgument,
                format!("sweep of `{}`: {v} is not a finite number", s.name),
            ));
        }
        offsets.push(s.offset);
        sweep = sweep
            .axis(&s.name, values.clone())
            .map_err(|e| Failure::physis(Code::BadArgument, e.to_string()))?;
    }
    let members = sweep.len() as u128 * job.count as u128;
    if members > MAX_MEMBERS as u128 {
        return Err(Failure::physis(
            Code::BadArgument,
            format!("{members} members are more than the {MAX_MEMBERS} an ensemble may run"),
        ));
    }
    let params_of = |set: &ParamSet| {
        let mut p = base.clone();
        for ((_, v), &slot) in set.iter().zip(&offsets) {
            p[slot] = v;
        }
        p
    };
    let internal = |e: physis_ir::BindError| {
        Failure::physis(
            Code::Internal,
            format!("the interpreter cannot compile the model: {e}"),
        )
    };
    let template = TapeModel::with_params(&model.ir, base.clone()).map_err(internal)?;
    let unbound = if offsets.is_empty() {
        None
    } else {
        Some(TapeModel::unbound(&model.ir).map_err(internal)?)
    };
    let factory = |set: &ParamSet| -> Result<TapeModel, String> {
        match &unbound {
            Some(tapes) if !set.is_empty() => tapes.bind(params_of(set)).map_err(|e| e.to_string()),
            _ => Ok(template.clone()),
        }
    };
    let program = LaneProgram::new(&model.ir).ok().flatten();
    let lanes = |sets: &[ParamSet]| -> Option<Box<dyn LaneKernel>> {
        let params: Vec<Vec<f64>> = sets.iter().map(params_of).collect();
        let kernel = program.as_ref()?.kernel(&params)?;
        Some(Box::new(kernel))
    };
    let width = if program.is_some() { WIDTH } else { 0 };
    let mut ensemble = Ensemble::new(factory, job.count)
        .options(options.clone())
        .sweep(sweep)
        .quantiles(&job.quantiles)
        .lanes(lanes, width);
    if let Some(seed) = options.seed {
        ensemble = ensemble.seed(seed);
    }
    if let Some(k) = job.threads {
        ensemble = ensemble.threads(k);
    }
    let done = match op {
        Op::Part(start, end) => {
            Done::Part(ensemble.run_members(start..end).map_err(ensemble_failure)?)
        }
        Op::Gather(parts) => {
            // Read from the parts before they are gathered: the result keeps statistics only.
            let nobs = model.ir.info.observes.len();
            let grid = job
                .member_series
                .then(|| member_grid(&parts, nobs, ensemble.len()));
            let result = ensemble.gather(parts).map_err(ensemble_failure)?;
            Done::Gathered(Box::new(result), grid)
        }
    };
    Ok(done)
}

/// Each member's observes on the shared grid (members outside `0..members` are left out;
/// gather refuses such parts anyway).
fn member_grid(parts: &[EnsemblePart], nobs: usize, members: usize) -> MemberGrid {
    let len = parts
        .iter()
        .flat_map(|p| p.members())
        .filter_map(|m| m.ks.last())
        .max()
        .map_or(0, |&k| k as usize + 1);
    let mut values = vec![f64::NAN; nobs * members * len];
    for m in parts.iter().flat_map(|p| p.members()) {
        let i = m.result.index;
        if i >= members {
            continue;
        }
        for (r, &k) in m.ks.iter().enumerate() {
            for o in 0..nobs {
                if let Some(&v) = m.rows.get(r * nobs + o) {
                    values[(o * members + i) * len + k as usize] = v;
                }
            }
        }
    }
    MemberGrid { len, values }
}

/// A gathered ensemble, built without the GIL.
pub struct Gathered {
    result: Box<EnsembleResult>,
    grid: Option<MemberGrid>,
}

fn moments_dict<'py>(py: Python<'py>, m: &Moments) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("n", m.n)?;
    d.set_item("mean", m.mean)?;
    d.set_item("std", m.std)?;
    d.set_item("quantiles", m.quantiles.clone())?;
    Ok(d)
}

impl Gathered {
    /// The result dict (see `physis/ensemble.py`).
    pub fn into_dict<'py>(self, py: Python<'py>, info: &ModelInfo) -> PyResult<Bound<'py, PyDict>> {
        let r = *self.result;
        let grid = self.grid;
        let d = PyDict::new(py);
        let n = r.members.len();
        d.set_item("quantiles", r.quantiles.clone())?;
        let index: Vec<u64> = r.members.iter().map(|m| m.index as u64).collect();
        d.set_item("index", index.into_pyarray(py))?;
        let axes = PyDict::new(py);
        if let Some(first) = r.members.first() {
            for (j, (name, _)) in first.params.0.iter().enumerate() {
                let vals: Vec<f64> = r
                    .members
                    .iter()
                    .map(|m| m.params.0.get(j).map_or(f64::NAN, |p| p.1))
                    .collect();
                axes.set_item(name, vals.into_pyarray(py))?;
            }
        }
        d.set_item("params", axes)?;
        let reasons = PyList::empty(py);
        for m in &r.members {
            reasons.append(reason_dict(py, &m.end.reason)?)?;
        }
        d.set_item("reasons", reasons)?;
        let t: Vec<f64> = r.members.iter().map(|m| m.end.t).collect();
        d.set_item("t", t.into_pyarray(py))?;
        let steps: Vec<u64> = r.members.iter().map(|m| m.end.stats.steps).collect();
        d.set_item("steps", steps.into_pyarray(py))?;
        let table = |get: &dyn Fn(&physis_runtime::MemberResult) -> &[f64], w: usize| {
            let mut flat = Vec::with_capacity(n * w);
            for m in &r.members {
                let row = get(m);
                flat.extend((0..w).map(|j| row.get(j).copied().unwrap_or(f64::NAN)));
            }
            flat
        };
        let dim = info.dim;
        let nobs = info.observes.len();
        let state = table(&|m| &m.end.state, dim)
            .into_pyarray(py)
            .reshape([n, dim])?;
        d.set_item("state", state)?;
        let observe = table(&|m| &m.end.observe, nobs)
            .into_pyarray(py)
            .reshape([n, nobs])?;
        d.set_item("observe", observe)?;
        let finals = PyDict::new(py);
        finals.set_item("n", r.finals.n)?;
        finals.set_item("t", moments_dict(py, &r.finals.t)?)?;
        let fs = PyList::empty(py);
        for m in &r.finals.state {
            fs.append(moments_dict(py, m)?)?;
        }
        finals.set_item("state", fs)?;
        let fo = PyList::empty(py);
        for m in &r.finals.observe {
            fo.append(moments_dict(py, m)?)?;
        }
        finals.set_item("observe", fo)?;
        d.set_item("finals", finals)?;
        d.set_item("no_series", r.no_series.clone())?;
        if let Some(s) = &r.series {
            let sd = PyDict::new(py);
            sd.set_item("t", PyArray1::from_slice(py, &s.t))?;
            let counts: Vec<u64> = s.n.iter().map(|&k| k as u64).collect();
            sd.set_item("n", counts.into_pyarray(py))?;
            let cols = PyList::empty(py);
            for c in &s.columns {
                let cd = PyDict::new(py);
                cd.set_item("name", &c.name)?;
                cd.set_item("mean", PyArray1::from_slice(py, &c.mean))?;
                cd.set_item("std", PyArray1::from_slice(py, &c.std))?;
                let rows: Vec<Vec<f64>> = c.quantiles.clone();
                let q = PyArray2::from_vec2(py, &rows)
                    .map_err(|e| PyErr::new::<pyo3::exceptions::PyValueError, _>(e.to_string()))?;
                cd.set_item("quantiles", q)?;
                cols.append(cd)?;
            }
            sd.set_item("columns", cols)?;
            d.set_item("series", sd)?;
        } else {
            d.set_item("series", py.None())?;
        }
        match grid {
            Some(g) => {
                let shape = [nobs, n, g.len];
                d.set_item("member_series", g.values.into_pyarray(py).reshape(shape)?)?;
            }
            None => d.set_item("member_series", py.None())?,
        }
        Ok(d)
    }
}
