//! The built-in schemes the oracle runs, with what the manual says of each.

/// A built-in scheme of `Physis.Schemes` (the stochastic one aside).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// Explicit Euler, order 1.
    Euler,
    /// Explicit midpoint, order 2.
    Midpoint,
    /// Classical Runge–Kutta, order 4.
    Rk4,
    /// Dormand–Prince 5(4), adaptive.
    Rk45,
    /// Velocity Verlet, order 2, second-order laws without velocity terms only.
    Verlet,
    /// Leapfrog, order 2, second-order laws without velocity terms only.
    Leapfrog,
    /// Backward Euler, implicit, order 1.
    BackwardEuler,
    /// Crank–Nicolson, implicit, order 2.
    CrankNicolson,
}

impl Scheme {
    /// Every scheme, in the order reports list them.
    pub const ALL: [Scheme; 8] = [
        Scheme::Euler,
        Scheme::Midpoint,
        Scheme::Rk4,
        Scheme::Rk45,
        Scheme::Verlet,
        Scheme::Leapfrog,
        Scheme::BackwardEuler,
        Scheme::CrankNicolson,
    ];

    /// The name a model's `integrate` clause uses.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Euler => "euler",
            Scheme::Midpoint => "midpoint",
            Scheme::Rk4 => "rk4",
            Scheme::Rk45 => "rk45",
            Scheme::Verlet => "verlet",
            Scheme::Leapfrog => "leapfrog",
            Scheme::BackwardEuler => "backwardEuler",
            Scheme::CrankNicolson => "crankNicolson",
        }
    }

    /// The order of global convergence the manual states (5 for the adaptive pair).
    pub fn order(self) -> u32 {
        match self {
            Scheme::Euler | Scheme::BackwardEuler => 1,
            Scheme::Midpoint | Scheme::Verlet | Scheme::Leapfrog | Scheme::CrankNicolson => 2,
            Scheme::Rk4 => 4,
            Scheme::Rk45 => 5,
        }
    }

    /// Whether every law must be `x'' = a(t, x)`.
    pub fn second_order_only(self) -> bool {
        matches!(self, Scheme::Verlet | Scheme::Leapfrog)
    }

    /// Whether the scheme steps by a fixed step (every one but rk45).
    pub fn fixed(self) -> bool {
        self != Scheme::Rk45
    }

    /// The `integrate` clause for a fixed step `h` (s) or a tolerance.
    pub fn clause(self, h: f64, tolerance: f64) -> String {
        if self.fixed() {
            format!("integrate {} step {h:e} s", self.name())
        } else {
            format!("integrate {} tolerance {tolerance:e}", self.name())
        }
    }
}
