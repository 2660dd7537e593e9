//! Indexed sums, array params and per-index laws against independent truths: the Pleiades
//! example against SciPy (`refs/make_sums_refs.py`, output committed in `refs/sums.json`), an
//! N-body cluster's energy, closed-form series, and a linear relaxation with a closed-form
//! solution under an implicit scheme (whose Newton iteration needs the Jacobian of the sums).

use std::path::PathBuf;

use physis_oracle::front::{Outcome, run_text};
use physis_runtime::{ReasonKind, RunOptions};
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(text: &str) -> Outcome {
    let out = run_text(text, None, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        out.end.reason.kind,
        ReasonKind::When,
        "{:?}",
        out.end.reason
    );
    out
}

fn numbers(v: &Value) -> Vec<f64> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect()
}

/// The Pleiades problem written per axis, as separate `x` and `y` arrays (the form before
/// arrays of vectors).
const PLEIADES_AXES: &str = r"// The Pleiades problem (Hairer, Nørsett & Wanner, Solving ODEs I, §II.10): seven stars of
// masses 1..7 in a plane under mutual gravity (G = 1), over 3 s. One per-index law per
// coordinate sums the pull of every other star; x and y are separate arrays (a vector of
// positions per star would need a 7×2 shape).
simulate Pleiades {
  param m : Dimensionless[7] = [1, 2, 3, 4, 5, 6, 7]
  state x : Dimensionless[7] = [3, 3, −1, −3, 2, −2, 2]
  state y : Dimensionless[7] = [3, −3, 2, 0, 0, −4, 4]
  state x' : Frequency[7] = [0 Hz, 0 Hz, 0 Hz, 0 Hz, 0 Hz, 1.75 Hz, −1.5 Hz]
  state y' : Frequency[7] = [0 Hz, 0 Hz, 0 Hz, −1.25 Hz, 1 Hz, 0 Hz, 0 Hz]
  law x[i]'' = Σ j in 0..7, j ≠ i: m[j]·(x[j] − x[i])/hypot(x[j] − x[i], y[j] − y[i])³·1 Hz²
  law y[i]'' = Σ j in 0..7, j ≠ i: m[j]·(y[j] − y[i])/hypot(x[j] − x[i], y[j] − y[i])³·1 Hz²
  integrate rk45 tolerance 1e-9
  observe x1 ≔ x[0]
  observe y1 ≔ y[0]
  observe x7 ≔ x[6]
  observe y7 ≔ y[6]
  observe energy ≔ Σ i in 0..7: m[i]·(x'[i]² + y'[i]²)/(2 Hz²) − (Σ j in 0..i: m[i]·m[j]/hypot(x[j] − x[i], y[j] − y[i]))
  stop when t ≥ 3 s
}
";

/// The largest error of the seven final positions of a Pleiades model against SciPy: `text`
/// with its tolerance replaced by `tolerance`, observing `position(k)` (x and y of star k).
#[allow(clippy::print_stderr)] // the measured error is reported
fn pleiades_error(
    text: &str,
    tolerance: &str,
    position: &dyn Fn(usize) -> (String, String),
) -> (f64, Outcome) {
    let observes: String = (0..7)
        .map(|k| {
            let (x, y) = position(k);
            format!("  observe px{k} ≔ {x}\n  observe py{k} ≔ {y}\n")
        })
        .collect();
    let text = text
        .replace("integrate rk45 tolerance 1e-9", tolerance)
        .replace("  stop when", &format!("{observes}  stop when"));
    let out = run(&text);
    let refs: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("refs/sums.json")).expect("refs/sums.json"),
    )
    .unwrap();
    let (x, y) = (
        numbers(&refs["pleiades"]["x"]),
        numbers(&refs["pleiades"]["y"]),
    );
    // The models' own observes come first: x1, y1, x7, y7, energy.
    let ours = &out.end.observe[5..];
    let mut worst: f64 = 0.0;
    for k in 0..7 {
        worst = worst
            .max((ours[2 * k] - x[k]).abs())
            .max((ours[2 * k + 1] - y[k]).abs());
    }
    let spread = refs["pleiades"]["dop853_radau_difference"]
        .as_f64()
        .unwrap();
    eprintln!(
        "Pleiades at t = 3: largest position error {worst:.3e} (SciPy DOP853/Radau differ by {spread:.1e})"
    );
    assert_eq!(
        (out.end.observe[0], out.end.observe[2]),
        (ours[0], ours[12])
    );
    (worst, out)
}

