//! Argument validation messages a model can act on.
//!
//! The fast path deserialises arguments once, straight into the generated struct. Only when that
//! fails does this module run a second, path-tracking pass to say exactly what is wrong and where,
//! in words rather than serde's "line 1 column 2". Unknown properties are found before the call,
//! from the keys of the arguments object alone.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_path_to_error::Segment;

/// The longest input echoed in a message, in characters; longer ones are cut with their length.
const SHOWN: usize = 64;

/// Describes why `text` does not deserialise into `T`.
pub(crate) fn describe<T: DeserializeOwned>(text: &str) -> String {
    let de = &mut serde_json::Deserializer::from_str(text);
    let err = match serde_path_to_error::deserialize::<_, T>(de) {
        Ok(_) => return "invalid arguments".to_owned(),
        Err(err) => err,
    };
    let segments: Vec<Segment> = err.path().iter().cloned().collect();
    let inner = err.into_inner();
    let msg = strip_position(&inner.to_string());
    let node = raw_at(text, &segments);
    if msg == "number out of range" {
        let number = node.map_or_else(|| "a number".to_owned(), |n| shown(n.get()));
        return format!(
            "{}the number {number} is out of range: it is larger than any 64-bit floating point number",
            at(&path_text(&segments))
        );
    }
    if msg.starts_with("invalid value: expected key to be a number in quotes") {
        return numeric_key(text, &segments);
    }
    if inner.is_syntax() || inner.is_eof() {
        // The text is valid JSON (the envelope parser checked it): a "syntax" error here is
        // serde_json refusing a value of the wrong kind for an enum, which takes a string.
        return match node.and_then(|n| serde_json::from_str::<serde_json::Value>(n.get()).ok()) {
            Some(got) if !segments.is_empty() => format!(
                "{}expected a string, got {}",
                at(&path_text(&segments)),
                describe_value(&got)
            ),
            _ => "arguments are not valid JSON".to_owned(),
        };
    }
    let Some((got, expected)) = invalid(&msg) else {
        return phrase(&path_text(&segments), &msg);
    };
    if let Some(Segment::Map { key }) = segments.last()
        && got == format!("integer `{key}`")
        && node.is_some_and(|n| unexpected_of(n) != got)
    {
        // A map key that is not a number of the key type ("-1" for a `u32` key).
        let parent = path_text(&segments[..segments.len() - 1]);
        return format!(
            "{}key \"{}\" is not valid: expected {}",
            at(&parent),
            shown(key),
            friendly_type(expected)
        );
    }
    // An internally tagged enum is buffered before its variant is read, so the path stops at the
    // enum: when exactly one value below it is the one refused, that is where the error is.
    let mut path = path_text(&segments);
    if let Some(node) = node
        && unexpected_of(node) != got
        && let Some(below) = unique_descendant(node, got)
    {
        path.push_str(&below);
    }
    if let Some(range) = out_of_range(got, expected, node) {
        return format!("{}{range}", at(&path));
    }
    phrase(&path, &msg)
}

/// `(got, expected)` of serde's "invalid type: X, expected Y" and "invalid value: X, expected Y".
fn invalid(msg: &str) -> Option<(&str, &str)> {
    msg.strip_prefix("invalid type: ")
        .or_else(|| msg.strip_prefix("invalid value: "))?
        .split_once(", expected ")
}

/// "property 'a.b': " for a non-empty path.
fn at(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!("property '{path}': ")
    }
}

/// A path as serde_path_to_error writes it (`filter.shapes[0].radius`), but empty at the root.
fn path_text(segments: &[Segment]) -> String {
    let mut out = String::new();
    for segment in segments {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } => push_key(&mut out, key),
            Segment::Enum { variant } => push_key(&mut out, variant),
            Segment::Unknown => push_key(&mut out, "?"),
        }
    }
    out
}

