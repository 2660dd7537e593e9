//! The studio's HTTP API through its router, in-process (`tower::ServiceExt::oneshot`): check,
//! run against closed forms, downloads, every limit, and bad input answered with a clear JSON
//! error.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use tower::ServiceExt;

use super::api::{Studio, router};
use super::job::Limits;

const PROJECTILE: &str = include_str!("../../../../examples/projectile.hph");
const G0: f64 = 9.80665;

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(f)
}

/// Sends `body` to `path` (POST, or GET when `body` is `None`): status, content type, bytes.
fn send(limits: Limits, path: &str, body: Option<Vec<u8>>) -> (StatusCode, String, Vec<u8>) {
    block_on(async {
        let app = router(Studio::new(limits, 1));
        let request = match body {
            Some(b) => Request::post(path)
                .header("content-type", "application/json")
                .body(Body::from(b)),
            None => Request::get(path).body(Body::empty()),
        }
        .expect("a request");
        let response = app.oneshot(request).await.expect("a response");
        let status = response.status();
        let mime = (response.headers().get("content-type"))
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .expect("a body");
        (status, mime, bytes.to_vec())
    })
}

fn post(path: &str, body: Value) -> (StatusCode, Value) {
    post_with(Limits::default(), path, body)
}

fn post_with(limits: Limits, path: &str, body: Value) -> (StatusCode, Value) {
    let (status, mime, bytes) = send(limits, path, Some(body.to_string().into_bytes()));
    assert!(mime.starts_with("application/json"), "{mime}");
    (status, serde_json::from_slice(&bytes).expect("JSON"))
}

fn error_of(reply: &Value) -> (&str, &str) {
    (
        reply["error"]["kind"].as_str().unwrap_or(""),
        reply["error"]["message"].as_str().unwrap_or(""),
    )
}

#[test]
fn the_page_its_script_and_the_examples_are_served() {
    let (status, mime, page) = send(Limits::default(), "/", None);
    assert_eq!(status, StatusCode::OK);
    assert!(mime.starts_with("text/html"));
    assert!(String::from_utf8_lossy(&page).contains("<script src=\"/studio.js\">"));
    let (status, mime, script) = send(Limits::default(), "/studio.js", None);
    assert_eq!(status, StatusCode::OK);
    assert!(mime.starts_with("text/javascript"));
    assert!(script.len() > 10_000);
    let (_, _, list) = send(Limits::default(), "/api/examples", None);
    let list: Value = serde_json::from_slice(&list).expect("JSON");
    assert_eq!(list[0]["name"], "projectile.hph");
    assert_eq!(list[0]["source"], PROJECTILE);
}

#[test]
fn a_clean_model_gives_its_params_with_units_and_its_named_runs() {
    let (status, reply) = post("/api/check", json!({ "source": PROJECTILE }));
    assert_eq!(status, StatusCode::OK);
    assert_eq!(reply["diagnostics"], json!([]));
    let sim = &reply["simulations"][0];
    assert_eq!(sim["name"], "Projectile");
    assert_eq!(sim["runs"], json!(["Steep"]));
    let params = sim["params"].as_array().expect("params");
    let v0 = params.iter().find(|p| p["name"] == "v₀").expect("v₀");
    assert_eq!(
        (&v0["unit"], &v0["default"]),
        (&json!("m/s"), &json!([30.0]))
    );
    let k = params.iter().find(|p| p["name"] == "k").expect("k");
    assert_eq!(
        (&k["unit"], &k["quantity"]),
        (&json!("1/s"), &json!("Frequency"))
    );
}

#[test]
fn a_dimension_error_has_its_code_and_its_span_in_utf16_units() {
    let broken = PROJECTILE.replace("− k·v\n", "− k·x\n");
    let (status, reply) = post("/api/check", json!({ "source": broken }));
    assert_eq!(status, StatusCode::OK);
    let d = &reply["diagnostics"][0];
    assert_eq!(d["code"], "PH0203");
    assert_eq!(d["severity"], "error");
    let units: Vec<u16> = broken.encode_utf16().collect();
    let span = &units[d["from"].as_u64().unwrap() as usize..d["to"].as_u64().unwrap() as usize];
    assert_eq!(String::from_utf16_lossy(span), "[0 m/s², −g₀] − k·x");
    assert_eq!(reply["simulations"], json!([]));
}

#[test]
fn a_run_without_drag_lands_when_the_closed_form_says() {
    // No drag: the flight lasts 2·v₀·sin α / g₀ and covers v₀·cos α times that.
    let (status, reply) = post(
        "/api/run",
        json!({ "source": PROJECTILE, "set": { "v0": "20 m/s", "α": "0.5235987755982988 rad", "k": "0 1/s" } }),
    );
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["reason"], "when");
    assert_eq!(reply["clause"], "x[1] < 0 m ∧ t > 0 s");
    assert_eq!(reply["line"], 14);
    let (v0, alpha) = (20.0_f64, 30f64.to_radians());
    let flight = 2.0 * v0 * alpha.sin() / G0;
    let t = reply["t"].as_f64().unwrap();
    assert!((t - flight).abs() < 1e-9, "{t} vs {flight}");
    let x = &reply["state"][0];
    assert_eq!((&x["name"], &x["unit"]), (&json!("x"), &json!("m")));
    let range = x["value"][0].as_f64().unwrap();
    assert!((range - v0 * alpha.cos() * flight).abs() < 1e-8, "{range}");
    let svg = reply["svg"].as_str().unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("height"),
        "{}",
        &svg[..80]
    );
}

