//! The unit-expression parser: `m/s^2`, `m/s²`, `kg·m²`, `N*m/A`, `mol⁻¹`, `1/mol`, `J/(kg·K)`.
//!
//! Grammar: `expr := term (("·" | "⋅" | "*" | "/") term)*` (left-associative, `/` applies to the
//! next term only), `term := primary power?`, `primary := symbol | "1" | "(" expr ")"`,
//! `power := "^" ["("] ["-"|"−"] int ["/" int] [")"] | superscripts (⁻, ⁰-⁹)`.

use crate::catalog::{resolve, suggestions};
use crate::{Dimension, Exponent, UnitError};
use exact::Rational;

/// Largest power magnitude accepted in a unit expression.
pub const MAX_UNIT_POWER: u32 = 64;

/// Most bits the numerator or the denominator of a unit's exact scale factor may need.
///
/// Powers (at most ±64) and parentheses (at most 16 deep) bound each step of a unit
/// expression but not their product: `(((Qm^64)^64)^64)^64` stands for 10^(30·64⁴), a number
/// of 400 million bits. Before every power and product the parser bounds the bits of the result
/// from the bits of its operands (`bits(aⁿ) ≤ n·bits(a)`, `bits(a·b) ≤ bits(a) + bits(b)`) and
/// refuses the expression before computing anything larger. 8,192 bits holds any unit a
/// physicist writes (`eV^64` needs about 6,000) and bounds the cost of parsing one unit to
/// microseconds.
pub const MAX_UNIT_FACTOR_BITS: usize = 8_192;

/// The value a unit expression stands for: exact factor · π^pi, and a dimension.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Scale {
    pub factor: Rational,
    pub pi: i32,
    pub dim: Dimension,
}

impl Scale {
    fn one() -> Self {
        Scale {
            factor: Rational::one(),
            pi: 0,
            dim: Dimension::NONE,
        }
    }

    /// The bound on the bits of a product or quotient of `self` and `o`.
    fn product_bits(&self, o: &Scale) -> usize {
        self.factor.bits() + o.factor.bits()
    }

    fn combine(self, o: Scale, divide: bool) -> Option<Scale> {
        if divide {
            Some(Scale {
                factor: self.factor.checked_div(&o.factor).ok()?,
                pi: self.pi.checked_sub(o.pi)?,
                dim: self.dim.checked_div(o.dim)?,
            })
        } else {
            Some(Scale {
                factor: self.factor * o.factor,
                pi: self.pi.checked_add(o.pi)?,
                dim: self.dim.checked_mul(o.dim)?,
            })
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    chars: Vec<char>,
    pos: usize,
    depth: usize,
}

pub(crate) fn parse_scale(text: &str) -> Result<Scale, UnitError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(UnitError::Empty);
    }
    let mut p = Parser {
        text: trimmed,
        chars: trimmed.chars().collect(),
        pos: 0,
        depth: 0,
    };
    let scale = p.expr()?;
    p.skip_ws();
    if p.pos < p.chars.len() {
        let rest: String = p.chars[p.pos..].iter().collect();
        let reason = if p.chars[p.pos - 1].is_whitespace() {
            format!("unexpected `{rest}`; write `*` or `·` between units")
        } else {
            format!("unexpected `{rest}`")
        };
        return Err(p.malformed(reason));
    }
    Ok(scale)
}

fn is_symbol_char(c: char) -> bool {
    c.is_alphabetic() || c == '°' || c == 'µ' || c == 'Ω'
}

