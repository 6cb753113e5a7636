//! The bounds of a generated input schema's top-level properties (`minimum`, `maximum`,
//! `pattern`: what `#[arg(min, max, pattern)]` puts there), read from the arguments' text when a
//! call is refused, so that one message lists them with serde's problems in the document's
//! order. A call whose arguments parse is checked by the generated checks alone, every one of
//! them (`__private::Checks`); its text is read again only when more than one fails
//! ([`bound_problems`]).
//!
//! The dispatcher runs a tool's call inside [`with_bounds`]; the parse of the generated code
//! (`__private::parse_args`) reads them from there, and without them checks serde's problems
//! alone (a call made another way).

use std::sync::Arc;

use serde_json::Value;

use super::Problem;
use super::json::{members, shown};
use crate::future::BoxFuture;

tokio::task_local! {
    static BOUNDS: Arc<Bounds>;
}

/// The bounds of one input schema's top-level properties.
#[derive(Debug)]
pub(crate) struct Bounds(Vec<Bound>);

#[derive(Debug)]
struct Bound {
    property: String,
    min: Option<f64>,
    max: Option<f64>,
    pattern: Option<(String, regex_lite::Regex)>,
}

impl Bounds {
    /// Whether a top-level property of `schema` (as served) names a bound: when none does,
    /// the tool has no bounds and its schema is not made again to find them.
    pub(crate) fn named_in(schema: &Value) -> bool {
        schema
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|properties| properties.values().any(names_a_bound))
    }

    /// The bounds of `schema`, `None` when it has none.
    pub(crate) fn of_schema(schema: &Value) -> Option<Arc<Self>> {
        let properties = schema.get("properties")?.as_object()?;
        let mut bounds = Vec::new();
        for (name, property) in properties {
            let (implied_min, implied_max) = implied(property.get("format"));
            let number = |key: &str, implied: Option<f64>| {
                property
                    .get(key)
                    .and_then(Value::as_f64)
                    .filter(|b| Some(*b) != implied)
            };
            let pattern = property
                .get("pattern")
                .and_then(Value::as_str)
                .and_then(|p| Some((p.to_owned(), regex_lite::Regex::new(p).ok()?)));
            let bound = Bound {
                property: name.clone(),
                min: number("minimum", implied_min),
                max: number("maximum", implied_max),
                pattern,
            };
            if bound.min.is_some() || bound.max.is_some() || bound.pattern.is_some() {
                bounds.push(bound);
            }
        }
        (!bounds.is_empty()).then(|| Arc::new(Self(bounds)))
    }

    /// The problems of the top-level properties of `text` (an object) with these bounds, worded
    /// as the generated checks word them.
    pub(super) fn problems(&self, text: &str) -> Vec<Problem> {
        let Some(given) = serde_json::from_str::<&serde_json::value::RawValue>(text)
            .ok()
            .and_then(members)
        else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for bound in &self.0 {
            let Some((_, raw)) = given.iter().rev().find(|(k, _)| *k == bound.property) else {
                continue;
            };
            let message = match serde_json::from_str::<Value>(raw.get()) {
                Ok(Value::Number(n)) => n.as_f64().and_then(|v| bound.range(v)),
                Ok(Value::String(s)) => bound.pattern.as_ref().and_then(|(source, re)| {
                    (!re.is_match(&s))
                        .then(|| format!("{:?} does not match the pattern {source:?}", shown(&s)))
                }),
                _ => None,
            };
            if let Some(message) = message {
                out.push(Problem {
                    property: Some(bound.property.clone()),
                    message: format!("property '{}': {message}", shown(&bound.property)),
                });
            }
        }
        out
    }
}

impl Bound {
    /// `must be at most 280, got 500` for a number out of range.
    fn range(&self, v: f64) -> Option<String> {
        let below = self.min.is_some_and(|m| v < m);
        let above = self.max.is_some_and(|m| v > m);
        if !(below || above) {
            return None;
        }
        let range = match (self.min, self.max) {
            (Some(lo), Some(hi)) => format!("between {lo} and {hi}"),
            (Some(lo), None) => format!("at least {lo}"),
            (None, Some(hi)) => format!("at most {hi}"),
            (None, None) => return None,
        };
        Some(format!("must be {range}, got {v}"))
    }
}

/// The bounds an integer `format` implies (the type's own range: serde checks those).
fn implied(format: Option<&Value>) -> (Option<f64>, Option<f64>) {
    match format.and_then(Value::as_str) {
        Some("uint8") => (Some(0.0), Some(f64::from(u8::MAX))),
        Some("uint16") => (Some(0.0), Some(f64::from(u16::MAX))),
        Some("uint32") => (Some(0.0), Some(f64::from(u32::MAX))),
        Some("uint" | "uint64" | "uint128") => (Some(0.0), None),
        Some("int8") => (Some(f64::from(i8::MIN)), Some(f64::from(i8::MAX))),
        Some("int16") => (Some(f64::from(i16::MIN)), Some(f64::from(i16::MAX))),
        Some("int32") => (Some(f64::from(i32::MIN)), Some(f64::from(i32::MAX))),
        _ => (None, None),
    }
}

/// The message listing the bound problems of `text` (an object that parsed), in the order of
/// its properties; `None` when the running call has no bounds or `text` breaks none of them.
pub(crate) fn bound_problems(text: &str) -> Option<String> {
    let mut found = Vec::new();
    current(|b| found = b.problems(text));
    if found.is_empty() {
        return None;
    }
    if found.len() > 1 {
        super::collect::in_document_order(text, &mut found);
    }
    Some(super::render(&super::Problems {
        list: found,
        complete: true,
    }))
}

/// Whether `schema` (one property's, with whatever `anyOf` a profile keeps) names a bound.
fn names_a_bound(schema: &Value) -> bool {
    match schema {
        Value::Object(map) => map.iter().any(|(key, value)| {
            matches!(key.as_str(), "minimum" | "maximum" | "pattern") || names_a_bound(value)
        }),
        Value::Array(items) => items.iter().any(names_a_bound),
        _ => false,
    }
}

/// Runs `call` with `bounds` readable by the parse of its arguments.
pub(crate) fn with_bounds<T: Send + 'static>(
    bounds: Option<&Arc<Bounds>>,
    call: BoxFuture<'static, T>,
) -> BoxFuture<'static, T> {
    match bounds {
        Some(bounds) => Box::pin(BOUNDS.scope(Arc::clone(bounds), call)),
        None => call,
    }
}

/// Runs `f` with the running call's bounds, if any.
pub(super) fn current(f: impl FnOnce(&Bounds)) {
    let _ = BOUNDS.try_with(|b| f(b));
}
