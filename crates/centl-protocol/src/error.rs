//! [`ProtocolError`]: every failure a request can meet, one variant per error code.
//!
//! Each variant maps to exactly one snake_case code ([`ProtocolError::code`]); engine refusals
//! are carried whole in [`ProtocolError::Physics`] and keep the engine's own code, which is
//! itself one code per engine variant. The codes never overlap.

use centl_physics::PhysicsError;
use serde_json::{Map, Value, json};
use thiserror::Error;

/// Defines [`ProtocolError`] with each variant's wire code written beside it, so a variant, its
/// code and the public list of codes cannot drift apart. The last variant, after `@engine`, carries
/// an engine refusal and answers with the engine's own code.
macro_rules! protocol_errors {
    (
        $(#[$enum_attr:meta])*
        pub enum $name:ident {
            $( $(#[$attr:meta])* $variant:ident $({ $($field:tt)* })? => $code:literal, )*
            @engine
            $(#[$engine_attr:meta])* $engine:ident { $($engine_field:tt)* },
        }
    ) => {
        $(#[$enum_attr])*
        pub enum $name {
            $( $(#[$attr])* $variant $({ $($field)* })?, )*
            $(#[$engine_attr])* $engine { $($engine_field)* },
        }

        impl $name {
            /// The stable snake_case code sent on the wire.
            pub fn code(&self) -> &'static str {
                match self {
                    $( $name::$variant { .. } => $code, )*
                    $name::$engine { source, .. } => source.code(),
                }
            }
        }

        /// Every code the protocol itself defines, in table order (engine codes come from the
        /// engine).
        pub const PROTOCOL_CODES: &[&str] = &[$($code,)*];
    };
}

protocol_errors! {
/// Why a request failed. Envelope problems come first, then arguments, then limits, then the
/// engine's own refusals.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum ProtocolError {
    /// A line with nothing but white space.
    #[error("empty line: each line must hold one JSON request object")]
    EmptyLine => "empty_line",
    /// A line longer than the limit; the rest of it was discarded unread.
    #[error("line longer than {limit} bytes; the line was discarded")]
    LineTooLong {
        /// The limit in force, in bytes.
        limit: usize,
    } => "line_too_long",
    /// A line that is not UTF-8 text.
    #[error("line is not valid UTF-8")]
    InvalidUtf8 => "invalid_utf8",
    /// Text that is not JSON.
    #[error("malformed JSON: {detail}")]
    MalformedJson {
        /// What the JSON reader reported.
        detail: String,
    } => "malformed_json",
    /// Arrays and objects nested deeper than the limit.
    #[error("JSON nested deeper than {limit} levels")]
    NestingTooDeep {
        /// The limit in force.
        limit: usize,
    } => "nesting_too_deep",
    /// One object with the same member name twice: which one is meant is ambiguous.
    #[error("member `{key}` appears twice in one object")]
    DuplicateKey {
        /// The repeated member name.
        key: String,
    } => "duplicate_key",
    /// A request that is valid JSON but not an object.
    #[error("request must be a JSON object, got {found}")]
    NotAnObject {
        /// The JSON type found.
        found: &'static str,
    } => "not_an_object",
    /// A request without `"v"`.
    #[error("request has no protocol version `v`; this server speaks version 1")]
    MissingVersion => "missing_version",
    /// A request whose `"v"` is not 1.
    #[error("unsupported protocol version {found}; this server speaks version 1")]
    UnsupportedVersion {
        /// The version as sent.
        found: String,
    } => "unsupported_version",
    /// A request without `"action"`, or whose action is not a string.
    #[error("request has no `action` string")]
    MissingAction => "missing_action",
    /// An action the table does not have.
    #[error("unknown action `{action}`; see the `capabilities` action")]
    UnknownAction {
        /// The action as sent.
        action: String,
    } => "unknown_action",
    /// A request member other than `v`, `id`, `action` and `args`.
    #[error("unknown request member `{member}` (allowed: v, id, action, args)")]
    UnknownMember {
        /// The member name.
        member: String,
    } => "unknown_member",
    /// A required argument that is absent.
    #[error("missing argument `{path}`")]
    MissingArgument {
        /// Where it was expected (`args.world[0].mass`).
        path: String,
    } => "missing_argument",
    /// An argument the action does not take.
    #[error("unknown argument `{path}`{}", expected_list(.expected))]
    UnknownArgument {
        /// Where it was found.
        path: String,
        /// The names accepted at that place.
        expected: Vec<&'static str>,
    } => "unknown_argument",
    /// An argument of the wrong JSON type (a number where an exact string is needed, ...).
    #[error("argument `{path}` must be {expected}, got {found}")]
    WrongType {
        /// The argument.
        path: String,
        /// What was needed.
        expected: String,
        /// The JSON type found.
        found: &'static str,
    } => "wrong_type",
    /// An argument of the right type whose value is not allowed (stride 0, unknown force kind).
    #[error("argument `{path}`: {reason}")]
    InvalidValue {
        /// The argument.
        path: String,
        /// What is wrong with it.
        reason: String,
    } => "invalid_value",
    /// Text that is not an exact number.
    #[error("argument `{path}`: {reason}")]
    InvalidNumber {
        /// The argument.
        path: String,
        /// What the exact parser reported.
        reason: String,
    } => "invalid_number",
    /// An exact number with more digits than the limit.
    #[error("argument `{path}` has {digits} digits; the limit is {limit}")]
    NumberTooLarge {
        /// The argument.
        path: String,
        /// Digits in the larger of numerator and denominator (or of the text).
        digits: usize,
        /// The limit in force.
        limit: usize,
    } => "number_too_large",
    /// A unit symbol that is not in the catalog.
    #[error("argument `{path}`: {reason}")]
    UnknownUnit {
        /// The argument.
        path: String,
        /// What the unit parser reported, with suggestions.
        reason: String,
    } => "unknown_unit",
    /// A unit expression that does not parse.
    #[error("argument `{path}`: {reason}")]
    MalformedUnit {
        /// The argument.
        path: String,
        /// What the unit parser reported.
        reason: String,
    } => "malformed_unit",
    /// A unit whose exact scale factor would be too large to compute (`(((Qm^64)^64)^64)^64`).
    #[error("argument `{path}`: {reason}")]
    UnitFactorTooLarge {
        /// The argument.
        path: String,
        /// What the unit parser reported.
        reason: String,
        /// The bound on the factor's bits that was found too large.
        bits: usize,
        /// The limit in force, in bits.
        limit: usize,
    } => "unit_factor_too_large",
    /// A unit whose factor is irrational (such as `deg`), so no exact value exists.
    #[error("argument `{path}`: {reason}")]
    InexactUnit {
        /// The argument.
        path: String,
        /// Why.
        reason: String,
    } => "inexact_unit",
    /// A quantity or conversion whose dimension is not the one required.
    #[error("argument `{path}` must be {expected}, got {found}")]
    DimensionMismatch {
        /// The argument.
        path: String,
        /// The dimension required.
        expected: String,
        /// The dimension supplied.
        found: String,
    } => "dimension_mismatch",
    /// A constant the catalog does not hold.
    #[error("{message}")]
    UnknownConstant {
        /// The engine's explanation.
        message: String,
    } => "unknown_constant",
    /// A measured constant, deliberately not exact.
    #[error("{message}")]
    MeasuredConstant {
        /// The engine's explanation.
        message: String,
    } => "measured_constant",
    /// More unordered sphere pairs than a contact request may enumerate.
    #[error("{pairs} unordered sphere pairs; a contact request takes at most {limit}")]
    TooManyPairs {
        /// Pairs the request would enumerate.
        pairs: u64,
        /// The limit in force.
        limit: u64,
    } => "too_many_pairs",
    /// A trajectory with more samples than the limit.
    #[error("{samples} trajectory samples requested; at most {limit}")]
    TooManySamples {
        /// Samples the request would produce.
        samples: u64,
        /// The limit in force.
        limit: u64,
    } => "too_many_samples",
    /// A simulation whose work (particles × steps × state bits) exceeds the budget: refused
    /// before the first step when even the smallest state would exceed it, otherwise
    /// stopped after the step that did.
    #[error("the simulation needs {work} bit-steps by step {step}; the budget is {limit}")]
    WorkLimitExceeded {
        /// Work counted (or, at step 0, the least work the request would need).
        work: u64,
        /// The step after which the budget ran out (0 when refused up front).
        step: u64,
        /// The budget in force.
        limit: u64,
    } => "work_limit_exceeded",
    /// A rational read, produced or about to be sent grew past the bit limit; work stopped
    /// there.
    #[error("a rational {}has {bits} bits{}; the limit is {limit} bits", at_path(.path), at_step(*.step))]
    RationalTooLarge {
        /// Bits of the largest part of the offending rational.
        bits: usize,
        /// The step after which the check failed (0 for non-stepping actions).
        step: u64,
        /// The limit in force.
        limit: usize,
        /// The argument (`args.world[0].position`) or result member (`result.pairs[3]...`)
        /// holding it, when one does.
        path: Option<String>,
    } => "rational_too_large",
    /// A reply that would be longer than the reply limit: refused before it is built or sent.
    #[error("the reply needs {bytes} bytes{}; a reply may have at most {limit}", at_step(*.step))]
    ReplyTooLarge {
        /// Bytes counted (at step 0 of a simulation, the least the request would need).
        bytes: u64,
        /// The simulation step at which the count passed the limit (0 otherwise).
        step: u64,
        /// The limit in force.
        limit: usize,
    } => "reply_too_large",
    /// A request its client cancelled while it waited or ran (a JSON Lines `cancel` action or an
    /// MCP `notifications/cancelled`); its work stopped there and nothing of it is returned.
    #[error("the request was cancelled by its client{}", at_step(*.step))]
    Cancelled {
        /// The simulation step after which the work stopped (0 before any step).
        step: u64,
    } => "cancelled",
    @engine
    /// A refusal of the exact engine, with the argument it concerns when known.
    #[error("{source}")]
    Physics {
        /// The engine's refusal (boxed: it is the largest variant by far).
        source: Box<PhysicsError>,
        /// The argument concerned, when one is.
        path: Option<String>,
    },
}
}

fn at_path(path: &Option<String>) -> String {
    path.as_ref()
        .map(|p| format!("in `{p}` "))
        .unwrap_or_default()
}

fn at_step(step: u64) -> String {
    if step == 0 {
        String::new()
    } else {
        format!(" at step {step}")
    }
}

fn expected_list(names: &[&'static str]) -> String {
    if names.is_empty() {
        " (this place takes no members)".to_string()
    } else {
        format!(" (expected one of: {})", names.join(", "))
    }
}

impl ProtocolError {
    /// The wire form: `{"code", "message", ...named fields}`.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        m.insert("code".into(), json!(self.code()));
        m.insert("message".into(), json!(self.to_string()));
        let mut put = |k: &str, v: Value| {
            m.insert(k.to_string(), v);
        };
        match self {
            ProtocolError::LineTooLong { limit } | ProtocolError::NestingTooDeep { limit } => {
                put("limit", json!(limit));
            }
            ProtocolError::DuplicateKey { key } => put("key", json!(key)),
            ProtocolError::UnknownAction { action } => put("action", json!(action)),
            ProtocolError::UnknownMember { member } => put("member", json!(member)),
            ProtocolError::UnknownArgument { path, expected } => {
                put("path", json!(path));
                put("expected", json!(expected));
            }
            ProtocolError::MissingArgument { path }
            | ProtocolError::WrongType { path, .. }
            | ProtocolError::InvalidValue { path, .. }
            | ProtocolError::InvalidNumber { path, .. }
            | ProtocolError::UnknownUnit { path, .. }
            | ProtocolError::MalformedUnit { path, .. }
            | ProtocolError::InexactUnit { path, .. } => put("path", json!(path)),
            ProtocolError::NumberTooLarge {
                path,
                digits,
                limit,
            } => {
                put("path", json!(path));
                put("digits", json!(digits));
                put("limit", json!(limit));
            }
            ProtocolError::DimensionMismatch {
                path,
                expected,
                found,
            } => {
                put("path", json!(path));
                put("expected", json!(expected));
                put("found", json!(found));
            }
            ProtocolError::TooManyPairs { pairs, limit } => {
                put("pairs", json!(pairs));
                put("limit", json!(limit));
            }
            ProtocolError::TooManySamples { samples, limit } => {
                put("samples", json!(samples));
                put("limit", json!(limit));
            }
            ProtocolError::Cancelled { step } => put("step", json!(step)),
            ProtocolError::WorkLimitExceeded { work, step, limit } => {
                put("work", json!(work));
                put("step", json!(step));
                put("limit", json!(limit));
            }
            ProtocolError::RationalTooLarge {
                bits,
                step,
                limit,
                path,
            } => {
                if let Some(p) = path {
                    put("path", json!(p));
                }
                put("bits", json!(bits));
                put("step", json!(step));
                put("limit", json!(limit));
            }
            ProtocolError::UnitFactorTooLarge {
                path, bits, limit, ..
            } => {
                put("path", json!(path));
                put("bits", json!(bits));
                put("limit", json!(limit));
            }
            ProtocolError::ReplyTooLarge { bytes, step, limit } => {
                put("bytes", json!(bytes));
                put("step", json!(step));
                put("limit", json!(limit));
            }
            ProtocolError::Physics {
                path: Some(path), ..
            } => put("path", json!(path)),
            _ => {}
        }
        Value::Object(m)
    }

    /// Wraps an engine refusal that concerns one argument.
    pub fn physics_at(path: impl Into<String>, source: PhysicsError) -> Self {
        ProtocolError::Physics {
            source: Box::new(source),
            path: Some(path.into()),
        }
    }
}

impl From<PhysicsError> for ProtocolError {
    fn from(source: PhysicsError) -> Self {
        ProtocolError::Physics {
            source: Box::new(source),
            path: None,
        }
    }
}
