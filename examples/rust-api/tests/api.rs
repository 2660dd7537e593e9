//! The generated API against closed forms, and the example binary built and run.

use physis_runtime::{ReasonKind, RunOptions, SampleKind};
use rust_api::{BouncingBall, Decay, LotkaVolterra, Projectile, ProjectileParams};

const G0: f64 = 9.80665;

/// Linear drag `v' = −g·ŷ − k·v`: position at `t` from speed `v0` at angle `a`.
fn drag_position(v0: f64, a: f64, k: f64, t: f64) -> (f64, f64) {
    let e = 1.0 - (-k * t).exp();
    let x = v0 * a.cos() / k * e;
    let y = (v0 * a.sin() / k + G0 / (k * k)) * e - G0 * t / k;
    (x, y)
}

#[test]
fn projectile_lands_on_the_drag_parabola() {
    let p = Projectile::new();
    for (run, params) in [
        (p.run().unwrap(), Projectile::defaults()),
        (p.steep().unwrap(), ProjectileParams::steep()),
        (
            p.run_with(ProjectileParams {
                v0: 50.0,
                ..Projectile::defaults()
            })
            .unwrap(),
            ProjectileParams {
                v0: 50.0,
                ..Projectile::defaults()
            },
        ),
    ] {
        assert_eq!(run.reason.kind, ReasonKind::When);
        assert_eq!(run.reason.clause.as_deref(), Some("x[1] < 0 m ∧ t > 0 s"));
        assert_eq!(run.reason.line, Some(14));
        let (x, y) = drag_position(params.v0, params.alpha, params.k, run.final_t);
        assert!(y.abs() < 1e-6, "lands at height {y}");
        assert!(
            (run.final_state.x[0] - x).abs() < 1e-6,
            "{} vs {x}",
            run.final_state.x[0]
        );
        // One column per observe, on the 10 ms grid plus the final sample.
        assert_eq!(run.height.len(), run.time.len());
        assert!((run.time[1] - 0.01).abs() < 1e-15);
        let speed = run.final_state.v[0].hypot(run.final_state.v[1]);
        // `norm(v)` is √(vx² + vy²), not `hypot`: equal to rounding.
        let last = run.speed.last().copied().unwrap_or(f64::NAN);
        assert!(
            (last - speed).abs() <= 4.0 * f64::EPSILON * speed,
            "{last} vs {speed}"
        );
    }
    assert!((ProjectileParams::steep().alpha - 70f64.to_radians()).abs() < 1e-15);
    let csv = p.run().unwrap().to_csv();
    assert!(
        csv.starts_with("t,height,speed\n0.0,0.0,30.0"),
        "{}",
        &csv[..40]
    );
}

#[test]
fn a_stream_gives_the_samples_of_the_run() {
    let ball = BouncingBall::new();
    let run = ball.run().unwrap();
    let samples: Vec<_> = ball.stream().unwrap().collect();
    assert_eq!(samples.len(), run.time.len());
    for (s, (t, h)) in samples.iter().zip(run.time.iter().zip(&run.height)) {
        assert_eq!((s.t, s.height), (*t, *h));
        assert_eq!(s.state.y, s.height);
    }
    // Dropped from 10 m: the first bounce at √(2h/g), each flight after it 0.8× the last.
    let bounces: Vec<f64> = samples
        .iter()
        .filter(|s| s.kind == SampleKind::AfterEvent)
        .map(|s| s.t)
        .collect();
    let first = (2.0 * 10.0 / G0).sqrt();
    assert!((bounces[0] - first).abs() < 1e-9, "{}", bounces[0]);
    let flight = 2.0 * 0.8 * G0 * first / G0;
    assert!((bounces[1] - bounces[0] - flight).abs() < 1e-8);
}

#[test]
fn lotka_volterra_keeps_its_invariant() {
    let m = LotkaVolterra::new();
    let p = LotkaVolterra::defaults();
    let v = |x: f64, y: f64| p.d * x - p.c * x.ln() + p.b * y - p.a * y.ln();
    let run = m
        .run_configured(
            p,
            RunOptions {
                tolerance: Some(1e-10),
                ..RunOptions::default()
            },
        )
        .unwrap();
    assert_eq!(run.final_t, 10.0);
    let drift = v(run.final_state.x, run.final_state.y) - v(1.0, 1.0);
    assert!(drift.abs() < 1e-8, "{drift}");
    assert_eq!(run.prey.len(), run.time.len());
}

#[test]
fn decay_under_a_user_scheme_stops_where_the_exponential_says() {
    let run = Decay::new().run().unwrap();
    assert_eq!(run.reason.clause.as_deref(), Some("n < 0.01 ∨ t ≥ 20 s"));
    // n = e^{−λt} crosses 0.01 at ln(100)/λ; Heun at h = 10 ms is good to ~1e-5 there.
    let expected = 100f64.ln() / 0.5;
    assert!((run.final_t - expected).abs() < 1e-4, "{}", run.final_t);
}

#[test]
fn the_example_binary_runs() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rust-api"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("projectile: when `x[1] < 0 m ∧ t > 0 s` (line 14)"),
        "{text}"
    );
    assert!(text.contains("projectile, run Steep: lands"), "{text}");
    assert!(text.contains("bouncing ball: "), "{text}");
    assert!(text.contains("lotka-volterra: prey"), "{text}");
    assert!(text.contains("decay: `n < 0.01 ∨ t ≥ 20 s`"), "{text}");
}

#[test]
fn a_run_becomes_an_arrow_frame_with_units() {
    use arrow_array::{Array, Float64Array};
    use physis_runtime::RunColumns;
    use physis_runtime::frame::UNIT_KEY;

    let run = Projectile::new().run().unwrap();
    let batch = run.to_record_batch().unwrap();
    assert_eq!(batch.num_rows(), run.time.len());
    let schema = batch.schema();
    let want: [(&str, &str, &[f64]); 3] = [
        ("t", "s", &run.time),
        ("height", "m", &run.height),
        ("speed", "m/s", &run.speed),
    ];
    assert_eq!(batch.num_columns(), want.len());
    for (k, (name, unit, values)) in want.iter().enumerate() {
        let field = schema.field(k);
        assert_eq!(field.name(), name);
        assert_eq!(
            field.metadata().get(UNIT_KEY).map(String::as_str),
            Some(*unit)
        );
        let col = batch
            .column(k)
            .as_any()
            .downcast_ref::<Float64Array>()
            .unwrap();
        assert_eq!(col.null_count(), 0);
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(col.values()), bits(values), "{name}");
    }
}
