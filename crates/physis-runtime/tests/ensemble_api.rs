//! The ensemble API: thread-count independence, sweeps against individual runs, reasons
//! and exclusions, the writers and the summary, and the errors.

use crate::common;

use std::sync::atomic::{AtomicUsize, Ordering};

use common::{Scheme, TestModel, model};
use physis_runtime::{
    Cmp, Cond, Ensemble, EnsembleError, EnsembleResult, ParamSet, RunOptions, Sweep, SweepError,
    plain_number, run,
};

/// Ornstein–Uhlenbeck with params `gamma`, `sigma` (the factory's names), step 50 ms, to
/// 5 s.
fn ou(p: &ParamSet) -> Result<TestModel, String> {
    let (mut gamma, mut sigma) = (1.0, 1.0);
    for (name, v) in p.iter() {
        match name {
            "gamma" | "γ" => gamma = v,
            "sigma" | "σ" => sigma = v,
            _ => return Err(format!("OrnsteinUhlenbeck has no param `{name}`")),
        }
    }
    Ok(model(
        "OrnsteinUhlenbeck",
        Scheme::EulerMaruyama,
        &[1.0],
        move |_, y, d| {
            d[0] = -gamma * y[0];
        },
    )
    .states(&[("v", vec![])])
    .noise(1, move |_, _, g| g[0] = sigma * gamma.sqrt())
    .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 5.0)
    .time_only(&[true])
    .stop(Cond::Atom(0), "t ≥ 5 s", 7)
    .observes(&["v", "v2"], |_, y, _, o| {
        o[0] = y[0];
        o[1] = y[0] * y[0];
    })
    .settings(|s| s.step = Some(0.05))
    .build())
}

fn bits(r: &EnsembleResult) -> Vec<u64> {
    let mut b: Vec<u64> = Vec::new();
    for m in &r.members {
        b.push(m.end.t.to_bits());
        b.extend(
            m.end
                .state
                .iter()
                .chain(&m.end.observe)
                .map(|v| v.to_bits()),
        );
    }
    let s = r.series().expect("series");
    for c in &s.columns {
        b.extend(c.mean.iter().chain(&c.std).map(|v| v.to_bits()));
        b.extend(c.quantiles.iter().flatten().map(|v| v.to_bits()));
    }
    b
}

#[test]
fn one_and_two_threads_give_the_same_bits() {
    let sweep = Sweep::parse(&["gamma=0.5..2:3"], plain_number).expect("parses");
    let ens = |threads| {
        Ensemble::new(ou, 40)
            .sweep(sweep.clone())
            .seed(9)
            .options(RunOptions {
                record_every: Some(0.25),
                ..Default::default()
            })
            .threads(threads)
    };
    let calls = AtomicUsize::new(0);
    let top = AtomicUsize::new(0);
    let one = ens(1).run().expect("runs");
    let two = ens(2)
        .run_with_progress(|done, total| {
            assert_eq!(total, 120);
            calls.fetch_add(1, Ordering::Relaxed);
            top.fetch_max(done, Ordering::Relaxed);
        })
        .expect("runs");
    assert_eq!(calls.load(Ordering::Relaxed), 120);
    assert_eq!(top.load(Ordering::Relaxed), 120);
    assert_eq!(one.members.len(), 120);
    assert_eq!(bits(&one), bits(&two));
    assert_eq!(one.summary_json(), two.summary_json());
    assert_eq!(one.to_csv().expect("csv"), two.to_csv().expect("csv"));
    // Members differ from each other (their own streams), yet share the record grid.
    assert_ne!(one.members[0].end.state, one.members[1].end.state);
    assert_eq!(one.series().expect("series").t.len(), 21);
}

#[test]
fn sweep_members_equal_individual_runs() {
    let sweep = Sweep::parse(&["gamma=2..0.5:4", "σ=1,3"], plain_number).expect("parses");
    let ens = Ensemble::new(ou, 3).sweep(sweep.clone()).seed(5);
    let r = ens.run().expect("runs");
    assert_eq!(r.members.len(), 24);
    for m in &r.members {
        let set = sweep.set(m.index / 3).expect("set");
        assert_eq!(m.params, set);
        let opts = RunOptions {
            seed: Some(5),
            stream: Some(m.index as u64),
            ..Default::default()
        };
        assert_eq!(ens.member_options(m.index), opts);
        let alone = run(ou(&set).expect("model"), &opts).expect("runs");
        assert_eq!(alone.end.t.to_bits(), m.end.t.to_bits());
        assert_eq!(alone.end.stats, m.end.stats);
        let a: Vec<u64> = alone.end.state.iter().map(|v| v.to_bits()).collect();
        let b: Vec<u64> = m.end.state.iter().map(|v| v.to_bits()).collect();
        assert_eq!(a, b, "member {}", m.index);
    }
    // Member 9 runs set 3 (first axis slowest): gamma = 1.5, σ = 3.
    assert_eq!(r.members[9].params.get("gamma"), Some(1.5));
    assert_eq!(r.members[9].params.get("σ"), Some(3.0));
}

