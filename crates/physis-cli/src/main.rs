//! The `physis` command line (in progress).
fn main() {}
