//! The unit catalog: symbols, exact scale factors and SI prefixes.
//!
//! Every factor is an exact rational, optionally times a power of π (only angle units such as
//! `deg` carry one). Factors are written as text so that no binary float ever touches them.

use crate::Dimension;
use exact::Rational;

/// One catalog symbol.
pub(crate) struct Atom {
    pub symbol: &'static str,
    /// Exact factor to SI base units, as exact text.
    pub factor: &'static str,
    /// Power of π in the factor.
    pub pi: i32,
    /// Exponents L, M, T, I, Θ, N, J.
    pub dim: [i32; 7],
    /// Whether SI prefixes apply.
    pub prefixable: bool,
}

const fn atom(symbol: &'static str, factor: &'static str, dim: [i32; 7], prefixable: bool) -> Atom {
    Atom {
        symbol,
        factor,
        pi: 0,
        dim,
        prefixable,
    }
}

pub(crate) const ATOMS: &[Atom] = &[
    atom("m", "1", [1, 0, 0, 0, 0, 0, 0], true),
    atom("g", "1/1000", [0, 1, 0, 0, 0, 0, 0], true),
    atom("s", "1", [0, 0, 1, 0, 0, 0, 0], true),
    atom("A", "1", [0, 0, 0, 1, 0, 0, 0], true),
    atom("K", "1", [0, 0, 0, 0, 1, 0, 0], true),
    atom("mol", "1", [0, 0, 0, 0, 0, 1, 0], true),
    atom("cd", "1", [0, 0, 0, 0, 0, 0, 1], true),
    atom("min", "60", [0, 0, 1, 0, 0, 0, 0], false),
    atom("h", "3600", [0, 0, 1, 0, 0, 0, 0], false),
    atom("d", "86400", [0, 0, 1, 0, 0, 0, 0], false),
    atom("N", "1", [1, 1, -2, 0, 0, 0, 0], true),
    atom("J", "1", [2, 1, -2, 0, 0, 0, 0], true),
    atom("W", "1", [2, 1, -3, 0, 0, 0, 0], true),
    atom("Pa", "1", [-1, 1, -2, 0, 0, 0, 0], true),
    atom("Hz", "1", [0, 0, -1, 0, 0, 0, 0], true),
    atom("C", "1", [0, 0, 1, 1, 0, 0, 0], true),
    atom("V", "1", [2, 1, -3, -1, 0, 0, 0], true),
    atom("Ω", "1", [2, 1, -3, -2, 0, 0, 0], true),
    atom("ohm", "1", [2, 1, -3, -2, 0, 0, 0], true),
    atom("S", "1", [-2, -1, 3, 2, 0, 0, 0], true),
    atom("F", "1", [-2, -1, 4, 2, 0, 0, 0], true),
    atom("H", "1", [2, 1, -2, -2, 0, 0, 0], true),
    atom("Wb", "1", [2, 1, -2, -1, 0, 0, 0], true),
    atom("T", "1", [0, 1, -2, -1, 0, 0, 0], true),
    atom("L", "1/1000", [3, 0, 0, 0, 0, 0, 0], true),
    atom("l", "1/1000", [3, 0, 0, 0, 0, 0, 0], true),
    atom("eV", "1.602176634e-19", [2, 1, -2, 0, 0, 0, 0], true),
    atom("bar", "100000", [-1, 1, -2, 0, 0, 0, 0], true),
    atom("atm", "101325", [-1, 1, -2, 0, 0, 0, 0], false),
    atom("au", "149597870700", [1, 0, 0, 0, 0, 0, 0], false),
    atom("in", "0.0254", [1, 0, 0, 0, 0, 0, 0], false),
    atom("ft", "0.3048", [1, 0, 0, 0, 0, 0, 0], false),
    atom("mi", "1609.344", [1, 0, 0, 0, 0, 0, 0], false),
    atom("lb", "0.45359237", [0, 1, 0, 0, 0, 0, 0], false),
    atom("rad", "1", [0, 0, 0, 0, 0, 0, 0], true),
    atom("sr", "1", [0, 0, 0, 0, 0, 0, 0], false),
    Atom {
        symbol: "deg",
        factor: "1/180",
        pi: 1,
        dim: [0; 7],
        prefixable: false,
    },
    Atom {
        symbol: "°",
        factor: "1/180",
        pi: 1,
        dim: [0; 7],
        prefixable: false,
    },
    Atom {
        symbol: "rev",
        factor: "2",
        pi: 1,
        dim: [0; 7],
        prefixable: false,
    },
    Atom {
        symbol: "rpm",
        factor: "1/30",
        pi: 1,
        dim: [0, 0, -1, 0, 0, 0, 0],
        prefixable: false,
    },
];

