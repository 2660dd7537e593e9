//! The action table: one [`Action`] per file under `actions/`, looked up by name.
//!
//! Both transports (JSON Lines and MCP) call [`dispatch`]; nothing else evaluates a request.

use crate::schema::{Field, Kind, check_object, join};
use crate::{CancelFlag, Limits, ProtocolError, actions, wire};
use exact::Rational;
use serde_json::{Map, Value};
use units::Dimension;

/// One protocol action: its name, argument schema and handler.
pub trait Action: Sync {
    /// The wire name (`convert`, `simulate`, ...).
    fn name(&self) -> &'static str;
    /// One sentence for `capabilities`.
    fn summary(&self) -> &'static str;
    /// The arguments it takes; anything else is refused before [`Action::run`] is called.
    fn args(&self) -> &'static [Field];
    /// Runs on arguments whose shape already matches [`Action::args`].
    fn run(&self, args: &Args<'_>) -> Result<Value, ProtocolError>;
}

/// Every action, in the order `capabilities` lists them.
pub fn table() -> &'static [&'static dyn Action] {
    actions::ALL
}

/// Finds an action by name.
pub fn find(name: &str) -> Option<&'static dyn Action> {
    table().iter().copied().find(|a| a.name() == name)
}

/// Runs `action` on `args` (absent args mean `{}`): the single evaluator behind both transports.
/// Every result is held to the reply bounds ([`crate::reply::check_reply`]) before it is
/// handed back.
pub fn dispatch(
    action: &str,
    args: Option<&Value>,
    limits: &Limits,
) -> Result<Value, ProtocolError> {
    dispatch_cancellable(action, args, limits, &CancelFlag::new())
}

/// [`dispatch`] under a [`CancelFlag`]: checked before the action starts and by the action
/// as it runs (after every `simulate` step), ending in [`ProtocolError::Cancelled`].
pub fn dispatch_cancellable(
    action: &str,
    args: Option<&Value>,
    limits: &Limits,
    cancel: &CancelFlag,
) -> Result<Value, ProtocolError> {
    cancel.check(0)?;
    let handler = find(action).ok_or_else(|| ProtocolError::UnknownAction {
        action: action.to_string(),
    })?;
    let empty = Map::new();
    let map = match args {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(m)) => m,
        Some(other) => {
            return Err(ProtocolError::WrongType {
                path: "args".into(),
                expected: "an object".into(),
                found: crate::json::type_name(other),
            });
        }
    };
    check_object(map, handler.args(), "args")?;
    let result = handler.run(&Args {
        map,
        limits,
        cancel,
    })?;
    crate::reply::check_reply(&result, limits)?;
    Ok(result)
}

/// The arguments of one request, shape-checked, with typed readers that name the argument's
/// path in every error.
pub struct Args<'a> {
    map: &'a Map<String, Value>,
    /// The limits in force.
    pub limits: &'a Limits,
    /// Set when the client cancels the request; long actions read it as they run.
    pub cancel: &'a CancelFlag,
}

impl<'a> Args<'a> {
    /// Arguments over an already shape-checked object.
    pub fn new(map: &'a Map<String, Value>, limits: &'a Limits, cancel: &'a CancelFlag) -> Self {
        Args {
            map,
            limits,
            cancel,
        }
    }

    /// The raw value of an argument, if present.
    pub fn get(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name)
    }

    /// `args.<name>`.
    pub fn path(name: &str) -> String {
        join("args", name)
    }

    fn need(&self, name: &str) -> Result<&'a Value, ProtocolError> {
        self.get(name)
            .ok_or_else(|| ProtocolError::MissingArgument {
                path: Self::path(name),
            })
    }

    /// A required string.
    pub fn text(&self, name: &str) -> Result<&'a str, ProtocolError> {
        let v = self.need(name)?;
        v.as_str().ok_or_else(|| ProtocolError::WrongType {
            path: Self::path(name),
            expected: "a string".into(),
            found: crate::json::type_name(v),
        })
    }

    /// A required exact dimensionless number.
    pub fn exact(&self, name: &str) -> Result<Rational, ProtocolError> {
        wire::exact(self.need(name)?, &Self::path(name), self.limits)
    }

    /// A required scalar quantity of dimension `dim`, in SI base units.
    pub fn quantity(&self, name: &str, dim: Dimension) -> Result<Rational, ProtocolError> {
        wire::quantity(self.need(name)?, &Self::path(name), dim, self.limits)
    }

    /// A required vector quantity of dimension `dim`, in SI base units.
    pub fn vector(&self, name: &str, dim: Dimension) -> Result<[Rational; 3], ProtocolError> {
        wire::vector(self.need(name)?, &Self::path(name), dim, self.limits)
    }

    /// An optional integer (already checked against its minimum by the schema).
    pub fn count(&self, name: &str) -> Option<u64> {
        self.get(name).and_then(Value::as_u64)
    }

    /// An optional boolean, `default` when absent.
    pub fn flag(&self, name: &str, default: bool) -> bool {
        self.get(name).and_then(Value::as_bool).unwrap_or(default)
    }
}

/// The schema of every action as `capabilities` reports it.
pub fn describe_actions() -> Vec<Value> {
    table()
        .iter()
        .map(|a| {
            serde_json::json!({
                "name": a.name(),
                "summary": a.summary(),
                "args": crate::schema::kind_schema(&Kind::Object(a.args())),
            })
        })
        .collect()
}

/// Serializes a result struct. Our result types have string keys and plain fields only, for
/// which serialization cannot fail; `null` would mark a defect rather than hide an input error.
pub fn to_json<T: serde::Serialize>(value: T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}
