//! Runs the generated models and prints a few results.
#![allow(clippy::print_stdout)]

use physis_runtime::{RunError, RunOptions};
use rust_api::{BouncingBall, Decay, LotkaVolterra, Projectile, ProjectileParams};

fn main() -> Result<(), RunError> {
    let projectile = Projectile::new();
    let run = projectile.run()?;
    println!(
        "projectile: {} `{}` (line {}) at t = {:.4} s, x = {:.3} m, {} samples",
        run.reason.kind.as_str(),
        run.reason.clause.as_deref().unwrap_or("-"),
        run.reason.line.unwrap_or(0),
        run.final_t,
        run.final_state.x[0],
        run.time.len(),
    );
    let steep = projectile.steep()?;
    println!(
        "projectile, run Steep: lands at x = {:.3} m after {:.4} s",
        steep.final_state.x[0], steep.final_t
    );
    let fast = projectile.run_with(ProjectileParams {
        v0: 50.0,
        ..Projectile::defaults()
    })?;
    let top = fast.height.iter().copied().fold(f64::MIN, f64::max);
    println!("projectile at 50 m/s: highest point {top:.3} m");

    let ball = BouncingBall::new();
    let bounces = ball
        .stream()?
        .filter(|s| s.kind == physis_runtime::SampleKind::AfterEvent)
        .count();
    println!("bouncing ball: {bounces} bounces before t = 6 s");

    let lv = LotkaVolterra::new().run_configured(
        LotkaVolterra::defaults(),
        RunOptions {
            tolerance: Some(1e-10),
            ..RunOptions::default()
        },
    )?;
    println!(
        "lotka-volterra: prey {:.6}, predators {:.6} at t = {} s ({} steps)",
        lv.final_state.x, lv.final_state.y, lv.final_t, lv.stats.steps
    );

    let decay = Decay::new().run()?;
    let csv = decay.to_csv();
    println!(
        "decay: `{}` at t = {:.2} s; csv starts {:?}",
        decay.reason.clause.as_deref().unwrap_or("-"),
        decay.final_t,
        csv.lines().take(2).collect::<Vec<_>>()
    );
    Ok(())
}
