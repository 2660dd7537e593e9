//! Source bytes to text: a file that is not UTF-8 gets PH0008 at the byte where decoding fails,
//! rather than an I/O error without a code or a location.

use crate::code::Code;
use crate::diagnostic::Diagnostic;
use crate::span::Span;

/// The text of `bytes`, and PH0008 when they are not UTF-8. The text is then the lossy decoding
/// (each bad sequence becomes U+FFFD); it agrees with the bytes up to the first bad one, where
/// the diagnostic points, so it can be rendered.
///
/// A file longer than [`MAX_SOURCE_BYTES`](crate::source_size::MAX_SOURCE_BYTES) is PH0009
/// before any decoding, with empty text.
pub fn decode_source(bytes: &[u8]) -> (String, Option<Diagnostic>) {
    if let Some(d) = crate::source_size::too_large(bytes.len()) {
        return (String::new(), Some(d));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_string(), None),
        Err(e) => {
            let at = e.valid_up_to();
            let text = String::from_utf8_lossy(bytes).into_owned();
            // U+FFFD is three bytes in the lossy text.
            let span = Span::new(at, at + '\u{FFFD}'.len_utf8());
            let diagnostic = Diagnostic::error(
                Code::InvalidUtf8,
                span,
                format!("the file is not valid UTF-8 at byte {at}"),
            )
            .with_label("invalid UTF-8 starts here")
            .with_hint("save the file as UTF-8");
            (text, Some(diagnostic))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_gets_ph0008_at_its_byte() {
        let (text, d) = decode_source(b"simulate S {\n  \xff\xfe\n}\n");
        let d = d.expect("diagnostic");
        assert_eq!(d.code, Code::InvalidUtf8);
        assert_eq!(d.primary.span, Span::new(15, 18));
        assert!(d.message.contains("byte 15"), "{}", d.message);
        assert!(text.starts_with("simulate S {\n  \u{FFFD}"));
        let (text, d) = decode_source("law y' = 1 m/s".as_bytes());
        assert!(d.is_none());
        assert_eq!(text, "law y' = 1 m/s");
    }
}
