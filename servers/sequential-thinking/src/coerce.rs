//! The original's lenient argument types: a boolean also given as the string `"true"` or
//! `"false"` (any case), and a whole number of at least 1 also given as a numeric string
//! (`"3"`), as its `coercedBoolean` and `z.coerce.number().int().min(1)` accept them. The
//! input schema says `boolean` and `integer` (portable: no union types).

use std::borrow::Cow;

use mcp_runtime::schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use mcp_runtime::serde::de::{self, Deserializer, Visitor};
use mcp_runtime::serde::{Deserialize, Serialize, Serializer};

/// A boolean argument, `true`/`false` or the strings `"true"`/`"false"` in any case.
///
/// ```
/// use mcp_server_sequential_thinking::Flag;
/// let f: Flag = mcp_runtime::serde_json::from_str("\"FALSE\"").unwrap();
/// assert!(!f.0);
/// assert!(mcp_runtime::serde_json::from_str::<Flag>("\"maybe\"").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flag(pub bool);

/// A whole number from 1 to 2^53 - 1 (the original's safe-integer range), or a string that
/// reads as one.
///
/// ```
/// use mcp_server_sequential_thinking::Number;
/// let n: Number = mcp_runtime::serde_json::from_str("\" 7 \"").unwrap();
/// assert_eq!(n.0, 7);
/// assert!(mcp_runtime::serde_json::from_str::<Number>("0").is_err());
/// assert!(mcp_runtime::serde_json::from_str::<Number>("1.5").is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Number(pub u64);

/// The largest integer a JSON number holds exactly in the original (JavaScript's
/// `Number.MAX_SAFE_INTEGER`).
const MAX_SAFE: u64 = (1 << 53) - 1;

struct FlagVisitor;

impl Visitor<'_> for FlagVisitor {
    type Value = Flag;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a boolean or \"true\"/\"false\"")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Flag, E> {
        Ok(Flag(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Flag, E> {
        match v.to_lowercase().as_str() {
            "true" => Ok(Flag(true)),
            "false" => Ok(Flag(false)),
            _ => Err(E::custom(format!(
                "expected boolean or \"true\"/\"false\" string, received \"{v}\""
            ))),
        }
    }
}

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(FlagVisitor)
    }
}

impl Serialize for Flag {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(self.0)
    }
}

impl JsonSchema for Flag {
    fn schema_name() -> Cow<'static, str> {
        "Flag".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "boolean"})
    }
}

struct NumberVisitor;

impl NumberVisitor {
    fn check<E: de::Error>(v: f64) -> Result<Number, E> {
        if !v.is_finite() || v.fract() != 0.0 {
            return Err(E::custom(format!("expected an integer, received {v}")));
        }
        if v < 1.0 {
            return Err(E::custom(format!("expected a number >= 1, received {v}")));
        }
        if v > MAX_SAFE as f64 {
            return Err(E::custom(format!(
                "expected a number <= {MAX_SAFE}, received {v}"
            )));
        }
        Ok(Number(v as u64))
    }
}

impl Visitor<'_> for NumberVisitor {
    type Value = Number;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a whole number of at least 1, or a string that reads as one")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
        match v {
            0 => Err(E::custom("expected a number >= 1, received 0")),
            v if v > MAX_SAFE => Err(E::custom(format!(
                "expected a number <= {MAX_SAFE}, received {v}"
            ))),
            v => Ok(Number(v)),
        }
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::custom(format!("expected a number >= 1, received {v}"))),
        }
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Number, E> {
        Self::check(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Number, E> {
        let trimmed = v.trim();
        // JavaScript's Number(""): 0, refused by the minimum like any 0.
        let n = if trimmed.is_empty() {
            0.0
        } else {
            trimmed
                .parse::<f64>()
                .map_err(|_| E::custom(format!("expected a number, received \"{v}\"")))?
        };
        Self::check(n)
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NumberVisitor)
    }
}

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.0)
    }
}

impl JsonSchema for Number {
    fn schema_name() -> Cow<'static, str> {
        "Number".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "integer", "minimum": 1, "maximum": MAX_SAFE})
    }
}
