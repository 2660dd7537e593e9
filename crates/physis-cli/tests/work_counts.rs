//! Issue 19 deliverable 4: `physis run --summary` reports rejected steps and rate
//! evaluations beside accepted steps, so work-precision can be compared with SciPy's `nfev`.
//! The counts are derived by hand from what each scheme evaluates (docs/oracle.md, "Work
//! counts"); the generated `Run` carries the same `Stats` (examples/rust-api's differential
//! test demands equal counts from both back ends).

use std::process::Command;

fn summary(file: &str, body: &str) -> serde_json::Value {
    let dir = std::env::temp_dir().join(format!("physis-work-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(file);
    std::fs::write(&path, body).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_physis"))
        .args(["run", "--summary"])
        .arg(&path)
        .output()
        .expect("physis runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn oscillator(integrate: &str, end: &str) -> String {
    format!(
        "simulate Oscillator {{
  state x : Length = 1 m
  state v : Velocity = 0 m/s
  law x' = v
  law v' = −(1 Hz)²·x
  integrate {integrate}
  stop when t ≥ {end}
}}
"
    )
}

fn count(v: &serde_json::Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("`{key}` missing: {v}"))
}

#[test]
fn fixed_step_rk4_evaluates_the_rate_four_times_a_step() {
    // One evaluation at the start (k₁ of the first step); each step evaluates k₂, k₃, k₄
    // and the rate at its end, which is the next step's k₁: 1 + 4·steps.
    let v = summary("rk4.hph", &oscillator("rk4 step 100 ms", "1 s"));
    let steps = count(&v, "steps");
    assert_eq!(steps, 10);
    assert_eq!(count(&v, "rejected"), 0);
    assert_eq!(count(&v, "evaluations"), 1 + 4 * steps, "{v}");
    // Euler: the start, then the rate at each step's end: 1 + steps.
    let v = summary("euler.hph", &oscillator("euler step 100 ms", "1 s"));
    assert_eq!(count(&v, "evaluations"), 1 + count(&v, "steps"), "{v}");
}

#[test]
fn rk45_counts_every_attempt_like_scipy_nfev() {
    // Dormand–Prince is first-same-as-last: 6 new evaluations per attempt, accepted or
    // rejected, plus one at the start and one for the initial step estimate — SciPy's
    // RK45 counts the same way (nfev = 2 + 6·attempts). Both land on a time-only stop
    // with a shortened last step, so nothing more is evaluated there (measured: 230 for 38
    // steps, none rejected).
    let v = summary("rk45.hph", &oscillator("rk45 tolerance 1e-6", "10 s"));
    let (steps, rejected, evals) = (
        count(&v, "steps"),
        count(&v, "rejected"),
        count(&v, "evaluations"),
    );
    let attempts = steps + rejected;
    assert_eq!(evals, 2 + 6 * attempts, "{v}");
    // SciPy 1.17.1, solve_ivp(RK45, rtol = atol = 1e-6) on the same problem over
    // [0, 10 s]: nfev 230, 38 steps, none rejected. A loose check: the controllers differ
    // in their safety factors and error norms.
    let scipy_nfev = 230.0;
    let ratio = evals as f64 / scipy_nfev;
    assert!(
        (0.5..2.0).contains(&ratio),
        "{evals} evaluations vs SciPy's 230"
    );
}
