//! The crate's integration tests as one test binary: each file beside this one is a module.
//! One binary links once, where one per file linked the crate and its dependencies dozens of
//! times over (gigabytes of disk and minutes of linking in CI). `.ci/check-architecture.sh`
//! checks that every file here is declared below, so none is silently left out.

mod jit;
mod lanes;
