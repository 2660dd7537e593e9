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

/// A dirichlet field's rate read by a law: the held edge nodes have rate zero. The heat
/// equation's eigenmode u₀ = sin(πx) on N nodes with zero ends decays exactly as
/// e^{−αλt} under the 3-point laplacian, λ = (4/h²)·sin²(πh/2), so
/// Q(t) = mean(u(t)) − mean(u₀) = M₀·(e^{−αλt} − 1) with M₀ the mean of sin(πx_k) over every
/// node. Counting the edge nodes' law value (the mirrored stencil there is not zero) would
/// give a different Q.
#[test]
fn a_law_reads_the_rate_of_a_dirichlet_field() {
    let text = "simulate Rod {
  param α : Diffusivity = 0.01 m²/s
  grid (x) : Length[21] from 0 m to 1 m
  field u : Temperature = sin(π·x/(1 m))·1 K
  state Q : Temperature = 0 K
  boundary u dirichlet 0 K
  law u' = α·laplacian(u)
  law Q' = mean(u')
  integrate rk45 tolerance 1e-12
  observe average ≔ mean(u)
  stop when t ≥ 5 s
}
";
    let s = summary("held_rod.hph", text);
    let q = s["final"]["state"]["Q"].as_f64().unwrap();
    let average = s["final"]["observe"]["average"].as_f64().unwrap();
    let n = 21;
    let h = 1.0 / (n - 1) as f64;
    let pi = std::f64::consts::PI;
    let nodes = (0..n).map(|k| {
        if k == 0 || k == n - 1 {
            0.0
        } else {
            (pi * k as f64 * h).sin()
        }
    });
    let m0 = nodes.sum::<f64>() / n as f64;
    let lambda = 4.0 / (h * h) * (pi * h / 2.0).sin().powi(2);
    let decay = (-0.01 * lambda * 5.0).exp();
    let want = m0 * (decay - 1.0);
    assert!(
        (average - m0 * decay).abs() < 1e-9,
        "{average} vs {}",
        m0 * decay
    );
    assert!((q - want).abs() < 1e-9, "{q} vs {want}");
}

/// An array of vectors is reported as rows: the run's final state of `examples/pleiades.hph`
/// holds seven [x, y] pairs, the first equal to the observes x1 and y1, and a plot column
/// `q[0][1]` is star 1's y.
#[test]
fn arrays_of_vectors_are_reported_as_rows() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/pleiades.hph");
    let (code, out, err) = physis(&["run", example, "--summary"]);
    assert_eq!(code, 0, "{err}");
    let s: serde_json::Value = serde_json::from_str(&out).unwrap();
    let q = s["final"]["state"]["q"].as_array().unwrap();
    assert_eq!(q.len(), 7);
    assert!(q.iter().all(|row| row.as_array().unwrap().len() == 2));
    assert_eq!(q[0][0], s["final"]["observe"]["x1"]);
    assert_eq!(q[0][1], s["final"]["observe"]["y1"]);
    assert_eq!(q[6][1], s["final"]["observe"]["y7"]);
    let dir = std::env::temp_dir().join(format!("physis-reach-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("q.svg").display().to_string();
    let (code, _, err) = physis(&["plot", example, "--y", "q[0][1]", "-o", &svg]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = physis(&["plot", example, "--y", "q[7][0]", "-o", &svg]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("7 vector(s)"), "{err}");
}
