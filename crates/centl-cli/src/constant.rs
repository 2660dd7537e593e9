//! `centl-physics constant NAME`.

use crate::args::ConstantArgs;
use centl_physics::constants::constant;

/// Prints the constant as `key=value` lines: symbol, name, value with unit, exact flag, provenance.
pub fn run(a: &ConstantArgs) -> Result<String, String> {
    let c = constant(&a.name).map_err(|e| e.to_string())?;
    Ok(format!(
        "symbol={}\nname={}\nvalue={} {}\nexact={}\nprovenance={}\n",
        c.symbol,
        c.name,
        c.value,
        c.unit.text(),
        c.exact,
        c.provenance
    ))
}
