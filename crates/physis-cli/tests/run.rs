//! `physis run` as a user meets it: samples, summaries, scenarios, overrides and refusals.

use crate::common;
use common::physis;

fn summary(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["run", "examples/projectile.hph", "--summary"];
    all.extend_from_slice(args);
    let (code, out, err) = physis(&all);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("one JSON object")
}

/// Flight time of a projectile with linear drag k from the ground at speed v, angle a:
/// y(t) = (v sin a + g/k)(1 − e^{−kt})/k − g t/k, solved by Newton from the drag-free time.
fn ground_time(v: f64, a: f64, k: f64) -> f64 {
    let g = 9.80665;
    let vy = v * a.sin();
    let mut t = 2.0 * vy / g;
    for _ in 0..50 {
        let y = (vy + g / k) * (1.0 - (-k * t).exp()) / k - g * t / k;
        let dy = (vy + g / k) * (-k * t).exp() - g / k;
        t -= y / dy;
    }
    t
}

#[test]
fn summary_has_the_documented_shape_and_the_closed_form_time() {
    let s = summary(&[]);
    assert_eq!(s["simulation"], "Projectile");
    assert!(s["run"].is_null());
    assert_eq!(s["reason"]["kind"], "when");
    assert_eq!(s["reason"]["clause"], "x[1] < 0 m ∧ t > 0 s");
    assert_eq!(s["reason"]["line"], 14);
    let t = s["final"]["t"].as_f64().unwrap();
    let expected = ground_time(30.0, 45f64.to_radians(), 0.1);
    assert!((t - expected).abs() < 1e-6, "{t} vs {expected}");
    assert!(s["final"]["observe"]["height"].as_f64().unwrap().abs() < 1e-9);
    assert_eq!(s["final"]["state"]["x"].as_array().unwrap().len(), 2);
}

#[test]
fn scenarios_and_overrides_change_the_run() {
    let steep = summary(&["--run", "Steep"]);
    assert_eq!(steep["run"], "Steep");
    let t = steep["final"]["t"].as_f64().unwrap();
    assert!((t - ground_time(30.0, 70f64.to_radians(), 0.1)).abs() < 1e-6);
    let fast = summary(&["--set", "v0=50 m/s"]);
    let t = fast["final"]["t"].as_f64().unwrap();
    assert!((t - ground_time(50.0, 45f64.to_radians(), 0.1)).abs() < 1e-6);
    let kmh = summary(&["--set", "v₀=180 km/h"]);
    assert_eq!(kmh["final"]["t"], fast["final"]["t"]);
}

#[test]
fn csv_has_time_then_observes_and_is_deterministic() {
    let (code, out, _) = physis(&["run", "examples/projectile.hph"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().next(), Some("t,height,speed"));
    assert!(out.lines().count() > 400);
    let (_, again, _) = physis(&["run", "examples/projectile.hph"]);
    assert_eq!(out, again);
    let (code, json, _) = physis(&["run", "examples/projectile.hph", "--format", "json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v.as_array().unwrap().len(), out.lines().count() - 1);
}

#[test]
fn bad_requests_are_refused_with_reasons() {
    let (code, _, err) = physis(&["run", "examples/projectile.hph", "--set", "v0=50 s"]);
    assert_eq!(code, 2);
    assert!(err.contains("Velocity"), "{err}");
    let (code, _, err) = physis(&["run", "examples/projectile.hph", "--set", "nope=1"]);
    assert_eq!(code, 2);
    assert!(err.contains("no param `nope`"), "{err}");
    let (code, _, err) = physis(&["run", "examples/projectile.hph", "--run", "Nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("Steep"), "{err}");
    let (code, _, _) = physis(&["run", "examples/missing.hph"]);
    assert_eq!(code, 2);
    let (code, _, _) = physis(&["run", "examples/projectile.hph", "--step", "-1 s"]);
    assert_eq!(code, 2);
}

#[test]
fn check_reports_what_only_the_derivation_sees() {
    let dir = std::env::temp_dir().join(format!("physis-check-derive-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("unread.hph");
    std::fs::write(
        &file,
        "simulate Loose {\n  param m : Mass = 1 kg\n  state q : Length = 0 m\n  state q' : Velocity = 0 m/s\n  state r : Length = 0 m\n  state r' : Velocity = 1 m/s\n  lagrangian := 0.5*m*q'^2\n  integrate rk4 step 1 ms\n  stop when t >= 1 s\n}\n",
    )
    .unwrap();
    let (code, _, err) = physis(&["check", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("error[PH0115]"), "{err}");
    let (code, _, err) = physis(&[
        "check",
        "examples/cart_pendulum.hph",
        "examples/dc_motor.hph",
    ]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn greek_params_take_the_ascii_names_of_the_generated_api() {
    // `α` is `alpha` in generated Rust; the CLI accepts both spellings, same run.
    let run = |extra: &[&str]| {
        let mut all = vec!["run", "examples/heated_rod.hph", "--summary"];
        all.extend_from_slice(extra);
        let (code, out, err) = physis(&all);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str::<serde_json::Value>(&out).expect("one JSON object")
    };
    let greek = run(&["--set", "α=0.02 m^2/s"]);
    let ascii = run(&["--set", "alpha=0.02 m^2/s"]);
    assert_eq!(greek["final"], ascii["final"]);
    assert_ne!(greek["final"], run(&[])["final"]);
    let (code, _, err) = physis(&["run", "examples/heated_rod.hph", "--set", "alfa=1 m^2/s"]);
    assert_eq!(code, 2);
    assert!(err.contains("no param `alfa`"), "{err}");
}

/// `--jit` compiles before the first step, `--no-jit` never, and the default waits until the
/// run has done as much work as compiling costs: a projectile's few hundred steps never do.
/// All three land on the same bits (the closed-form check above holds for each).
#[test]
fn the_summary_says_which_back_end_ran_and_each_gives_the_same_bits() {
    let tiered = summary(&[]);
    let native = summary(&["--jit"]);
    let tape = summary(&["--no-jit"]);
    assert_eq!(
        tiered["backend"], "interpreter (run too short to compile)",
        "{tiered}"
    );
    assert_eq!(tape["backend"], "interpreter", "{tape}");
    let text = native["backend"].as_str().unwrap();
    assert!(text.starts_with("jit: rate"), "{text}");
    assert!(text.contains("step") && text.contains("compile"), "{text}");
    for s in [&native, &tape] {
        assert_eq!(s["final"], tiered["final"]);
        assert_eq!(s["steps"], tiered["steps"]);
    }
    let (code, _, err) = physis(&["run", "examples/projectile.hph", "--jit", "--no-jit"]);
    assert_ne!(code, 0, "both flags accepted: {err}");
}
