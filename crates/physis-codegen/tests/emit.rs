//! What `emit` promises beyond the snapshots: ASCII names, one method per named run,
//! rustdoc naming the model line, readable errors.

use physis_codegen::{EmitError, emit};

const PROJECTILE: &str = "// header
simulate Projectile {
  param v₀ : Velocity = 30 m/s
  param α : Angle = 45 deg
  state x : Length[2] = [0 m, 0 m]
  state v : Velocity[2] = v₀·[cos(α), sin(α)]
  law x' = v
  law v' = [0 m/s², −g₀]
  integrate rk45 tolerance 1e-9
  observe height ≔ x[1]
  stop when x[1] < 0 m ∧ t > 0 s
  run Steep with α = 70 deg
  run Run with α = 10 deg
}
";

#[test]
fn names_are_ascii_and_docs_name_the_line() {
    let code = emit(PROJECTILE, "p.hph").unwrap();
    assert!(code.contains("pub v0: f64"), "{code}");
    assert!(code.contains("pub alpha: f64"));
    assert!(code.contains("pub x: [f64; 2]"));
    assert!(code.contains("pub height: Vec<f64>"));
    assert!(code.contains("pub fn steep(&self)"));
    // A named run called `Run` does not shadow `run()`.
    assert!(code.contains("pub fn run_2(&self)"));
    assert!(code.contains("`param v₀ : Velocity = 30 m/s` (line 3)"));
    assert!(code.contains("`run Steep with α = 70 deg` (line 12)"));
    assert!(code.contains("(p.hph line 2)"));
    assert!(code.contains("impl ::physis_runtime::Model for Projectile"));
    assert!(
        code.is_ascii() || code.contains('₀'),
        "only docs carry the model's spelling"
    );
    // The params are read at run time, never baked into the rate.
    assert!(code.contains("fn bind(p: &[f64; 2])"));
}

#[test]
fn a_model_with_errors_reports_rendered_diagnostics() {
    let err = emit("simulate S {\n  state x : Length = 1 m\n}\n", "s.hph").unwrap_err();
    let EmitError::Check {
        rendered, errors, ..
    } = &err
    else {
        panic!("{err:?}");
    };
    assert!(*errors >= 1);
    assert!(rendered.contains("s.hph:"), "{rendered}");
    assert!(rendered.contains("error[PH01"), "{rendered}");
}
