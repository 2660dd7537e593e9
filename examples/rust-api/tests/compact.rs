//! The compact tape (`physis_ir::CompactTape`, what a `TapeModel` runs by default) against
//! the plain tape (`Tape::run`) and against plain IEEE arithmetic, bit for bit:
//!
//! - every example model, every model of the differential corpus (`tests/models`) and the
//!   oracle's generated corpus run both ways with defaults and at tolerance 1e-6, every sample
//!   and the end identical (`differential.rs` compares the compact form with generated code);
//! - the oracle corpus lands on its exact solutions in compact form;
//! - random expressions (fresh seeds each run through the oracle's seed runner, failing seeds
//!   kept in `tests/regressions/compact_random.txt`) evaluate to the bits of the same
//!   expression evaluated directly with Rust's `+ − · /` and `physis_runtime::scalar`.

use std::path::PathBuf;

use physis_ir::{Builder, CompactTape, Inputs, IrModel, Source, Tape, TapeModel, ValueId};
use physis_oracle::seeds::Run;
use physis_runtime::scalar::{self, BinOp, UnOp};
use physis_runtime::{Collect, OwnedSample, RunEnd, RunOptions};

fn hph_files(folder: &str) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "hph"))
        .collect();
    files.sort();
    files
}

fn models_of(source: &str) -> Vec<IrModel> {
    let checked = physis_check::check_source(source);
    assert!(!checked.has_errors());
    checked
        .program
        .models
        .iter()
        .map(|m| {
            physis_ir::lower_with_source(m, source).unwrap_or_else(|e| panic!("{}: {e}", m.name))
        })
        .collect()
}

fn run(ir: &IrModel, options: &RunOptions, plain: bool) -> (Vec<OwnedSample>, RunEnd) {
    let mut model = TapeModel::new(ir).unwrap();
    if plain {
        model.plain_tapes();
    }
    let mut out = Collect::default();
    let end = physis_runtime::run_into(model, options, &mut out).unwrap();
    (out.0, end)
}

fn same(what: &str, a: &(Vec<OwnedSample>, RunEnd), b: &(Vec<OwnedSample>, RunEnd)) {
    let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
    assert_eq!(a.0.len(), b.0.len(), "{what}: sample counts");
    for (k, (x, y)) in a.0.iter().zip(&b.0).enumerate() {
        assert_eq!(x.t.to_bits(), y.t.to_bits(), "{what}: t of sample {k}");
        assert_eq!(bits(&x.state), bits(&y.state), "{what}: state of {k}");
        assert_eq!(
            bits(&x.observe),
            bits(&y.observe),
            "{what}: observes of {k}"
        );
        assert_eq!(x.kind, y.kind, "{what}: kind of sample {k}");
    }
    assert_eq!(a.1.reason, b.1.reason, "{what}: reason");
    assert_eq!(a.1.t.to_bits(), b.1.t.to_bits(), "{what}: final t");
    assert_eq!(bits(&a.1.state), bits(&b.1.state), "{what}: final state");
    assert_eq!(a.1.stats, b.1.stats, "{what}: counts");
}

#[test]
fn the_corpus_runs_the_same_bits_in_compact_form() {
    let (mut runs, mut compact, mut tapes) = (0, 0, 0);
    let files = hph_files("../../examples")
        .into_iter()
        .chain(hph_files("tests/models"));
    let sources = files
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .chain(
            physis_oracle::corpus::compiled()
                .into_iter()
                .map(|c| (c.name, c.model.text)),
        );
    for (file, source) in sources {
        for ir in models_of(&source) {
            let (c, t) = TapeModel::new(&ir).unwrap().compact_count();
            compact += c;
            tapes += t;
            for options in [
                RunOptions::default(),
                RunOptions {
                    tolerance: Some(1e-6),
                    seed: Some(7),
                    ..RunOptions::default()
                },
            ] {
                let what = format!("{} in {file} ({options:?})", ir.info.name);
                same(&what, &run(&ir, &options, false), &run(&ir, &options, true));
                runs += 1;
            }
        }
    }
    assert!(runs >= 60, "only {runs} runs compared");
    // Grids' stencils and dense solves stay on the plain tape; most tapes are compact.
    assert!(
        2 * compact >= tapes,
        "only {compact} of {tapes} tapes compact"
    );
}

