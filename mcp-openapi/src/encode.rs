//! Argument values serialised by a parameter's `style` and `explode` (OpenAPI 3's table of
//! styles), percent-escaped where they go into a URL.

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;

use crate::plan::Style;

/// Everything but RFC 3986's unreserved characters is escaped.
const ESCAPED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// `text` percent-escaped (UTF-8), all but the unreserved characters.
pub(crate) fn escape(text: &str) -> String {
    utf8_percent_encode(text, ESCAPED).to_string()
}

/// A value as it is written inside a parameter: strings as they are, numbers and booleans as
/// JSON writes them; `None` for arrays, objects and null.
pub(crate) fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// What a value inside an array or object becomes: a scalar, else its JSON text.
fn item(value: &Value) -> String {
    scalar(value).unwrap_or_else(|| value.to_string())
}

/// A path parameter's text (`simple`, `label`, `matrix`), escaped.
pub(crate) fn path(name: &str, value: &Value, style: Style, explode: bool) -> String {
    let (lead, sep, pair) = match style {
        Style::Label => (".".to_owned(), if explode { "." } else { "," }, "="),
        Style::Matrix => (String::new(), if explode { ";" } else { "," }, "="),
        _ => (String::new(), ",", "="),
    };
    let named = |v: String| match style {
        Style::Matrix => format!(";{}={v}", escape(name)),
        _ => format!("{lead}{v}"),
    };
    match value {
        Value::Array(items) if style == Style::Matrix && explode => items
            .iter()
            .map(|v| format!(";{}={}", escape(name), escape(&item(v))))
            .collect(),
        Value::Array(items) => named(
            items
                .iter()
                .map(|v| escape(&item(v)))
                .collect::<Vec<_>>()
                .join(sep),
        ),
        Value::Object(map) if explode => {
            let parts = map
                .iter()
                .map(|(k, v)| format!("{}{pair}{}", escape(k), escape(&item(v))));
            match style {
                Style::Matrix => parts.map(|p| format!(";{p}")).collect(),
                _ => format!("{lead}{}", parts.collect::<Vec<_>>().join(sep)),
            }
        }
        Value::Object(map) => named(
            map.iter()
                .flat_map(|(k, v)| [escape(k), escape(&item(v))])
                .collect::<Vec<_>>()
                .join(","),
        ),
        other => named(escape(&item(other))),
    }
}

/// A query parameter's `name=value` pairs (escaped), in order.
pub(crate) fn query(name: &str, value: &Value, style: Style, explode: bool) -> Vec<String> {
    let key = escape(name);
    match (value, style) {
        (Value::Object(map), Style::DeepObject) => {
            let mut out = Vec::new();
            deep(&key, map, &mut out);
            out
        }
        (Value::Array(items), Style::SpaceDelimited | Style::PipeDelimited) if !explode => {
            let sep = if style == Style::SpaceDelimited {
                "%20"
            } else {
                "%7C"
            };
            let joined: Vec<String> = items.iter().map(|v| escape(&item(v))).collect();
            vec![format!("{key}={}", joined.join(sep))]
        }
        (Value::Array(items), _) if explode => items
            .iter()
            .map(|v| format!("{key}={}", escape(&item(v))))
            .collect(),
        (Value::Array(items), _) => {
            let joined: Vec<String> = items.iter().map(|v| escape(&item(v))).collect();
            vec![format!("{key}={}", joined.join(","))]
        }
        (Value::Object(map), _) if explode => map
            .iter()
            .map(|(k, v)| format!("{}={}", escape(k), escape(&item(v))))
            .collect(),
        (Value::Object(map), _) => {
            let joined: Vec<String> = map
                .iter()
                .flat_map(|(k, v)| [escape(k), escape(&item(v))])
                .collect();
            vec![format!("{key}={}", joined.join(","))]
        }
        (other, _) => vec![format!("{key}={}", escape(&item(other)))],
    }
}

/// `deepObject`: `key[member]=value`, nested objects one bracket deeper each.
fn deep(key: &str, map: &serde_json::Map<String, Value>, out: &mut Vec<String>) {
    for (k, v) in map {
        let here = format!("{key}%5B{}%5D", escape(k));
        match v {
            Value::Object(inner) => deep(&here, inner, out),
            Value::Array(items) => {
                for v in items {
                    out.push(format!("{here}={}", escape(&item(v))));
                }
            }
            other => out.push(format!("{here}={}", escape(&item(other)))),
        }
    }
}

/// A header's value (`simple`), not escaped: `None` when it holds a control character.
pub(crate) fn header(value: &Value, explode: bool) -> Option<String> {
    let text = match value {
        Value::Array(items) => items.iter().map(item).collect::<Vec<_>>().join(","),
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| {
                    if explode {
                        format!("{k}={}", item(v))
                    } else {
                        format!("{k},{}", item(v))
                    }
                })
                .collect();
            parts.join(",")
        }
        other => item(other),
    };
    (!text.chars().any(char::is_control)).then_some(text)
}

/// A cookie's `name=value` (`form`; the value escaped).
pub(crate) fn cookie(name: &str, value: &Value) -> String {
    let text = match value {
        Value::Array(items) => items.iter().map(item).collect::<Vec<_>>().join(","),
        Value::Object(map) => map
            .iter()
            .flat_map(|(k, v)| [k.clone(), item(v)])
            .collect::<Vec<_>>()
            .join(","),
        other => item(other),
    };
    format!("{name}={}", escape(&text))
}
