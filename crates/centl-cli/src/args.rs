//! Command-line arguments (clap derive).

use clap::{Args, Parser, Subcommand};

/// The most requests `--serve` or `--mcp` run at once (`--workers`, docs/protocol.md
/// Limits): each is a thread with its own stack, started before the first request is read.
pub const MAX_WORKERS: u16 = 1024;

/// Exact-rational, dimension-checked particle mechanics.
#[derive(Parser, Debug)]
#[command(name = "centl-physics", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Serve the version-1 JSON Lines protocol on stdin/stdout (one request per line).
    #[arg(long, conflicts_with = "mcp")]
    pub serve: bool,
    /// Serve the read-only MCP tool `centl_physics` on stdin/stdout.
    #[arg(long)]
    pub mcp: bool,
    /// Requests run at once by `--serve` or `--mcp` (default: the number of cores). With one,
    /// JSON Lines replies keep request order; with more, they come as requests finish.
    /// At most 1,024.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=i64::from(MAX_WORKERS)))]
    pub workers: Option<u16>,
}

impl Cli {
    /// The worker count in force: `--workers`, else the cores available (at least one, at
    /// most [`MAX_WORKERS`]).
    pub fn worker_count(&self) -> usize {
        self.workers.map(usize::from).unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map_or(1, std::num::NonZeroUsize::get)
                .min(usize::from(MAX_WORKERS))
        })
    }
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Convert an exact value between units of the same dimension (`convert 100 cm m`).
    Convert(ConvertArgs),
    /// Print an exact physical constant with its unit and provenance (`constant c`).
    Constant(ConstantArgs),
    /// Integrate a particle in uniform gravity with exact symplectic Euler
    /// (`gravity 2 0,0,10 1,0,0 0,0,-10 1/10 10`).
    Gravity(GravityArgs),
    /// Integrate a particle on a Hooke spring (optionally with linear drag) with exact
    /// symplectic Euler, reporting exact energies (`spring 7 1,1/2,-1/3 0,1,1/4 0,0,0 3 1/100 100`).
    Spring(SpringArgs),
    /// Check hand-derived exact identities on random cases over the whole engine (springs,
    /// drag, superposition, Galilean boosts, collisions, certificates, conversions), printing
    /// what was checked and the first counterexample with its seed (`gauntlet --cases 100`).
    Gauntlet(GauntletArgs),
    /// Advance a world of spheres event by event with exact elastic contacts, reading the
    /// arguments of `evolve_sphere_world_events` from a JSON file
    /// (`events examples/newtons_cradle.json`).
    Events(EventsArgs),
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

/// Arguments of `gravity`.
#[derive(Args, Debug)]
pub struct GravityArgs {
    /// Mass in kg (exact: `2`, `0.5`, `3/4`).
    #[arg(allow_hyphen_values = true)]
    pub mass: String,
    /// Initial position in m, as `x,y,z`.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// Initial velocity in m/s, as `x,y,z`.
    #[arg(allow_hyphen_values = true)]
    pub velocity: String,
    /// Gravitational acceleration in m/s^2, as `x,y,z` (`0,0,-10`).
    #[arg(allow_hyphen_values = true)]
    pub acceleration: String,
    /// Time step in s (positive, exact: `1/10`, `0.01`).
    #[arg(allow_hyphen_values = true)]
    pub dt: String,
    /// Number of steps (at most 1,000,000).
    #[arg(allow_hyphen_values = true)]
    pub steps: String,
}

/// Arguments of `spring`.
#[derive(Args, Debug)]
pub struct SpringArgs {
    /// Mass in kg.
    #[arg(allow_hyphen_values = true)]
    pub mass: String,
    /// Initial position in m, as `x,y,z`.
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// Initial velocity in m/s, as `x,y,z`.
    #[arg(allow_hyphen_values = true)]
    pub velocity: String,
    /// The spring's fixed anchor in m, as `x,y,z`.
    #[arg(allow_hyphen_values = true)]
    pub anchor: String,
    /// Spring stiffness in N/m.
    #[arg(allow_hyphen_values = true)]
    pub stiffness: String,
    /// Time step in s.
    #[arg(allow_hyphen_values = true)]
    pub dt: String,
    /// Number of steps (at most 1,000,000).
    #[arg(allow_hyphen_values = true)]
    pub steps: String,
    /// Linear drag coefficient in kg/s (force −b·v).
    #[arg(long, allow_hyphen_values = true)]
    pub drag: Option<String>,
    /// Rest length in m (nonzero lengths are exact only where |x − anchor| is rational).
    #[arg(long = "rest-length", allow_hyphen_values = true)]
    pub rest_length: Option<String>,
}

/// Arguments of `gauntlet`.
#[derive(Args, Debug)]
pub struct GauntletArgs {
    /// The seed every case derives from (default: a fresh one, printed in the report).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Random cases per identity.
    #[arg(long, default_value_t = 200)]
    pub cases: u32,
}

/// Arguments of `events`.
#[derive(Args, Debug)]
pub struct EventsArgs {
    /// A JSON file holding `spheres`, `duration` and optionally `gravity` and `max_events`,
    /// as the protocol action `evolve_sphere_world_events` takes them.
    pub world: std::path::PathBuf,
}
