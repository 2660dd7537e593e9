//! The `centl-physics` command line: exact unit conversion, constants and particle runs.
//!
//! Every command prints line-oriented `key=value` output or a bare quantity on stdout, errors on
//! stderr, and exits non-zero on failure. Numbers are exact rationals in lowest terms.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod args;
mod constant;
mod convert;
mod events;
mod gauntlet;
mod gravity;
mod input;
mod mcp;
mod mcp_wire;
mod serve;
mod spring;

use args::{Cli, Command};
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.serve {
        return serve::run(cli.worker_count());
    }
    if cli.mcp {
        return mcp::run(cli.worker_count());
    }
    let result = match cli.command {
        Some(Command::Convert(a)) => convert::run(&a),
        Some(Command::Constant(a)) => constant::run(&a),
        Some(Command::Gravity(a)) => gravity::run(&a),
        Some(Command::Spring(a)) => spring::run(&a),
        Some(Command::Gauntlet(a)) => gauntlet::run(&a),
        Some(Command::Events(a)) => events::run(&a),
        None => Err("no command given; try `centl-physics --help`".to_string()),
    };
    match result {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
