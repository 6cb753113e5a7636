//! Every problem of a tool's arguments, not only the first: serde stops at the first value it
//! refuses, so the text is mended there (the value replaced by one of the expected kind, a
//! missing property added) and read again, a bounded number of times. What the mending itself
//! causes below a mended value is not reported.

use serde::de::DeserializeOwned;
use serde_path_to_error::Segment;

use super::json::{members, object_keys, raw_at};
use super::{Problem, describe_error, path_text, strip_position};

/// How many times the text is read at most (each read is one pass over it).
const PASSES: usize = 48;

/// How many times one value is mended at most before the search stops.
const MENDS_PER_PATH: usize = 4;

/// The problems serde finds in `text` for `T`, in the order found (at least one when `T` does
/// not deserialise from `text`), and whether the search went to the end (`false` when it
/// stopped at its bound or at a value it could not mend).
pub(super) fn serde_problems<T: DeserializeOwned>(text: &str) -> (Vec<Problem>, bool) {
    let mut doc = text.to_owned();
    let mut found: Vec<Problem> = Vec::new();
    let mut mended: Vec<(String, usize)> = Vec::new();
    // The value mended by the previous pass: where serde buffers (a flattened struct, an
    // internally tagged enum) it names the buffered parent when it refuses the mended value.
    let mut last: Option<Vec<Segment>> = None;
    for _ in 0..PASSES {
        let de = &mut serde_json::Deserializer::from_str(&doc);
        let err = match serde_path_to_error::deserialize::<_, T>(de) {
            Ok(_) => return (found, true),
            Err(err) => err,
        };
        let mut target: Vec<Segment> = err.path().iter().cloned().collect();
        let inner = err.into_inner();
        let message = describe_error(&doc, &target, &inner);
        let raw = strip_position(&inner.to_string());
        let syntax = inner.is_syntax() || inner.is_eof();
        let missing = raw
            .strip_prefix("missing field `")
            .map(|f| f.trim_end_matches('`').to_owned());
        if let Some(field) = &missing {
            target.push(Segment::Map { key: field.clone() });
        }
        if missing.is_none()
            && let Some(last) = last.take()
            && within(&path_text(&last), &path_text(&target))
        {
            // The mended value refused again, named by its buffered parent: mend it again.
            target = last;
        }
        let key = path_text(&target);
        let below_mended = mended.iter().any(|(m, _)| within(&key, m));
        if !below_mended {
            found.push(Problem {
                property: top_level(&target),
                message,
            });
        }
        match mended.iter_mut().find(|(m, _)| *m == key) {
            Some((_, count)) if *count >= MENDS_PER_PATH => break,
            Some((_, count)) => *count += 1,
            None => mended.push((key, 1)),
        }
        if raw.starts_with("unknown variant `") && target.len() > 1 {
            // Below the top level, a variant may be the tag of the object around it: what the
            // variant put in its place needs is no problem of the caller's.
            mended.push((path_text(&target[..target.len() - 1]), MENDS_PER_PATH));
        }
        // serde_json refuses a value of the wrong kind for an enum as a syntax error: a string
        // is the kind it reads, and the next pass names the variants.
        let filler = if syntax {
            Some("\"\"".to_owned())
        } else {
            filler(&raw)
        };
        let Some(filler) = filler else { break };
        let next = match &missing {
            Some(field) => insert(&doc, &target[..target.len() - 1], field, filler),
            None => replace(&doc, &target, filler),
        };
        match next {
            Some(next) => doc = next,
            None => break,
        }
        last = Some(target);
    }
    (found, false)
}

