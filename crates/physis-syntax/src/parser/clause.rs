//! Clauses of a `simulate` block.

use super::{Failed, PResult, Parser};
use crate::ast::{Binding, Boundary, Clause, ClauseKind, Extent, Setting, SettingKind, TypeExpr};
use crate::code::Code;
use crate::token::TokenKind;

/// Every clause keyword, for the "unknown clause" message.
const CLAUSES: &str = "param, state, let, law, integrate, record, observe, stop, run, \
lagrangian, hamiltonian, dissipation, effort, conserve, grid, field, boundary, on, noise";

impl Parser {
    pub(super) fn clause(&mut self) -> PResult<Clause> {
        let start = self.span();
        let word = match self.kind() {
            TokenKind::Ident { name, primes: 0 } => name.clone(),
            TokenKind::Error(_) => return Err(Failed),
            _ => return Err(self.expected("a clause")),
        };
        let kind = match word.as_str() {
            "param" => self.param(),
            "state" => self.state(),
            "law" => self.law(),
            "integrate" => self.integrate(),
            "record" => self.record(),
            "observe" => {
                self.bump();
                self.binding("an observe name", false)
                    .map(ClauseKind::Observe)
            }
            "let" => {
                self.bump();
                self.binding("a local name", false).map(ClauseKind::Let)
            }
            "stop" => {
                self.bump();
                if !self.eat_word("when") {
                    return Err(self.expected("`when`"));
                }
                Ok(ClauseKind::Stop { when: self.expr()? })
            }
            "run" => self.run(),
            "lagrangian" | "hamiltonian" | "dissipation" => {
                self.bump();
                self.expect_assign()?;
                let e = self.expr_or_error();
                Ok(match word.as_str() {
                    "lagrangian" => ClauseKind::Lagrangian(e),
                    "hamiltonian" => ClauseKind::Hamiltonian(e),
                    _ => ClauseKind::Dissipation(e),
                })
            }
            "effort" => {
                self.bump();
                self.binding("a coordinate", false).map(ClauseKind::Effort)
            }
            "conserve" => {
                self.bump();
                let name = self.name("an observe name", false)?;
                if !self.eat_word("within") {
                    return Err(self.expected("`within`"));
                }
                Ok(ClauseKind::Conserve {
                    name,
                    within: self.expr()?,
                })
            }
            "grid" => self.grid(),
            "field" => {
                self.bump();
                let name = self.name("a field name", false)?;
                self.expect(&TokenKind::Colon)?;
                let ty = self.type_expr()?;
                self.expect(&TokenKind::Eq)?;
                let init = self.expr_or_error();
                Ok(ClauseKind::Field { name, ty, init })
            }
            "boundary" => self.boundary(),
            "on" => self.on(),
            "noise" => {
                self.bump();
                let mut names = vec![self.name("a noise name", false)?];
                while self.eat(&TokenKind::Comma) {
                    names.push(self.name("a noise name", false)?);
                }
                Ok(ClauseKind::Noise { names })
            }
            _ => {
                return Err(self.error(
                    Code::UnknownClause,
                    start,
                    format!("unknown clause `{word}`; expected one of {CLAUSES}"),
                ));
            }
        }?;
        Ok(Clause {
            kind,
            span: start.to(self.prev_span()),
        })
    }

    /// `name ≔ expr`
    fn binding(&mut self, what: &str, primes: bool) -> PResult<Binding> {
        let name = self.name(what, primes)?;
        self.expect_assign()?;
        let value = self.expr_or_error();
        Ok(Binding { name, value })
    }

    fn param(&mut self) -> PResult<ClauseKind> {
        self.bump();
        let name = self.name("a param name", false)?;
        self.expect(&TokenKind::Colon)?;
        let ty = self.type_expr()?;
        self.expect(&TokenKind::Eq)?;
        let default = self.expr_or_error();
        Ok(ClauseKind::Param { name, ty, default })
    }

    fn state(&mut self) -> PResult<ClauseKind> {
        self.bump();
        let name = self.name("a state name", true)?;
        self.expect(&TokenKind::Colon)?;
        let ty = self.type_expr()?;
        let conjugate = if self.eat_word("conjugate") {
            Some(self.name("a coordinate", false)?)
        } else {
            None
        };
        self.expect(&TokenKind::Eq)?;
        let init = self.expr_or_error();
        Ok(ClauseKind::State {
            name,
            ty,
            conjugate,
            init,
        })
    }

    fn law(&mut self) -> PResult<ClauseKind> {
        self.bump();
        let mut target = self.name("a derivative such as `y'`", true)?;
        // `law x[i]'' = e` (or `x''[i]`): one law per component.
        let index = if self.eat(&TokenKind::LBracket) {
            let index = self.name("an index name such as `i`", false)?;
            if !self.eat(&TokenKind::RBracket) {
                return Err(self.expected("`]`"));
            }
            if let TokenKind::Primes(n) = *self.kind() {
                self.bump();
                target.primes = target.primes.saturating_add(n);
            }
            Some(index)
        } else {
            None
        };
        if !(self.eat(&TokenKind::Eq) || self.eat(&TokenKind::Assign)) {
            return Err(self.expected("`=`"));
        }
        let value = self.expr_or_error();
        Ok(match index {
            Some(index) => ClauseKind::LawEach {
                target,
                index,
                value,
            },
            None => ClauseKind::Law { target, value },
        })
    }

