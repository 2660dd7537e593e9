//! Rust spellings of model names: ASCII identifiers for params, states and observes
//! (`v₀` → `v0`, `α` → `alpha`, `s'` → `s_dot`), snake-case methods for named runs, and
//! the literal tokens of numbers.

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

/// Greek letters (and a few letter-like symbols) spelled out.
const SPELLED: &[(char, &str)] = &[
    ('α', "alpha"),
    ('β', "beta"),
    ('γ', "gamma"),
    ('δ', "delta"),
    ('ε', "epsilon"),
    ('ϵ', "epsilon"),
    ('ζ', "zeta"),
    ('η', "eta"),
    ('θ', "theta"),
    ('ϑ', "theta"),
    ('ι', "iota"),
    ('κ', "kappa"),
    ('λ', "lambda"),
    ('μ', "mu"),
    ('µ', "mu"),
    ('ν', "nu"),
    ('ξ', "xi"),
    ('ο', "omicron"),
    ('π', "pi"),
    ('ρ', "rho"),
    ('ϱ', "rho"),
    ('σ', "sigma"),
    ('ς', "sigma"),
    ('τ', "tau"),
    ('υ', "upsilon"),
    ('φ', "phi"),
    ('ϕ', "phi"),
    ('χ', "chi"),
    ('ψ', "psi"),
    ('ω', "omega"),
    ('Α', "Alpha"),
    ('Β', "Beta"),
    ('Γ', "Gamma"),
    ('Δ', "Delta"),
    ('Ε', "Epsilon"),
    ('Ζ', "Zeta"),
    ('Η', "Eta"),
    ('Θ', "Theta"),
    ('Ι', "Iota"),
    ('Κ', "Kappa"),
    ('Λ', "Lambda"),
    ('Μ', "Mu"),
    ('Ν', "Nu"),
    ('Ξ', "Xi"),
    ('Ο', "Omicron"),
    ('Π', "Pi"),
    ('Ρ', "Rho"),
    ('Σ', "Sigma"),
    ('Τ', "Tau"),
    ('Υ', "Upsilon"),
    ('Φ', "Phi"),
    ('Χ', "Chi"),
    ('Ψ', "Psi"),
    ('Ω', "Omega"),
    ('ℓ', "ell"),
    ('ħ', "hbar"),
];

/// Rust keywords (strict and reserved) that cannot name a field or method.
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "type",
    "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "try", "typeof", "unsized", "virtual", "yield",
];

/// The ASCII spelling of a model name: subscripts and superscripts become digits, Greek
/// letters are spelled out, each prime becomes `_dot`; anything else non-ASCII becomes
/// `u<hex>`. The result is a valid Rust identifier (a keyword gets a trailing `_`).
pub fn ascii(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else if c == '\'' || c == '′' {
            out.push_str("_dot");
        } else if let Some(d) = script_digit(c) {
            out.push(d);
        } else if let Some((_, s)) = SPELLED.iter().find(|(g, _)| *g == c) {
            out.push_str(s);
        } else {
            out.push_str(&format!("u{:x}", c as u32));
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if KEYWORDS.contains(&out.as_str()) || out == "_" {
        out.push('_');
    }
    out
}

fn script_digit(c: char) -> Option<char> {
    const SUB: &str = "₀₁₂₃₄₅₆₇₈₉";
    const SUP: &str = "⁰¹²³⁴⁵⁶⁷⁸⁹";
    let pos = |s: &str| s.chars().position(|d| d == c);
    let k = pos(SUB).or_else(|| pos(SUP))?;
    char::from_digit(k as u32, 10)
}

/// `HighAngle` → `high_angle`, `Steep` → `steep` (from the ASCII spelling).
pub fn snake(name: &str) -> String {
    let a = ascii(name);
    let mut out = String::new();
    let chars: Vec<char> = a.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            if prev_lower && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(*c);
        }
    }
    if KEYWORDS.contains(&out.as_str()) {
        out.push('_');
    }
    out
}

/// Gives each name a distinct spelling, avoiding `reserved`: a clash gets `_2`, `_3`, ...
pub fn distinct(names: &[String], reserved: &[&str]) -> Vec<String> {
    let mut taken: Vec<String> = reserved.iter().map(|s| s.to_string()).collect();
    let mut out = Vec::with_capacity(names.len());
    for n in names {
        let mut candidate = n.clone();
        let mut k = 2;
        while taken.contains(&candidate) {
            candidate = format!("{n}_{k}");
            k += 1;
        }
        taken.push(candidate.clone());
        out.push(candidate);
    }
    out
}

/// An identifier token.
pub fn ident(name: &str) -> Ident {
    Ident::new(name, Span::call_site())
}

/// An `f64` literal that reads back to exactly `v` (shortest round-trip digits).
pub fn f64_lit(v: f64) -> TokenStream {
    if v.is_nan() {
        return quote!(f64::NAN);
    }
    if v.is_infinite() {
        return if v > 0.0 {
            quote!(f64::INFINITY)
        } else {
            quote!(f64::NEG_INFINITY)
        };
    }
    let text = format!("{:?}f64", v.abs());
    let lit = syn::LitFloat::new(&text, Span::call_site());
    if v.is_sign_negative() {
        quote!((-#lit))
    } else {
        quote!(#lit)
    }
}

/// A `usize` literal.
pub fn usize_lit(v: usize) -> TokenStream {
    let lit = proc_macro2::Literal::usize_unsuffixed(v);
    quote!(#lit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_ascii() {
        assert_eq!(ascii("v₀"), "v0");
        assert_eq!(ascii("α"), "alpha");
        assert_eq!(ascii("s'"), "s_dot");
        assert_eq!(ascii("φ'"), "phi_dot");
        assert_eq!(ascii("ℓ"), "ell");
        assert_eq!(ascii("type"), "type_");
        assert_eq!(ascii("Δt"), "Deltat");
        assert_eq!(snake("Steep"), "steep");
        assert_eq!(snake("HighAngle"), "high_angle");
        assert_eq!(snake("Loop"), "loop_");
    }

    #[test]
    fn clashes_are_numbered() {
        let names = vec!["time".to_string(), "x".to_string(), "x".to_string()];
        assert_eq!(distinct(&names, &["time"]), ["time_2", "x", "x_2"]);
    }

    #[test]
    fn literals_read_back_exactly() {
        for v in [
            0.1,
            1e-300,
            2.0 / 3.0,
            -0.0,
            9.80665,
            f64::MIN_POSITIVE,
            -5e-324,
        ] {
            let text = f64_lit(v).to_string().replace([' ', '(', ')'], "");
            let back: f64 = text.trim_end_matches("f64").parse().unwrap();
            assert_eq!(back.to_bits(), v.to_bits(), "{text}");
        }
    }
}
