//! Every code's `physis explain` example triggers that code.

use physis_check::check_source;
use physis_syntax::Code;

#[test]
fn every_explain_example_triggers_its_code() {
    for &code in Code::ALL {
        let example = code.example();
        if matches!(
            code,
            Code::TooDeep
                | Code::TooLarge
                | Code::InvalidUtf8
                | Code::SourceTooLarge
                | Code::OutOfMemory
                | Code::DerivationTooLarge
                | Code::Internal
                | Code::ModuleFile
        ) {
            // Needs 257 nested brackets, a 1,025-token expression, bytes that are not text, a
            // 16 MiB file, a run (PH0119 is `physis run`'s), a derivation (PH0121 is
            // lowering's) or a fault of ours (PH0122); physis-syntax's, physis-symbolic's and
            // physis-cli's own tests cover them. PH0231 needs a second file (a module file
            // beside the model); physis-check's module tests cover it.
            assert!(example.is_empty());
            continue;
        }
        assert!(!example.is_empty(), "{code} has no example");
        let checked = check_source(example);
        let codes: Vec<Code> = checked.diagnostics.iter().map(|d| d.code).collect();
        assert!(codes.contains(&code), "{code}: example gives {codes:?}");
        assert_eq!(
            codes.iter().filter(|&&c| c != code).count(),
            0,
            "{code}: also {codes:?}"
        );
    }
}
