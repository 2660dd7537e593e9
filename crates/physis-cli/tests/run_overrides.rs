//! `--scheme`, `--step`, `--tolerance` and `--record` in place of the model's own settings,
//! checked as the model text would be, and measured against the recursions the schemes
//! define (closed forms of Euler's and RK4's amplification on y' = −k·y).

use crate::common;
use common::physis;

const DECAY: &str = "simulate Decay {
  param k : Frequency = 2 Hz
  state y : Length = 1 m
  law y' = −k·y
  integrate rk45 tolerance 1e-10
  stop when t ≥ 1 s
}
";

const NOISY: &str = "simulate Noisy {
  state y : Length = 1 m
  noise w
  law y' = −y/(1 s) + 0.1 m/s·w
  integrate eulerMaruyama step 1 ms
  stop when t ≥ 1 s
}
";

fn file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("physis-overrides-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn final_y(args: &[&str]) -> (f64, serde_json::Value) {
    let path = file("decay.hph", DECAY);
    let mut all = vec!["run", path.as_str(), "--summary"];
    all.extend_from_slice(args);
    let (code, out, err) = physis(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    let s: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    let y = s["final"]["state"]["y"].as_f64().expect("y in the summary");
    (y, s)
}

#[test]
fn a_scheme_from_the_command_line_runs_its_own_recursion() {
    // Euler at h = 1/8 multiplies by 1 − kh = 3/4 each step, exactly in binary.
    let (y, _) = final_y(&["--scheme", "euler", "--step", "125 ms"]);
    assert_eq!(y, 0.75f64.powi(8));
    // The same step as a plain number of seconds.
    let (plain, _) = final_y(&["--scheme", "euler", "--step", "0.125"]);
    assert_eq!(plain, y);
    // RK4's amplification is the degree-4 Taylor polynomial of e^z at z = −kh.
    let z: f64 = -0.25;
    let r = 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0;
    let (y4, _) = final_y(&["--scheme", "rk4", "--step", "0.125"]);
    assert!((y4 - r.powi(8)).abs() < 1e-15, "{y4} vs {}", r.powi(8));
    // The model's own adaptive scheme reaches e^{−2}; a looser tolerance from the command line
    // moves it further off, within that tolerance.
    let (tight, _) = final_y(&[]);
    assert!((tight - (-2f64).exp()).abs() < 1e-9, "{tight}");
    let (loose, _) = final_y(&["--tolerance", "1e-4"]);
    assert!((loose - (-2f64).exp()).abs() < 1e-3, "{loose}");
    assert_ne!(loose, tight);
}

#[test]
fn the_record_grid_comes_from_the_command_line() {
    let path = file("decay_record.hph", DECAY);
    let (code, out, err) = physis(&["run", &path, "--record", "0.25"]);
    assert_eq!(code, 0, "{err}");
    let times: Vec<f64> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    for want in [0.0, 0.25, 0.5, 0.75, 1.0] {
        assert!(
            times.iter().any(|t| (t - want).abs() < 1e-12),
            "{want} missing from {times:?}"
        );
    }
    let (code, same, _) = physis(&["run", &path, "--record", "250 ms"]);
    assert_eq!(code, 0);
    assert_eq!(same, out);
}

#[test]
fn overrides_are_checked_as_the_text_would_be() {
    let path = file("decay_bad.hph", DECAY);
    let (code, _, err) = physis(&["run", &path, "--scheme", "nosuch"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("error[PH0107]: scheme `nosuch` is not in scope"),
        "{err}"
    );
    assert!(err.contains("asked for in place of `rk45`"), "{err}");
    let (code, _, err) = physis(&["run", &path, "--scheme", "euler"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error[PH0103]"), "{err}");
    assert!(err.contains("--step"), "{err}");
    let (code, _, err) = physis(&["run", &path, "--scheme", "eulerMaruyama", "--step", "1 ms"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("stochastic scheme, and the model has no noise"),
        "{err}"
    );
    let noisy = file("noisy.hph", NOISY);
    let (code, _, err) = physis(&["run", &noisy, "--scheme", "rk4", "--summary"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("not a stochastic scheme"), "{err}");
    for (flag, bad) in [
        ("--step", "-1"),
        ("--step", "0"),
        ("--step", "2 m"),
        ("--step", "inf"),
        ("--record", "0 s"),
        ("--record", "NaN"),
        ("--record", "1 kg"),
    ] {
        let arg = format!("{flag}={bad}");
        let (code, out, err) = physis(&["run", &path, &arg]);
        assert_eq!(code, 2, "{flag} {bad}: {err}");
        assert!(out.is_empty());
        assert!(err.contains(flag), "{flag} {bad}: {err}");
    }
}

#[test]
fn a_simulation_without_an_integrate_clause_takes_the_scheme_too() {
    let text = DECAY.replace("  integrate rk45 tolerance 1e-10\n", "");
    let path = file("decay_default.hph", &text);
    let mut all = vec!["run", path.as_str(), "--summary"];
    all.extend(["--scheme", "euler", "--step", "0.125"]);
    let (code, out, err) = physis(&all);
    assert_eq!(code, 0, "{err}");
    let s: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(s["final"]["state"]["y"].as_f64(), Some(0.75f64.powi(8)));
    let (code, _, err) = physis(&["run", &path, "--scheme", "rk4"]);
    assert_eq!(code, 1);
    assert!(err.contains("error[PH0103]"), "{err}");
}
