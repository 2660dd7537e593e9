//! Catalog-wide properties: exact conversions, Unicode/ASCII spellings, refusals.

use exact::Rational;
use proptest::prelude::*;
use units::{Dimension, UnitError, kind, parse_unit};

fn q(s: &str) -> Rational {
    s.parse().unwrap()
}

fn convert(v: &str, from: &str, to: &str) -> Result<Rational, UnitError> {
    parse_unit(from)?.convert_exact(&q(v), &parse_unit(to)?)
}

/// Every unit either manual uses, with the kind it must have.
const MANUAL_UNITS: &[(&str, &str)] = &[
    ("m", "Length"),
    ("cm", "Length"),
    ("mm", "Length"),
    ("km", "Length"),
    ("s", "Time"),
    ("ms", "Time"),
    ("min", "Time"),
    ("h", "Time"),
    ("kg", "Mass"),
    ("g", "Mass"),
    ("A", "Current"),
    ("K", "Temperature"),
    ("mol", "Amount"),
    ("cd", "LuminousIntensity"),
    ("m/s", "Velocity"),
    ("m/s^2", "Acceleration"),
    ("m/s²", "Acceleration"),
    ("N", "Force"),
    ("J", "Energy"),
    ("Pa", "Pressure"),
    ("Hz", "Frequency"),
    ("C", "Charge"),
    ("W", "Power"),
    ("V", "Voltage"),
    ("N/m", "Stiffness"),
    ("kg/s", "Damping"),
    ("J*s", "Action"),
    ("J/K", "Entropy"),
    ("1/mol", "PerAmount"),
    ("mol⁻¹", "PerAmount"),
    ("rad", "Angle"),
    ("deg", "Angle"),
    ("Ω", "Resistance"),
    ("H", "Inductance"),
    ("mH", "Inductance"),
    ("F", "Capacitance"),
    ("kg·m²", "MomentOfInertia"),
    ("N·m·s", "RotationalDrag"),
    ("N*m*s", "RotationalDrag"),
    ("N·m/A", "TorqueConstant"),
    ("K/s", "HeatingRate"),
    ("m²/s", "Diffusivity"),
    ("m^2/s", "Diffusivity"),
    ("rad/s", "AngularVelocity"),
    ("J/(kg·K)", "SpecificHeatCapacity"),
];

#[test]
fn every_manual_unit_has_its_kind() {
    for (u, k) in MANUAL_UNITS {
        let unit = parse_unit(u).unwrap_or_else(|e| panic!("{u}: {e}"));
        assert_eq!(unit.dim(), kind(k).unwrap(), "{u} should be a {k}");
    }
}

#[test]
fn documented_conversions() {
    assert_eq!(convert("100", "cm", "m").unwrap(), q("1"));
    assert_eq!(convert("1", "km/h", "m/s").unwrap(), q("5/18"));
    assert_eq!(convert("1", "h", "min").unwrap(), q("60"));
    assert_eq!(
        convert("1", "J", "eV").unwrap(),
        q("1e19").checked_div(&q("1.602176634")).unwrap()
    );
    assert_eq!(convert("1", "L/s", "m^3/s").unwrap(), q("1/1000"));
    assert_eq!(convert("90", "deg", "deg").unwrap(), q("90"));
    assert_eq!(convert("2.5", "mH", "H").unwrap(), q("1/400"));
    assert_eq!(convert("1", "kg·m²", "g·cm²").unwrap(), q("1e7"));
}

#[test]
fn mismatched_dimensions_name_both_sides() {
    let e = convert("1", "m", "s").unwrap_err();
    assert!(matches!(e, UnitError::DimensionMismatch { .. }));
    let text = e.to_string();
    assert!(text.contains("Length") && text.contains("Time"), "{text}");
}

#[test]
fn degrees_are_refused_on_the_exact_path_with_the_reason() {
    let e = convert("180", "deg", "rad").unwrap_err();
    assert!(matches!(e, UnitError::NotExact { .. }));
    assert!(e.to_string().contains('π'), "{e}");
    assert!(parse_unit("deg").unwrap().exact_factor().is_err());
    let deg = parse_unit("deg").unwrap().scale_f64();
    assert!((deg * 180.0 - std::f64::consts::PI).abs() < 1e-15);
}

#[test]
fn unknown_units_suggest_close_entries() {
    match parse_unit("m/sec").unwrap_err() {
        UnitError::Unknown { name, suggestions } => {
            assert_eq!(name, "sec");
            let _ = suggestions;
        }
        e => panic!("{e}"),
    }
    match parse_unit("Kg").unwrap_err() {
        UnitError::Unknown { suggestions, .. } => assert_eq!(suggestions[0], "kg"),
        e => panic!("{e}"),
    }
    let text = parse_unit("Hzz").unwrap_err().to_string();
    assert!(text.contains("`Hzz`") && text.contains("`Hz`"), "{text}");
}

#[test]
fn malformed_expressions_are_refused() {
    for bad in [
        "", " ", "m/", "*m", "m^", "m^x", "(m", "m)", "N m", "m^99", "m^(1/2", "2m", "m//s",
    ] {
        assert!(parse_unit(bad).is_err(), "{bad:?} should fail");
    }
    assert!(matches!(
        parse_unit("m^65"),
        Err(UnitError::PowerTooLarge { .. })
    ));
    assert!(parse_unit("m^64").is_ok());
    assert!(parse_unit("N m").unwrap_err().to_string().contains('*'));
}

#[test]
fn fractional_powers_for_noise() {
    let u = parse_unit("s^(-1/2)").unwrap();
    assert_eq!(u.dim().to_string(), "T^(-1/2)");
    assert_eq!(u.dim().powi(2), Dimension::base(units::Base::Time).recip());
    assert!(
        parse_unit("km^(1/2)").is_err(),
        "an irrational factor must be refused"
    );
}

fn compatible_pairs() -> Vec<(&'static str, &'static str)> {
    let all: Vec<&str> = MANUAL_UNITS
        .iter()
        .map(|(u, _)| *u)
        .filter(|u| *u != "deg")
        .collect();
    let mut pairs = Vec::new();
    for a in &all {
        for b in &all {
            if parse_unit(a).unwrap().dim() == parse_unit(b).unwrap().dim() {
                pairs.push((*a, *b));
            }
        }
    }
    pairs
}

proptest! {
    #[test]
    fn round_trip_between_every_compatible_pair(idx in any::<prop::sample::Index>(), n in any::<i64>(), d in 1i64..1_000_000) {
        let pairs = compatible_pairs();
        let (a, b) = pairs[idx.index(pairs.len())];
        let v = Rational::new(n, d).unwrap();
        let ua = parse_unit(a).unwrap();
        let ub = parse_unit(b).unwrap();
        let there = ua.convert_exact(&v, &ub).unwrap();
        prop_assert_eq!(ub.convert_exact(&there, &ua).unwrap(), v);
    }

    #[test]
    fn parser_never_panics(s in "\\PC{0,24}") {
        let _ = parse_unit(&s);
    }

    #[test]
    fn parser_never_panics_on_unit_like_text(s in "[mskgNJWAKlo/*·²³⁻¹^()0-9 -]{0,20}") {
        let _ = parse_unit(&s);
    }
}
