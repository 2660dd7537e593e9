//! Compiles `models/` to `OUT_DIR/models.rs` (what the crate uses), every example model
//! of the workspace to `OUT_DIR/examples.rs` (what the differential test compares with the
//! interpreter), and `tests/models` to `OUT_DIR/test_models.rs` (more schemes and grids
//! for the same test).

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
    Ok(())
}
