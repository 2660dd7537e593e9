//! Any UTF-8 input: the parser must not panic, and every span must lie inside the input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        let parsed = physis_syntax::parse(src);
        for d in &parsed.diagnostics {
            assert!(d.primary.span.end as usize <= src.len());
            assert!(src.is_char_boundary(d.primary.span.start as usize));
        }
        let _ = physis_syntax::render::render_text(&parsed.diagnostics, "fuzz.hph", src);
    }
});
