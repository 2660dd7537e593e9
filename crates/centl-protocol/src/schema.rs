//! Argument schemas: one static description per action, used twice — to check the shape of a
//! request before any number is read, and to advertise the action in `capabilities`.
//!
//! Keeping both uses on one table means the advertised schema cannot drift from what the
//! server accepts.

use crate::ProtocolError;
use crate::json::type_name;
use serde_json::{Map, Value, json};
use units::Dimension;

/// The shape of one argument.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A JSON string (an identifier, a unit or constant name).
    Text,
    /// An exact dimensionless number as a JSON string (`"9/2"`, `"0.1"`).
    Exact,
    /// A JSON integer no smaller than `min`.
    Count {
        /// The smallest value accepted.
        min: u64,
    },
    /// A JSON boolean.
    Flag,
    /// `{"value": "<exact>", "unit": "<unit>"}` of the given dimension.
    Quantity(Dimension),
    /// `{"value": ["<exact>","<exact>","<exact>"], "unit": "<unit>"}` of the given dimension.
    Vector(Dimension),
    /// An object with exactly these members.
    Object(&'static [Field]),
    /// An array of items of one kind.
    List(&'static Kind),
    /// An object whose member `tag` names a variant, each with its own further members.
    Tagged {
        /// The discriminating member.
        tag: &'static str,
        /// `(variant name, its members besides the tag)`.
        variants: &'static [(&'static str, &'static [Field])],
    },
}

/// One named argument or object member.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// The member name.
    pub name: &'static str,
    /// Its shape.
    pub kind: Kind,
    /// Whether it must be present.
    pub required: bool,
    /// One line for `capabilities`.
    pub doc: &'static str,
}

impl Field {
    /// A required member.
    pub const fn req(name: &'static str, kind: Kind, doc: &'static str) -> Field {
        Field {
            name,
            kind,
            required: true,
            doc,
        }
    }

    /// An optional member.
    pub const fn opt(name: &'static str, kind: Kind, doc: &'static str) -> Field {
        Field {
            name,
            kind,
            required: false,
            doc,
        }
    }
}

/// Checks the members of an object against `fields`: unknown ones first (a typo is the likelier
/// mistake), then missing ones, then each present member's shape.
pub fn check_object(
    map: &Map<String, Value>,
    fields: &[Field],
    path: &str,
) -> Result<(), ProtocolError> {
    for key in map.keys() {
        if !fields.iter().any(|f| f.name == key) {
            return Err(ProtocolError::UnknownArgument {
                path: join(path, key),
                expected: fields.iter().map(|f| f.name).collect(),
            });
        }
    }
    for f in fields {
        match map.get(f.name) {
            Some(v) => check(v, &f.kind, &join(path, f.name))?,
            None if f.required => {
                return Err(ProtocolError::MissingArgument {
                    path: join(path, f.name),
                });
            }
            None => {}
        }
    }
    Ok(())
}

