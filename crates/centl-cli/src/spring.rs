//! `centl-physics spring MASS POS VEL ANCHOR STIFFNESS [--drag B] [--rest-length L] DT STEPS`.

use crate::args::SpringArgs;
use crate::input::{quantity, steps, vector};
use centl_physics::dims::{DRAG, LENGTH, MASS, STIFFNESS, TIME, VELOCITY};
use centl_physics::{
    ForceModel, HookeSpring, INTEGRATOR_NAME, LinearDrag, Particle, StateBits, compare_scalar,
    spring_potential_energy, symplectic_euler,
};
use exact::Rational;
use units::Quantity;

/// Runs symplectic Euler on a spring (plus optional drag) and prints the final state, the
/// exact mechanical energy (kinetic + spring) before and after, and the state's size in bits.
pub fn run(a: &SpringArgs) -> Result<String, String> {
    let mass = quantity("mass", &a.mass, MASS)?;
    let position = vector("position", &a.position, LENGTH)?;
    let velocity = vector("velocity", &a.velocity, VELOCITY)?;
    let anchor = vector("anchor", &a.anchor, LENGTH)?;
    let stiffness = quantity("stiffness", &a.stiffness, STIFFNESS)?;
    let rest_length = match &a.rest_length {
        Some(l) => quantity("rest-length", l, LENGTH)?,
        None => Quantity::new(Rational::zero(), LENGTH),
    };
    let dt = quantity("dt", &a.dt, TIME)?;
    let steps = steps(&a.steps)?;
    let fail = |e: centl_physics::PhysicsError| e.to_string();
    let particle = Particle::new("particle", &mass, position, velocity).map_err(fail)?;
    let spring = HookeSpring::new(anchor, &stiffness, &rest_length).map_err(fail)?;
    let mut models: Vec<Box<dyn ForceModel>> = vec![Box::new(spring.clone())];
    if let Some(b) = &a.drag {
        let drag = LinearDrag::new(&quantity("drag", b, DRAG)?).map_err(fail)?;
        models.push(Box::new(drag));
    }
    let energy = |p: &Particle| -> Result<Quantity, String> {
        let potential = spring_potential_energy(p, &spring).map_err(fail)?;
        p.kinetic_energy()
            .checked_add(&potential)
            .map_err(|e| e.to_string())
    };
    // The initial energy is checked before stepping, so an irrational spring length is refused
    // before any work.
    let initial = energy(&particle)?;
    let run = symplectic_euler(&particle, &models, &dt, steps).map_err(fail)?;
    let last = energy(&run.particle)?;
    let delta = match compare_scalar(&initial, &last).map_err(fail)? {
        centl_physics::InvariantReport::ExactlyEqual => Rational::zero(),
        centl_physics::InvariantReport::Delta(d) => d,
    };
    Ok(format!(
        "integrator={INTEGRATOR_NAME}\nsteps={}\nposition={}\nvelocity={}\nenergy_initial={} J\nenergy_final={} J\nenergy_delta={} J\nmax_bits={}\n",
        run.steps,
        run.particle.position(),
        run.particle.velocity(),
        initial.value(),
        last.value(),
        delta,
        StateBits::of(&run.particle).max_bits()
    ))
}
