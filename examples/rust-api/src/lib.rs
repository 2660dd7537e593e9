//! Physis models used from Rust: `build.rs` compiles the `.hph` files of `models/` with
//! `physis-build`, and this crate includes the generated types (`Projectile`,
//! `BouncingBall`, `LotkaVolterra`, `Decay`), each with `new()`, `defaults()`, `run()`,
//! `run_with(params)`, `run_configured(params, options)`, its named runs and `stream()`.

include!(concat!(env!("OUT_DIR"), "/models.rs"));