/// `examples/pleiades.hph` in the issue's form: an array of seven 2-vectors and one law
/// `q[i]'' = Σ j in 0..7, j ≠ i: G·m[j]·(q[j] − q[i])/norm(q[j] − q[i])³`.
#[test]
fn pleiades_with_arrays_of_vectors_matches_scipy() {
    let text = std::fs::read_to_string(root().join("../../examples/pleiades.hph")).unwrap();
    let (worst, out) = pleiades_error(
        &text,
        "integrate rk45 tolerance 1e-12 abs Length 1e-12 m abs Velocity 1e-12 m/s",
        &|k| (format!("q[{k}][0]"), format!("q[{k}, 1]")),
    );
    assert!(worst < 1e-8, "largest position error {worst:e}");
    // The energy is conserved to the tolerance (−(Σ pairs) + kinetic, G = 1).
    let first = run_text(
        &text.replace("t ≥ 3 s", "t ≥ 0 s"),
        None,
        &RunOptions::default(),
    )
    .unwrap();
    let (e0, e1) = (first.end.observe[4], out.end.observe[4]);
    assert!((e1 - e0).abs() < 1e-9 * e0.abs(), "{e0} → {e1}");
}

#[test]
fn pleiades_per_axis_matches_scipy() {
    let (worst, _) = pleiades_error(
        PLEIADES_AXES,
        "integrate rk45 tolerance 1e-12 abs Dimensionless 1e-12 abs Frequency 1e-12 Hz",
        &|k| (format!("x[{k}]"), format!("y[{k}]")),
    );
    assert!(worst < 1e-8, "largest position error {worst:e}");
}

