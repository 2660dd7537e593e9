//! `physis fmt`: one canonical layout of a source file, keeping every token and comment.
//!
//! The rules are about layout only, so formatting can never change what a file means:
//! - line ends become `\n`, trailing whitespace goes, the file ends with exactly one `\n`;
//! - a line is indented by two spaces per bracket (`{`, `[`, `(`) left open by the lines
//!   above it, one level less for each closing bracket the line starts with;
//! - runs of blank lines become one blank line, and blank lines at the start or end go.
//!
//! Spacing inside a line is kept as written (a later step may normalise it from tokens).
//! Bracket depth is counted on the code part of each line: Physis has no string literals, so
//! `//` always starts a comment ([`crate::lexer`] drops comments the same way).

/// Spaces per indentation level.
const INDENT: usize = 2;

/// The part of a trimmed line before its `//` comment.
fn code_part(line: &str) -> &str {
    line.find("//").map_or(line, |i| &line[..i])
}

/// `source` in the canonical layout. Idempotent: `format(&format(s)) == format(s)`.
pub fn format(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut depth: usize = 0;
    let mut pending_blank = false;
    for raw in source.split('\n') {
        let line = raw.trim();
        if line.is_empty() {
            pending_blank = !out.is_empty();
            continue;
        }
        if pending_blank {
            out.push('\n');
            pending_blank = false;
        }
        let code = code_part(line);
        let leading_closers = code
            .chars()
            .take_while(|c| matches!(c, '}' | ']' | ')'))
            .count();
        let level = depth.saturating_sub(leading_closers);
        out.extend(std::iter::repeat_n(' ', level * INDENT));
        out.push_str(line);
        out.push('\n');
        for c in code.chars() {
            match c {
                '{' | '[' | '(' => depth += 1,
                '}' | ']' | ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
    }
    out
}

/// The first line (1-based) where `a` and `b` differ, with both versions of it, for a
/// `--check` message; `None` when they are equal.
pub fn first_difference(a: &str, b: &str) -> Option<(usize, String, String)> {
    if a == b {
        return None;
    }
    let mut la = a.split('\n');
    let mut lb = b.split('\n');
    let mut n = 1;
    loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => n += 1,
            (x, y) => {
                return Some((
                    n,
                    x.unwrap_or("<end of file>").to_string(),
                    y.unwrap_or("<end of file>").to_string(),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indents_by_bracket_depth_and_keeps_comments() {
        let src = "// top\r\nsimulate A {\n\t  param k : Dimensionless = 1   \n\n\n      law x' = −k·(x +\n 1) // c {\n}\n\n";
        let want = "// top\nsimulate A {\n  param k : Dimensionless = 1\n\n  law x' = −k·(x +\n    1) // c {\n}\n";
        assert_eq!(format(src), want);
        assert_eq!(format(want), want);
    }

    #[test]
    fn leading_closer_dedents_and_empty_stays_empty() {
        assert_eq!(format("a {\nb [\n]\n}"), "a {\n  b [\n  ]\n}\n");
        assert_eq!(format("\n\n"), "");
        assert_eq!(format(""), "");
    }

    #[test]
    fn first_difference_names_the_line() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(
            first_difference("a\n b\n", "a\nb\n"),
            Some((2, " b".into(), "b".into()))
        );
    }
}
