//! Byte offsets of a source against LSP positions (zero-based line, UTF-16 column), and ranged
//! edits of a text. The language is full of `²`, `·`, `α`, `′` and `₀`: a column counts UTF-16
//! code units, so `α` is one and `𝑥` two, while our spans count bytes.

use lsp_types::{Position, Range};
use physis_syntax::Span;

/// Byte offsets where each line starts: after `\n`, and after a `\r` not followed by `\n`.
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (i, b) in bytes.iter().enumerate() {
        let lone_cr = *b == b'\r' && bytes.get(i + 1) != Some(&b'\n');
        if *b == b'\n' || lone_cr {
            starts.push(i + 1);
        }
    }
    starts
}

/// The LSP position of byte `offset` (clamped to the text; inside a character, its start).
pub fn position(text: &str, offset: usize) -> Position {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let starts = line_starts(text);
    let line = starts.partition_point(|&s| s <= offset).saturating_sub(1);
    let column: usize = text[starts[line]..offset]
        .chars()
        .map(char::len_utf16)
        .sum();
    Position::new(
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

/// The LSP range of a span.
pub fn range(text: &str, span: Span) -> Range {
    Range::new(
        position(text, span.start as usize),
        position(text, span.end as usize),
    )
}

/// The byte offset of an LSP position: a line past the end is the end of the text, a column
/// past the line's end is the line's end (before its line break), a column inside a surrogate
/// pair is the character's start.
pub fn offset(text: &str, pos: Position) -> usize {
    let starts = line_starts(text);
    let Some(&start) = starts.get(pos.line as usize) else {
        return text.len();
    };
    let end = starts
        .get(pos.line as usize + 1)
        .copied()
        .unwrap_or(text.len());
    let line = text[start..end].trim_end_matches(['\n', '\r']);
    let mut units = 0;
    for (i, c) in line.char_indices() {
        let next = units + c.len_utf16();
        if next > pos.character as usize {
            return start + i;
        }
        units = next;
    }
    start + line.len()
}

/// The span of an LSP range (ends out of order are swapped).
pub fn span(text: &str, range: Range) -> Span {
    let (a, b) = (offset(text, range.start), offset(text, range.end));
    Span::new(a.min(b), a.max(b))
}

/// Apply one `didChange` content change: a ranged replacement, or the whole text when
/// `range` is `None`.
pub fn apply_change(text: &mut String, range: Option<Range>, new_text: &str) {
    match range {
        Some(r) => {
            let s = span(text, r);
            text.replace_range(s.range(), new_text);
        }
        None => {
            text.clear();
            text.push_str(new_text);
        }
    }
}

/// The path of a `file:` URI (`file:///home/a/b%20c.hph` → `/home/a/b c.hph`,
/// `file:///C:/m.hph` → `C:/m.hph`); `None` for another scheme, a remote host or a broken
/// escape.
pub fn file_path(uri: &str) -> Option<std::path::PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let mut bytes = Vec::with_capacity(rest.len());
    let mut it = rest.bytes();
    while let Some(b) = it.next() {
        if b == b'%' {
            let hex = [it.next()?, it.next()?];
            let hex = std::str::from_utf8(&hex).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
        } else {
            bytes.push(b);
        }
    }
    let path = String::from_utf8(bytes).ok()?;
    // `/C:/x` on Windows is `C:/x`.
    let drive = path.as_bytes().get(1).is_some_and(u8::is_ascii_alphabetic)
        && path.as_bytes().get(2) == Some(&b':');
    Some(std::path::PathBuf::from(if drive {
        &path[1..]
    } else {
        &path[..]
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_utf16_units() {
        // `v₀·sin(α)`: ₀ · α are one UTF-16 unit each but two bytes; 𝑥 is a surrogate pair.
        let text = "law v' = v₀·sin(α)\n  x² 𝑥 y′\r\nz";
        let at = |needle: &str| position(text, text.find(needle).unwrap());
        assert_eq!(at("sin"), Position::new(0, 12));
        assert_eq!(at("α"), Position::new(0, 16));
        assert_eq!(at("𝑥"), Position::new(1, 5));
        assert_eq!(at("y′"), Position::new(1, 8));
        assert_eq!(at("z"), Position::new(2, 0));
        for needle in ["sin", "α", "𝑥", "y′", "z", ")"] {
            let o = text.find(needle).unwrap();
            assert_eq!(offset(text, position(text, o)), o, "{needle}");
        }
        // Past the line's end stops before the break; past the text is its end.
        assert_eq!(offset(text, Position::new(1, 99)), text.find('\r').unwrap());
        assert_eq!(offset(text, Position::new(9, 0)), text.len());
        // Inside the surrogate pair: the character's start.
        assert_eq!(offset(text, Position::new(1, 6)), text.find("𝑥").unwrap());
    }

    #[test]
    fn ranged_changes_replace_what_the_client_selected() {
        let mut text = String::from("state v : Velocity = 3 m/s²\nlaw α' = ω\n");
        // Replace `m/s²` (columns 23..27) by `m/s`.
        apply_change(
            &mut text,
            Some(Range::new(Position::new(0, 23), Position::new(0, 27))),
            "m/s",
        );
        assert_eq!(text, "state v : Velocity = 3 m/s\nlaw α' = ω\n");
        // Insert after `α'` on line 1.
        apply_change(
            &mut text,
            Some(Range::new(Position::new(1, 6), Position::new(1, 6))),
            "'",
        );
        assert_eq!(text, "state v : Velocity = 3 m/s\nlaw α'' = ω\n");
        apply_change(&mut text, None, "new");
        assert_eq!(text, "new");
    }
}
