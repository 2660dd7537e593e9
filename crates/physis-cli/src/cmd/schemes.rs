//! `physis schemes [NAME]`: the built-in schemes, read from the prelude itself, so the
//! listing cannot drift from what runs.

use physis_check::{CheckedScheme, SchemeOrder, prelude};
use std::process::ExitCode;

/// Arguments of `physis schemes`.
#[derive(clap::Args)]
pub struct Args {
    /// A scheme's name: print its text from the prelude; without it, every scheme is listed.
    name: Option<String>,
}

pub fn run(args: &Args) -> ExitCode {
    let schemes = prelude::schemes();
    let Some(name) = &args.name else {
        for s in schemes {
            println!("{:<14} {}", s.name, traits(s));
            if let Some(comment) = prelude::comment(s) {
                println!("{:<14} {comment}", "");
            }
        }
        return ExitCode::SUCCESS;
    };
    let Some(s) = schemes.iter().find(|s| &s.name == name) else {
        eprintln!(
            "error: no built-in scheme `{name}`; built in: {}",
            prelude::names().join(", ")
        );
        return ExitCode::from(2);
    };
    if let Some(comment) = prelude::comment(s) {
        println!("// {comment}");
    }
    println!("{}", prelude::text(s).unwrap_or_default());
    ExitCode::SUCCESS
}

/// What the scheme steps, how its step is chosen and what bounds it, in a few words.
fn traits(s: &CheckedScheme) -> String {
    let law = if s.order == SchemeOrder::Second {
        "x'' = a(t, x)"
    } else if s.stochastic {
        "y' = f + g·w"
    } else {
        "y' = f(t, y)"
    };
    let step = match s.adaptive {
        Some(p) => format!("adaptive <{p}>"),
        None => "fixed step".to_string(),
    };
    let bound = match (s.implicit, s.stable) {
        (true, _) => "implicit (Newton)".to_string(),
        (false, Some(r)) => format!("stable h·|λ| ≤ {r}"),
        (false, None) => "explicit".to_string(),
    };
    format!("{law:<14} {step:<14} {bound}")
}
