//! Hand arithmetic on bare rational triples, written apart from [`crate::Vec3`] so the
//! identities do not lean on the code they check.

use exact::Rational;

/// A bare rational triple.
pub type R3 = [Rational; 3];

/// The components of a vector as a bare triple.
pub fn bare(v: &crate::Vec3) -> R3 {
    v.components().clone()
}

/// `a + b`.
pub fn add(a: &R3, b: &R3) -> R3 {
    [&a[0] + &b[0], &a[1] + &b[1], &a[2] + &b[2]]
}

/// `a − b`.
pub fn sub(a: &R3, b: &R3) -> R3 {
    [&a[0] - &b[0], &a[1] - &b[1], &a[2] - &b[2]]
}

/// `s·a`.
pub fn scale(s: &Rational, a: &R3) -> R3 {
    [s * &a[0], s * &a[1], s * &a[2]]
}

/// `a·b`.
pub fn dot(a: &R3, b: &R3) -> Rational {
    &a[0] * &b[0] + &a[1] * &b[1] + &a[2] * &b[2]
}

/// `a × b`.
pub fn cross(a: &R3, b: &R3) -> R3 {
    [
        &a[1] * &b[2] - &a[2] * &b[1],
        &a[2] * &b[0] - &a[0] * &b[2],
        &a[0] * &b[1] - &a[1] * &b[0],
    ]
}

/// `a / b`, for a divisor the caller knows to be nonzero.
pub fn div(a: &Rational, b: &Rational) -> Rational {
    a.checked_div(b).unwrap_or_else(|_| Rational::zero())
}

/// `x^n` by repeated multiplication (no shortcut shared with the engine).
pub fn power(x: &Rational, n: u64) -> Rational {
    let mut out = Rational::one();
    for _ in 0..n {
        out *= x;
    }
    out
}

/// A 2×2 rational matrix, row-major.
pub type M2 = [[Rational; 2]; 2];

/// `a·b`.
pub fn mat_mul(a: &M2, b: &M2) -> M2 {
    let e = |i: usize, j: usize| &a[i][0] * &b[0][j] + &a[i][1] * &b[1][j];
    [[e(0, 0), e(0, 1)], [e(1, 0), e(1, 1)]]
}

/// `m^n` by binary exponentiation: a different route from stepping `n` times.
pub fn mat_pow(m: &M2, mut n: u64) -> M2 {
    let mut out: M2 = [
        [Rational::one(), Rational::zero()],
        [Rational::zero(), Rational::one()],
    ];
    let mut base = m.clone();
    while n > 0 {
        if n & 1 == 1 {
            out = mat_mul(&out, &base);
        }
        base = mat_mul(&base, &base);
        n >>= 1;
    }
    out
}

/// `Err` describing `what` unless `left == right`.
pub fn expect_eq<T: PartialEq + std::fmt::Debug>(
    what: &str,
    left: &T,
    right: &T,
) -> Result<(), String> {
    if left == right {
        Ok(())
    } else {
        Err(format!(
            "{what}: engine gave {left:?}, identity wants {right:?}"
        ))
    }
}
