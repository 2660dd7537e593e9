//! Diagnostic codes and their long explanations (what `physis explain CODE` prints).
//!
//! PH00xx are syntax errors, PH01xx the manual's model errors, PH02xx names, dimensions and
//! other checks of expressions. Each entry carries a complete example file that triggers the
//! code; a test in physis-check runs every example and demands that code.

use std::fmt;

macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $text:literal, $title:literal, $explain:literal, $example:literal;)*) => {
        /// A stable diagnostic code such as `PH0104`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Code {
            $($(#[$doc])* $variant,)*
        }

        impl Code {
            /// Every code, in numeric order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The code as printed: `PH0104`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $text,)* }
            }

            /// One-line summary.
            pub fn title(self) -> &'static str {
                match self { $(Code::$variant => $title,)* }
            }

            /// A paragraph on what the code means and how to fix it.
            pub fn explanation(self) -> &'static str {
                match self { $(Code::$variant => $explain,)* }
            }

            /// A small complete file that triggers the code.
            pub fn example(self) -> &'static str {
                match self { $(Code::$variant => $example,)* }
            }
        }
    };
}

codes! {
    /// A character that starts no token.
    UnexpectedChar = "PH0001", "unexpected character",
    "The lexer met a character that begins no token of the language. Operators have Unicode and \
ASCII spellings (`≔` or `:=`, `·` or `*`, `∧` or `and`); other symbols are not part of Physis.",
    "simulate Fall {\n  state y : Length = 10 m $\n  law y' = -1 m/s\n  stop when y < 0 m\n}\n";
    /// A token where the grammar expects something else.
    UnexpectedToken = "PH0002", "unexpected token",
    "The parser expected one thing and found another. The message says what was expected; the \
rest of the clause is skipped and checking goes on with the next line.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = * 2\n  stop when y < 0 m\n}\n";
    /// An opening bracket with no closing one.
    UnclosedDelimiter = "PH0003", "unclosed delimiter",
    "A `(`, `[` or `{` was opened and never closed. Inside brackets a clause may span lines, so the \
error is reported where the parser gave up, with the opening bracket as a second label.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = (-1 m/s\n  stop when y < 0 m\n}\n";
    /// Expressions nested deeper than the parser's limit.
    TooDeep = "PH0004", "nesting too deep",
    "An expression nests brackets or operators more than 256 levels deep. The parser refuses it \
rather than risk its stack; split the expression with observe clauses or simplify it.",
    "";
    /// A number that does not fit a 64-bit float.
    BadNumber = "PH0005", "malformed number",
    "A numeric literal is malformed or out of the range of a 64-bit float (beyond about 1.8e308).",
    "simulate Fall {\n  state y : Length = 1e999 m\n  law y' = -1 m/s\n  stop when y < 0 m\n}\n";
    /// A line that starts with no clause keyword.
    UnknownClause = "PH0006", "unknown clause",
    "Inside `simulate` every line starts with a clause keyword: param, state, let, law, \
integrate, record, observe, stop, run, lagrangian, hamiltonian, dissipation, effort, conserve, \
grid, field, boundary, on or noise. At the top level only `open`, `simulate` and `scheme` are allowed.",
    "simulate Fall {\n  state y : Length = 10 m\n  velocity y = -1 m/s\n  law y' = -1 m/s\n  stop when y < 0 m\n}\n";
    /// One expression longer than the parser's limit.
    TooLarge = "PH0007", "expression too large",
    "One expression spans more than 1,024 tokens (a flat chain such as `a·b·c·…` or `x + y + …` \
nests as deep as it is long, and every later pass walks it). The parser refuses it rather than \
risk its stack; split the expression with observe clauses.",
    "";
    /// A file that is not UTF-8.
    InvalidUtf8 = "PH0008", "invalid UTF-8",
    "Physis files are UTF-8 text. The file holds a byte sequence that is not UTF-8 at the byte \
the message names (often a file saved in Latin-1 or UTF-16); save it as UTF-8.",
    "";
    /// A source file past the size limit.
    SourceTooLarge = "PH0009", "source file too large",
    "A Physis file may be at most 16 MiB (16,777,216 bytes); a longer file is refused before it \
is decoded or parsed. Split the models over several files (docs/limits.md).",
    "";
    /// PH0101.
    StateLaw = "PH0101", "a state without exactly one law",
    "Every state needs exactly one law: `law y' = e` for a first-order state, `law y'' = e` for a \
state with a velocity state `y'`, or a lagrangian or hamiltonian that moves it. A law must name a \
declared state, and a second-order law needs the velocity state `state y' : ... = ...` for its \
initial velocity.",
    "simulate Fall {\n  state y : Length = 10 m\n  state z : Length = 0 m\n  law y' = -1 m/s\n  stop when y < 0 m\n}\n";
    /// PH0102.
    SecondOrderScheme = "PH0102", "a law a second-order scheme cannot step",
    "verlet, leapfrog and any scheme binding nextX and nextV step x'' = a(t, x): every law must be \
second order, and the acceleration may not read a velocity (no damping, no dissipation). Use a \
first-order scheme such as rk4 for such models.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s\n  integrate verlet step 1 ms\n  stop when y < 0 m\n}\n";
    /// PH0103.
    MissingStep = "PH0103", "a fixed-step scheme with no step",
    "A scheme without an adaptive order (a built-in one that `physis schemes` lists as fixed step, \
or a user scheme without `<order>`) needs `step Δ` in its integrate clause.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s\n  integrate rk4\n  stop when y < 0 m\n}\n";
    /// PH0104.
    NoStop = "PH0104", "no stop condition",
    "A simulation must say when it ends: add at least one `stop when c` clause, for example \
`stop when t ≥ 10 s`.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s\n}\n";
    /// PH0105.
    SchemeShape = "PH0105", "a scheme that reads what it may not or binds the wrong outputs",
    "A first-order scheme reads t, h, y and f(·,·) and binds `next`; a second-order one reads t, h, \
x, v and a(·,·) and binds nextX and nextV; a stochastic one may also read g(·,·) and dW. An \
adaptive scheme (`scheme name <order>`) also binds `error`. Inputs may not be rebound.",
    "scheme bad {\n  next ≔ x + h·f(t, y)\n}\n";
    /// PH0106.
    SymbolicExtent = "PH0106", "a symbolic extent",
    "The size of a vector or grid must be a whole number literal (`Length[3]`), not a name: sizes \
are fixed when the model is built.",
    "simulate Fall {\n  state y : Length[n] = 10 m\n  law y' = -1 m/s\n  stop when t > 1 s\n}\n";
    /// PH0107.
    SchemeNotInScope = "PH0107", "a scheme not in scope",
    "The integrate clause names a scheme that is neither built in (`physis schemes` lists the \
built-in ones; the diagnostic's hint names them too) nor declared with `scheme` in the file.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s\n  integrate rk5 tolerance 1e-6\n  stop when y < 0 m\n}\n";
    /// PH0108.
    RunOverride = "PH0108", "a run overriding no param",
    "`run Name with p = v` may only set declared params; states, constants and unknown names cannot \
be overridden.",
    "simulate Fall {\n  param v : Velocity = 1 m/s\n  state y : Length = 10 m\n  law y' = -v\n  stop when y < 0 m\n  run Fast with w = 2 m/s\n}\n";
    /// PH0109.
    ShapeMismatch = "PH0109", "shapes that do not fit",
    "Quantities combined component by component must have the same size; an index must lie inside \
the vector; observes and stop conditions are single numbers; a value must have the shape of what \
it initialises. In an indexed form (`Σ j in a..b, c: e`, a slice `m[a..b]`, a per-index law \
`law x[i]' = e`) the bounds are constant whole numbers with a < b, the condition compares \
indices and constants, every index it produces must lie inside what it indexes (the message \
names the index value), a per-index law needs a vector state and gives one number per \
component, and a range `a..b` stands only inside an index.",
    "simulate Fall {\n  state x : Length[2] = [0 m, 0 m, 0 m]\n  law x' = [1 m/s, 0 m/s]\n  stop when t > 1 s\n}\n";
    /// PH0110.
    BadSetting = "PH0110", "a setting of the wrong dimension, or a param default that is not a constant",
    "step and record every are times, tolerance is a pure number (the relative tolerance), an \
absolute tolerance (`abs`) a positive number, limit and seed are whole numbers. \
A param's default must be a constant: numbers with units and named constants, not other params, \
states or t.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s\n  integrate rk4 step 1 m\n  stop when y < 0 m\n}\n";
    /// PH0111.
    DuplicateSimulation = "PH0111", "a simulation named like another generated class",
    "Each simulation becomes a generated type; two simulations (also `v₀` and `v0` spellings of one \
name) cannot share a name, and names of the runtime's own types (Params, Run, Sample, Reason, \
Ensemble, Model) are taken.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s\n  stop when y < 0 m\n}\nsimulate Fall {\n  state y : Length = 10 m\n  law y' = -2 m/s\n  stop when y < 0 m\n}\n";
    /// PH0112.
    NotDifferentiable = "PH0112", "a derivative the calculus laws do not take",
    "A lagrangian, hamiltonian or dissipation is differentiated symbolically; functions with no \
derivative rule (abs, min, max, sign, floor, ceil, maxAbs and the grid operators) cannot appear \
in them.",
    "simulate Slide {\n  param m : Mass = 1 kg\n  state s : Length = 0 m\n  state s' : Velocity = 1 m/s\n  lagrangian ≔ 0.5·m·abs(s')·s'\n  stop when t ≥ 1 s\n}\n";
    /// PH0113.
    GridOperator = "PH0113", "a grid operator on something that is not a field, or a field with no grid",
    "dx, dy, laplacian, the one-sided differences and boundary clauses act on fields; a field needs \
a grid clause in its simulation.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s·dx(y)\n  stop when y < 0 m\n}\n";
    /// PH0114.
    Noise = "PH0114", "a law not linear in its noise, or noise and scheme that do not match",
    "A law with noise must be affine in it (drift + diffusion·w), so that the build can split drift \
and diffusion; it must be integrated with a stochastic scheme such as eulerMaruyama; noise may only \
appear in laws. A stochastic scheme needs a model with noise.",
    "simulate Walk {\n  state v : Velocity = 0 m/s\n  noise w\n  law v' = 1 m/s·w·w\n  integrate eulerMaruyama step 1 ms\n  stop when t ≥ 1 s\n}\n";
    /// PH0115.
    NothingToMove = "PH0115", "a lagrangian or hamiltonian with nothing to move",
    "A lagrangian moves the states that have a velocity state (`state q' : ...`); a hamiltonian \
moves the pairs declared `state p : Momentum conjugate q = ...`. Without them there is nothing to \
move.",
    "simulate Idle {\n  param m : Mass = 1 kg\n  state s : Length = 0 m\n  law s' = 1 m/s\n  lagrangian ≔ 0.5·m·(1 m/s)²\n  stop when t ≥ 1 s\n}\n";
    /// PH0116.
    ConserveUnknown = "PH0116", "a conserve naming no observed column",
    "`conserve o within ε` watches an observe; declare `observe o ≔ ...` first.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s\n  conserve energy within 1e-6\n  stop when y < 0 m\n}\n";
    /// PH0117.
    Effort = "PH0117", "a dissipation or effort out of place",
    "dissipation and effort extend a lagrangian (effort also a hamiltonian; dissipation not). An \
effort names one coordinate (a state with a velocity state, or a conjugate coordinate), at most \
once, and has its size.",
    "simulate Push {\n  param F : Force = 1 N\n  state s : Length = 0 m\n  law s' = 1 m/s\n  effort s ≔ F\n  stop when t ≥ 1 s\n}\n";
    /// PH0118.
    TooBig = "PH0118", "a model beyond a size limit",
    "A grid may have at most 1,000,000 nodes in all (so `Length[100000, 100000]` is refused), and \
the states together at most 4,000,000 numbers (a vector counts its components, a field one per \
node): a step keeps several copies of the state. Indexed sums and per-index laws are expanded \
when the model is checked: one outermost form may expand to at most 65,536 terms, nested forms \
included. Use fewer components or nodes.",
    "simulate Big {\n  grid (x, y) : Length[1000, 1000] from 0 m to 1 m\n  field u1 : Temperature = 0 K\n  boundary u1 dirichlet 0 K\n  law u1' = 1 K/s\n  field u2 : Temperature = 0 K\n  boundary u2 dirichlet 0 K\n  law u2' = 1 K/s\n  field u3 : Temperature = 0 K\n  boundary u3 dirichlet 0 K\n  law u3' = 1 K/s\n  field u4 : Temperature = 0 K\n  boundary u4 dirichlet 0 K\n  law u4' = 1 K/s\n  field u5 : Temperature = 0 K\n  boundary u5 dirichlet 0 K\n  law u5' = 1 K/s\n  stop when t ≥ 1 s\n}\n";
    /// A run that would not fit in memory.
    OutOfMemory = "PH0119", "a run that would not fit in memory",
    "Before it allocates anything the size of the state, `physis run` (and `plot`) estimates the \
memory the run needs (state numbers × what the scheme keeps: its stages, and for an implicit \
scheme the Jacobian and its LU) and compares it with a budget: the memory the machine has \
available (`MemAvailable` in /proc/meminfo), or `--memory-budget SIZE`. A run past the budget \
is refused with this code, naming the grid and the largest part, instead of being killed by \
the operating system. Use a coarser grid, fewer fields or an explicit scheme, or raise the \
budget (docs/limits.md, Memory).",
    "";
    /// A model that checks but that the run cannot build yet.
    NotYetSupported = "PH0120", "a construct the run cannot build yet",
    "The model is valid Physis, but lowering it to the interpreter's IR (what `physis run`, \
`plot` and `emit` do, and what `physis check` now does too) meets a construct that is not \
implemented yet, such as a lagrangian or hamiltonian on a grid, or a stencil of an expression \
over a field whose neumann gradient is not zero. The message names the construct; rewrite \
the model without it.",
    "simulate Rod {\n  param m : Mass = 1 kg\n  grid (x) : Length[10] from 0 m to 1 m\n  field u : Temperature = 0 K\n  law u' = 1 K/s\n  state s : Length = 0 m\n  state s' : Velocity = 1 m/s\n  lagrangian ≔ 0.5·m·s'²\n  stop when t ≥ 1 s\n}\n";
    /// Equations of motion whose derivation would pass its size limit.
    DerivationTooLarge = "PH0121", "a derivation beyond its size limit",
    "Deriving equations of motion from a lagrangian differentiates it twice per pair of \
coordinates: n coordinates give an n×n mass matrix. Before it starts, the derivation \
estimates its work (coordinates × (expression nodes + coordinates)) and refuses past \
1,000,000; while it runs, its expression graph may hold at most 2,000,000 nodes (a second \
derivative of a long product grows as the cube of its length). Use fewer coordinates (a \
vector state counts each component), or write the laws of motion directly \
(docs/limits.md, Derivation).",
    "";
    /// An inconsistency inside the toolchain, not in the model.
    Internal = "PH0122", "an internal error",
    "The model checked, but a later stage (lowering, the interpreter's compiler or the driver) \
found it inconsistent. This is a fault of Physis, not of the model: please report it with the \
file. The message says which stage failed and what did not fit.",
    "";
    /// Unknown name.
    UnknownName = "PH0201", "unknown name",
    "The name is not a param, state, observe-free expression name, grid coordinate, field, noise, \
constant of Physis.Constants or built-in function. `t` is the time; `y'` is the rate or velocity \
of state y. ASCII spellings are accepted: `v0` for `v₀`.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -v\n  stop when y < 0 m\n}\n";
    /// Duplicate declaration.
    Duplicate = "PH0202", "declared twice",
    "A name is declared twice in one simulation or scheme, or a clause that may appear once \
(integrate, record, lagrangian, hamiltonian, dissipation, a field's boundary) appears twice.",
    "simulate Fall {\n  state y : Length = 10 m\n  state y : Length = 5 m\n  law y' = -1 m/s\n  stop when y < 0 m\n}\n";
    /// Operands of different dimensions.
    DimensionMismatch = "PH0203", "dimension mismatch",
    "Sums, differences, comparisons, min/max and vector literals need operands of one dimension: a \
Length cannot be added to a Time.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s + 1 s\n  stop when y < 0 m\n}\n";
    /// An expression of the wrong dimension for its place.
    WrongDimension = "PH0204", "wrong dimension",
    "The expression has a dimension other than its place requires: a state's value has the state's \
kind, a first-order law's rate that kind per time, a second-order law that kind per time squared, \
a lagrangian is an Energy, a dissipation a Power, an effort on q an Energy per [q].",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m\n  stop when y < 0 m\n}\n";
    /// Unknown unit.
    UnknownUnit = "PH0205", "unknown unit",
    "The unit after a number is not in the catalog. Units are SI symbols with prefixes (m, km, ms, \
kg, N, J, W, V, A, Ω, Hz, K, rad, deg, ...) combined with `·`, `*`, `/` and powers.",
    "simulate Fall {\n  state y : Length = 10 furlong\n  law y' = -1 m/s\n  stop when y < 0 m\n}\n";
    /// Unknown quantity kind.
    UnknownKind = "PH0206", "unknown quantity kind",
    "Declarations name a quantity kind such as Length, Velocity, Angle, MomentOfInertia or \
Dimensionless.",
    "simulate Fall {\n  state y : Lenght = 10 m\n  law y' = -1 m/s\n  stop when y < 0 m\n}\n";
    /// Wrong use of a built-in function or power.
    BadArgument = "PH0207", "bad argument",
    "A function got the wrong number of arguments or an argument of the wrong dimension (sin, cos, \
exp, log need pure numbers; an exponent must be a pure number, and a constant when its base has \
a dimension).",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s·sin(y)\n  stop when y < 0 m\n}\n";
    /// Calling something that is not a function.
    NotAFunction = "PH0208", "not a function",
    "Only built-in functions can be called (sin, cos, sqrt, norm, dot, cross, laplacian, ...); a \
name followed by `(` that is a quantity, or no function at all, is an error.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s·foo(y)\n  stop when y < 0 m\n}\n";
    /// A clause reading something it may not read.
    MisplacedRead = "PH0209", "a clause reads what it may not",
    "Initial values may read params, constants and grid coordinates, not states or t; a law may \
read another law's rate (y' of a first-order state), but not in a cycle, not the rate of a state \
with no law of its own and not one whose law has noise; `hamiltonian` in an expression needs a \
lagrangian or hamiltonian clause. A `let` reads what its expression reads, so a clause may use \
it only where it could use the expression, and it reads only the lets above it.",
    "simulate Fall {\n  state y : Length = 10 m\n  state z : Length = y\n  law y' = -1 m/s\n  law z' = 1 m/s\n  stop when y < 0 m\n}\n";
    /// A reset or assignment target that is not a state.
    NotAState = "PH0210", "not a state",
    "An event resets states (`on c do y' ≔ −e·y'`), an effort names a coordinate and a boundary a \
field; the named thing is something else.",
    "simulate Fall {\n  param e : Dimensionless = 0.5\n  state y : Length = 10 m\n  law y' = -1 m/s\n  on y < 5 m do e ≔ 1\n  stop when y < 0 m\n}\n";
    /// Unknown module in `open`.
    UnknownModule = "PH0211", "unknown module",
    "`open` accepts Physis.Constants and Physis.Schemes (always in scope anyway), the standard \
library's modules (Physis.Electromechanics, Physis.Mechanics, Physis.Thermal), modules declared \
in the file, and modules in a file beside it (`open Motors` reads `Motors.hph`). An `open` of \
anything else is a warning and does nothing; a dotted name whose module is unknown \
(`Physis.Magic.f(x)`) is an error.",
    "open Physis.Magic\nsimulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s\n  stop when y < 0 m\n}\n";
    /// Clauses that exclude each other.
    Conflict = "PH0212", "conflicting clauses",
    "A simulation moves its states by a lagrangian or by a hamiltonian, not both.",
    "simulate Both {\n  param m : Mass = 1 kg\n  state s : Length = 0 m\n  state s' : Velocity = 1 m/s\n  state p : Momentum conjugate s = 0 kg·m/s\n  lagrangian ≔ 0.5·m·s'²\n  hamiltonian ≔ p²/(2·m)\n  stop when t ≥ 1 s\n}\n";
    /// A condition that is not a comparison.
    NotACondition = "PH0213", "not a condition",
    "stop when and on take comparisons (`<`, `≤`, `>`, `≥`, `==`, `≠`) joined by ∧, ∨ and ¬; \
comparisons may not be chained and a quantity alone is not a condition.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s\n  stop when y\n}\n";
    /// An absolute tolerance whose unit does not fit the states it applies to.
    AbsoluteTolerance = "PH0214", "an absolute tolerance that does not fit its states",
    "`integrate … abs` sets an absolute tolerance with a unit: `abs x 1 mm` for the state x, \
`abs Length 1 µm` for every state declared as a Length, a list `abs x: 1 mm, v: 1 mm/s`, and a \
bare `abs 1e-12 mol/m³` for every state no other `abs` names. The value must have the dimension of each state it applies to (a \
bare one therefore fits only when those states share a dimension), and an `abs` must apply to \
some state. Write the value in a unit of the state's kind, or give the odd state its own `abs`.",
    "simulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s\n  integrate rk45 tolerance 1e-8 abs y 1 s\n  stop when y < 0 m\n}\n";
    /// A module function that calls itself.
    RecursiveFunction = "PH0230", "recursive function",
    "A module function is expanded where it is called (its body is checked with the arguments' \
dimensions and inlined), so a function that calls itself, directly or through others of its \
module, would never finish expanding. Write the repetition out, or use a law for an iteration \
in time.",
    "module Loop {\n  fn f(x : Length) : Length ≔ f(x)\n}\nsimulate Fall {\n  state y : Length = 10 m\n  law y' = -1 m/s\n  stop when y < 0 m\n}\n";
    /// A module file that cannot be used.
    ModuleFile = "PH0231", "module file cannot be used",
    "`open Name` reads `Name.hph` (`open A.B` reads `A/B.hph`) beside the model file when the \
module is neither in the file nor in the standard library. The file must be readable, within \
the size limit, free of errors and declare `module Name { ... }`; module files must not open \
each other in a cycle, and at most 32 are read per check. The message says which rule failed \
and where.",
    "";
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Code {
    /// Look a code up by its text, case-insensitively (`ph0104` works).
    pub fn from_str_code(text: &str) -> Option<Code> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str().eq_ignore_ascii_case(text.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_ordered() {
        let texts: Vec<_> = Code::ALL.iter().map(|c| c.as_str()).collect();
        let mut sorted = texts.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(texts, sorted);
        for n in 101..=122 {
            let text = format!("PH0{n}");
            assert!(Code::from_str_code(&text).is_some(), "{text} missing");
        }
        assert_eq!(Code::from_str_code("ph0104"), Some(Code::NoStop));
    }
}