/// A cluster of 12 stars in 3-D, each pair counted once in the energy by a triangular sum,
/// written per axis (separate x, y, z arrays) or, with `vectors`, as an array of 3-vectors;
/// its energy at the start equals the energy summed pair by pair in plain Rust, and is
/// conserved to the tolerance.
#[allow(clippy::print_stderr)] // the measured drift is reported
fn cluster_conserves_energy(vectors: bool) {
    let n = 12;
    let list = |f: &dyn Fn(usize) -> f64, unit: &str| {
        (0..n)
            .map(|i| format!("{:.6} {unit}", f(i)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let rows = |f: [&dyn Fn(usize) -> f64; 3], unit: &str| {
        (0..n)
            .map(|i| {
                format!(
                    "[{:.6} {unit}, {:.6} {unit}, {:.6} {unit}]",
                    f[0](i),
                    f[1](i),
                    f[2](i)
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    // A deterministic scatter: points on a twisted ring, velocities roughly circular.
    let angle = |i: usize| i as f64 * 2.399_963;
    let radius = |i: usize| 1.0 + 0.3 * ((i * 7) % 5) as f64;
    let px = |i: usize| radius(i) * angle(i).cos();
    let py = |i: usize| radius(i) * angle(i).sin();
    let pz = |i: usize| 0.2 * ((i % 3) as f64 - 1.0);
    let vx = |i: usize| -0.8 * angle(i).sin();
    let vy = |i: usize| 0.8 * angle(i).cos();
    let vz = |i: usize| 0.05 * ((i % 2) as f64 - 0.5);
    let m = list(&|i| 0.5 + 0.1 * (i % 4) as f64, "kg");
    let text = if vectors {
        format!(
            "simulate Cluster {{
  param m : Mass[{n}] = [{m}]
  state q : Length[{n}][3] = [{q}]
  state q' : Velocity[{n}][3] = [{v}]
  let G ≔ 1 m³/kg/s²
  law q[i]'' = Σ j in 0..{n}, j ≠ i: G·m[j]·(q[j] − q[i])/norm(q[j] − q[i])³
  integrate rk45 tolerance 1e-11
  observe kinetic ≔ Σ i in 0..{n}: m[i]·dot(q'[i], q'[i])/2
  observe potential ≔ −(Σ i in 1..{n}: Σ j in 0..i: G·m[i]·m[j]/norm(q[j] − q[i]))
  stop when t ≥ 2 s
}}",
            q = rows([&px, &py, &pz], "m"),
            v = rows([&vx, &vy, &vz], "m/s"),
        )
    } else {
        format!(
            "simulate Cluster {{
  param m : Mass[{n}] = [{m}]
  param G : Dimensionless = 1
  state x : Length[{n}] = [{x}]
  state y : Length[{n}] = [{y}]
  state z : Length[{n}] = [{z}]
  state x' : Velocity[{n}] = [{vx}]
  state y' : Velocity[{n}] = [{vy}]
  state z' : Velocity[{n}] = [{vz}]
  law x[i]'' = Σ j in 0..{n}, j ≠ i: G·m[j]·(x[j] − x[i])/((x[j] − x[i])² + (y[j] − y[i])² + (z[j] − z[i])²)^(3/2)·1 m³/kg/s²
  law y[i]'' = Σ j in 0..{n}, j ≠ i: G·m[j]·(y[j] − y[i])/((x[j] − x[i])² + (y[j] − y[i])² + (z[j] − z[i])²)^(3/2)·1 m³/kg/s²
  law z[i]'' = Σ j in 0..{n}, j ≠ i: G·m[j]·(z[j] − z[i])/((x[j] − x[i])² + (y[j] − y[i])² + (z[j] − z[i])²)^(3/2)·1 m³/kg/s²
  integrate rk45 tolerance 1e-11
  observe kinetic ≔ Σ i in 0..{n}: m[i]·(x'[i]² + y'[i]² + z'[i]²)/2
  observe potential ≔ −(Σ i in 1..{n}: Σ j in 0..i: G·m[i]·m[j]/sqrt((x[j] − x[i])² + (y[j] − y[i])² + (z[j] − z[i])²))·1 m³/kg/s²
  stop when t ≥ 2 s
}}",
            x = list(&px, "m"),
            y = list(&py, "m"),
            z = list(&pz, "m"),
            vx = list(&vx, "m/s"),
            vy = list(&vy, "m/s"),
            vz = list(&vz, "m/s"),
        )
    };
    let options = RunOptions::default();
    let first = run_text(&text.replace("t ≥ 2 s", "t ≥ 0 s"), None, &options)
        .unwrap_or_else(|e| panic!("{e}"));
    let out = run(&text);
    let energy_of = |o: &[f64]| o[0] + o[1];
    let (e0, e1) = (energy_of(&first.end.observe), energy_of(&out.end.observe));
    // The same energy written out pair by pair, from the initial data, in plain Rust.
    let pos = |i: usize| [px(i), py(i), pz(i)];
    let mass = |i: usize| 0.5 + 0.1 * (i % 4) as f64;
    let round = |v: f64| format!("{v:.6}").parse::<f64>().unwrap();
    let mut energy = 0.0;
    for i in 0..n {
        let v2 = round(vx(i)).powi(2) + round(vy(i)).powi(2) + round(vz(i)).powi(2);
        energy += round(mass(i)) * v2 / 2.0;
        for j in 0..i {
            let (a, b) = (pos(i).map(round), pos(j).map(round));
            let r = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
            energy -= round(mass(i)) * round(mass(j)) / r;
        }
    }
    eprintln!(
        "cluster of {n} (vectors: {vectors}): energy {e0:.12} (by hand {energy:.12}), after 2 s {e1:.12}"
    );
    assert!(
        (e0 - energy).abs() < 1e-12 * energy.abs(),
        "{e0} vs {energy}"
    );
    assert!(
        (e1 - e0).abs() < 1e-7 * e0.abs(),
        "energy drift {:e}",
        (e1 - e0) / e0
    );
}

#[test]
fn cluster_per_axis_conserves_energy() {
    cluster_conserves_energy(false);
}

#[test]
fn cluster_of_vectors_conserves_energy() {
    cluster_conserves_energy(true);
}

/// Sums with known values: Σ k, Σ k², a telescoping series, a triangular double sum, a
/// filtered sum and a slice.
#[test]
fn closed_form_sums() {
    let out = run("simulate Series {
  param a : Dimensionless[5] = [1, 2, 3, 4, 5]
  state u : Dimensionless = 0
  law u' = 0 Hz
  observe s1 ≔ Σ k in 1..101: k
  observe s2 ≔ sum k in 1..101: k^2
  observe s3 ≔ Σ k in 1..1001: 1/(k·(k + 1))
  observe s4 ≔ Σ i in 0..10: Σ j in 0..i: 1
  observe s5 ≔ Σ k in 0..20, k != 3 and k < 10: 1
  observe s6 ≔ sum(a[1..4])
  observe s7 ≔ Σ i in 0..5: Σ j in 0..5, j ≠ i: a[i]·a[j]
  stop when t ≥ 1 s
}");
    let o = &out.end.observe;
    assert_eq!(o[0], 5050.0);
    assert_eq!(o[1], 338_350.0);
    assert!((o[2] - (1.0 - 1.0 / 1001.0)).abs() < 1e-15, "{}", o[2]);
    assert_eq!(o[3], 45.0);
    assert_eq!(o[4], 9.0);
    assert_eq!(o[5], 9.0);
    // (Σ a)² − Σ a² = 225 − 55.
    assert_eq!(o[6], 170.0);
}

/// u_i' = k·(mean(u) − u_i) with the mean written as a sum: the mean stays, each deviation
/// decays as e^(−k·t). Under esdirk43 every stage solves a Newton system with the symbolic
/// Jacobian of the expanded sum.
#[test]
fn relaxation_under_an_implicit_scheme_matches_the_closed_form() {
    let out = run("simulate Relax {
  param k : Frequency = 2 Hz
  state u : Dimensionless[4] = [1, 2, 4, 9]
  law u[i]' = k·((Σ j in 0..4: u[j])/4 − u[i])
  integrate esdirk43 tolerance 1e-10
  observe u0 ≔ u[0]
  observe u3 ≔ u[3]
  stop when t ≥ 1 s
}");
    let decay = (-2.0f64).exp();
    let want = [4.0 + (1.0 - 4.0) * decay, 4.0 + (9.0 - 4.0) * decay];
    for (got, want) in out.end.observe.iter().zip(want) {
        assert!((got - want).abs() < 1e-7, "{got} vs {want}");
    }
}

/// A free chain of three equal masses joined by two springs, moved by a lagrangian written
/// with sums, so the symbolic layer differentiates the expanded sums. Started in the
/// antisymmetric mode q = [a, 0, −a], the ends move as a·cos(√(k/m)·t) and the middle rests.
#[test]
fn chain_lagrangian_with_sums_moves_in_its_mode() {
    let out = run("simulate Chain {
  param m : Mass = 1 kg
  param k : Stiffness = 4 N/m
  state q : Length[3] = [1 cm, 0 cm, −1 cm]
  state q' : Velocity[3] = [0 m/s, 0 m/s, 0 m/s]
  lagrangian ≔ (Σ i in 0..3: m·q'[i]²/2) − (Σ i in 0..2: k·(q[i + 1] − q[i])²/2)
  integrate rk45 tolerance 1e-11
  observe left ≔ q[0]
  observe middle ≔ q[1]
  observe right ≔ q[2]
  stop when t ≥ 1 s
}");
    let want = 0.01 * 2.0f64.cos();
    let o = &out.end.observe;
    assert!((o[0] - want).abs() < 1e-10, "{} vs {want}", o[0]);
    assert!(o[1].abs() < 1e-10, "{}", o[1]);
    assert!((o[2] + want).abs() < 1e-10, "{} vs {}", o[2], -want);
}
