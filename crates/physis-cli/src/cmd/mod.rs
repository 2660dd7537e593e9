//! One module per subcommand.

pub mod check;
pub mod derive;
pub mod emit;
pub mod explain;
pub mod prepare;
pub mod run;
