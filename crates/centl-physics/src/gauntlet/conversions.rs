//! Unit conversion and rational printing round trips, against factors written here by hand
//! from their definitions (1 in = 254/10000 m, 1 lb = 45359237/10⁸ kg, 1 atm = 101325 Pa, ...).

use super::algebra::{div, expect_eq};
use super::rng::Gen;
use exact::Rational;
use units::parse_unit;

/// Families of units of one dimension, each with its factor to SI as `(numerator, denominator)`.
const FAMILIES: &[&[(&str, i64, i64)]] = &[
    &[
        ("m", 1, 1),
        ("cm", 1, 100),
        ("mm", 1, 1000),
        ("km", 1000, 1),
        ("in", 254, 10_000),
        ("ft", 3048, 10_000),
        ("mi", 1_609_344, 1000),
    ],
    &[("s", 1, 1), ("ms", 1, 1000), ("min", 60, 1), ("h", 3600, 1)],
    &[
        ("kg", 1, 1),
        ("g", 1, 1000),
        ("lb", 45_359_237, 100_000_000),
    ],
    &[("m/s", 1, 1), ("km/h", 1000, 3600), ("ft/s", 3048, 10_000)],
    &[("J", 1, 1), ("kJ", 1000, 1), ("N*m", 1, 1)],
    &[
        ("Pa", 1, 1),
        ("kPa", 1000, 1),
        ("bar", 100_000, 1),
        ("atm", 101_325, 1),
    ],
];

fn factor((_, n, d): &(&str, i64, i64)) -> Rational {
    Rational::new(*n, *d).unwrap_or_else(|_| Rational::zero())
}

/// `A → B` is `x·f_A/f_B`, `B → A` returns `x`, `A → B → C` is `A → C`, and a unit of another
/// dimension is refused.
pub fn unit_round_trip(g: &mut Gen) -> Result<(), String> {
    let index = g.int(0, FAMILIES.len() as i64 - 1) as usize;
    let family = FAMILIES[index];
    let pick = |g: &mut Gen| family[g.int(0, family.len() as i64 - 1) as usize];
    let (a, b, c) = (pick(g), pick(g), pick(g));
    let x = g.rational(1_000_000, 1000);
    let unit = |u: &(&str, i64, i64)| parse_unit(u.0).map_err(|e| format!("unit {}: {e}", u.0));
    let (ua, ub, uc) = (unit(&a)?, unit(&b)?, unit(&c)?);
    let conv = |from: &units::Unit, v: &Rational, to: &units::Unit| {
        from.convert_exact(v, to)
            .map_err(|e| format!("engine refused {} → {}: {e}", from.text(), to.text()))
    };
    let ab = conv(&ua, &x, &ub)?;
    expect_eq(
        &format!("{x} {} in {}", a.0, b.0),
        &ab,
        &div(&(&x * factor(&a)), &factor(&b)),
    )?;
    expect_eq(
        &format!("{x} {} → {} → back", a.0, b.0),
        &conv(&ub, &ab, &ua)?,
        &x,
    )?;
    expect_eq(
        &format!("{x} {} → {} → {} against direct", a.0, b.0, c.0),
        &conv(&ub, &ab, &uc)?,
        &conv(&ua, &x, &uc)?,
    )?;
    let other = FAMILIES[(index + 1) % FAMILIES.len()];
    let foreign = unit(&other[0])?;
    match ua.convert_exact(&x, &foreign) {
        Err(_) => Ok(()),
        Ok(v) => Err(format!(
            "{} → {} is a dimension mismatch, engine gave {v}",
            a.0, other[0].0
        )),
    }
}

/// A rational prints and parses back to itself; a decimal `n·10⁻ᵏ` written as `i.fff` or
/// `ne-k` parses to `n/10ᵏ`.
pub fn rational_text_round_trip(g: &mut Gen) -> Result<(), String> {
    let x = g.rational(1_000_000_000, 1_000_000);
    let parse = |s: &str| {
        s.parse::<Rational>()
            .map_err(|e| format!("engine refused {s:?}: {e}"))
    };
    expect_eq(
        &format!("print then parse {x}"),
        &parse(&x.to_string())?,
        &x,
    )?;
    let n = g.int(-1_000_000_000, 1_000_000_000);
    let k = g.int(0, 12) as u32;
    let pow10 = 10_i64.pow(k);
    let want = Rational::new(n, pow10).map_err(|e| e.to_string())?;
    let sign = if n < 0 { "-" } else { "" };
    let (whole, frac) = (
        n.unsigned_abs() / pow10 as u64,
        n.unsigned_abs() % pow10 as u64,
    );
    let decimal = if k == 0 {
        format!("{sign}{whole}")
    } else {
        format!("{sign}{whole}.{frac:0width$}", width = k as usize)
    };
    expect_eq(&format!("decimal {decimal}"), &parse(&decimal)?, &want)?;
    let scientific = format!("{n}e-{k}");
    expect_eq(
        &format!("scientific {scientific}"),
        &parse(&scientific)?,
        &want,
    )
}