    fn integrate(&mut self) -> PResult<ClauseKind> {
        self.bump();
        let scheme = self.name("a scheme name", false)?;
        let scheme = self.qualified_rest(scheme)?;
        let mut settings = Vec::new();
        while !self.at_clause_end() {
            let keyword = self.span();
            let kind = if self.eat_word("step") {
                SettingKind::Step
            } else if self.eat_word("tolerance") {
                SettingKind::Tolerance
            } else if self.eat_word("abs") {
                SettingKind::Absolute
            } else if self.eat_word("limit") {
                SettingKind::Limit
            } else if self.eat_word("seed") {
                SettingKind::Seed
            } else {
                return Err(self.expected("`step`, `tolerance`, `abs`, `limit` or `seed`"));
            };
            // `abs x: 1 mm, v: 1 mm/s`: a list of targets, each with its value.
            if kind == SettingKind::Absolute
                && matches!(self.kind(), TokenKind::Ident { .. })
                && self.peek_next().kind == TokenKind::Colon
            {
                loop {
                    let name = self.name("a state or quantity kind", true)?;
                    self.expect(&TokenKind::Colon)?;
                    let value = self.expr()?;
                    settings.push(Setting {
                        kind,
                        keyword: name.span,
                        target: Some(name),
                        value,
                    });
                    if !self.eat(&TokenKind::Comma) {
                        break;
                    }
                }
                continue;
            }
            // `abs x 1 mm`: a name followed by a number names what the tolerance is for.
            let target = if kind == SettingKind::Absolute
                && matches!(self.kind(), TokenKind::Ident { .. })
                && matches!(self.peek_next().kind, TokenKind::Number(_))
            {
                Some(self.name("a state or quantity kind", true)?)
            } else {
                None
            };
            let value = self.expr()?;
            settings.push(Setting {
                kind,
                keyword,
                target,
                value,
            });
        }
        Ok(ClauseKind::Integrate { scheme, settings })
    }

    fn record(&mut self) -> PResult<ClauseKind> {
        self.bump();
        if !self.eat_word("every") {
            return Err(self.expected("`every`"));
        }
        Ok(ClauseKind::Record {
            every: self.expr()?,
        })
    }

    fn run(&mut self) -> PResult<ClauseKind> {
        self.bump();
        let name = self.name("a run name", false)?;
        if !self.eat_word("with") {
            return Err(self.expected("`with`"));
        }
        let mut overrides = vec![self.binding("a param name", false)?];
        while self.eat(&TokenKind::Comma) {
            overrides.push(self.binding("a param name", false)?);
        }
        Ok(ClauseKind::Run { name, overrides })
    }

    fn grid(&mut self) -> PResult<ClauseKind> {
        self.bump();
        let open = self.expect(&TokenKind::LParen)?;
        self.nesting += 1;
        let mut coords = vec![self.name("a coordinate name", false)?];
        while self.eat(&TokenKind::Comma) {
            coords.push(self.name("a coordinate name", false)?);
        }
        self.close(&TokenKind::RParen, open)?;
        self.expect(&TokenKind::Colon)?;
        let ty = self.type_expr()?;
        if !self.eat_word("from") {
            return Err(self.expected("`from`"));
        }
        let from = self.expr()?;
        if !self.eat_word("to") {
            return Err(self.expected("`to`"));
        }
        let to = self.expr()?;
        Ok(ClauseKind::Grid {
            coords,
            ty,
            from,
            to,
        })
    }

    fn boundary(&mut self) -> PResult<ClauseKind> {
        self.bump();
        let field = self.name("a field name", false)?;
        let condition = if self.eat_word("dirichlet") {
            Boundary::Dirichlet(self.expr()?)
        } else if self.eat_word("neumann") {
            if self.at_clause_end() {
                Boundary::Neumann(None)
            } else {
                Boundary::Neumann(Some(self.expr()?))
            }
        } else if self.eat_word("periodic") {
            Boundary::Periodic
        } else {
            return Err(self.expected("`dirichlet`, `neumann` or `periodic`"));
        };
        Ok(ClauseKind::Boundary { field, condition })
    }

    fn on(&mut self) -> PResult<ClauseKind> {
        self.bump();
        let when = self.expr()?;
        if !self.eat_word("do") {
            return Err(self.expected("`do`"));
        }
        let mut resets = vec![self.binding("a state", true)?];
        while self.eat(&TokenKind::Comma) {
            resets.push(self.binding("a state", true)?);
        }
        Ok(ClauseKind::On { when, resets })
    }

    /// `Kind`, `Kind[e, ...]`, or `Kind[7][2]` (an array of vectors; the same extents as
    /// `Kind[7, 2]`).
    pub(super) fn type_expr(&mut self) -> PResult<TypeExpr> {
        let kind = self.name("a quantity kind such as `Length`", false)?;
        let mut extents = Vec::new();
        while self.at(&TokenKind::LBracket) {
            let open = self.bump().span;
            self.nesting += 1;
            loop {
                let span = self.span();
                match self.kind().clone() {
                    TokenKind::Number(v) => {
                        self.bump();
                        extents.push(Extent::Number(v, span));
                    }
                    TokenKind::Ident { .. } => {
                        extents.push(Extent::Name(self.name("an extent", false)?));
                    }
                    _ => return Err(self.expected("a size")),
                }
                if !self.eat(&TokenKind::Comma) {
                    break;
                }
            }
            self.close(&TokenKind::RBracket, open)?;
        }
        Ok(TypeExpr {
            span: kind.span.to(self.prev_span()),
            kind,
            extents,
        })
    }
}
