//! The command line as a user meets it: output, stderr and exit codes.

use assert_cmd::Command;

fn cli() -> Command {
    Command::cargo_bin("centl-physics").unwrap()
}

fn ok(args: &[&str]) -> String {
    let out = cli().args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    String::from_utf8(out.stdout).unwrap()
}

fn fails(args: &[&str]) -> String {
    let out = cli().args(args).output().unwrap();
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(out.stdout.is_empty(), "nothing on stdout for {args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn convert_documented_examples() {
    assert_eq!(ok(&["convert", "100", "cm", "m"]), "1 m\n");
    assert_eq!(ok(&["convert", "1", "km/h", "m/s"]), "5/18 m/s\n");
    assert_eq!(ok(&["convert", "0.1", "m", "mm"]), "100 mm\n");
    assert_eq!(ok(&["convert", "-3/4", "h", "s"]), "-2700 s\n");
    assert_eq!(ok(&["convert", "1", "m/s²", "m/s^2"]), "1 m/s^2\n");
}

#[test]
fn convert_refusals_name_the_problem() {
    let e = fails(&["convert", "1", "m", "s"]);
    assert!(e.contains("Length") && e.contains("Time"), "{e}");
    let e = fails(&["convert", "1", "mtr", "m"]);
    assert!(e.contains("unknown unit `mtr`"), "{e}");
    let e = fails(&["convert", "NaN", "m", "m"]);
    assert!(e.contains("not an exact number"), "{e}");
    let e = fails(&["convert", "1/0", "m", "m"]);
    assert!(e.contains("divides by zero"), "{e}");
    let e = fails(&["convert", "90", "deg", "rad"]);
    assert!(e.contains('π'), "{e}");
}

#[test]
fn constants_and_refusals() {
    let c = ok(&["constant", "c"]);
    assert!(
        c.contains("value=299792458 m/s\n")
            && c.contains("exact=true")
            && c.contains("provenance="),
        "{c}"
    );
    assert!(ok(&["constant", "g0"]).contains("value=196133/20000 m/s^2\n"));
    let e = fails(&["constant", "G"]);
    assert!(e.contains("measured"), "{e}");
    fails(&["constant", "nope"]);
}

#[test]
fn help_everywhere() {
    for args in [
        &["--help"][..],
        &["convert", "--help"],
        &["constant", "--help"],
        &["gravity", "--help"],
        &["spring", "--help"],
    ] {
        assert!(!ok(args).is_empty());
    }
}

/// The value after `key=` in the output.
fn field<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}=")))
        .unwrap_or_else(|| panic!("no {key} in {out}"))
}

#[test]
fn gravity_documented_example() {
    assert_eq!(
        ok(&["gravity", "2", "0,0,10", "1,0,0", "0,0,-10", "1/10", "10"]),
        "integrator=symplectic-euler\nsteps=10\nposition=1,0,9/2 m\nvelocity=1,0,-10 m/s\n"
    );
}

#[test]
fn gravity_accepts_negative_decimal_and_fraction_inputs() {
    // Discrete closed form: v_n = v0 + n g dt, x_n = x0 + n dt v0 + g dt² n(n+1)/2.
    // n = 4, dt = 1/2, g = (-1/2, 0, 3), v0 = (-1, 0.5, 0), x0 = (-2, 0, 0):
    // v = (-2, 1/2, 6); x = (-2 - 2 - 5/4, 1, 15/2).
    let out = ok(&[
        "gravity", "0.25", "-2,0,0", "-1,0.5,0", "-1/2,0,3", "0.5", "4",
    ]);
    assert_eq!(field(&out, "velocity"), "-2,1/2,6 m/s");
    assert_eq!(field(&out, "position"), "-21/4,1,15/2 m");
    assert_eq!(field(&out, "steps"), "4");
}

#[test]
fn gravity_refusals() {
    let e = fails(&[
        "gravity", "2", "0,0,10", "1,0,0", "0,0,-10", "1/10", "1000001",
    ]);
    assert!(e.contains("1000001") && e.contains("1000000"), "{e}");
    let e = fails(&["gravity", "2", "0,0,10", "1,0,0", "0,0,-10", "0", "10"]);
    assert!(e.contains("time step must be positive"), "{e}");
    let e = fails(&["gravity", "2", "0,0,10", "1,0,0", "0,0,-10", "-1/10", "10"]);
    assert!(e.contains("time step must be positive"), "{e}");
    let e = fails(&["gravity", "0", "0,0,10", "1,0,0", "0,0,-10", "1/10", "10"]);
    assert!(e.contains("mass"), "{e}");
    let e = fails(&["gravity", "2", "0,10", "1,0,0", "0,0,-10", "1/10", "10"]);
    assert!(e.contains("position") && e.contains("x,y,z"), "{e}");
    let e = fails(&["gravity", "2", "0,0,1e", "1,0,0", "0,0,-10", "1/10", "10"]);
    assert!(e.contains("not an exact number"), "{e}");
    let e = fails(&["gravity", "2", "0,0,10", "1,0,0", "0,0,-10", "1/10", "-3"]);
    assert!(e.contains("steps"), "{e}");
    fails(&["gravity", "2", "0,0,10", "1,0,0", "0,0,-10", "1/10", "2.5"]);
    fails(&["gravity", "2", "0,0,10", "1,0,0", "0,0,-10", "1/10"]);
}

