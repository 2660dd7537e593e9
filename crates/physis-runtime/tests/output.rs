//! Writers, the summary's exact layout, the stream, and determinism.

use crate::common;

use common::{Scheme, all, model};
use physis_runtime::{Cmp, CsvWriter, JsonWriter, RunOptions, Summary, run, run_tee, stream};

fn projectile() -> common::TestModel {
    let (g, k) = (9.80665, 0.1);
    let a = 45f64.to_radians();
    model(
        "Projectile",
        Scheme::Dp45,
        &[0.0, 0.0, 30.0 * a.cos(), 30.0 * a.sin()],
        move |_, y, d| {
            d[0] = y[2];
            d[1] = y[3];
            d[2] = -k * y[2];
            d[3] = -g - k * y[3];
        },
    )
    .states(&[("x", vec![2]), ("v", vec![2])])
    .settings(|s| {
        s.tolerance = 1e-9;
        s.record_every = Some(0.01);
    })
    .observes(&["height", "speed"], |_, y, _, o| {
        o[0] = y[1];
        o[1] = y[2].hypot(y[3]);
    })
    .atoms(&[Cmp::Lt, Cmp::Gt], |t, y, _, m| {
        m[0] = y[1];
        m[1] = t;
    })
    .stop(all(&[0, 1]), "x[1] < 0 m ∧ t > 0 s", 14)
    .build()
}

#[test]
fn summary_has_the_exact_layout() {
    let r = run(projectile(), &RunOptions::default()).expect("runs");
    let json = r.summary(None, "interpreter").to_json();
    let v: serde_json::Value = serde_json::from_str(&json).expect("valid json");
    let prefix = "{\"simulation\":\"Projectile\",\"run\":null,\"reason\":{\"kind\":\"when\",\
                  \"clause\":\"x[1] < 0 m ∧ t > 0 s\",\"line\":14},\"samples\":";
    assert!(json.starts_with(prefix), "{json}");
    assert_eq!(v["samples"].as_u64(), Some(r.time.len() as u64));
    assert_eq!(v["steps"].as_u64(), Some(r.stats().steps));
    assert_eq!(v["rejected"].as_u64(), Some(r.stats().rejections));
    assert_eq!(v["rejected_newton"].as_u64(), Some(0));
    assert_eq!(v["evaluations"].as_u64(), Some(r.stats().evaluations));
    assert_eq!(v["events"].as_u64(), Some(0));
    assert!(json.contains("\"steps\":") && json.find("\"rejected\":") < json.find("\"final\":"));
    assert!(json.find("\"rejected\":") < json.find("\"rejected_newton\":"));
    assert!(json.find("\"rejected_newton\":") < json.find("\"evaluations\":"));
    let keys: Vec<&str> = [
        "\"final\":{\"t\":",
        "\"state\":{\"x\":[",
        "\"v\":[",
        "\"observe\":{\"height\":",
        "\"speed\":",
        "}},\"backend\":\"interpreter\"}",
    ]
    .into_iter()
    .collect();
    let mut at = 0;
    for k in keys {
        let i = json[at..]
            .find(k)
            .unwrap_or_else(|| panic!("{k} missing after {at} in {json}"));
        at += i + k.len();
    }
    assert_eq!(v["final"]["state"]["x"].as_array().map(Vec::len), Some(2));
    assert!((v["final"]["t"].as_f64().unwrap_or(0.0) - 4.05).abs() < 0.1);
    let named = Summary {
        info: &r.info,
        run: Some("Steep"),
        end: &r.end,
        backend: "generated",
    }
    .to_json();
    assert!(named.contains("\"run\":\"Steep\""));
    assert!(named.ends_with(",\"backend\":\"generated\"}"), "{named}");
}

#[test]
fn csv_and_json_stream_the_same_samples_deterministically() {
    let opts = RunOptions::default();
    let mut csv = CsvWriter::new(Vec::new());
    let r = run_tee(projectile(), &opts, &mut csv).expect("runs");
    let text = String::from_utf8(csv.into_inner()).expect("utf8");
    assert_eq!(text, r.to_csv());
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("t,height,speed"));
    assert_eq!(lines.next(), Some("0.0,0.0,30.0"));
    assert_eq!(text.lines().count(), r.time.len() + 1);
    // Same model, same bytes.
    let mut again = CsvWriter::new(Vec::new());
    run_tee(projectile(), &opts, &mut again).expect("runs");
    assert_eq!(again.into_inner(), text.as_bytes());
    let mut json = JsonWriter::new(Vec::new());
    run_tee(projectile(), &opts, &mut json).expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&json.into_inner()).expect("valid json");
    let rows = v.as_array().expect("array");
    assert_eq!(rows.len(), r.time.len());
    assert_eq!(rows[1]["t"].as_f64(), Some(0.01));
    assert_eq!(
        rows[5]["height"].as_f64(),
        Some(r.column("height").expect("h")[5])
    );
}

#[test]
fn the_stream_yields_what_the_run_records() {
    let r = run(projectile(), &RunOptions::default()).expect("runs");
    let mut s = stream(projectile(), &RunOptions::default()).expect("starts");
    let samples: Vec<_> = s.by_ref().collect();
    assert_eq!(samples.len(), r.time.len());
    for (a, (t, h)) in samples
        .iter()
        .zip(r.time.iter().zip(r.column("height").expect("h")))
    {
        assert_eq!(
            (a.t.to_bits(), a.observe[0].to_bits()),
            (t.to_bits(), h.to_bits())
        );
    }
    assert_eq!(s.end().map(|e| e.t), Some(r.final_t()));
}
