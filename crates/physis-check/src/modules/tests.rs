use super::*;

#[test]
fn the_standard_library_checks_clean() {
    let (modules, diags) = standard_with_diagnostics();
    assert!(diags.is_empty(), "{diags:#?}");
    let names: Vec<&str> = modules.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Physis.Electromechanics",
            "Physis.Mechanics",
            "Physis.Thermal"
        ]
    );
    for m in &modules {
        for f in &m.functions {
            assert!(f.doc.is_some(), "{} has no documentation", f.qualified());
        }
    }
}

/// The value of each observe of a one-simulation file whose observes read only literals.
fn observed(observes: &str) -> Vec<f64> {
    let source = format!(
        "open Physis.Thermal\nsimulate Probe {{\n  state y : Length = 0 m\n  law y' = 1 m/s\n{observes}  stop when t ≥ 1 s\n}}\n"
    );
    let checked = crate::check_source(&source);
    assert!(!checked.has_errors(), "{:#?}", checked.diagnostics);
    checked.program.models[0]
        .observes
        .iter()
        .map(|o| match crate::eval::constant(&o.expr) {
            Some(crate::Value::Scalar(x)) => x,
            other => panic!("{}: {other:?}", o.name),
        })
        .collect()
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-14 * b.abs().max(1e-300)
}

/// Every standard function against its closed form, computed here in SI from the same inputs.
#[test]
fn standard_functions_match_their_closed_forms() {
    let (k, v, r, b, l, c, j) = (0.05, 12.0, 1.0, 0.001, 0.5e-3, 2e-6, 0.01);
    let em = "Physis.Electromechanics";
    let got = observed(&format!(
        "  observe a ≔ {em}.motorSpeed(0.05 N·m/A, 12 V, 1 Ω, 0.001 N·m·s)\n\
         \x20 observe b ≔ {em}.motorCurrent(0.05 N·m/A, 12 V, 1 Ω, 0.001 N·m·s)\n\
         \x20 observe c ≔ {em}.noLoadSpeed(0.05 N·m/A, 12 V)\n\
         \x20 observe d ≔ {em}.stallTorque(0.05 N·m/A, 12 V, 1 Ω)\n\
         \x20 observe e ≔ {em}.torque(0.05 N·m/A, 3 A)\n\
         \x20 observe f ≔ {em}.backEmf(0.05 N·m/A, 100 rad/s)\n\
         \x20 observe g ≔ {em}.backEmfConstant(0.05 N·m/A)\n\
         \x20 observe h ≔ {em}.torqueConstantFromKv(1000 rpm/V)\n\
         \x20 observe i ≔ {em}.mechanicalTimeConstant(0.01 kg·m², 0.05 N·m/A, 1 Ω, 0.001 N·m·s)\n\
         \x20 observe j ≔ {em}.electricalTimeConstant(0.5 mH, 1 Ω)\n\
         \x20 observe k ≔ {em}.rlcNaturalFrequency(0.5 mH, 2 µF)\n\
         \x20 observe l ≔ {em}.rlcDampingRatio(1 Ω, 0.5 mH, 2 µF)\n"
    ));
    let kv = 1000.0 * 2.0 * std::f64::consts::PI / 60.0;
    let want = [
        k * v / (k * k + r * b),
        b * v / (k * k + r * b),
        v / k,
        k * v / r,
        k * 3.0,
        k * 100.0,
        k,
        1.0 / kv,
        j * r / (k * k + r * b),
        l / r,
        1.0 / (l * c).sqrt(),
        r / 2.0 * (c / l).sqrt(),
    ];
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(close(*g, w), "electromechanics #{i}: {g} vs {w}");
    }
}

