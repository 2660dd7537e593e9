//! The exact engine from Python: one request of the version-1 action table (the same
//! evaluator as the JSON Lines server and the MCP tool), answered as JSON text whose exact
//! numbers are rational strings; `centl` (Python) turns them into `fractions.Fraction`.

use centl_protocol::{Limits, dispatch};
use pyo3::prelude::*;

use crate::error::{Extra, Failure, Family};

/// Runs `action` on `args` (JSON text); the result as JSON text. The GIL is released while
/// the engine works. A refusal raises `centl.CentlError` with the protocol's code.
#[pyfunction]
pub fn centl_request(py: Python<'_>, action: &str, args: &str) -> PyResult<String> {
    let outcome = py.detach(|| -> Result<String, Failure> {
        let args: serde_json::Value = serde_json::from_str(args).map_err(|e| Failure {
            family: Family::Centl,
            code: "bad_json".to_owned(),
            message: format!("the arguments are not JSON: {e}"),
            extra: None,
        })?;
        match dispatch(action, Some(&args), &Limits::default()) {
            Ok(v) => Ok(v.to_string()),
            Err(e) => Err(Failure {
                family: Family::Centl,
                code: e.code().to_owned(),
                message: e.to_string(),
                extra: Some(Box::new(Extra {
                    fields: Some(e.to_json()),
                    ..Extra::default()
                })),
            }),
        }
    });
    outcome.map_err(|f| f.into_pyerr(py))
}
