//! `physis run --ensemble` and `--sweep`: the summary's shape, statistics against closed
//! forms, sweeps against single runs, thread-count independence and usage errors.

use crate::common;
use common::physis;

fn json(args: &[&str]) -> serde_json::Value {
    let (code, out, err) = physis(args);
    assert_eq!(code, 0, "{args:?}: {err}");
    assert!(err.is_empty(), "nothing on stderr: {err}");
    serde_json::from_str(&out).expect("JSON")
}

fn num(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("{v} is not a number"))
}

const OU: &str = "examples/ornstein_uhlenbeck.hph";
const PROJECTILE: &str = "examples/projectile.hph";

#[test]
fn summary_has_the_documented_shape() {
    let s = json(&[
        "run",
        OU,
        "--ensemble",
        "40",
        "--summary",
        "--quantiles",
        "0.1,0.5,0.9",
    ]);
    assert_eq!(s["simulation"], "OrnsteinUhlenbeck");
    assert_eq!(s["members"], 40);
    assert_eq!(s["reasons"]["when"], 40);
    assert_eq!(s["reasons"]["limit"], 0);
    assert_eq!(s["excluded"], 0);
    let f = &s["final"];
    assert!((num(&f["mean"]["t"]) - 10.0).abs() < 1e-9);
    assert!(num(&f["std"]["v"]) > 0.0);
    let q = &f["quantiles"];
    assert_eq!(q.as_object().map(|o| o.len()), Some(3));
    let (lo, mid, hi) = (
        num(&q["0.1"]["v"]),
        num(&q["0.5"]["v"]),
        num(&q["0.9"]["v"]),
    );
    assert!(lo < mid && mid < hi, "{lo} {mid} {hi}");
}

/// Euler–Maruyama on `dv = −γv dt + s dW` has the stationary variance `s²h/(1 − (1 − γh)²)`
/// = `s²/(γ(2 − γh))`, which tends to the SDE's `s²/(2γ)` = σ²/2 as `h → 0`.
#[test]
fn ornstein_uhlenbeck_variance_matches_the_closed_form() {
    let n = 2000;
    let h = 0.05;
    let s = json(&[
        "run",
        OU,
        "--ensemble",
        &n.to_string(),
        "--summary",
        "--step",
        "50 ms",
        "--seed",
        "11",
    ]);
    let (gamma, sigma) = (1.0, 1.0);
    let var = num(&s["final"]["std"]["v"]).powi(2);
    let exact_em = sigma * sigma / (2.0 - gamma * h);
    // Standard error of a sample variance of normal values: var·√(2/(n−1)).
    let se = exact_em * (2.0 / (n as f64 - 1.0)).sqrt();
    assert!(
        (var - exact_em).abs() < 4.0 * se,
        "{var} vs {exact_em} ± {se}"
    );
    assert!((var - sigma * sigma / 2.0).abs() < 4.0 * se + (exact_em - 0.5));
    let mean = num(&s["final"]["mean"]["v"]);
    assert!(mean.abs() < 4.0 * (exact_em / n as f64).sqrt(), "{mean}");
}

#[test]
fn results_do_not_depend_on_threads_and_follow_the_seed() {
    let base = [
        "run",
        OU,
        "--ensemble",
        "64",
        "--summary",
        "--step",
        "50 ms",
    ];
    let with = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend_from_slice(extra);
        json(&a)
    };
    let one = with(&["--threads", "1", "--seed", "5"]);
    let two = with(&["--threads", "2", "--seed", "5"]);
    assert_eq!(one, two);
    let other = with(&["--threads", "2", "--seed", "6"]);
    assert_ne!(one["final"], other["final"]);
}

/// Final `t`, `x[0]` of the members CSV, by member.
fn members_csv(out: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = out.lines();
    let header = lines
        .next()
        .expect("header")
        .split(',')
        .map(String::from)
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    (header, rows)
}

#[test]
fn sweep_members_equal_single_runs() {
    let (code, out, err) = physis(&[
        "run",
        PROJECTILE,
        "--sweep",
        "k=0.1..0.2 Hz:2",
        "--sweep",
        "v₀=10,20,30 m/s",
        "--members",
    ]);
    assert_eq!(code, 0, "{err}");
    let (header, rows) = members_csv(&out);
    assert_eq!(
        &header[..6],
        ["member", "k", "v₀", "reason", "steps", "t"].map(String::from)
    );
    assert_eq!(rows.len(), 6);
    // The first axis varies slowest.
    let speeds = ["10", "20", "30"];
    for (i, row) in rows.iter().enumerate() {
        let (k, v) = (["0.1", "0.2"][i / 3], speeds[i % 3]);
        assert_eq!(row[0], i.to_string());
        assert_eq!(row[2].parse::<f64>().ok(), v.parse::<f64>().ok());
        let single = json(&[
            "run",
            PROJECTILE,
            "--summary",
            "--set",
            &format!("k={k} Hz"),
            "--set",
            &format!("v0={v} m/s"),
        ]);
        let f = &single["final"];
        assert_eq!(row[3], "when");
        assert_eq!(row[5].parse::<f64>().ok(), f["t"].as_f64(), "member {i}");
        // Bit for bit: the single run's last CSV row (t, height, speed) is written like the
        // member's row.
        let (code, csv, err) = physis(&[
            "run",
            PROJECTILE,
            "--set",
            &format!("k={k} Hz"),
            "--set",
            &format!("v0={v} m/s"),
        ]);
        assert_eq!(code, 0, "{err}");
        let last: Vec<&str> = csv.lines().last().unwrap_or("").split(',').collect();
        let n = row.len();
        assert_eq!(
            [row[5].as_str(), &row[n - 2], &row[n - 1]],
            [last[0], last[1], last[2]],
            "member {i}"
        );
    }
}