/// SI prefixes with their exact factors. Both micro signs and `u` spell micro.
pub(crate) const PREFIXES: &[(&str, &str)] = &[
    ("Q", "1e30"),
    ("R", "1e27"),
    ("Y", "1e24"),
    ("Z", "1e21"),
    ("E", "1e18"),
    ("P", "1e15"),
    ("T", "1e12"),
    ("G", "1e9"),
    ("M", "1e6"),
    ("k", "1e3"),
    ("h", "1e2"),
    ("da", "1e1"),
    ("d", "1e-1"),
    ("c", "1e-2"),
    ("m", "1e-3"),
    ("µ", "1e-6"),
    ("μ", "1e-6"),
    ("u", "1e-6"),
    ("n", "1e-9"),
    ("p", "1e-12"),
    ("f", "1e-15"),
    ("a", "1e-18"),
    ("z", "1e-21"),
    ("y", "1e-24"),
    ("r", "1e-27"),
    ("q", "1e-30"),
];

/// A resolved symbol: exact factor, power of π and dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Resolved {
    pub factor: Rational,
    pub pi: i32,
    pub dim: Dimension,
}

fn exact(text: &str) -> Rational {
    // Catalog text is a compile-time constant checked by the `catalog_factors_parse` test.
    text.parse().unwrap_or_else(|_| Rational::zero())
}

/// Looks a symbol up: an exact catalog entry first, then an SI prefix on a prefixable entry
/// (`cd` is the candela, never a centi-day; `kg` is the kilo-gram).
pub(crate) fn resolve(symbol: &str) -> Option<Resolved> {
    if symbol == "kg" {
        return Some(Resolved {
            factor: Rational::one(),
            pi: 0,
            dim: Dimension::from_ints([0, 1, 0, 0, 0, 0, 0]),
        });
    }
    if let Some(a) = ATOMS.iter().find(|a| a.symbol == symbol) {
        return Some(Resolved {
            factor: exact(a.factor),
            pi: a.pi,
            dim: Dimension::from_ints(a.dim),
        });
    }
    PREFIXES.iter().find_map(|(p, pf)| {
        let rest = symbol.strip_prefix(p)?;
        let a = ATOMS.iter().find(|a| a.symbol == rest && a.prefixable)?;
        Some(Resolved {
            factor: exact(pf) * exact(a.factor),
            pi: a.pi,
            dim: Dimension::from_ints(a.dim),
        })
    })
}

/// Catalog symbols closest to an unknown one, best first (at most three).
pub(crate) fn suggestions(unknown: &str) -> Vec<String> {
    let mut candidates: Vec<String> = ATOMS.iter().map(|a| a.symbol.to_string()).collect();
    for common in [
        "kg", "km", "cm", "mm", "ms", "mH", "kN", "kJ", "kW", "kPa", "MPa", "GHz", "kHz", "mA",
        "µs", "ns",
    ] {
        candidates.push(common.to_string());
    }
    let lower = unknown.to_lowercase();
    let mut scored: Vec<(usize, String)> = candidates
        .into_iter()
        .map(|c| {
            let d = if c.to_lowercase() == lower {
                0
            } else {
                levenshtein(unknown, &c)
            };
            (d, c)
        })
        .filter(|(d, c)| *d <= 1 || (*d == 2 && c.chars().count() > 2))
        .collect();
    scored.sort();
    scored.dedup();
    scored.into_iter().take(3).map(|(_, c)| c).collect()
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_factors_parse() {
        for a in ATOMS {
            assert!(a.factor.parse::<Rational>().is_ok(), "{}", a.symbol);
        }
        for (p, f) in PREFIXES {
            assert!(f.parse::<Rational>().is_ok(), "{p}");
        }
    }

    #[test]
    fn symbols_do_not_shadow_each_other_unexpectedly() {
        assert_eq!(resolve("cd").unwrap().factor, Rational::one());
        assert_eq!(resolve("min").unwrap().factor, Rational::from(60));
        assert_eq!(
            resolve("ms").unwrap().factor,
            Rational::new(1, 1000).unwrap()
        );
        assert_eq!(
            resolve("mH").unwrap().factor,
            Rational::new(1, 1000).unwrap()
        );
        assert_eq!(resolve("Pa").unwrap().factor, Rational::one());
        assert_eq!(
            resolve("mg").unwrap().factor,
            Rational::new(1, 1_000_000).unwrap()
        );
        assert!(resolve("kmin").is_none());
        assert!(resolve("xyz").is_none());
    }

    #[test]
    fn suggests_close_symbols() {
        assert_eq!(suggestions("Kg").first().map(String::as_str), Some("kg"));
        assert!(suggestions("mol2").contains(&"mol".to_string()));
        assert!(suggestions("Hzz").contains(&"Hz".to_string()));
    }
}
