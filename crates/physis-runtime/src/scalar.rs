//! The meaning of every scalar operation of the IR, written once: the interpreter, constant
//! folding (the IR builder's and the checker's) and generated code all call these functions,
//! so every back end computes the same bits. [`UnOp`] and [`BinOp`] are generated from the
//! tables below together with their functions, so a new operation is one row here and a
//! compile error wherever a back end matches on the enums.

/// Declares the one-operand operations: the enum, its function per row and the dispatch.
macro_rules! unary_ops {
    ($($(#[$doc:meta])* $variant:ident => fn $name:ident($a:ident) $body:block)*) => {
        /// Operations on one operand (elementwise on arrays).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum UnOp {
            $($(#[$doc])* $variant,)*
        }

        impl UnOp {
            /// Every operation, in table order.
            pub const ALL: &'static [UnOp] = &[$(UnOp::$variant,)*];

            /// The name of the operation's function in this module (what generated code calls).
            pub fn name(self) -> &'static str {
                match self { $(UnOp::$variant => stringify!($name),)* }
            }

            /// `op a`.
            #[inline]
            pub fn apply(self, a: f64) -> f64 {
                match self { $(UnOp::$variant => $name(a),)* }
            }
        }

        $($(#[$doc])* #[inline] pub fn $name($a: f64) -> f64 $body)*
    };
}

/// Declares the two-operand operations: the enum, its function per row and the dispatch.
macro_rules! binary_ops {
    ($($(#[$doc:meta])* $variant:ident => fn $name:ident($a:ident, $b:ident) $body:block)*) => {
        /// Operations on two operands (elementwise; a scalar broadcasts against an array).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum BinOp {
            $($(#[$doc])* $variant,)*
        }

        impl BinOp {
            /// Every operation, in table order.
            pub const ALL: &'static [BinOp] = &[$(BinOp::$variant,)*];

            /// The name of the operation's function in this module (what generated code calls).
            pub fn name(self) -> &'static str {
                match self { $(BinOp::$variant => stringify!($name),)* }
            }

            /// `a op b`.
            #[inline]
            pub fn apply(self, a: f64, b: f64) -> f64 {
                match self { $(BinOp::$variant => $name(a, b),)* }
            }
        }

        $($(#[$doc])* #[inline] pub fn $name($a: f64, $b: f64) -> f64 $body)*
    };
}

unary_ops! {
    /// `−x`
    Neg => fn neg(a) { -a }
    /// `|x|`
    Abs => fn abs(a) { a.abs() }
    /// `1`, `−1` or `0`, zero keeping its sign and NaN staying NaN (the derivative of `|x|`
    /// taken as 0 at 0).
    Sign => fn sign(a) {
        if a > 0.0 {
            1.0
        } else if a < 0.0 {
            -1.0
        } else {
            a
        }
    }
    /// `√x`
    Sqrt => fn sqrt(a) { a.sqrt() }
    /// `eˣ`
    Exp => fn exp(a) { a.exp() }
    /// natural logarithm
    Log => fn log(a) { a.ln() }
    /// base-10 logarithm
    Log10 => fn log10(a) { a.log10() }
    /// largest whole number not above
    Floor => fn floor(a) { a.floor() }
    /// smallest whole number not below
    Ceil => fn ceil(a) { a.ceil() }
    /// sine
    Sin => fn sin(a) { a.sin() }
    /// cosine
    Cos => fn cos(a) { a.cos() }
    /// tangent
    Tan => fn tan(a) { a.tan() }
    /// arcsine
    Asin => fn asin(a) { a.asin() }
    /// arccosine
    Acos => fn acos(a) { a.acos() }
    /// arctangent
    Atan => fn atan(a) { a.atan() }
    /// hyperbolic sine
    Sinh => fn sinh(a) { a.sinh() }
    /// hyperbolic cosine
    Cosh => fn cosh(a) { a.cosh() }
    /// hyperbolic tangent
    Tanh => fn tanh(a) { a.tanh() }
}

/// `f64::min` with the sign of a zero tie fixed: `f64::min` leaves `min(+0, −0)` unspecified,
/// and LLVM picks either operand depending on how the call was inlined, so two back ends
/// calling the same function could disagree in the sign bit.
#[inline]
fn least(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else if b < a {
        b
    } else if a == b {
        // Equal: the same bits, or two zeros, where −0 wins (its sign bit survives the or).
        f64::from_bits(a.to_bits() | b.to_bits())
    } else if a.is_nan() {
        b
    } else {
        a
    }
}

/// `f64::max` with the sign of a zero tie fixed (see [`least`]).
#[inline]
fn greatest(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else if b > a {
        b
    } else if a == b {
        // Equal: the same bits, or two zeros, where +0 wins (a clear sign bit survives the and).
        f64::from_bits(a.to_bits() & b.to_bits())
    } else if a.is_nan() {
        b
    } else {
        a
    }
}

binary_ops! {
    /// `a + b`
    Add => fn add(a, b) { a + b }
    /// `a − b` (also the margin of a comparison)
    Sub => fn sub(a, b) { a - b }
    /// `a · b`
    Mul => fn mul(a, b) { a * b }
    /// `a / b`
    Div => fn div(a, b) { a / b }
    /// `aᵇ` for an exponent known only at run time (a known one goes through [`pow_known`])
    Pow => fn pow(a, b) { a.powf(b) }
    /// `atan2(a, b)`, the angle of the point `(b, a)`
    Atan2 => fn atan2(a, b) { a.atan2(b) }
    /// `√(a² + b²)` without overflow
    Hypot => fn hypot(a, b) { a.hypot(b) }
    /// smaller of the two (a NaN operand is ignored, as `f64::min`; `−0` below `+0`)
    Min => fn min(a, b) { least(a, b) }
    /// larger of the two (a NaN operand is ignored, as `f64::max`; `+0` above `−0`)
    Max => fn max(a, b) { greatest(a, b) }
    /// `1` if `a < b` else `0`
    Lt => fn lt(a, b) { truth(a < b) }
    /// `1` if `a ≤ b` else `0`
    Le => fn le(a, b) { truth(a <= b) }
    /// `1` if `a > b` else `0`
    Gt => fn gt(a, b) { truth(a > b) }
    /// `1` if `a ≥ b` else `0`
    Ge => fn ge(a, b) { truth(a >= b) }
    /// `1` if `a = b` else `0`
    Eq => fn eq(a, b) { truth(a == b) }
    /// `1` if `a ≠ b` else `0`
    Ne => fn ne(a, b) { truth(a != b) }
}

impl BinOp {
    /// True when `a op b = b op a` bit for bit, so the builder may order the operands.
    pub fn commutes(self) -> bool {
        matches!(
            self,
            BinOp::Add | BinOp::Mul | BinOp::Min | BinOp::Max | BinOp::Eq | BinOp::Ne
        )
    }
}

/// A truth value as a number: `1` or `0`.
#[inline]
fn truth(c: bool) -> f64 {
    if c { 1.0 } else { 0.0 }
}

/// How `aᵉ` is computed once the exponent `e` is known: what the IR builder folds a
/// constant exponent into, and what generated code does with an exponent that becomes
/// known when params are bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PowRule {
    /// A whole exponent of magnitude at most 64: repeated multiplication.
    Powi(i32),
    /// `e = ½`: the square root.
    Sqrt,
    /// Any other exponent: `powf`.
    Powf,
}

/// The rule for a known exponent `e`.
pub fn pow_rule(e: f64) -> PowRule {
    if e == e.trunc() && e.abs() <= 64.0 {
        PowRule::Powi(e as i32)
    } else if e == 0.5 {
        PowRule::Sqrt
    } else {
        PowRule::Powf
    }
}

/// `aᵉ` for a known exponent, by [`pow_rule`].
#[inline]
pub fn pow_known(a: f64, e: f64) -> f64 {
    match pow_rule(e) {
        PowRule::Powi(n) => powi(a, n),
        PowRule::Sqrt => sqrt(a),
        PowRule::Powf => pow(a, e),
    }
}

/// `aⁿ`.
#[inline]
pub fn powi(a: f64, n: i32) -> f64 {
    a.powi(n)
}

/// `c ≠ 0 ? a : b`.
#[inline]
pub fn select(c: f64, a: f64, b: f64) -> f64 {
    if c != 0.0 { a } else { b }
}

/// Smallest pivot magnitude [`solve_in_place`] accepts; below it the matrix counts as
/// singular.
pub const SOLVE_MIN_PIVOT: f64 = 1e-300;

/// Solves `M·x = b` in place for the operation `Op::Solve` of the IR:
/// `a` holds `M` row-major (`n²` entries, destroyed), `x` holds `b` on entry and the
/// solution on return, `n = x.len()`.
///
/// Gaussian elimination with partial pivoting, in exactly this order (a back end must
/// emit the same operations to produce the same bits; no fused multiply-add):
/// for each column `k`, the pivot row `p` is the first row `i ≥ k` of largest `|a[i][k]|`
/// (a later row replaces it only when strictly larger); when that magnitude is NaN,
/// infinite or below [`SOLVE_MIN_PIVOT`], every `x[i]` becomes NaN and the solve ends.
/// Otherwise rows `k` and `p` of `a` and `x` swap, and for each `i > k`:
/// `l = a[i][k] / a[k][k]`, `a[i][j] = a[i][j] − l·a[k][j]` for `j > k` in order, and
/// `x[i] = x[i] − l·x[k]`. Back substitution for `i` from `n − 1` down to 0:
/// `s = x[i]`, `s = s − a[i][j]·x[j]` for `j > i` in order, `x[i] = s / a[i][i]`.
pub fn solve_in_place(a: &mut [f64], x: &mut [f64]) {
    let n = x.len();
    if a.len() != n * n {
        x.fill(f64::NAN);
        return;
    }
    for k in 0..n {
        let mut p = k;
        let mut best = a[k * n + k].abs();
        for i in k + 1..n {
            let v = a[i * n + k].abs();
            if v > best {
                best = v;
                p = i;
            }
        }
        if !(best >= SOLVE_MIN_PIVOT && best.is_finite()) {
            x.fill(f64::NAN);
            return;
        }
        if p != k {
            for j in 0..n {
                a.swap(k * n + j, p * n + j);
            }
            x.swap(k, p);
        }
        let d = a[k * n + k];
        for i in k + 1..n {
            let l = a[i * n + k] / d;
            for j in k + 1..n {
                a[i * n + j] -= l * a[k * n + j];
            }
            x[i] -= l * x[k];
        }
    }
    for i in (0..n).rev() {
        let mut s = x[i];
        for j in i + 1..n {
            s -= a[i * n + j] * x[j];
        }
        x[i] = s / a[i * n + i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_dispatches_to_its_own_function() {
        for op in UnOp::ALL {
            let x = 0.37;
            assert_eq!(op.apply(x).to_bits(), op.apply(x).to_bits(), "{op:?}");
        }
        assert_eq!(UnOp::Log.apply(std::f64::consts::E), 1.0);
        assert_eq!(UnOp::Log.name(), "log");
        assert_eq!(BinOp::Atan2.apply(1.0, 0.0), std::f64::consts::FRAC_PI_2);
        assert_eq!(BinOp::Le.apply(2.0, 2.0), 1.0);
        assert_eq!(BinOp::Ne.apply(f64::NAN, f64::NAN), 1.0);
        assert_eq!(BinOp::ALL.len(), 15);
    }

    #[test]
    fn min_and_max_order_signed_zeros_and_ignore_a_nan() {
        let (p, n) = (0.0f64, -0.0f64);
        for (a, b) in [(p, n), (n, p)] {
            assert_eq!(max(a, b).to_bits(), p.to_bits(), "max({a}, {b})");
            assert_eq!(min(a, b).to_bits(), n.to_bits(), "min({a}, {b})");
        }
        assert_eq!(max(n, n).to_bits(), n.to_bits());
        assert_eq!(min(p, p).to_bits(), p.to_bits());
        assert_eq!(max(f64::NAN, 2.0), 2.0);
        assert_eq!(max(2.0, f64::NAN), 2.0);
        assert_eq!(min(f64::NAN, -2.0), -2.0);
        assert!(max(f64::NAN, f64::NAN).is_nan());
        assert_eq!(max(-1.0, f64::NEG_INFINITY), -1.0);
        assert_eq!(min(3.0, 3.0), 3.0);
        assert_eq!(min(f64::INFINITY, 1e308), 1e308);
    }

    #[test]
    fn sign_keeps_signed_zero_and_nan() {
        assert_eq!(sign(-0.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(sign(0.0).to_bits(), 0.0f64.to_bits());
        assert!(sign(f64::NAN).is_nan());
        assert_eq!(sign(-3.0), -1.0);
    }

    #[test]
    fn known_exponents_follow_the_folding_rule() {
        assert_eq!(pow_rule(3.0), PowRule::Powi(3));
        assert_eq!(pow_rule(-64.0), PowRule::Powi(-64));
        assert_eq!(pow_rule(65.0), PowRule::Powf);
        assert_eq!(pow_rule(0.5), PowRule::Sqrt);
        assert_eq!(pow_rule(f64::NAN), PowRule::Powf);
        assert_eq!(pow_known(2.0, 10.0), 1024.0);
        assert_eq!(pow_known(9.0, 0.5), 3.0);
    }

    #[test]
    fn solve_pivots_and_matches_a_hand_solution() {
        // [[0, 2], [3, 1]]·x = [4, 5]: needs a row swap; x = (1, 2).
        let mut a = [0.0, 2.0, 3.0, 1.0];
        let mut x = [4.0, 5.0];
        solve_in_place(&mut a, &mut x);
        assert_eq!(x, [1.0, 2.0]);
        // A 3×3 with a known solution (1, −2, 3).
        let m = [2.0, 1.0, -1.0, -3.0, -1.0, 2.0, -2.0, 1.0, 2.0];
        let mut a = m;
        let mut x = [2.0 - 2.0 - 3.0, -3.0 + 2.0 + 6.0, -2.0 - 2.0 + 6.0];
        solve_in_place(&mut a, &mut x);
        for (got, want) in x.iter().zip([1.0, -2.0, 3.0]) {
            assert!((got - want).abs() < 1e-14, "{got} vs {want}");
        }
    }

    #[test]
    fn singular_or_non_finite_matrices_give_nan() {
        let mut a = [1.0, 1.0, 1.0, 1.0];
        let mut x = [1.0, 2.0];
        solve_in_place(&mut a, &mut x);
        assert!(x.iter().all(|v| v.is_nan()));
        let mut a = [1.0, f64::NAN, 0.0, 1.0];
        let mut x = [1.0, 2.0];
        solve_in_place(&mut a, &mut x);
        assert!(x.iter().all(|v| v.is_nan()));
        let mut a = [1.0, 2.0];
        let mut x = [1.0, 2.0];
        solve_in_place(&mut a, &mut x);
        assert!(x.iter().all(|v| v.is_nan()));
    }
}
