//! The side-by-side harness in its quick mode (one round, tolerance 1e-8, no SciPy), so it
//! cannot rot: every contender runs, and errors are checked against independent references
//! (closed forms for A3 and A4, committed SciPy references otherwise). No timing is asserted.

use bench::side::table::Table;
use bench::side::{Config, run_all};

fn row<'a>(t: &'a Table, name: &str) -> &'a [String] {
    t.rows
        .iter()
        .find(|r| r[0] == name)
        .unwrap_or_else(|| panic!("row {name} in {}", t.title))
}

fn err(t: &Table, name: &str) -> f64 {
    let c = t
        .header
        .iter()
        .position(|h| h == "error")
        .expect("error column");
    let s = &row(t, name)[c];
    s.parse()
        .unwrap_or_else(|_| panic!("{}: {name}: error {s:?}", t.title))
}

#[test]
fn quick_run_gives_every_table_with_errors_near_the_references() {
    let tables = run_all(&Config::quick()).expect("models load");
    // A1, A3, A4; the work-precision tables of Robertson, Van der Pol, HIRES and heat; their
    // equal-accuracy tables.
    assert_eq!(tables.len(), 11);
    let a1 = &tables[0];
    for name in [
        "ours, generated (rk45)",
        "ours, interpreter (rk45)",
        "ours, interpreter, plain tape",
        "ours, JIT (rk45)",
        "diffsol tsit45",
        "hand DP5, stack arrays",
    ] {
        assert!(err(a1, name) < 1e-7, "A1 {name}");
    }
    let a3 = &tables[1];
    for name in [
        "ours, generated (rk45)",
        "ours, interpreter (rk45)",
        "ours, interpreter, plain tape",
        "ours, JIT (rk45)",
    ] {
        assert!(err(a3, name) < 1e-12, "A3 {name}");
    }
    assert!(err(a3, "diffsol tsit45 (gated root, reset)") < 1e-9);
    let a4 = &tables[2];
    assert!(err(a4, "ours, generated (crankNicolson, 320 steps)") < 5e-7);
    assert!(err(a4, "ours, interpreter (crankNicolson, 320 steps)") < 5e-7);
    assert!(err(a4, "diffsol bdf, sparse LU (rtol 1e-6, atol 1e-9)") < 5e-7);
    // Work-precision tables at 1e-8: the peers always finish; ours may fail (reported in the
    // table, e.g. implicit stages on a grid are not generated), but a run that finishes must
    // be near the reference.
    for t in &tables[3..7] {
        for name in ["diffsol bdf", "diffsol esdirk34"] {
            assert!(err(t, name) < 0.1, "{}: {name}", t.title);
        }
        for scheme in ["bdf", "radau5", "rodas3", "esdirk43"] {
            for backend in ["ours, generated", "ours, interpreter"] {
                let name = format!("{backend} {scheme}");
                if !row(t, &name)[2].starts_with("failed") {
                    assert!(err(t, &name) < 0.1, "{}: {name}", t.title);
                }
            }
        }
    }
    // The built-in BDF finishes Van der Pol and heat (tables 4 and 6), and Robertson with
    // its `abs` (table 3).
    for t in [&tables[3], &tables[4], &tables[6]] {
        for name in ["ours, generated bdf", "ours, interpreter bdf"] {
            assert!(err(t, name) < 0.1, "{}: {name}", t.title);
        }
    }
    for t in &tables[7..] {
        assert!(t.title.ends_with("at equal accuracy"), "{}", t.title);
    }
}
