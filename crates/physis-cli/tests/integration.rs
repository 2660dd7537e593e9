//! The crate's integration tests as one test binary: each file beside this one is a module.
//! One binary links once, where one per file linked the crate and its dependencies dozens of
//! times over (gigabytes of disk and minutes of linking in CI). `.ci/check-architecture.sh`
//! checks that every file here is declared below, so none is silently left out.

mod common;
mod readme;

mod cli;
mod derive;
mod ensemble;
mod expr_limits;
mod fmt;
mod hostile;
mod issue_19_as_a_user;
mod language_reach;
mod memory;
mod modules;
mod oracle;
mod parquet;
mod plot;
mod readme_tour;
mod recursion_bounds;
mod run;
mod run_overrides;
mod stiff_references;
mod stiffness;
mod work_counts;
