//! Compiles `models/` to `OUT_DIR/models.rs` (what the crate uses), and the workspace's
//! example models to `OUT_DIR/examples.rs` (what the differential test compares with the
//! interpreter; models that cannot be generated yet are left out), and `tests/models` to
//! `OUT_DIR/test_models.rs` (more schemes for the same test).

fn main() -> Result<(), physis_build::BuildError> {
    physis_build::compile("models")?;
    physis_build::Builder::new()
        .folder("../../examples")
        .out_name("examples")
        .skip_unsupported(true)
        .warn_skipped(false)
        .registry(true)
        .compile()?;
    physis_build::Builder::new()
        .folder("tests/models")
        .out_name("test_models")
        .registry(true)
        .compile()?;
    Ok(())
}
