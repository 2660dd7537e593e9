//! The gauntlet: randomized identity checks over the whole engine.
//!
//! Each identity is an exact rational equality derived by hand from the definition of what it
//! checks (the discrete step, the elastic response, the contact polynomial, the unit factors),
//! computed here on bare rationals and compared with what the engine returns: an independent
//! truth, not the engine compared with itself. Inputs come from a seeded generator, one stream
//! per identity and case, so a counterexample is reproduced by its seed and case alone. The
//! `centl-physics gauntlet` subcommand prints the report.

mod algebra;
mod boosts;
mod certificates;
mod collisions;
mod conversions;
mod forces;
mod rng;
mod springs;
mod world;

use rng::Gen;
pub use rng::mix as mix_seed;

/// One identity: its name, what it checks, and the check of one random case.
struct Identity {
    name: &'static str,
    checks: &'static str,
    run: fn(&mut Gen) -> Result<(), String>,
}

/// Every identity, in the order they run.
const IDENTITIES: &[Identity] = &[
    Identity {
        name: "spring_modified_energy",
        checks: "symplectic Euler on a spring keeps ½m|v|² + ½k|d|² − ½hk(d·v) exactly",
        run: springs::modified_energy_conserved,
    },
    Identity {
        name: "spring_angular_momentum",
        checks: "spring (± drag): angular momentum m d×v is multiplied by (1 − hb/m) per step",
        run: springs::angular_momentum_geometric,
    },
    Identity {
        name: "spring_momentum_map_power",
        checks: "spring (± drag): (d_N, m v_N) equals the step matrix to the N-th power, by squaring",
        run: springs::momentum_from_map_power,
    },
    Identity {
        name: "superposition_of_forces",
        checks: "net force of gravity, constant, spring and drag is m g + F − k(x − a) − b v in any order",
        run: forces::superposition_of_forces,
    },
    Identity {
        name: "constant_force_closed_form",
        checks: "world under F₁ + F₂ + m g: x₀ + N h v₀ + h² (F/m) N(N+1)/2, momentum P₀ + N h ΣF",
        run: forces::constant_force_closed_form,
    },
    Identity {
        name: "drag_geometric_law",
        checks: "drag alone: v_N = rᴺ v₀, x_N = x₀ + h v₀ r(1 − rᴺ)/(1 − r), r = 1 − hb/m",
        run: forces::drag_geometric_law,
    },
    Identity {
        name: "galilean_boost_trajectory",
        checks: "boosting v₀ by u under gravity and a constant force boosts v_N by u and x_N by N h u",
        run: boosts::boost_gravity_run,
    },
    Identity {
        name: "galilean_boost_collision",
        checks: "boosting both particles of a 3-D collision by u boosts both results by u",
        run: collisions::boost_3d_collision,
    },
    Identity {
        name: "collision_3d_normal_reversal",
        checks: "3-D elastic response: normal relative velocity reversed, tangential velocities kept, momentum and energy kept",
        run: collisions::normal_reversal_3d,
    },
    Identity {
        name: "collision_1d_reversal",
        checks: "1-D elastic response: momentum kept, relative velocity reversed",
        run: collisions::reversal_1d,
    },
    Identity {
        name: "certificate_rational_time",
        checks: "a crossing or tangency built at rational t* is certified at exactly t* (none before t*)",
        run: certificates::rational_contact_time,
    },
    Identity {
        name: "certificate_roots_brackets",
        checks: "a built crossing: polynomial, discriminant, rational root (−b − √D)/2a or a bracket (and its refinement) holding it",
        run: certificates::roots_and_brackets,
    },
    Identity {
        name: "event_world_boost_gravity",
        checks: "event-driven world: a boost u or gravity g leaves the events alone and adds u t, u (g t²/2, g t) to the state; kinetic energy kept at every event",
        run: world::boost_and_gravity,
    },
    Identity {
        name: "unit_conversion_round_trip",
        checks: "A → B is x·f_A/f_B by hand factors, back again is x, A → B → C is A → C, other dimensions refused",
        run: conversions::unit_round_trip,
    },
    Identity {
        name: "rational_text_round_trip",
        checks: "rationals print and parse back; decimal and scientific text parse to n/10ᵏ",
        run: conversions::rational_text_round_trip,
    },
];

/// How many cases of one identity ran, and what it checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdentityTally {
    /// The identity's name (`spring_modified_energy`, ...).
    pub name: &'static str,
    /// What it checks, in one line.
    pub checks: &'static str,
    /// Cases that held.
    pub passed: u32,
}

/// The first case that broke an identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// The identity broken.
    pub identity: &'static str,
    /// The run's seed.
    pub seed: u64,
    /// The case number (from 0) under that seed.
    pub case: u32,
    /// The equality that failed, with both sides (or the engine's refusal).
    pub detail: String,
}

/// What a gauntlet run checked, and its first counterexample if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GauntletReport {
    /// The seed every case's inputs derive from.
    pub seed: u64,
    /// Cases asked per identity.
    pub cases: u32,
    /// One tally per identity, in run order.
    pub tallies: Vec<IdentityTally>,
    /// The first failure; the run stops there.
    pub counterexample: Option<Counterexample>,
}

impl GauntletReport {
    /// True when every case of every identity held.
    pub fn passed(&self) -> bool {
        self.counterexample.is_none()
    }

    /// Cases that held, over all identities.
    pub fn total_passed(&self) -> u64 {
        self.tallies.iter().map(|t| u64::from(t.passed)).sum()
    }
}

/// The names of every identity, in run order.
pub fn identity_names() -> impl Iterator<Item = &'static str> {
    IDENTITIES.iter().map(|i| i.name)
}

/// Runs `cases` random cases of every identity from `seed`, stopping at the first
/// counterexample.
pub fn run_gauntlet(seed: u64, cases: u32) -> GauntletReport {
    let mut report = GauntletReport {
        seed,
        cases,
        tallies: Vec::new(),
        counterexample: None,
    };
    for (index, identity) in IDENTITIES.iter().enumerate() {
        let mut tally = IdentityTally {
            name: identity.name,
            checks: identity.checks,
            passed: 0,
        };
        for case in 0..cases {
            let mut g = Gen::for_case(seed, index, case);
            if let Err(detail) = (identity.run)(&mut g) {
                report.tallies.push(tally);
                report.counterexample = Some(Counterexample {
                    identity: identity.name,
                    seed,
                    case,
                    detail,
                });
                return report;
            }
            tally.passed += 1;
        }
        report.tallies.push(tally);
    }
    report
}