/// Checks one value's JSON shape against its kind (numbers and units are read later).
pub fn check(v: &Value, kind: &Kind, path: &str) -> Result<(), ProtocolError> {
    let wrong = |expected: &str| ProtocolError::WrongType {
        path: path.to_string(),
        expected: expected.to_string(),
        found: type_name(v),
    };
    match kind {
        Kind::Text => v.as_str().map(|_| ()).ok_or_else(|| wrong("a string")),
        Kind::Exact => v
            .as_str()
            .map(|_| ())
            .ok_or_else(|| wrong("an exact number written as a string, like \"9/2\"")),
        Kind::Count { min } => match v.as_u64() {
            Some(n) if n >= *min => Ok(()),
            Some(n) => Err(ProtocolError::InvalidValue {
                path: path.to_string(),
                reason: format!("must be at least {min}, got {n}"),
            }),
            None => Err(wrong("a non-negative JSON integer")),
        },
        Kind::Flag => v.as_bool().map(|_| ()).ok_or_else(|| wrong("a boolean")),
        Kind::Quantity(_) => {
            let m = v
                .as_object()
                .ok_or_else(|| wrong("a quantity object {\"value\",\"unit\"}"))?;
            check_object(m, QUANTITY_FIELDS, path)
        }
        Kind::Vector(_) => {
            let m = v
                .as_object()
                .ok_or_else(|| wrong("a vector quantity object {\"value\",\"unit\"}"))?;
            check_object(m, VECTOR_FIELDS, path)
        }
        Kind::Object(fields) => {
            let m = v.as_object().ok_or_else(|| wrong("an object"))?;
            check_object(m, fields, path)
        }
        Kind::List(item) => {
            let items = v.as_array().ok_or_else(|| wrong("an array"))?;
            for (i, x) in items.iter().enumerate() {
                check(x, item, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        Kind::Tagged { tag, variants } => {
            let m = v.as_object().ok_or_else(|| wrong("an object"))?;
            let tag_path = join(path, tag);
            let name = match m.get(*tag) {
                None => return Err(ProtocolError::MissingArgument { path: tag_path }),
                Some(t) => t.as_str().ok_or_else(|| ProtocolError::WrongType {
                    path: tag_path.clone(),
                    expected: "a string".into(),
                    found: type_name(t),
                })?,
            };
            let fields = variants
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, f)| *f)
                .ok_or_else(|| ProtocolError::InvalidValue {
                    path: tag_path,
                    reason: format!(
                        "unknown {tag} `{name}` (expected one of: {})",
                        variants
                            .iter()
                            .map(|(n, _)| *n)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                })?;
            let rest: Map<String, Value> = m
                .iter()
                .filter(|(k, _)| k.as_str() != *tag)
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            check_object(&rest, fields, path)
        }
    }
}

const QUANTITY_FIELDS: &[Field] = &[
    Field::req("value", Kind::Exact, "exact number"),
    Field::req("unit", Kind::Text, "unit expression"),
];

/// A three-string array is checked by the vector reader; here only "an array" is required.
const VECTOR_FIELDS: &[Field] = &[
    Field::req("value", Kind::List(&Kind::Exact), "three exact numbers"),
    Field::req("unit", Kind::Text, "unit expression"),
];

/// `args.mass` from `args` and `mass`.
pub fn join(path: &str, name: &str) -> String {
    format!("{path}.{name}")
}

fn dimension_name(d: &Dimension) -> String {
    units::kind_of(d).map_or_else(|| d.to_string(), str::to_string)
}

/// The JSON Schema of one kind, as advertised by `capabilities`.
pub fn kind_schema(kind: &Kind) -> Value {
    let exact =
        json!({"type": "string", "description": "exact rational: integer, decimal or fraction"});
    match kind {
        Kind::Text => json!({"type": "string"}),
        Kind::Exact => exact,
        Kind::Count { min } => json!({"type": "integer", "minimum": min}),
        Kind::Flag => json!({"type": "boolean"}),
        Kind::Quantity(d) => json!({
            "type": "object",
            "x-dimension": dimension_name(d),
            "x-si-unit": d.si_unit(),
            "properties": {"value": exact, "unit": {"type": "string"}},
            "required": ["value", "unit"],
            "additionalProperties": false,
        }),
        Kind::Vector(d) => json!({
            "type": "object",
            "x-dimension": dimension_name(d),
            "x-si-unit": d.si_unit(),
            "properties": {
                "value": {"type": "array", "items": exact, "minItems": 3, "maxItems": 3},
                "unit": {"type": "string"},
            },
            "required": ["value", "unit"],
            "additionalProperties": false,
        }),
        Kind::Object(fields) => object_schema(fields),
        Kind::List(item) => json!({"type": "array", "items": kind_schema(item)}),
        Kind::Tagged { tag, variants } => json!({
            "oneOf": variants.iter().map(|(name, fields)| {
                let mut s = object_schema(fields);
                if let Some(props) = s.get_mut("properties").and_then(Value::as_object_mut) {
                    props.insert((*tag).to_string(), json!({"const": name}));
                }
                if let Some(req) = s.get_mut("required").and_then(Value::as_array_mut) {
                    req.insert(0, json!(tag));
                }
                s
            }).collect::<Vec<_>>()
        }),
    }
}

/// The JSON Schema of an object with exactly these members.
pub fn object_schema(fields: &[Field]) -> Value {
    let mut props = Map::new();
    for f in fields {
        let mut s = kind_schema(&f.kind);
        if let Some(o) = s.as_object_mut() {
            o.insert("description".into(), json!(f.doc));
        }
        props.insert(f.name.to_string(), s);
    }
    let required: Vec<&str> = fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name)
        .collect();
    json!({
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const F: &[Field] = &[
        Field::req("n", Kind::Count { min: 1 }, "count"),
        Field::opt("q", Kind::Quantity(Dimension::NONE), "quantity"),
    ];

    fn run(v: Value) -> Result<(), ProtocolError> {
        check(&v, &Kind::Object(F), "args")
    }

    #[test]
    fn reports_unknown_before_missing_and_names_the_path() {
        let e = run(json!({"x": 1})).unwrap_err();
        assert_eq!(e.code(), "unknown_argument");
        assert!(e.to_string().contains("args.x") && e.to_string().contains("n, q"));
        assert_eq!(run(json!({})).unwrap_err().code(), "missing_argument");
        let e = run(json!({"n": 1, "q": {"value": 2, "unit": "m"}})).unwrap_err();
        assert_eq!(e.code(), "wrong_type");
        assert!(e.to_string().contains("args.q.value"));
        assert_eq!(run(json!({"n": 0})).unwrap_err().code(), "invalid_value");
        assert!(run(json!({"n": 3, "q": {"value": "2", "unit": "m"}})).is_ok());
    }
}