/// `y' = a`, `v' = (1, 2)`, y(0) = ln p, Euler step 0.1, stop at t ≥ 1, observe `twice`
/// = 2y; the param `lim` sets the step limit.
fn drift(p: &ParamSet) -> Result<TestModel, String> {
    let a = p.get("a").unwrap_or(1.0);
    let y0 = p.get("p").unwrap_or(1.0).ln();
    let lim = p.get("lim").map(|l| l as u64);
    Ok(
        model("Drift", Scheme::Euler, &[y0, 0.0, 0.0], move |_, _, d| {
            d[0] = a;
            d[1] = 1.0;
            d[2] = 2.0;
        })
        .states(&[("y", vec![]), ("v", vec![2])])
        .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 1.0)
        .time_only(&[true])
        .stop(Cond::Atom(0), "t ≥ 1 s", 4)
        .observes(&["twice"], |_, y, _, o| o[0] = 2.0 * y[0])
        .settings(|s| {
            s.step = Some(0.1);
            s.limit = lim;
        })
        .build(),
    )
}

#[test]
fn reasons_are_counted_and_non_finite_members_excluded() {
    let sweep = Sweep::parse(&["a=1..3:3", "p=-1,1", "lim=5,100"], plain_number).expect("ok");
    let r = Ensemble::new(drift, 1)
        .sweep(sweep)
        .threads(2)
        .run()
        .expect("runs");
    assert_eq!(r.members.len(), 12);
    assert_eq!(r.excluded(), 6);
    assert_eq!(r.finals.n, 6);
    let json: serde_json::Value = serde_json::from_str(&r.summary_json()).expect("json");
    let text = r.summary_json();
    assert!(
        text.starts_with(
            r#"{"simulation":"Drift","members":12,"reasons":{"when":3,"limit":3,"diverged":6,"unstable":0,"violated":0},"excluded":6,"#
        ),
        "{text}"
    );
    // Included: a ∈ {1, 2, 3}, each once ending at t = 0.5 (limit 5) and once at t = 1.
    let f = &json["final"];
    assert!((f["mean"]["t"].as_f64().expect("t") - 0.75).abs() < 1e-12);
    let y_mean = f["mean"]["y"].as_f64().expect("y");
    assert!((y_mean - 0.75 * 2.0).abs() < 1e-12, "{y_mean}");
    let v = f["mean"]["v"].as_array().expect("vector state as an array");
    assert!((v[0].as_f64().expect("v0") - 0.75).abs() < 1e-12);
    assert!((v[1].as_f64().expect("v1") - 1.5).abs() < 1e-12);
    // y at the end: {0.5, 1, 1.5, 1, 2, 3}; type-7 median 1.25, 5 % quantile 0.625.
    let q = &f["quantiles"];
    assert!((q["0.5"]["y"].as_f64().expect("median") - 1.25).abs() < 1e-12);
    assert!((q["0.05"]["y"].as_f64().expect("q05") - 0.625).abs() < 1e-12);
    assert!((q["0.95"]["twice"].as_f64().expect("q95") - 5.5).abs() < 1e-12);
    assert_eq!(json["series"]["grid"], "step");
    // The step grid: all six finite members at k ≤ 5, the three unlimited ones after.
    let s = r.series().expect("series");
    assert_eq!(s.t.len(), 11);
    assert_eq!(&s.n[..], &[6, 6, 6, 6, 6, 6, 3, 3, 3, 3, 3]);
    assert_eq!(s.t[3], 0.30000000000000004);
    let csv = r.to_csv().expect("csv");
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("t,twice_mean,twice_std,twice_q05,twice_q50,twice_q95,n")
    );
    assert_eq!(lines.next(), Some("0.0,0.0,0.0,0.0,0.0,0.0,6"));
    assert_eq!(csv.lines().count(), 12);
    // Members as CSV: one row each, params first, NaN for the diverged states.
    let mut out = Vec::new();
    r.write_members_csv(&mut out).expect("writes");
    let text = String::from_utf8(out).expect("utf-8");
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[0], "member,a,p,lim,reason,steps,t,y,v[0],v[1],twice");
    assert_eq!(rows[1], "0,1.0,-1.0,5.0,diverged,0,0.0,NaN,0.0,0.0,NaN");
    assert!(rows[2].starts_with("1,1.0,-1.0,100.0,diverged,"));
    assert!(
        rows[3].starts_with("2,1.0,1.0,5.0,limit,5,0.5,"),
        "{}",
        rows[3]
    );
}

