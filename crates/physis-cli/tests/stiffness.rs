//! A problem that becomes stiff along the run ends as `unstable` with a hint naming a stiff
//! scheme; a problem that stays non-stiff is never flagged. Through the `physis` binary.

use crate::common;

use common::physis;

/// Writes `text` to a fresh file in the temporary directory and returns its path.
fn model_file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("physis-stiffness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("model written");
    path.to_string_lossy().into_owned()
}

/// Robertson's reactions (Hairer & Wanner, Solving ODEs II, §IV.1): the Jacobian's spectral
/// radius is 0.04 /s at the start and some 10⁴ /s once `b` has built up.
const ROBERTSON: &str = "simulate Robertson {
  param k₁ : Frequency = 0.04 Hz
  param k₂ : Frequency = 3e7 Hz
  param k₃ : Frequency = 1e4 Hz
  state a : Dimensionless = 1
  state b : Dimensionless = 0
  state c : Dimensionless = 0
  law a' = −k₁·a + k₃·b·c
  law b' = k₁·a − k₃·b·c − k₂·b²
  law c' = k₂·b²
  integrate rk4 step 10 ms
  stop when t ≥ 100 s
}
";

#[test]
fn robertson_with_rk4_at_10_ms_ends_unstable_with_a_hint() {
    let path = model_file("robertson.hph", ROBERTSON);
    let (code, out, err) = physis(&["run", &path, "--summary"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""kind":"unstable""#), "{out}");
    assert!(
        out.contains(r#""clause":"integrate rk4 step 10 ms""#),
        "{out}"
    );
    assert!(err.contains("note: the run ended as `unstable`"), "{err}");
    assert!(
        err.contains("hint:") && err.contains("backwardEuler") && err.contains("crankNicolson"),
        "{err}"
    );
    // Not at the start, where the step is well inside the radius: along the run.
    let t: f64 = out
        .split(r#""final":{"t":"#)
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.0);
    assert!(t > 0.0 && t < 100.0, "{out}");
    // The same model with an implicit scheme runs to its stop.
    let implicit = ROBERTSON.replace("rk4 step 10 ms", "backwardEuler step 10 ms");
    let path = model_file("robertson_implicit.hph", &implicit);
    let (code, out, err) = physis(&["run", &path, "--summary"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""kind":"when""#), "{out}");
}

#[test]
fn a_harmonic_oscillator_under_rk4_is_never_flagged() {
    // ω·h = 0.1·… well inside rk4's radius, for 10⁵ steps: every check along the run passes.
    let text = "simulate Oscillator {
  param ω : Frequency = 10 Hz
  state x : Length = 1 m
  state v : Velocity = 0 m/s
  law x' = v
  law v' = −ω²·x
  integrate rk4 step 1 ms
  stop when t ≥ 100 s
}
";
    let path = model_file("oscillator.hph", text);
    let (code, out, err) = physis(&["run", &path, "--summary"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""kind":"when""#), "{out}");
    assert!(out.contains(r#""steps":100000"#), "{out}");
    // Near the radius (ω·h = 2.7 < 2.78 on the real axis, 2.83 on the imaginary one): still
    // stable, still not flagged.
    let near = text.replace("step 1 ms", "step 270 ms");
    let path = model_file("oscillator_near.hph", &near);
    let (code, out, err) = physis(&["run", &path, "--summary"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""kind":"when""#), "{out}");
}

#[test]
fn a_blow_up_of_the_solution_itself_stays_diverged() {
    // y' = y²·1 Hz from 1 blows up at t = 1 s: the Jacobian 2y grows along a growing mode,
    // which is the problem's own blow-up, not the scheme's instability, even when the
    // stretch before the non-finite step is replayed finer.
    let text = "simulate Blow {
  state y : Dimensionless = 1
  law y' = y²·1 Hz
  integrate rk4 step 10 ms
  stop when t ≥ 2 s
}
";
    let path = model_file("blow.hph", text);
    let (code, out, err) = physis(&["run", &path, "--summary"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(r#""kind":"diverged""#), "{out}");
    assert!(!err.contains("hint:"), "{err}");
}
