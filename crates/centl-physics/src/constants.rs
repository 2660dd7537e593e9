//! The exact constant catalog: SI defining constants and the conventional standard gravity.
//!
//! Measured constants (G, the fine-structure constant, ...) are refused on purpose: their values
//! carry an uncertainty that an exact rational would silently hide.

use exact::Rational;
use thiserror::Error;
use units::{Dimension, Quantity, Unit, UnitError, parse_unit};

/// One catalog entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constant {
    /// The symbol used to ask for it (`c`, `h`, `e`, `k_B`, `N_A`, `g0`, ...).
    pub symbol: &'static str,
    /// The full name.
    pub name: &'static str,
    /// The exact value in the unit [`Constant::unit`].
    pub value: Rational,
    /// The unit the value is stated in.
    pub unit: Unit,
    /// Where the value comes from.
    pub provenance: &'static str,
    /// True when the value is exact by definition (all catalog entries are).
    pub exact: bool,
}

impl Constant {
    /// The value as an exact SI quantity.
    pub fn quantity(&self) -> Result<Quantity, UnitError> {
        Quantity::in_unit(&self.value, &self.unit)
    }

    /// The dimension of the constant.
    pub fn dim(&self) -> Dimension {
        self.unit.dim()
    }
}

/// Why a constant was not given.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ConstantError {
    /// A measured constant, deliberately left out.
    #[error(
        "`{symbol}` ({name}) is a measured constant with an uncertainty; the exact catalog holds only defined values"
    )]
    Measured {
        /// The symbol asked for.
        symbol: String,
        /// Its name.
        name: &'static str,
    },
    /// Not a constant the catalog knows.
    #[error("unknown constant `{symbol}`; known: {known}")]
    Unknown {
        /// The symbol asked for.
        symbol: String,
        /// The catalog's symbols, comma-separated.
        known: String,
    },
}

const EXACT_SI: &str = "SI 2019 defining constant (exact by definition)";

/// `(symbols, name, value, unit, provenance)`; the first symbol is the canonical one.
const TABLE: &[(&[&str], &str, &str, &str, &str)] = &[
    (
        &["c", "c0"],
        "speed of light in vacuum",
        "299792458",
        "m/s",
        EXACT_SI,
    ),
    (&["h"], "Planck constant", "6.62607015e-34", "J*s", EXACT_SI),
    (
        &["e"],
        "elementary charge",
        "1.602176634e-19",
        "C",
        EXACT_SI,
    ),
    (
        &["k_B", "kB", "k"],
        "Boltzmann constant",
        "1.380649e-23",
        "J/K",
        EXACT_SI,
    ),
    (
        &["N_A", "NA"],
        "Avogadro constant",
        "6.02214076e23",
        "1/mol",
        EXACT_SI,
    ),
    (
        &["Δν_Cs", "dnu_Cs"],
        "caesium-133 hyperfine transition frequency",
        "9192631770",
        "Hz",
        EXACT_SI,
    ),
    (
        &["K_cd", "Kcd"],
        "luminous efficacy of 540 THz radiation",
        "683",
        "cd*sr/W",
        EXACT_SI,
    ),
    (
        &["g0", "g₀", "g_n"],
        "standard acceleration of gravity",
        "9.80665",
        "m/s^2",
        "conventional value adopted by the 3rd CGPM (1901); exact by convention",
    ),
];

/// Measured constants that are asked for often enough to deserve a precise refusal.
const MEASURED: &[(&[&str], &str)] = &[
    (&["G"], "Newtonian constant of gravitation"),
    (&["alpha", "α"], "fine-structure constant"),
    (&["m_e", "me"], "electron mass"),
    (&["m_p", "mp"], "proton mass"),
    (&["mu0", "μ0", "μ₀"], "vacuum magnetic permeability"),
    (&["epsilon0", "ε0", "ε₀"], "vacuum electric permittivity"),
    (&["R_inf"], "Rydberg constant"),
];

fn build(
    entry: &(
        &[&'static str],
        &'static str,
        &'static str,
        &'static str,
        &'static str,
    ),
) -> Constant {
    let (symbols, name, value, unit, provenance) = *entry;
    Constant {
        symbol: symbols[0],
        name,
        // The table is constant; the `every_entry_builds` test proves both parse.
        value: value.parse().unwrap_or_else(|_| Rational::zero()),
        unit: parse_unit(unit).unwrap_or_else(|_| Unit::si(Dimension::NONE)),
        provenance,
        exact: true,
    }
}

/// Looks a constant up by any of its symbols.
pub fn constant(symbol: &str) -> Result<Constant, ConstantError> {
    if let Some(e) = TABLE.iter().find(|e| e.0.contains(&symbol)) {
        return Ok(build(e));
    }
    if let Some((_, name)) = MEASURED.iter().find(|m| m.0.contains(&symbol)) {
        return Err(ConstantError::Measured {
            symbol: symbol.to_string(),
            name,
        });
    }
    Err(ConstantError::Unknown {
        symbol: symbol.to_string(),
        known: TABLE.iter().map(|e| e.0[0]).collect::<Vec<_>>().join(", "),
    })
}

/// Every catalog entry, in catalog order.
pub fn all() -> Vec<Constant> {
    TABLE.iter().map(build).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_builds() {
        for (symbols, _, value, unit, _) in TABLE {
            assert!(value.parse::<Rational>().is_ok(), "{}", symbols[0]);
            assert!(parse_unit(unit).is_ok(), "{}", symbols[0]);
        }
        assert_eq!(all().len(), TABLE.len());
    }

    #[test]
    fn values_are_exact_si() {
        let c = constant("c").unwrap();
        assert_eq!(c.value, Rational::from(299_792_458));
        assert_eq!(c.dim(), units::dims::VELOCITY);
        let g0 = constant("g0").unwrap();
        assert_eq!(g0.value, Rational::new(980_665, 100_000).unwrap());
        assert_eq!(constant("g₀").unwrap(), g0);
        let h = constant("h").unwrap();
        assert_eq!(
            &h.value * Rational::from(10).pow(34).unwrap(),
            "6.62607015".parse().unwrap()
        );
        assert_eq!(h.dim(), units::dims::ACTION);
        assert!(all().iter().all(|k| k.exact));
    }

    #[test]
    fn measured_and_unknown_are_refused() {
        assert!(matches!(constant("G"), Err(ConstantError::Measured { .. })));
        let e = constant("zz").unwrap_err().to_string();
        assert!(e.contains("k_B") && e.contains("g0"), "{e}");
    }
}
