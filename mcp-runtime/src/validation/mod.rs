//! Argument validation messages a model can act on.
//!
//! The fast path deserialises arguments once, straight into the generated struct. Only when that
//! fails does this module run a second, path-tracking pass to say exactly what is wrong and where,
//! in words rather than serde's "line 1 column 2", and then goes on past the first problem
//! (`collect`) so that the message lists every problem, at most [`LISTED`] of them. The bounds of
//! the input schema (`#[arg(min, max, pattern)]`) are checked alongside (`bounds`). Unknown
//! properties are found before the call, from the keys of the arguments object alone.

mod bounds;
mod collect;
mod json;
mod output;
mod unknown;

use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use serde_path_to_error::Segment;

pub(crate) use bounds::{Bounds, bound_problems, with_bounds};
pub(crate) use json::shown;
use json::{members, raw_at, unexpected_of, unique_descendant};
pub(crate) use output::{OutputCheck, check_outcome};
pub(crate) use unknown::unknown_properties;

/// How many problems one message lists at most; the rest are counted ("and 2 more").
pub(crate) const LISTED: usize = 10;

/// One problem of a call's arguments.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Problem {
    /// The top-level property it is in (`None` for the arguments as a whole).
    pub(crate) property: Option<String>,
    /// The message, naming the path (`property 'budget': expected a number, got string "ten"`).
    pub(crate) message: String,
}

/// The problems of a call's arguments, and whether they are all of them (a search that stopped
/// at its bound, or at a value it could not mend, knows only those before).
#[derive(Debug)]
pub(crate) struct Problems {
    pub(crate) list: Vec<Problem>,
    pub(crate) complete: bool,
}

/// Every problem of `text` for `T` and for the bounds of the running call's input schema, in
/// the order of the properties in `text` (missing properties last, in the parameters' order);
/// empty when `text` is fine.
pub(crate) fn problems<T: DeserializeOwned>(text: &str) -> Problems {
    let (mut found, complete) = collect::serde_problems::<T>(text);
    let refused: Vec<Option<String>> = found.iter().map(|p| p.property.clone()).collect();
    bounds::current(|b| {
        found.extend(
            b.problems(text)
                .into_iter()
                .filter(|p| p.property.is_none() || !refused.contains(&p.property)),
        );
    });
    if found.len() > 1 {
        collect::in_document_order(text, &mut found);
    }
    Problems {
        list: found,
        complete,
    }
}

/// The message listing `problems`: one as it is; more as `3 problems:` (`at least 3
/// problems:` when the search stopped early) and one line each, at most [`LISTED`], then
/// `- and N more`.
pub(crate) fn render(problems: &Problems) -> String {
    match problems.list.as_slice() {
        [] => "invalid arguments".to_owned(),
        [one] => one.message.clone(),
        many => {
            let at_least = if problems.complete { "" } else { "at least " };
            let mut out = format!("{at_least}{} problems:", many.len());
            for p in many.iter().take(LISTED) {
                out.push_str("\n- ");
                out.push_str(&p.message.replace('\n', "\\n"));
            }
            if many.len() > LISTED {
                out.push_str(&format!("\n- and {} more", many.len() - LISTED));
            }
            out
        }
    }
}

/// Describes why `text` does not deserialise into `T` (the first problem).
#[cfg(test)]
pub(crate) fn describe<T: DeserializeOwned>(text: &str) -> String {
    let de = &mut serde_json::Deserializer::from_str(text);
    match serde_path_to_error::deserialize::<_, T>(de) {
        Ok(_) => "invalid arguments".to_owned(),
        Err(err) => {
            let segments: Vec<Segment> = err.path().iter().cloned().collect();
            describe_error(text, &segments, &err.into_inner())
        }
    }
}

/// Describes serde's error `inner` at `segments` of `text`.
fn describe_error(text: &str, segments: &[Segment], inner: &serde_json::Error) -> String {
    let segments = segments.to_vec();
    let msg = strip_position(&inner.to_string());
    let node = raw_at(text, &segments);
    if msg == "number out of range" {
        return beyond_f64(node.map(|n| n.get().trim()), &segments);
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

/// A number beyond every 64-bit float (`1e400`, `-1e400`): its sign says which end it passed.
fn beyond_f64(number: Option<&str>, segments: &[Segment]) -> String {
    let at = at(&path_text(segments));
    match number {
        Some(n) if n.starts_with('-') => format!(
            "{at}the number {} is out of range: it is more negative than any 64-bit floating point number",
            shown(n)
        ),
        Some(n) => format!(
            "{at}the number {} is out of range: it is larger than any 64-bit floating point number",
            shown(n)
        ),
        None => format!("{at}a number is out of range for a 64-bit floating point number"),
    }
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
            "property 'filter.shapes[0].radius': the number -1e999 is out of range: it is more negative than any 64-bit floating point number"
        );
        assert_eq!(
            describe::<Wide>(r#"{"budget": -1e400}"#),
            "property 'budget': the number -1e400 is out of range: it is more negative than any 64-bit floating point number"
        );
        assert_eq!(
            describe::<Wide>(r#"{"budget": -0.5e400}"#),
            "property 'budget': the number -0.5e400 is out of range: it is more negative than any 64-bit floating point number"
        );
        assert_eq!(
            beyond_f64(None, &[]),
            "a number is out of range for a 64-bit floating point number"
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
}
