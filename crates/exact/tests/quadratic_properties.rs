//! Q(√d) arithmetic against independent truths: a decimal reading of every value to 40 places
//! computed here with our own integer Newton square root (not the library's), comparisons
//! re-derived by squaring rationals, and the field identities.

use dashu_int::IBig;
use exact::{QuadraticNumber, Rational};
use proptest::prelude::*;
use std::cmp::Ordering;

const DIGITS: usize = 40;

fn r(n: i64, d: i64) -> Rational {
    Rational::new(n, d).unwrap()
}

/// `⌊√n⌋` by Newton's iteration on big integers, independent of the library's square root.
fn isqrt(n: &IBig) -> IBig {
    if *n < IBig::from(2) {
        return n.clone();
    }
    let mut x = n.clone();
    loop {
        let y = (&x + n / &x) / IBig::from(2);
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// `(a + b√d)·10^DIGITS` within two units: the value scaled to an integer, from the parts.
fn decimal(a: (i64, i64), b: (i64, i64), d: i64) -> IBig {
    let scale = IBig::from(10).pow(DIGITS);
    let den = IBig::from(a.1 * b.1);
    let a_term = IBig::from(a.0) * IBig::from(b.1) * &scale;
    let b_mag = IBig::from(b.0.abs()) * IBig::from(a.1) * &scale;
    let root = isqrt(&(&b_mag * &b_mag * IBig::from(d)));
    let b_term = if b.0 < 0 { -root } else { root };
    (a_term + b_term) / den
}

fn part() -> impl Strategy<Value = (i64, i64)> {
    (-200i64..200, 1i64..50)
}

fn radicand() -> impl Strategy<Value = i64> {
    prop_oneof![Just(2i64), Just(3), Just(5), Just(7), Just(12), 2i64..500]
}

fn num(a: (i64, i64), b: (i64, i64), d: i64) -> QuadraticNumber {
    QuadraticNumber::new(r(a.0, a.1), r(b.0, b.1), &Rational::from(d)).unwrap()
}

/// The sign of `a + b√d` by squaring rationals only: the independent case analysis.
fn sign_by_squaring(a: &Rational, b: &Rational, d: &Rational) -> i8 {
    let b2d = b * b * d;
    let a2 = a * a;
    match (a.signum(), b.signum()) {
        (sa, 0) => sa,
        (0, sb) => sb,
        (sa, sb) if sa == sb => sa,
        (sa, _) => match a2.cmp(&b2d) {
            Ordering::Greater => sa,
            Ordering::Less => -sa,
            Ordering::Equal => 0,
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn order_agrees_with_decimals_and_squaring(
        a in part(), b in part(), c in part(), e in part(), d in radicand(),
    ) {
        let x = num(a, b, d);
        let y = num(c, e, d);
        let ord = x.checked_cmp(&y).unwrap();
        let (dx, dy) = (decimal(a, b, d), decimal(c, e, d));
        // Readings two units apart decide the order; closer ones must be equal or near.
        if (&dx - &dy) > IBig::from(2) {
            prop_assert_eq!(ord, Ordering::Greater);
        } else if (&dy - &dx) > IBig::from(2) {
            prop_assert_eq!(ord, Ordering::Less);
        }
        let diff_a = r(a.0, a.1) - r(c.0, c.1);
        let diff_b = r(b.0, b.1) - r(e.0, e.1);
        prop_assert_eq!(ord.cmp(&Ordering::Equal) as i8, sign_by_squaring(&diff_a, &diff_b, &Rational::from(d)));
        // The library's own decimal reading agrees with the independent one to two units
        // (each side truncates once).
        let mine = x.floor_scaled(DIGITS as u32);
        prop_assert!((&mine - &dx) <= IBig::from(2) && (&dx - &mine) <= IBig::from(2));
    }

    #[test]
    fn field_identities_hold(
        a in part(), b in part(), c in part(), e in part(), f in part(), d in radicand(),
    ) {
        let x = num(a, b, d);
        let y = num(c, e, d);
        let z = num(f, a, d);
        let xy = x.checked_mul(&y).unwrap();
        // Distributivity and commutativity.
        prop_assert_eq!(
            x.checked_mul(&y.checked_add(&z).unwrap()).unwrap(),
            xy.checked_add(&x.checked_mul(&z).unwrap()).unwrap()
        );
        prop_assert_eq!(&xy, &y.checked_mul(&x).unwrap());
        // Division undoes multiplication; the norm is multiplicative.
        if !y.is_zero() {
            prop_assert_eq!(xy.checked_div(&y).unwrap(), x.clone());
        }
        prop_assert_eq!(xy.norm(), x.norm() * y.norm());
        // Every square has its root in the field (named explicitly: a rational square forgets
        // it), and that root is the absolute value.
        let sq = x.checked_mul(&x).unwrap();
        let root = sq.sqrt_in_field(&Rational::from(d)).unwrap();
        let abs = if x.is_negative() { x.neg() } else { x.clone() };
        prop_assert_eq!(root, abs);
    }

    #[test]
    fn order_of_non_negatives_is_order_of_squares(
        a in part(), b in part(), c in part(), e in part(), d in radicand(),
    ) {
        let x = num(a, b, d);
        let y = num(c, e, d);
        if !x.is_negative() && !y.is_negative() {
            let (x2, y2) = (x.checked_mul(&x).unwrap(), y.checked_mul(&y).unwrap());
            prop_assert_eq!(x.checked_cmp(&y).unwrap(), x2.checked_cmp(&y2).unwrap());
        }
    }
}

#[test]
fn json_parts_round_trip() {
    let x = num((3, 2), (1, 4), 7);
    assert_eq!(x.to_string(), "3/2 + 1/4·√7");
    let back = QuadraticNumber::new(
        x.rational().clone(),
        x.sqrt_coefficient().clone(),
        &x.radicand(),
    )
    .unwrap();
    assert_eq!(back, x);
    assert_eq!(x.rational().to_string(), "3/2");
    assert_eq!(x.sqrt_coefficient().to_string(), "1/4");
    assert_eq!(x.radicand().to_string(), "7");
}
