//! `centl-physics events WORLD.json`: the event-driven sphere world. The file holds the
//! arguments of the protocol action `evolve_sphere_world_events` (spheres, duration, optional
//! gravity and max_events); the run goes through the same action table as `--serve`.

use crate::args::EventsArgs;
use centl_protocol::{Limits, dispatch};
use serde_json::Value;
use std::fmt::Write as _;

/// Runs the world and prints one line per event, then the end state and the exact checks.
pub fn run(a: &EventsArgs) -> Result<String, String> {
    let text = std::fs::read_to_string(&a.world)
        .map_err(|e| format!("cannot read {}: {e}", a.world.display()))?;
    let args: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", a.world.display()))?;
    let r = dispatch(
        "evolve_sphere_world_events",
        Some(&args),
        &Limits::default(),
    )
    .map_err(|e| format!("{} ({})", e, e.code()))?;
    Ok(render(&r))
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn vector(v: &Value) -> String {
    v["text"]
        .as_array()
        .map(|c| c.iter().map(s).collect::<Vec<_>>().join(","))
        .unwrap_or_default()
}

/// The result as `key=value` lines.
fn render(r: &Value) -> String {
    let mut out = String::new();
    let events = r["events"].as_array().cloned().unwrap_or_default();
    let _ = writeln!(out, "events={}", events.len());
    for e in &events {
        let _ = writeln!(
            out,
            "event t={} s {} {} {} kinetic_energy={} J",
            s(&e["time"]["text"]),
            s(&e["first"]),
            s(&e["second"]),
            s(&e["response"]),
            s(&e["kinetic_energy"]["text"])
        );
    }
    let _ = writeln!(out, "status={}", s(&r["status"]));
    if let Some(reason) = r["reason"].as_str() {
        let _ = writeln!(out, "reason={reason} {}", r["detail"]);
    }
    let _ = writeln!(out, "time={} s", s(&r["time"]["text"]));
    for sp in r["spheres"].as_array().cloned().unwrap_or_default() {
        let _ = writeln!(
            out,
            "sphere {} position={} m velocity={} m/s",
            s(&sp["id"]),
            vector(&sp["position"]),
            vector(&sp["velocity"])
        );
    }
    let _ = writeln!(
        out,
        "energy_delta={} J\nmomentum_delta={} kg*m/s",
        s(&r["energy"]["delta"]["text"]),
        vector(&r["momentum"]["delta"])
    );
    out
}
