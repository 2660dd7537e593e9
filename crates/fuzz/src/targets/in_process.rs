//! In-process targets: each input runs on a worker thread with the default 2 MiB stack, under
//! `catch_unwind`, so a panic is a finding and the campaign goes on (a stack overflow still
//! aborts the campaign; the seed printed at its start replays it).

use super::{Campaign, Target, finding};
use crate::corpus;
use crate::mutate;
use crate::report::Stats;
use rand::rngs::ChaCha8Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::time::Instant;

type Job = Box<dyn FnOnce() -> Option<(&'static str, String)> + Send>;

/// Runs `c.inputs` inputs of `target`; returns how many were tried.
pub fn run(
    target: Target,
    c: &Campaign,
    rng: &mut ChaCha8Rng,
    stats: &mut Stats,
    progress: &mut impl FnMut(&str, u64),
) -> u64 {
    let requests = corpus::requests();
    let models = corpus::models();
    let reply_bytes = c.bounds.reply_bytes;
    // One worker thread with the default stack runs every job.
    let (jobs, rx) = mpsc::channel::<Job>();
    let (done, results) = mpsc::channel();
    let worker = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            for job in rx {
                let verdict = catch_unwind(AssertUnwindSafe(job))
                    .unwrap_or_else(|e| Some(("panic", panic_text(&e))));
                if done.send(verdict).is_err() {
                    break;
                }
            }
        });
    let Ok(worker) = worker else { return 0 };
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut tried = 0;
    for i in 0..c.inputs {
        let (input, job): (Vec<u8>, Job) = match target {
            Target::Jsonl if !requests.is_empty() => {
                let line = if mutate::below(rng, 10) == 0 {
                    let bytes =
                        serde_json::to_vec(mutate::pick(rng, &requests)).unwrap_or_default();
                    mutate::mutate_bytes(rng, bytes)
                } else {
                    let seed = mutate::pick(rng, &requests);
                    mutate::request(rng, seed)
                };
                let l = line.clone();
                (line, Box::new(move || jsonl(&l, reply_bytes)))
            }
            Target::Units => {
                let text = mutate::unit(rng);
                let t = text.clone();
                (text.into_bytes(), Box::new(move || units_parse(&t)))
            }
            Target::Hph if !models.is_empty() => {
                let bytes = mutate::model(rng, &models);
                let b = bytes.clone();
                (bytes, Box::new(move || hph(&b)))
            }
            _ => break,
        };
        let start = Instant::now();
        if jobs.send(job).is_err() {
            break;
        }
        let Ok(verdict) = results.recv() else { break };
        stats.timed(target.name(), start.elapsed(), &input);
        if let Some((kind, detail)) = verdict {
            stats.findings.push(finding(target, kind, detail, &input));
        }
        tried += 1;
        if (i + 1) % 1000 == 0 {
            progress(target.name(), i + 1);
        }
    }
    drop(jobs);
    let _ = worker.join();
    std::panic::set_hook(previous);
    tried
}

fn panic_text(e: &Box<dyn std::any::Any + Send>) -> String {
    e.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| e.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}

/// One protocol line: one reply line, valid JSON, version 1, an error code on failure, and
/// no longer than the bound.
fn jsonl(line: &[u8], reply_bytes: usize) -> Option<(&'static str, String)> {
    let limits = centl_protocol::Limits::default();
    let reply = centl_protocol::handle_line(line, &limits);
    if reply.len() > reply_bytes {
        return Some(("too_large", format!("reply of {} bytes", reply.len())));
    }
    if reply.trim_end_matches('\n').contains('\n') {
        return Some(("malformed_reply", "more than one line".into()));
    }
    let start: String = reply.chars().take(200).collect();
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&reply) else {
        return Some(("malformed_reply", start));
    };
    if v["v"] != 1 {
        return Some(("malformed_reply", start));
    }
    if v["ok"] == false && !v["error"]["code"].is_string() {
        return Some(("no_code", start));
    }
    None
}

/// One unit string: a unit or a typed error with a message.
fn units_parse(text: &str) -> Option<(&'static str, String)> {
    match units::parse_unit(text) {
        Ok(u) if u.scale_f64().is_nan() => Some(("malformed_reply", "a NaN scale".into())),
        Ok(_) => None,
        Err(e) if e.to_string().is_empty() => Some(("no_code", "an empty error".into())),
        Err(_) => None,
    }
}

/// One model: decoded and checked through the front door as `physis check` does, then every
/// simulation lowered as `run` would; every diagnostic inside the file, and lowering refusing
/// only what `physis check` reports.
fn hph(bytes: &[u8]) -> Option<(&'static str, String)> {
    let (_, not_utf8) = physis_syntax::decode_source(bytes);
    if not_utf8.is_some() {
        return None;
    }
    let mut checked = physis_ir::front::check_and_lower(bytes, "f.hph");
    let text = checked.source.clone();
    let reported = checked.all_diagnostics();
    for d in &reported {
        if d.primary.span.end as usize > text.len()
            || !text.is_char_boundary(d.primary.span.start as usize)
        {
            return Some((
                "malformed_reply",
                format!("{} span {:?} outside the file", d.code, d.primary.span),
            ));
        }
    }
    let _ = checked.render(&reported);
    if !checked.has_errors() {
        for index in 0..checked.program.models.len() {
            let seen_by_check = checked.is_refused(index);
            if let Err(refused) = checked.lower(index) {
                // `physis check` lowers a model without a grid, and a grid model's scheme, and
                // reports what lowering refuses; the rest of a grid model it does not lower,
                // so lowering must accept it. PH0122 is a fault of ours either way.
                let d = refused.error.to_diagnostic(checked.model(index));
                if d.code == physis_syntax::Code::Internal {
                    return Some(("internal", d.message));
                }
                if !seen_by_check {
                    return Some(("check_passes_run_refuses", d.message));
                }
            }
        }
    }
    None
}
