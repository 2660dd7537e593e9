//! Completion: units after a number (as typed: `m/s²`, `km/h`), quantity kinds after `:`,
//! schemes after `integrate`, modules after `open` or `Physis.` (module files read beside the
//! document included), a module's functions and constants after `Module.`, and elsewhere the
//! names in scope (params, states and their derivatives `x'`, observes, constants, functions,
//! what opened modules bring in), keywords and the Unicode spellings of ASCII names
//! (`alpha` → `α`).

use super::symbols::SymbolKind;
use super::{Analysis, contains};
use physis_syntax::Span;
use physis_syntax::ast::Item;

/// What a completion offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    /// A unit after a number.
    Unit,
    /// A quantity kind.
    Kind,
    /// A scheme.
    Scheme,
    /// A module of `open`.
    Module,
    /// A param, state, observe or other declared name.
    Variable,
    /// A constant of Physis.Constants.
    Constant,
    /// A built-in function.
    Function,
    /// A keyword.
    Keyword,
    /// A Unicode spelling of an ASCII name or operator.
    Spelling,
}

/// One completion: `insert` replaces `replace` (the prefix typed so far).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// What the list shows and filters on (`alpha` for `α`).
    pub label: String,
    /// What it is.
    pub kind: CompletionKind,
    /// The text put in place of the prefix.
    pub insert: String,
    /// The prefix replaced.
    pub replace: Span,
    /// A short note (a unit's kind, a spelling's symbol).
    pub detail: Option<String>,
}

/// Units people write that are not single symbols; each parses (a test checks).
pub const COMPOUND_UNITS: &[&str] = &[
    "m/s", "m/s²", "km/h", "km/s", "cm/s", "mm/s", "rad/s", "rad/s²", "deg/s", "N·m", "N·s", "N/m",
    "N·s/m", "kg·m²", "kg/m³", "kg·m/s", "m²", "m³", "W/m²", "J/K", "J/kg", "m²/s", "1/s",
];

/// ASCII names and operators with a Unicode spelling.
pub const SPELLINGS: &[(&str, &str)] = &[
    ("alpha", "α"),
    ("beta", "β"),
    ("gamma", "γ"),
    ("delta", "δ"),
    ("epsilon", "ε"),
    ("zeta", "ζ"),
    ("eta", "η"),
    ("theta", "θ"),
    ("kappa", "κ"),
    ("lambda", "λ"),
    ("mu", "μ"),
    ("nu", "ν"),
    ("xi", "ξ"),
    ("pi", "π"),
    ("rho", "ρ"),
    ("sigma", "σ"),
    ("tau", "τ"),
    ("phi", "φ"),
    ("chi", "χ"),
    ("psi", "ψ"),
    ("omega", "ω"),
    ("Gamma", "Γ"),
    ("Delta", "Δ"),
    ("Theta", "Θ"),
    ("Lambda", "Λ"),
    ("Sigma", "Σ"),
    ("Phi", "Φ"),
    ("Psi", "Ψ"),
    ("Omega", "Ω"),
    ("ell", "ℓ"),
    ("sqrt", "√"),
    ("and", "∧"),
    ("or", "∨"),
    ("not", "¬"),
];

/// Keywords of clauses and items.
const KEYWORDS: &[&str] = &[
    "simulate",
    "scheme",
    "open",
    "param",
    "state",
    "law",
    "integrate",
    "record",
    "every",
    "observe",
    "stop",
    "when",
    "run",
    "with",
    "lagrangian",
    "hamiltonian",
    "dissipation",
    "effort",
    "conserve",
    "within",
    "grid",
    "from",
    "to",
    "field",
    "boundary",
    "dirichlet",
    "neumann",
    "periodic",
    "on",
    "do",
    "noise",
    "step",
    "tolerance",
    "abs",
    "limit",
    "seed",
    "conjugate",
    "stable",
    "t",
];

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '\'' || c == '′' || ('₀'..='₉').contains(&c)
}

fn is_unit_char(c: char) -> bool {
    c.is_alphanumeric() || "/·*^²³⁻¹°µμΩ".contains(c)
}

/// The start of the run of characters satisfying `f` that ends at `end`.
fn run_start(line: &str, f: fn(char) -> bool) -> usize {
    line.char_indices()
        .rev()
        .take_while(|(_, c)| f(*c))
        .last()
        .map_or(line.len(), |(i, _)| i)
}

