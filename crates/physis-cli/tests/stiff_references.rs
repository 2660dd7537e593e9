//! The adaptive stiff scheme `esdirk43` through the `physis` binary, against an independent
//! reference: SciPy's Radau IIA at rtol 1e-12, atol 1e-20 (`tests/stiff/refs.py`, its output
//! committed as `tests/stiff/refs.txt`). Robertson is written with units as a user would
//! (mol/L), checked at t = 1e0 … 1e11 s; Van der Pol μ = 1000 at t = 3000 s. The full sweep
//! over tolerances, with and without `abs`, is `tests/stiff/sweep.py` (`sweep.txt`).

use crate::common;

use common::physis;

const ROBERTSON: &str = include_str!("stiff/robertson.hph");
const VAN_DER_POL: &str = include_str!("stiff/van_der_pol.hph");
const REFS: &str = include_str!("stiff/refs.txt");

/// The reference lines starting with `tag`, their numbers parsed.
fn refs(tag: &str) -> Vec<Vec<f64>> {
    REFS.lines()
        .filter_map(|l| l.strip_prefix(tag))
        .map(|l| {
            l.split_whitespace()
                .map(|x| x.parse().expect("a number"))
                .collect()
        })
        .collect()
}

/// Runs `text` with `--summary`; the summary, which must end on the stop clause.
fn run(name: &str, text: &str) -> serde_json::Value {
    let dir = std::env::temp_dir().join(format!("physis-stiff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("model written");
    let (code, out, err) = physis(&["run", "--summary", &path.to_string_lossy()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["reason"]["kind"], "when", "{v}");
    v
}

fn observe(v: &serde_json::Value, name: &str) -> f64 {
    v["final"]["observe"][name]
        .as_f64()
        .unwrap_or_else(|| panic!("`{name}` missing: {v}"))
}

fn count(v: &serde_json::Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("`{key}` missing: {v}"))
}

/// The worst relative errors of y₁, y₂, y₃ over the reference times under `settings`, and
/// the summary of the run to 1e11 s.
fn robertson(settings: &str) -> ([f64; 3], serde_json::Value) {
    let file = format!("robertson-{}.hph", settings.len());
    let mut worst = [0.0f64; 3];
    let mut last = None;
    for r in refs("robertson ") {
        let text = ROBERTSON
            .replace("SETTINGS", settings)
            .replace("END", &format!("{:e} s", r[0]));
        let v = run(&file, &text);
        for (i, name) in ["y₁", "y₂", "y₃"].iter().enumerate() {
            let e = ((observe(&v, name) - r[i + 1]) / r[i + 1]).abs();
            worst[i] = worst[i].max(e);
        }
        last = Some(v);
    }
    (worst, last.expect("twelve reference times"))
}

const ABS: &str = "abs a: 1e-14 mol/L, b: 1e-18 mol/L, c: 1e-14 mol/L";

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn robertson_meets_the_radau_reference_from_1_to_1e11_seconds() {
    for tol in ["1e-6", "1e-8"] {
        let settings = format!("esdirk43 tolerance {tol} {ABS}");
        let (worst, v) = robertson(&settings);
        eprintln!(
            "{settings}: worst relative errors y1 {:.1e}, y2 {:.1e}, y3 {:.1e}; {} steps, {} \
             rejected, {} evaluations, {} Jacobians, {} factorisations",
            worst[0],
            worst[1],
            worst[2],
            count(&v, "steps"),
            count(&v, "rejected"),
            count(&v, "evaluations"),
            count(&v, "jacobians"),
            count(&v, "factorisations"),
        );
        // Every component within 1e-4 relative, y₂ (which the issue asks only to meet in
        // absolute terms) included.
        assert!(worst.iter().all(|e| *e < 1e-4), "{settings}: {worst:?}");
        // Simplified Newton keeps its Jacobian across steps: far fewer than one a step.
        assert!(
            5 * count(&v, "jacobians") < count(&v, "steps"),
            "{settings}: {v}"
        );
    }
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn robertson_without_abs_keeps_the_absolute_error_below_the_scale() {
    // Without `abs` each state's absolute tolerance is `tolerance` times its running peak
    // (docs/tolerances.md): y₁ ends near 2e-8 of its start, so its relative error there is
    // not bounded by 1e-4; its absolute error, beside its scale of 1 mol/L, is.
    let settings = "esdirk43 tolerance 1e-8";
    let mut worst = [0.0f64; 3];
    let peak_b = 3.7e-5;
    for r in refs("robertson ") {
        let text = ROBERTSON
            .replace("SETTINGS", settings)
            .replace("END", &format!("{:e} s", r[0]));
        let v = run("robertson-no-abs.hph", &text);
        for (i, (name, scale)) in [("y₁", 1.0), ("y₂", peak_b), ("y₃", 1.0)]
            .iter()
            .enumerate()
        {
            worst[i] = worst[i].max((observe(&v, name) - r[i + 1]).abs() / scale);
        }
    }
    eprintln!("{settings}: worst absolute errors beside each state's peak {worst:?}");
    assert!(worst.iter().all(|e| *e < 1e-5), "{worst:?}");
}

#[test]
#[allow(clippy::print_stderr)] // the figures reported
fn van_der_pol_at_mu_1000_meets_the_radau_reference() {
    let r = &refs("vdp ")[0];
    let v = run(
        "van_der_pol.hph",
        &VAN_DER_POL.replace("SETTINGS", "esdirk43 tolerance 1e-8"),
    );
    let err = [
        ((observe(&v, "position") - r[1]) / r[1]).abs(),
        ((observe(&v, "velocity") - r[2]) / r[2]).abs(),
    ];
    eprintln!(
        "van der pol: relative errors {err:?}; {} steps, {} rejected, {} evaluations, {} \
         Jacobians, {} factorisations",
        count(&v, "steps"),
        count(&v, "rejected"),
        count(&v, "evaluations"),
        count(&v, "jacobians"),
        count(&v, "factorisations"),
    );
    assert!(err.iter().all(|e| *e < 1e-4), "{err:?}");
    assert!(count(&v, "jacobians") < count(&v, "steps"), "{v}");
}
