//! Structure-aware generators and mutators: JSON values mutated node by node (hostile numbers,
//! units, ids, repetitions, deep nesting), model text mutated line by line and token by token
//! (extreme numbers, long chains, CR line endings, bytes that are not UTF-8), and unit strings
//! generated from their grammar.

use crate::corpus::UNIT_ATOMS;
use rand::Rng;
use rand::rngs::ChaCha8Rng;
use serde_json::{Value, json};

/// A uniform integer below `n` (`n > 0`).
pub fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// One of `items`.
pub fn pick<'a, T>(rng: &mut ChaCha8Rng, items: &'a [T]) -> &'a T {
    &items[below(rng, items.len())]
}

/// Exact numbers a user could send: ordinary, huge, tiny, malformed.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "1/3",
    "9/2",
    "0.1",
    "1e308",
    "1e-308",
    "1e999",
    "-0",
    "1/0",
    "0/0",
    "123456789012345678901234567890/7",
    "NaN",
    "inf",
    "",
    " ",
    "1.5e",
    "2^64",
    "1_000",
];

/// Unit strings: generated from the grammar, plus a few known-hostile ones.
pub fn unit(rng: &mut ChaCha8Rng) -> String {
    const HOSTILE: &[&str] = &[
        "(((Qm^64)^64)^64)^64",
        "((qm^64)^64)^4/((m^64)^64)^4*m",
        "m^65",
        "m^(1/0)",
        "m^-64·s^64",
        "((((((((((((((((((m))))))))))))))))))",
        "m·",
        "/s",
        "m²³",
        "",
    ];
    if below(rng, 4) == 0 {
        return pick(rng, HOSTILE).to_string();
    }
    unit_expr(rng, 0)
}

fn unit_expr(rng: &mut ChaCha8Rng, depth: u32) -> String {
    let terms = 1 + below(rng, 4);
    let mut out = String::new();
    for i in 0..terms {
        if i > 0 {
            out.push_str(pick::<&str>(rng, &["·", "*", "/", " "]));
        }
        let atom = if depth < 18 && below(rng, 5) == 0 {
            format!("({})", unit_expr(rng, depth + 1))
        } else {
            pick(rng, UNIT_ATOMS).to_string()
        };
        out.push_str(&atom);
        match below(rng, 6) {
            0 => out.push_str(&format!("^{}", below(rng, 140) as i64 - 70)),
            1 => out.push_str(pick::<&str>(
                rng,
                &["²", "³", "⁻¹", "^(1/2)", "^(-3/2)", "^(2/0)"],
            )),
            _ => {}
        }
    }
    out
}

/// The most bytes a generated request may take: twice the protocol's line limit, so lines past
/// the limit are still sent, but a chain of repetitions (an element repeated 4,097 times inside
/// an array itself repeated 4,097 times) cannot grow an input without bound.
pub const MAX_REQUEST_BYTES: usize = 2 << 20;

/// A mutated copy of a JSON request: 1 to 4 node mutations, sometimes a byte-level one on top.
/// Never longer than [`MAX_REQUEST_BYTES`] before the byte-level damage (which adds at most 64
/// bytes): a mutation that would pass it is undone.
pub fn request(rng: &mut ChaCha8Rng, seed: &Value) -> Vec<u8> {
    let mut v = seed.clone();
    let mut bytes = serde_json::to_vec(&v).unwrap_or_default();
    for _ in 0..1 + below(rng, 4) {
        let before = v.clone();
        mutate_value(rng, &mut v, 0);
        match serde_json::to_vec(&v) {
            Ok(b) if b.len() <= MAX_REQUEST_BYTES => bytes = b,
            _ => v = before,
        }
    }
    if below(rng, 8) == 0 {
        bytes = mutate_bytes(rng, bytes);
    }
    bytes
}

/// Replaces or reshapes one random node of `v`.
fn mutate_value(rng: &mut ChaCha8Rng, v: &mut Value, depth: u32) {
    let descend = depth < 12 && below(rng, 3) != 0;
    match v {
        Value::Object(map) if descend && !map.is_empty() => {
            let key = map.keys().nth(below(rng, map.len())).cloned();
            if let Some(child) = key.and_then(|k| map.get_mut(&k)) {
                mutate_value(rng, child, depth + 1);
            }
        }
        Value::Array(items) if descend && !items.is_empty() => {
            let i = below(rng, items.len());
            if below(rng, 4) == 0 {
                // Repeat an element: many particles, forces or spheres.
                let times = *pick(rng, &[2usize, 16, 255, 256, 257, 4097]);
                let item = items[i].clone();
                // No more copies than fit in the request bound (the item's size bounds them).
                let size = serde_json::to_vec(&item).map_or(usize::MAX, |b| b.len() + 1);
                let times = times.min(MAX_REQUEST_BYTES / size);
                items.extend(std::iter::repeat_n(item, times));
            } else {
                mutate_value(rng, &mut items[i], depth + 1);
            }
        }
        _ => *v = replacement(rng, v),
    }
}

/// A hostile value for one node, chosen by what the node was.
fn replacement(rng: &mut ChaCha8Rng, old: &Value) -> Value {
    match below(rng, 10) {
        0 => json!(unit(rng)),
        1 => json!(pick(rng, NUMBERS)),
        2 => json!(*pick(
            rng,
            &[0u64, 1, 9_999, 10_000, 1_000_000, 1_000_001, u64::MAX]
        )),
        3 => json!(*pick(rng, &[-1.5f64, 1e300, 0.5])),
        4 => {
            // Deep nesting around the old value.
            let mut n = old.clone();
            for _ in 0..*pick(rng, &[8usize, 31, 32, 33, 200]) {
                n = json!([n]);
            }
            n
        }
        5 => Value::Null,
        6 => json!({"value": pick(rng, NUMBERS), "unit": unit(rng)}),
        7 => json!({"value": [pick(rng, NUMBERS), "0", "0"], "unit": unit(rng)}),
        8 => json!(true),
        _ => json!("a".repeat(*pick(rng, &[1usize, 100, 70_000]))),
    }
}

