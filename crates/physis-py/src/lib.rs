//! Python bindings (`physis._native`): Physis models compiled from source, single runs with
//! their samples as NumPy arrays, ensembles in parts that any process can run and gather
//! bit-identically, and the exact engine's protocol actions. The pure-Python packages
//! `physis` and `centl` (in `python/`) wrap these into the public API.

mod centl;
mod ensemble;
mod error;
mod model;
mod prepare;
mod run;

use pyo3::prelude::*;

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<model::Model>()?;
    m.add_function(wrap_pyfunction!(centl::centl_request, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
