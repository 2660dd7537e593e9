//! The exact path never touches binary floating point or square roots.
//!
//! The crate also denies `clippy::float_arithmetic`; this test catches what a lint cannot
//! (a float type in a signature, a call to an approximate root) and runs with plain `cargo test`.

use std::fs;
use std::path::Path;

#[test]
fn no_float_types_or_square_roots_in_the_engine_sources() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut checked = 0;
    for entry in fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for banned in ["f32", "f64", "to_f64_lossy", ".sqrt(", "sqrt_rem", "powf"] {
                assert!(
                    !code.contains(banned),
                    "{}:{}: `{banned}` on the exact path: {line}",
                    path.display(),
                    n + 1
                );
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "found only {checked} source files");
}
