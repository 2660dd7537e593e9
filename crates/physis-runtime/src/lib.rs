//! Physis run driver: what generated code (and the IR interpreter) links against.
//!
//! **Takes in** a [`Model`]: a back end's implementation of one simulation's numeric
//! functions (rate, the scheme's step or implicit residual, atom margins, resets,
//! observes) plus its static [`ModelInfo`] (names, scheme metadata, settings, clauses
//! with their source text and line). **Hands on** samples, delivered in time order to a
//! [`SampleSink`] (CSV/JSON writers, column collectors, the [`Samples`] iterator) and a
//! [`RunEnd`]/[`Run`] with the [`Reason`] the run ended. With the cargo feature `arrow`,
//! the `frame` module turns named columns with SI units into Arrow record batches.
//!
//! # How a run proceeds
//! 1. The initial state is the first sample. A stop that holds there ends the run
//!    (`when`). A fixed explicit scheme that declares a stability radius is checked:
//!    spectral radius of `∂f/∂y` (power iteration on Jacobian-vector products) times the
//!    step above the radius ends the run as `unstable`. An event whose condition holds at
//!    `t0` fires there (conditions count as false before the start).
//! 2. A fixed scheme steps on the grid `t0 + k·h`; an adaptive one uses Hairer's mixed
//!    RMS error norm (absolute tolerance per state: the declared one, else the relative
//!    tolerance times the state's largest magnitude so far), safety 0.9, growth in `[0.2, 10]` (no growth right after a
//!    rejection), and Hairer's initial step. Implicit schemes are solved by the driver's
//!    Newton; a failure halves the step. A model with a [`SparsePattern`]
//!    ([`JacobianLayout::Sparse`]) gets a sparse Jacobian (one Jacobian-vector product per
//!    column colour) solved by the Thomas algorithm when tridiagonal, else faer's sparse
//!    LU, its factorisation kept across steps of the same size.
//! 3. A NaN or infinite state or rate, a step below `16·ε·|t|`, 60 rejections in a row or
//!    Newton failing down to that resolution end the run as `diverged`; `limit` accepted
//!    steps (default [`DEFAULT_LIMIT`]) as `limit`. Nothing panics.
//! 4. After each step the clauses are located on the step's cubic Hermite interpolant
//!    (see the `locate` module): the earliest stop that holds ends the run there (`when`); the
//!    earliest events that turn true fire together (declaration order), every reset
//!    reading the state from before the event, and the run restarts at the event time.
//!    A stop and an event at the same instant: the stop wins.
//! 5. Samples: with `record every Δ` at `t0 + k·Δ` through the interpolant, else at every
//!    accepted step; an event gives a sample before and one after its resets (same `t`);
//!    the final state is always the last sample. `conserve o within ε` is checked at every
//!    sample and step end: `|o − o₀| > ε·max(|o₀|, 1)` ends the run as `violated`.
//!
//! # Zeno guard
//! Event times always advance (a located time is strictly inside the step). When an event
//! fires again within `64·ε·|t|` (≈ 1.4e-14·|t|) of its own previous firing, the events
//! accumulate at a Zeno point past which the hybrid solution does not continue (a bouncing
//! ball at rest). The run ends there as `diverged`, naming the event's clause, with the
//! state just before that firing; [`Cause::Zeno`] tells it apart from a blow-up. This is
//! deterministic and never lets a state cross the event surface unnoticed.
//!
//! Runs are deterministic: the same model and options give the same samples, bit for bit
//! (noise comes from a seeded ChaCha8 stream; the default seed is 0).
//!
//! # Ensembles
//! An [`Ensemble`] runs one simulation many times in parallel (rayon): `count` members per
//! [`ParamSet`] of a [`Sweep`] (`k=1..2:5`, `k=1,2,4`, their product), member `i` on noise
//! stream `i`, so results do not depend on scheduling or thread count. Its
//! [`EnsembleResult`] holds every member's end and mean, standard deviation and quantiles
//! of the final values and, on a shared sample grid, of every observe over time.

mod bdf;
mod control;
mod driver;
mod ensemble;
mod error;
#[cfg(feature = "arrow")]
pub mod frame;
mod hermite;
mod info;
pub mod kernels;
mod lanes;
mod locate;
mod matrix;
mod model;
mod model_lanes;
mod newton;
mod noise;
mod normal;
mod options;
mod reason;
mod run;
mod run_columns;
mod sample;
pub mod scalar;
mod sparse;
mod sparse_lu;
mod stability;
pub mod stats;
mod sweep;
mod tolerance;
mod wrap;
mod write;

pub use driver::{Config, Simulation};
pub use ensemble::{
    DEFAULT_QUANTILES, Ensemble, EnsembleError, EnsemblePart, EnsembleResult, FinalStats,
    MemberResult, PartMember, Series, SeriesColumn,
};
pub use error::RunError;
pub use info::{
    AtomInfo, Clause, Cmp, Cond, ConserveInfo, ModelInfo, ObserveInfo, SchemeInfo, Settings,
    SourceRef, StageInfo, StageKind, StateInfo, on_edge,
};
pub use lanes::{LaneFactory, LaneKernel, NoLanes};
pub use matrix::DenseMatrix;
pub use model::{JacobianLayout, Model, ResidualForm, StepArgs, StepOut};
pub use model_lanes::{MODEL_LANES, ModelLaneFactory, ModelLanes};
pub use noise::Noise;
pub use options::{DEFAULT_LIMIT, RunOptions};
pub use reason::{Cause, Reason, ReasonKind};
pub use run::{Run, Samples, run, run_into, run_tee, stream};
pub use run_columns::{ColumnRef, RunColumns};
pub use sample::{
    Collect, Columns, OwnedSample, RunEnd, Sample, SampleKind, SampleSink, Stats, Tee,
};
pub use sparse::{PatternError, SparseMatrix, SparsePattern};
pub use stats::Moments;
pub use sweep::{Axis, MAX_SETS, ParamSet, Sweep, SweepError, linspace, plain_number};
pub use wrap::Wraps;
pub use write::{CsvWriter, JsonWriter, Summary};
