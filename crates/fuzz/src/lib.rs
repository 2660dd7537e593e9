//! Our own fuzz campaign (issue 27, deliver 3), on the stable toolchain: structure-aware
//! generators and mutators seeded with the requests of `docs/protocol.md` and the models of
//! `examples/*.hph`, aimed at five targets:
//!
//! - `jsonl`: the JSON Lines protocol, in-process ([`centl_protocol::handle_line`]);
//! - `units`: the shared unit parser, in-process;
//! - `hph`: the Physis front end (check and lowering), in-process;
//! - `mcp`: `centl-physics --mcp` as a child process under a memory cap, a reply per line;
//! - `run`: `physis run` as a child process under a memory cap and a timeout.
//!
//! A finding is a panic, an abort or a kill, a timeout, a reply without an error code, or an
//! answer beyond a stated bound ([`Bounds`]). In-process targets run on a thread with the
//! default 2 MiB stack, so a deep recursion is found as it would be in a test.

pub mod corpus;
pub mod mutate;
pub mod report;
pub mod targets;

pub use report::{Finding, Stats};
pub use targets::{Bounds, Target, run_campaign};
