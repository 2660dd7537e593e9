//! The README's tour, `physis` half: every `cargo run -p physis-cli --` command runs with
//! the built binary in a scratch directory, exits 0 and writes the files it names.

use crate::readme;

use std::path::Path;

#[test]
fn every_physis_command_of_the_tour_runs() {
    let dir = readme::scratch("physis");
    let ran = readme::run_tour("physis-cli", Path::new(env!("CARGO_BIN_EXE_physis")), &dir);
    assert!(ran >= 8, "only {ran} physis commands in the tour");
    let svg = std::fs::read_to_string(dir.join("projectile.svg")).expect("projectile.svg");
    for label in ["height [m]", "speed [m/s]", "t [s]"] {
        assert!(svg.contains(label), "projectile.svg lacks `{label}`");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
