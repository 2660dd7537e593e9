//! The built-in schemes of `Physis.Schemes`, as [`SchemeDef`] recipes.
//!
//! The language's prelude states these same schemes in its own text; until that text is
//! lowered through [`crate::specialise`], these recipes are the reference and the tests'
//! subject. Each reads only `t`, `h`, `y`, `f` (or `x`, `v`, `a`; or `g`, `dW`).

use crate::scheme::{SExpr, SchemeDef};

/// Names of the built-in schemes.
pub const BUILTIN: [&str; 10] = [
    "euler",
    "midpoint",
    "heun",
    "rk4",
    "rk45",
    "verlet",
    "leapfrog",
    "backwardEuler",
    "crankNicolson",
    "eulerMaruyama",
];

/// A built-in scheme by name.
pub fn builtin(name: &str) -> Option<SchemeDef> {
    Some(match name {
        "euler" => euler(),
        "midpoint" => midpoint(),
        "heun" => heun(),
        "rk4" => rk4(),
        "rk45" => dormand_prince(),
        "verlet" => verlet(),
        "leapfrog" => leapfrog(),
        "backwardEuler" => backward_euler(),
        "crankNicolson" => crank_nicolson(),
        "eulerMaruyama" => euler_maruyama(),
        _ => return None,
    })
}

use SExpr::{H, T, Y};

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

/// `t + c·h` (`t + h` for `c = 1`, as the scheme text writes it).
fn t_at(c: f64) -> SExpr {
    if c == 1.0 { T + H } else { T + c * H }
}

/// Forward Euler: first order, stable radius 2.
pub fn euler() -> SchemeDef {
    let mut s = SchemeDef::new("euler").stable(2.0).order(1);
    s.bind("next", Y + H * SExpr::f(T, Y));
    s
}

/// The explicit midpoint rule: second order.
pub fn midpoint() -> SchemeDef {
    let mut s = SchemeDef::new("midpoint").stable(2.0).order(2);
    let k1 = s.bind("k1", SExpr::f(T, Y));
    let k2 = s.bind("k2", SExpr::f(T + H / 2.0, Y + H / 2.0 * k1));
    s.bind("next", Y + H * k2);
    s
}

/// Heun's method (the language design's example of a user scheme): second order.
pub fn heun() -> SchemeDef {
    let mut s = SchemeDef::new("heun").stable(2.0).order(2);
    let k1 = s.bind("k1", SExpr::f(T, Y));
    let k2 = s.bind("k2", SExpr::f(T + H, Y + H * k1.clone()));
    s.bind("next", Y + H / 2.0 * (k1 + k2));
    s
}

/// The classical Runge–Kutta method: fourth order, stable radius 2.78.
pub fn rk4() -> SchemeDef {
    let mut s = SchemeDef::new("rk4").stable(2.78).order(4);
    let k1 = s.bind("k1", SExpr::f(T, Y));
    let k2 = s.bind("k2", SExpr::f(T + H / 2.0, Y + H / 2.0 * k1.clone()));
    let k3 = s.bind("k3", SExpr::f(T + H / 2.0, Y + H / 2.0 * k2.clone()));
    let k4 = s.bind("k4", SExpr::f(T + H, Y + H * k3.clone()));
    s.bind("next", Y + H / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4));
    s
}

/// Dormand–Prince 5(4), adaptive, first same as last.
pub fn dormand_prince() -> SchemeDef {
    const C: [f64; 7] = [0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0];
    let a: [&[f64]; 6] = [
        &[1.0 / 5.0],
        &[3.0 / 40.0, 9.0 / 40.0],
        &[44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0],
        &[
            19372.0 / 6561.0,
            -25360.0 / 2187.0,
            64448.0 / 6561.0,
            -212.0 / 729.0,
        ],
        &[
            9017.0 / 3168.0,
            -355.0 / 33.0,
            46732.0 / 5247.0,
            49.0 / 176.0,
            -5103.0 / 18656.0,
        ],
        &[
            35.0 / 384.0,
            0.0,
            500.0 / 1113.0,
            125.0 / 192.0,
            -2187.0 / 6784.0,
            11.0 / 84.0,
        ],
    ];
    let e = [
        71.0 / 57600.0,
        0.0,
        -71.0 / 16695.0,
        71.0 / 1920.0,
        -17253.0 / 339200.0,
        22.0 / 525.0,
        -1.0 / 40.0,
    ];
    let mut s = SchemeDef::new("rk45").order(5);
    let mut ks = vec![s.bind("k1", SExpr::f(T, Y))];
    for (i, row) in a.iter().enumerate() {
        let k = s.bind(
            &format!("k{}", i + 2),
            SExpr::f(t_at(C[i + 1]), Y + H * comb(row, &ks)),
        );
        ks.push(k);
    }
    s.bind("next", Y + H * comb(a[5], &ks));
    s.bind("error", H * comb(&e, &ks));
    s.dense = Some(dormand_prince_dense(&ks));
    s
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
    H * comb(&DORMAND_PRINCE_DENSE, ks)
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

/// Velocity Verlet: second order, symplectic.
pub fn verlet() -> SchemeDef {
    use SExpr::{V, X};
    let mut s = SchemeDef::new("verlet").order(2);
    let a0 = s.bind("a0", SExpr::a(T, X));
    let nx = s.bind("nextX", X + H * V + H * H / 2.0 * a0.clone());
    let a1 = s.bind("a1", SExpr::a(T + H, nx));
    s.bind("nextV", V + H / 2.0 * (a0 + a1));
    s
}

/// Leapfrog in drift–kick–drift form: second order, symplectic.
pub fn leapfrog() -> SchemeDef {
    use SExpr::{V, X};
    let mut s = SchemeDef::new("leapfrog").order(2);
    let xm = s.bind("xm", X + H / 2.0 * V);
    let nv = s.bind("nextV", V + H * SExpr::a(T + H / 2.0, xm.clone()));
    s.bind("nextX", xm + H / 2.0 * nv);
    s
}

/// Backward Euler: implicit, first order, A-stable.
pub fn backward_euler() -> SchemeDef {
    let mut s = SchemeDef::new("backwardEuler").order(1);
    s.bind("next", Y + H * SExpr::f(T + H, SExpr::Next));
    s
}

/// Crank–Nicolson (the trapezoidal rule): implicit, second order, A-stable.
pub fn crank_nicolson() -> SchemeDef {
    let mut s = SchemeDef::new("crankNicolson").order(2);
    s.bind(
        "next",
        Y + H / 2.0 * (SExpr::f(T, Y) + SExpr::f(T + H, SExpr::Next)),
    );
    s
}

/// Euler–Maruyama: strong order ½ for laws with noise.
pub fn euler_maruyama() -> SchemeDef {
    let mut s = SchemeDef::new("eulerMaruyama").order(1);
    s.bind("next", Y + H * SExpr::f(T, Y) + SExpr::g(T, Y) * SExpr::Dw);
    s
}