#[test]
fn mechanics_functions_match_their_closed_forms() {
    let m = "Physis.Mechanics";
    let got = observed(&format!(
        "  observe a ≔ {m}.kineticEnergy(2 kg, 3 m/s)\n\
         \x20 observe b ≔ {m}.kineticEnergyOf(2 kg, [3 m/s, 4 m/s])\n\
         \x20 observe c ≔ {m}.rotationalEnergy(0.5 kg·m², 4 rad/s)\n\
         \x20 observe d ≔ {m}.gravityPotential(2 kg, 10 m)\n\
         \x20 observe e ≔ {m}.springPotential(100 N/m, 0.1 m)\n\
         \x20 observe f ≔ {m}.newtonPotential(3.986004418e14 m³/s², 1000 kg, 7e6 m)\n\
         \x20 observe g ≔ {m}.inertiaSolidSphere(2 kg, 0.5 m)\n\
         \x20 observe h ≔ {m}.inertiaHollowSphere(2 kg, 0.5 m)\n\
         \x20 observe i ≔ {m}.inertiaSolidCylinder(2 kg, 0.5 m)\n\
         \x20 observe j ≔ {m}.inertiaThinRing(2 kg, 0.5 m)\n\
         \x20 observe k ≔ {m}.inertiaRodCentre(3 kg, 2 m)\n\
         \x20 observe l ≔ {m}.inertiaRodEnd(3 kg, 2 m)\n\
         \x20 observe n ≔ {m}.inertiaBox(3 kg, 2 m, 1 m)\n\
         \x20 observe o ≔ {m}.pendulumPeriod(1 m, 9.80665 m/s²)\n"
    ));
    let want = [
        0.5 * 2.0 * 9.0,
        0.5 * 2.0 * 25.0,
        0.5 * 0.5 * 16.0,
        2.0 * 9.80665 * 10.0,
        0.5 * 100.0 * 0.01,
        -3.986004418e14 * 1000.0 / 7e6,
        0.4 * 2.0 * 0.25,
        2.0 / 3.0 * 2.0 * 0.25,
        0.5 * 2.0 * 0.25,
        2.0 * 0.25,
        3.0 * 4.0 / 12.0,
        3.0 * 4.0 / 3.0,
        3.0 * 5.0 / 12.0,
        2.0 * std::f64::consts::PI * (1.0f64 / 9.80665).sqrt(),
    ];
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(close(*g, w), "mechanics #{i}: {g} vs {w}");
    }
}

#[test]
fn thermal_functions_match_their_closed_forms() {
    let sigma = 5.670_374_419e-8;
    let got = observed(
        "  observe a ≔ Physis.Thermal.conduction(0.6 W/m/K, 2 m², 10 K, 0.1 m)\n\
         \x20 observe b ≔ convection(25 W/m²/K, 2 m², 10 K)\n\
         \x20 observe c ≔ radiation(0.9, 2 m², 400 K, 300 K)\n\
         \x20 observe d ≔ biotNumber(25 W/m²/K, 0.01 m, 200 W/m/K)\n\
         \x20 observe e ≔ lumpedTimeConstant(2700 kg/m³, 900 J/kg/K, 1e-6 m³, 25 W/m²/K, 6e-4 m²)\n\
         \x20 observe f ≔ σ·(1 K)⁴·(1 m²)\n",
    );
    let want = [
        0.6 * 2.0 * 10.0 / 0.1,
        25.0 * 2.0 * 10.0,
        0.9 * sigma * 2.0 * (400f64.powi(4) - 300f64.powi(4)),
        25.0 * 0.01 / 200.0,
        2700.0 * 900.0 * 1e-6 / (25.0 * 6e-4),
        sigma,
    ];
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(close(*g, w), "thermal #{i}: {g} vs {w}");
    }
}

/// The value of `expr` as the default of a `kind` param (Physis.Mechanics opened).
fn value_of(kind: &str, expr: &str) -> Vec<f64> {
    let source = format!(
        "open Physis.Mechanics\nsimulate Probe {{\n  param p : {kind} = {expr}\n  state y : Length = 0 m\n  law y' = 1 m/s\n  stop when t ≥ 1 s\n}}\n"
    );
    let checked = crate::check_source(&source);
    assert!(!checked.has_errors(), "{:#?}", checked.diagnostics);
    checked.program.models[0].params[0]
        .default
        .components()
        .to_vec()
}

