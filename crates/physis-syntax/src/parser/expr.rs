//! Expressions (Pratt parsing) and the units that follow numbers.

use super::{Failed, MAX_DEPTH, MAX_EXPR_TOKENS, PResult, Parser};
use crate::ast::{BinOp, Expr, ExprKind, Name, SumExpr, UnOp, UnitText};
use crate::code::Code;
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use crate::token::TokenKind;

/// Binding powers, loosest first.
const OR: u8 = 1;
const AND: u8 = 2;
const NOT: u8 = 3;
const CMP: u8 = 4;
const ADD: u8 = 5;
const MUL: u8 = 6;
const UNARY: u8 = 7;
const POW: u8 = 8;

/// Words that may follow a number without being its unit (clause keywords and word operators).
const NOT_UNITS: &[&str] = &[
    "and",
    "or",
    "not",
    "do",
    "to",
    "from",
    "with",
    "within",
    "when",
    "step",
    "tolerance",
    "abs",
    "limit",
    "seed",
    "every",
    "conjugate",
    "dirichlet",
    "neumann",
    "periodic",
];

impl Parser {
    /// A whole expression (conditions included).
    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        self.expr_bp(0)
    }

    fn enter(&mut self, span: Span) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.push(
                Diagnostic::error(Code::TooDeep, span, "expression nested too deeply")
                    .with_label(format!("more than {MAX_DEPTH} levels"))
                    .with_hint("split the expression into smaller parts"),
            );
            return Err(Failed);
        }
        if self.pos - self.expr_start > MAX_EXPR_TOKENS {
            self.push(
                Diagnostic::error(Code::TooLarge, span, "expression too large")
                    .with_label(format!(
                        "more than {MAX_EXPR_TOKENS} tokens in one expression"
                    ))
                    .with_hint("split the expression into smaller parts with observe clauses"),
            );
            return Err(Failed);
        }
        Ok(())
    }

    fn expr_bp(&mut self, min: u8) -> PResult<Expr> {
        let span = self.span();
        if self.depth == 0 {
            self.expr_start = self.pos;
        }
        self.enter(span)?;
        let result = self.expr_bp_inner(min);
        self.depth = self.depth.saturating_sub(1);
        result
    }

    /// The infix operator at the current token with its binding power.
    fn infix(&mut self) -> Option<(BinOp, u8)> {
        Some(match self.kind() {
            TokenKind::Or => (BinOp::Or, OR),
            TokenKind::And => (BinOp::And, AND),
            TokenKind::Ident { name, primes: 0 } if name == "or" => (BinOp::Or, OR),
            TokenKind::Ident { name, primes: 0 } if name == "and" => (BinOp::And, AND),
            TokenKind::Lt => (BinOp::Lt, CMP),
            TokenKind::Le => (BinOp::Le, CMP),
            TokenKind::Gt => (BinOp::Gt, CMP),
            TokenKind::Ge => (BinOp::Ge, CMP),
            TokenKind::EqEq => (BinOp::Eq, CMP),
            TokenKind::Ne => (BinOp::Ne, CMP),
            TokenKind::Plus => (BinOp::Add, ADD),
            TokenKind::Minus => (BinOp::Sub, ADD),
            TokenKind::Star => (BinOp::Mul, MUL),
            TokenKind::Slash => (BinOp::Div, MUL),
            _ => return None,
        })
    }

    fn expr_bp_inner(&mut self, min: u8) -> PResult<Expr> {
        let mut lhs = self.prefix()?;
        loop {
            // Postfix powers bind tightest.
            match self.kind().clone() {
                TokenKind::SupPow(n) => {
                    let span = self.bump().span;
                    let exponent = Expr {
                        kind: ExprKind::Number {
                            value: f64::from(n),
                            unit: None,
                        },
                        span,
                    };
                    lhs = power(lhs, exponent);
                    continue;
                }
                TokenKind::Caret if POW >= min => {
                    self.bump();
                    self.skip_continuation();
                    // Right-associative, and `x^-1` takes the sign into the exponent.
                    let exponent = self.expr_bp(UNARY)?;
                    lhs = power(lhs, exponent);
                    continue;
                }
                _ => {}
            }
            let Some((op, bp)) = self.infix() else { break };
            if bp < min || (bp == min && op.is_comparison()) {
                break;
            }
            self.bump();
            self.skip_continuation();
            let rhs = self.expr_bp(bp + 1)?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr {
                kind: ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            };
        }
        Ok(lhs)
    }

    /// A line ending in a binary operator continues on the next line.
    fn skip_continuation(&mut self) {
        while self.at(&TokenKind::Newline) {
            self.bump();
        }
    }

    fn prefix(&mut self) -> PResult<Expr> {
        let start = self.span();
        let op = match self.kind() {
            TokenKind::Minus => Some((UnOp::Neg, UNARY)),
            TokenKind::Sqrt => Some((UnOp::Sqrt, UNARY)),
            TokenKind::Not => Some((UnOp::Not, NOT)),
            TokenKind::Ident { name, primes: 0 } if name == "not" => Some((UnOp::Not, NOT)),
            TokenKind::Plus => {
                self.bump();
                return self.expr_bp(UNARY);
            }
            _ => None,
        };
        if let Some((op, bp)) = op {
            self.bump();
            let operand = self.expr_bp(bp)?;
            return Ok(Expr {
                span: start.to(operand.span),
                kind: ExprKind::Unary {
                    op,
                    operand: Box::new(operand),
                },
            });
        }
        let primary = self.primary()?;
        self.postfix(primary)
    }

    fn postfix(&mut self, mut e: Expr) -> PResult<Expr> {
        loop {
            match self.kind() {
                TokenKind::LParen => {
                    let ExprKind::Name(callee) = &e.kind else {
                        return Err(self.expected("an operator"));
                    };
                    let callee = callee.clone();
                    let open = self.bump().span;
                    let args = self.list(&TokenKind::RParen, open)?;
                    e = Expr {
                        span: e.span.to(self.prev_span()),
                        kind: ExprKind::Call { callee, args },
                    };
                }
                TokenKind::LBracket => {
                    let open = self.bump().span;
                    let indices = self.list(&TokenKind::RBracket, open)?;
                    e = Expr {
                        span: e.span.to(self.prev_span()),
                        kind: ExprKind::Index {
                            base: Box::new(e),
                            indices,
                        },
                    };
                }
                _ => return Ok(e),
            }
        }
    }

    /// `Σ j in a..b[, c]: e`, at the `Σ` (or `sum`); the summand reaches as far as a sum of
    /// terms does, so `Σ j in 0..3: a[j] + 1` adds 1 three times.
    fn sum(&mut self, start: Span) -> PResult<Expr> {
        self.bump();
        let index = self.name("an index name such as `j`", false)?;
        if !self.eat_word("in") {
            return Err(self.expected("`in`"));
        }
        let (from, to) = self.range_ends()?;
        let filter = if self.eat(&TokenKind::Comma) {
            Some(self.expr()?)
        } else {
            None
        };
        if !self.eat(&TokenKind::Colon) {
            return Err(self.expected("`:` before the summand"));
        }
        self.skip_continuation();
        let body = self.expr_bp(ADD)?;
        Ok(Expr {
            span: start.to(body.span),
            kind: ExprKind::Sum(Box::new(SumExpr {
                index,
                from,
                to,
                filter,
                body,
            })),
        })
    }

    /// `a..b`: two bounds around two dots.
    fn range_ends(&mut self) -> PResult<(Expr, Expr)> {
        let from = self.expr_bp(ADD)?;
        if !(self.eat(&TokenKind::Dot) && self.eat(&TokenKind::Dot)) {
            return Err(self.expected("`..`"));
        }
        let to = self.expr_bp(ADD)?;
        Ok((from, to))
    }

    /// An index, or a range of indices `a..b`.
    fn index_item(&mut self) -> PResult<Expr> {
        let from = self.expr()?;
        if !self.at(&TokenKind::Dot) {
            return Ok(from);
        }
        self.bump();
        if !self.eat(&TokenKind::Dot) {
            return Err(self.expected("`..`"));
        }
        let to = self.expr_bp(ADD)?;
        Ok(Expr {
            span: from.span.to(to.span),
            kind: ExprKind::Range {
                from: Box::new(from),
                to: Box::new(to),
            },
        })
    }

    /// Comma-separated expressions up to the closing token (already past the opener); in
    /// index brackets an item may be a range.
    fn list(&mut self, close: &TokenKind, open: Span) -> PResult<Vec<Expr>> {
        self.nesting += 1;
        let mut items = Vec::new();
        if !self.at(close) {
            loop {
                items.push(if *close == TokenKind::RBracket {
                    self.index_item()?
                } else {
                    self.expr()?
                });
                if !self.eat(&TokenKind::Comma) {
                    break;
                }
            }
        }
        self.close(close, open)?;
        Ok(items)
    }

    /// Consume a closing bracket, leaving one level of nesting; PH0003 when it is missing.
    pub(crate) fn close(&mut self, close: &TokenKind, open: Span) -> PResult<()> {
        if self.at(close) {
            self.bump();
            self.nesting = self.nesting.saturating_sub(1);
            return Ok(());
        }
        let token = self.peek().clone();
        if let TokenKind::Error(_) = token.kind {
            return Err(Failed);
        }
        let message = format!(
            "expected `{}` or an operator, found {}",
            close.symbol(),
            token.kind.describe()
        );
        self.push(
            Diagnostic::error(Code::UnclosedDelimiter, token.span, message)
                .with_label(format!("expected `{}`", close.symbol()))
                .with_secondary(open, "unclosed bracket opened here"),
        );
        Err(Failed)
    }

    fn primary(&mut self) -> PResult<Expr> {
        let token = self.peek().clone();
        match token.kind {
            TokenKind::Number(value) => {
                self.bump();
                let unit = self.unit()?;
                let span = unit.as_ref().map_or(token.span, |u| token.span.to(u.span));
                Ok(Expr {
                    kind: ExprKind::Number { value, unit },
                    span,
                })
            }
            TokenKind::Ident { name, primes: 0 }
                if (name == "Σ" || name == "sum")
                    && matches!(self.peek_next().kind, TokenKind::Ident { .. }) =>
            {
                self.sum(token.span)
            }
            TokenKind::Ident { name, primes } => {
                // `abs` is both an integrate setting and the absolute-value function.
                if primes == 0 && NOT_UNITS.contains(&name.as_str()) && name != "abs" {
                    return Err(self.expected("an expression"));
                }
                self.bump();
                let name = self.qualified_rest(Name {
                    text: name,
                    primes,
                    span: token.span,
                })?;
                Ok(Expr {
                    span: name.span,
                    kind: ExprKind::Name(name),
                })
            }
            TokenKind::LParen => {
                self.bump();
                self.nesting += 1;
                let inner = self.expr()?;
                self.close(&TokenKind::RParen, token.span)?;
                Ok(Expr {
                    kind: inner.kind,
                    span: token.span.to(self.prev_span()),
                })
            }
            TokenKind::LBracket => {
                self.bump();
                let items = self.list(&TokenKind::RBracket, token.span)?;
                Ok(Expr {
                    kind: ExprKind::Vector(items),
                    span: token.span.to(self.prev_span()),
                })
            }
            TokenKind::Error(_) => Err(Failed),
            _ => Err(self.expected("an expression")),
        }
    }

    /// The unit after a number: the first name that follows (unless it is a keyword), then
    /// further `·`/`*`/`/` atoms only while they are unit symbols, so `0.5 m·v` stops before `v`.
    fn unit(&mut self) -> PResult<Option<UnitText>> {
        // A unit sits on the number's line, even inside brackets.
        if self.tokens[self.pos].kind == TokenKind::Newline {
            return Ok(None);
        }
        let first = match self.kind() {
            TokenKind::Ident { name, primes: 0 } if !NOT_UNITS.contains(&name.as_str()) => {
                self.bump().span
            }
            _ => return Ok(None),
        };
        let mut text = String::new();
        let mut parts = vec![first];
        let mut end = first;
        end = self.unit_power(&mut parts).unwrap_or(end);
        loop {
            let is_op = matches!(self.kind(), TokenKind::Star | TokenKind::Slash);
            let next_is_unit = matches!(
                &self.peek_next().kind,
                TokenKind::Ident { name, primes: 0 } if units::is_unit_symbol(name)
            );
            if !(is_op && next_is_unit) {
                break;
            }
            let op = self.bump();
            parts.push(op.span);
            end = self.bump().span;
            parts.push(end);
            end = self.unit_power(&mut parts).unwrap_or(end);
        }
        // Rebuild the text from the pieces so spaces around operators vanish.
        for span in parts {
            text.push_str(&self.source_text(span));
        }
        Ok(Some(UnitText {
            text,
            span: first.to(end),
        }))
    }

    /// An optional power after a unit atom: `²`, `⁻¹`, `^2`, `^-1`, `^(1/2)`.
    fn unit_power(&mut self, parts: &mut Vec<Span>) -> Option<Span> {
        match self.kind() {
            TokenKind::SupPow(_) => {
                let span = self.bump().span;
                parts.push(span);
                Some(span)
            }
            TokenKind::Caret => {
                let caret = self.bump().span;
                let mut end = caret;
                match self.kind() {
                    TokenKind::LParen => {
                        while !self.at_clause_end() {
                            let t = self.bump();
                            end = t.span;
                            if t.kind == TokenKind::RParen {
                                break;
                            }
                        }
                    }
                    TokenKind::Minus => {
                        self.bump();
                        if let TokenKind::Number(_) = self.kind() {
                            end = self.bump().span;
                        }
                    }
                    TokenKind::Number(_) => end = self.bump().span,
                    _ => {}
                }
                parts.push(caret.to(end));
                Some(end)
            }
            _ => None,
        }
    }

    fn source_text(&self, span: Span) -> String {
        span.text(&self.source)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect()
    }
}

fn power(base: Expr, exponent: Expr) -> Expr {
    Expr {
        span: base.span.to(exponent.span),
        kind: ExprKind::Power {
            base: Box::new(base),
            exponent: Box::new(exponent),
        },
    }
}
