//! Reading the JSON text of arguments where a message needs it, without parsing more than that
//! (the value at a path, an object's members or keys in order, serde's name for a value), and
//! echoing inputs in messages, cut to a bounded length.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_path_to_error::Segment;

/// The longest input echoed in a message, in characters; longer ones are cut with their length.
pub(super) const SHOWN: usize = 64;

/// An input as echoed in a message: cut after [`SHOWN`] characters, with its length.
pub(crate) fn shown(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
    }
}

/// The JSON text at a serde path, without parsing the values on the way (numbers out of range
/// included).
pub(super) fn raw_at<'a>(text: &'a str, segments: &[Segment]) -> Option<&'a RawValue> {
    let mut node: &'a RawValue = serde_json::from_str(text).ok()?;
    for segment in segments {
        node = match segment {
            Segment::Seq { index } => {
                let items: Vec<&'a RawValue> = serde_json::from_str(node.get()).ok()?;
                items.get(*index).copied()?
            }
            Segment::Map { key } | Segment::Enum { variant: key } => members(node)?
                .into_iter()
                .rev()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)?,
            Segment::Unknown => return None,
        };
    }
    Some(node)
}

/// The members of a JSON object, in order; `None` for anything else.
pub(super) fn members(node: &RawValue) -> Option<Vec<(Cow<'_, str>, &RawValue)>> {
    struct Members<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

    impl<'de> Deserialize<'de> for Members<'de> {
        fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Members<'de>;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                    let mut out = Vec::new();
                    while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                        out.push((key, map.next_value::<&'de RawValue>()?));
                    }
                    Ok(Members(out))
                }
            }
            de.deserialize_map(V)
        }
    }

    serde_json::from_str::<Members<'_>>(node.get())
        .ok()
        .map(|m| m.0)
}

/// The keys of a JSON object, in order; `None` for anything else (values are skipped, not
/// parsed).
pub(super) fn object_keys(text: &str) -> Option<Vec<Cow<'_, str>>> {
    struct Keys<'a>(Vec<Cow<'a, str>>);

    impl<'de> Deserialize<'de> for Keys<'de> {
        fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Keys<'de>;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("an object")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                    let mut out = Vec::new();
                    while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                        map.next_value::<IgnoredAny>()?;
                        out.push(key);
                    }
                    Ok(Keys(out))
                }
            }
            de.deserialize_map(V)
        }
    }

    serde_json::from_str::<Keys<'_>>(text).ok().map(|k| k.0)
}

/// A JSON value as serde's `Unexpected` names it (`string "x"`, ``integer `3` ``, `map`).
pub(super) fn unexpected_of(node: &RawValue) -> String {
    let text = node.get();
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Null) => "unit value".to_owned(),
        Ok(serde_json::Value::Bool(b)) => format!("boolean `{b}`"),
        Ok(serde_json::Value::Number(n)) if n.is_f64() => format!("floating point `{n}`"),
        Ok(serde_json::Value::Number(n)) => format!("integer `{n}`"),
        Ok(serde_json::Value::String(s)) => format!("string {s:?}"),
        Ok(serde_json::Value::Array(_)) => "sequence".to_owned(),
        Ok(serde_json::Value::Object(_)) => "map".to_owned(),
        Err(_) => String::new(),
    }
}

/// The path (`.radius`, `[2].x`) of the one value below `node` that serde names `got`.
pub(super) fn unique_descendant(node: &RawValue, got: &str) -> Option<String> {
    fn walk(node: &RawValue, got: &str, here: &mut String, found: &mut Vec<String>, depth: usize) {
        if found.len() > 1 || depth > 32 {
            return;
        }
        let text = node.get().trim_start();
        if text.starts_with('{') {
            for (key, value) in members(node).unwrap_or_default() {
                let len = here.len();
                here.push('.');
                here.push_str(&shown(&key));
                if unexpected_of(value) == got {
                    found.push(here.clone());
                }
                walk(value, got, here, found, depth + 1);
                here.truncate(len);
            }
        } else if text.starts_with('[') {
            let items: Vec<&RawValue> = serde_json::from_str(node.get()).unwrap_or_default();
            for (index, value) in items.into_iter().enumerate() {
                let len = here.len();
                here.push_str(&format!("[{index}]"));
                if unexpected_of(value) == got {
                    found.push(here.clone());
                }
                walk(value, got, here, found, depth + 1);
                here.truncate(len);
            }
        }
    }
    let mut found = Vec::new();
    walk(node, got, &mut String::new(), &mut found, 0);
    match found.len() {
        1 => found.pop(),
        _ => None,
    }
}
