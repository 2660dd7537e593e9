//! Hover: the dimension and SI unit of the innermost expression under the cursor (from the
//! checker's type table, not inferred again), the value of params and constants, what a
//! declaration declares, and the text of a scheme.

use super::symbols::SymbolKind;
use super::{Analysis, contains, walk};
use physis_check::Shape;
use physis_check::types::Typed;
use physis_syntax::Span;
use physis_syntax::ast::{ClauseKind, ExprKind, Item};
use units::Dimension;

/// What a hover shows: Markdown about a span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    /// The span the text is about.
    pub span: Span,
    /// Markdown.
    pub markdown: String,
}

/// `Velocity` or the dimension's symbolic form, with the SI unit: `Velocity · m/s`.
pub fn describe_dim(d: Dimension) -> String {
    let kind = d.kind_name().map_or_else(|| d.to_string(), str::to_string);
    let unit = d.si_unit();
    let unit = if unit.is_empty() { "1" } else { &unit };
    format!("{kind} · {unit}")
}

fn describe_shape(shape: Shape) -> &'static str {
    match shape {
        Shape::Scalar => "",
        Shape::Vector(_) => "vector of ",
        Shape::Field => "field of ",
        _ => "",
    }
}

impl Analysis {
    /// What to show for the cursor at byte `offset`.
    pub fn hover(&self, offset: usize) -> Option<Hover> {
        if let Some(h) = self.scheme_hover(offset) {
            return Some(h);
        }
        // A comparison or a logical operator: no dimension, a truth value.
        let cond = walk::all_exprs(&self.file)
            .into_iter()
            .filter(|e| e.span.start as usize <= offset && offset < e.span.end as usize)
            .filter(|e| match &e.kind {
                ExprKind::Binary { op, .. } => op.is_comparison() || op.is_logical(),
                ExprKind::Unary { op, .. } => *op == physis_syntax::ast::UnOp::Not,
                _ => false,
            })
            .min_by_key(|e| e.span.len());
        if let Some(typed) = self.types.innermost_at(offset) {
            // A sum's condition (`j ≠ i`) lies inside the typed sum: the condition is nearer.
            let nearer_cond = cond.is_some_and(|c| c.span.len() < typed.span.len());
            if !nearer_cond {
                return Some(self.expr_hover(self.superscript_power(typed)));
            }
        }
        if let Some(h) = self.scheme_binding_hover(offset) {
            return Some(h);
        }
        if let Some(h) = self.declaration_hover(offset) {
            return Some(h);
        }
        let cond = cond?;
        Some(Hover {
            span: cond.span,
            markdown: format!(
                "`{}`\n\na condition: true or false",
                cond.span.text(&self.source)
            ),
        })
    }

    /// A superscript exponent (`²` of `k²`) stands for its power: the power has no character
    /// of its own, and a pure number 2 says nothing.
    fn superscript_power<'a>(&'a self, typed: &'a Typed) -> &'a Typed {
        let superscript = typed
            .span
            .text(&self.source)
            .starts_with(|c: char| "²³⁴⁵⁶⁷⁸⁹¹⁰⁻".contains(c));
        if !superscript {
            return typed;
        }
        walk::all_exprs(&self.file)
            .into_iter()
            .find_map(|e| match &e.kind {
                ExprKind::Power { exponent, .. } if exponent.span == typed.span => Some(e.span),
                _ => None,
            })
            .and_then(|power| self.types.nodes().iter().rev().find(|n| n.span == power))
            .unwrap_or(typed)
    }

    fn in_scheme(&self, offset: usize) -> bool {
        self.file
            .items
            .iter()
            .any(|i| matches!(i, Item::Scheme(d) if contains(d.span, offset)))
    }

    fn expr_hover(&self, typed: &Typed) -> Hover {
        let text = typed.span.text(&self.source);
        let offset = typed.span.start as usize;
        let mut md = if self.in_scheme(offset) {
            // Relative to the state's dimension [y]: no SI unit of its own.
            format!(
                "`{text}`\n\n**{}{}** (relative to the state)",
                describe_shape(typed.shape),
                physis_check::scheme::scheme_dim_name(typed.dim)
            )
        } else {
            let size = match typed.shape {
                Shape::Vector(n) => format!(", {n} components"),
                _ => String::new(),
            };
            format!(
                "`{text}`\n\n**{}{}**{size}",
                describe_shape(typed.shape),
                describe_dim(typed.dim)
            )
        };
        // A bare name: say what it is and its value.
        let name = walk::all_exprs(&self.file)
            .into_iter()
            .find_map(|e| match &e.kind {
                ExprKind::Name(n) if e.span == typed.span => Some(n),
                _ => None,
            });
        if let Some(n) = name {
            if let Some(i) = self.symbols.symbol_at(offset) {
                md.push_str("\n\n");
                md.push_str(&self.symbol_text(i));
            } else if let Some((cname, value, dim)) = physis_check::constants::lookup(&n.text) {
                let unit = dim.si_unit();
                md.push_str(&format!(
                    "\n\nconstant `{cname}` = {value} {}",
                    if unit.is_empty() { "" } else { &unit }
                ));
            }
        }
        Hover {
            span: typed.span,
            markdown: md.trim_end().to_string(),
        }
    }

