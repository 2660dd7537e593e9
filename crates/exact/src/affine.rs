//! [`AffineMap`]: iterate `s ← M·s + c` exactly, without a gcd per operation.
//!
//! Exact stepping of a linear system (a spring, drag, uniform gravity under symplectic Euler)
//! spends nearly all its time reducing fractions: every rational product and sum runs a gcd on
//! numbers that grow by ~16 bits per step. Holding the whole state as integers over one shared
//! denominator turns each step into big-by-small integer products, linear in the size of the
//! numbers, and leaves reduction to the rare moments when the shared denominator has clearly
//! outgrown the reduced one (and to the end). The values produced are exactly the same
//! rationals the step-by-step computation gives; only the work differs.

use crate::Rational;
use dashu_int::IBig;
use dashu_int::ops::{BitTest, Gcd, UnsignedAbs};

/// An exact affine map `s ↦ M·s + c` on rational vectors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineMap {
    /// `M·L` as integers, row-major, with `L` the lcm of every denominator in `M` and `c`.
    scaled_matrix: Vec<IBig>,
    /// `c·L` as integers.
    scaled_offset: Vec<IBig>,
    /// The common scale `L`.
    scale: IBig,
    n: usize,
}

/// A state vector held as integer numerators over one shared positive denominator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedDenominator {
    nums: Vec<IBig>,
    den: IBig,
    /// Denominator bits right after the last reduction, to decide when to reduce again.
    reduced_bits: usize,
}

fn lcm(a: &IBig, b: &IBig) -> IBig {
    let g = IBig::from(a.unsigned_abs().gcd(b.unsigned_abs()));
    a / &g * b
}

impl AffineMap {
    /// The map with matrix `matrix` (`n` rows of `n` entries) and offset `offset` (`n` entries).
    /// Returns `None` when the shapes do not agree.
    pub fn new(matrix: &[Vec<Rational>], offset: &[Rational]) -> Option<Self> {
        let n = offset.len();
        if matrix.len() != n || matrix.iter().any(|row| row.len() != n) {
            return None;
        }
        let mut scale = IBig::ONE;
        for r in matrix.iter().flatten().chain(offset) {
            scale = lcm(&scale, &IBig::from(r.0.denominator().clone()));
        }
        let scaled = |r: &Rational| -> IBig {
            let (num, den) = (r.0.numerator(), IBig::from(r.0.denominator().clone()));
            num * (&scale / den)
        };
        Some(AffineMap {
            scaled_matrix: matrix.iter().flatten().map(scaled).collect(),
            scaled_offset: offset.iter().map(scaled).collect(),
            scale,
            n,
        })
    }

    /// The dimension `n` of the state.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True for the map on the empty vector.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// One application, in place.
    pub fn apply(&self, s: &mut SharedDenominator) {
        let zero = IBig::ZERO;
        let mut next = Vec::with_capacity(self.n);
        for i in 0..self.n {
            let mut acc = &self.scaled_offset[i] * &s.den;
            for (m, x) in self.scaled_matrix[i * self.n..(i + 1) * self.n]
                .iter()
                .zip(&s.nums)
            {
                if *m != zero {
                    acc += m * x;
                }
            }
            next.push(acc);
        }
        s.nums = next;
        s.den *= &self.scale;
        s.maybe_reduce();
    }
}

impl SharedDenominator {
    /// The vector `values` over the lcm of their denominators.
    pub fn new(values: &[Rational]) -> Self {
        let mut den = IBig::ONE;
        for v in values {
            den = lcm(&den, &IBig::from(v.0.denominator().clone()));
        }
        let nums = values
            .iter()
            .map(|v| v.0.numerator() * (&den / IBig::from(v.0.denominator().clone())))
            .collect();
        let reduced_bits = (&den).unsigned_abs().bit_len();
        SharedDenominator {
            nums,
            den,
            reduced_bits,
        }
    }

    /// The values in lowest terms.
    pub fn to_rationals(&self) -> Vec<Rational> {
        self.nums
            .iter()
            .map(|n| {
                Rational::from_big(n.clone(), self.den.clone()).unwrap_or_else(|_| Rational::zero())
            })
            .collect()
    }

