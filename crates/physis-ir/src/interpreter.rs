//! The interpreter, one of the two back ends (the other is `physis-codegen`'s generated
//! Rust): an [`IrModel`](crate::IrModel) compiled to tapes ([`tape`]) and run through the
//! driver's `Model` trait ([`interp`]), or a batch of 64 ensemble members at once
//! ([`lanes`], over the fused instructions of `lane_code`). A model runs each tape in the
//! compact form of `compact` where it has one (8-byte instructions, masked registers,
//! multiplies fused into adds by `fuse`'s rule, which the lane tape shares). That it agrees
//! with generated code bit for bit is tested in `examples/rust-api/tests/differential.rs`, which runs every
//! example and oracle model through both. A model's tapes may be handed to a native back end
//! ([`native`]; `physis-jit`) that computes the same bits.

pub mod compact;
mod fuse;
pub mod interp;
mod lane_code;
pub mod lanes;
pub mod native;
pub mod tape;
