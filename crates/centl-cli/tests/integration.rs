//! The crate's integration tests as one test binary: each file beside this one is a module.
//! One binary links once, where one per file linked the crate and its dependencies dozens of
//! times over (gigabytes of disk and minutes of linking in CI). `.ci/check-architecture.sh`
//! checks that every file here is declared below, so none is silently left out.

mod common;

mod cancel;
mod cli;
mod issue_27_hostile_requests;
mod mcp_contacts;
mod mcp_every_line_answered;
mod mcp_stdio;
mod protocol_doc;
mod readme_tour;
mod serve_actions;
mod serve_errors;
mod world_events;