#[test]
fn a_named_run_is_chosen_by_name() {
    let (_, flat) = post("/api/run", json!({ "source": PROJECTILE }));
    let (status, steep) = post("/api/run", json!({ "source": PROJECTILE, "run": "Steep" }));
    assert_eq!(status, StatusCode::OK);
    assert_eq!(steep["run"], "Steep");
    assert!(steep["t"].as_f64() > flat["t"].as_f64());
    let (status, reply) = post("/api/run", json!({ "source": PROJECTILE, "run": "Flat" }));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        error_of(&reply).1,
        "error: `Projectile` has no run `Flat`; it has: Steep"
    );
}

#[test]
fn downloads_are_csv_and_parquet_of_every_sample() {
    let body = json!({ "source": PROJECTILE }).to_string().into_bytes();
    let (status, mime, csv) = send(
        Limits::default(),
        "/api/download?format=csv",
        Some(body.clone()),
    );
    assert_eq!(status, StatusCode::OK);
    assert!(mime.starts_with("text/csv"));
    let csv = String::from_utf8(csv).expect("UTF-8");
    assert_eq!(csv.lines().next(), Some("t,height,speed"));
    // `record every 10 ms` over a flight of about 4 s, plus the ends.
    assert!(csv.lines().count() > 300, "{}", csv.lines().count());
    let (status, _, parquet) = send(
        Limits::default(),
        "/api/download?format=parquet",
        Some(body.clone()),
    );
    assert_eq!(status, StatusCode::OK);
    assert!(parquet.starts_with(b"PAR1") && parquet.ends_with(b"PAR1"));
    let (status, _, bad) = send(Limits::default(), "/api/download?format=xlsx", Some(body));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(String::from_utf8_lossy(&bad).contains("unknown download format `xlsx`"));
}

/// A run that would take about 10¹² steps.
const ENDLESS: &str = "simulate Slow {
  state x : Length = 0 m
  law x' = 1 m/s
  integrate euler step 1 us
  stop when t ≥ 1000000 s
}
";

#[test]
fn a_run_past_its_wall_time_is_stopped_with_a_clear_error() {
    let limits = Limits {
        wall: Duration::from_millis(200),
        steps: u64::MAX,
        ..Limits::default()
    };
    let (status, reply) = post_with(limits, "/api/run", json!({ "source": ENDLESS }));
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (kind, message) = error_of(&reply);
    assert_eq!(kind, "limit");
    assert!(
        message.contains("longer than 0.2 s of wall time"),
        "{message}"
    );
}

#[test]
fn a_run_past_its_steps_ends_as_limit() {
    let limits = Limits {
        steps: 1000,
        ..Limits::default()
    };
    let (status, reply) = post_with(limits, "/api/run", json!({ "source": ENDLESS }));
    assert_eq!(status, StatusCode::OK, "{reply}");
    assert_eq!(reply["reason"], "limit");
    assert_eq!(reply["steps"], 1000);
    // x = t = 1000 steps of 1 µs.
    let x = reply["state"][0]["value"][0].as_f64().unwrap();
    assert!((x - 1e-3).abs() < 1e-12, "{x}");
}

#[test]
fn a_download_past_its_samples_is_refused() {
    let limits = Limits {
        samples: 50,
        ..Limits::default()
    };
    let (status, reply) = post_with(
        limits,
        "/api/download?format=csv",
        json!({ "source": PROJECTILE }),
    );
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (kind, message) = error_of(&reply);
    assert_eq!(kind, "limit");
    assert!(message.contains("more than 50 samples"), "{message}");
}

#[test]
fn bad_input_is_a_clear_json_error() {
    let (status, _, bytes) = send(Limits::default(), "/api/run", Some(b"not json".to_vec()));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let reply: Value = serde_json::from_slice(&bytes).expect("JSON");
    assert_eq!(error_of(&reply).0, "request");
    assert!(error_of(&reply).1.starts_with("bad request body"));

    let (status, reply) = post("/api/run", json!({ "source": PROJECTILE, "speed": 3 }));
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&reply).1.contains("unknown field `speed`"));

    let (status, reply) = post(
        "/api/run",
        json!({ "source": PROJECTILE, "set": { "mass": "1 kg" } }),
    );
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        error_of(&reply).1.contains("has no param `mass`"),
        "{reply}"
    );

    let (status, reply) = post(
        "/api/run",
        json!({ "source": PROJECTILE, "set": { "v0": "20 kg" } }),
    );
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_of(&reply).1.contains("v0"), "{reply}");

    let broken = PROJECTILE.replace("− k·v\n", "− k·x\n");
    let (status, reply) = post("/api/run", json!({ "source": broken }));
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (kind, message) = error_of(&reply);
    assert_eq!(kind, "model");
    assert!(message.contains("error[PH0203]"), "{message}");

    let small = Limits {
        source_bytes: 100,
        ..Limits::default()
    };
    let (status, reply) = post_with(small, "/api/check", json!({ "source": PROJECTILE }));
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(error_of(&reply).0, "limit");
}

#[test]
fn a_panic_in_a_handler_is_an_internal_error_not_a_dead_server() {
    let result: Result<(), _> = block_on(super::api::blocking(|| panic!("boom")));
    let e = result.unwrap_err();
    assert_eq!(e.status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(e.message.contains("boom"), "{}", e.message);
}
