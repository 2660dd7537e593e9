//! Speed of the exact event-driven world: a gas of 200 spheres in 20 lanes of a walled box,
//! 1,000 events, with the state's bit size after each event, beside a floating-point
//! event-driven simulation of the same world (same algorithm in f64), reporting where the two
//! event orders first differ.
//!
//! `cargo run --release -p centl-physics --example event_world_speed`
#![allow(
    clippy::print_stdout,
    clippy::float_arithmetic,
    clippy::cast_precision_loss
)]

use centl_physics::dims::{LENGTH, MASS, TIME, VELOCITY};
use centl_physics::{
    Particle, Partner, Sphere, SphereWorld, Vec3, Wall, evolve_sphere_world_events_observed,
};
use exact::Rational;
use std::ops::ControlFlow;
use std::time::Instant;
use units::Quantity;

const LANES: usize = 20;
const PER_LANE: usize = 10;
const EVENTS: usize = 1000;
const BOX: i64 = 40;

/// `(mass, x, y, z, (vx numerator, vx denominator))` of one sphere.
type Start = (i64, i64, i64, i64, (i64, i64));

/// Every sphere's start, as small integers and fractions.
fn layout() -> Vec<Start> {
    let mut out = Vec::new();
    for lane in 0..LANES {
        let (y, z) = (2 * (lane % 5) as i64, 2 * (lane / 5) as i64);
        for k in 0..PER_LANE {
            let x = 2 + 4 * k as i64;
            let sign = if (k + lane) % 2 == 0 { 1 } else { -1 };
            let v = (
                sign * (1 + ((k * 7 + lane * 3) % 5) as i64),
                1 + (k % 3) as i64,
            );
            out.push((1 + ((k + lane) % 3) as i64, x, y, z, v));
        }
    }
    out
}

fn exact_world() -> SphereWorld {
    let r = |n: i64, d: i64| Rational::new(n, d).expect("nonzero");
    let spheres = layout()
        .into_iter()
        .enumerate()
        .map(|(i, (m, x, y, z, (vn, vd)))| {
            let p = Particle::new(
                format!("s{i}"),
                &Quantity::new(r(m, 1), MASS),
                Vec3::new(r(x, 1), r(y, 1), r(z, 1), LENGTH),
                Vec3::new(r(vn, vd), r(0, 1), r(0, 1), VELOCITY),
            )
            .expect("valid particle");
            Sphere::new(p, &Quantity::new(r(1, 2), LENGTH)).expect("valid sphere")
        })
        .collect();
    SphereWorld::new(spheres).expect("unique ids")
}

/// The same world in f64, event by event over every pair and wall (contacts along x only).
fn float_events(events: usize) -> Vec<(usize, i64)> {
    let l = layout();
    let m: Vec<f64> = l.iter().map(|s| s.0 as f64).collect();
    let mut x: Vec<[f64; 3]> = l
        .iter()
        .map(|s| [s.1 as f64, s.2 as f64, s.3 as f64])
        .collect();
    let mut v: Vec<[f64; 3]> = l
        .iter()
        .map(|s| [s.4.0 as f64 / s.4.1 as f64, 0.0, 0.0])
        .collect();
    let n = x.len();
    let mut out = Vec::new();
    while out.len() < events {
        let mut best = (f64::INFINITY, 0usize, 0i64);
        for i in 0..n {
            for j in i + 1..n {
                let r: Vec<f64> = (0..3).map(|k| x[j][k] - x[i][k]).collect();
                let w: Vec<f64> = (0..3).map(|k| v[j][k] - v[i][k]).collect();
                let a: f64 = w.iter().map(|c| c * c).sum();
                let b: f64 = 2.0 * (0..3).map(|k| r[k] * w[k]).sum::<f64>();
                let c: f64 = r.iter().map(|c| c * c).sum::<f64>() - 1.0;
                if a == 0.0 || b >= 0.0 {
                    continue;
                }
                let d = b * b - 4.0 * a * c;
                if d < 0.0 {
                    continue;
                }
                let t = ((-b - d.sqrt()) / (2.0 * a)).max(0.0);
                if t < best.0 {
                    best = (t, i, j as i64);
                }
            }
            for (w, (wall, above)) in [(0.0, true), (BOX as f64, false)].iter().enumerate() {
                let s = if *above { 1.0 } else { -1.0 };
                let (b, c) = (s * v[i][0], s * (x[i][0] - wall) - 0.5);
                if b < 0.0 {
                    let t = (-c / b).max(0.0);
                    if t < best.0 {
                        best = (t, i, -1 - w as i64);
                    }
                }
            }
        }
        let (t, i, j) = best;
        for k in 0..n {
            for c in 0..3 {
                x[k][c] += v[k][c] * t;
            }
        }
        if j < 0 {
            v[i][0] = -v[i][0];
        } else {
            let j = j as usize;
            let (u1, u2) = (v[i][0], v[j][0]);
            v[i][0] = ((m[i] - m[j]) * u1 + 2.0 * m[j] * u2) / (m[i] + m[j]);
            v[j][0] = ((m[j] - m[i]) * u2 + 2.0 * m[i] * u1) / (m[i] + m[j]);
        }
        out.push((i, j));
    }
    out
}

