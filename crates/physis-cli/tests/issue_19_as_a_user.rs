//! Issue 19's numbered failures re-tried as a new user would: each model of
//! `tests/issue_19/` run through the `physis` binary (`physis run --summary`, `physis run`)
//! and its printed numbers held against a closed form, the scheme's own amplification, or
//! SciPy's Radau (`tests/issue_19/robertson_ref.py`, output committed beside it).

use crate::common;

use serde_json::Value;

const G0: f64 = 9.80665;

fn path(file: &str) -> String {
    format!("crates/physis-cli/tests/issue_19/{file}")
}

/// `physis run --summary FILE`, which must succeed.
fn summary(file: &str) -> Value {
    let (code, out, err) = common::physis(&["run", "--summary", &path(file)]);
    assert_eq!(code, 0, "{file}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{file}: {e}: {out}"))
}

/// `physis run FILE`: the CSV rows as numbers.
fn rows(file: &str) -> Vec<Vec<f64>> {
    let (code, out, err) = common::physis(&["run", &path(file)]);
    assert_eq!(code, 0, "{file}: {err}");
    out.lines()
        .skip(1)
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect()
}

fn num(v: &Value, pointer: &str) -> f64 {
    v.pointer(pointer)
        .and_then(Value::as_f64)
        .unwrap_or_else(|| panic!("no {pointer} in {v}"))
}

fn ended_by(v: &Value, kind: &str, t: f64) {
    assert_eq!(v["reason"]["kind"], kind, "{v}");
    assert!((num(v, "/final/t") - t).abs() < 1e-9, "{v}");
}

#[test]
fn item1_first_order_law_beside_second_order_is_integrated_right() {
    // rk45: z(1 s) = 1 m (was 0.9526 m after 48,364 steps), y = cos(1 s · 1 Hz).
    let v = summary("item1_rk45_mixed_order.hph");
    ended_by(&v, "when", 1.0);
    assert!((num(&v, "/final/observe/zz") - 1.0).abs() < 1e-12, "{v}");
    assert!(
        (num(&v, "/final/observe/yy") - 1f64.cos()).abs() < 1e-7,
        "{v}"
    );
    assert!(num(&v, "/steps") < 100.0, "{v}");
    // A constant state beside x'' = −ω²x: n stays 1, x = cos(ωt) (was `limit` at t ≈ 1.6 s).
    let v = summary("item1_constant_state_beside_oscillator.hph");
    ended_by(&v, "when", 3.0);
    assert_eq!(num(&v, "/final/observe/nn"), 1.0);
    assert!(
        (num(&v, "/final/observe/xx") - 6f64.cos()).abs() < 1e-6,
        "{v}"
    );
    // rk4 is exact on a parabola and a line: z(1 s) = 1 m (was 0.918 m), y = −g₀/2.
    let v = summary("item1_rk4_mixed_order.hph");
    assert!((num(&v, "/final/observe/zz") - 1.0).abs() < 1e-12, "{v}");
    assert!(
        (num(&v, "/final/observe/yy") + G0 / 2.0).abs() < 1e-12,
        "{v}"
    );
    // The hit counter stays an integer, so `stop when hits ≥ 2` ends at the second bounce:
    // t₁(1 + 2e) with t₁ = √(2·10 m/g₀), e = 0.8.
    let v = summary("item1_hit_counter.hph");
    let t1 = (20.0 / G0).sqrt();
    assert_eq!(v["reason"]["clause"], "hits ≥ 2", "{v}");
    assert_eq!(num(&v, "/final/observe/h"), 2.0);
    assert!(
        (num(&v, "/final/t") - t1 * (1.0 + 2.0 * 0.8)).abs() < 1e-9,
        "{v}"
    );
}

#[test]
fn item2_fixed_step_after_an_event_stays_on_the_grid() {
    // euler step 0.3 s, event at x = 1 m: the next step ends at 1.2 s (was 1.5 s).
    let r = rows("item2_euler_step_after_event.hph");
    let times: Vec<f64> = r.iter().map(|row| row[0]).collect();
    let after = times.iter().find(|&&t| t > 1.0 + 1e-9).copied();
    assert!((after.unwrap() - 1.2).abs() < 1e-12, "{times:?}");
    for t in times.iter().filter(|&&t| (t - 1.0).abs() > 1e-9) {
        let k = t / 0.3;
        assert!(
            (k - k.round()).abs() < 1e-9,
            "{t} is off the 0.3 s grid: {times:?}"
        );
    }
    // rk4 at λh = 2.7, event at 10.5 ms: the next step ends at 20 ms (was 30 ms, λh = 5.3,
    // and the solution blew up); every later step is the stable R(−2.7) < 1.
    let r = rows("item2_rk4_step_after_event.hph");
    let after = r.iter().find(|row| row[0] > 0.0105 + 1e-12).unwrap();
    assert!((after[0] - 0.02).abs() < 1e-12, "{after:?}");
    let amp = |z: f64| 1.0 + z + z * z / 2.0 + z.powi(3) / 6.0 + z.powi(4) / 24.0;
    let at = |t: f64| r.iter().find(|row| (row[0] - t).abs() < 1e-9).unwrap()[1];
    assert!((at(0.03) / at(0.02) - amp(-2.7)).abs() < 1e-12);
    let v = summary("item2_rk4_step_after_event.hph");
    let y = num(&v, "/final/observe/yy");
    assert!(y > 0.0 && y < 1e-5, "{v}");
}