#[test]
fn spring_one_dimensional_cycle() {
    // k = m = dt = 1 from x = 1, v = 0: the discrete map has period 6. After 2 steps
    // x = -1, v = -1, so the energy goes from 1/2 to 1.
    let out = ok(&["spring", "1", "1,0,0", "0,0,0", "0,0,0", "1", "1", "2"]);
    assert_eq!(
        out,
        "integrator=symplectic-euler\nsteps=2\nposition=-1,0,0 m\nvelocity=-1,0,0 m/s\n\
         energy_initial=1/2 J\nenergy_final=1 J\nenergy_delta=1/2 J\nmax_bits=1\n"
    );
    let out = ok(&["spring", "1", "1,0,0", "0,0,0", "0,0,0", "1", "1", "6"]);
    assert_eq!(field(&out, "position"), "1,0,0 m");
    assert_eq!(field(&out, "energy_delta"), "0 J");
}

/// Independent reference: the spring-with-drag recursion written out per component.
fn reference_spring_drag(steps: usize) -> ([exact::Rational; 3], [exact::Rational; 3]) {
    use exact::Rational as Q;
    let q = |s: &str| s.parse::<Q>().unwrap();
    let (k, m, b, dt) = (q("3"), q("7"), q("1/5"), q("1/100"));
    let mut x = [q("1"), q("1/2"), q("-1/3")];
    let mut v = [q("0"), q("1"), q("1/4")];
    for _ in 0..steps {
        for i in 0..3 {
            let f = -(&k * &x[i]) - &b * &v[i];
            v[i] = &v[i] + f.checked_div(&m).unwrap() * &dt;
            x[i] = &x[i] + &v[i] * &dt;
        }
    }
    (x, v)
}

#[test]
fn spring_with_drag_matches_an_independent_recursion() {
    let out = ok(&[
        "spring",
        "7",
        "1,1/2,-1/3",
        "0,1,1/4",
        "0,0,0",
        "3",
        "--drag",
        "1/5",
        "1/100",
        "20",
    ]);
    let (x, v) = reference_spring_drag(20);
    let join = |c: &[exact::Rational; 3]| format!("{},{},{}", c[0], c[1], c[2]);
    assert_eq!(field(&out, "position"), format!("{} m", join(&x)));
    assert_eq!(field(&out, "velocity"), format!("{} m/s", join(&v)));
    // ½k|x|² + ½m|v|² at the start: 49/24 + 119/32.
    assert_eq!(field(&out, "energy_initial"), "553/96 J");
    let half = "1/2".parse::<exact::Rational>().unwrap();
    let sq = |c: &[exact::Rational; 3]| c.iter().map(|a| a * a).sum::<exact::Rational>();
    let e_final = &half * "3".parse::<exact::Rational>().unwrap() * sq(&x)
        + &half * "7".parse::<exact::Rational>().unwrap() * sq(&v);
    assert_eq!(field(&out, "energy_final"), format!("{e_final} J"));
    let delta = e_final - "553/96".parse::<exact::Rational>().unwrap();
    assert!(delta.is_negative(), "drag dissipates");
    assert_eq!(field(&out, "energy_delta"), format!("{delta} J"));
    let bits = x.iter().chain(&v).map(exact::Rational::bits).max().unwrap();
    assert_eq!(field(&out, "max_bits"), bits.to_string());
    // Option order does not matter.
    let after = ok(&[
        "spring",
        "7",
        "1,1/2,-1/3",
        "0,1,1/4",
        "0,0,0",
        "3",
        "1/100",
        "20",
        "--drag",
        "1/5",
    ]);
    assert_eq!(after, out);
}

#[test]
fn spring_rest_length_along_a_rational_ray() {
    // x = (3,4,0), |x| = 5, L = 2, k = m = dt = 1: F = -(1 - 2/5)(3,4,0) = (-9/5,-12/5,0);
    // after one step x = (6/5, 8/5, 0), |x| = 2: all potential energy became kinetic.
    let out = ok(&[
        "spring",
        "1",
        "3,4,0",
        "0,0,0",
        "0,0,0",
        "1",
        "--rest-length",
        "2",
        "1",
        "1",
    ]);
    assert_eq!(field(&out, "position"), "6/5,8/5,0 m");
    assert_eq!(field(&out, "velocity"), "-9/5,-12/5,0 m/s");
    assert_eq!(field(&out, "energy_initial"), "9/2 J");
    assert_eq!(field(&out, "energy_final"), "9/2 J");
    assert_eq!(field(&out, "energy_delta"), "0 J");
}

