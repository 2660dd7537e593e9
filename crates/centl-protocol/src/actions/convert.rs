//! `convert`: an exact value from one unit to another of the same dimension.

use crate::schema::{Field, Kind};
use crate::wire::{self, q, unit_error};
use crate::{Action, Args, ProtocolError};
use serde_json::Value;
use units::{describe, parse_unit};

/// Converts `value` in `from` to the unit `to`, exactly.
pub struct Convert;

const ARGS: &[Field] = &[
    Field::req("value", Kind::Exact, "the exact number to convert"),
    Field::req("from", Kind::Text, "the unit the value is in"),
    Field::req("to", Kind::Text, "the unit to express it in"),
];

impl Action for Convert {
    fn name(&self) -> &'static str {
        "convert"
    }

    fn summary(&self) -> &'static str {
        "Convert an exact value between two units of the same dimension."
    }

    fn args(&self) -> &'static [Field] {
        ARGS
    }

    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError> {
        let value = args.exact("value")?;
        let from = parse_unit(args.text("from")?).map_err(|e| unit_error("args.from", e))?;
        let to_text = args.text("to")?;
        let to = parse_unit(to_text).map_err(|e| unit_error("args.to", e))?;
        if from.dim() != to.dim() {
            return Err(ProtocolError::DimensionMismatch {
                path: "args.to".into(),
                expected: describe(&from.dim()),
                found: describe(&to.dim()),
            });
        }
        let converted = from
            .convert_exact(&value, &to)
            .map_err(|e| unit_error("args.to", e))?;
        wire::check_bits([&converted], 0, args.limits)?;
        Ok(serde_json::json!({
            "quantity": q(&converted, to.text()),
            "dimension": describe(&to.dim()),
        }))
    }
}
