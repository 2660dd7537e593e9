//! `module A.B { ... }` blocks and dotted (qualified) names.

use super::{Failed, PResult, Parser};
use crate::ast::{ConstDecl, FnDecl, FnParam, ModuleDecl, ModuleItem, Name};
use crate::code::Code;
use crate::token::TokenKind;

impl Parser {
    /// `module A.B { fn ... const ... scheme ... }` (at `module`).
    pub(super) fn module(&mut self) -> PResult<ModuleDecl> {
        let start = self.bump().span;
        let mut path = vec![self.name("a module name", false)?];
        while self.eat(&TokenKind::Dot) {
            path.push(self.name("a module name", false)?);
        }
        let open = self.expect(&TokenKind::LBrace)?;
        // A scheme may stand in a module, so only these begin a new top-level item.
        let items = self.block_until(open, &["simulate", "module", "open"], |p| {
            if p.at_word("fn") {
                p.function().map(ModuleItem::Fn)
            } else if p.at_word("const") {
                p.constant().map(ModuleItem::Const)
            } else if p.at_word("scheme") {
                p.scheme().map(ModuleItem::Scheme)
            } else if matches!(p.kind(), TokenKind::Error(_)) {
                Err(Failed)
            } else {
                let span = p.span();
                Err(p.error(
                    Code::UnknownClause,
                    span,
                    "expected `fn`, `const` or `scheme` in a module",
                ))
            }
        });
        Ok(ModuleDecl {
            path,
            items,
            span: start.to(self.prev_span()),
        })
    }

    /// `fn f(x : Kind, y) [: Kind] ≔ e` (at `fn`).
    fn function(&mut self) -> PResult<FnDecl> {
        let start = self.bump().span;
        let name = self.name("a function name", false)?;
        let open = self.expect(&TokenKind::LParen)?;
        self.nesting += 1;
        let mut params = Vec::new();
        if !self.at(&TokenKind::RParen) {
            loop {
                let name = self.name("a parameter name", false)?;
                let ty = if self.eat(&TokenKind::Colon) {
                    Some(self.type_expr()?)
                } else {
                    None
                };
                params.push(FnParam { name, ty });
                if !self.eat(&TokenKind::Comma) {
                    break;
                }
            }
        }
        self.close(&TokenKind::RParen, open)?;
        let ret = if self.eat(&TokenKind::Colon) {
            Some(self.type_expr()?)
        } else {
            None
        };
        self.expect_assign()?;
        let body = self.expr()?;
        Ok(FnDecl {
            span: start.to(body.span),
            name,
            params,
            ret,
            body,
        })
    }

    /// `const c ≔ e` (at `const`).
    fn constant(&mut self) -> PResult<ConstDecl> {
        let start = self.bump().span;
        let name = self.name("a constant name", false)?;
        self.expect_assign()?;
        let value = self.expr()?;
        Ok(ConstDecl {
            span: start.to(value.span),
            name,
            value,
        })
    }

    /// The rest of a dotted name after its first part `first`: `Physis.Thermal.radiation` is
    /// one name whose text keeps the dots. Only parts written without spaces around the dots
    /// join, and only the last part may carry primes.
    pub(crate) fn qualified_rest(&mut self, mut first: Name) -> PResult<Name> {
        loop {
            let dot = self.tokens[self.pos].clone();
            if dot.kind != TokenKind::Dot || dot.span.start != first.span.end {
                return Ok(first);
            }
            let next = self.tokens[(self.pos + 1).min(self.tokens.len() - 1)].clone();
            let TokenKind::Ident { name, primes } = next.kind else {
                return Ok(first);
            };
            if next.span.start != dot.span.end {
                return Ok(first);
            }
            if first.primes > 0 {
                return Err(self.error(
                    Code::UnexpectedToken,
                    first.span,
                    "only the last part of a dotted name can carry primes",
                ));
            }
            self.pos += 2;
            first = Name {
                text: format!("{}.{name}", first.text),
                primes,
                span: first.span.to(next.span),
            };
        }
    }
}
