//! The lexer: source text to tokens, never failing (bad characters become error tokens).

use crate::code::Code;
use crate::diagnostic::Diagnostic;
use crate::span::Span;
use crate::token::{Token, TokenKind};

/// Whether `c` may start a name.
fn is_ident_start(c: char) -> bool {
    c == '_' || unicode_ident::is_xid_start(c)
}

/// Whether `c` may continue a name. `·` (U+00B7) and its Greek twin are XID_Continue in Unicode
/// but are our multiplication sign; subscript digits are not XID_Continue but are part of names
/// such as `v₀`.
fn is_ident_continue(c: char) -> bool {
    if c == '\u{B7}' || c == '\u{387}' {
        return false;
    }
    c == '_' || subscript_digit(c).is_some() || unicode_ident::is_xid_continue(c)
}

fn subscript_digit(c: char) -> Option<u32> {
    ('\u{2080}'..='\u{2089}')
        .contains(&c)
        .then(|| c as u32 - 0x2080)
}

fn superscript_digit(c: char) -> Option<i32> {
    match c {
        '⁰' => Some(0),
        '¹' => Some(1),
        '²' => Some(2),
        '³' => Some(3),
        '⁴'..='⁹' => Some(c as i32 - '⁴' as i32 + 4),
        _ => None,
    }
}

fn vulgar_fraction(c: char) -> Option<f64> {
    Some(match c {
        '½' => 0.5,
        '⅓' => 1.0 / 3.0,
        '⅔' => 2.0 / 3.0,
        '¼' => 0.25,
        '¾' => 0.75,
        _ => return None,
    })
}

/// Normalise a name: subscript digits to ASCII digits, so `v₀` and `v0` are one symbol.
pub fn normalize_name(text: &str) -> String {
    text.chars()
        .map(|c| match subscript_digit(c) {
            Some(d) => char::from_digit(d, 10).unwrap_or(c),
            None => c,
        })
        .collect()
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    tokens: Vec<Token>,
    diagnostics: Vec<Diagnostic>,
}

impl Lexer<'_> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek2(&self) -> Option<char> {
        let mut it = self.src[self.pos..].chars();
        it.next();
        it.next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn push(&mut self, kind: TokenKind, start: usize) {
        self.tokens.push(Token {
            kind,
            span: Span::new(start, self.pos),
        });
    }

    fn run(&mut self) {
        while let Some(c) = self.peek() {
            let start = self.pos;
            if c == '\n' || (c == '\r' && self.peek2() != Some('\n')) {
                // `\n`, `\r\n` (its `\r` is skipped as whitespace) and a lone `\r` end a line.
                self.bump();
                self.push(TokenKind::Newline, start);
            } else if c.is_whitespace() {
                self.bump();
            } else if c == '/' && self.peek2() == Some('/') {
                while self.peek().is_some_and(|c| c != '\n' && c != '\r') {
                    self.bump();
                }
            } else if c.is_ascii_digit() {
                self.number(start);
            } else if is_ident_start(c) {
                self.ident(start);
            } else if c == '⁻' || superscript_digit(c).is_some() {
                self.superscript(start);
            } else if matches!(c, '\'' | '′' | '″') {
                self.primes(start);
            } else if c == '∑' {
                // The n-ary summation sign spells the same sum as the letter Σ.
                self.bump();
                self.push(
                    TokenKind::Ident {
                        name: "Σ".into(),
                        primes: 0,
                    },
                    start,
                );
            } else if let Some(v) = vulgar_fraction(c) {
                self.bump();
                self.push(TokenKind::Number(v), start);
            } else {
                self.bump();
                let kind = self.operator(c);
                if let TokenKind::Error(c) = kind {
                    self.diagnostics.push(
                        Diagnostic::error(
                            Code::UnexpectedChar,
                            Span::new(start, self.pos),
                            format!("unexpected character `{}`", c.escape_debug()),
                        )
                        .with_label("not part of the language"),
                    );
                }
                self.push(kind, start);
            }
        }
        let end = self.src.len();
        self.tokens.push(Token {
            kind: TokenKind::Eof,
            span: Span::new(end, end),
        });
    }

    /// The operator starting with the already consumed `c`, taking a second character when it
    /// forms a two-character spelling.
    fn operator(&mut self, c: char) -> TokenKind {
        let two = |lexer: &mut Self, next: char, yes: TokenKind, no: TokenKind| {
            if lexer.peek() == Some(next) {
                lexer.bump();
                yes
            } else {
                no
            }
        };
        match c {
            '+' => TokenKind::Plus,
            '-' | '−' => TokenKind::Minus,
            '*' | '·' | '⋅' | '\u{387}' => TokenKind::Star,
            '/' => TokenKind::Slash,
            '^' => TokenKind::Caret,
            '√' => TokenKind::Sqrt,
            '≔' => TokenKind::Assign,
            ':' => two(self, '=', TokenKind::Assign, TokenKind::Colon),
            '=' => two(self, '=', TokenKind::EqEq, TokenKind::Eq),
            ',' => TokenKind::Comma,
            '.' => TokenKind::Dot,
            ';' => TokenKind::Semi,
            '<' => two(self, '=', TokenKind::Le, TokenKind::Lt),
            '>' => two(self, '=', TokenKind::Ge, TokenKind::Gt),
            '≤' => TokenKind::Le,
            '≥' => TokenKind::Ge,
            '≠' => TokenKind::Ne,
            '!' => two(self, '=', TokenKind::Ne, TokenKind::Not),
            '∧' => TokenKind::And,
            '∨' => TokenKind::Or,
            '¬' => TokenKind::Not,
            '&' => two(self, '&', TokenKind::And, TokenKind::Error('&')),
            '|' => two(self, '|', TokenKind::Or, TokenKind::Error('|')),
            '(' => TokenKind::LParen,
            ')' => TokenKind::RParen,
            '[' => TokenKind::LBracket,
            ']' => TokenKind::RBracket,
            '{' => TokenKind::LBrace,
            '}' => TokenKind::RBrace,
            other => TokenKind::Error(other),
        }
    }

    fn digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
        }
    }

    fn number(&mut self, start: usize) {
        self.digits();
        if self.peek() == Some('.') && self.peek2().is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
            self.digits();
        }
        if matches!(self.peek(), Some('e' | 'E')) {
            let rest = &self.src[self.pos + 1..];
            let mut chars = rest.chars();
            let exp_ok = match chars.next() {
                Some(c) if c.is_ascii_digit() => true,
                Some('+' | '-') => chars.next().is_some_and(|c| c.is_ascii_digit()),
                _ => false,
            };
            if exp_ok {
                self.bump();
                if matches!(self.peek(), Some('+' | '-')) {
                    self.bump();
                }
                self.digits();
            }
        }
        let text = &self.src[start..self.pos];
        let value = match text.parse::<f64>() {
            Ok(v) if v.is_finite() => v,
            _ => {
                self.diagnostics.push(
                    Diagnostic::error(
                        Code::BadNumber,
                        Span::new(start, self.pos),
                        format!("number `{text}` does not fit a 64-bit float"),
                    )
                    .with_label("out of range"),
                );
                0.0
            }
        };
        self.push(TokenKind::Number(value), start);
    }

    fn ident(&mut self, start: usize) {
        self.bump();
        while self.peek().is_some_and(is_ident_continue) {
            self.bump();
        }
        let name = normalize_name(&self.src[start..self.pos]);
        let mut primes: u8 = 0;
        while let Some(c @ ('\'' | '′' | '″')) = self.peek() {
            self.bump();
            let add = if c == '″' { 2 } else { 1 };
            primes = primes.saturating_add(add);
        }
        self.push(TokenKind::Ident { name, primes }, start);
    }

    /// Primes that follow no name (`x[i]''`): one token counting them.
    fn primes(&mut self, start: usize) {
        let mut primes: u8 = 0;
        while let Some(c @ ('\'' | '′' | '″')) = self.peek() {
            self.bump();
            primes = primes.saturating_add(if c == '″' { 2 } else { 1 });
        }
        self.push(TokenKind::Primes(primes), start);
    }

    fn superscript(&mut self, start: usize) {
        let negative = self.peek() == Some('⁻');
        if negative {
            self.bump();
        }
        let mut value: i32 = 0;
        let mut any = false;
        while let Some(d) = self.peek().and_then(superscript_digit) {
            self.bump();
            any = true;
            value = value.saturating_mul(10).saturating_add(d);
        }
        if !any {
            self.diagnostics.push(
                Diagnostic::error(
                    Code::UnexpectedChar,
                    Span::new(start, self.pos),
                    "superscript minus without digits",
                )
                .with_hint("write a power such as `⁻¹` or `^-1`"),
            );
            self.push(TokenKind::Error('⁻'), start);
            return;
        }
        self.push(
            TokenKind::SupPow(if negative { -value } else { value }),
            start,
        );
    }
}

