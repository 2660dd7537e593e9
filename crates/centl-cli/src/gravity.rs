//! `centl-physics gravity MASS POS VEL ACCEL DT STEPS`.

use crate::args::GravityArgs;
use crate::input::{quantity, steps, vector};
use centl_physics::dims::{ACCELERATION, LENGTH, MASS, TIME, VELOCITY};
use centl_physics::{ForceModel, INTEGRATOR_NAME, Particle, UniformGravity, symplectic_euler};

/// Runs symplectic Euler under uniform gravity and prints the final state.
pub fn run(a: &GravityArgs) -> Result<String, String> {
    let mass = quantity("mass", &a.mass, MASS)?;
    let position = vector("position", &a.position, LENGTH)?;
    let velocity = vector("velocity", &a.velocity, VELOCITY)?;
    let g = vector("acceleration", &a.acceleration, ACCELERATION)?;
    let dt = quantity("dt", &a.dt, TIME)?;
    let steps = steps(&a.steps)?;
    let particle =
        Particle::new("particle", &mass, position, velocity).map_err(|e| e.to_string())?;
    let models: Vec<Box<dyn ForceModel>> =
        vec![Box::new(UniformGravity::new(g).map_err(|e| e.to_string())?)];
    let run = symplectic_euler(&particle, &models, &dt, steps).map_err(|e| e.to_string())?;
    Ok(format!(
        "integrator={INTEGRATOR_NAME}\nsteps={}\nposition={}\nvelocity={}\n",
        run.steps,
        run.particle.position(),
        run.particle.velocity()
    ))
}