fn close_all(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-15 * w.abs().max(1.0),
            "{what}: {got:?} vs {want:?}"
        );
    }
}

/// A unit quaternion turning by `angle` about the unit `axis`, as text.
fn turn(angle: f64, axis: [f64; 3]) -> String {
    let (s, c) = (angle / 2.0).sin_cos();
    format!(
        "[{c:e}, {:e}, {:e}, {:e}]",
        s * axis[0],
        s * axis[1],
        s * axis[2]
    )
}

/// Quarter turns about each axis: the matrices written out by hand.
#[test]
fn rotation_matrices_of_quarter_turns() {
    let h = std::f64::consts::FRAC_PI_2;
    let cases = [
        (
            [0.0, 0.0, 1.0],
            [0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0],
        ),
        (
            [1.0, 0.0, 0.0],
            [1.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0, 0.0],
        ),
        (
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 0.0],
        ),
    ];
    for (axis, want) in cases {
        let got = value_of(
            "Dimensionless[9]",
            &format!("rotationMatrix({})", turn(h, axis)),
        );
        close_all(&got, &want, &format!("quarter turn about {axis:?}"));
    }
    // The identity quaternion is the identity matrix.
    let got = value_of("Dimensionless[9]", "rotationMatrix([1, 0, 0, 0])");
    close_all(
        &got,
        &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
        "identity",
    );
    // A quarter turn about z takes [1 m, 2 m, 3 m] to [−2 m, 1 m, 3 m].
    let got = value_of(
        "Length[3]",
        &format!(
            "matrixTimesVector(rotationMatrix({}), [1 m, 2 m, 3 m])",
            turn(h, [0.0, 0.0, 1.0])
        ),
    );
    close_all(&got, &[-2.0, 1.0, 3.0], "turned vector");
}

/// R·Rᵀ = I for a turn about a skew axis, and turning by q then p is turning by p⊗q:
/// R(p⊗q) = R(p)·R(q).
#[test]
fn rotation_matrices_are_orthogonal_and_compose() {
    let n = (1.0f64 + 4.0 + 9.0).sqrt();
    let p = turn(0.7, [1.0 / n, 2.0 / n, 3.0 / n]);
    let q = turn(-1.9, [0.0, 0.6, 0.8]);
    let rrt = value_of(
        "Dimensionless[9]",
        &format!("matrixProduct(rotationMatrix({p}), transpose(rotationMatrix({p})))"),
    );
    close_all(&rrt, &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], "R·Rᵀ");
    let composed = value_of(
        "Dimensionless[9]",
        &format!("rotationMatrix(quaternionProduct({p}, {q}))"),
    );
    let product = value_of(
        "Dimensionless[9]",
        &format!("matrixProduct(rotationMatrix({p}), rotationMatrix({q}))"),
    );
    for (a, b) in composed.iter().zip(&product) {
        assert!((a - b).abs() < 1e-15, "{composed:?} vs {product:?}");
    }
}

