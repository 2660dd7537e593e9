//! Command-line arguments (clap derive).

use clap::{Args, Parser, Subcommand};

/// Exact-rational, dimension-checked particle mechanics.
#[derive(Parser, Debug)]
#[command(name = "centl-physics", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Convert an exact value between units of the same dimension (`convert 100 cm m`).
    Convert(ConvertArgs),
    /// Print an exact physical constant with its unit and provenance (`constant c`).
    Constant(ConstantArgs),
}

/// Arguments of `convert`.
#[derive(Args, Debug)]
pub struct ConvertArgs {
    /// The value: an integer, decimal or fraction (`100`, `0.1`, `-3/4`, `1.5e-3`).
    #[arg(allow_hyphen_values = true)]
    pub value: String,
    /// The unit the value is in (`cm`, `km/h`, `m/s^2`, `kg·m²`).
    pub from: String,
    /// The unit to express it in.
    pub to: String,
}

/// Arguments of `constant`.
#[derive(Args, Debug)]
pub struct ConstantArgs {
    /// The constant's symbol: c, h, e, k_B, N_A, Δν_Cs, K_cd, g0.
    pub name: String,
}