/// Whether the path `key` is `at` or below it.
fn within(key: &str, at: &str) -> bool {
    key == at
        || at.is_empty()
        || key
            .strip_prefix(at)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

/// The top-level property a path is in.
fn top_level(segments: &[Segment]) -> Option<String> {
    match segments.first() {
        Some(Segment::Map { key }) | Some(Segment::Enum { variant: key }) => Some(key.clone()),
        _ => None,
    }
}

/// A value serde accepts where it refused one, read from its message; `None` when there is no
/// such value to try (the search stops).
fn filler(message: &str) -> Option<String> {
    if message.starts_with("missing field `") {
        return Some("null".to_owned());
    }
    if message == "number out of range" {
        return Some("0".to_owned());
    }
    if let Some(rest) = message.strip_prefix("unknown variant `")
        && let Some((_, allowed)) = rest.split_once("`, expected ")
    {
        let first = allowed.split('`').nth(1)?;
        return serde_json::to_string(first).ok();
    }
    if let Some(rest) = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        && let Some((_, expected)) = rest.split_once(", expected ")
    {
        return of_kind(expected);
    }
    None
}

/// A value of the kind serde expected.
fn of_kind(expected: &str) -> Option<String> {
    let t = expected.rsplit("::").next().unwrap_or(expected);
    let value = match t {
        "f32" | "f64" | "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32"
        | "i64" | "i128" | "isize" => "0",
        "a string" | "a borrowed string" | "String" | "str" | "a character" | "char" => "\"a\"",
        "a boolean" | "bool" => "false",
        "a sequence" => "[]",
        "unit" => "null",
        "variant identifier" => "\"\"",
        _ if t.starts_with("struct ") || t.starts_with("a map") || t.contains("enum ") => "{}",
        _ => return None,
    };
    Some(value.to_owned())
}

/// The byte range of the value at `segments` in `doc`.
fn span(doc: &str, segments: &[Segment]) -> Option<(usize, usize)> {
    let node = raw_at(doc, segments)?.get();
    let start = (node.as_ptr() as usize).checked_sub(doc.as_ptr() as usize)?;
    let end = start.checked_add(node.len())?;
    (end <= doc.len()).then_some((start, end))
}

/// `doc` with the value at `segments` replaced by `value`.
fn replace(doc: &str, segments: &[Segment], value: String) -> Option<String> {
    if segments.is_empty() {
        return None;
    }
    let (start, end) = span(doc, segments)?;
    Some(format!("{}{value}{}", &doc[..start], &doc[end..]))
}

/// `doc` with `field: value` added first to the object at `parent`.
fn insert(doc: &str, parent: &[Segment], field: &str, value: String) -> Option<String> {
    let (start, end) = span(doc, parent)?;
    let object = &doc[start..end];
    if !object.starts_with('{') {
        return None;
    }
    let empty = members(raw_at(doc, parent)?)?.is_empty();
    let key = serde_json::to_string(field).ok()?;
    let comma = if empty { "" } else { "," };
    Some(format!(
        "{}{{{key}:{value}{comma}{}",
        &doc[..start],
        &doc[start + 1..]
    ))
}

/// The problems in the order the message lists them: those of properties given in the
/// arguments in the order the arguments give them, then those of missing properties in the
/// order found (the order of the parameters).
pub(super) fn in_document_order(text: &str, problems: &mut [Problem]) {
    let keys: Vec<String> = object_keys(text)
        .unwrap_or_default()
        .into_iter()
        .map(|k| k.into_owned())
        .collect();
    problems.sort_by_key(|p| {
        p.property
            .as_ref()
            .and_then(|p| keys.iter().position(|k| k == p))
            .unwrap_or(usize::MAX)
    });
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::super::{problems, render};

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
    struct Due {
        date: String,
        remind: Option<u32>,
    }

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Args {
        occasion: Occasion,
        budget: f64,
        count: Option<u32>,
        due: Option<Due>,
        tags: Option<Vec<String>>,
    }

    fn all(text: &str) -> String {
        render(&problems::<Args>(text))
    }

    #[test]
    fn a_search_that_stops_early_says_so() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Pairs {
            a: u8,
            pair: (u8, u8),
            b: u8,
        }
        // A tuple of the wrong length cannot be mended: what comes after it is not known.
        assert_eq!(
            render(&problems::<Pairs>(r#"{"a": "x", "pair": [1], "b": "y"}"#)),
            "at least 2 problems:\n\
             - property 'a': expected a non-negative integer, got string \"x\"\n\
             - property 'pair': invalid length 1, expected a tuple of size 2"
        );
    }

    #[test]
    fn one_problem_is_told_as_before() {
        assert_eq!(
            all(r#"{"occasion":"birthday"}"#),
            "missing required property 'budget'"
        );
    }

    #[test]
    fn every_problem_is_listed_in_the_order_of_the_arguments_then_the_missing_ones() {
        assert_eq!(
            all(r#"{"count":-2,"occasion":"funeral","due":{"remind":"soon"},"tags":[1,"a",true]}"#),
            "7 problems:\n\
             - property 'count': expected a non-negative integer, got integer -2\n\
             - property 'occasion': 'funeral' is not an allowed value; expected 'birthday' or 'wedding'\n\
             - property 'due.remind': expected a non-negative integer, got string \"soon\"\n\
             - missing required property 'due.date'\n\
             - property 'tags[0]': expected a string, got integer 1\n\
             - property 'tags[2]': expected a string, got boolean true\n\
             - missing required property 'budget'"
        );
    }

    #[test]
    fn a_mended_value_is_not_reported_again() {
        // `occasion` of the wrong kind, then missing `budget`: the string put in place of the
        // number names the variants, which is not the caller's problem.
        assert_eq!(
            all(r#"{"occasion":3}"#),
            "2 problems:\n\
             - property 'occasion': expected a string, got integer 3\n\
             - missing required property 'budget'"
        );
        assert_eq!(
            all(r#"{"occasion":"birthday","budget":1,"due":7}"#),
            "property 'due': expected struct Due, got integer 7"
        );
    }

    #[test]
    fn more_than_ten_are_counted() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Many {
            a: u8,
            b: u8,
            c: u8,
            d: u8,
            e: u8,
            f: u8,
            g: u8,
            h: u8,
            i: u8,
            j: u8,
            k: u8,
            l: u8,
        }
        let text = r#"{"l":"x","k":"x","j":"x","i":"x","h":"x","g":"x","f":"x","e":"x","d":"x","c":"x","b":"x","a":"x"}"#;
        let listed = render(&problems::<Many>(text));
        let lines: Vec<&str> = listed.lines().collect();
        assert_eq!(lines.len(), 12, "{listed}");
        assert_eq!(lines[0], "12 problems:");
        assert_eq!(
            lines[1],
            "- property 'l': expected a non-negative integer, got string \"x\""
        );
        assert_eq!(lines[11], "- and 2 more");
        let missing = render(&problems::<Many>("{}"));
        assert!(missing.starts_with("12 problems:\n- missing required property 'a'\n"));
    }
}
