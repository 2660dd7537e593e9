//! Modules from the command line: the standard library in the manual's DC motor, a user module
//! shared by two model files, refusals of bad module files, and `physis doc`.

use crate::common;
use common::physis;
use std::path::PathBuf;

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("physis-cli-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, name: &str, text: &str) -> String {
        let p = self.0.join(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn summary(path: &str) -> serde_json::Value {
    let (code, out, err) = physis(&["run", path, "--summary"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("one JSON object")
}

/// The manual's DC motor states its settling speed with the standard library, and the run's
/// final speed equals it (60 s is 21 mechanical time constants: e⁻²¹ ≈ 8e-10).
#[test]
fn dc_motor_settles_at_the_speed_the_standard_library_states() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/dc_motor.hph"
    ))
    .unwrap();
    let text = text.replace(
        "  observe speed ≔ θ'\n",
        "  observe speed ≔ θ'\n  observe expected ≔ Physis.Electromechanics.motorSpeed(k, V, R, b)\n",
    );
    assert!(text.contains("observe expected"));
    let tmp = TempDir::new("dc");
    let path = tmp.write("dc_motor.hph", &text);
    let s = summary(&path);
    let speed = s["final"]["observe"]["speed"].as_f64().unwrap();
    let expected = s["final"]["observe"]["expected"].as_f64().unwrap();
    let closed = 0.05 * 12.0 / (0.05f64 * 0.05 + 1.0 * 0.001);
    assert!(
        (expected - closed).abs() < 1e-12 * closed,
        "{expected} vs {closed}"
    );
    assert!(
        (speed - expected).abs() < 1e-7 * expected,
        "{speed} vs {expected}"
    );
}

const MOTORS: &str = "// Shared motor relations.
module Motors {
  // Steady speed: ω = k·V/(k² + R·b).
  fn speed(k : TorqueConstant, V : Voltage, R : Resistance, b : RotationalDrag) ≔ k·V/(k² + R·b)
  // Any quantity, halved: a function without kinds is checked at each use.
  fn half(x) ≔ x/2
}
";

fn model(name: &str, k: &str) -> String {
    format!(
        "open Motors
simulate {name} {{
  param k : TorqueConstant = {k}
  state ω : AngularVelocity = 0 rad/s
  law ω' = (speed(k, 12 V, 1 Ω, 0.001 N·m·s) − ω)/(1 s)
  integrate rk4 step 10 ms
  observe target ≔ Motors.speed(k, 12 V, 1 Ω, 0.001 N·m·s)
  observe halfTime ≔ half(t)
  stop when t ≥ 20 s
}}
"
    )
}

#[test]
fn two_model_files_share_a_user_module() {
    let tmp = TempDir::new("shared");
    tmp.write("Motors.hph", MOTORS);
    let a = tmp.write("a.hph", &model("First", "0.05 N·m/A"));
    let b = tmp.write("b.hph", &model("Second", "0.1 N·m/A"));
    let (code, _, err) = physis(&["check", &a, &b]);
    assert_eq!(code, 0, "{err}");
    for (path, k) in [(&a, 0.05), (&b, 0.1)] {
        let s = summary(path);
        let closed = k * 12.0 / (k * k + 0.001);
        let target = s["final"]["observe"]["target"].as_f64().unwrap();
        assert!(
            (target - closed).abs() < 1e-12 * closed,
            "{target} vs {closed}"
        );
        assert_eq!(s["final"]["observe"]["halfTime"].as_f64().unwrap(), 10.0);
        // ω relaxes to the target with a 1 s time constant: after 20 s it is e⁻²⁰ away.
        let omega = s["final"]["state"]["ω"].as_f64().unwrap();
        assert!(
            (omega - closed).abs() < 1e-8 * closed,
            "{omega} vs {closed}"
        );
    }
}

#[test]
fn bad_module_files_are_refused_where_they_are_opened() {
    let tmp = TempDir::new("bad");
    // A dimension error inside the module file.
    tmp.write(
        "Broken.hph",
        "module Broken {\n  fn f(x : Length) ≔ x + 1 s\n}\n",
    );
    // Module files that open each other.
    tmp.write("Ping.hph", "open Pong\nmodule Ping {\n  fn f(x) ≔ x\n}\n");
    tmp.write("Pong.hph", "open Ping\nmodule Pong {\n  fn g(x) ≔ x\n}\n");
    // A file that does not declare the module it is named after.
    tmp.write("Empty.hph", "module Other {\n  fn f(x) ≔ x\n}\n");
    let body = "simulate S {\n  state y : Length = 0 m\n  law y' = 1 m/s\n  stop when t ≥ 1 s\n}\n";
    for (module, says) in [
        ("Broken", "Broken.hph:2:"),
        ("Ping", "cycle: Ping → Pong → Ping"),
        ("Empty", "declares no module `Empty`"),
    ] {
        let path = tmp.write("m.hph", &format!("open {module}\n{body}"));
        let (code, _, err) = physis(&["check", &path]);
        assert_eq!(code, 1, "{module}: {err}");
        assert!(err.contains("error[PH0231]"), "{module}: {err}");
        assert!(err.contains(says), "{module}: {err}");
    }
    // No file at all: the open is a warning and a call through it an error.
    let path = tmp.write("m.hph", &format!("open Missing\n{body}"));
    let (code, _, err) = physis(&["check", &path]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("warning[PH0211]"), "{err}");
    let path = tmp.write(
        "m.hph",
        &body.replace("law y' = 1 m/s", "law y' = Missing.f(1 m/s)"),
    );
    let (code, _, err) = physis(&["check", &path]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("error[PH0211]"), "{err}");
}

/// A third of a turn about (1, 1, 1), q = (1 + i + j + k)/2, takes x to y, y to z and z to x.
#[test]
fn rotate_by_a_quaternion_in_a_run() {
    let tmp = TempDir::new("rotate");
    let path = tmp.write(
        "spin.hph",
        "open Physis.Mechanics
simulate Spin {
  param q : Dimensionless[4] = [0.5, 0.5, 0.5, 0.5]
  state s : Length = 0 m
  law s' = 1 m/s
  observe a ≔ rotate(q, [1 m, 2 m, 3 m])[0]
  observe b ≔ rotate(q, [1 m, 2 m, 3 m])[1]
  observe c ≔ rotate(q, [1 m, 2 m, 3 m])[2]
  stop when t ≥ 1 s
}
",
    );
    let s = summary(&path);
    let o = &s["final"]["observe"];
    for (name, want) in [("a", 3.0), ("b", 1.0), ("c", 2.0)] {
        let got = o[name].as_f64().unwrap();
        assert!((got - want).abs() < 1e-15, "{name}: {got}");
    }
}

#[test]
fn doc_prints_a_standard_module() {
    let (code, out, err) = physis(&["doc", "Physis.Electromechanics"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("fn motorSpeed(k : TorqueConstant"), "{out}");
    assert!(out.contains("fn rlcDampingRatio("), "{out}");
    let (code, out, _) = physis(&["doc"]);
    assert_eq!(code, 0);
    assert!(out.contains("Physis.Thermal"), "{out}");
    let (code, _, err) = physis(&["doc", "Physis.Nothing"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown module"), "{err}");
}
