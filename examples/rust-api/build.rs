//! Compiles `models/` to `OUT_DIR/models.rs` (what the crate uses), every example model
//! of the workspace to `OUT_DIR/examples.rs` (what the differential test compares with the
//! interpreter), `tests/models` to `OUT_DIR/test_models.rs` (more schemes and grids
//! for the same test), and the ensemble anchors of `bench/anchors/ensemble` to
//! `OUT_DIR/anchors.rs` (the lane kernels' tests and the ensemble bench).

fn main() -> Result<(), physis_build::BuildError> {
    physis_build::compile("models")?;
    physis_build::Builder::new()
        .folder("../../examples")
        .out_name("examples")
        .registry(true)
        .compile()?;
    physis_build::Builder::new()
        .folder("tests/models")
        .out_name("test_models")
        .registry(true)
        .compile()?;
    physis_build::Builder::new()
        .folder("../../bench/anchors/ensemble")
        .out_name("anchors")
        .compile()?;
    Ok(())
}
