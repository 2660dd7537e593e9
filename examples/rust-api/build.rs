//! Compiles `models/` to `OUT_DIR/models.rs` (what the crate uses), and the workspace's
//! example models to `OUT_DIR/examples.rs` (what the differential test compares with the
//! interpreter; models the IR cannot lower yet are left out with a warning).

fn main() -> Result<(), physis_build::BuildError> {
    physis_build::compile("models")?;
    physis_build::Builder::new()
        .folder("../../examples")
        .out_name("examples")
        .skip_unsupported(true)
        .registry(true)
        .compile()?;
    Ok(())
}