#[test]
fn item3_an_event_true_at_the_start_does_not_fire() {
    let v = summary("item3_true_at_start.hph");
    assert_eq!(num(&v, "/events"), 0.0, "{v}");
    assert_eq!(num(&v, "/final/observe/cc"), 0.0, "{v}");
}

#[test]
fn item4_a_stop_true_only_inside_one_step_is_found() {
    // r[1] > 8 m ∧ v[1] < 0 ∧ t > 1 s first holds at the apex t = 14 m/s / g₀.
    let v = summary("item4_stop_inside_one_step.hph");
    ended_by(&v, "when", 14.0 / G0);
}

#[test]
fn item5_values_at_the_stop_and_on_record_every_are_as_accurate_as_the_steps() {
    // x = cos t at tolerance 1e-10: the stop value and the `record every` samples within
    // 1.5× the worst step value (was 12× at the stop and 9–55× on the samples).
    let steps = rows("item5_oscillator_at_stop.hph");
    let err = |row: &Vec<f64>| (row[1] - row[0].cos()).abs();
    let worst_step = steps.iter().map(err).fold(0.0, f64::max);
    assert!(worst_step < 1e-9, "{worst_step}");
    assert!(err(steps.last().unwrap()) <= 1.5 * worst_step);
    let samples = rows("item5_oscillator_record_every.hph");
    assert_eq!(samples.len(), 101);
    let worst_sample = samples.iter().map(err).fold(0.0, f64::max);
    assert!(
        worst_sample <= 1.5 * worst_step,
        "{worst_sample:e} vs {worst_step:e}"
    );
}

#[test]
fn item6_newton_stays_on_the_physical_root_of_robertson() {
    let refs: Value = serde_json::from_str(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/issue_19/robertson_ref.json"
        ))
        .unwrap(),
    )
    .unwrap();
    let want = |t: &str, i: usize| refs["at"][t][i].as_f64().unwrap();
    // backwardEuler step 1e9 s to 1e11 s (was y₁ = −4.8e7): first order, y₁ within 10%.
    let v = summary("item6_robertson_backward_euler.hph");
    ended_by(&v, "when", 1e11);
    let y1 = num(&v, "/final/observe/y1");
    assert!(
        (y1 - want("1e+11", 0)).abs() < 0.1 * want("1e+11", 0),
        "{v}"
    );
    assert!(
        (num(&v, "/final/observe/y3") - want("1e+11", 2)).abs() < 1e-8,
        "{v}"
    );
    // crankNicolson step 0.1 s (went negative at 0.034 s, then diverged): never negative,
    // y₁(1000 s) within 1e-4 relative.
    let r = rows("item6_robertson_crank_nicolson.hph");
    assert!(r.iter().all(|row| row[1..].iter().all(|&y| y >= 0.0)));
    let last = r.last().unwrap();
    assert!((last[0] - 1e3).abs() < 1e-9);
    assert!(
        (last[1] - want("1000", 0)).abs() < 1e-4 * want("1000", 0),
        "{last:?}"
    );
}

#[test]
fn item7_neumann_boundaries_are_second_order() {
    // u = 1 + e^{−απ²t}·cos πx with no flux: the error at x = 0 quarters when the nodes
    // double (was halved), and the mean stays 1.
    let exact = 1.0 + (-0.1 * std::f64::consts::PI.powi(2)).exp();
    let err = |file: &str| {
        let v = summary(file);
        assert!((num(&v, "/final/observe/total") - 1.0).abs() < 1e-10, "{v}");
        (num(&v, "/final/observe/u0") - exact).abs()
    };
    let (coarse, fine) = (err("item7_neumann_51.hph"), err("item7_neumann_101.hph"));
    assert!(coarse < 2e-4, "{coarse:e}");
    let order = (coarse / fine).log2();
    assert!((1.9..2.1).contains(&order), "order {order}");
}

#[test]
fn item8_periodic_and_dirichlet_fields_share_a_grid() {
    // p: 63 distinct periodic nodes over 1 m, so cos 2πx decays at the semi-discrete
    // rate 4/Δ²·sin²(πΔ), Δ = 1/63 m.
    let v = summary("item8_periodic_beside_dirichlet.hph");
    ended_by(&v, "when", 1.0);
    let d = 1.0 / 63.0;
    let rate = 4.0 / (d * d) * (std::f64::consts::PI * d).sin().powi(2);
    let want = 1.0 + (-0.01 * rate).exp();
    assert!((num(&v, "/final/observe/p0") - want).abs() < 1e-7, "{v}");
}

#[test]
fn item9_a_user_scheme_is_checked_against_its_own_stability_radius() {
    // next ≔ y + h·f at hλ = 10: |1 − 10| > 1, refused before the first step (was run to
    // n = 3.49e9).
    let v = summary("item9_user_scheme_unstable.hph");
    assert_eq!(v["reason"]["kind"], "unstable", "{v}");
    assert_eq!(num(&v, "/steps"), 0.0);
    // Declaring `stable 5` for it is an error: its radius is 2.
    let (code, _, err) = common::physis(&["check", &path("item9_user_scheme_overclaims.hph")]);
    assert_eq!(code, 1);
    assert!(err.contains("PH0105") && err.contains("2.000000"), "{err}");
}
