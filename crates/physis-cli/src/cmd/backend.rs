//! Which back end runs a single `physis run`: the tape interpreter, or native code compiled
//! from its tapes (`physis-jit`, the `jit` feature) once the run has interpreted as much work
//! as compiling costs (`--jit` compiles at once, `--no-jit` never). Both compute the same
//! bits; `--summary` says which ran as `"backend"`. An ensemble's lane tapes are tiered the
//! same way ([`attach_lanes`]).

use physis_ir::{LaneProgram, TapeModel};

/// The choice made for one run, read back after it.
pub struct Backend {
    #[cfg(feature = "jit")]
    jit: Option<physis_jit::Jit>,
}

impl Backend {
    /// Hands the JIT to `model` unless `no_jit` (or the feature is off).
    #[allow(unused_variables)] // without the `jit` feature nothing is attached
    pub fn attach(model: &mut TapeModel, at_once: bool, no_jit: bool) -> Backend {
        #[cfg(feature = "jit")]
        {
            use physis_jit::{Jit, When};
            if no_jit {
                return Backend { jit: None };
            }
            let jit = Jit::new();
            let when = if at_once { When::AtOnce } else { When::Tiered };
            physis_jit::tier(model, &jit, when);
            Backend { jit: Some(jit) }
        }
        #[cfg(not(feature = "jit"))]
        Backend {}
    }

    /// What ran: `interpreter`, `interpreter (run too short to compile)`, or the JIT's
    /// report (`jit: rate, step (compile 1.20 ms)`).
    pub fn describe(&self) -> String {
        #[cfg(feature = "jit")]
        if let Some(jit) = &self.jit {
            return match jit.report() {
                Some(report) => report.to_string(),
                None => "interpreter (run too short to compile)".to_string(),
            };
        }
        "interpreter".to_string()
    }
}

/// The choice made for an ensemble, read back after it.
pub struct Lanes {
    /// Whether the members ran in lanes (a [`LaneProgram`]) rather than one by one.
    lanes: bool,
    #[cfg(feature = "jit")]
    jit: Option<physis_jit::Jit>,
}

impl Lanes {
    /// What ran: `interpreter, member by member` (no lane program: each member on its own
    /// tapes), `interpreter, lanes`, `interpreter, lanes (run too short to compile)`, or the
    /// JIT's lane report followed by `, lanes`.
    pub fn describe(&self) -> String {
        if !self.lanes {
            return "interpreter, member by member".to_string();
        }
        #[cfg(feature = "jit")]
        if let Some(jit) = &self.jit {
            return match jit.lane_report() {
                Some(report) => format!("{report}, lanes"),
                None => "interpreter, lanes (run too short to compile)".to_string(),
            };
        }
        "interpreter, lanes".to_string()
    }
}

/// Hands the JIT to an ensemble's lane program, if it has one, unless `no_jit` (or the
/// feature is off): compiled at once with `at_once`, else once the lanes have interpreted as
/// many rows as compiling costs.
#[allow(unused_variables)] // without the `jit` feature nothing is attached
pub fn attach_lanes(program: Option<&LaneProgram>, at_once: bool, no_jit: bool) -> Lanes {
    #[cfg(feature = "jit")]
    if let (Some(program), false) = (program, no_jit) {
        use physis_jit::{Jit, When};
        let when = if at_once { When::AtOnce } else { When::Tiered };
        let jit = Jit::new();
        physis_jit::tier_lanes(program, &jit, when);
        return Lanes {
            lanes: true,
            jit: Some(jit),
        };
    }
    Lanes {
        lanes: program.is_some(),
        #[cfg(feature = "jit")]
        jit: None,
    }
}
