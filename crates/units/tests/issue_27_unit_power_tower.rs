//! Issue 27, item 1: a unit power tower ran the server out of memory.
//!
//! `(((Qm^64)^64)^64)^64` respects the per-power limit (64) and the nesting limit (16), yet
//! stands for 10^(30·64⁴): the parser computed that factor exactly, a number of 400 million
//! bits, for 35–150 s and gigabytes before anything looked at the result. The parser now
//! bounds the bits of every power and product from its operands before computing it, and
//! refuses past `MAX_UNIT_FACTOR_BITS` with `UnitError::FactorTooLarge`.

use exact::Rational;
use units::{MAX_UNIT_FACTOR_BITS, UnitError, parse_unit};

fn too_large(text: &str) -> usize {
    match parse_unit(text) {
        Err(UnitError::FactorTooLarge { bits, limit, .. }) => {
            assert_eq!(limit, MAX_UNIT_FACTOR_BITS);
            bits
        }
        other => panic!("{text}: expected FactorTooLarge, got {other:?}"),
    }
}

#[test]
fn unit_power_tower_is_refused_before_computing_its_factor() {
    for tower in [
        "(((Qm^64)^64)^64)^64",
        "((qm^64)^64)^4/((m^64)^64)^4*m",
        "(Qm^64)^64",
        "((((((((km^64)^64)^64)^64)^64)^64)^64)^64)",
    ] {
        assert!(too_large(tower) > MAX_UNIT_FACTOR_BITS, "{tower}");
    }
}

/// A long product grows one term at a time; it is refused at the first term that would pass
/// the limit, however many follow.
#[test]
fn long_products_are_refused_as_they_grow() {
    let chain = vec!["Qm"; 100_000].join("*");
    assert!(too_large(&chain) > MAX_UNIT_FACTOR_BITS);
    // A product of units of factor one never grows.
    let ones = vec!["m"; 10_000].join("*");
    assert!(parse_unit(&ones).is_ok());
}

/// At the limit and one past it. 10^77 has 256 bits (2^255 < 10^77 < 2^256), so
/// `(Qm·Qm·Pm·hm)^32` is bounded by exactly 32·256 = 8,192 bits and parses; 10^2464 has 8,186
/// bits and `hm` (100) has 7, so one more `·hm` is bounded by 8,193 and is refused.
#[test]
fn factor_bits_limit_edges() {
    let bits = |r: &Rational| r.bits();
    let ten = Rational::from(10);
    assert_eq!(bits(&ten.pow(77).unwrap()), 256);
    assert_eq!(bits(&ten.pow(2464).unwrap()), 8186);
    assert_eq!(bits(&Rational::from(100)), 7);
    assert_eq!(MAX_UNIT_FACTOR_BITS, 8192);

    let at = parse_unit("(Qm*Qm*Pm*hm)^32").expect("a factor bounded by exactly the limit");
    assert_eq!(at.exact_factor().unwrap(), ten.pow(2464).unwrap());
    assert_eq!(too_large("(Qm*Qm*Pm*hm)^32*hm"), 8193);
}

/// Fuzz finding (seed 1796457681356780855): a unit whose rational factor and power of π each
/// leave the float range alone had a NaN float scale (∞ · 0).
#[test]
fn float_scale_of_a_unit_past_the_float_range_in_parts_is_never_nan() {
    let past = units::parse_unit("C·(deg^-35·bar)^18").expect("parses");
    // (180/π)^630 · 10^90 ≈ 10^1198: beyond f64, so +∞ (not NaN).
    assert_eq!(past.scale_f64(), f64::INFINITY);
    // (180/π)^160 ≈ 10^281 fits, though 180^160 alone overflows and π^-160 does not.
    let fits = units::parse_unit("(deg^-40)^4").expect("parses");
    let truth = (180.0 / std::f64::consts::PI).powi(160);
    let got = fits.scale_f64();
    assert!(((got - truth) / truth).abs() < 1e-11, "{got} vs {truth}");
    // And the other way: (π/180)^160 ≈ 10^-281.
    let small = units::parse_unit("(deg^40)^4").expect("parses");
    let got = small.scale_f64();
    assert!(((got - 1.0 / truth) * truth).abs() < 1e-11, "{got}");
}
