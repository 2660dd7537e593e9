//! The crate's integration tests as one test binary: each file beside this one is a module.
//! One binary links once, where one per file linked the crate and its dependencies dozens of
//! times over (gigabytes of disk and minutes of linking in CI). `.ci/check-architecture.sh`
//! checks that every file here is declared below, so none is silently left out.

mod api;
mod compact;
mod conserve;
mod differential;
mod driver_regressions;
mod lanes;
mod mixed_grid;
mod oracle;
