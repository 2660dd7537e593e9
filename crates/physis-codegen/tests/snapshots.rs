//! The generated source of small models, reviewed once and kept: a change in what the
//! generator emits shows up here as a diff.

const DECAY: &str = "// Exponential decay under a scheme of our own.
scheme heun stable 2 {
  k₁ ≔ f(t, y)
  k₂ ≔ f(t + h, y + h·k₁)
  next ≔ y + h/2·(k₁ + k₂)
}

simulate Decay {
  param λ : Frequency = 0.5 Hz
  state n : Dimensionless = 1
  law n' = −λ·n
  integrate heun step 10 ms
  observe remaining ≔ n
  stop when n < 0.01 ∨ t ≥ 20 s
}
";

const BALL: &str = "simulate BouncingBall {
  param e : Dimensionless = 0.8
  state y : Length = 10 m
  state y' : Velocity = 0 m/s
  law y'' = −g₀
  on y < 0 m ∧ y' < 0 m/s do y' ≔ −e·y'
  integrate backwardEuler step 1 ms
  observe height ≔ y
  stop when t ≥ 6 s
  run Elastic with e = 1
}
";

// A 3×30 plate: its fields (90 nodes) go to the heap buffers and the Jacobian is sparse.
const STRIP: &str = "simulate Strip {
  param D : Diffusivity = 1 m²/s
  grid (x, y) : Length[3, 30] from 0 m to 1 m
  field u : Temperature = 1 K
  boundary u dirichlet 0 K
  law u' = D·laplacian(u)
  integrate backwardEuler step 10 ms
  observe total ≔ sum(u)
  stop when t ≥ 1 s
}
";

#[test]
fn a_strip_over_a_grid() {
    let code = physis_codegen::emit(STRIP, "strip.hph").unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn decay_under_a_user_scheme() {
    let code = physis_codegen::emit(DECAY, "decay.hph").unwrap();
    insta::assert_snapshot!(code);
}

/// A two-stage SDIRK written in the file: one residual and Jacobian per stage, then
/// `stage_finish`.
const SDIRK_DECAY: &str = "scheme sdirk2 {
  γ ≔ 1 − 1/√2
  k₁ ≔ f(t + γ·h, y + γ·h·k₁)
  k₂ ≔ f(t + h, y + h·((1 − γ)·k₁ + γ·k₂))
  next ≔ y + h·((1 − γ)·k₁ + γ·k₂)
}
simulate StagedDecay {
  param λ : Frequency = 3 Hz
  state n : Dimensionless = 1
  law n' = −λ·n·n
  integrate sdirk2 step 10 ms
  observe count ≔ n
  stop when t ≥ 1 s
}
";

#[test]
fn decay_under_implicit_stages() {
    let code = physis_codegen::emit(SDIRK_DECAY, "staged.hph").unwrap();
    insta::assert_snapshot!(code);
}

#[test]
fn bouncing_ball_under_an_implicit_scheme() {
    let code = physis_codegen::emit(BALL, "ball.hph").unwrap();
    insta::assert_snapshot!(code);
}

/// Every type emitted for a simulation is the simulation's name or that name with one of
/// the suffixes PH0111 keeps apart (so two simulations of one file never emit one type).
#[test]
fn emitted_types_are_the_ones_ph0111_keeps_apart() {
    for (src, base) in [(DECAY, "Decay"), (BALL, "BouncingBall"), (STRIP, "Strip")] {
        let code = physis_codegen::emit(src, "m.hph").unwrap();
        let types: Vec<&str> = code
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("pub struct "))
            .filter_map(|l| l.split(|c: char| !c.is_alphanumeric()).next())
            .collect();
        assert!(types.contains(&base), "{base}: {types:?}");
        for ty in types {
            let rest = ty.strip_prefix(base).unwrap_or_else(|| panic!("{ty}"));
            assert!(
                rest.is_empty() || physis_check::GENERATED_SUFFIXES.contains(&rest),
                "{ty} is not covered by PH0111"
            );
        }
    }
}
