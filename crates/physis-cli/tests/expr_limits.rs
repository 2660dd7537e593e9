//! Issue 27 item 3: long flat operator chains. At the parser's expression-size limit
//! (`MAX_EXPR_TOKENS`) every pass (check, lowering and the interpreter, code generation) runs on a thread with the default 2 MiB stack; one factor past it
//! is PH0007 with the law's line. Runs in-process, so the stack is the test thread's own.

use physis_syntax::Code;
use physis_syntax::parser::MAX_EXPR_TOKENS;

/// A first-order law `y' = 0 Hz·1·…·1` with `n` factors `·1` (2 + 2n tokens).
fn factor_chain(n: usize) -> String {
    format!(
        "simulate Chain {{\n  state y : Length = 1 m\n  law y' = 0 Hz·y{}\n  integrate rk4 step 1 s\n  stop when t ≥ 2 s\n}}\n",
        "·1".repeat(n)
    )
}

/// A law `y' = 0 Hz·y + 0 Hz·y + …` with `n` terms (5n - 1 tokens).
fn term_chain(n: usize) -> String {
    let terms = vec!["0 Hz·y"; n].join(" + ");
    format!(
        "simulate Chain {{\n  state y : Length = 1 m\n  law y' = {terms}\n  integrate rk4 step 1 s\n  stop when t ≥ 2 s\n}}\n"
    )
}

/// Checks, lowers and runs `source`; emits it; derives its motion when it has a Lagrangian.
fn every_pass(source: &str) -> Vec<Code> {
    let checked = physis_check::check_source(source);
    let codes: Vec<Code> = checked.diagnostics.iter().map(|d| d.code).collect();
    if checked.has_errors() {
        return codes;
    }
    let model = &checked.program.models[0];
    let ir = physis_ir::lower_with_source(model, source).expect("lowers");
    let tape = physis_ir::TapeModel::with_params(&ir, ir.default_params()).expect("tape");
    let run = physis_runtime::run(tape, &physis_runtime::RunOptions::default()).expect("runs");
    assert!(
        run.time.last().is_some_and(|t| *t >= 1.0),
        "ran to its stop"
    );
    physis_codegen::emit(source, "chain.hph").expect("emits");
    let _ = physis_ir::lower::derive_motion(model).expect("derives");
    codes
}

/// Runs `f` on a fresh thread with Rust's default 2 MiB stack.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no overflow")
}

#[test]
fn long_factor_chain_runs_at_the_limit_and_is_ph0007_past_it() {
    // `0 Hz·y` takes 4 tokens; the law's expression has 4 + 2n.
    let at = (MAX_EXPR_TOKENS - 4) / 2;
    assert_eq!(
        on_small_stack(move || every_pass(&factor_chain(at))),
        vec![]
    );
    let past = on_small_stack(move || every_pass(&factor_chain(at + 1)));
    assert_eq!(past, vec![Code::TooLarge]);
    let issue = on_small_stack(|| every_pass(&factor_chain(8_700)));
    assert_eq!(issue, vec![Code::TooLarge]);
}

#[test]
fn long_term_chain_runs_at_the_limit_and_is_ph0007_past_it() {
    let at = MAX_EXPR_TOKENS / 5 - 1;
    assert_eq!(on_small_stack(move || every_pass(&term_chain(at))), vec![]);
    let past = on_small_stack(move || every_pass(&term_chain(at + 3)));
    assert_eq!(past, vec![Code::TooLarge]);
    let issue = on_small_stack(|| every_pass(&term_chain(10_000)));
    assert_eq!(issue, vec![Code::TooLarge]);
}