#[test]
fn the_oracle_corpus_lands_on_its_exact_solutions_in_compact_form() {
    for c in physis_oracle::corpus::compiled() {
        let ir = models_of(&c.model.text).remove(0);
        let (_, end) = run(&ir, &RunOptions::default(), false);
        let (want, tol) = c.truth();
        let err = end
            .observe
            .iter()
            .zip(&want)
            .fold(0.0f64, |m, (g, w)| m.max((g - w).abs()));
        assert!(!end.observe.is_empty(), "{}", c.name);
        assert!(err <= tol, "{}: off by {err:e} (allowed {tol:e})", c.name);
    }
}

/// A random expression over three states and a parameter.
#[derive(Clone, Debug)]
enum E {
    Y(u32),
    P,
    K(f64),
    Un(UnOp, Box<E>),
    Bin(BinOp, Box<E>, Box<E>),
    Powi(Box<E>, i32),
    Select(Box<E>, Box<E>, Box<E>),
    /// `(a, b, c) op (d, e, f)` as arrays, then element `k`: the elementwise array path.
    Elem(BinOp, Box<[E; 6]>, u32),
}

/// `splitmix64` steps.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = physis_oracle::seeds::mix(self.0);
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    fn value(&mut self) -> f64 {
        match self.below(8) {
            0 => 0.0,
            1 => -0.0,
            2 => [1.0, -1.0, 0.5, 2.0, 3.0][self.below(5)],
            3 => f64::from_bits(self.next_u64()), // anything, NaN and infinities included
            _ => {
                (self.next_u64() as f64 / u64::MAX as f64 - 0.5)
                    * 10f64.powi(self.below(13) as i32 - 6)
            }
        }
    }
    fn sub(&mut self, depth: u32) -> Box<E> {
        Box::new(self.expr(depth))
    }
    fn expr(&mut self, depth: u32) -> E {
        if depth == 0 || self.below(6) == 0 {
            return match self.below(4) {
                0 | 1 => E::Y(self.below(3) as u32),
                2 => E::P,
                _ => E::K(self.value()),
            };
        }
        let d = depth - 1;
        match self.below(12) {
            0..=3 => {
                let op = [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div][self.below(4)];
                E::Bin(op, self.sub(d), self.sub(d))
            }
            4 => {
                let (a, b) = (self.sub(d), self.sub(d));
                E::Bin(BinOp::ALL[self.below(BinOp::ALL.len())], a, b)
            }
            5 | 6 => {
                let a = self.sub(d);
                E::Un(UnOp::ALL[self.below(UnOp::ALL.len())], a)
            }
            7 => {
                let a = self.sub(d);
                E::Powi(a, self.below(9) as i32 - 4)
            }
            8 => {
                let (c, a, b) = (self.sub(d), self.sub(d), self.sub(d));
                E::Select(c, a, b)
            }
            9 => {
                let ops = [BinOp::Add, BinOp::Mul, BinOp::Sub, BinOp::Max];
                let op = ops[self.below(ops.len())];
                let six = [0; 6].map(|_| self.expr(d));
                E::Elem(op, Box::new(six), self.below(3) as u32)
            }
            // Products summed: what the fused instructions are for.
            _ => {
                let (a, b, c) = (self.sub(d), self.sub(d), self.sub(d));
                let m = E::Bin(BinOp::Mul, a, b);
                if self.below(2) == 0 {
                    E::Bin(BinOp::Add, c, Box::new(m))
                } else {
                    E::Bin(BinOp::Sub, Box::new(m), c)
                }
            }
        }
    }
}