#[test]
fn series_of_identical_members_is_the_single_run() {
    // A deterministic model: every member is the single run, so the mean is its samples
    // and the spread zero.
    let (code, single, err) = physis(&["run", PROJECTILE]);
    assert_eq!(code, 0, "{err}");
    let (code, series, err) = physis(&["run", PROJECTILE, "--ensemble", "3"]);
    assert_eq!(code, 0, "{err}");
    let (sh, srows) = members_csv(&single);
    let (eh, erows) = members_csv(&series);
    assert_eq!(sh[..2], ["t", "height"].map(String::from));
    assert_eq!(
        eh[..6],
        [
            "t",
            "height_mean",
            "height_std",
            "height_q05",
            "height_q50",
            "height_q95"
        ]
        .map(String::from)
    );
    assert_eq!(eh.last().map(String::as_str), Some("n"));
    // The series holds the record grid; the single run also has its final sample.
    assert!(erows.len() > 100 && erows.len() <= srows.len());
    for (s, e) in srows.iter().zip(&erows) {
        assert_eq!(s[0], e[0]);
        // The mean of three equal numbers, (a + a + a)/3, is a to within an ulp or two.
        let (a, m): (f64, f64) = (s[1].parse().unwrap(), e[1].parse().unwrap());
        assert!(
            (a - m).abs() <= 4.0 * f64::EPSILON * a.abs(),
            "mean at t = {}",
            s[0]
        );
        assert_eq!(e[2].parse::<f64>().ok(), Some(0.0));
        assert_eq!(e.last().map(String::as_str), Some("3"));
    }
    let j = json(&["run", PROJECTILE, "--ensemble", "2", "--format", "json"]);
    let first = &j[0];
    assert_eq!(num(&first["t"]), 0.0);
    assert_eq!(first["n"], 2);
}

#[test]
fn bad_ensembles_are_usage_errors() {
    let cases: &[(&[&str], &str)] = &[
        (&["--sweep", "q=1..2:3"], "no param `q`"),
        (&["--sweep", "v0=10..20 s:3"], "expected"),
        (&["--sweep", "v0=10..20 m/s:0"], "at least 1"),
        (&["--sweep", "v0=20..10 m/s:1"], "count of at least 2"),
        (&["--sweep", "v0=a..b:3"], "number"),
        (&["--sweep", "v0=10..20 m/s"], "needs a count"),
        (&["--sweep", "v0=10..20 m/s:2000000"], "more than"),
        (&["--sweep", "v0=10 m/s", "--sweep", "v₀=20 m/s"], "twice"),
        (&["--sweep", "v0=10 m/s", "--set", "v₀=20 m/s"], "both set"),
        (
            &["--ensemble", "1000", "--sweep", "v0=10..20 m/s:1001"],
            "more than",
        ),
        (&["--ensemble", "0"], "at least 1"),
        (&["--ensemble", "2", "--threads", "0"], "thread"),
        (
            &["--ensemble", "2", "--quantiles", "0.5,1.5"],
            "probability",
        ),
        (&["--ensemble", "2", "--quantiles", "0.5,0.5"], "twice"),
    ];
    for (extra, expect) in cases {
        let mut args = vec!["run", PROJECTILE];
        args.extend_from_slice(extra);
        let (code, out, err) = physis(&args);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(out.is_empty(), "{extra:?}");
        assert!(err.contains(expect), "{extra:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // No observes: no statistics over time, with a hint.
    let (code, _, err) = physis(&["run", OU, "--ensemble", "2"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("observes nothing") && err.contains("--summary"),
        "{err}"
    );
}

/// An ensemble's summary ends with what computed its members: lanes compiled at once with
/// `--jit`, interpreted with `--no-jit`, compiled only once the lanes have done enough work by
/// default (three members never do), and member by member for a model lanes cannot run (an
/// adaptive scheme). Every choice gives the same final statistics, bit for bit.
#[test]
fn the_summary_says_which_back_end_ran_the_members() {
    let run = |extra: &[&str]| {
        let mut args = vec!["run", OU, "--ensemble", "3", "--summary"];
        args.extend_from_slice(extra);
        json(&args)
    };
    let (native, tape, tiered) = (run(&["--jit"]), run(&["--no-jit"]), run(&[]));
    let text = native["backend"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("jit: ") && text.contains("step") && text.ends_with(", lanes"),
        "{text}"
    );
    assert_eq!(tape["backend"], "interpreter, lanes", "{tape}");
    assert_eq!(
        tiered["backend"], "interpreter, lanes (run too short to compile)",
        "{tiered}"
    );
    for s in [&native, &tape] {
        assert_eq!(s["final"], tiered["final"]);
    }
    let adaptive = json(&["run", PROJECTILE, "--sweep", "k=0.1..0.2 Hz:2", "--summary"]);
    assert_eq!(
        adaptive["backend"], "interpreter, member by member",
        "{adaptive}"
    );
}
