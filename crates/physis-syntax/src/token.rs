//! Tokens produced by the lexer.

use crate::span::Span;

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TokenKind {
    /// A name: `v₀`, `alpha`, `x`. `name` is normalised (subscript digits become ASCII digits);
    /// `primes` counts trailing `'` (or `′`): `y''` has 2.
    Ident {
        /// Normalised name without primes.
        name: String,
        /// Number of trailing primes.
        primes: u8,
    },
    /// A numeric literal (`30`, `0.5`, `1e-9`, `½`), already as a float.
    Number(f64),
    /// A superscript power such as `²` or `⁻¹`.
    SupPow(i32),
    /// `+`
    Plus,
    /// `-` or `−`
    Minus,
    /// `*` or `·`
    Star,
    /// `/`
    Slash,
    /// `^`
    Caret,
    /// `√`
    Sqrt,
    /// `=`
    Eq,
    /// `≔` or `:=`
    Assign,
    /// `:`
    Colon,
    /// `,`
    Comma,
    /// `.`
    Dot,
    /// `;` (an explicit clause separator)
    Semi,
    /// `<`
    Lt,
    /// `≤` or `<=`
    Le,
    /// `>`
    Gt,
    /// `≥` or `>=`
    Ge,
    /// `==`
    EqEq,
    /// `≠` or `!=`
    Ne,
    /// `∧` (the word `and` stays an identifier and is recognised by the parser)
    And,
    /// `∨`
    Or,
    /// `¬`
    Not,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// Primes after a closing bracket (`x[i]''` in a per-index law): how many.
    Primes(u8),
    /// End of a line (comments are dropped).
    Newline,
    /// A character that starts no token; reported as PH0001.
    Error(char),
    /// End of input.
    Eof,
}

impl TokenKind {
    /// A short description for "expected X, found Y" messages.
    pub fn describe(&self) -> String {
        match self {
            TokenKind::Ident { name, primes } => {
                format!("`{}{}`", name, "'".repeat(usize::from(*primes)))
            }
            TokenKind::Number(_) => "a number".into(),
            TokenKind::SupPow(_) => "a superscript power".into(),
            TokenKind::Newline => "end of line".into(),
            TokenKind::Primes(n) => format!("`{}`", "'".repeat(usize::from(*n))),
            TokenKind::Eof => "end of file".into(),
            TokenKind::Error(c) => format!("`{c}`"),
            other => format!("`{}`", other.symbol()),
        }
    }

    /// The canonical spelling of an operator or bracket token.
    pub fn symbol(&self) -> &'static str {
        match self {
            TokenKind::Plus => "+",
            TokenKind::Minus => "−",
            TokenKind::Star => "·",
            TokenKind::Slash => "/",
            TokenKind::Caret => "^",
            TokenKind::Sqrt => "√",
            TokenKind::Eq => "=",
            TokenKind::Assign => "≔",
            TokenKind::Colon => ":",
            TokenKind::Comma => ",",
            TokenKind::Dot => ".",
            TokenKind::Semi => ";",
            TokenKind::Lt => "<",
            TokenKind::Le => "≤",
            TokenKind::Gt => ">",
            TokenKind::Ge => "≥",
            TokenKind::EqEq => "==",
            TokenKind::Ne => "≠",
            TokenKind::And => "∧",
            TokenKind::Or => "∨",
            TokenKind::Not => "¬",
            TokenKind::LParen => "(",
            TokenKind::RParen => ")",
            TokenKind::LBracket => "[",
            TokenKind::RBracket => "]",
            TokenKind::LBrace => "{",
            TokenKind::RBrace => "}",
            _ => "?",
        }
    }
}

/// A token and where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// What.
    pub kind: TokenKind,
    /// Where.
    pub span: Span,
}