/// Plain IEEE evaluation.
fn eval(e: &E, y: &[f64; 3], p: f64) -> f64 {
    match e {
        E::Y(k) => y[*k as usize],
        E::P => p,
        E::K(c) => *c,
        E::Un(op, a) => {
            let a = eval(a, y, p);
            match op {
                UnOp::Neg => -a,
                _ => op.apply(a),
            }
        }
        E::Bin(op, a, b) => {
            let (a, b) = (eval(a, y, p), eval(b, y, p));
            match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                BinOp::Div => a / b,
                _ => op.apply(a, b),
            }
        }
        E::Powi(a, n) => scalar::powi(eval(a, y, p), *n),
        E::Select(c, a, b) => scalar::select(eval(c, y, p), eval(a, y, p), eval(b, y, p)),
        E::Elem(op, six, k) => {
            let (x, z) = (&six[*k as usize], &six[3 + *k as usize]);
            op.apply(eval(x, y, p), eval(z, y, p))
        }
    }
}

fn build(b: &mut Builder, e: &E) -> Result<ValueId, physis_ir::IrError> {
    Ok(match e {
        E::Y(k) => b.load(Source::State, *k),
        E::P => b.load(Source::Param, 0),
        E::K(c) => b.constant(*c),
        E::Un(op, a) => {
            let a = build(b, a)?;
            b.unary(*op, a)?
        }
        E::Bin(op, x, z) => {
            let (x, z) = (build(b, x)?, build(b, z)?);
            b.binary(*op, x, z)?
        }
        E::Powi(a, n) => {
            let a = build(b, a)?;
            b.powi(a, *n)?
        }
        E::Select(c, x, z) => {
            let (c, x, z) = (build(b, c)?, build(b, x)?, build(b, z)?);
            b.select(c, x, z)?
        }
        E::Elem(op, six, k) => {
            let vs = six
                .iter()
                .map(|e| build(b, e))
                .collect::<Result<Vec<_>, _>>()?;
            let l = b.pack(vs[..3].to_vec())?;
            let r = b.pack(vs[3..].to_vec())?;
            let v = b.binary(*op, l, r)?;
            b.index(v, *k)?
        }
    })
}

/// The same bits, NaN matching any NaN (a NaN's payload is not part of IEEE's result).
fn same_bits(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

fn check_random(seed: u64) -> Result<(), String> {
    let mut rng = Rng(seed);
    let exprs: Vec<E> = (0..1 + rng.below(6)).map(|_| rng.expr(6)).collect();
    let mut b = Builder::new();
    let outs = exprs
        .iter()
        .map(|e| build(&mut b, e))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let f = b.finish("random", &outs).map_err(|e| e.to_string())?;
    let tape = Tape::compile(&f).map_err(|e| e.to_string())?;
    let compact = CompactTape::compile(&tape).ok_or("no compact form")?;
    for _ in 0..8 {
        let y = [rng.value(), rng.value(), rng.value()];
        let p = [rng.value()];
        let inp = Inputs {
            y: &y,
            p: &p,
            ..Inputs::default()
        };
        let mut plain = tape.registers();
        tape.run(&mut plain, &inp);
        let mut regs = tape.registers();
        regs.resize(compact.size(), 0.0);
        if !compact.run(&mut regs, &inp) {
            return Err("compact refused its own register file".into());
        }
        let (mut want, mut got, mut tape_out) = (
            vec![0.0; outs.len()],
            vec![0.0; outs.len()],
            vec![0.0; outs.len()],
        );
        tape.write(&regs, 0, &mut got);
        tape.write(&plain, 0, &mut tape_out);
        for (w, e) in want.iter_mut().zip(&exprs) {
            *w = eval(e, &y, p[0]);
        }
        for (k, e) in exprs.iter().enumerate() {
            if !same_bits(got[k], want[k]) || !same_bits(tape_out[k], want[k]) {
                return Err(format!(
                    "output {k} at y = {y:?}, p = {p:?}: compact {:e}, tape {:e}, IEEE {:e}\n{e:?}",
                    got[k], tape_out[k], want[k]
                ));
            }
        }
    }
    Ok(())
}

#[test]
#[allow(clippy::print_stderr)] // the seed is printed so a failure can be replayed
fn random_expressions_match_plain_ieee_arithmetic_in_compact_form() {
    let file =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/regressions/compact_random.txt");
    let run = Run::new(file, 300);
    eprintln!("{}", run.banner("compact_random"));
    let out = run.cases(true, check_random);
    assert!(
        out.failures.is_empty(),
        "{}",
        run.report("compact_random", &out)
    );
}
