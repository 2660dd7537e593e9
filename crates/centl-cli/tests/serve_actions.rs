//! Every action of the JSON Lines server over a pipe, checked against closed forms computed here
//! with exact rationals rather than against what the server printed before.

use crate::common;

use common::{Pipe, ok, particle, q, request, sphere, v3};
use exact::Rational;
use serde_json::{Value, json};

fn r(s: &str) -> Rational {
    s.parse().unwrap()
}

fn rv(v: &Value) -> Rational {
    r(v.as_str()
        .unwrap_or_else(|| panic!("not an exact string: {v}")))
}

fn call(s: &mut Pipe, action: &str, args: Value) -> Value {
    let reply = s.send(&request(json!(action), action, args));
    assert_eq!(reply["id"], json!(action));
    ok(&reply).clone()
}

#[test]
fn convert_and_constant() {
    let mut s = Pipe::start("--serve");
    let c = call(
        &mut s,
        "convert",
        json!({"value": "72", "from": "km/h", "to": "m/s"}),
    );
    assert_eq!(c["quantity"], q("20", "m/s"));
    let c = call(
        &mut s,
        "convert",
        json!({"value": "-3/4", "from": "h", "to": "min"}),
    );
    assert_eq!(c["quantity"], q("-45", "min"));
    let k = call(&mut s, "constant", json!({"name": "k_B"}));
    assert_eq!(rv(&k["quantity"]["value"]), r("1.380649e-23"));
    assert_eq!(k["quantity"]["unit"], json!("J/K"));
    assert_eq!(k["exact"], json!(true));
    s.finish();
}

