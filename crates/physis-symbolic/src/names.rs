//! How names and small integers print: LaTeX spellings of Greek names, primes and subscripts,
//! and Unicode superscripts.

use std::fmt::Write;

pub(crate) fn superscript(k: i64) -> String {
    k.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            _ => '⁹',
        })
        .collect()
}

/// A name in LaTeX: Greek letters as commands, trailing digits as a subscript, primes as dots
/// (`θ'` → `\dot{\theta}`), longer names upright.
pub fn latex_name(name: &str) -> String {
    let primes = name.chars().rev().take_while(|c| *c == '\'').count();
    let base = &name[..name.len() - primes];
    let digits_at = base
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_digit())
        .last()
        .map_or(base.len(), |(i, _)| i);
    let (stem, sub) = base.split_at(digits_at);
    let stem_tex = if stem.chars().count() == 1 {
        stem.chars().map(greek).collect::<String>()
    } else if stem.is_empty() {
        String::new()
    } else {
        format!(
            "\\mathrm{{{}}}",
            stem.chars().map(greek).collect::<String>()
        )
    };
    let mut s = match primes {
        0 => stem_tex,
        1 => format!("\\dot{{{stem_tex}}}"),
        2 => format!("\\ddot{{{stem_tex}}}"),
        _ => format!("{stem_tex}^{{{}}}", "\\prime".repeat(primes)),
    };
    if !sub.is_empty() {
        let _ = write!(s, "_{{{sub}}}");
    }
    s
}

fn greek(c: char) -> String {
    const LOWER: [&str; 25] = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
        "lambda", "mu", "nu", "xi", "o", "pi", "rho", "varsigma", "sigma", "tau", "upsilon", "phi",
        "chi", "psi", "omega",
    ];
    const UPPER: [&str; 25] = [
        "A", "B", "Gamma", "Delta", "E", "Z", "H", "Theta", "I", "K", "Lambda", "M", "N", "Xi",
        "O", "Pi", "P", "", "Sigma", "T", "Upsilon", "Phi", "X", "Psi", "Omega",
    ];
    let lookup = |table: &[&str; 25], first: char| {
        let i = (c as u32).checked_sub(first as u32)? as usize;
        let name = table.get(i)?;
        Some(match *name {
            "" => c.to_string(),
            n if n.len() == 1 || n == "o" => n.to_string(),
            n => format!("\\{n} "),
        })
    };
    match c {
        'ℓ' => "\\ell ".into(),
        'ϕ' => "\\phi ".into(),
        'α'..='ω' => lookup(&LOWER, 'α').unwrap_or_else(|| c.to_string()),
        'Α'..='Ω' => lookup(&UPPER, 'Α').unwrap_or_else(|| c.to_string()),
        _ => c.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latex_names() {
        assert_eq!(latex_name("θ'"), "\\dot{\\theta }");
        assert_eq!(latex_name("v0"), "v_{0}");
        assert_eq!(latex_name("ω"), "\\omega ");
        assert_eq!(latex_name("ℓ"), "\\ell ");
        assert_eq!(latex_name("mass"), "\\mathrm{mass}");
        assert_eq!(latex_name("y''"), "\\ddot{y}");
    }

    #[test]
    fn superscripts() {
        assert_eq!(superscript(-12), "⁻¹²");
        assert_eq!(superscript(9), "⁹");
    }
}
