//! One module per subcommand.

pub mod check;
pub mod collect;
pub mod columns;
pub mod derive;
pub mod emit;
pub mod ensemble;
pub mod explain;
pub mod observed;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod plot;
pub mod plot_ensemble;
pub mod prepare;
pub mod progress;
pub mod run;