    /// Bits of the shared denominator as held (an upper bound on every reduced denominator).
    pub fn denominator_bits(&self) -> usize {
        (&self.den).unsigned_abs().bit_len()
    }

    /// An upper bound on [`Rational::bits`] of every value in lowest terms: the bits of the
    /// largest numerator or of the shared denominator as held. Costs no gcd.
    pub fn bits_bound(&self) -> usize {
        self.nums
            .iter()
            .map(BitTest::bit_len)
            .max()
            .unwrap_or(0)
            .max(self.denominator_bits())
    }

    /// Divides numerators and denominator by their common gcd.
    pub fn reduce(&mut self) {
        let mut g = (&self.den).unsigned_abs();
        for n in &self.nums {
            if g == dashu_int::UBig::ONE {
                break;
            }
            g = g.gcd(n.unsigned_abs());
        }
        if g != dashu_int::UBig::ONE {
            let g = IBig::from(g);
            for n in &mut self.nums {
                *n = &*n / &g;
            }
            self.den = &self.den / &g;
        }
        self.reduced_bits = (&self.den).unsigned_abs().bit_len();
    }

    /// Reduces once the shared denominator has doubled (plus slack) since the last reduction,
    /// so bounded problems stay small and growing ones pay O(log n) reductions.
    fn maybe_reduce(&mut self) {
        if self.denominator_bits() > 2 * self.reduced_bits + 256 {
            self.reduce();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Rational {
        s.parse().unwrap()
    }

    /// The same recurrence with plain rationals, one reduced operation at a time.
    fn naive(m: &[Vec<Rational>], c: &[Rational], s: &[Rational], steps: usize) -> Vec<Rational> {
        let mut s = s.to_vec();
        for _ in 0..steps {
            s = (0..s.len())
                .map(|i| m[i].iter().zip(&s).map(|(a, b)| a * b).sum::<Rational>() + &c[i])
                .collect();
        }
        s
    }

    #[test]
    fn matches_step_by_step_rationals() {
        // Symplectic Euler of a damped spring on one axis: x' = x + dt v', v' = B v + A x + C.
        let (a, b, c, dt) = (q("-3/700"), q("3499/3500"), q("1/7"), q("1/100"));
        let m = vec![
            vec![Rational::one() + &dt * &a, &dt * &b],
            vec![a.clone(), b.clone()],
        ];
        let off = vec![&dt * &c, c.clone()];
        let start = vec![q("1"), q("-1/3")];
        let map = AffineMap::new(&m, &off).unwrap();
        let mut s = SharedDenominator::new(&start);
        for steps in 1..=300 {
            map.apply(&mut s);
            if steps % 50 == 0 {
                assert_eq!(
                    s.to_rationals(),
                    naive(&m, &off, &start, steps),
                    "step {steps}"
                );
            }
        }
    }

    #[test]
    fn bounded_problems_stay_small() {
        // Uniform gravity: x' = x + dt v', v' = v + g dt; sizes stay bounded when reduced.
        let (g, dt) = (q("-981/100"), q("1/10"));
        let m = vec![
            vec![Rational::one(), dt.clone()],
            vec![Rational::zero(), Rational::one()],
        ];
        let off = vec![&dt * &dt * &g, &dt * &g];
        let map = AffineMap::new(&m, &off).unwrap();
        let mut s = SharedDenominator::new(&[q("10"), q("0")]);
        for _ in 0..100_000 {
            map.apply(&mut s);
        }
        assert!(s.denominator_bits() < 1024, "{}", s.denominator_bits());
        let n = Rational::from(100_000);
        // Closed form of the discrete recurrence: v_n = n g dt, x_n = x0 + g dt² n(n+1)/2.
        let v = &n * &g * &dt;
        let x = q("10") + &g * &dt * &dt * &n * (&n + Rational::one()) * q("1/2");
        assert_eq!(s.to_rationals(), vec![x, v]);
    }

    #[test]
    fn shape_mismatch_is_refused() {
        assert!(AffineMap::new(&[vec![q("1")]], &[q("1"), q("2")]).is_none());
        assert!(AffineMap::new(&[vec![q("1"), q("2")], vec![q("1")]], &[q("1"), q("2")]).is_none());
    }
}
