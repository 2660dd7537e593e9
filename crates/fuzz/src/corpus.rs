//! Seeds: the request lines of `docs/protocol.md`, the models of `examples/*.hph`, and unit
//! strings from both, read from the workspace at start-up.

use std::path::{Path, PathBuf};

/// The workspace root (two levels above this crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every documented request line (`{"v": 1, ...}` lines of docs/protocol.md that parse).
pub fn requests() -> Vec<serde_json::Value> {
    let text =
        std::fs::read_to_string(workspace_root().join("docs/protocol.md")).unwrap_or_default();
    text.lines()
        .filter(|l| l.starts_with("{\"v\": 1") && l.contains("\"action\""))
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// The example models, as text.
pub fn models() -> Vec<String> {
    let dir = workspace_root().join("examples");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == "hph"));
    paths.sort();
    paths
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect()
}

/// Unit atoms the generators combine (prefixes at both ends of the scale included).
pub const UNIT_ATOMS: &[&str] = &[
    "m", "s", "kg", "g", "N", "J", "W", "Hz", "K", "A", "mol", "cd", "rad", "deg", "eV", "cm",
    "km", "h", "min", "Qm", "qm", "Qg", "ys", "L", "au", "ly", "bar", "Pa", "C", "V", "Ω", "T",
];
