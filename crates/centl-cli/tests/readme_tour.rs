//! The README's tour, `centl-physics` half: every `cargo run -p centl-cli --` command runs
//! with the built binary in a scratch directory, and where the README shows output, prints
//! exactly that (the parser is shared with physis-cli's half of the tour test).

#[path = "../../physis-cli/tests/readme/mod.rs"]
mod readme;

use std::path::Path;

#[test]
fn every_exact_engine_command_of_the_tour_runs() {
    let dir = readme::scratch("centl");
    let ran = readme::run_tour(
        "centl-cli",
        Path::new(env!("CARGO_BIN_EXE_centl-physics")),
        &dir,
    );
    assert!(ran >= 5, "only {ran} centl-physics commands in the tour");
    let _ = std::fs::remove_dir_all(&dir);
}
