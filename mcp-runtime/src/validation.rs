//! Argument validation messages a model can act on.
//!
//! The fast path deserialises arguments once, straight into the generated struct. Only when that
//! fails does this module run a second, path-tracking pass to say exactly what is wrong and where,
//! in words rather than serde's "line 1 column 2".

use serde::de::DeserializeOwned;

/// Describes why `text` does not deserialise into `T`.
pub(crate) fn describe<T: DeserializeOwned>(text: &str) -> String {
    let de = &mut serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, T>(de) {
        Ok(_) => "invalid arguments".to_owned(),
        Err(err) => {
            let segments: Vec<String> = err.path().iter().map(ToString::to_string).collect();
            let path = err.path().to_string();
            let inner = err.into_inner();
            if inner.is_syntax() || inner.is_eof() {
                // The text is valid JSON (the envelope parser checked it): a "syntax" error here is
                // serde_json refusing a value of the wrong kind for an enum, which takes a string.
                return match value_at(text, &segments) {
                    Some(got) => format!(
                        "property '{path}': expected a string, got {}",
                        describe_value(&got)
                    ),
                    None => "arguments are not valid JSON".to_owned(),
                };
            }
            phrase(&path, &strip_position(&inner.to_string()))
        }
    }
}

/// The value at a serde path (`a.b.0`) in a JSON text.
fn value_at(text: &str, segments: &[String]) -> Option<serde_json::Value> {
    let mut value: serde_json::Value = serde_json::from_str(text).ok()?;
    if segments.is_empty() {
        return None;
    }
    for seg in segments {
        value = match value {
            serde_json::Value::Object(mut map) => map.remove(seg)?,
            serde_json::Value::Array(mut items) => {
                let i: usize = seg.parse().ok()?;
                (i < items.len()).then(|| items.swap_remove(i))?
            }
            _ => return None,
        };
    }
    Some(value)
}

/// A JSON value in serde's words (`integer 3`, `boolean true`).
fn describe_value(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "null".into(),
        serde_json::Value::Bool(b) => format!("boolean {b}"),
        serde_json::Value::Number(n) if n.is_f64() => format!("floating point {n}"),
        serde_json::Value::Number(n) => format!("integer {n}"),
        serde_json::Value::String(s) => format!("string {s:?}"),
        serde_json::Value::Array(_) => "an array".into(),
        serde_json::Value::Object(_) => "an object".into(),
    }
}

/// The message for arguments that are not a JSON object.
pub(crate) fn not_an_object(text: &str) -> String {
    let kind = match text.trim_start().as_bytes().first() {
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        Some(b'-' | b'0'..=b'9') => "a number",
        _ => "something else",
    };
    format!("arguments must be a JSON object, got {kind}")
}

fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_owned(),
        None => msg.to_owned(),
    }
}

/// Turns a serde message into the framework's wording.
fn phrase(path: &str, msg: &str) -> String {
    let at = if path.is_empty() || path == "." {
        String::new()
    } else {
        format!("property '{path}': ")
    };
    if let Some(rest) = msg.strip_prefix("missing field `") {
        let field = rest.trim_end_matches('`');
        let full = if at.is_empty() {
            field.to_owned()
        } else {
            format!("{path}.{field}")
        };
        return format!("missing required property '{full}'");
    }
    if let Some(rest) = msg.strip_prefix("unknown variant `")
        && let Some((value, allowed)) = rest.split_once("`, expected ")
    {
        let allowed = allowed.trim_start_matches("one of ").replace('`', "'");
        return format!("{at}'{value}' is not an allowed value; expected {allowed}");
    }
    if let Some(rest) = msg.strip_prefix("invalid type: ")
        && let Some((got, expected)) = rest.split_once(", expected ")
    {
        if path.is_empty() && expected.starts_with("struct ") {
            return format!("arguments must be a JSON object, got {got}");
        }
        return format!(
            "{at}expected {}, got {}",
            friendly_type(expected),
            json_words(&got.replace('`', ""))
        );
    }
    if let Some(rest) = msg.strip_prefix("invalid value: ")
        && let Some((got, expected)) = rest.split_once(", expected ")
    {
        return format!(
            "{at}expected {}, got {}",
            friendly_type(expected),
            json_words(&got.replace('`', ""))
        );
    }
    format!("{at}{msg}")
}

/// serde's names of JSON kinds in JSON's words.
fn json_words(got: &str) -> String {
    match got {
        "map" => "an object".into(),
        "sequence" => "an array".into(),
        "unit value" => "null".into(),
        other => other.to_owned(),
    }
}

/// Rust type names in words a model understands.
pub(crate) fn friendly_type(t: &str) -> String {
    let t = t.rsplit("::").next().unwrap_or(t);
    match t {
        "f32" | "f64" => "a number".into(),
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a non-negative integer".into(),
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "an integer".into(),
        "bool" => "a boolean".into(),
        "String" | "str" => "a string".into(),
        other => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    enum Occasion {
        #[serde(rename = "birthday")]
        Birthday,
        #[serde(rename = "wedding")]
        Wedding,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Args {
        occasion: Occasion,
        budget: f64,
        count: Option<u32>,
    }

    #[test]
    fn missing_property() {
        assert_eq!(
            describe::<Args>(r#"{"occasion":"birthday"}"#),
            "missing required property 'budget'"
        );
    }

    #[test]
    fn wrong_type() {
        assert_eq!(
            describe::<Args>(r#"{"occasion":"birthday","budget":"ten"}"#),
            "property 'budget': expected a number, got string \"ten\""
        );
    }

    #[test]
    fn bad_enum_value() {
        assert_eq!(
            describe::<Args>(r#"{"occasion":"funeral","budget":1}"#),
            "property 'occasion': 'funeral' is not an allowed value; expected 'birthday' or 'wedding'"
        );
    }

    #[test]
    fn negative_for_unsigned() {
        assert_eq!(
            describe::<Args>(r#"{"occasion":"birthday","budget":1,"count":-2}"#),
            "property 'count': expected a non-negative integer, got integer -2"
        );
    }

    #[test]
    fn not_an_object() {
        assert_eq!(
            super::not_an_object(" [1]"),
            "arguments must be a JSON object, got an array"
        );
        assert_eq!(
            super::not_an_object("\"x\""),
            "arguments must be a JSON object, got a string"
        );
    }

    #[test]
    fn wrong_kind_for_an_enum() {
        assert_eq!(
            describe::<Args>(r#"{"occasion":3,"budget":1}"#),
            "property 'occasion': expected a string, got integer 3"
        );
        assert_eq!(
            describe::<Args>(r#"{"occasion":true,"budget":1}"#),
            "property 'occasion': expected a string, got boolean true"
        );
    }

    #[test]
    fn json_kinds_in_json_words() {
        assert_eq!(
            describe::<Args>(r#"{"occasion":"birthday","budget":{"x":1}}"#),
            "property 'budget': expected a number, got an object"
        );
        assert_eq!(
            describe::<Args>(r#"{"occasion":"birthday","budget":[1]}"#),
            "property 'budget': expected a number, got an array"
        );
    }

    #[test]
    fn wrong_type_has_no_backticks() {
        assert_eq!(
            describe::<Args>(r#"{"occasion":"birthday","budget":1,"count":1.5}"#),
            "property 'count': expected a non-negative integer, got floating point 1.5"
        );
    }
}