fn push_key(out: &mut String, key: &str) {
    if !out.is_empty() {
        out.push('.');
    }
    out.push_str(&shown(key));
}

/// An input as echoed in a message: cut after [`SHOWN`] characters, with its length.
pub(crate) fn shown(text: &str) -> String {
    match text.char_indices().nth(SHOWN) {
        None => text.to_owned(),
        Some((cut, _)) => format!("{}… ({} bytes)", &text[..cut], text.len()),
    }
}

/// The JSON text at a serde path, without parsing the values on the way (numbers out of range
/// included).
fn raw_at<'a>(text: &'a str, segments: &[Segment]) -> Option<&'a RawValue> {
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
fn members(node: &RawValue) -> Option<Vec<(Cow<'_, str>, &RawValue)>> {
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
fn object_keys(text: &str) -> Option<Vec<Cow<'_, str>>> {
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
fn unexpected_of(node: &RawValue) -> String {
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
fn unique_descendant(node: &RawValue, got: &str) -> Option<String> {
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

/// "integer 300 is out of range; expected an integer from 0 to 255" for a number that does not
/// fit the integer type serde expected (a negative number for an unsigned type is left to the
/// plainer "expected a non-negative integer").
fn out_of_range(got: &str, expected: &str, node: Option<&RawValue>) -> Option<String> {
    let (min, max): (i128, i128) = match expected {
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" | "usize" => (0, u64::MAX.into()),
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" | "isize" => (i64::MIN.into(), i64::MAX.into()),
        _ => return None,
    };
    let literal = if let Some(n) = got.strip_prefix("integer `") {
        n.trim_end_matches('`').to_owned()
    } else if got.starts_with("floating point `") {
        // An integer literal too long for 64 bits arrives as a float: show it as written.
        let raw = node?.get();
        if !raw.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
            return None;
        }
        raw.to_owned()
    } else {
        return None;
    };
    if min == 0 && literal.starts_with('-') {
        return None;
    }
    Some(format!(
        "integer {} is out of range; expected an integer from {min} to {max}",
        shown(&literal)
    ))
}

/// A map key that is not a number, for a map with integer keys: found in the object at the
/// path's parent (the path ends with the key serde could not read).
fn numeric_key(text: &str, segments: &[Segment]) -> String {
    let parent = match segments.last() {
        Some(Segment::Unknown) => &segments[..segments.len() - 1],
        _ => segments,
    };
    let bad = raw_at(text, parent)
        .and_then(members)
        .and_then(|m| {
            m.into_iter()
                .map(|(k, _)| k)
                .find(|k| k.trim().parse::<i128>().is_err())
        })
        .map(|k| format!("key \"{}\"", shown(&k)))
        .unwrap_or_else(|| "a key".to_owned());
    format!(
        "{}{bad} is not an integer; the keys of this object are integers written as strings, e.g. \"1\"",
        at(&path_text(parent))
    )
}

/// The message for arguments naming properties the tool does not take (`known`, sorted), or
/// `None` when every property is known (or `text` is not an object: parsing reports that).
pub(crate) fn unknown_properties(text: &str, known: &[String]) -> Option<String> {
    let keys = object_keys(text)?;
    let mut unknown: Vec<&str> = Vec::new();
    for key in &keys {
        let key = key.as_ref();
        if known.binary_search_by(|k| k.as_str().cmp(key)).is_err() && !unknown.contains(&key) {
            unknown.push(key);
        }
    }
    if unknown.is_empty() {
        return None;
    }
    const LISTED: usize = 5;
    let mut listed: Vec<String> = unknown
        .iter()
        .take(LISTED)
        .map(|key| match closest(key, known) {
            Some(near) => format!("'{}' (did you mean '{near}'?)", shown(key)),
            None => format!("'{}'", shown(key)),
        })
        .collect();
    if unknown.len() > LISTED {
        listed.push(format!("and {} more", unknown.len() - LISTED));
    }
    let head = if unknown.len() == 1 {
        "unknown property"
    } else {
        "unknown properties"
    };
    let tail = if known.is_empty() {
        "this tool takes no arguments".to_owned()
    } else {
        let names: Vec<String> = known.iter().map(|k| format!("'{k}'")).collect();
        format!("allowed properties are {}", names.join(", "))
    };
    Some(format!("{head} {}; {tail}", listed.join(", ")))
}

/// The known property a misspelt one most likely meant: the same but for case, or one or two
/// edits away (the closest, the first of equals).
fn closest<'a>(key: &str, known: &'a [String]) -> Option<&'a str> {
    if key.chars().count() > SHOWN {
        return None;
    }
    if let Some(same) = known.iter().find(|k| k.eq_ignore_ascii_case(key)) {
        return Some(same);
    }
    known
        .iter()
        .map(|k| (edits(key, k), k))
        .filter(|(d, k)| *d <= 2 && *d < k.chars().count())
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.as_str())
}

