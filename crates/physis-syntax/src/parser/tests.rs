use super::*;
use crate::ast::{ClauseKind, Expr, ExprKind, UnOp};

/// A compact prefix form of an expression, for precise structural assertions.
fn sexpr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Number { value, unit } => match unit {
            Some(u) => format!("{value}[{}]", u.text),
            None => format!("{value}"),
        },
        ExprKind::Name(n) => n.key(),
        ExprKind::Unary { op, operand } => {
            let op = match op {
                UnOp::Neg => "neg",
                UnOp::Sqrt => "sqrt",
                UnOp::Not => "not",
            };
            format!("({op} {})", sexpr(operand))
        }
        ExprKind::Binary { op, lhs, rhs } => {
            format!("({} {} {})", op.symbol(), sexpr(lhs), sexpr(rhs))
        }
        ExprKind::Power { base, exponent } => format!("(^ {} {})", sexpr(base), sexpr(exponent)),
        ExprKind::Call { callee, args } => {
            let args: Vec<_> = args.iter().map(sexpr).collect();
            format!("{}({})", callee.key(), args.join(", "))
        }
        ExprKind::Index { base, indices } => {
            let idx: Vec<_> = indices.iter().map(sexpr).collect();
            format!("{}[{}]", sexpr(base), idx.join(", "))
        }
        ExprKind::Vector(items) => {
            let items: Vec<_> = items.iter().map(sexpr).collect();
            format!("[{}]", items.join(", "))
        }
        ExprKind::Sum(s) => {
            let filter = s
                .filter
                .as_ref()
                .map_or(String::new(), |f| format!(", {}", sexpr(f)));
            format!(
                "(Σ {} {}..{}{filter}: {})",
                s.index.key(),
                sexpr(&s.from),
                sexpr(&s.to),
                sexpr(&s.body)
            )
        }
        ExprKind::Range { from, to } => format!("{}..{}", sexpr(from), sexpr(to)),
        ExprKind::Error => "<error>".into(),
    }
}

/// Parse `law y' = <src>` inside a simulation and return the law's right side.
fn law(src: &str) -> String {
    let text = format!("simulate S {{\n  law y' = {src}\n}}\n");
    let parsed = parse(&text);
    assert!(
        parsed.diagnostics.is_empty(),
        "{src}: {:?}",
        parsed.diagnostics
    );
    let Item::Simulate(sim) = &parsed.file.items[0] else {
        panic!("no simulate")
    };
    match &sim.clauses[0].kind {
        ClauseKind::Law { value, .. } => sexpr(value),
        other => panic!("not a law: {other:?}"),
    }
}

fn codes(src: &str) -> Vec<(Code, u32)> {
    let parsed = parse(src);
    let index = crate::span::LineIndex::new(src);
    parsed
        .diagnostics
        .iter()
        .map(|d| (d.code, index.line(d.primary.span.start as usize)))
        .collect()
}

#[test]
fn precedence_follows_mathematics() {
    assert_eq!(law("a + b·c"), "(+ a (· b c))");
    assert_eq!(
        law("−γ·v + σ·√γ·w"),
        "(+ (· (neg γ) v) (· (· σ (sqrt γ)) w))"
    );
    assert_eq!(law("-x²"), "(neg (^ x 2))");
    assert_eq!(law("0.5·m·ℓ²·φ'²"), "(· (· (· 0.5 m) (^ ℓ 2)) (^ φ' 2))");
    assert_eq!(law("a^-1·b"), "(· (^ a (neg 1)) b)");
    assert_eq!(law("a^b^c"), "(^ a (^ b c))");
    assert_eq!(law("h/2·(k1 + k2)"), "(· (/ h 2) (+ k1 k2))");
}

#[test]
fn units_attach_to_numbers_only() {
    assert_eq!(law("9.81 m/s²"), "9.81[m/s²]");
    assert_eq!(law("0.05 N·m/A"), "0.05[N·m/A]");
    assert_eq!(law("1 kg·m²"), "1[kg·m²]");
    assert_eq!(law("0.5 m·v"), "(· 0.5[m] v)");
    assert_eq!(law("0.5·m"), "(· 0.5 m)");
    assert_eq!(law("1 N * m * s"), "1[N*m*s]");
    assert_eq!(law("3 m^2/s"), "3[m^2/s]");
    assert_eq!(law("2 Hz/3"), "(/ 2[Hz] 3)");
    assert_eq!(
        law("[0 m/s², −g₀] − k·v"),
        "(− [0[m/s²], (neg g0)] (· k v))"
    );
}

