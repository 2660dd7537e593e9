//! The stability of an explicit scheme read from its own text: applied to `y' = λ·y` with
//! `y = 1` and `h = 1`, every state-shaped value of the body is a polynomial in `z = h·λ`,
//! and `next` is the scheme's amplification `R(z)`. Its stability radius is the largest `r`
//! with `|R(−x)| ≤ 1` for every `x` in `[0, r]` (the negative real axis the driver's check
//! compares `ρ(J)·h` with).
//!
//! Only first-order explicit schemes have one here: an implicit scheme's `R` is rational,
//! and a second-order scheme's is a matrix. Noise terms (`g(t, y)·dW`) drop out: the
//! radius is that of the drift. A body that is not polynomial in `y` (a state under a
//! square root, divided by a state) has no radius derived.

use crate::eval;
use crate::ir::{BinOp, UnOp};
use crate::scheme::{Role, SExpr, SchemeDef};

/// Highest degree followed; beyond it the scheme is not treated as polynomial.
const MAX_DEGREE: usize = 64;
/// Scan step along the negative real axis, then bisection.
const SCAN_STEP: f64 = 1e-3;
/// How far along the axis the scan goes before calling the scheme unbounded there.
const SCAN_END: f64 = 1e3;
/// Slack on `|R| ≤ 1` for rounding (`R(−2) = −1` for forward Euler).
const SLACK: f64 = 1e-12;

/// A value of the body on the test equation.
#[derive(Clone, Debug)]
enum PVal {
    /// A number (`t`, `h`, constants).
    Scalar(f64),
    /// A state: coefficients of `1, z, z², …`.
    Poly(Vec<f64>),
}

/// The amplification polynomial's coefficients (constant first), if the scheme is a
/// first-order explicit one whose `next` is polynomial in the state.
pub fn amplification(def: &SchemeDef) -> Option<Vec<f64>> {
    if def.is_implicit() || def.is_second_order() {
        return None;
    }
    let mut vars: Vec<PVal> = Vec::with_capacity(def.bindings.len());
    let mut next = None;
    for b in &def.bindings {
        let v = eval_expr(&b.value, &vars)?;
        if b.role == Role::Next {
            next = Some(v.clone());
        }
        vars.push(v);
    }
    match next? {
        PVal::Poly(p) => Some(trim(p)),
        PVal::Scalar(_) => None,
    }
}

/// The stability radius of the scheme's own text on the negative real axis, if it has an
/// amplification polynomial and that polynomial leaves the unit disc there.
pub fn derived_radius(def: &SchemeDef) -> Option<f64> {
    radius_of(&amplification(def)?)
}