#[test]
fn capabilities_lists_every_action_schema_and_limit() {
    let mut s = Pipe::start("--serve");
    let c = call(&mut s, "capabilities", json!({}));
    let names: Vec<&str> = c["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    for want in [
        "capabilities",
        "convert",
        "constant",
        "simulate",
        "diagnostics",
        "elastic_collision_1d",
        "elastic_collision_3d_at_contact",
        "analyze_sphere_contacts",
        "resolve_isolated_elastic_sphere_contacts",
        "certify_linear_sphere_contact",
        "evolve_linear_sphere_pair_through_contact",
        "evolve_sphere_world_events",
    ] {
        assert!(names.contains(&want), "{want} missing from {names:?}");
    }
    let sim = c["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "simulate")
        .unwrap();
    assert_eq!(sim["args"]["additionalProperties"], json!(false));
    assert_eq!(
        sim["args"]["properties"]["dt"]["x-dimension"],
        json!("Time")
    );
    assert_eq!(sim["args"]["required"], json!(["dt", "steps"]));
    let l = &c["limits"];
    assert_eq!(l["max_steps"], json!(1_000_000));
    assert_eq!(l["max_particles"], json!(256));
    assert_eq!(l["max_sphere_pairs"], json!(4_096));
    for k in [
        "max_line_bytes",
        "max_json_depth",
        "max_number_digits",
        "max_rational_bits",
        "max_trajectory_samples",
    ] {
        assert!(l[k].as_u64().is_some(), "{k}");
    }
    s.finish();
}

/// Symplectic Euler under constant acceleration g from (z0, w0):
/// w_k = w0 + k g dt, z_k = z0 + k w0 dt + g dt² k(k+1)/2.
fn euler_gravity(
    z0: &Rational,
    w0: &Rational,
    g: &Rational,
    dt: &Rational,
    k: i64,
) -> (Rational, Rational) {
    let k = Rational::from(k);
    let w = w0 + &k * g * dt;
    let tri = (&k * (&k + Rational::one()))
        .checked_div(&Rational::from(2))
        .unwrap();
    let z = z0 + &k * w0 * dt + g * dt * dt * tri;
    (z, w)
}

#[test]
fn simulate_gravity_matches_the_discrete_closed_form_in_any_input_unit() {
    let mut s = Pipe::start("--serve");
    let p = json!({
        "id": "ball",
        "mass": q("500", "g"),
        "position": v3(["0", "0", "10000"], "cm"),
        "velocity": v3(["0", "0", "3"], "m/s"),
    });
    let out = call(
        &mut s,
        "simulate",
        json!({
            "particle": p,
            "forces": [{"kind": "gravity", "acceleration": v3(["0", "0", "-9.8"], "m/s^2")}],
            "dt": q("10", "ms"),
            "steps": 1000,
            "stride": 250,
        }),
    );
    let (g, dt) = (r("-49/5"), r("1/100"));
    let (z, w) = euler_gravity(&r("100"), &r("3"), &g, &dt, 1000);
    assert_eq!(rv(&out["particle"]["position"]["value"][2]), z);
    assert_eq!(rv(&out["particle"]["velocity"]["value"][2]), w);
    assert_eq!(out["particle"]["mass"], q("1/2", "kg"));
    assert_eq!(out["time"], q("10", "s"));
    assert_eq!(out["integrator"], json!("symplectic-euler"));
    let traj = out["trajectory"].as_array().unwrap();
    assert_eq!(traj.len(), 5);
    for (i, sample) in traj.iter().enumerate() {
        let k = 250 * i as i64;
        assert_eq!(sample["step"], json!(k));
        let (z, _) = euler_gravity(&r("100"), &r("3"), &g, &dt, k);
        assert_eq!(
            rv(&sample["particles"][0]["position"]["value"][2]),
            z,
            "step {k}"
        );
    }
    s.finish();
}

#[test]
fn simulate_drag_world_matches_the_geometric_series() {
    // Drag only: v_k = v0 ρ^k with ρ = 1 − b dt/m; x_k = x0 + v0 dt ρ (1 − ρ^k)/(1 − ρ).
    let mut s = Pipe::start("--serve");
    let world = json!([
        particle("a", "1", ["0", "0", "0"], ["2", "0", "0"]),
        particle("b", "4", ["1", "1", "1"], ["0", "-1", "0"]),
    ]);
    let out = call(
        &mut s,
        "simulate",
        json!({
            "world": world,
            "forces": [{"kind": "drag", "coefficient": q("1/2", "kg/s")}],
            "dt": q("1/10", "s"),
            "steps": 20,
        }),
    );
    let check = |i: usize, m: &str, x0: &str, v0: &str, axis: usize| {
        let rho = Rational::one() - r("1/2") * r("1/10") * r(m).recip().unwrap();
        let rk = rho.pow(20).unwrap();
        let v = r(v0) * &rk;
        let x = r(x0)
            + r(v0)
                * r("1/10")
                * &rho
                * (Rational::one() - &rk)
                    .checked_div(&(Rational::one() - &rho))
                    .unwrap();
        let p = &out["world"][i];
        assert_eq!(rv(&p["velocity"]["value"][axis]), v);
        assert_eq!(rv(&p["position"]["value"][axis]), x);
    };
    check(0, "1", "0", "2", 0);
    check(1, "4", "1", "-1", 1);
    assert_eq!(out["world"][1]["id"], json!("b"));
    s.finish();
}

#[test]
fn diagnostics_energies_and_comparison() {
    let mut s = Pipe::start("--serve");
    let before = particle("p", "2", ["3", "4", "0"], ["1", "2", "2"]);
    let after = particle("p", "2", ["0", "0", "5"], ["1", "2", "2"]);
    let out = call(
        &mut s,
        "diagnostics",
        json!({
            "particle": before,
            "potentials": [
                {"kind": "spring", "anchor": v3(["0", "0", "0"], "m"), "stiffness": q("2", "N/m"), "rest_length": q("1", "m")},
                {"kind": "gravity", "acceleration": v3(["0", "0", "-10"], "m/s^2")},
            ],
            "after": [after],
        }),
    );
    let b = &out["before"];
    assert_eq!(b["momentum"], v3(["2", "4", "4"], "kg*m/s"));
    assert_eq!(b["kinetic_energy"], q("9", "J")); // ½·2·(1+4+4)
    assert_eq!(b["potentials"][0]["energy"], q("16", "J")); // ½·2·(5−1)²
    assert_eq!(b["potentials"][1]["energy"], q("0", "J"));
    assert_eq!(out["after"]["potentials"][1]["energy"], q("100", "J")); // m g h = 2·10·5
    let c = &out["comparison"];
    assert_eq!(c["momentum"]["exactly_equal"], json!(true));
    assert_eq!(c["kinetic_energy"]["exactly_equal"], json!(true));
    assert_eq!(c["mechanical_energy"]["exactly_equal"], json!(false));
    assert_eq!(c["mechanical_energy"]["delta"], q("100", "J")); // spring 16 → 16, gravity 0 → 100
    s.finish();
}

#[test]
fn elastic_collisions() {
    let mut s = Pipe::start("--serve");
    let out = call(
        &mut s,
        "elastic_collision_1d",
        json!({
            "m1": q("2", "kg"), "u1": q("3", "m/s"), "m2": q("5", "kg"), "u2": q("-1", "m/s"),
        }),
    );
    // v1 = ((m1−m2)u1 + 2 m2 u2)/(m1+m2), v2 = ((m2−m1)u2 + 2 m1 u1)/(m1+m2)
    assert_eq!(out["first_velocity"], q("-19/7", "m/s"));
    assert_eq!(out["second_velocity"], q("9/7", "m/s"));
    assert_eq!(
        out["conservation"]["momentum"]["exactly_equal"],
        json!(true)
    );
    assert_eq!(
        out["conservation"]["kinetic_energy"]["exactly_equal"],
        json!(true)
    );

    // Head-on, equal masses: velocities swap.
    let out = call(
        &mut s,
        "elastic_collision_3d_at_contact",
        json!({
            "first": particle("a", "1", ["0", "0", "0"], ["3", "0", "0"]),
            "second": particle("b", "1", ["2", "0", "0"], ["-1", "0", "0"]),
        }),
    );
    assert_eq!(out["status"], json!("resolved"));
    assert_eq!(out["first"]["velocity"], v3(["-1", "0", "0"], "m/s"));
    assert_eq!(out["second"]["velocity"], v3(["3", "0", "0"], "m/s"));
    assert_eq!(
        out["trust_boundary"],
        json!("caller_supplied_contact_with_distinct_centers")
    );
    // Separating: nothing applied.
    let out = call(
        &mut s,
        "elastic_collision_3d_at_contact",
        json!({
            "first": particle("a", "1", ["0", "0", "0"], ["-1", "0", "0"]),
            "second": particle("b", "1", ["2", "0", "0"], ["0", "5", "0"]),
        }),
    );
    assert_eq!(out["status"], json!("separating_or_stationary"));
    assert_eq!(out["impulse"], v3(["0", "0", "0"], "kg*m/s"));
    assert_eq!(out["first"]["velocity"], v3(["-1", "0", "0"], "m/s"));
    s.finish();
}

#[test]
fn sphere_contacts_analysis_and_resolution() {
    let mut s = Pipe::start("--serve");
    let z = ["0", "0", "0"];
    let spheres = json!([
        sphere("a", "1", ["0", "0", "0"], z, "1"),
        sphere("b", "1", ["0", "3/2", "2"], z, "3/2"), // |d|² = 25/4 = (5/2)²: touching a
        sphere("c", "1", ["10", "0", "0"], z, "1"),
        sphere("d", "1", ["10", "1", "0"], z, "1"), // overlapping c
    ]);
    let out = call(
        &mut s,
        "analyze_sphere_contacts",
        json!({"spheres": spheres.clone()}),
    );
    assert_eq!(
        out["summary"],
        json!({"spheres": 4, "pairs": 6, "separated": 4, "touching": 1, "overlapping": 1})
    );
    let listed: Vec<(&str, &str)> = out["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["first_id"].as_str().unwrap(),
                p["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(listed, vec![("a", "touching"), ("c", "overlapping")]);
    assert_eq!(
        out["pairs"][0]["evidence"]["squared_center_distance"],
        q("25/4", "m^2")
    );
    let only = call(
        &mut s,
        "analyze_sphere_contacts",
        json!({"spheres": spheres.clone(), "touching_only": true}),
    );
    assert_eq!(only["pairs"].as_array().unwrap().len(), 1);
    assert_eq!(only["summary"]["overlapping"], json!(1));

    // Overlap takes precedence: deferred, unchanged.
    let out = call(
        &mut s,
        "resolve_isolated_elastic_sphere_contacts",
        json!({"spheres": spheres.clone()}),
    );
    assert_eq!(out["status"], json!("deferred"));
    assert_eq!(out["reason"], json!("overlap_detected"));
    for (i, sph) in spheres.as_array().unwrap().iter().enumerate() {
        assert_eq!(out["spheres"][i]["velocity"], sph["velocity"]);
        assert_eq!(out["spheres"][i]["position"], sph["position"]);
    }
    // Two disjoint touching pairs, one approaching, one separating.
    let out = call(
        &mut s,
        "resolve_isolated_elastic_sphere_contacts",
        json!({"spheres": [
            sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "1/2"),
            sphere("b", "3", ["1", "0", "0"], ["0", "0", "0"], "1/2"),
            sphere("c", "1", ["0", "5", "0"], ["0", "-1", "0"], "1/2"),
            sphere("d", "1", ["0", "6", "0"], ["0", "1", "0"], "1/2"),
        ]}),
    );
    assert_eq!(out["status"], json!("completed"));
    assert_eq!(out["responses"][0]["status"], json!("resolved"));
    assert_eq!(
        out["responses"][1]["status"],
        json!("separating_or_stationary")
    );
    // 1D formula along x: v_a = (1−3)/4 = −1/2, v_b = 2/4 = 1/2.
    assert_eq!(out["spheres"][0]["velocity"], v3(["-1/2", "0", "0"], "m/s"));
    assert_eq!(out["spheres"][1]["velocity"], v3(["1/2", "0", "0"], "m/s"));
    assert_eq!(out["spheres"][2]["velocity"], v3(["0", "-1", "0"], "m/s"));
    assert_eq!(
        out["conservation"]["kinetic_energy"]["exactly_equal"],
        json!(true)
    );
    s.finish();
}

fn certify(s: &mut Pipe, a: Value, b: Value, t: &str) -> Value {
    call(
        s,
        "certify_linear_sphere_contact",
        json!({"first": a, "second": b, "duration": q(t, "s")}),
    )
}

#[test]
fn certificates_for_every_status() {
    let mut s = Pipe::start("--serve");
    let mover = |r: &str| sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], r);
    let still = |x: [&str; 3], r: &str| sphere("b", "1", x, ["0", "0", "0"], r);
    let status = |c: &Value| c["status"].as_str().unwrap().to_string();

    let c = certify(&mut s, mover("1"), still(["1", "0", "0"], "1/2"), "1");
    assert_eq!(status(&c), "initially_overlapping");
    assert_eq!(c["first_contact"], Value::Null);
    let c = certify(&mut s, mover("1/2"), still(["1", "0", "0"], "1/2"), "1");
    assert_eq!(status(&c), "touching_at_start");
    assert_eq!(c["first_contact"]["time"], q("0", "s"));
    let c = certify(&mut s, mover("1/2"), still(["3", "0", "0"], "1/2"), "1");
    assert_eq!(status(&c), "no_contact_in_interval");
    assert_eq!(c["minimum_clearance"], q("3", "m^2")); // f(1) = 4 − 1
    // Endpoint crossing: f = (t−2)(t−4) on [0, 2].
    let c = certify(&mut s, mover("1/2"), still(["3", "0", "0"], "1/2"), "2");
    assert_eq!(status(&c), "crossing_contact");
    assert_eq!(
        c["first_contact"],
        json!({"kind": "rational", "time": q("2", "s")})
    );
    // Grazing: f = (t−3)².
    let c = certify(&mut s, mover("1/2"), still(["3", "1", "0"], "1/2"), "5");
    assert_eq!(status(&c), "tangent_contact");
    assert_eq!(c["discriminant"], q("0", "m^4/s^2"));
    // Irrational: f = t² − 6t + 31/4, first root (6 − √5)/2.
    let c = certify(&mut s, mover("1"), still(["3", "1", "0"], "1/2"), "5");
    assert_eq!(status(&c), "crossing_contact");
    let fc = &c["first_contact"];
    assert_eq!(fc["kind"], json!("quadratic_irrational"));
    assert_eq!(rv(&fc["discriminant"]["value"]), r("5"));
    let f = |t: &Rational| t * t - r("6") * t + r("31/4");
    let (lo, hi) = (
        rv(&fc["bracket"][0]["value"]),
        rv(&fc["bracket"][1]["value"]),
    );
    assert!(
        f(&lo) >= Rational::zero() && f(&hi) <= Rational::zero(),
        "{lo} {hi}"
    );
    assert!(lo <= hi && hi <= r("5"));
    // The same certificate with its bracket narrowed to 1e-30 s: still a sign change of
    // f around the root, now at most that wide.
    let narrow = call(
        &mut s,
        "certify_linear_sphere_contact",
        json!({"first": mover("1"), "second": still(["3", "1", "0"], "1/2"),
               "duration": q("5", "s"), "bracket_width": q("1e-30", "s")}),
    );
    let b = &narrow["first_contact"]["bracket"];
    let (nlo, nhi) = (rv(&b[0]["value"]), rv(&b[1]["value"]));
    assert!(f(&nlo) >= Rational::zero() && f(&nhi) <= Rational::zero());
    assert!(&nhi - &nlo <= r("1/1000000000000000000000000000000"));
    assert!(lo <= nlo && nhi <= hi);
    let tb: Vec<&str> = c["trust_boundary"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(
        tb,
        [
            "constant_velocity",
            "exact_sphere_geometry",
            "no_time_sampling",
            "no_floating_point_root_finding",
            "no_force_integration",
            "no_automatic_response",
            "no_simultaneous_contact_solving",
        ]
    );
    s.finish();
}

#[test]
fn event_stepping_completes_or_defers_unchanged() {
    let mut s = Pipe::start("--serve");
    let evolve = |s: &mut Pipe, a: Value, b: Value, t: &str| {
        call(
            s,
            "evolve_linear_sphere_pair_through_contact",
            json!({"first": a, "second": b, "duration": q(t, "s")}),
        )
    };
    // Mass 1 hits mass 3 at rest at t = 2 (gap 1 closing at 1 m/s after starting 1 m apart edge to edge).
    let a = sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "1/2");
    let b = sphere("b", "3", ["3", "0", "0"], ["0", "0", "0"], "1/2");
    let out = evolve(&mut s, a.clone(), b.clone(), "4");
    assert_eq!(out["status"], json!("completed"));
    assert_eq!(out["event"]["time"], q("2", "s"));
    // After: v_a = −1/2, v_b = 1/2, for the remaining 2 s from x_a = 2, x_b = 3.
    assert_eq!(out["first"]["velocity"], v3(["-1/2", "0", "0"], "m/s"));
    assert_eq!(out["first"]["position"], v3(["1", "0", "0"], "m"));
    assert_eq!(out["second"]["position"], v3(["4", "0", "0"], "m"));
    assert_eq!(
        out["conservation"]["momentum"]["exactly_equal"],
        json!(true)
    );
    // Initial overlap defers with the inputs returned.
    let overlap = evolve(
        &mut s,
        sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "3"),
        b.clone(),
        "1",
    );
    assert_eq!(
        (overlap["status"].as_str(), overlap["reason"].as_str()),
        (Some("deferred"), Some("initial_overlap"))
    );
    let far = sphere("b", "1", ["3", "1", "0"], ["0", "0", "0"], "1/2");
    let irr = evolve(
        &mut s,
        sphere("a", "1", ["0", "0", "0"], ["1", "0", "0"], "1"),
        far,
        "5",
    );
    // An irrational contact completes exactly in Q(√5): t* = 3 − √5/2. The expected values
    // were computed with sympy (its root solver and the textbook elastic formula).
    let surd =
        |a: &str, b: &str, d: &str| json!({"rational": a, "sqrt_coefficient": b, "radicand": d});
    assert_eq!(irr["status"], json!("completed"));
    assert_eq!(irr["event_time_kind"], json!("quadratic_irrational"));
    assert_eq!(irr["field_radicand"], json!("5"));
    assert_eq!(irr["event"]["time"]["value"], surd("3", "-1/2", "5"));
    assert_eq!(irr["event"]["time"]["text"], json!("3 - 1/2·√5"));
    assert_eq!(
        irr["second"]["velocity"]["value"],
        json!([
            surd("5/9", "0", "1"),
            surd("0", "2/9", "5"),
            surd("0", "0", "1")
        ])
    );
    assert_eq!(
        irr["second"]["position"]["value"],
        json!([
            surd("37/9", "5/18", "5"),
            surd("14/9", "4/9", "5"),
            surd("0", "0", "1")
        ])
    );
    assert_eq!(
        irr["first"]["velocity"]["text"],
        json!(["4/9", "-2/9·√5", "0"])
    );
    assert_eq!(
        irr["conservation"]["kinetic_energy"]["exactly_equal"],
        json!(true)
    );
    assert_eq!(
        irr["conservation"]["momentum"]["exactly_equal"],
        json!(true)
    );
    s.finish();
}

