//! `physis derive`: the equations of motion of the bundled mechanics examples.

use std::process::Command;

fn physis(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_physis"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn example(name: &str) -> String {
    format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn dc_motor_equations_are_the_circuit_and_shaft_balances() {
    let (code, out, err) = physis(&["derive", &example("dc_motor.hph")]);
    assert_eq!(code, 0, "{err}");
    // L·q̈ = V − k·θ̇ − R·q̇ and J·θ̈ = k·q̇ − b·θ̇, with a diagonal mass matrix.
    for line in [
        "DcMotor: from its lagrangian",
        "M[q, q] = L",
        "M[θ, θ] = J",
        "q'' = (V − θ'·k − q'·R)/L",
        "θ'' = (q'·k − θ'·b)/J",
    ] {
        assert!(out.contains(line), "missing `{line}` in\n{out}");
    }
}

#[test]
fn cart_pendulum_has_a_coupled_mass_matrix_solved_at_run_time() {
    let (code, out, _) = physis(&[
        "derive",
        &example("cart_pendulum.hph"),
        "--sim",
        "CartPendulum",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("M[s, φ] = m·ℓ·cos(φ)"), "{out}");
    assert!(out.contains("solved at run time"), "{out}");
    let (code, tex, _) = physis(&["derive", &example("cart_pendulum.hph"), "--latex"]);
    assert_eq!(code, 0);
    assert!(
        tex.contains("\\begin{aligned}") && tex.contains("M_{s,\\phi }"),
        "{tex}"
    );
}

#[test]
fn a_model_without_mechanics_says_so_and_a_bad_one_is_a_diagnostic() {
    let (code, out, _) = physis(&["derive", &example("projectile.hph")]);
    assert_eq!(code, 0);
    assert!(out.contains("no lagrangian or hamiltonian"), "{out}");
    let dir = std::env::temp_dir().join(format!("physis-derive-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("unread.hph");
    std::fs::write(
        &path,
        "simulate S {
  state x : Length = 0 m
  state x' : Velocity = 1 m/s
  state y : Length = 0 m
  state y' : Velocity = 0 m/s
  lagrangian ≔ 0.5·1 kg·x'² − 0.5·1 kg/s²·y²
  integrate rk4 step 1 ms
  stop when t ≥ 1 s
}
",
    )
    .unwrap();
    let (code, _, err) = physis(&["derive", &path.display().to_string()]);
    assert_eq!(code, 1);
    assert!(
        err.contains("error[PH0115]") && err.contains(":6:16"),
        "{err}"
    );
}