/// Inertia tensors of a box, a sphere and a cylinder against their closed forms; a box turned
/// a quarter turn about z swaps its x and y moments (R·I·Rᵀ).
#[test]
fn inertia_tensors_match_their_closed_forms() {
    let (m, a, b, c) = (3.0, 2.0, 1.0, 0.5);
    let boxed = value_of(
        "MomentOfInertia[9]",
        "inertiaTensorBox(3 kg, 2 m, 1 m, 0.5 m)",
    );
    let (ix, iy, iz) = (
        m * (b * b + c * c) / 12.0,
        m * (a * a + c * c) / 12.0,
        m * (a * a + b * b) / 12.0,
    );
    close_all(&boxed, &[ix, 0.0, 0.0, 0.0, iy, 0.0, 0.0, 0.0, iz], "box");
    let turned = value_of(
        "MomentOfInertia[9]",
        &format!(
            "inertiaInWorld({}, inertiaTensorBox(3 kg, 2 m, 1 m, 0.5 m))",
            turn(std::f64::consts::FRAC_PI_2, [0.0, 0.0, 1.0])
        ),
    );
    close_all(
        &turned,
        &[iy, 0.0, 0.0, 0.0, ix, 0.0, 0.0, 0.0, iz],
        "turned box",
    );
    let sphere = value_of(
        "MomentOfInertia[9]",
        "inertiaTensorSolidSphere(2 kg, 0.5 m)",
    );
    let s = 0.4 * 2.0 * 0.25;
    close_all(&sphere, &[s, 0.0, 0.0, 0.0, s, 0.0, 0.0, 0.0, s], "sphere");
    let cyl = value_of(
        "MomentOfInertia[9]",
        "inertiaTensorSolidCylinder(2 kg, 0.5 m, 2 m)",
    );
    let (r, h) = (0.5f64, 2.0f64);
    let side = 2.0 * (3.0 * r * r + h * h) / 12.0;
    close_all(
        &cyl,
        &[side, 0.0, 0.0, 0.0, side, 0.0, 0.0, 0.0, 2.0 * r * r / 2.0],
        "cylinder",
    );
}

/// `rotate` keeps the kind and size of the vector it turns (its values are checked by a run in
/// physis-cli's module tests: the checker folds no cross product).
#[test]
fn rotate_keeps_the_kind_of_its_vector() {
    let source = "simulate Spin {\n  \
                  state y : Velocity[3] = Physis.Mechanics.rotate([√0.5, 0, 0, √0.5], [0 m/s, 2 m/s, 0 m/s])\n  \
                  law y' = [0 m/s², 0 m/s², 0 m/s²]\n  stop when t ≥ 1 s\n}\n";
    let checked = crate::check_source(source);
    assert!(!checked.has_errors(), "{:#?}", checked.diagnostics);
    let init = &checked.program.models[0].states[0].init;
    assert_eq!(init.dim, units::kind("Velocity").unwrap());
    assert_eq!(init.shape, Shape::Vector(3));
    let bad = crate::check_source(&source.replace("[√0.5, 0, 0, √0.5]", "[1, 0, 0]"));
    assert!(bad.has_errors());
    assert_eq!(bad.diagnostics[0].code, Code::ShapeMismatch);
}

#[test]
fn doc_lists_signatures_with_units_and_physics() {
    let text = doc("Physis.Electromechanics").unwrap();
    assert!(
        text.contains("fn motorSpeed(k : TorqueConstant ["),
        "{text}"
    );
    assert!(
        text.contains(": AngularVelocity [s⁻¹]") || text.contains(": AngularVelocity ["),
        "{text}"
    );
    assert!(text.contains("ω = k·V/(k² + R·b)"), "{text}");
    assert!(doc("Physis.Constants").unwrap().contains("g0"));
    let mechanics = doc("Physis.Mechanics").unwrap();
    assert!(mechanics.contains("fn rotationMatrix(q : "), "{mechanics}");
    assert!(mechanics.contains("R·Rᵀ = I"), "{mechanics}");
    assert!(doc("Physis.Nothing").is_none());
}

#[test]
fn comments_above_an_offset() {
    let src = "// one\n// two\nfn x\n";
    assert_eq!(
        comment_above(src, src.find("fn").unwrap()).as_deref(),
        Some("one two")
    );
    assert_eq!(comment_above("fn x", 0), None);
}

/// The standard library is declared once per process however many files are checked (its
/// bodies are not re-checked at each start), and a call into it still computes through its
/// body, checked at the call.
#[test]
fn the_standard_library_is_declared_once_per_process() {
    for _ in 0..3 {
        let got = observed("  observe a ≔ Physis.Electromechanics.torque(0.05 N·m/A, 3 A)\n");
        assert!(close(got[0], 0.05 * 3.0), "{got:?}");
        let _ = standard();
    }
    assert_eq!(standard_declarations(), 1);
}
