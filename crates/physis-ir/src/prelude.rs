//! The built-in schemes of `Physis.Schemes` as [`SchemeDef`]s, lowered from the prelude's
//! text (`physis_check::prelude`, the one place a built-in scheme is written), and the two
//! facts that text cannot state: the continuous extension of `rk45`, and that `bdf` is
//! stepped by the runtime's variable-order BDF.

use crate::scheme::{SExpr, SchemeDef};

/// A built-in scheme by name, lowered from the prelude's text.
pub fn builtin(name: &str) -> Option<SchemeDef> {
    let checked = physis_check::prelude::scheme(name)?;
    crate::lower::scheme_def(checked).ok()
}

/// `Σ cᵢ·kᵢ`, skipping zero coefficients.
fn comb(cs: &[f64], ks: &[SExpr]) -> SExpr {
    let mut acc: Option<SExpr> = None;
    for (c, k) in cs.iter().zip(ks) {
        if *c == 0.0 {
            continue;
        }
        let term = *c * k.clone();
        acc = Some(match acc {
            None => term,
            Some(a) => a + term,
        });
    }
    acc.unwrap_or(SExpr::Num(0.0))
}

/// Shampine's continuous extension of Dormand–Prince 5(4) (the `dense output` of Hairer's
/// DOPRI5 and of SciPy's `RK45`, whose `P` matrix is the same interpolant written in
/// powers of `θ`), as the `d` of `q = h·Σ dᵢ·kᵢ`: the interpolant is the cubic Hermite of
/// the step's ends plus `θ²(1−θ)²·q`, fourth order, for free (no stage beyond `k₇`).
pub const DORMAND_PRINCE_DENSE: [f64; 7] = [
    -12715105075.0 / 11282082432.0,
    0.0,
    87487479700.0 / 32700410799.0,
    -10690763975.0 / 1880347072.0,
    701980252875.0 / 199316789632.0,
    -1453857185.0 / 822651844.0,
    69997945.0 / 29380423.0,
];

/// `q = h·Σ dᵢ·kᵢ` over the seven stages `k₁ … k₇` (`k₇ = f(t + h, next)`).
fn dormand_prince_dense(ks: &[SExpr]) -> SExpr {
    SExpr::H * comb(&DORMAND_PRINCE_DENSE, ks)
}

/// The continuous extension of a built-in scheme lowered from the prelude's text (see
/// [`SchemeDef::dense`]), over its bindings found by name: Dormand–Prince's for `rk45`
/// (stages `k₁ … k₇`), none for the others, which are interpolated by cubic Hermite.
pub fn continuous_extension(def: &SchemeDef) -> Option<SExpr> {
    if def.name != "rk45" {
        return None;
    }
    const NAMES: [[&str; 2]; 7] = [
        ["k₁", "k1"],
        ["k₂", "k2"],
        ["k₃", "k3"],
        ["k₄", "k4"],
        ["k₅", "k5"],
        ["k₆", "k6"],
        ["k₇", "k7"],
    ];
    let ks = NAMES
        .iter()
        .map(|names| {
            def.bindings
                .iter()
                .position(|b| names.contains(&b.name.as_str()))
                .map(SExpr::Var)
        })
        .collect::<Option<Vec<_>>>()?;
    Some(dormand_prince_dense(&ks))
}

/// The name of the built-in variable-order BDF in the prelude.
pub const BDF: &str = "bdf";

/// True for the built-in `bdf` (a built-in scheme lowered from the prelude's text, see
/// [`SchemeDef::bdf`]): its text is backward Euler, the implicit solve every BDF step makes,
/// and its history (orders 1–5, the step and order control, dense output) is run state the
/// runtime keeps (`physis_runtime`'s `driver/bdf.rs`), which a scheme's text cannot hold.
pub fn is_bdf(def: &SchemeDef) -> bool {
    def.name == BDF
}