#[test]
fn conditions_and_words() {
    assert_eq!(law("x[1] < 0 m ∧ t > 0 s"), "(∧ (< x[1] 0[m]) (> t 0[s]))");
    assert_eq!(
        law("a < b and not c >= d or e"),
        "(∨ (∧ (< a b) (not (≥ c d))) e)"
    );
}

#[test]
fn brackets_and_operators_continue_lines() {
    assert_eq!(law("[1 m,\n    2 m]"), "[1[m], 2[m]]");
    assert_eq!(law("a +\n    b"), "(+ a b)");
    assert_eq!(law("f(a,\n b)"), "f(a, b)");
}

#[test]
fn the_manual_examples_parse_cleanly() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "hph") {
            let src = std::fs::read_to_string(&path).unwrap();
            let parsed = parse(&src);
            assert!(
                parsed.diagnostics.is_empty(),
                "{path:?}: {:?}",
                parsed.diagnostics
            );
            n += 1;
        }
    }
    assert!(n >= 11);
}

#[test]
fn every_clause_form_parses() {
    let src = "open Physis.Constants
scheme rk2 stable 2 <2> {
  k ≔ f(t, y); next ≔ y + h·k; error ≔ h·k
}
simulate All {
  param p : Length = 1 m
  state q : Length[2] = [0 m, 1 m]
  state q' : Velocity[2] = [0 m/s, 0 m/s]
  state P : Momentum conjugate q = 0 kg·m/s
  law q'' = −p/(1 s²)
  integrate rk4 step 1 ms tolerance 1e-6 limit 1000 seed 7
  record every 10 ms
  observe o ≔ q[0]
  stop when t ≥ 1 s
  run R with p = 2 m, p = 3 m
  lagrangian ≔ 1 J
  hamiltonian ≔ 1 J
  dissipation := 1 W
  effort q ≔ 1 N
  conserve o within 1e-3
  grid (x, y) : Length[3, 4] from 0 m to 1 m
  field u : Temperature = 0 K
  boundary u neumann
  boundary u periodic
  boundary u dirichlet 1 K
  on q[0] > 1 m do q' ≔ [0 m/s, 0 m/s], q ≔ q
  noise w, w2
}
";
    let parsed = parse(src);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let Item::Simulate(sim) = &parsed.file.items[2] else {
        panic!()
    };
    assert_eq!(sim.clauses.len(), 22);
    let Item::Scheme(s) = &parsed.file.items[1] else {
        panic!()
    };
    assert_eq!(
        (s.stable.map(|x| x.0), s.order.map(|x| x.0)),
        (Some(2.0), Some(2.0))
    );
    assert_eq!(s.body.len(), 3);
}

#[test]
fn errors_are_all_reported_and_parsing_goes_on() {
    let src = "simulate S {
  state y : Length = 10 m $
  law y' = * 2
  velocity y = 1
  law y' = (1 m/s
  stop when y < 0 m
}
";
    assert_eq!(
        codes(src),
        vec![
            (Code::UnexpectedChar, 2),
            (Code::UnexpectedToken, 3),
            (Code::UnknownClause, 4),
            (Code::UnclosedDelimiter, 6),
        ]
    );
    let parsed = parse(src);
    let Item::Simulate(sim) = &parsed.file.items[0] else {
        panic!()
    };
    // The stop clause after the unclosed bracket survives.
    assert!(matches!(
        sim.clauses.last().unwrap().kind,
        ClauseKind::Stop { .. }
    ));
}