#[test]
fn series_json_matches_the_csv_columns() {
    let r = Ensemble::new(ou, 30)
        .options(RunOptions {
            record_every: Some(1.0),
            ..Default::default()
        })
        .quantiles(&[0.25, 0.75])
        .run()
        .expect("runs");
    let mut out = Vec::new();
    r.write_json(&mut out).expect("writes");
    let rows: serde_json::Value = serde_json::from_slice(&out).expect("json");
    let rows = rows.as_array().expect("array");
    let s = r.series().expect("series");
    assert_eq!(rows.len(), 6);
    assert_eq!(
        r.series_header(),
        [
            "t", "v_mean", "v_std", "v_q25", "v_q75", "v2_mean", "v2_std", "v2_q25", "v2_q75", "n"
        ]
    );
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(row["t"].as_f64(), Some(s.t[k]));
        assert_eq!(row["v2_q75"].as_f64(), Some(s.columns[1].quantiles[1][k]));
        assert_eq!(row["n"].as_u64(), Some(30));
    }
    // At t = 0 every member is at v = 1: no spread.
    assert_eq!(rows[0]["v_std"].as_f64(), Some(0.0));
    // E[v²] ≥ (E v)²: the two columns agree with each other.
    for k in 1..s.t.len() {
        let (m, sd, m2) = (
            s.columns[0].mean[k],
            s.columns[0].std[k],
            s.columns[1].mean[k],
        );
        let n = 30.0;
        assert!((m2 - (m * m + sd * sd * (n - 1.0) / n)).abs() < 1e-12);
    }
}

#[test]
fn adaptive_runs_without_a_record_grid_aggregate_finals_only() {
    let decay = |_: &ParamSet| -> Result<TestModel, String> {
        Ok(model("Decay", Scheme::Dp45, &[1.0], |_, y, d| d[0] = -y[0])
            .atoms(&[Cmp::Ge], |t, _, _, m| m[0] = t - 1.0)
            .time_only(&[true])
            .stop(Cond::Atom(0), "t ≥ 1 s", 3)
            .observes(&["y"], |_, y, _, o| o[0] = y[0])
            .build())
    };
    let r = Ensemble::new(decay, 4).run().expect("runs");
    assert!(r.series.is_none());
    assert!(matches!(r.to_csv(), Err(EnsembleError::NoSeries { .. })));
    let json: serde_json::Value = serde_json::from_str(&r.summary_json()).expect("json");
    assert!(
        json["series"]["none"]
            .as_str()
            .expect("why")
            .contains("record")
    );
    assert!((json["final"]["mean"]["y0"].as_f64().expect("y") - (-1f64).exp()).abs() < 1e-7);
    // With a record interval the members share a grid again.
    let r = Ensemble::new(decay, 4)
        .options(RunOptions {
            record_every: Some(0.5),
            ..Default::default()
        })
        .run()
        .expect("runs");
    let s = r.series().expect("series");
    assert_eq!(s.t, vec![0.0, 0.5, 1.0]);
    // Recorded through the driver's cubic Hermite interpolant of a long rk45 step.
    assert!((s.columns[0].mean[1] - (-0.5f64).exp()).abs() < 1e-5);
}

#[test]
fn bad_ensembles_are_typed_errors() {
    let run_err = |e: Ensemble<TestModel, _>| e.run().map(|_| ()).unwrap_err();
    assert!(matches!(
        run_err(Ensemble::new(ou, 0)),
        EnsembleError::NoMembers
    ));
    assert!(matches!(
        run_err(Ensemble::new(ou, 2).threads(0)),
        EnsembleError::NoThreads
    ));
    assert!(matches!(
        run_err(Ensemble::new(ou, 2).quantiles(&[0.5, 1.5])),
        EnsembleError::BadQuantile { p } if p == 1.5
    ));
    assert!(matches!(
        run_err(Ensemble::new(ou, 2).quantiles(&[0.5, f64::NAN])),
        EnsembleError::BadQuantile { .. }
    ));
    assert!(matches!(
        run_err(Ensemble::new(ou, 2).quantiles(&[0.5, 0.5])),
        EnsembleError::DuplicateQuantile { .. }
    ));
    let sweep = Sweep::parse(&["mass=1,2"], plain_number).expect("parses");
    let e = run_err(Ensemble::new(ou, 2).sweep(sweep));
    assert!(matches!(e, EnsembleError::Factory { .. }));
    assert!(e.to_string().contains("no param `mass`"), "{e}");
    let e = run_err(Ensemble::new(ou, 2).options(RunOptions {
        step: Some(-1.0),
        ..Default::default()
    }));
    assert!(matches!(e, EnsembleError::Run { member: 0, .. }), "{e}");
    let big = Sweep::parse(&["gamma=1..2:5000"], plain_number).expect("parses");
    assert!(matches!(
        run_err(Ensemble::new(ou, 5000).sweep(big)),
        EnsembleError::TooMany {
            members: 25_000_000
        }
    ));
    assert!(matches!(
        Sweep::parse(&["gamma=1,2", "gamma=3"], plain_number),
        Err(SweepError::Duplicate { .. })
    ));
}

/// More threads than members (the fuzz campaign's `--ensemble 4 --threads 1024` failed under
/// a memory cap) run with the same bits as one thread; the pool is capped at the members
/// (`ensemble::tests::a_pool_is_never_wider_than_its_work`).
#[test]
fn more_threads_than_members_start_only_one_per_member() {
    let ens = |threads| Ensemble::new(ou, 3).seed(9).threads(threads);
    let one = ens(1).run().expect("runs");
    let many = ens(1024).run().expect("1,024 threads capped at three");
    assert_eq!(bits(&one), bits(&many));
}
