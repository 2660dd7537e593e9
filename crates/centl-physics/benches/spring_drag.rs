//! Exact spring-with-drag run: k = 3 N/m, m = 7 kg, b = 1/5 kg/s, dt = 1/100 s, symplectic
//! Euler in 3D from x = (1, 1/2, −1/3) m, v = (0, 1, 1/4) m/s. The cost is dominated by the
//! growth of the rationals (bits grow roughly linearly with the step count).

use centl_physics::dims::{DRAG, LENGTH, MASS, STIFFNESS, TIME, VELOCITY};
use centl_physics::{
    ForceModel, HookeSpring, LinearDrag, Particle, Vec3, symplectic_euler, symplectic_euler_general,
};
use criterion::{Criterion, criterion_group, criterion_main};
use exact::Rational;
use std::hint::black_box;
use units::Quantity;

fn q(s: &str) -> Rational {
    s.parse().expect("literal")
}

fn setup() -> (Particle, Vec<Box<dyn ForceModel>>, Quantity) {
    let particle = Particle::new(
        "bob",
        &Quantity::new(q("7"), MASS),
        Vec3::new(q("1"), q("1/2"), q("-1/3"), LENGTH),
        Vec3::new(q("0"), q("1"), q("1/4"), VELOCITY),
    )
    .expect("valid particle");
    let spring = HookeSpring::new(
        Vec3::zero(LENGTH),
        &Quantity::new(q("3"), STIFFNESS),
        &Quantity::new(q("0"), LENGTH),
    )
    .expect("valid spring");
    let drag = LinearDrag::new(&Quantity::new(q("1/5"), DRAG)).expect("valid drag");
    let models: Vec<Box<dyn ForceModel>> = vec![Box::new(spring), Box::new(drag)];
    (particle, models, Quantity::new(q("1/100"), TIME))
}

fn spring_drag(c: &mut Criterion) {
    let (particle, models, dt) = setup();
    let mut group = c.benchmark_group("spring_drag");
    group.sample_size(10);
    for steps in [1_000u64, 3_000] {
        group.bench_function(format!("{steps}_steps"), |b| {
            b.iter(|| symplectic_euler(black_box(&particle), &models, &dt, steps).expect("run"))
        });
        group.bench_function(format!("{steps}_steps_step_by_step"), |b| {
            b.iter(|| {
                symplectic_euler_general(black_box(&particle), &models, &dt, steps).expect("run")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, spring_drag);
criterion_main!(benches);