#[test]
fn unclosed_blocks_and_foreign_text() {
    assert_eq!(
        codes("simulate S {\n  stop when t > 1 s\n"),
        vec![(Code::UnclosedDelimiter, 3)]
    );
    let src = "simulate A {\n  stop when t > 1 s\nsimulate B {\n}\nvar x = new A();\nx.Run();\n";
    assert_eq!(
        codes(src),
        vec![(Code::UnclosedDelimiter, 3), (Code::UnknownClause, 5)]
    );
    assert_eq!(parse(src).file.items.len(), 2);
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let deep = format!(
        "simulate S {{\n law y' = {}1{}\n}}\n",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    assert_eq!(codes(&deep), vec![(Code::TooDeep, 2)]);
    let minus = format!("simulate S {{\n law y' = {}1\n}}\n", "-".repeat(5000));
    assert_eq!(codes(&minus), vec![(Code::TooDeep, 2)]);
}

/// `0 Hz` followed by `n` factors `·1`: 2 + 2n tokens in one expression.
fn factor_chain(n: usize) -> String {
    format!("simulate S {{\n law y' = 0 Hz{}\n}}\n", "·1".repeat(n))
}

#[test]
fn long_flat_chain_is_refused_with_a_location() {
    use super::MAX_EXPR_TOKENS;
    // Exactly at the limit: accepted by the parser.
    let n = (MAX_EXPR_TOKENS - 2) / 2;
    assert_eq!(codes(&factor_chain(n)), vec![]);
    // One factor past it, and the issue's 10,000: PH0007 on the law's line.
    assert_eq!(codes(&factor_chain(n + 1)), vec![(Code::TooLarge, 2)]);
    assert_eq!(codes(&factor_chain(10_000)), vec![(Code::TooLarge, 2)]);
    let terms = format!(
        "simulate S {{\n law y' = 0 Hz{}\n}}\n",
        " + 0 Hz".repeat(10_000)
    );
    assert_eq!(codes(&terms), vec![(Code::TooLarge, 2)]);
}

#[test]
fn cr_only_line_endings_end_lines_and_comments() {
    let lf = "// a comment\nsimulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s\n  stop when y < 0 m\n}\n";
    let cr = lf.replace('\n', "\r");
    let crlf = lf.replace('\n', "\r\n");
    for src in [&cr, &crlf] {
        let parsed = parse(src);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        assert_eq!(parsed.file.items.len(), 1);
    }
    // An error on the fourth line is reported there in a CR-only file too.
    let bad = "// a comment\rsimulate Fall {\r  state y : Length = 10 m\r  law y' = * 2\r}\r";
    assert_eq!(codes(bad), vec![(Code::UnexpectedToken, 4)]);
    let rendered = crate::render::render_text(&parse(bad).diagnostics, "f.hph", bad);
    assert!(rendered.contains("f.hph:4:"), "{rendered}");
}

#[test]
fn sums_ranges_and_per_index_laws() {
    assert_eq!(
        law("Σ j in 0..7, j ≠ i: m[j]·x[j] + 1"),
        "(Σ j 0..7, (≠ j i): (+ (· m[j] x[j]) 1))"
    );
    assert_eq!(
        law("sum j in i + 1..7, j != 2: a[j]"),
        "(Σ j (+ i 1)..7, (≠ j 2): a[j])"
    );
    assert_eq!(
        law("2·(∑ k in 0..3: a[k]) − 1"),
        "(− (· 2 (Σ k 0..3: a[k])) 1)"
    );
    assert_eq!(
        law("Σ i in 0..2: Σ j in 0..i: a[j]"),
        "(Σ i 0..2: (Σ j 0..i: a[j]))"
    );
    assert_eq!(law("m[1..3]"), "m[1..3]");
    // `sum(u)` stays the built-in reduction.
    assert_eq!(law("sum(u)"), "sum(u)");
    for src in ["law x[i]'' = −x[i]", "law x''[i] = −x[i]"] {
        let text = format!("simulate S {{\n  {src}\n}}\n");
        let parsed = parse(&text);
        assert!(
            parsed.diagnostics.is_empty(),
            "{src}: {:?}",
            parsed.diagnostics
        );
        let Item::Simulate(sim) = &parsed.file.items[0] else {
            panic!("no simulate")
        };
        let ClauseKind::LawEach { target, index, .. } = &sim.clauses[0].kind else {
            panic!("not a per-index law")
        };
        assert_eq!((target.key().as_str(), index.text.as_str()), ("x''", "i"));
    }
}

#[test]
fn broken_sums_are_syntax_errors() {
    for src in [
        "simulate S {\n  law y' = Σ j 0..3: a[j]\n}\n",
        "simulate S {\n  law y' = Σ j in 0.3: a[j]\n}\n",
        "simulate S {\n  law y' = Σ j in 0..3 a[j]\n}\n",
        "simulate S {\n  law y' = a '\n}\n",
    ] {
        let found = codes(src);
        assert!(!found.is_empty(), "{src}");
        assert!(found.iter().all(|(_, line)| *line >= 2), "{src}: {found:?}");
    }
}