impl Analysis {
    /// Completions for the cursor at byte `offset`.
    pub fn completions(&self, offset: usize) -> Vec<Completion> {
        let mut offset = offset.min(self.source.len());
        while !self.source.is_char_boundary(offset) {
            offset -= 1;
        }
        let line_start = self.source[..offset]
            .rfind(['\n', '\r'])
            .map_or(0, |i| i + 1);
        let line = &self.source[line_start..offset];
        let make = |start: usize, items: Vec<(String, CompletionKind, String, Option<String>)>| {
            let prefix = &line[start..];
            items
                .into_iter()
                .filter(|(label, ..)| label.starts_with(prefix))
                .map(|(label, kind, insert, detail)| Completion {
                    label,
                    kind,
                    insert,
                    replace: Span::new(line_start + start, offset),
                    detail,
                })
                .collect::<Vec<_>>()
        };
        // A unit: a number, spaces, then unit characters (or nothing yet).
        let unit_start = run_start(line, is_unit_char);
        let before_unit = &line[..unit_start];
        let starts_with_digit = line[unit_start..].starts_with(|c: char| c.is_ascii_digit());
        if before_unit.ends_with(' ')
            && before_unit
                .trim_end()
                .ends_with(|c: char| c.is_ascii_digit())
            && !starts_with_digit
        {
            return make(unit_start, unit_items());
        }
        let start = run_start(line, is_name_char);
        let head = line[..start].trim_end();
        let words: Vec<&str> = line.split_whitespace().collect();
        // `Motors.` or `Physis.Mechanics.`: the module's functions and constants.
        if let Some(before) = head.strip_suffix('.')
            && let Some(m) = self.modules.iter().find(|m| {
                before.ends_with(&m.name)
                    && !before[..before.len() - m.name.len()]
                        .ends_with(|c: char| is_name_char(c) || c == '.')
            })
        {
            return make(start, member_items(m));
        }
        if head.ends_with("Physis.") || words.first() == Some(&"open") {
            let start = if head.ends_with("Physis.") {
                start
            } else {
                run_start(line, |c| is_name_char(c) || c == '.')
            };
            let mut names: Vec<&str> = vec!["Physis.Constants", "Physis.Schemes"];
            names.extend(self.modules.iter().map(|m| m.name.as_str()));
            let items = names
                .iter()
                .filter(|m| !head.ends_with("Physis.") || m.starts_with("Physis."))
                .map(|m| {
                    let text = if head.ends_with("Physis.") {
                        m.trim_start_matches("Physis.")
                    } else {
                        m
                    };
                    (
                        text.to_string(),
                        CompletionKind::Module,
                        text.to_string(),
                        None,
                    )
                })
                .collect();
            return make(start, items);
        }
        if head.ends_with("integrate") {
            return make(start, self.scheme_items());
        }
        let declares = matches!(words.first(), Some(&("param" | "state" | "field" | "grid")));
        if declares && head.ends_with(':') {
            let items = units::kinds()
                .map(|(k, d)| {
                    let unit = d.si_unit();
                    (
                        k.to_string(),
                        CompletionKind::Kind,
                        k.to_string(),
                        Some(unit),
                    )
                })
                .collect();
            return make(start, items);
        }
        make(start, self.name_items(offset))
    }

    fn scheme_items(&self) -> Vec<(String, CompletionKind, String, Option<String>)> {
        let mut names: Vec<String> = physis_check::prelude::names()
            .into_iter()
            .map(str::to_string)
            .collect();
        for item in &self.file.items {
            if let Item::Scheme(d) = item {
                names.push(d.name.key());
            }
        }
        names
            .into_iter()
            .map(|n| (n.clone(), CompletionKind::Scheme, n, None))
            .collect()
    }

    fn name_items(&self, offset: usize) -> Vec<(String, CompletionKind, String, Option<String>)> {
        let mut out = Vec::new();
        let sim = self
            .file
            .items
            .iter()
            .filter(|i| matches!(i, Item::Simulate(_)))
            .position(|i| matches!(i, Item::Simulate(s) if contains(s.span, offset)));
        for sym in self.symbols.symbols.iter().filter(|s| s.sim == sim) {
            if sym.kind == SymbolKind::Scheme {
                continue;
            }
            let shown = sym.name.text(&self.source).to_string();
            let detail = Some(format!("{:?}", sym.kind).to_lowercase());
            out.push((
                shown.clone(),
                CompletionKind::Variable,
                shown.clone(),
                detail,
            ));
            if sym.kind == SymbolKind::State && !shown.ends_with('\'') {
                // The derivative, for laws and rates.
                let d = format!("{shown}'");
                out.push((
                    d.clone(),
                    CompletionKind::Variable,
                    d,
                    Some("derivative".into()),
                ));
            }
        }
        for name in physis_check::constants::names() {
            out.push((name.into(), CompletionKind::Constant, name.into(), None));
        }
        // What the opened modules bring in, module files included.
        for m in self
            .modules
            .iter()
            .filter(|m| self.opened.contains(&m.name))
        {
            out.extend(member_items(m));
        }
        for name in physis_check::Builtin::NAMES {
            let call = format!("{name}(");
            out.push((name.to_string(), CompletionKind::Function, call, None));
        }
        for k in KEYWORDS {
            out.push((k.to_string(), CompletionKind::Keyword, k.to_string(), None));
        }
        for (ascii, uni) in SPELLINGS {
            out.push((
                ascii.to_string(),
                CompletionKind::Spelling,
                uni.to_string(),
                Some(format!("{ascii} → {uni}")),
            ));
        }
        out
    }
}

/// A module's functions (inserted with their `(`, shown with their signature) and constants.
fn member_items(
    m: &physis_check::modules::Module,
) -> Vec<(String, CompletionKind, String, Option<String>)> {
    let functions = m.functions.iter().map(|f| {
        (
            f.name.clone(),
            CompletionKind::Function,
            format!("{}(", f.name),
            Some(f.signature()),
        )
    });
    let constants = m.constants.iter().map(|c| {
        (
            c.name.clone(),
            CompletionKind::Constant,
            c.name.clone(),
            c.doc.clone(),
        )
    });
    functions.chain(constants).collect()
}

fn unit_items() -> Vec<(String, CompletionKind, String, Option<String>)> {
    let mut seen = std::collections::BTreeSet::new();
    COMPOUND_UNITS
        .iter()
        .copied()
        .chain(units::unit_symbols())
        .filter(|u| seen.insert(*u))
        .map(|u| {
            let detail = units::parse_unit(u)
                .ok()
                .map(|p| super::hover::describe_dim(p.dim()));
            (u.to_string(), CompletionKind::Unit, u.to_string(), detail)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_compound_unit_parses() {
        for u in COMPOUND_UNITS {
            assert!(units::parse_unit(u).is_ok(), "{u}");
        }
    }
}
