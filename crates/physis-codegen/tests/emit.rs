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

/// A 200×200 grid: 40,000 values per field, far too many for the stack.
const BIG_PLATE: &str = "simulate Plate {
  param D : Diffusivity = 1 m²/s
  grid (x, y) : Length[200, 200] from 0 m to 1 m
  field φ : Dimensionless = 0
  boundary φ dirichlet 0
  param q : Dimensionless = 10
  law φ' = D·(laplacian(φ) + q/0.01 m²·exp(−((x − 0.5 m)² + (y − 0.5 m)²)/0.01 m²))
  integrate backwardEuler step 10 ms
  observe centre ≔ φ[100, 100]
  observe total ≔ sum(φ)
  stop when t ≥ 1 s
}
";

#[test]
fn a_big_grid_lives_on_the_heap_and_keeps_its_sparse_jacobian() {
    let code = emit(BIG_PLATE, "plate.hph").unwrap();
    // Work buffers and hoisted values are boxed, allocated once per run.
    assert!(code.contains("b: Box<[f64; "), "work registers on the heap");
    assert!(code.contains("k: Box<[f64; "), "hoisted values on the heap");
    // No 40,000-element array is ever a value on the stack.
    for line in code.lines() {
        let on_stack = line.contains("[f64; 40000]")
            && !line.contains("Box<[f64; 40000]>")
            && !line.contains("&[f64; 40000]")
            && !line.contains("&mut [f64; 40000]");
        assert!(!on_stack, "stack array: {line}");
    }
    assert!(
        code.contains("pub phi: Vec<f64>"),
        "the typed state holds a Vec"
    );
    assert!(code.contains("::physis_runtime::kernels::stencil("));
    assert!(code.contains("::physis_runtime::JacobianLayout::Sparse"));
    assert!(code.contains("pub fn pattern()"));
    // Index tables are run-length encoded: the source stays small.
    assert!(code.len() < 200_000, "{} bytes", code.len());
}
