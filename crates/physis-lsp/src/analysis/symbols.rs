//! Declarations and uses of names, for go to definition and find references: params, states
//! (a `y'` state is the velocity of `y`), fields, noises, grid coordinates and observes within
//! one simulation, and schemes across the file.

use super::walk;
use physis_syntax::Span;
use physis_syntax::ast::{ClauseKind, ExprKind, File, Item, ModuleDecl, ModuleItem, Name};

/// What a declaration declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// `param`
    Param,
    /// `state` (coordinates, velocities, momenta)
    State,
    /// `field`
    Field,
    /// `noise`
    Noise,
    /// A coordinate of `grid`
    GridCoord,
    /// `observe`
    Observe,
    /// `let`
    Local,
    /// A top-level `scheme`
    Scheme,
    /// A module's `fn` (its key is qualified: `Motors.speed`)
    Function,
    /// A module's `const` (its key is qualified)
    Constant,
}

/// One declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct Symbol {
    /// What it is.
    pub kind: SymbolKind,
    /// The name with its primes (`y'`).
    pub key: String,
    /// The declared name's span.
    pub name: Span,
    /// The whole declaring clause or item.
    pub decl: Span,
    /// The simulation it belongs to (index among the file's simulations); `None` for schemes.
    pub sim: Option<usize>,
}

/// One use of a name that may refer to a declaration.
#[derive(Clone, Debug, PartialEq)]
struct Use {
    name: Name,
    sim: Option<usize>,
    scheme: bool,
}

/// The declarations and uses of one file.
#[derive(Clone, Debug, Default)]
pub struct Symbols {
    /// Every declaration, in source order.
    pub symbols: Vec<Symbol>,
    uses: Vec<Use>,
}

impl Symbols {
    /// Index a parsed file.
    pub fn new(file: &File) -> Symbols {
        let mut out = Symbols::default();
        let mut sim_index = 0;
        for item in &file.items {
            match item {
                Item::Open(_) => {}
                Item::Scheme(decl) => out.symbols.push(Symbol {
                    kind: SymbolKind::Scheme,
                    key: decl.name.key(),
                    name: decl.name.span,
                    decl: decl.span,
                    sim: None,
                }),
                Item::Simulate(sim) => {
                    for clause in &sim.clauses {
                        out.clause(&clause.kind, clause.span, sim_index);
                    }
                    sim_index += 1;
                }
                Item::Module(decl) => out.module(decl),
            }
        }
        // Calls of module functions by their qualified names.
        for root in walk::roots(file) {
            walk::visit(root, &mut |e| {
                if let ExprKind::Call { callee, .. } = &e.kind
                    && callee.text.contains('.')
                {
                    out.uses.push(Use {
                        name: callee.clone(),
                        sim: None,
                        scheme: false,
                    });
                }
            });
        }
        out
    }

    /// A module's functions, constants and schemes, under qualified keys.
    fn module(&mut self, decl: &ModuleDecl) {
        let module = decl.name();
        for item in &decl.items {
            let (kind, name, span) = match item {
                ModuleItem::Fn(f) => (SymbolKind::Function, &f.name, f.span),
                ModuleItem::Const(c) => (SymbolKind::Constant, &c.name, c.span),
                ModuleItem::Scheme(s) => (SymbolKind::Scheme, &s.name, s.span),
            };
            self.symbols.push(Symbol {
                kind,
                key: format!("{module}.{}", name.key()),
                name: name.span,
                decl: span,
                sim: None,
            });
        }
    }

    fn def(&mut self, kind: SymbolKind, name: &Name, decl: Span, sim: usize) {
        self.symbols.push(Symbol {
            kind,
            key: name.key(),
            name: name.span,
            decl,
            sim: Some(sim),
        });
    }

    fn use_(&mut self, name: &Name, sim: usize) {
        self.uses.push(Use {
            name: name.clone(),
            sim: Some(sim),
            scheme: false,
        });
    }

