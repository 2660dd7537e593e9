//! The README's tour, `centl-physics` half: every `cargo run -p centl-cli --` command runs
//! with the built binary in a scratch directory (with the JSON worlds of `examples/`), and
//! where the README shows output, prints exactly that (the parser is shared with physis-cli's
//! half of the tour test).

#[path = "../../physis-cli/tests/readme/mod.rs"]
mod readme;

use std::path::Path;

#[test]
fn every_exact_engine_command_of_the_tour_runs() {
    let dir = readme::scratch("centl");
    // The shared scratch copies the `.hph` models; the exact engine's tour also reads the
    // JSON worlds of `events`.
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    for entry in std::fs::read_dir(src).expect("examples/").flatten() {
        let p = entry.path();
        if p.extension().is_some_and(|e| e == "json") {
            std::fs::copy(&p, dir.join("examples").join(entry.file_name())).expect("copy");
        }
    }
    let ran = readme::run_tour(
        "centl-cli",
        Path::new(env!("CARGO_BIN_EXE_centl-physics")),
        &dir,
    );
    assert!(ran >= 5, "only {ran} centl-physics commands in the tour");
    let _ = std::fs::remove_dir_all(&dir);
}
