//! The oracle's matrix exponential against closed forms, before anything trusts it.

use crate::common;

use common::{max_diff, property, rng};
use physis_oracle::discrete::power;
use physis_oracle::expm::{Matrix, expm};
use rand::RngExt;

fn matrix(n: usize, data: &[f64]) -> Matrix {
    Matrix {
        n,
        data: data.to_vec(),
    }
}

#[test]
fn rotation_generator_gives_cosines_and_sines() {
    for w in [0.1, 1.0, 3.7, 25.0] {
        let t = 1.3;
        let e = expm(&matrix(2, &[0.0, w * t, -w * t, 0.0]));
        let (c, s) = ((w * t).cos(), (w * t).sin());
        assert!(
            max_diff(&e.data, &[c, s, -s, c]) < 1e-13 * (1.0 + w * t),
            "ω = {w}: {:?}",
            e.data
        );
    }
}

#[test]
fn a_jordan_block_gives_its_polynomial_times_the_exponential() {
    for l in [-2.0, -0.3, 0.0, 0.7] {
        let e = expm(&matrix(3, &[l, 1.0, 0.0, 0.0, l, 1.0, 0.0, 0.0, l]));
        let x = f64::exp(l);
        let want = [x, x, x / 2.0, 0.0, x, x, 0.0, 0.0, x];
        assert!(
            max_diff(&e.data, &want) < 1e-14 * 3.0,
            "λ = {l}: {:?}",
            e.data
        );
    }
}

#[test]
fn a_damped_oscillator_gives_its_closed_form() {
    // x'' = −2ζω x' − ω² x, underdamped: x(t) = e^{−ζωt}(cos ω_d t + ζω/ω_d sin ω_d t).
    let (w, z, t) = (2.0, 0.1, 3.0);
    let e = expm(&matrix(2, &[0.0, t, -w * w * t, -2.0 * z * w * t]));
    let wd = w * (1.0 - z * z).sqrt();
    let x = (-z * w * t).exp() * ((wd * t).cos() + z * w / wd * (wd * t).sin());
    assert!((e.get(0, 0) - x).abs() < 1e-14, "{} vs {x}", e.get(0, 0));
}

#[test]
fn random_matrices_agree_with_a_long_taylor_series_and_the_group_law() {
    property("expm_taylor", 50, true, |seed| {
        let mut r = rng(seed);
        let n = r.random_range(1..=6usize);
        let a = Matrix {
            n,
            data: (0..n * n).map(|_| r.random_range(-1.0..1.0)).collect(),
        };
        // Taylor to 60 terms at ‖A‖∞ ≤ 6 in 8 steps of A/8: far below rounding.
        let small = a.scaled(0.125);
        let (mut sum, mut term) = (Matrix::identity(n), Matrix::identity(n));
        for k in 1..60 {
            term = term.mul(&small).scaled(1.0 / f64::from(k));
            sum = sum.plus(1.0, &term);
        }
        let taylor = power(&sum, 8);
        let e = expm(&a);
        let err = max_diff(&e.data, &taylor.data);
        let size = taylor.data.iter().fold(1.0f64, |m, x| m.max(x.abs()));
        if err > 1e-13 * size {
            return Err(format!("expm off a Taylor series by {err:e}"));
        }
        // e^{A}·e^{−A} = I.
        let id = e.mul(&expm(&a.scaled(-1.0)));
        let err = max_diff(&id.data, &Matrix::identity(n).data);
        if err > 1e-12 * size * size {
            return Err(format!("e^A·e^-A off I by {err:e}"));
        }
        Ok(())
    });
}