/// First `x > 0` at which `|R(−x)|` exceeds one, to about `1e-12` relative.
pub fn radius_of(coeffs: &[f64]) -> Option<f64> {
    let r = |x: f64| {
        coeffs
            .iter()
            .rev()
            .fold(0.0f64, |acc, c| acc.mul_add(-x, *c))
            .abs()
    };
    let unstable = |x: f64| r(x).is_nan() || r(x) > 1.0 + SLACK;
    let steps = (SCAN_END / SCAN_STEP) as u64;
    let mut lo = 0.0;
    for k in 1..=steps {
        let x = k as f64 * SCAN_STEP;
        if unstable(x) {
            let mut hi = x;
            for _ in 0..64 {
                let mid = 0.5 * (lo + hi);
                if unstable(mid) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            return (lo > 0.0).then_some(lo);
        }
        lo = x;
    }
    None
}

fn trim(mut p: Vec<f64>) -> Vec<f64> {
    while p.len() > 1 && p.last() == Some(&0.0) {
        p.pop();
    }
    p
}

fn poly(v: PVal) -> Vec<f64> {
    match v {
        PVal::Scalar(s) => vec![s],
        PVal::Poly(p) => p,
    }
}

fn add(a: &[f64], b: &[f64], sign: f64) -> Vec<f64> {
    let mut out = vec![0.0; a.len().max(b.len())];
    for (i, o) in out.iter_mut().enumerate() {
        *o = a.get(i).copied().unwrap_or(0.0) + sign * b.get(i).copied().unwrap_or(0.0);
    }
    out
}

fn mul(a: &[f64], b: &[f64]) -> Option<Vec<f64>> {
    if a.len() + b.len() > MAX_DEGREE + 2 {
        return None;
    }
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    Some(out)
}

fn eval_expr(e: &SExpr, vars: &[PVal]) -> Option<PVal> {
    use PVal::{Poly, Scalar};
    Some(match e {
        SExpr::T => Scalar(0.0),
        SExpr::H => Scalar(1.0),
        SExpr::Y => Poly(vec![1.0]),
        SExpr::Num(v) => Scalar(*v),
        SExpr::Var(i) => vars.get(*i)?.clone(),
        // The drift's radius: the noise term vanishes.
        SExpr::Dw => Scalar(0.0),
        SExpr::G(..) => Poly(vec![0.0]),
        // On y' = λ·y with h = 1, `J·v` is `z·v` (z = h·λ) and `∂f/∂t` is zero.
        SExpr::J => Poly(vec![0.0, 1.0]),
        SExpr::Ft => Poly(vec![0.0]),
        SExpr::X | SExpr::V | SExpr::A(..) | SExpr::Next => return None,
        SExpr::F(t, y) => {
            eval_expr(t, vars)?;
            let mut p = vec![0.0];
            p.extend(poly(eval_expr(y, vars)?));
            if p.len() > MAX_DEGREE + 1 {
                return None;
            }
            Poly(p)
        }
        SExpr::Unary(op, a) => match (op, eval_expr(a, vars)?) {
            (_, Scalar(x)) => Scalar(eval::unary(*op, x)),
            (UnOp::Neg, Poly(p)) => Poly(p.iter().map(|c| -c).collect()),
            _ => return None,
        },
        SExpr::Binary(op, a, b) => {
            let (a, b) = (eval_expr(a, vars)?, eval_expr(b, vars)?);
            match (op, a, b) {
                (_, Scalar(x), Scalar(y)) => Scalar(eval::binary(*op, x, y)),
                (BinOp::Add, a, b) => Poly(add(&poly(a), &poly(b), 1.0)),
                (BinOp::Sub, a, b) => Poly(add(&poly(a), &poly(b), -1.0)),
                (BinOp::Mul, a, b) => Poly(mul(&poly(a), &poly(b))?),
                (BinOp::Div, Poly(p), Scalar(s)) if s != 0.0 => {
                    Poly(p.iter().map(|c| c / s).collect())
                }
                (BinOp::Pow, Poly(p), Scalar(n))
                    if n.fract() == 0.0 && (0.0..=8.0).contains(&n) =>
                {
                    let mut out = vec![1.0];
                    for _ in 0..n as u32 {
                        out = mul(&out, &p)?;
                    }
                    Poly(out)
                }
                _ => return None,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prelude;

    fn radius(name: &str) -> f64 {
        derived_radius(&prelude::builtin(name).unwrap_or_else(heun)).unwrap()
    }

    /// Heun's method, a user scheme (not built in), from its text.
    fn heun() -> SchemeDef {
        let checked = physis_check::check_source(
            "scheme heun {\n  k₁ ≔ f(t, y)\n  next ≔ y + h/2·(k₁ + f(t + h, y + h·k₁))\n}\n",
        );
        assert!(!checked.has_errors(), "{:#?}", checked.diagnostics);
        crate::lower::scheme_def(checked.program.scheme("heun").unwrap()).unwrap()
    }

    #[test]
    fn built_in_radii_match_their_closed_forms() {
        // Euler, midpoint, Heun: |1 − x (+ x²/2)| = 1 at x = 2.
        for s in ["euler", "midpoint", "heun", "eulerMaruyama"] {
            assert!((radius(s) - 2.0).abs() < 1e-9, "{s}: {}", radius(s));
        }
        // rk4: 1 − x + x²/2 − x³/6 + x⁴/24 = 1 at x = 2.785293563405282 (the real root of
        // x³ − 4x² + 12x − 24 = 0, written out here by Cardano's formula).
        let root = {
            // Depressed cubic: x = u + 4/3, u³ + p·u + q = 0, p = 12 − 16/3,
            // q = −24 + 16 − 128/27.
            let p: f64 = 12.0 - 16.0 / 3.0;
            let q = -24.0 + 16.0 - 128.0 / 27.0;
            let d = (q * q / 4.0 + p * p * p / 27.0).sqrt();
            (-q / 2.0 + d).cbrt() + (-q / 2.0 - d).cbrt() + 4.0 / 3.0
        };
        assert!(
            (radius("rk4") - root).abs() < 1e-9,
            "{} vs {root}",
            radius("rk4")
        );
        assert!((root - 2.785_293_563_405_282).abs() < 1e-12);
        // The built-in declarations never overclaim.
        for s in ["euler", "midpoint", "rk4"] {
            let def = prelude::builtin(s).unwrap();
            assert!(def.stable.unwrap() <= radius(s) * (1.0 + 1e-9), "{s}");
        }
    }

    #[test]
    fn dormand_prince_fifth_order_solution_has_its_known_interval() {
        // R(z) = Σ_{k≤5} z^k/k! + z⁶/600 for Dormand–Prince's 5th-order solution.
        let amp = amplification(&prelude::builtin("rk45").unwrap()).unwrap();
        let want = [
            1.0,
            1.0,
            0.5,
            1.0 / 6.0,
            1.0 / 24.0,
            1.0 / 120.0,
            1.0 / 600.0,
        ];
        assert_eq!(amp.len(), want.len(), "{amp:?}");
        for (a, w) in amp.iter().zip(want) {
            assert!((a - w).abs() < 1e-13, "{amp:?}");
        }
    }

    #[test]
    fn implicit_and_second_order_schemes_have_no_polynomial() {
        for s in ["backwardEuler", "crankNicolson", "verlet", "leapfrog"] {
            assert!(
                amplification(&prelude::builtin(s).unwrap()).is_none(),
                "{s}"
            );
        }
    }
}