impl Parser<'_> {
    fn malformed(&self, reason: impl Into<String>) -> UnitError {
        UnitError::Malformed {
            text: self.text.to_string(),
            reason: reason.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn expr(&mut self) -> Result<Scale, UnitError> {
        let mut acc = self.term()?;
        loop {
            self.skip_ws();
            let divide = match self.peek() {
                Some('·' | '⋅' | '*' | '×') => false,
                Some('/') => true,
                _ => return Ok(acc),
            };
            self.pos += 1;
            self.skip_ws();
            let rhs = self.term()?;
            self.check_bits(acc.product_bits(&rhs))?;
            acc = acc
                .combine(rhs, divide)
                .ok_or_else(|| self.malformed("dimension exponent overflow"))?;
        }
    }

    fn term(&mut self) -> Result<Scale, UnitError> {
        let base = self.primary()?;
        match self.power()? {
            None => Ok(base),
            Some(p) => {
                let n = u64::from(p.numer().unsigned_abs());
                let bound = (base.factor.bits() as u64).saturating_mul(n);
                self.check_bits(usize::try_from(bound).unwrap_or(usize::MAX))?;
                pow_scale(base, p).ok_or_else(|| {
                    self.malformed("a power with a fractional exponent needs a factor of exactly 1")
                })
            }
        }
    }

    /// Refuses a result whose factor could need more than [`MAX_UNIT_FACTOR_BITS`] bits.
    fn check_bits(&self, bound: usize) -> Result<(), UnitError> {
        if bound > MAX_UNIT_FACTOR_BITS {
            return Err(UnitError::FactorTooLarge {
                text: self.text.to_string(),
                bits: bound,
                limit: MAX_UNIT_FACTOR_BITS,
            });
        }
        Ok(())
    }

    fn primary(&mut self) -> Result<Scale, UnitError> {
        self.skip_ws();
        match self.peek() {
            Some('(') => {
                self.depth += 1;
                if self.depth > 16 {
                    return Err(self.malformed("parentheses nested too deeply"));
                }
                self.pos += 1;
                let inner = self.expr()?;
                self.skip_ws();
                if self.peek() != Some(')') {
                    return Err(self.malformed("missing `)`"));
                }
                self.pos += 1;
                self.depth -= 1;
                Ok(inner)
            }
            Some('1') => {
                self.pos += 1;
                Ok(Scale::one())
            }
            Some(c) if is_symbol_char(c) => {
                let start = self.pos;
                while self.peek().is_some_and(is_symbol_char) {
                    self.pos += 1;
                }
                let symbol: String = self.chars[start..self.pos].iter().collect();
                let r = resolve(&symbol).ok_or_else(|| UnitError::Unknown {
                    suggestions: suggestions(&symbol),
                    name: symbol.clone(),
                })?;
                Ok(Scale {
                    factor: r.factor,
                    pi: r.pi,
                    dim: r.dim,
                })
            }
            Some(c) => Err(self.malformed(format!("unexpected `{c}`"))),
            None => Err(self.malformed("a unit is missing at the end")),
        }
    }

    /// Reads an optional power; returns it as an exponent.
    fn power(&mut self) -> Result<Option<Exponent>, UnitError> {
        let start = self.pos;
        match self.peek() {
            Some('^') => {
                self.pos += 1;
                let paren = self.peek() == Some('(');
                if paren {
                    self.pos += 1;
                }
                let neg = matches!(self.peek(), Some('-' | '−'));
                if neg {
                    self.pos += 1;
                }
                let num = self.digits(|c| c.to_digit(10))?;
                let den = if self.peek() == Some('/')
                    && self
                        .chars
                        .get(self.pos + 1)
                        .is_some_and(char::is_ascii_digit)
                    && paren
                {
                    self.pos += 1;
                    self.digits(|c| c.to_digit(10))?
                } else {
                    1
                };
                if paren {
                    if self.peek() != Some(')') {
                        return Err(self.malformed("missing `)` after the power"));
                    }
                    self.pos += 1;
                }
                self.exponent(start, if neg { -num } else { num }, den)
                    .map(Some)
            }
            Some(c) if c == '⁻' || superscript_digit(c).is_some() => {
                let neg = c == '⁻';
                if neg {
                    self.pos += 1;
                }
                let num = self.digits(superscript_digit)?;
                self.exponent(start, if neg { -num } else { num }, 1)
                    .map(Some)
            }
            _ => Ok(None),
        }
    }

    fn digits(&mut self, digit: impl Fn(char) -> Option<u32>) -> Result<i64, UnitError> {
        let start = self.pos;
        let mut value: i64 = 0;
        while let Some(d) = self.peek().and_then(&digit) {
            value = value.saturating_mul(10).saturating_add(i64::from(d));
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.malformed("a power needs digits"));
        }
        Ok(value)
    }

    fn exponent(&self, start: usize, num: i64, den: i64) -> Result<Exponent, UnitError> {
        let limit = i64::from(MAX_UNIT_POWER);
        if num.abs() > limit || den > limit || den == 0 {
            return Err(UnitError::PowerTooLarge {
                text: self.text.to_string(),
                power: self.chars[start..self.pos].iter().collect(),
                limit: MAX_UNIT_POWER,
            });
        }
        Exponent::new(num, den).ok_or_else(|| self.malformed("bad power"))
    }
}

fn superscript_digit(c: char) -> Option<u32> {
    "⁰¹²³⁴⁵⁶⁷⁸⁹".chars().position(|s| s == c).map(|p| p as u32)
}

/// Raises a scale to a power. A fractional power is only exact for a factor of one (`s^(-1/2)`).
fn pow_scale(base: Scale, p: Exponent) -> Option<Scale> {
    let dim = base.dim.checked_pow(p)?;
    if p.is_integer() {
        let n = p.numer();
        Some(Scale {
            factor: base.factor.pow(i64::from(n)).ok()?,
            pi: base.pi.checked_mul(n)?,
            dim,
        })
    } else if base.factor == Rational::one() && base.pi == 0 {
        Some(Scale {
            factor: Rational::one(),
            pi: 0,
            dim,
        })
    } else {
        None
    }
}