/// Byte-level damage: truncation, a flipped byte, bytes that are not UTF-8, a doubled slice.
pub fn mutate_bytes(rng: &mut ChaCha8Rng, mut bytes: Vec<u8>) -> Vec<u8> {
    if bytes.is_empty() {
        return vec![0xff];
    }
    let at = below(rng, bytes.len());
    match below(rng, 5) {
        0 => bytes.truncate(at),
        1 => bytes[at] ^= 1 << below(rng, 8),
        2 => bytes.splice(at..at, [0xff, 0xfe, 0xc3]).for_each(drop),
        3 => {
            let end = (at + 1 + below(rng, 64)).min(bytes.len());
            let slice = bytes[at..end].to_vec();
            bytes.splice(at..at, slice).for_each(drop);
        }
        _ => bytes.insert(at, *pick(rng, b"{}[]\",:\\\n\r\0")),
    }
    bytes
}

/// A mutated model: line- and token-level edits of an example, sometimes spliced with another.
pub fn model(rng: &mut ChaCha8Rng, seeds: &[String]) -> Vec<u8> {
    let base = pick(rng, seeds);
    let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
    for _ in 0..1 + below(rng, 3) {
        if lines.is_empty() {
            break;
        }
        let i = below(rng, lines.len());
        match below(rng, 9) {
            0 => {
                let other = pick(rng, seeds);
                let theirs: Vec<&str> = other.lines().collect();
                if !theirs.is_empty() {
                    lines.insert(i, pick(rng, &theirs).to_string());
                }
            }
            1 => {
                lines.remove(i);
            }
            2 => lines[i] = replace_number(rng, &lines[i]),
            3 => lines[i] = replace_unit(rng, &lines[i]),
            4 => {
                // A long flat chain inside the line's expression.
                let n = *pick(rng, &[100usize, 2047, 2048, 5000]);
                let piece = pick(rng, &["·1", " + 0·1", "·(1)", " - 0"]);
                lines[i].push_str(&piece.repeat(n));
            }
            5 => {
                let n = *pick(rng, &[10usize, 255, 256, 300]);
                lines[i] = format!("{}{}{}", "(".repeat(n), lines[i], ")".repeat(n));
            }
            6 => {
                lines[i] = lines[i].replace(
                    "Length",
                    pick::<&str>(
                        rng,
                        &["Length[3]", "Length[100000, 100000]", "Length[1000, 1001]"],
                    ),
                )
            }
            7 => {
                let j = below(rng, lines.len());
                lines.swap(i, j)
            }
            _ => lines[i] = lines[i].replace(' ', ""),
        }
    }
    let newline = pick(rng, &["\n", "\r\n", "\r"]);
    let mut bytes = lines.join(newline).into_bytes();
    if below(rng, 10) == 0 {
        bytes = mutate_bytes(rng, bytes);
    }
    bytes
}

/// The line with its first number (if any) replaced by an extreme one.
fn replace_number(rng: &mut ChaCha8Rng, line: &str) -> String {
    let Some(start) = line.find(|c: char| c.is_ascii_digit()) else {
        return line.to_string();
    };
    let end = line[start..]
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-'))
        .map_or(line.len(), |e| start + e);
    let new = pick(
        rng,
        &[
            "0",
            "1e308",
            "1e-320",
            "1e999",
            "4294967297",
            "1e9",
            "0.0",
            "18446744073709551616",
        ],
    );
    format!("{}{}{}", &line[..start], new, &line[end..])
}

/// The line with its last word-like unit after a number replaced by a generated unit.
fn replace_unit(rng: &mut ChaCha8Rng, line: &str) -> String {
    let unit = unit(rng);
    match line.rfind(" m") {
        Some(i) => format!(
            "{} {}{}",
            &line[..i],
            unit,
            &line[(i + 2).min(line.len())..]
        ),
        None => line.to_string(),
    }
}

/// `--set`, `--step`, `--limit`, `--threads` flags for a run, some hostile.
pub fn run_flags(rng: &mut ChaCha8Rng) -> Vec<String> {
    let mut flags = Vec::new();
    match below(rng, 8) {
        0 => flags.extend([
            "--limit".into(),
            pick(rng, &["0", "1", "100000"]).to_string(),
        ]),
        1 => flags.extend(["--step".into(), format!("1 {}", unit(rng))]),
        2 => flags.extend(["--set".into(), format!("v0=1e308 {}", unit(rng))]),
        3 => flags.extend([
            "--ensemble".into(),
            "4".into(),
            "--threads".into(),
            pick(rng, &["0", "1", "1024", "1025", "1000000"]).to_string(),
        ]),
        _ => {}
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn repeats_of_repeats_stay_within_the_request_bound() {
        // Arrays inside arrays, each element repeatable 4,097 times: unbounded, this grows to
        // gigabytes within a few mutations.
        let seed = json!({"v": 1, "id": 1, "action": "simulate", "args": {"particles": [
            {"id": "a", "position": {"value": [[["0", "0", "0"]]], "unit": "m"}}]}});
        for s in 0..300 {
            let mut rng = ChaCha8Rng::seed_from_u64(s);
            let bytes = request(&mut rng, &seed);
            assert!(
                bytes.len() <= MAX_REQUEST_BYTES + 64,
                "seed {s}: {} bytes",
                bytes.len()
            );
        }
    }
}
