//! Exact parsing of decimal, scientific and fraction text.
//!
//! Grammar (white space around the whole text is ignored):
//! `number := decimal ("/" decimal)?`, `decimal := [+-]? digits ("." digits)? ([eE] [+-]? digits)?`.
//! `0.1` is exactly 1/10 and `1.5e-3` exactly 3/2000: nothing passes through a binary float.

use crate::{ParseRationalError, Rational};
use dashu_int::IBig;
use std::str::FromStr;

/// Largest decimal exponent accepted in scientific notation. `1e10000` already has 33,220 bits;
/// a larger exponent is almost certainly a typo, and would cost time and memory to honour.
pub const MAX_EXPONENT: u32 = 10_000;

impl FromStr for Rational {
    type Err = ParseRationalError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(ParseRationalError::Empty);
        }
        let (num, den) = match trimmed.split_once('/') {
            Some((n, d)) => (n.trim(), Some(d.trim())),
            None => (trimmed, None),
        };
        let (n_int, n_scale) = parse_decimal(num, trimmed)?;
        let (d_int, d_scale) = match den {
            Some(d) => parse_decimal(d, trimmed)?,
            None => (IBig::ONE, 0),
        };
        if d_int == IBig::ZERO {
            return Err(ParseRationalError::ZeroDenominator {
                text: trimmed.to_string(),
            });
        }
        // value = n_int·10^n_scale / (d_int·10^d_scale)
        let scale = n_scale - d_scale;
        let ten_pow = IBig::from(10u8).pow(scale.unsigned_abs() as usize);
        let (num, den) = if scale >= 0 {
            (n_int * ten_pow, d_int)
        } else {
            (n_int, d_int * ten_pow)
        };
        Rational::from_big(num, den).map_err(|_| ParseRationalError::ZeroDenominator {
            text: trimmed.to_string(),
        })
    }
}

/// Reads one signed decimal with optional exponent as `mantissa · 10^scale`.
fn parse_decimal(part: &str, whole: &str) -> Result<(IBig, i64), ParseRationalError> {
    let malformed = || ParseRationalError::Malformed {
        text: whole.to_string(),
    };
    let (sign, rest) = match part.as_bytes().first() {
        Some(b'-') => (-1, &part[1..]),
        Some(b'+') => (1, &part[1..]),
        _ => (1, part),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (int_digits, frac_digits) = match mantissa.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mantissa, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int_digits.is_empty()
        || !all_digits(int_digits)
        || !all_digits(frac_digits)
        || (mantissa.contains('.') && frac_digits.is_empty())
    {
        return Err(malformed());
    }
    let mut scale = -(frac_digits.len() as i64);
    if let Some(exp_text) = exponent {
        let (exp_sign, exp_digits) = match exp_text.as_bytes().first() {
            Some(b'-') => (-1i64, &exp_text[1..]),
            Some(b'+') => (1, &exp_text[1..]),
            _ => (1, exp_text),
        };
        if exp_digits.is_empty() || !all_digits(exp_digits) {
            return Err(malformed());
        }
        let magnitude = exp_digits.parse::<i64>().unwrap_or(i64::MAX);
        if magnitude > i64::from(MAX_EXPONENT) {
            return Err(ParseRationalError::ExponentTooLarge {
                text: whole.to_string(),
                exponent: exp_sign * magnitude,
                limit: MAX_EXPONENT,
            });
        }
        scale += exp_sign * magnitude;
    }
    let digits = format!("{int_digits}{frac_digits}");
    let magnitude = IBig::from_str_radix(&digits, 10).map_err(|_| malformed())?;
    Ok((if sign < 0 { -magnitude } else { magnitude }, scale))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    #[test]
    fn reads_every_documented_form() {
        assert_eq!(q("3"), Rational::from(3));
        assert_eq!(q("-3/4"), Rational::new(-3, 4).unwrap());
        assert_eq!(q("0.125"), Rational::new(1, 8).unwrap());
        assert_eq!(q("1.5e-3"), Rational::new(3, 2000).unwrap());
        assert_eq!(q("1.5E+3"), Rational::from(1500));
        assert_eq!(q(" +7 "), Rational::from(7));
        assert_eq!(q("0.1"), Rational::new(1, 10).unwrap());
        assert_eq!(q("1/10"), Rational::new(1, 10).unwrap());
        assert_eq!(q("6/-4"), Rational::new(-3, 2).unwrap());
        assert_eq!(q("0.5/0.25"), Rational::from(2));
    }

    #[test]
    fn refuses_bad_text() {
        let err = |s: &str| s.parse::<Rational>().unwrap_err();
        assert_eq!(err(""), ParseRationalError::Empty);
        assert_eq!(err("   "), ParseRationalError::Empty);
        assert!(matches!(
            err("1/0"),
            ParseRationalError::ZeroDenominator { .. }
        ));
        assert!(matches!(
            err("1/0.000"),
            ParseRationalError::ZeroDenominator { .. }
        ));
        for bad in [
            "0.1.2", "NaN", "inf", "1e", "1.", ".5", "--1", "1/2/3", "1 2", "0x10", "1e5.5", "½",
        ] {
            assert!(
                matches!(err(bad), ParseRationalError::Malformed { .. }),
                "{bad}"
            );
        }
        assert!(matches!(
            err("1e10001"),
            ParseRationalError::ExponentTooLarge { .. }
        ));
        assert!(matches!(
            err("1e-99999999999999999999999"),
            ParseRationalError::ExponentTooLarge { .. }
        ));
        assert!(q("1e10000").bits() > 33_000);
    }

    proptest! {
        #[test]
        fn never_panics_on_any_text(s in "\\PC{0,40}") {
            let _ = s.parse::<Rational>();
        }

        #[test]
        fn never_panics_on_number_like_text(s in "[-+0-9./eE ]{0,30}") {
            let _ = s.parse::<Rational>();
        }

        #[test]
        fn printing_round_trips(n in any::<i64>(), d in 1..i64::MAX) {
            let r = Rational::new(n, d).unwrap();
            prop_assert_eq!(r.to_string().parse::<Rational>().unwrap(), r);
        }

        #[test]
        fn decimal_text_is_exact(int in 0u32..100_000, frac in 0u32..1000) {
            let text = format!("{int}.{frac:03}");
            let expected = Rational::new(i64::from(int) * 1000 + i64::from(frac), 1000).unwrap();
            prop_assert_eq!(q(&text), expected);
        }
    }
}
