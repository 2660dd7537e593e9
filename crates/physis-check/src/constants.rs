//! Physis.Constants: named physical constants, always in scope, shadowed by the model's own
//! names (`param e` and `param c` are common).

use units::Dimension;

/// A named constant: its ASCII name, value in SI base units and dimension exponents
/// `[L, M, T, I, Θ, N, J]`.
struct Entry {
    name: &'static str,
    value: f64,
    dims: [i32; 7],
}

const fn entry(name: &'static str, value: f64, dims: [i32; 7]) -> Entry {
    Entry { name, value, dims }
}

/// CODATA 2018 exact or recommended values (SI base units). Names are the normalised
/// spellings: `g₀` is looked up as `g0`.
const TABLE: &[Entry] = &[
    entry("pi", std::f64::consts::PI, [0; 7]),
    entry("π", std::f64::consts::PI, [0; 7]),
    entry("tau", std::f64::consts::TAU, [0; 7]),
    entry("τ", std::f64::consts::TAU, [0; 7]),
    entry("g0", 9.806_65, [1, 0, -2, 0, 0, 0, 0]),
    entry("c", 299_792_458.0, [1, 0, -1, 0, 0, 0, 0]),
    entry("G", 6.674_30e-11, [3, -1, -2, 0, 0, 0, 0]),
    entry("h", 6.626_070_15e-34, [2, 1, -1, 0, 0, 0, 0]),
    entry("hbar", 1.054_571_817e-34, [2, 1, -1, 0, 0, 0, 0]),
    entry("ħ", 1.054_571_817e-34, [2, 1, -1, 0, 0, 0, 0]),
    entry("e", 1.602_176_634e-19, [0, 0, 1, 1, 0, 0, 0]),
    entry("kB", 1.380_649e-23, [2, 1, -2, 0, -1, 0, 0]),
    entry("NA", 6.022_140_76e23, [0, 0, 0, 0, 0, -1, 0]),
    entry("R", 8.314_462_618, [2, 1, -2, 0, -1, -1, 0]),
    entry("σSB", 5.670_374_419e-8, [0, 1, -3, 0, -4, 0, 0]),
    entry("ε0", 8.854_187_812_8e-12, [-3, -1, 4, 2, 0, 0, 0]),
    entry("μ0", 1.256_637_062_12e-6, [1, 1, -2, -2, 0, 0, 0]),
    entry("me", 9.109_383_701_5e-31, [0, 1, 0, 0, 0, 0, 0]),
    entry("mp", 1.672_621_923_69e-27, [0, 1, 0, 0, 0, 0, 0]),
];

/// The constant named `name` (normalised): `(ascii-or-table name, value, dimension)`.
pub fn lookup(name: &str) -> Option<(&'static str, f64, Dimension)> {
    TABLE
        .iter()
        .find(|e| e.name == name)
        .map(|e| (e.name, e.value, Dimension::from_ints(e.dims)))
}

/// Every constant's name, for listings.
pub fn names() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|e| e.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimensions_agree_with_the_unit_catalog() {
        let check = |name: &str, unit: &str| {
            let (_, _, dim) = lookup(name).unwrap();
            assert_eq!(dim, units::parse_unit(unit).unwrap().dim(), "{name}");
        };
        check("g0", "m/s^2");
        check("G", "N*m^2/kg^2");
        check("h", "J*s");
        check("e", "C");
        check("kB", "J/K");
        check("R", "J/(mol*K)");
        check("ε0", "F/m");
        check("μ0", "H/m");
        check("σSB", "W/(m^2*K^4)");
    }
}