    /// The declaring clause of symbol `i`, with a param's value in SI units.
    fn symbol_text(&self, i: usize) -> String {
        let sym = &self.symbols.symbols[i];
        let decl = sym.decl.text(&self.source);
        let mut md = format!("```physis\n{decl}\n```");
        if let (SymbolKind::Param, Some(sim)) = (sym.kind, sym.sim)
            && let Some(model) = self.checked.program.models.get(sim)
            && let Some(p) = model.params.iter().find(|p| p.key == sym.key)
        {
            let values: Vec<String> = p.default.components().iter().map(f64::to_string).collect();
            let unit = p.dim.si_unit();
            let value = if values.len() == 1 {
                values[0].clone()
            } else {
                format!("[{}]", values.join(", "))
            };
            md.push_str(&format!(
                "\n\nvalue: {value} {} ({})",
                if unit.is_empty() { "" } else { &unit },
                describe_dim(p.dim)
            ));
        }
        md
    }

    fn declaration_hover(&self, offset: usize) -> Option<Hover> {
        let i = self.symbols.symbol_at(offset)?;
        let sym = &self.symbols.symbols[i];
        let mut md = self.symbol_text(i);
        if let (SymbolKind::State | SymbolKind::Field, Some(sim)) = (sym.kind, sym.sim)
            && let Some(model) = self.checked.program.models.get(sim)
            && let Some(s) = model.states.iter().find(|s| s.key == sym.key)
        {
            md.push_str(&format!("\n\n**{}**", describe_dim(s.dim)));
        }
        let span = if contains(sym.name, offset) {
            sym.name
        } else {
            Span::new(offset, offset)
        };
        Some(Hover { span, markdown: md })
    }

    /// On the name a scheme's body binds (`k₁` of `k₁ ≔ f(t, y)`): the binding and the
    /// dimension of its value, relative to the state's as every scheme expression is.
    fn scheme_binding_hover(&self, offset: usize) -> Option<Hover> {
        let binding = self.file.items.iter().find_map(|item| match item {
            Item::Scheme(d) => d.body.iter().find(|b| contains(b.name.span, offset)),
            _ => None,
        })?;
        let typed = (self.types.nodes().iter().rev()).find(|n| n.span == binding.value.span)?;
        let text = Span::new(
            binding.name.span.start as usize,
            binding.value.span.end as usize,
        )
        .text(&self.source);
        Some(Hover {
            span: binding.name.span,
            markdown: format!(
                "`{text}`\n\n**{}{}** (relative to the state)",
                describe_shape(typed.shape),
                physis_check::scheme::scheme_dim_name(typed.dim)
            ),
        })
    }

    /// On a scheme's name (its declaration or an `integrate`): its text.
    fn scheme_hover(&self, offset: usize) -> Option<Hover> {
        let name = self.file.items.iter().find_map(|item| match item {
            Item::Scheme(d) if contains(d.name.span, offset) => Some(&d.name),
            Item::Simulate(sim) => sim.clauses.iter().find_map(|c| match &c.kind {
                ClauseKind::Integrate { scheme, .. } if contains(scheme.span, offset) => {
                    Some(scheme)
                }
                _ => None,
            }),
            _ => None,
        })?;
        let key = name.key();
        let text = if let Some(d) = self.file.items.iter().find_map(|i| match i {
            Item::Scheme(d) if d.name.key() == key => Some(d),
            _ => None,
        }) {
            d.span.text(&self.source).to_string()
        } else {
            let s = physis_check::prelude::schemes()
                .iter()
                .find(|s| s.name == key)?;
            let mut t = String::new();
            if let Some(c) = physis_check::prelude::comment(s) {
                t.push_str(&format!("// {c}\n"));
            }
            t.push_str(physis_check::prelude::text(s)?);
            t
        };
        Some(Hover {
            span: name.span,
            markdown: format!("```physis\n{text}\n```"),
        })
    }
}