#[test]
fn same_input_gives_the_same_bytes() {
    let input = [
        request(json!(1), "simulate", json!({
            "world": [particle("a", "3", ["1", "2", "3"], ["1/3", "0", "-1"])],
            "forces": [{"kind": "spring", "anchor": v3(["0", "0", "0"], "m"), "stiffness": q("7", "N/m")}],
            "dt": q("1/7", "s"), "steps": 30, "stride": 10,
        })).to_string(),
        "garbage".to_string(),
        request(json!(2), "capabilities", json!({})).to_string(),
    ]
    .join("\n")
        + "\n";
    // One worker replies in request order, so the bytes are the same; more workers may reorder
    // the replies (each keeps its id), so only the set of lines is the same.
    let run = |workers: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_centl-physics"))
            .args(["--serve", "--workers", workers])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                use std::io::Write;
                c.stdin.take().unwrap().write_all(input.as_bytes())?;
                c.wait_with_output()
            })
            .unwrap();
        assert!(out.status.success());
        out.stdout
    };
    let (a, b) = (run("1"), run("1"));
    assert_eq!(a, b);
    assert_eq!(a.iter().filter(|&&c| c == b'\n').count(), 3);
    let lines = |bytes: Vec<u8>| {
        let mut l: Vec<String> = String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        l.sort();
        l
    };
    assert_eq!(lines(run("4")), lines(a));
}