    fn clause(&mut self, kind: &ClauseKind, span: Span, sim: usize) {
        match kind {
            ClauseKind::Param { name, .. } => self.def(SymbolKind::Param, name, span, sim),
            ClauseKind::State {
                name, conjugate, ..
            } => {
                self.def(SymbolKind::State, name, span, sim);
                if let Some(q) = conjugate {
                    self.use_(q, sim);
                }
            }
            ClauseKind::Field { name, .. } => self.def(SymbolKind::Field, name, span, sim),
            ClauseKind::Noise { names } => {
                for n in names {
                    self.def(SymbolKind::Noise, n, span, sim);
                }
            }
            ClauseKind::Grid { coords, .. } => {
                for n in coords {
                    self.def(SymbolKind::GridCoord, n, span, sim);
                }
            }
            ClauseKind::Observe(b) => self.def(SymbolKind::Observe, &b.name, span, sim),
            ClauseKind::Let(b) => self.def(SymbolKind::Local, &b.name, span, sim),
            ClauseKind::Law { target, .. } | ClauseKind::LawEach { target, .. } => {
                self.use_(target, sim)
            }
            ClauseKind::Integrate { scheme, settings } => {
                self.uses.push(Use {
                    name: scheme.clone(),
                    sim: None,
                    scheme: true,
                });
                for s in settings {
                    if let Some(t) = &s.target {
                        self.use_(t, sim);
                    }
                }
            }
            ClauseKind::Run { overrides, .. } => {
                for b in overrides {
                    self.use_(&b.name, sim);
                }
            }
            ClauseKind::Effort(b) => self.use_(&b.name, sim),
            ClauseKind::Conserve { name, .. } => self.use_(name, sim),
            ClauseKind::Boundary { field, .. } => self.use_(field, sim),
            ClauseKind::On { resets, .. } => {
                for b in resets {
                    self.use_(&b.name, sim);
                }
            }
            ClauseKind::Record { .. }
            | ClauseKind::Stop { .. }
            | ClauseKind::Lagrangian(_)
            | ClauseKind::Hamiltonian(_)
            | ClauseKind::Dissipation(_) => {}
        }
        for root in walk::clause_roots(kind) {
            walk::visit(root, &mut |e| {
                if let ExprKind::Name(n) = &e.kind {
                    self.uses.push(Use {
                        name: n.clone(),
                        sim: Some(sim),
                        scheme: false,
                    });
                }
            });
        }
    }

    /// The declaration a use refers to: same key in the same simulation, else (for a primed
    /// name such as a law's `x'` or a rate `u'`) the unprimed state it is the derivative of.
    fn resolve(&self, u: &Use) -> Option<usize> {
        let find = |key: &str| {
            self.symbols.iter().position(|s| {
                s.key == key
                    && if u.scheme {
                        s.kind == SymbolKind::Scheme
                    } else {
                        s.sim == u.sim
                    }
            })
        };
        find(&u.name.key()).or_else(|| (u.name.primes > 0).then(|| find(&u.name.text))?)
    }

    /// The declaration named at byte `offset`, by its declaration or one of its uses.
    pub fn symbol_at(&self, offset: usize) -> Option<usize> {
        let inside = |s: Span| super::contains(s, offset);
        if let Some(i) = self.symbols.iter().position(|s| inside(s.name)) {
            return Some(i);
        }
        self.uses
            .iter()
            .find(|u| inside(u.name.span))
            .and_then(|u| self.resolve(u))
    }

    /// The spans of every use of declaration `index` (its declaration not included).
    pub fn uses_of(&self, index: usize) -> Vec<Span> {
        self.uses
            .iter()
            .filter(|u| self.resolve(u) == Some(index))
            .map(|u| u.name.span)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = "scheme myEuler {\n  next ≔ y + h·f(t, y)\n}\nsimulate A {\n  \
                       param k : Frequency = 2 Hz\n  state x : Length = 1 m\n  \
                       law x' = −k·x\n  integrate myEuler step 1 ms\n  \
                       observe e ≔ x·k\n  conserve e within 1e-3\n  run Fast with k = 3 Hz\n}\n\
                       simulate B {\n  param k : Frequency = 1 Hz\n  state x : Length = k·1 m·s\n  \
                       law x' = k·x\n}\n";

    fn nth(needle: &str, n: usize) -> usize {
        SRC.match_indices(needle).nth(n).unwrap().0
    }

    #[test]
    fn uses_resolve_within_their_simulation() {
        let s = Symbols::new(&physis_syntax::parse(SRC).file);
        let k_a = s.symbol_at(nth("k :", 0)).unwrap();
        let k_b = s.symbol_at(nth("k :", 1)).unwrap();
        assert_ne!(k_a, k_b);
        // In A: −k·x, x·k, and the run override `k = 3 Hz`.
        assert_eq!(s.uses_of(k_a).len(), 3);
        assert_eq!(s.uses_of(k_b).len(), 2);
        // A law's `x'` is the derivative of state x.
        let x_a = s.symbol_at(nth("x :", 0)).unwrap();
        assert_eq!(s.symbol_at(nth("x'", 0)), Some(x_a));
        // An observe used by conserve; a file scheme used by integrate.
        let e = s.symbol_at(nth("e ≔", 0)).unwrap();
        assert_eq!(
            s.uses_of(e),
            vec![Span::new(nth("e within", 0), nth("e within", 0) + 1)]
        );
        let scheme = s.symbol_at(nth("myEuler step", 0)).unwrap();
        assert_eq!(s.symbols[scheme].kind, SymbolKind::Scheme);
        assert_eq!(s.symbols[scheme].name.start as usize, nth("myEuler", 0));
    }
}
