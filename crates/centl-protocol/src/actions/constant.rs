//! `constant`: one exact entry of the constant catalog.

use crate::schema::{Field, Kind};
use crate::wire::q;
use crate::{Action, Args, ProtocolError};
use centl_physics::constants::{ConstantError, constant};
use serde_json::{Value, json};

/// Looks up an exact physical constant by symbol.
pub struct Constant;

const ARGS: &[Field] = &[Field::req(
    "name",
    Kind::Text,
    "the constant's symbol: c, h, e, k_B, N_A, Δν_Cs, K_cd or g0",
)];

impl Action for Constant {
    fn name(&self) -> &'static str {
        "constant"
    }

    fn summary(&self) -> &'static str {
        "Look up an exact SI defining or conventional constant with its unit and provenance."
    }

    fn args(&self) -> &'static [Field] {
        ARGS
    }

    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError> {
        let c = constant(args.text("name")?).map_err(|e| match e {
            ConstantError::Measured { .. } => ProtocolError::MeasuredConstant {
                message: e.to_string(),
            },
            _ => ProtocolError::UnknownConstant {
                message: e.to_string(),
            },
        })?;
        Ok(json!({
            "symbol": c.symbol,
            "name": c.name,
            "quantity": q(&c.value, c.unit.text()),
            "exact": c.exact,
            "provenance": c.provenance,
        }))
    }
}
