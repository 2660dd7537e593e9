//! Language forms beyond the manual (`let`, laws that read rates) run end to end and agree
//! with closed forms.

use crate::common;
use common::physis;

fn file(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("physis-reach-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

fn summary(name: &str, text: &str) -> serde_json::Value {
    let path = file(name, text);
    let (code, out, err) = physis(&["run", &path, "--summary"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("one JSON object")
}

/// A circular orbit written with `let`: after one period 2π·√(r³/GM) the body is back where
/// it started, and the observe reading the local is the radius throughout.
#[test]
fn a_local_name_is_read_by_laws_observes_and_stops() {
    let text = "simulate Orbit {
  param GM : Dimensionless = 1
  state q : Length[2] = [1 m, 0 m]
  state q' : Velocity[2] = [0 m/s, 1 m/s]
  let r ≔ norm(q)
  let pull ≔ GM·(1 m³/s²)/r³
  law q'' = −pull·q
  observe radius ≔ r
  integrate rk45 tolerance 1e-12
  stop when t ≥ 6.283185307179586 s ∨ r > 2 m
}
";
    let s = summary("orbit.hph", text);
    let q = s["final"]["state"]["q"].as_array().unwrap();
    let (x, y) = (q[0].as_f64().unwrap(), q[1].as_f64().unwrap());
    assert!((x - 1.0).abs() < 1e-8 && y.abs() < 1e-8, "({x}, {y})");
    let radius = s["final"]["observe"]["radius"].as_f64().unwrap();
    assert!((radius - 1.0).abs() < 1e-9, "{radius}");
    assert_eq!(s["reason"]["kind"], "when");
}

/// `u' = −k·u`, `Q' = 2·u' + v'`, `v' = −u'/2`: Q(t) = 1.5·(u(t) − u₀) with u(t) = e^{−kt},
/// whatever order the laws are written in.
#[test]
fn a_law_reads_the_rates_of_other_laws() {
    let text = "simulate Chain {
  param k : Frequency = 2 Hz
  state u : Length = 1 m
  state Q : Length = 0 m
  state v : Length = 0 m
  law Q' = 2·u' + v'
  law u' = −k·u
  law v' = −u'/2
  integrate rk45 tolerance 1e-12
  stop when t ≥ 1 s
}
";
    let s = summary("chain.hph", text);
    let q = s["final"]["state"]["Q"].as_f64().unwrap();
    let u = s["final"]["state"]["u"].as_f64().unwrap();
    let exact_u = (-2f64).exp();
    assert!((u - exact_u).abs() < 1e-10, "{u}");
    assert!((q - 1.5 * (exact_u - 1.0)).abs() < 1e-10, "{q}");
}

/// A periodic field's mean rate is the heating `s` (the laplacian sums to zero around the
/// ring), and backward Euler integrates a linear law step by step, so Q ends at
/// mean(u) − mean(u₀) = s·t.
#[test]
fn a_law_reads_the_rate_of_a_field() {
    let text = "simulate Rod {
  param α : Diffusivity = 0.01 m²/s
  param s : HeatingRate = 1 K/s
  grid (x) : Length[20] from 0 m to 1 m
  field u : Temperature = 0 K
  state Q : Temperature = 0 K
  boundary u periodic
  law u' = α·laplacian(u) + s·(1 + sin(τ·x/(1 m)))
  law Q' = mean(u')
  integrate backwardEuler step 1 s
  observe average ≔ mean(u)
  stop when t ≥ 20 s
}
";
    let s = summary("rod.hph", text);
    let q = s["final"]["state"]["Q"].as_f64().unwrap();
    let average = s["final"]["observe"]["average"].as_f64().unwrap();
    assert!((average - 20.0).abs() < 1e-9, "{average}");
    assert!((q - average).abs() < 1e-9, "{q} vs {average}");
}
