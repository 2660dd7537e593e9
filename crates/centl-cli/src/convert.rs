//! `centl-physics convert VALUE FROM TO`.

use crate::args::ConvertArgs;
use crate::input::number;
use units::parse_unit;

/// Converts exactly and prints `VALUE TO`, e.g. `5/18 m/s`.
pub fn run(a: &ConvertArgs) -> Result<String, String> {
    let value = number("value", &a.value)?;
    let from = parse_unit(&a.from).map_err(|e| format!("from-unit: {e}"))?;
    let to = parse_unit(&a.to).map_err(|e| format!("to-unit: {e}"))?;
    let converted = from
        .convert_exact(&value, &to)
        .map_err(|e| format!("cannot convert {} {} to {}: {e}", a.value, a.from, a.to))?;
    Ok(format!("{converted} {}\n", to.text()))
}
