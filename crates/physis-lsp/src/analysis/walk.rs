//! Walks of the syntax tree: every expression node of a file, and the root expressions of one
//! clause, so the other analyses match the tree's forms in one place.

use physis_syntax::ast::{Boundary, ClauseKind, Expr, ExprKind, File, Item, ModuleItem};

/// The expressions a clause holds directly (not their sub-expressions).
pub fn clause_roots(kind: &ClauseKind) -> Vec<&Expr> {
    match kind {
        ClauseKind::Param { default, .. } => vec![default],
        ClauseKind::State { init, .. } | ClauseKind::Field { init, .. } => vec![init],
        ClauseKind::Law { value, .. } | ClauseKind::LawEach { value, .. } => vec![value],
        ClauseKind::Integrate { settings, .. } => settings.iter().map(|s| &s.value).collect(),
        ClauseKind::Record { every } => vec![every],
        ClauseKind::Observe(b) | ClauseKind::Let(b) | ClauseKind::Effort(b) => vec![&b.value],
        ClauseKind::Stop { when } => vec![when],
        ClauseKind::Run { overrides, .. } => overrides.iter().map(|b| &b.value).collect(),
        ClauseKind::Lagrangian(e) | ClauseKind::Hamiltonian(e) | ClauseKind::Dissipation(e) => {
            vec![e]
        }
        ClauseKind::Conserve { within, .. } => vec![within],
        ClauseKind::Grid { from, to, .. } => vec![from, to],
        ClauseKind::Boundary { condition, .. } => match condition {
            Boundary::Dirichlet(e) | Boundary::Neumann(Some(e)) => vec![e],
            Boundary::Neumann(None) | Boundary::Periodic => vec![],
        },
        ClauseKind::On { when, resets } => {
            let mut v = vec![when];
            v.extend(resets.iter().map(|b| &b.value));
            v
        }
        ClauseKind::Noise { .. } => vec![],
    }
}

/// Every root expression of a file: clause values and scheme bodies.
pub fn roots(file: &File) -> Vec<&Expr> {
    let mut out = Vec::new();
    for item in &file.items {
        match item {
            Item::Open(_) => {}
            Item::Scheme(decl) => out.extend(decl.body.iter().map(|b| &b.value)),
            Item::Simulate(sim) => {
                for clause in &sim.clauses {
                    out.extend(clause_roots(&clause.kind));
                }
            }
            Item::Module(decl) => {
                for item in &decl.items {
                    match item {
                        ModuleItem::Fn(f) => out.push(&f.body),
                        ModuleItem::Const(c) => out.push(&c.value),
                        ModuleItem::Scheme(s) => out.extend(s.body.iter().map(|b| &b.value)),
                    }
                }
            }
        }
    }
    out
}

/// The direct sub-expressions of a node.
pub fn children(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Number { .. } | ExprKind::Name(_) | ExprKind::Error => vec![],
        ExprKind::Unary { operand, .. } => vec![operand],
        ExprKind::Binary { lhs, rhs, .. } => vec![lhs, rhs],
        ExprKind::Power { base, exponent } => vec![base, exponent],
        ExprKind::Call { args, .. } => args.iter().collect(),
        ExprKind::Index { base, indices } => {
            let mut v = vec![&**base];
            v.extend(indices);
            v
        }
        ExprKind::Vector(items) => items.iter().collect(),
        ExprKind::Sum(s) => {
            let mut v = vec![&s.from, &s.to];
            v.extend(&s.filter);
            v.push(&s.body);
            v
        }
        ExprKind::Range { from, to } => vec![from, to],
    }
}

/// Visit `e` and every node below it, outer before inner.
pub fn visit<'a>(e: &'a Expr, f: &mut dyn FnMut(&'a Expr)) {
    f(e);
    for c in children(e) {
        visit(c, f);
    }
}

/// Every expression node of a file, outer before inner.
pub fn all_exprs(file: &File) -> Vec<&Expr> {
    let mut out = Vec::new();
    for root in roots(file) {
        visit(root, &mut |e| out.push(e));
    }
    out
}