#[test]
fn spring_refusals() {
    let e = fails(&[
        "spring",
        "1",
        "1,1,0",
        "0,0,0",
        "0,0,0",
        "1",
        "--rest-length",
        "1",
        "1",
        "1",
    ]);
    assert!(e.contains("irrational"), "{e}");
    let e = fails(&["spring", "1", "1,0,0", "0,0,0", "0,0,0", "-1", "1", "1"]);
    assert!(e.contains("stiffness"), "{e}");
    let e = fails(&[
        "spring", "1", "1,0,0", "0,0,0", "0,0,0", "1", "--drag", "-1", "1", "1",
    ]);
    assert!(e.contains("drag"), "{e}");
    let e = fails(&[
        "spring", "1", "1,0,0", "0,0,0", "0,0,0", "1", "1", "1000001",
    ]);
    assert!(e.contains("1000000"), "{e}");
    fails(&["spring", "1", "1,0,0", "0,0,0", "0,0", "1", "1", "1"]);
}

#[test]
fn gauntlet_prints_what_it_checked_with_its_seed() {
    let out = ok(&["gauntlet", "--seed", "7", "--cases", "3"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "gauntlet seed=7 cases=3");
    assert!(
        lines[1..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("ok ") && l.contains(" 3/3: "))
    );
    assert!(out.contains("ok collision_3d_normal_reversal 3/3"), "{out}");
    let last = lines.last().unwrap();
    assert!(
        last.starts_with("checked=") && last.ends_with("counterexamples=0"),
        "{out}"
    );
    // The same seed gives the same report, line for line.
    assert_eq!(ok(&["gauntlet", "--seed", "7", "--cases", "3"]), out);
}

#[test]
fn gauntlet_without_a_seed_prints_the_fresh_one() {
    let out = ok(&["gauntlet", "--cases", "1"]);
    let seed = out
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("gauntlet seed="))
        .and_then(|l| l.strip_suffix(" cases=1"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(seed.parse::<u64>().is_ok(), "{out}");
}

#[test]
fn events_runs_the_billiard_break_exactly() {
    let root = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/billiard_break.json"
    );
    let out = ok(&["events", root]);
    // Contact times derived by hand (see crates/centl-physics/tests/event_world.rs).
    assert!(
        out.starts_with("events=4\nevent t=5/3 s cue r0 resolved"),
        "{out}"
    );
    assert!(
        out.contains("event t=143/45 s r0 r2 resolved kinetic_energy=9/2 J"),
        "{out}"
    );
    assert!(
        out.ends_with("energy_delta=0 J\nmomentum_delta=0,0,0 kg*m/s\n"),
        "{out}"
    );
    let e = fails(&["events", "no/such/world.json"]);
    assert!(e.contains("cannot read"), "{e}");
}

#[test]
fn events_runs_the_gas_of_200_spheres_in_a_walled_box_with_exact_energy() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/gas_box.json");
    let out = ok(&["events", root]);
    // Σ ½·m·v² of the file's 200 spheres, summed by hand in exact fractions (Python's
    // `fractions`): every sphere moves along x only, and walls and elastic contacts keep it.
    let events: Vec<&str> = out.lines().filter(|l| l.starts_with("event ")).collect();
    assert!(events.len() > 200, "{out}");
    for e in &events {
        assert!(e.ends_with("kinetic_energy=39985/36 J"), "{e}");
    }
    assert!(out.contains("\nenergy_delta=0 J\n"), "{out}");
}

#[test]
fn workers_are_bounded_like_threads_at_the_edge_and_one_past_it() {
    let request = "{\"v\":1,\"id\":7,\"action\":\"capabilities\"}\n";
    for mode in ["--serve", "--mcp"] {
        for bad in ["0", "1025", "65535"] {
            let out = cli().args([mode, "--workers", bad]).output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{mode} --workers {bad}");
            assert!(out.stdout.is_empty(), "{mode} --workers {bad}");
            let err = String::from_utf8(out.stderr).unwrap();
            assert!(
                err.starts_with("error:") && err.contains("--workers"),
                "{mode} --workers {bad}: {err}"
            );
        }
    }
    let err = String::from_utf8(
        cli()
            .args(["--serve", "--workers", "1025"])
            .output()
            .unwrap()
            .stderr,
    )
    .unwrap();
    assert!(err.contains("1..=1024"), "{err}");
    // The edge starts its 1,024 workers and answers.
    let out = cli()
        .args(["--serve", "--workers", "1024"])
        .write_stdin(request)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reply = String::from_utf8(out.stdout).unwrap();
    assert!(
        reply.contains("\"id\":7") && reply.contains("\"ok\":true"),
        "{reply}"
    );
}
