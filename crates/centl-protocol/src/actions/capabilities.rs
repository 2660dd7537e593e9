//! `capabilities`: what this server answers, with which arguments, under which limits.

use crate::schema::Field;
use crate::table::describe_actions;
use crate::{Action, Args, PROTOCOL_CODES, ProtocolError, VERSION};
use serde_json::{Value, json};

/// Lists every action with its argument schema, the limits and the protocol error codes.
pub struct Capabilities;

impl Action for Capabilities {
    fn name(&self) -> &'static str {
        "capabilities"
    }

    fn summary(&self) -> &'static str {
        "List every action with its argument schema, the limits in force and the error codes."
    }

    fn args(&self) -> &'static [Field] {
        &[]
    }

    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError> {
        let mut limits = crate::table::to_json(args.limits);
        // Fixed by the unit parser for every caller, so not a server setting, but a limit a
        // client meets all the same.
        if let Value::Object(m) = &mut limits {
            m.insert(
                "max_unit_factor_bits".into(),
                json!(units::MAX_UNIT_FACTOR_BITS),
            );
        }
        Ok(json!({
            "protocol": "centl-physics",
            "version": VERSION,
            "server": concat!("centl-protocol ", env!("CARGO_PKG_VERSION")),
            "numbers": "exact rationals as JSON strings; quantities as {\"value\",\"unit\"}; vectors as three strings",
            "actions": describe_actions(),
            "limits": limits,
            "error_codes": PROTOCOL_CODES,
        }))
    }
}