fn main() {
    let world = exact_world();
    let walls = [
        Wall::new(0, Rational::zero(), true).expect("axis 0"),
        Wall::new(0, Rational::from(BOX), false).expect("axis 0"),
    ];
    let mut bits = Vec::new();
    let start = Instant::now();
    let run = evolve_sphere_world_events_observed(
        &world,
        None,
        &walls,
        &Quantity::new(Rational::from(1_000_000), TIME),
        EVENTS,
        |spheres, _| {
            let b = spheres
                .iter()
                .flat_map(|s| s.position.iter().chain(&s.velocity))
                .map(exact::QuadraticNumber::bits)
                .max()
                .unwrap_or(0);
            bits.push(b);
            ControlFlow::Continue(())
        },
    )
    .expect("the gas runs");
    let exact_time = start.elapsed();
    let n = run.events.len();
    println!(
        "exact: {} spheres, {n} events in {:.3} s: {:.0} events/s; deferred: {:?}",
        world.len(),
        exact_time.as_secs_f64(),
        n as f64 / exact_time.as_secs_f64(),
        run.deferred.as_ref().map(|d| d.as_str())
    );
    for k in [1usize, 10, 100, 250, 500, 750, 1000] {
        if let Some(b) = bits.get(k - 1) {
            println!("  largest state number after event round {k}: {b} bits");
        }
    }
    let start = Instant::now();
    let float = float_events(n);
    let float_time = start.elapsed();
    println!(
        "f64: {} events in {:.3} s: {:.0} events/s",
        float.len(),
        float_time.as_secs_f64(),
        float.len() as f64 / float_time.as_secs_f64()
    );
    let exact_order: Vec<(usize, i64)> = run
        .events
        .iter()
        .map(|e| match e.second {
            Partner::Sphere(j) => (e.first, j as i64),
            Partner::Wall(w) => (e.first, -1 - w as i64),
        })
        .collect();
    // Events at one exact instant may come in any order; compare each instant's set.
    let mut k = 0;
    let mut differ = None;
    while k < n {
        let g = run.events[k..]
            .iter()
            .take_while(|e| e.time == run.events[k].time)
            .count();
        let mut a = exact_order[k..k + g].to_vec();
        let mut b = float[k..(k + g).min(float.len())].to_vec();
        a.sort_unstable();
        b.sort_unstable();
        if a != b {
            differ = Some(k);
            break;
        }
        k += g;
    }
    match differ {
        None => println!("same events, instant by instant, for all {n} events"),
        Some(k) => println!(
            "event orders first differ at event {k} (exact {:?} at t = {}, f64 {:?})",
            exact_order[k], run.events[k].time, float[k]
        ),
    }
}
