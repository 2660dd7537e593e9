//! A user module shared by two model files of one folder: the build step finds it beside them.

use physis_build::Builder;
use std::path::PathBuf;

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const MOTORS: &str = "// Shared motor relations.
module Motors {
  // Steady speed: ω = k·V/(k² + R·b).
  fn speed(k : TorqueConstant, V : Voltage, R : Resistance, b : RotationalDrag) ≔ k·V/(k² + R·b)
  // The drag coefficient of a bearing, a constant of the lab.
  const drag ≔ 0.001 N·m·s
}
";

fn model(name: &str) -> String {
    format!(
        "open Motors
simulate {name} {{
  param k : TorqueConstant = 0.05 N·m/A
  state ω : AngularVelocity = 0 rad/s
  law ω' = (speed(k, 12 V, 1 Ω, drag) − ω)/(1 s)
  integrate rk4 step 10 ms
  observe target ≔ Motors.speed(k, 12 V, 1 Ω, Motors.drag)
  stop when t ≥ 1 s
}}
"
    )
}

#[test]
fn two_models_share_a_module_file_beside_them() {
    let dir = std::env::temp_dir().join(format!("physis-build-modules-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let models = dir.join("models");
    std::fs::create_dir_all(&models).unwrap();
    let tmp = TempDir(dir.clone());
    std::fs::write(models.join("Motors.hph"), MOTORS).unwrap();
    std::fs::write(models.join("a.hph"), model("First")).unwrap();
    std::fs::write(models.join("b.hph"), model("Second")).unwrap();
    let out = Builder::new()
        .folder(&models)
        .out_dir(&tmp.0)
        .cargo_instructions(false)
        .compile()
        .unwrap();
    assert_eq!(out.models, ["First", "Second"]);
    let code = std::fs::read_to_string(&out.path).unwrap();
    assert!(code.contains("pub struct First {"), "{code}");
    assert!(code.contains("pub struct Second {"), "{code}");
    // The module's text is read again on each build: a broken module fails both models.
    std::fs::write(models.join("Motors.hph"), MOTORS.replace("k·V/", "k·V·R/")).unwrap();
    let err = Builder::new()
        .folder(&models)
        .out_dir(&tmp.0)
        .cargo_instructions(false)
        .compile()
        .unwrap_err();
    let shown = format!("{err:?}");
    assert!(shown.contains("PH0203"), "{shown}");
}