/// The Levenshtein distance between two short strings.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(previous + 1);
        }
    }
    row[b.len()]
}

/// A JSON value in serde's words (`integer 3`, `boolean true`).
fn describe_value(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "null".into(),
        serde_json::Value::Bool(b) => format!("boolean {b}"),
        serde_json::Value::Number(n) if n.is_f64() => format!("floating point {n}"),
        serde_json::Value::Number(n) => format!("integer {n}"),
        serde_json::Value::String(s) => format!("string {:?}", shown(s)),
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
    let at = at(path);
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
        return format!(
            "{at}'{}' is not an allowed value; expected {allowed}",
            shown(value)
        );
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
    if let Some((got, expected)) = invalid(msg) {
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

    #[derive(Debug, Deserialize)]
    #[serde(tag = "kind", rename_all = "lowercase")]
    #[allow(dead_code)]
    enum Shape {
        Circle { radius: f64 },
        Square { side: f64, label: Option<String> },
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Filter {
        shapes: Vec<Shape>,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Wide {
        budget: Option<f64>,
        count: Option<u32>,
        small: Option<i8>,
        filter: Option<Filter>,
        stock: Option<std::collections::HashMap<u32, String>>,
    }

    #[test]
    fn a_number_beyond_f64_is_out_of_range_not_invalid_json() {
        assert_eq!(
            describe::<Wide>(r#"{"budget": 1e400}"#),
            "property 'budget': the number 1e400 is out of range: it is larger than any 64-bit floating point number"
        );
        assert_eq!(
            describe::<Wide>(r#"{"filter": {"shapes": [{"kind": "circle", "radius": -1e999}]}}"#),
            "property 'filter.shapes[0].radius': the number -1e999 is out of range: it is larger than any 64-bit floating point number"
        );
    }

    #[test]
    fn an_integer_beyond_its_type_names_the_range() {
        assert_eq!(
            describe::<Wide>(r#"{"count": 5000000000}"#),
            "property 'count': integer 5000000000 is out of range; expected an integer from 0 to 4294967295"
        );
        assert_eq!(
            describe::<Wide>(r#"{"small": -200}"#),
            "property 'small': integer -200 is out of range; expected an integer from -128 to 127"
        );
        assert_eq!(
            describe::<Wide>(r#"{"count": 18446744073709551616000}"#),
            "property 'count': integer 18446744073709551616000 is out of range; expected an integer from 0 to 4294967295"
        );
        assert_eq!(
            describe::<Wide>(r#"{"count": -3}"#),
            "property 'count': expected a non-negative integer, got integer -3"
        );
    }

    #[test]
    fn an_internally_tagged_enum_error_names_the_field() {
        assert_eq!(
            describe::<Wide>(r#"{"filter": {"shapes": [{"kind": "circle", "radius": "big"}]}}"#),
            "property 'filter.shapes[0].radius': expected a number, got string \"big\""
        );
        assert_eq!(
            describe::<Wide>(
                r#"{"filter": {"shapes": [{"kind": "square", "side": 2}, {"kind": "square", "side": 1, "label": 7}]}}"#
            ),
            "property 'filter.shapes[1].label': expected a string, got integer 7"
        );
        assert_eq!(
            describe::<Wide>(r#"{"filter": {"shapes": [{"kind": "circle"}]}}"#),
            "missing required property 'filter.shapes[0].radius'"
        );
        // Two values could be the one refused: the path stays at the enum.
        assert_eq!(
            describe::<Wide>(
                r#"{"filter": {"shapes": [{"kind": "square", "side": true, "note": true}]}}"#
            ),
            "property 'filter.shapes[0]': expected a number, got boolean true"
        );
    }

    #[test]
    fn a_map_key_that_is_not_a_number_is_named() {
        assert_eq!(
            describe::<Wide>(r#"{"stock": {"7": "pen", "x": "ink"}}"#),
            "property 'stock': key \"x\" is not an integer; the keys of this object are integers written as strings, e.g. \"1\""
        );
        assert_eq!(
            describe::<Wide>(r#"{"stock": {"-1": "pen"}}"#),
            "property 'stock': key \"-1\" is not valid: expected a non-negative integer"
        );
        assert_eq!(
            describe::<Wide>(r#"{"stock": {"1": 5}}"#),
            "property 'stock.1': expected a string, got integer 5"
        );
    }

    #[test]
    fn long_inputs_are_cut_in_messages() {
        let long = "x".repeat(1000);
        let text = format!(r#"{{"occasion": "{long}", "budget": 1}}"#);
        let msg = describe::<Args>(&text);
        assert_eq!(
            msg,
            format!(
                "property 'occasion': '{}… (1000 bytes)' is not an allowed value; expected 'birthday' or 'wedding'",
                "x".repeat(64)
            )
        );
    }

    fn known(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn unknown_properties_are_named_with_the_allowed_ones() {
        let k = known(&["limit", "priority", "query"]);
        assert_eq!(
            unknown_properties(r#"{"query": "x", "limit": 1}"#, &k),
            None
        );
        assert_eq!(
            unknown_properties(r#"{"query": "x", "limt": 1}"#, &k).unwrap(),
            "unknown property 'limt' (did you mean 'limit'?); allowed properties are 'limit', 'priority', 'query'"
        );
        assert_eq!(
            unknown_properties(
                r#"{"priorty": 1, "sort": "asc", "Query": "x", "sort": "x"}"#,
                &k
            )
            .unwrap(),
            "unknown properties 'priorty' (did you mean 'priority'?), 'sort', 'Query' (did you mean 'query'?); allowed properties are 'limit', 'priority', 'query'"
        );
        assert_eq!(
            unknown_properties(r#"{"x": 1}"#, &[]).unwrap(),
            "unknown property 'x'; this tool takes no arguments"
        );
        let many = r#"{"a1":1,"a2":1,"a3":1,"a4":1,"a5":1,"a6":1,"a7":1}"#;
        assert_eq!(
            unknown_properties(many, &known(&["zzzzzz"])).unwrap(),
            "unknown properties 'a1', 'a2', 'a3', 'a4', 'a5', and 2 more; allowed properties are 'zzzzzz'"
        );
        // Not an object, or not JSON: the parse that follows reports it.
        assert_eq!(unknown_properties("[1]", &k), None);
        assert_eq!(unknown_properties("{", &k), None);
        // Escaped keys are compared unescaped.
        assert_eq!(unknown_properties(r#"{"\u006cimit": 1}"#, &k), None);
    }

    #[test]
    fn edit_distance() {
        assert_eq!(edits("limt", "limit"), 1);
        assert_eq!(edits("kitten", "sitting"), 3);
        assert_eq!(edits("", "ab"), 2);
        assert_eq!(closest("a", &known(&["b"])), None);
    }
}
