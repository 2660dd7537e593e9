//! Compiles `models/` to `OUT_DIR/models.rs` (what the crate uses), every example model
//! of the workspace to `OUT_DIR/examples.rs` (what the differential test compares with the
//! interpreter), `tests/models` to `OUT_DIR/test_models.rs` (more schemes and grids
//! for the same test), the ensemble anchors of `bench/anchors/ensemble` to
//! `OUT_DIR/anchors.rs` (the lane kernels' tests and the ensemble bench), and the oracle's
//! generated linear models to `OUT_DIR/oracle.rs` (`tests/oracle.rs`).

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
    let out = std::path::PathBuf::from(
        std::env::var_os("OUT_DIR").ok_or(physis_build::BuildError::NoOutDir)?,
    );
    let folder = out.join("oracle");
    let io = |path: &std::path::Path, e: std::io::Error| physis_build::BuildError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    std::fs::create_dir_all(&folder).map_err(|e| io(&folder, e))?;
    for c in physis_oracle::corpus::compiled() {
        let path = folder.join(format!("{}.hph", c.name));
        std::fs::write(&path, &c.model.text).map_err(|e| io(&path, e))?;
    }
    physis_build::Builder::new()
        .folder(&folder)
        .out_name("oracle")
        .registry(true)
        .compile()?;
    Ok(())
}
