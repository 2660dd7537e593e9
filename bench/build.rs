//! Compiles the side-by-side anchors `anchors/side/*.hph` to `OUT_DIR/side.rs` (the
//! harness's generated-code contenders, `bench/src/side/ours.rs`). A model the generator
//! cannot emit would be left out quietly; the registry (`MODELS`) lets the harness find the
//! others by name and report the rest as not generated.

fn main() -> Result<(), physis_build::BuildError> {
    physis_build::Builder::new()
        .folder("anchors/side")
        .skip_unsupported(true)
        .warn_skipped(false)
        .registry(true)
        .compile()?;
    Ok(())
}