/// Split `source` into tokens, ending with [`TokenKind::Eof`]; bad characters become
/// [`TokenKind::Error`] tokens with a PH0001 diagnostic.
pub fn lex(source: &str) -> (Vec<Token>, Vec<Diagnostic>) {
    let mut lexer = Lexer {
        src: source,
        pos: 0,
        tokens: Vec::new(),
        diagnostics: Vec::new(),
    };
    lexer.run();
    (lexer.tokens, lexer.diagnostics)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<TokenKind> {
        lex(src).0.into_iter().map(|t| t.kind).collect()
    }

    fn ident(name: &str, primes: u8) -> TokenKind {
        TokenKind::Ident {
            name: name.into(),
            primes,
        }
    }

    #[test]
    fn middle_dot_is_an_operator_and_subscripts_are_name_characters() {
        assert_eq!(
            kinds("m·v₀"),
            vec![
                ident("m", 0),
                TokenKind::Star,
                ident("v0", 0),
                TokenKind::Eof
            ]
        );
    }

    #[test]
    fn primes_and_superscripts() {
        assert_eq!(
            kinds("s'² y'' x⁻¹"),
            vec![
                ident("s", 1),
                TokenKind::SupPow(2),
                ident("y", 2),
                ident("x", 0),
                TokenKind::SupPow(-1),
                TokenKind::Eof
            ]
        );
    }

    #[test]
    fn numbers_and_exponents() {
        assert_eq!(
            kinds("1e-9 2.5 3e x.1"),
            vec![
                TokenKind::Number(1e-9),
                TokenKind::Number(2.5),
                TokenKind::Number(3.0),
                ident("e", 0),
                ident("x", 0),
                TokenKind::Dot,
                TokenKind::Number(1.0),
                TokenKind::Eof
            ]
        );
        let (_, diags) = lex("1e999");
        assert_eq!(diags[0].code, Code::BadNumber);
    }

    #[test]
    fn ascii_and_unicode_spellings_agree() {
        assert_eq!(kinds("a := b <= c >= d != e"), kinds("a ≔ b ≤ c ≥ d ≠ e"));
        assert_eq!(kinds("a * b - c"), kinds("a · b − c"));
    }

    #[test]
    fn comments_vanish_and_bad_characters_are_reported() {
        assert_eq!(
            kinds("a // b · c\n$"),
            vec![
                ident("a", 0),
                TokenKind::Newline,
                TokenKind::Error('$'),
                TokenKind::Eof
            ]
        );
        let (_, diags) = lex("$");
        assert_eq!(diags[0].code, Code::UnexpectedChar);
    }
}
