//! One module per subcommand.

pub mod check;
pub mod derive;
pub mod explain;
pub mod prepare;
pub mod run;
